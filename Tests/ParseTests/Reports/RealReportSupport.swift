import OwnerDashCore
@testable import Parse
import XLSXKit

/// Tests/Fixtures/real-onesite: real OneSite downloads, anonymized, kept exactly as downloaded (names included).
let realOneSiteFixtures: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/Fixtures/real-onesite"
}()

/// Parses one sheet of a real download through `SpreadsheetFile` (read by its bytes, as `ownerdash load` reads it).
func parseRealFile(_ name: String, sheet index: Int = 0, as type: ReportType? = nil) throws -> ParseResult {
    let file = try SpreadsheetFile(path: realOneSiteFixtures + "/" + name)
    let sheet = try file.sheet(at: index)
    var rows = try sheet.rows()
    return try parse(type, source: &rows, merges: try sheet.mergedRanges(), sheetName: sheet.name)
}

extension ParseResult {
    /// The descriptor-table records of one table, in sheet order.
    func rows(of table: String) -> [RawRow] {
        records.compactMap { if case .row(let row) = $0, row.table.name == table { return row } else { return nil } }
    }
}

extension [RawRow] {
    /// The sum of an integer column.
    func count(_ column: String) -> Int {
        reduce(0) { if case .integer(let n) = $1[column] { $0 + n } else { $0 } }
    }

    /// The sum of a money column.
    func money(_ column: String) -> Money {
        reduce(.zero) { $0 + ($1[column].money ?? .zero) }
    }
}

/// A real download's sheet with one cell replaced (in the row numbered `row`, or the first row holding the text
/// `inRowWith`), to prove the reconciliation catches a value that changed.
func realRowsReplacing(_ name: String, row: Int? = nil, inRowWith label: String? = nil, column: Int,
                       with value: CellValue) throws -> (rows: [SheetRow], merges: [MergedRange], sheet: String) {
    let file = try SpreadsheetFile(path: realOneSiteFixtures + "/" + name)
    let sheet = try file.sheet(at: 0)
    var source = try sheet.rows()
    var rows: [SheetRow] = []
    while let next = try source.nextRow() {
        var cells = next.cells
        if next.number == row || (label != nil && next.cells.contains { $0.text == label }) {
            if cells.count <= column { cells += Array(repeating: .empty, count: column + 1 - cells.count) }
            cells[column] = value
        }
        rows.append(SheetRow(number: next.number, cells: cells))
    }
    return (rows, try sheet.mergedRanges(), sheet.name)
}
