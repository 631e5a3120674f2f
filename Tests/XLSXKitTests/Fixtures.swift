import Foundation
@testable import XLSXKit

/// Fixtures live in Tests/Fixtures/xlsx and are written by scripts/fixtures/make_xlsx_fixtures.py.
func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xlsx/\(name)").path
}

/// Every fixture that is a valid workbook (the differential test runs on all of them).
let validFixtures = [
    "shared_and_rich_strings.xlsx", "inline_strings.xlsx", "no_r_attributes.xlsx", "prefixed_namespace.xlsx",
    "dates_builtin_and_custom.xlsx", "date1904.xlsx", "booleans_errors_formulas.xlsx", "entities_cdata.xlsx",
    "merged_header.xlsx", "stored_parts.xlsx",
]

/// The error's one-line message, or nil when the body did not throw.
func message(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return "\(error)"
    }
}

func allRows(_ source: some SheetRowSource) throws -> [SheetRow] {
    var source = source
    var rows: [SheetRow] = []
    while let row = try source.nextRow() { rows.append(row) }
    return rows
}

func rows(_ file: String, sheet: Int = 0) throws -> [SheetRow] {
    try allRows(Workbook(path: fixture(file)).worksheet(at: sheet).rows())
}

func date(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> CellValue {
    .date(ExcelDateTime(year: y, month: m, day: d, hour: h, minute: mi, second: s))
}
