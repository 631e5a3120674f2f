import Foundation
import Metrics
import OwnerDashCore
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
}
