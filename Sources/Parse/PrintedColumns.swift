import OwnerDashCore
import XLSXKit

// Reading the Crystal Reports page-image exports of the financial reports (Cash Basis G/L Distribution, Monthly
// Income Summary, Collections, Charge and Adjustment Journal). Their values do not sit in the header's columns:
// Crystal places each text box where the designer drew it, so a value lands up to two columns beside its header,
// and totals rows are drawn apart from the detail lines (the Collections totals print the deposit figures one
// column further left than the accounts do). The generic drift correction (`HeaderMap.aligned`) matches values
// to headers in order at the least total distance; on these reports that sends a lone `Deposits Rcvd` figure to
// `NSFs & Adj` (both one column away). The parsers here read their rows themselves: by the nearest header with
// a tie going to the header on the right (every drifted value in these exports sits left of its header), or,
// where a line prints every figure of a fixed list, by order.

/// The sheet columns a report's headers start at, for reading values printed beside them.
struct PrintedColumns {
    /// Canonical column name and the sheet column its header starts at, left to right.
    let positions: [(name: String, column: Int)]

    init(_ positions: [(name: String, column: Int)]) {
        self.positions = positions.sorted { $0.column < $1.column }
    }

    /// The columns of a found header, by canonical name (names the header lacks are left out).
    ///
    /// A header printed twice (the journal's two `Description` columns) can be matched inside the first one's merged
    /// cell, which lends its text to every column it covers; such a name is moved to the first header column right
    /// of that cell that no other name holds.
    init(header: HeaderMap) {
        var positions: [(name: String, column: Int)] = []
        var nested: [(name: String, within: ClosedRange<Int>)] = []
        for (name, span) in header.spans {
            if let outer = header.spans.first(where: { $0.key != name && $0.value.lowerBound < span.lowerBound
                && $0.value.contains(span.lowerBound) }) {
                nested.append((name, outer.value))
            } else {
                positions.append((name, span.lowerBound))
            }
        }
        for (name, within) in nested.sorted(by: { $0.within.lowerBound < $1.within.lowerBound }) {
            let free = header.headerSpans.first { span in
                span.lowerBound > within.upperBound && !positions.contains { $0.column == span.lowerBound }
            }
            if let free { positions.append((name, free.lowerBound)) }
        }
        self.init(positions)
    }

    /// The sheet column of a header; nil when it was not printed.
    func column(of name: String) -> Int? { positions.first { $0.name == name }?.column }

    /// Each non-blank cell of `row` under the free header closest to it, at most `reach` columns away; a tie goes
    /// to the header on the right. Cells with no header in reach are left out.
    func place(_ row: SheetRow, reach: Int = 2) -> PlacedRow {
        var cells: [String: CellValue] = [:]
        for (column, cell) in row.cells.enumerated() where !cell.isBlank {
            var best: (name: String, distance: Int, right: Bool)?
            for (name, headerColumn) in positions where cells[name] == nil {
                let distance = abs(headerColumn - column)
                guard distance <= reach else { continue }
                let right = headerColumn > column
                if let current = best, current.distance < distance || (current.distance == distance && current.right) {
                    continue
                }
                best = (name, distance, right)
            }
            if let best { cells[best.name] = cell }
        }
        return PlacedRow(number: row.number, cells: cells)
    }
}

/// One row's cells by canonical column name, as `PrintedColumns.place` put them.
struct PlacedRow {
    let number: Int
    var cells: [String: CellValue]

    func cell(_ name: String) -> CellValue { cells[name] ?? .empty }
}

/// Typed reads of a Crystal row's cells, with errors naming row and column and the money guard's counters kept.
struct CrystalReader {
    let context: ParseContext

    /// `N/A`, `*` and `-` print where a value does not apply: no value, not an error.
    static func isNullToken(_ cell: CellValue) -> Bool {
        guard case .text(let raw) = cell else { return false }
        let text = raw.trimmingWhitespace.uppercased()
        return text == "N/A" || text == "*" || text == "-" || text == "--"
    }

    func text(_ cell: CellValue) -> String? {
        Self.isNullToken(cell) ? nil : cell.text.map { String($0.trimmingWhitespace) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// An amount; `countsForMoneyGuard` false for totals rows, whose figures must not vouch for the data rows'.
    func money(_ cell: CellValue, row: Int, column: String, countsForMoneyGuard: Bool = true) throws -> Money? {
        if Self.isNullToken(cell) { return nil }
        do {
            let money = try cell.money()
            if countsForMoneyGuard {
                if case .text(let text) = cell, text.utf8.contains(where: { $0 >= 0x31 && $0 <= 0x39 }) {
                    context.moneyCellsWithDigits += 1
                }
                if let money, money != .zero { context.nonzeroMoney += 1 }
            }
            return money
        } catch {
            throw context.error(.badValue, row: row, column: column, error.description)
        }
    }

    func date(_ cell: CellValue, row: Int, column: String) throws -> LocalDate? {
        if Self.isNullToken(cell) { return nil }
        do { return try cell.date() } catch { throw context.error(.badValue, row: row, column: column, error.description) }
    }

    func count(_ cell: CellValue, row: Int, column: String) throws -> Int? {
        if Self.isNullToken(cell) { return nil }
        do { return try cell.count() } catch { throw context.error(.badValue, row: row, column: column, error.description) }
    }

    /// The cells of a row that read as amounts (numbers and amount text), left to right, from `column` on.
    static func amountCells(of row: SheetRow, from column: Int = 0) -> [(column: Int, cell: CellValue)] {
        row.cells.enumerated().compactMap { index, cell in
            guard index >= column else { return nil }
            switch cell {
            case .number: return (index, cell)
            case .text(let raw):
                let text = raw.trimmingWhitespace
                // `try?` flattens the parse's optional: nil when the text is no amount or cannot be read.
                guard DateText.parseDate(text) == nil, (try? MoneyText.parse(text)) != nil else { return nil }
                return (index, cell)
            default: return nil
            }
        }
    }
}

extension HeaderMap {
    /// The same header with every sheet column counted as placed: the driver's drift correction then leaves the
    /// rows as printed, for a parser that reads drifted values itself (`PrintedColumns`).
    var readingRowsAsPrinted: HeaderMap {
        HeaderMap(layout: layout, spans: spans, printed: printed, firstRow: firstRow, lastRow: lastRow,
                  firstColumn: firstColumn, foundColumns: foundColumns, rowSignatures: rowSignatures,
                  headerSpans: [0...16_383])
    }
}
