import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Report_4028_Nexus_East.xls: the real Transaction Detail by Code (report 4028), an xlsx of four sheets: Index
// (the title block), Detail (5,750 transactions, no totals row), Summary and Net total by G/L Account (each ending
// in `Totals`: 1,247,374 debit and credit; the net sheet prints them negated).
@Suite struct TransactionDetailTests {
    static let file = "Report_4028_Nexus_East.xls"

    @Test func theIndexSheetNamesReportPropertyAndDate() throws {
        let index = try realSheet(Self.file, sheet: "Index")
        let title = TitleBlock(rows: index.rows)
        #expect(title.reportType == .transactionDetail, "`Transaction Detail by Code - Excel`")
        #expect(title.propertyName == "Nexus East", "from `Property Name:`, not `Excel` from the title")
        #expect(title.asOf == LocalDate(iso: "2026-02-14"))
        #expect(title.fiscalPeriod == "2026-02")
    }

    @Test func everyTransactionOfTheDetailSheet() throws {
        let result = try parseReal(Self.file, sheet: "Detail")
        #expect(result.summary.metadata.reportType == .transactionDetail, "detected from its header")
        #expect(result.summary.warnings == [])
        let transactions = result.rows("realpage_transaction_detail")
        #expect(transactions.count == 5_750)
        #expect(transactions.allSatisfy { text($0, "unit_number") != nil && text($0, "transaction_code") != nil })
        // Every line is balanced: what it debits one G/L account it credits the other.
        #expect(total(transactions, "debit_amount") == -total(transactions, "credit_amount"))
        let moveOut = try #require(transactions.first { $0.sourceRow == 13 })
        #expect(text(moveOut, "unit_number") == "1119")
        #expect(text(moveOut, "description") == "Move Out Credit")
        #expect(text(moveOut, "transaction_code") == "C-CA-RENT")
        #expect(moveOut["amount"] == .money(usd(-713)))
        #expect(moveOut["ledger_date"] == .date(LocalDate(iso: "2026-02-11")!))
        #expect(moveOut["accounting_date"] == .date(LocalDate(iso: "2026-02-01")!))
        #expect(text(moveOut, "debit_gl_account") == "5100-0001")
        #expect(text(moveOut, "fiscal_period") == "022026")
        let codes = Set(transactions.compactMap { text($0, "transaction_code") })
        #expect(codes.contains("P-PZ-PMTOPACH") && codes.contains("C-CB-LATEFEE"), "payments and charges alike")
    }

    @Test func theSummarySheetAndItsTotals() throws {
        let result = try parseReal(Self.file, sheet: "Summary")
        #expect(result.summary.metadata.reportType == .transactionDetailSummary)
        #expect(result.summary.warnings == [])
        let rows = result.rows("realpage_transaction_detail_summary")
        #expect(rows.count == 212)
        #expect(total(rows, "debit") == usd(1_247_374))
        #expect(total(rows, "credit") == usd(1_247_374))
    }

    @Test func theNetByGLAccountSheetAndItsNegatedTotals() throws {
        let result = try parseReal(Self.file, sheet: "Net Total by GL Account")
        #expect(result.summary.metadata.reportType == .transactionDetailGLNet)
        #expect(result.summary.warnings == [])
        let rows = result.rows("realpage_transaction_detail_gl_net")
        #expect(rows.count == 212)
        #expect(total(rows, "debit") == usd(1_247_374))
        #expect(text(rows[0], "gl_account_name") == "A/R - Tenants")
    }

    @Test func aChangedSummaryAmountIsCaught() throws {
        let result = try parseReal(Self.file, sheet: "Summary") { $0[2, "F"] = .number(534_500) }
        #expect(result.summary.warnings.count == 1)
        #expect(result.summary.warnings.first?.contains("credit") == true)
    }

    @Test func aNetAmountMovedToTheOtherSideIsCaught() throws {
        let result = try parseReal(Self.file, sheet: "Net Total by GL Account") { rows in
            rows[2, "G"] = rows[2, "F"]
            rows[2, "F"] = .number(0)
        }
        let warnings = result.summary.warnings
        #expect(warnings.contains { $0.contains("debit (printed negated)") })
        #expect(warnings.contains { $0.contains("credit (printed negated)") })
    }
}
