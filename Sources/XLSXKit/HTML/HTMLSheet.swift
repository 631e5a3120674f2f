import XMLKit

/// An HTML report export (a RealPage "Excel" download that is really a web page) read as one sheet: the text lines
/// outside tables (the title block) and every table row, in document order, with colspan/rowspan as merged ranges.
///
/// Cells hold the text as a browser shows it (`<br>` -> newline, spaces collapsed), never a number: HTML exports
/// write money as text (`(1,951.00)`), which the report parsers read as they read text money in workbooks.
public struct HTMLSheet: Sendable {
    /// The one sheet's name, as `ownerdash sheet dump --sheet` and load messages show it.
    public static let sheetName = "HTML"

    /// The rows with at least one non-empty cell; numbers count every row, empty ones included (1-based).
    public let rows: [SheetRow]
    /// colspan / rowspan blocks, so header spans work as they do for a workbook's merged cells.
    public let mergedRanges: [MergedRange]

    /// Parses the page leniently (libxml2's HTML parser). A page without any table is refused: it is an error or
    /// login page served in place of the report, and its title says which.
    public init(bytes: [UInt8]) throws {
        let document: XMLDocument
        do {
            document = try XMLDocument.html(bytes: bytes)
        } catch let error as XMLError {
            throw XLSXError.malformedPart(part: "HTML", detail: error.message)
        } catch {
            throw XLSXError.malformedPart(part: "HTML", detail: "\(error)")
        }
        guard let root = document.root, root.hasDescendant(named: "table") else {
            let title = document.root?.descendants(named: "title").first?.renderedLines.joined(separator: " ")
            throw XLSXError.htmlWithoutTable(title: title.flatMap { $0.isEmpty ? nil : $0 })
        }
        var builder = Builder()
        try builder.visit(root)
        rows = builder.rows
        mergedRanges = builder.merges
    }

    /// The rows as a row source for the report parsers.
    public func rowSource() -> InMemoryRows { InMemoryRows(rows) }

    private struct Builder {
        var rows: [SheetRow] = []
        var merges: [MergedRange] = []
        var rowNumber = 0

        mutating func emit(_ cells: [CellValue]) {
            rowNumber += 1
            var cells = cells
            while let last = cells.last, last == .empty { cells.removeLast() }
            if !cells.isEmpty { rows.append(SheetRow(number: rowNumber, cells: cells)) }
        }

        mutating func visit(_ element: XMLElement) throws {
            switch element.localName.lowercased() {
            case "head", "script", "style", "title", "noscript":
                return
            case "table":
                try table(element)
            default:
                if !element.hasDescendant(named: "table") {
                    for line in element.renderedLines {
                        try checkLength(line, column: 0)
                        emit([.text(line)])
                    }
                } else {
                    for child in element.children { try visit(child) }
                }
            }
        }

        /// The table's rows in order (through thead/tbody/tfoot); a row whose cells hold tables is a layout row:
        /// its cells' content is visited instead, so nested tables become rows of their own.
        /// A cell past `TextLimits.cellBytes` is refused: the page is held whole, but every reader after this one
        /// copies and scans each cell, and no report has a cell anywhere near that long.
        func checkLength(_ text: String, column: Int) throws {
            guard text.utf8.count <= TextLimits.cellBytes else {
                throw XLSXError.malformedSheet(sheet: HTMLSheet.sheetName, detail: "cell \(CellReference.name(column: column, row: rowNumber + 1)) holds more than \(TextLimits.cellDescription); refused")
            }
        }

        mutating func table(_ table: XMLElement) throws {
            // Columns still covered by a rowspan from a row above: how many more rows each covers.
            var covered: [Int] = []
            for row in tableRows(table) {
                let cells = row.children.filter { ["td", "th"].contains($0.localName.lowercased()) }
                guard cells.count <= TextLimits.columns else {
                    throw XLSXError.malformedSheet(sheet: HTMLSheet.sheetName, detail: "row \(rowNumber + 1) has \(cells.count) cells, more than \(TextLimits.columns) (Excel's own column limit); refused")
                }
                if cells.contains(where: { $0.hasDescendant(named: "table") }) {
                    for cell in cells { for child in cell.children { try visit(child) } }
                    continue
                }
                let number = rowNumber + 1
                var values: [CellValue] = []
                var column = 0
                let coveredBefore = covered
                func skipCovered() {
                    while column < coveredBefore.count && coveredBefore[column] > 0 {
                        if values.count <= column { values.append(.empty) }
                        column += 1
                    }
                }
                for cell in cells {
                    skipCovered()
                    let text = cell.renderedLines.joined(separator: "\n")
                    try checkLength(text, column: column)
                    let columnSpan = min(max(Int(cell.attribute("colspan") ?? "") ?? 1, 1), 1000)
                    let rowSpan = min(max(Int(cell.attribute("rowspan") ?? "") ?? 1, 1), 10_000)
                    while values.count < column { values.append(.empty) }
                    values.append(text.isEmpty ? .empty : .text(text))
                    for _ in 1..<columnSpan { values.append(.empty) }
                    if columnSpan > 1 || rowSpan > 1 {
                        merges.append(MergedRange(firstRow: number, firstColumn: column,
                                                  lastRow: number + rowSpan - 1, lastColumn: column + columnSpan - 1))
                    }
                    if rowSpan > 1 {
                        if covered.count < column + columnSpan { covered += Array(repeating: 0, count: column + columnSpan - covered.count) }
                        for c in column..<(column + columnSpan) { covered[c] = max(covered[c], rowSpan - 1) }
                    }
                    column += columnSpan
                    guard column <= TextLimits.columns else {
                        throw XLSXError.malformedSheet(sheet: HTMLSheet.sheetName, detail: "row \(number) spans more than \(TextLimits.columns) columns (Excel's own column limit); refused")
                    }
                }
                // This row used up one row of every rowspan that began above it.
                for c in coveredBefore.indices where coveredBefore[c] > 0 { covered[c] -= 1 }
                emit(values)
            }
        }

        private func tableRows(_ table: XMLElement) -> [XMLElement] {
            var result: [XMLElement] = []
            for child in table.children {
                switch child.localName.lowercased() {
                case "tr": result.append(child)
                case "thead", "tbody", "tfoot": result += child.children(named: "tr")
                default: break
                }
            }
            return result
        }
    }
}
