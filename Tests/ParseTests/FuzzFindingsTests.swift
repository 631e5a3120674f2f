import Foundation
import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

/// Money cells that do not fit (found by fuzzing: a 1e17 cell once killed `load` with SIGILL): one line naming
/// the sheet, row and column, never a trap.
@Suite struct MoneyOverflowTests {
    static func fuzzFixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz/\(name)").path
    }

    @Test func theFuzzedDelinquencyReportNamesTheCell() throws {
        let file = try SpreadsheetFile(path: Self.fuzzFixture("money-overflow-1e17.xlsx"))
        let sheet = try file.sheet(at: 0)
        var rows = try sheet.rows()
        let error = #expect(throws: ReportParseError.self) {
            _ = try parse(nil, source: &rows, merges: try sheet.mergedRanges(), sheetName: sheet.name)
        }
        #expect(error?.description
            == "delinquency: sheet \"Delinquency\" row 7, column \"0-30\": \"1e+17\" is not a money amount within $10,000,000,000 either way")
    }

    @Test func numbersPastTheLargestAmountAreRefused() throws {
        #expect(try CellValue.number(10_000_000_000).money() == Money(cents: 1_000_000_000_000))
        #expect(try CellValue.number(-10_000_000_000).money() == Money(cents: -1_000_000_000_000))
        for value in [10_000_000_000.01, -1e17, 1e300, Double.greatestFiniteMagnitude] {
            #expect(throws: CellTextError(text: String(value), expected: "money amount within $10,000,000,000 either way")) {
                _ = try CellValue.number(value).money()
            }
        }
        #expect(throws: CellTextError(text: "nan", expected: "money amount")) { _ = try CellValue.number(.nan).money() }
        #expect(throws: CellTextError(text: "inf", expected: "money amount")) { _ = try CellValue.number(.infinity).money() }
    }

    /// Text amounts get the same bound, so sums of any sheet's amounts stay exact.
    @Test func textPastTheLargestAmountIsRefused() throws {
        #expect(try MoneyText.parse("$10,000,000,000.00") == Money(cents: 1_000_000_000_000))
        #expect(throws: CellTextError(text: "$10,000,000,000.01", expected: "money amount within $10,000,000,000 either way")) {
            _ = try MoneyText.parse("$10,000,000,000.01")
        }
        #expect(throws: CellTextError(text: "(92233720368547758.07)", expected: "money amount within $10,000,000,000 either way")) {
            _ = try MoneyText.parse("(92233720368547758.07)")
        }
    }
}
