import Foundation
import Metrics
import OwnerDashCore
import RawStore
import SQLiteKit
@testable import Sync
import Testing

/// unified_expenses from Yardi invoice lines (YardiExpenses.swift), on hand-made raw rows.
@Suite struct YardiExpensesTests {
    @Test func linesCountInTheirPostMonthPerGLAccountWithTheRegistrysCategories() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.unit("101", "Occupied No Notice", tenant: "t101")
        // A water bill dated in October, posted to November: a November expense.
        try yardi.invoiceLine("900", postMonth: "2026-11", invoiceDate: "2026-10-29", account: "6720",
                              name: "Utilities - Water/Sewer", amount: 2866.15)
        // Two plumbing invoices and a credit line in October: summed, the credit taken off.
        try yardi.invoiceLine("901", postMonth: "2026-10", invoiceDate: "2026-10-03", account: "6310",
                              name: "Repairs & Maintenance - Plumbing", amount: 296.95)
        try yardi.invoiceLine("901", postMonth: "2026-10", invoiceDate: "2026-10-03", account: "6310", amount: -173.50)
        try yardi.invoiceLine("902", postMonth: "2026-10", invoiceDate: "2026-10-21", account: "6310", amount: 0.10)
        // An account no category names, but an operating one: Other, and a warning.
        try yardi.invoiceLine("903", postMonth: "2026-10", invoiceDate: "2026-10-05", account: "7450",
                              name: "Resident Events", amount: 120)
        // A capital improvement on a balance-sheet account is not an operating expense.
        try yardi.invoiceLine("904", postMonth: "2026-10", invoiceDate: "2026-10-06", account: "1610",
                              name: "Building Improvements", amount: 18_000)
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(try yardi.rows("SELECT expense_source FROM unified_properties") == [[.text(YardiExpenses.source)]])
        #expect(try yardi.rows("""
            SELECT month, gl_account, account_name, gl_category, category_known, amount, source FROM unified_expenses
            ORDER BY month, gl_account
            """) == [
            [.text("2026-10"), .text("6310"), .text("Repairs & Maintenance - Plumbing"), .text("Repairs & Maintenance"),
             .integer(1), .real(123.55), .text(YardiExpenses.source)],
            [.text("2026-10"), .text("7450"), .text("Resident Events"), .text("Other"), .integer(0), .real(120),
             .text(YardiExpenses.source)],
            [.text("2026-11"), .text("6720"), .text("Utilities - Water/Sewer"), .text("Utilities"), .integer(1),
             .real(2866.15), .text(YardiExpenses.source)],
        ])
        #expect(outcome.warnings.contains { $0.check == "gl_category" && $0.subject == "7450" })
        #expect(!outcome.warnings.contains { $0.subject == "1610" })
    }

    @Test func eachMonthComesFromTheLatestRegisterThatAskedForIt() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.unit("101", "Occupied No Notice", tenant: "t101")
        // The October run asked for 2025-11 .. 2026-10; the November run for 2025-12 .. 2026-11.
        try yardi.loaded("GetInvoiceRegister", asOf: "2026-10-20")
        try yardi.invoiceLine("800", postMonth: "2025-11", invoiceDate: "2025-11-10", account: "6510", amount: 400,
                              asOf: "2026-10-20")
        try yardi.invoiceLine("801", postMonth: "2026-09", invoiceDate: "2026-09-10", account: "6510", amount: 410,
                              asOf: "2026-10-20")
        try yardi.invoiceLine("802", postMonth: "2026-10", invoiceDate: "2026-10-02", account: "6510", amount: 999,
                              asOf: "2026-10-20")
        // November: October's invoice was corrected, September's voided (no line any more).
        try yardi.invoiceLine("802", postMonth: "2026-10", invoiceDate: "2026-10-02", account: "6510", amount: 420)
        try yardi.invoiceLine("803", postMonth: "2026-11", invoiceDate: "2026-11-03", account: "6510", amount: 430)
        // A register loaded after the property date is not read.
        try yardi.loaded("GetInvoiceRegister", asOf: "2026-12-20")
        try yardi.invoiceLine("804", postMonth: "2026-11", invoiceDate: "2026-11-30", account: "6510", amount: 5,
                              asOf: "2026-12-20")
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil)
        #expect(try yardi.rows("SELECT month, amount FROM unified_expenses ORDER BY month") == [
            [.text("2025-11"), .real(400)], [.text("2026-10"), .real(420)], [.text("2026-11"), .real(430)],
        ])
    }

    @Test func withoutAnInvoiceRegisterThePropertyHasNoExpenseSource() throws {
        let yardi = try YardiFixture()
        try yardi.loaded("GetUnitInformation")
        try yardi.unit("101", "Occupied No Notice", tenant: "t101")
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil)
        #expect(try yardi.rows("SELECT expense_source FROM unified_properties") == [[.null]])
        #expect(try yardi.rows("SELECT count(*) FROM unified_expenses") == [[.integer(0)]])
        #expect(outcome.warnings.contains { $0.check == "snapshot" && $0.subject == "GetInvoiceRegister" && $0.actual == "none" })
        let report = try ExpenseReport.run(database: yardi.store.database, properties: [YardiFixture.property.key],
                                           start: "2026-11", months: 1)
        #expect(report.noSource == [YardiFixture.property.key])
    }

    @Test func pruningMonthsALaterRequestCoveredLeavesTheExpensesAsTheyWere() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.unit("101", "Occupied No Notice", tenant: "t101")
        // Twelve nightly answers, each for the 12 post months to its own; October's plumbing invoice voided on the
        // 8th night (a later answer leaves it out), and one answer, on the 1st, for a month no later one asks for.
        for night in 1...12 {
            let asOf = LocalDate(iso: "2026-11-08")!.adding(days: night).iso
            try yardi.loaded("GetInvoiceRegister", asOf: asOf)
            try yardi.invoiceLine("900", postMonth: "2026-11", invoiceDate: "2026-10-29", account: "6720", amount: 2866.15, asOf: asOf)
            if night < 8 {
                try yardi.invoiceLine("901", postMonth: "2026-10", invoiceDate: "2026-10-03", account: "6310", amount: 296.95, asOf: asOf)
            }
            try yardi.invoiceLine("902", postMonth: "2025-12", invoiceDate: "2025-12-15", account: "6610", amount: 400, asOf: asOf)
        }
        try yardi.loaded("GetInvoiceRegister", asOf: "2025-12-31")
        try yardi.invoiceLine("899", postMonth: "2025-01", invoiceDate: "2025-01-10", account: "6610", amount: 75, asOf: "2025-12-31")
        #expect(yardi.sync().first?.error == nil)
        let expenses = "SELECT month, gl_account, amount FROM unified_expenses ORDER BY 1, 2"
        let before = try yardi.rows(expenses)
        #expect(before.map { $0[0] } == [.text("2025-01"), .text("2025-12"), .text("2026-11")], "the voided October line is gone")
        let lines = try yardi.rows("SELECT count(*) FROM yardi_raw.yardi_invoice_lines").first?.first?.integerValue ?? 0

        let result = try RawRetention.prune(path: yardi.raw.database.path, keyColumn: "operation",
                                            policy: RawSnapshotPolicy(keepDays: 2, keepMonthly: 1), dryRun: false)
        let after = try yardi.rows("SELECT count(*) FROM yardi_raw.yardi_invoice_lines").first?.first?.integerValue ?? 0
        #expect(after < lines && result.rows > 0, "\(lines) -> \(after) lines")
        #expect(yardi.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try yardi.rows(expenses) == before)
    }
}
