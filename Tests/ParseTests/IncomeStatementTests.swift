import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Expected values are worked out by hand from INCOME_SECTIONS and WORKSHEET_LINES in
// scripts/fixtures/make_report_fixtures.py.

@Suite("Income Statement")
struct IncomeStatementTests {
    @Test("income_statement_by_gl: nine accounts under INCOME / EXPENSES, period, YTD and budget columns")
    func byGL() throws {
        let result = try parseFixture("income_statement_by_gl.xlsx")
        #expect(result.metadata?.reportType == .incomeStatement)
        #expect(result.metadata?.asOf == ymd("2026-01-31") && result.metadata?.propertyName == "Nexus East")
        let rows = result.incomeLines
        #expect(rows.map(\.accountNumber) == ["5100-0001", "5100-0200", "5100-0201", "5200-0001", "5200-0090",
                                              "6100-0001", "6100-0002", "6300-0001", "6300-0002"])
        #expect(rows.map(\.section) == Array(repeating: "INCOME", count: 5) + Array(repeating: "EXPENSES", count: 4))
        #expect(rows.map(\.category) == ["Rental Income", "Rental Income", "Rental Income", "Other Income",
                                         "Other Income", "Payroll", "Payroll", "Repairs & Maintenance",
                                         "Repairs & Maintenance"])
        let vacancy = rows[2]
        #expect(vacancy.accountName == "Vacancy")
        #expect(vacancy.periodAmount == usd(-18_517) && vacancy.budgetAmount == usd(-14_500))
        #expect(vacancy.ytdAmount == usd(-35_034) && vacancy.ytdBudgetAmount == usd(-29_000))
        #expect(rows[4].periodAmount == usd(194, 90) && rows[4].ytdAmount == usd(412, 40))
        #expect(rows[8].accountName == "Plumbing Repairs" && rows[8].periodAmount == usd(615, 25))
        #expect(rows.allSatisfy { $0.fiscalPeriod == "2026-01" })
        // Expenses: 18,250 + 14,800 + 2,340 + 615.25.
        #expect(rows[5...].compactMap(\.periodAmount).reduce(.zero, +) == usd(36_005, 25))
        #expect(result.summary.warnings.isEmpty, "every group and section total adds up; NOI is not checked")
    }

    @Test("income_statement_totals_mismatch: TOTAL EXPENSES printed $100 over its accounts")
    func totalsMismatch() throws {
        let result = try parseFixture("income_statement_totals_mismatch.xlsx")
        #expect(result.incomeLines.count == 9)
        #expect(result.summary.warnings == [
            "income statement: data rows sum to 36005.25 period amount but \"TOTAL EXPENSES\" (row 29) says 36105.25",
        ])
    }

    @Test("income_statement_worksheet: Account | Sign | Amount, signed by the Sign column, nested headings")
    func worksheet() throws {
        let result = try parseFixture("income_statement_worksheet.xlsx")
        #expect(result.metadata?.reportType == .incomeStatement)
        #expect(result.metadata?.asOf == ymd("2026-02-18") && result.metadata?.propertyName == "Nexus East")
        let rows = result.incomeLines
        #expect(rows.map(\.accountNumber) == ["5100-0001", "5200-0001", "5300-0007", "1200-0002", "5100-0200",
                                              "5100-0201", "5100-0202", "PZ"])
        #expect(rows.map(\.periodAmount) == [usd(285_593), usd(1_750), usd(-5), usd(-2_991, 17), usd(-1_951),
                                             usd(-118_517), usd(-38_389, 41), usd(-6_337, 66)])
        #expect(rows[2].accountName == "Utilities Income - Pest Control")
        #expect(rows[7].accountName == "Ending 0 to 30 Delinq")
        #expect(rows.allSatisfy { $0.section == "INCOME" && $0.fiscalPeriod == "2026-02" && $0.ytdAmount == nil })
        #expect(rows.map(\.category) == Array(repeating: "MARKET RENT (5100-0001) AND OTHER INCOME", count: 4)
            + Array(repeating: "PREPAID RENT (2200-0001) INCOME", count: 3) + ["BANK DEPOSITS (PZ) INCOME"])
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("income_statement_worksheet_as_html: the HTML page OneSite sends (indents lost) gives the same lines")
    func worksheetAsHTML() throws {
        let book = try SpreadsheetFile(path: reportFixtures + "/income_statement_worksheet_as_html.xlsx")
        #expect(book.format == .html)
        let sheet = try book.sheet(at: 0)
        var rows = try sheet.rows()
        let html = try parse(nil, source: &rows, merges: try sheet.mergedRanges(), sheetName: sheet.name)
        let xlsx = try parseFixture("income_statement_worksheet.xlsx")
        #expect(html.metadata == xlsx.metadata)
        #expect(html.incomeLines.map(\.accountNumber) == xlsx.incomeLines.map(\.accountNumber))
        #expect(html.incomeLines.map(\.periodAmount) == xlsx.incomeLines.map(\.periodAmount))
        #expect(html.incomeLines.map(\.section) == xlsx.incomeLines.map(\.section))
        #expect(html.incomeLines.map(\.category) == xlsx.incomeLines.map(\.category))
        #expect(html.summary.warnings.isEmpty)
    }

    func worksheetSheet(total: String) -> SheetBuilder {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "INCOME STATEMENT WORKSHEET", code: "120.080.131")
        sheet.add("Account", "Sign", "Amount")
        sheet.add("EXPENSES")
        sheet.add("  Payroll")
        sheet.add("    6100-0001 - Salaries", "+", "18,250.00")
        sheet.add("    6100-0009 - Payroll Refund", "-", "250.00")
        sheet.add("  NET Payroll", "=", total)
        return sheet
    }

    @Test("a worksheet total that disagrees with the signed lines above it is a warning")
    func worksheetMismatch() throws {
        #expect(try parse(nil, worksheetSheet(total: "18,000.00")).summary.warnings.isEmpty)
        #expect(try parse(nil, worksheetSheet(total: "18,500.00")).summary.warnings
            == ["income statement: data rows sum to 18000.00 amount but \"NET Payroll\" (row 13) says 18500.00"])
    }

    @Test("the period column missing is the one-line error naming it")
    func missingColumn() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "INCOME STATEMENT")
        sheet.add("Account", "Account Name", "YTD Actual", "Budget")
        sheet.add("5100-0001", "Market Rent", "571,186.00", 290000.0)
        let error = parseError(nil, sheet)
        #expect(error?.kind == .missingColumn)
        #expect(error?.description == "income statement: missing required column \"Period\" (found: Account, "
            + "Account Name, YTD Actual, Budget) in the header at row 7 of sheet \"Report\"")
    }
}
