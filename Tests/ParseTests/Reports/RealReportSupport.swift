import OwnerDashCore
@testable import Parse
import XLSXKit

// Reading the real OneSite downloads in Tests/Fixtures/real-onesite (kept as downloaded, anonymized in place) for
// the report tests: a sheet's rows, optionally edited (a value changed or moved) before they are parsed.

let realOneSiteFixtures: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/Fixtures/real-onesite"
}()

/// Every row of one sheet of a real download (the first sheet when `sheet` is nil), and its merged ranges.
func realSheet(_ file: String, sheet: String? = nil) throws -> (rows: [SheetRow], merges: [MergedRange], name: String) {
    let book = try SpreadsheetFile(path: realOneSiteFixtures + "/" + file)
    let chosen = try sheet.map { try book.sheet(named: $0) } ?? book.sheet(at: 0)
    var source = try chosen.rows()
    var rows: [SheetRow] = []
    while let row = try source.nextRow() { rows.append(row) }
    return (rows, try chosen.mergedRanges(), chosen.name)
}

/// Parses one sheet of a real download, after `edit` changed its rows (nothing by default).
func parseReal(_ file: String, sheet: String? = nil, as type: ReportType? = nil,
               edit: (inout [SheetRow]) -> Void = { _ in }) throws -> ParseResult {
    var (rows, merges, name) = try realSheet(file, sheet: sheet)
    edit(&rows)
    var source = InMemoryRows(rows)
    return try parse(type, source: &source, merges: merges, sheetName: name)
}

/// The 0-based index of an Excel column (`A` -> 0, `AB` -> 27).
func column(_ letters: String) -> Int {
    letters.unicodeScalars.reduce(0) { $0 * 26 + Int($1.value) - 64 } - 1
}

extension Array where Element == SheetRow {
    /// The cell at sheet row `row` (1-based, as Excel shows it) and column `letters`.
    subscript(row: Int, letters: String) -> CellValue {
        get {
            guard let found = first(where: { $0.number == row }) else { return .empty }
            return found[column(letters)]
        }
        set {
            guard let index = firstIndex(where: { $0.number == row }) else { preconditionFailure("no row \(row)") }
            let target = column(letters)
            if self[index].cells.count <= target {
                self[index].cells += [CellValue](repeating: .empty, count: target + 1 - self[index].cells.count)
            }
            self[index].cells[target] = newValue
        }
    }

    /// Moves a value from one column to another on the same row (what a drifted export does).
    mutating func move(row: Int, from: String, to: String) {
        let value = self[row, from]
        self[row, from] = .empty
        self[row, to] = value
    }
}

extension ParseResult {
    /// The records of one descriptor-declared table, in sheet order.
    func rows(_ table: String) -> [RawRow] {
        records.compactMap { if case .row(let row) = $0, row.table.name == table { return row } else { return nil } }
    }
}

/// The sum of a money column over records.
func total(_ rows: [RawRow], _ column: String) -> Money {
    rows.reduce(Money.zero) { $0 + ($1[column].money ?? .zero) }
}

/// The text of a column of a record, nil when it is not text.
func text(_ row: RawRow, _ column: String) -> String? {
    if case .text(let value) = row[column] { return value }
    return nil
}

extension [RawRow] {
    /// The sum of an integer column.
    func count(_ column: String) -> Int {
        reduce(0) { if case .integer(let n) = $1[column] { $0 + n } else { $0 } }
    }
}

extension Array where Element == SheetRow {
    /// The sheet row number of the first row holding `text` in a cell.
    func number(ofRowWith text: String) -> Int? {
        first { $0.cells.contains { $0.text == text } }?.number
    }
}
