import XMLKit
import ZipKit

/// Why a workbook could not be written; one line naming the sheet and cell where there is one.
public enum XLSXWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    case zip(ZipWriteError)
    case invalidSheetName(name: String, reason: String)
    case notANumber(sheet: String, cell: String)
    case dateOutOfRange(sheet: String, cell: String)
    case textTooLong(sheet: String, cell: String, length: Int)
    case tooManyRows(sheet: String)
    case tooManyColumns(sheet: String)
    case noSheets
    case io(detail: String)
    /// Rows appended without a sheet started, or anything after `finish()`.
    case misuse(detail: String)

    public var description: String {
        switch self {
        case .zip(let error): return error.description
        case .invalidSheetName(let name, let reason): return "sheet name \"\(name)\" \(reason)"
        case .notANumber(let sheet, let cell): return "sheet \"\(sheet)\" cell \(cell): not a finite number"
        case .dateOutOfRange(let sheet, let cell): return "sheet \"\(sheet)\" cell \(cell): a date before 1900 has no Excel serial"
        case .textTooLong(let sheet, let cell, let length):
            return "sheet \"\(sheet)\" cell \(cell): \(length) characters of text, more than Excel's 32,767"
        case .tooManyRows(let sheet): return "sheet \"\(sheet)\": more than Excel's 1,048,576 rows"
        case .tooManyColumns(let sheet): return "sheet \"\(sheet)\": more than Excel's 16,384 columns"
        case .noSheets: return "a workbook needs at least one sheet"
        case .io(let detail): return detail
        case .misuse(let detail): return "xlsx writer: \(detail)"
        }
    }
}

/// How a sheet is laid out: column widths, frozen rows and columns, the autofilter row, print orientation.
public struct SheetLayout: Sendable, Equatable {
    /// Width of each column from A, in characters of the default font; columns past the list keep Excel's default.
    public var columnWidths: [Double]
    /// Rows kept in view when scrolling down (the title and header rows).
    public var frozenRows: Int
    /// Columns kept in view when scrolling right.
    public var frozenColumns: Int
    /// The 1-based row whose cells get filter buttons; the filter covers it and every row below. nil: no filter.
    public var autoFilterRow: Int?
    /// Print across the page (wide grids).
    public var landscape: Bool

    /// A layout; the default is Excel's.
    public init(columnWidths: [Double] = [], frozenRows: Int = 0, frozenColumns: Int = 0, autoFilterRow: Int? = nil,
                landscape: Bool = false) {
        self.columnWidths = columnWidths; self.frozenRows = frozenRows; self.frozenColumns = frozenColumns
        self.autoFilterRow = autoFilterRow; self.landscape = landscape
    }
}

/// Writes an .xlsx workbook that Excel and LibreOffice open without repair: sheets one after another, rows streamed
/// into the sheet's zip entry as they are appended (memory stays flat however many rows), then styles and the
/// workbook parts by `finish()`, which puts the file in place.
///
/// Text is written as inline strings (`t="inlineStr"`), not through a shared-string table: a shared table must be
/// written after every sheet and held (or spooled) whole until then, while report text is mostly unique (names,
/// references) and compresses just as well inline. Excel turns them into shared strings when it saves.
public final class XLSXWriter {
    private let zip: ZipWriter
    private var styles = StyleTable()
    private var sheets: [FinishedSheet] = []
    private var current: OpenSheet?
    private var nextShapeBlock = 1
    private var finished = false

    private struct FinishedSheet {
        var name: String
        var hasComments: Bool
        /// `A3:K40`, the autofilter's range.
        var filter: String?
    }

    private struct OpenSheet {
        var name: String
        var number: Int
        var layout: SheetLayout
        var row = 0
        var widestRow = 0
        var merges: [String] = []
        var comments: SheetComments?
        /// The autofilter's last row once `closeAutoFilter()` fixed it (rows after it, a total, stay out of the filter).
        var filterLastRow: Int?
    }

    static let maxRows = 1_048_576
    static let maxColumns = 16_384
    static let maxText = 32_767

    /// Starts the workbook file (written under a temporary name until `finish()`).
    public init(path: String) throws {
        do { zip = try ZipWriter(path: path) } catch let error as ZipWriteError { throw XLSXWriteError.zip(error) }
    }

    /// A valid, unused sheet name from any text: the characters Excel forbids (`[]:*?/\`) become spaces, it is cut to
    /// 31 characters, and a number is added when the name is taken.
    public static func sheetName(_ proposed: String, avoiding taken: [String]) -> String {
        var name = String(proposed.map { "[]:*?/\\".contains($0) ? " " : $0 })
        while name.first == " " || name.first == "'" { name.removeFirst() }
        while name.last == " " || name.last == "'" { name.removeLast() }
        if name.isEmpty { name = "Sheet" }
        let folded = Set(taken.map { $0.lowercased() })
        // Cut, then trimmed again: a cut may end on the space or apostrophe Excel refuses at the end.
        func cut(_ count: Int) -> String {
            var text = String(name.prefix(count))
            while text.last == " " || text.last == "'" { text.removeLast() }
            return text
        }
        var candidate = cut(31)
        var n = 2
        while folded.contains(candidate.lowercased()) {
            let suffix = " (\(n))"
            candidate = cut(31 - suffix.count) + suffix
            n += 1
        }
        return candidate
    }

    // MARK: - Sheets and rows

    /// Starts a sheet, ending the one before.
    public func startSheet(_ name: String, layout: SheetLayout = SheetLayout()) throws {
        guard !finished else { throw XLSXWriteError.misuse(detail: "sheet \(name) started after finish()") }
        if current != nil { try endSheet() }
        try Self.check(name, against: sheets.map(\.name))
        let number = sheets.count + 1
        current = OpenSheet(name: name, number: number, layout: layout)
        try wrap {
            try zip.startEntry("xl/worksheets/sheet\(number).xml")
            try zip.write(Self.sheetHead(layout))
        }
    }

    /// Appends the next row (row 1 first); empty cells without a look are left out of the file.
    public func appendRow(_ cells: [WorkbookCell], height: Double? = nil) throws {
        guard var sheet = current else { throw XLSXWriteError.misuse(detail: "a row appended without a sheet started") }
        sheet.row += 1
        guard sheet.row <= Self.maxRows else { throw XLSXWriteError.tooManyRows(sheet: sheet.name) }
        guard cells.count <= Self.maxColumns else { throw XLSXWriteError.tooManyColumns(sheet: sheet.name) }
        sheet.widestRow = max(sheet.widestRow, cells.count)
        var xml = "<row r=\"\(sheet.row)\""
        if let height { xml += " ht=\"\(Self.number(height))\" customHeight=\"1\"" }
        xml += ">"
        for (column, cell) in cells.enumerated() {
            if case .empty = cell.content, cell.look == .plain, cell.comment == nil { continue }
            let reference = cellReference(column: column, row: sheet.row)
            let style = styles.index(for: cell.content, look: cell.look)
            xml += "<c r=\"\(reference)\""
            if style != 0 { xml += " s=\"\(style)\"" }
            xml += try Self.value(cell.content, sheet: sheet.name, reference: reference)
            if let comment = cell.comment {
                if sheet.comments == nil {
                    sheet.comments = try SheetComments(firstBlock: nextShapeBlock)
                }
                try sheet.comments?.add(comment, column: column, row: sheet.row)
            }
        }
        xml += "</row>"
        current = sheet
        try wrap { try zip.write(xml) }
    }

    /// Merges a block of cells (0-based columns, 1-based rows); the top-left cell's value shows across it.
    public func merge(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int) throws {
        guard current != nil else { throw XLSXWriteError.misuse(detail: "a merge without a sheet started") }
        current?.merges.append(cellReference(column: firstColumn, row: firstRow) + ":"
                               + cellReference(column: lastColumn, row: lastRow))
    }

    /// Ends the autofilter's range at the last row appended, so the rows that follow (a total) are not sorted or filtered.
    public func closeAutoFilter() {
        let row = current?.row
        current?.filterLastRow = row
    }

    /// The 1-based number of the last row appended to the current sheet (0 before the first).
    public var rowCount: Int { current?.row ?? 0 }

    /// Ends the current sheet: closes its XML and writes its comments and their drawing.
    private func endSheet() throws {
        guard let sheet = current else { return }
        current = nil
        var tail = "</sheetData>"
        var filter: String?
        if let header = sheet.layout.autoFilterRow {
            let columns = max(sheet.layout.columnWidths.count, sheet.widestRow, 1)
            let range = cellReference(column: 0, row: header) + ":" + cellReference(column: columns - 1, row: max(sheet.filterLastRow ?? sheet.row, header))
            tail += "<autoFilter ref=\"\(range)\"/>"
            filter = range
        }
        if !sheet.merges.isEmpty {
            tail += "<mergeCells count=\"\(sheet.merges.count)\">"
            for merge in sheet.merges { tail += "<mergeCell ref=\"\(merge)\"/>" }
            tail += "</mergeCells>"
        }
        tail += #"<pageMargins left="0.5" right="0.5" top="0.6" bottom="0.6" header="0.3" footer="0.3"/>"#
        if sheet.layout.landscape { tail += #"<pageSetup orientation="landscape" fitToHeight="0"/>"# }
        if sheet.comments != nil { tail += #"<legacyDrawing r:id="rId2"/>"# }
        tail += "</worksheet>\n"
        try wrap {
            try zip.write(tail)
            try zip.endEntry()
            if let comments = sheet.comments {
                try comments.writeComments("xl/comments\(sheet.number).xml", to: zip)
                try comments.writeDrawing("xl/drawings/vmlDrawing\(sheet.number).vml", to: zip)
                try zip.addEntry("xl/worksheets/_rels/sheet\(sheet.number).xml.rels", text: WorkbookParts.sheetRelationships(sheet.number))
                nextShapeBlock += comments.blocks
            }
        }
        sheets.append(FinishedSheet(name: sheet.name, hasComments: sheet.comments != nil, filter: filter))
    }

    /// Ends the last sheet, writes styles, the workbook and its relationships and content types, and puts the file in place.
    public func finish() throws {
        guard !finished else { throw XLSXWriteError.misuse(detail: "finish() called twice") }
        try endSheet()
        guard !sheets.isEmpty else { throw XLSXWriteError.noSheets }
        finished = true
        let parts = sheets.map { WorkbookParts.Sheet(name: $0.name, hasComments: $0.hasComments, filter: $0.filter) }
        try wrap {
            try zip.addEntry("xl/styles.xml", text: styles.xml)
            try zip.addEntry("xl/workbook.xml", text: WorkbookParts.workbook(parts))
            try zip.addEntry("xl/_rels/workbook.xml.rels", text: WorkbookParts.workbookRelationships(parts))
            try zip.addEntry("_rels/.rels", text: WorkbookParts.rootRelationships)
            try zip.addEntry("[Content_Types].xml", text: WorkbookParts.contentTypes(parts))
            try zip.finish()
        }
    }

    // MARK: - XML

    private static func sheetHead(_ layout: SheetLayout) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
        xml += #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">"#
        if layout.landscape { xml += #"<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr>"# }
        xml += #"<sheetViews><sheetView workbookViewId="0""#
        let rows = max(layout.frozenRows, 0), columns = max(layout.frozenColumns, 0)
        if rows == 0 && columns == 0 {
            xml += "/>"
        } else {
            let topLeft = cellReference(column: columns, row: rows + 1)
            let pane = rows > 0 && columns > 0 ? "bottomRight" : rows > 0 ? "bottomLeft" : "topRight"
            xml += "><pane"
            if columns > 0 { xml += " xSplit=\"\(columns)\"" }
            if rows > 0 { xml += " ySplit=\"\(rows)\"" }
            xml += #" topLeftCell="\#(topLeft)" activePane="\#(pane)" state="frozen"/>"#
            xml += #"<selection pane="\#(pane)" activeCell="\#(topLeft)" sqref="\#(topLeft)"/></sheetView>"#
        }
        xml += "</sheetViews>"
        xml += #"<sheetFormatPr defaultRowHeight="15"/>"#
        if !layout.columnWidths.isEmpty {
            xml += "<cols>"
            for (i, width) in layout.columnWidths.enumerated() {
                let width = width.isFinite ? min(max(width, 1), 255) : 10
                xml += #"<col min="\#(i + 1)" max="\#(i + 1)" width="\#(number(width))" customWidth="1"/>"#
            }
            xml += "</cols>"
        }
        xml += "<sheetData>"
        return xml
    }

    /// The cell's type attribute, closing `>` and value (or `/>` for an empty styled cell).
    private static func value(_ content: CellContent, sheet: String, reference: String) throws -> String {
        switch content {
        case .empty:
            return "/>"
        case .text(let text):
            let length = text.utf16.count
            guard length <= maxText else { throw XLSXWriteError.textTooLong(sheet: sheet, cell: reference, length: length) }
            let escaped = XMLText.escape(text)
            let preserve = text.first?.isWhitespace == true || text.last?.isWhitespace == true || text.contains("\n")
            return #" t="inlineStr"><is><t\#(preserve ? #" xml:space="preserve""# : "")>\#(escaped)</t></is></c>"#
        case .number(let value):
            guard value.isFinite else { throw XLSXWriteError.notANumber(sheet: sheet, cell: reference) }
            return "><v>\(number(value))</v></c>"
        case .money(let cents):
            return "><v>\(money(cents))</v></c>"
        case .date(let date):
            guard let serial = date.serial else { throw XLSXWriteError.dateOutOfRange(sheet: sheet, cell: reference) }
            return "><v>\(number(serial))</v></c>"
        case .bool(let value):
            return #" t="b"><v>\#(value ? 1 : 0)</v></c>"#
        }
    }

    /// The shortest text that reads back as the same double, without `.0` on whole numbers.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Cents as an exact decimal (`-1234.5`), never through binary floating point text.
    static func money(_ cents: Int64) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        if fraction == 0 { return sign + String(magnitude / 100) }
        let digits = fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0" : "") + String(fraction)
        return sign + String(magnitude / 100) + "." + digits
    }

    private static func check(_ name: String, against taken: [String]) throws {
        if name.isEmpty || name.count > 31 {
            throw XLSXWriteError.invalidSheetName(name: name, reason: "must be 1 to 31 characters")
        }
        if let bad = name.first(where: { "[]:*?/\\".contains($0) }) {
            throw XLSXWriteError.invalidSheetName(name: name, reason: "holds \"\(bad)\", which Excel does not allow")
        }
        if name.hasPrefix("'") || name.hasSuffix("'") {
            throw XLSXWriteError.invalidSheetName(name: name, reason: "may not start or end with an apostrophe")
        }
        if taken.contains(where: { $0.lowercased() == name.lowercased() }) {
            throw XLSXWriteError.invalidSheetName(name: name, reason: "is already used (Excel ignores case)")
        }
    }

    private func wrap(_ body: () throws -> Void) throws {
        do { try body() } catch let error as ZipWriteError { throw XLSXWriteError.zip(error) }
    }
}
