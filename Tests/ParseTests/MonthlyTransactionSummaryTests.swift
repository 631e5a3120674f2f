import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Expected values are worked out by hand from TRANSACTION_CATEGORIES in scripts/fixtures/make_report_fixtures.py.

@Suite("Monthly Transaction Summary")
struct MonthlyTransactionSummaryTests {
    @Test("monthly_transaction_summary: seven codes under CHARGES / CREDITS / PAYMENTS; the Category section is not read")
    func codes() throws {
        let result = try parseFixture("monthly_transaction_summary.xlsx")
        #expect(result.metadata?.reportType == .monthlyTransactionSummary)
        #expect(result.metadata?.asOf == ymd("2026-01-31"))
        let rows = result.transactionCodes
        #expect(rows.map(\.code) == ["RENT", "PETRENT", "LATEFEE", "WATER", "CONC", "PAYMENT", "NSF"])
        #expect(rows.map(\.category) == ["CHARGES", "CHARGES", "CHARGES", "CHARGES", "CREDITS", "PAYMENTS",
                                         "PAYMENTS"])
        #expect(rows.map(\.transactionGroup) == ["CA", "CA", "CO", "CO", "PC", "PZ", "PZ"])
        let rent = rows[0]
        #expect(rent.description == "Rent" && rent.glAccount == "5100-0001")
        #expect(rent.ytdPriorAmount == usd(1_142_372) && rent.periodAmount == usd(285_593))
        #expect(rent.ytdAmount == usd(1_427_965), "1,142,372.00 + 285,593.00")
        #expect(rows[4].periodAmount == usd(-38_389, 41) && rows[4].ytdAmount == usd(-191_947, 05))
        #expect(rows[6].periodAmount == usd(0) && rows[6].ytdAmount == usd(1_200))
        #expect(rows.allSatisfy { $0.fiscalPeriod == "2026-01" })
        #expect(result.summary.warnings.isEmpty, "three heading totals and the grand total add up")
    }

    @Test("monthly_transaction_totals_mismatch: the CHARGES total prints This Month $10 short")
    func mismatch() throws {
        let result = try parseFixture("monthly_transaction_totals_mismatch.xlsx")
        #expect(result.transactionCodes.count == 7)
        #expect(result.summary.warnings == [
            "monthly transaction summary: data rows sum to 287655.52 this month but \"Total:\" (row 13) says 287645.52",
        ])
    }

    @Test("a grand total after the heading totals sums the whole detail")
    func grandTotal() throws {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "MONTHLY TRANSACTION SUMMARY")
        sheet.add("Group", "Trans Code", "Description", "This Month")
        sheet.add("CHARGES")
        sheet.add("CA", "RENT", "Rent", "1,000.00")
        sheet.add(nil, nil, "Total:", "1,000.00")
        sheet.add("PAYMENTS")
        sheet.add("PZ", "PAYMENT", "Payment", "(900.00)")
        sheet.add(nil, nil, "Total:", "(900.00)")
        sheet.add(nil, nil, "Grand Total:", "150.00")
        #expect(try parse(nil, sheet).summary.warnings
            == ["monthly transaction summary: data rows sum to 100.00 this month but \"Grand Total:\" (row 14) says 150.00"])
    }

    @Test("This Month missing is the one-line error naming it")
    func missingColumn() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "MONTHLY TRANSACTION SUMMARY")
        sheet.add("Group", "Trans Code", "Description", "YTD Last Month")
        sheet.add("CA", "RENT", "Rent", "1,142,372.00")
        let error = parseError(nil, sheet)
        #expect(error?.kind == .missingColumn)
        #expect(error?.description == "monthly transaction summary: missing required column \"This Month\" (found: "
            + "Group, Trans Code, Description, YTD Last Month) in the header at row 7 of sheet \"Report\"")
    }
}
