import ZipKit

/// The container a spreadsheet came in, decided from its bytes, never from its extension.
public enum SpreadsheetFormat: String, Sendable, Equatable {
    /// Office Open XML in a zip (Excel 2007 and later).
    case xlsx
    /// BIFF8 in an OLE2 compound file (Excel 97-2003; Crystal Reports exports).
    case xls
    /// A web page whose tables are the report (OneSite's "Excel" downloads of some reports).
    case html
    /// Comma-, tab- or semicolon-separated text.
    case csv
}

/// A downloaded report opened by content, whatever its name says, so report parsers never care what a server sent.
///
/// Zip bytes open as `Workbook`, OLE2 bytes as `XLSWorkbook`, an HTML page as one `HTMLSheet`, CSV text as one
/// `DelimitedTextSheet`; anything else (PDF, XML, binary) is refused with what it really is (`XLSXError.notXLSX`).
/// Every format yields the same `SheetRow`s for the same grid.
public final class SpreadsheetFile {
    /// Which reader this file went to.
    public let format: SpreadsheetFormat
    /// Sheet names in workbook order.
    public let sheetNames: [String]
    /// True when date serials count from 1904-01-01.
    public let uses1904DateSystem: Bool
    private let backing: Backing

    private enum Backing {
        case xlsx(Workbook)
        case xls(XLSWorkbook)
        case html(HTMLSheet)
        case csv(DelimitedTextSheet)
    }

    /// Opens the file at `path`, sniffing its first bytes.
    public convenience init(path: String, limits: ZipLimits = .standard) throws {
        // Only the head is read to decide: an .xlsx is streamed from the file, never held whole in memory.
        let kind = FileKind.sniff(try readWholeFile(path, upTo: 4096))
        switch kind {
        case .zip: try self.init(backing: .xlsx(Workbook(path: path, limits: limits)))
        case .ole2: try self.init(backing: .xls(XLSWorkbook(compoundFile: CompoundFile(path: path))))
        case .html: try self.init(backing: .html(HTMLSheet(bytes: readWholeFile(path))))
        case .csvText: try self.init(backing: .csv(DelimitedTextSheet(bytes: readWholeFile(path))))
        default: throw XLSXError.notAReport(kind)
        }
    }

    /// Opens `path` as `init(path:)` does, but an HTML page or CSV text, which is parsed whole when opened, only as far
    /// as its first `head` bytes, cut after the last whole tag or line: a look at the first rows of a download, as the
    /// fetch's check for an error page served as a report takes (the rows past the cut are not there; the last one may
    /// come short of cells). A zip or OLE2 workbook gives its rows as they are asked for, and opens whole.
    public convenience init(path: String, head: Int, limits: ZipLimits = .standard) throws {
        var start = try readWholeFile(path, upTo: head + 1)
        let cut = start.count > head
        switch FileKind.sniff(start.prefix(4096)) {
        case .html:
            if cut { start = Array(start[..<(start[..<head].lastIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? 0)]) }
            try self.init(backing: .html(HTMLSheet(bytes: start)))
        case .csvText:
            if cut { start = Array(start[..<(start[..<head].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)]) }
            try self.init(backing: .csv(DelimitedTextSheet(bytes: start)))
        default:
            try self.init(path: path, limits: limits)
        }
    }

    /// Reads a workbook held in memory (a downloaded artifact).
    public convenience init(bytes: [UInt8], limits: ZipLimits = .standard) throws {
        let kind = FileKind.sniff(bytes.prefix(4096))
        switch kind {
        case .zip: try self.init(backing: .xlsx(Workbook(bytes: bytes, limits: limits)))
        case .ole2: try self.init(backing: .xls(XLSWorkbook(compoundFile: CompoundFile(bytes: bytes))))
        case .html: try self.init(backing: .html(HTMLSheet(bytes: bytes)))
        case .csvText: try self.init(backing: .csv(DelimitedTextSheet(bytes: bytes)))
        default: throw XLSXError.notAReport(kind)
        }
    }

    private init(backing: Backing) throws {
        self.backing = backing
        switch backing {
        case .xlsx(let workbook):
            format = .xlsx
            sheetNames = workbook.sheetNames
            uses1904DateSystem = workbook.uses1904DateSystem
        case .xls(let workbook):
            format = .xls
            sheetNames = workbook.sheetNames
            uses1904DateSystem = workbook.uses1904DateSystem
        case .html:
            format = .html
            sheetNames = [HTMLSheet.sheetName]
            uses1904DateSystem = false
        case .csv:
            format = .csv
            sheetNames = [DelimitedTextSheet.sheetName]
            uses1904DateSystem = false
        }
    }

    /// The one sheet of an HTML or CSV file, or the error a workbook gives for a sheet it does not have.
    private func singleSheet(_ index: Int?, named name: String?, _ sheet: SpreadsheetSheet.Backing) throws -> SpreadsheetSheet {
        let only = sheetNames[0]
        if let index, index != 0 { throw XLSXError.sheetIndexOutOfRange(index: index, count: 1) }
        if let name, name != only, name.lowercased() != only.lowercased() {
            throw XLSXError.noSuchSheet(name: name, available: [only])
        }
        return SpreadsheetSheet(sheet)
    }

    /// The sheet at a 0-based position in workbook order.
    public func sheet(at index: Int) throws -> SpreadsheetSheet {
        switch backing {
        case .xlsx(let workbook): return SpreadsheetSheet(.xlsx(try workbook.worksheet(at: index)))
        case .xls(let workbook): return SpreadsheetSheet(.xls(try workbook.worksheet(at: index)))
        case .html(let page): return try singleSheet(index, named: nil, .html(page))
        case .csv(let text): return try singleSheet(index, named: nil, .csv(text))
        }
    }

    /// The sheet with this name (exact match first, then ignoring case as Excel does).
    public func sheet(named name: String) throws -> SpreadsheetSheet {
        switch backing {
        case .xlsx(let workbook): return SpreadsheetSheet(.xlsx(try workbook.worksheet(named: name)))
        case .xls(let workbook): return SpreadsheetSheet(.xls(try workbook.worksheet(named: name)))
        case .html(let page): return try singleSheet(nil, named: name, .html(page))
        case .csv(let text): return try singleSheet(nil, named: name, .csv(text))
        }
    }
}

/// One worksheet of a `SpreadsheetFile`, whichever format it came in.
public struct SpreadsheetSheet {
    /// The tab name.
    public let name: String
    private let backing: Backing

    enum Backing {
        case xlsx(Worksheet)
        case xls(XLSWorksheet)
        case html(HTMLSheet)
        case csv(DelimitedTextSheet)
    }

    init(_ backing: Backing) {
        self.backing = backing
        switch backing {
        case .xlsx(let sheet): name = sheet.name
        case .xls(let sheet): name = sheet.name
        case .html: name = HTMLSheet.sheetName
        case .csv: name = DelimitedTextSheet.sheetName
        }
    }

    /// The rows that hold at least one value, in row order.
    public func rows() throws -> SpreadsheetRows {
        switch backing {
        case .xlsx(let sheet): return SpreadsheetRows(.xlsx(try sheet.rows()))
        case .xls(let sheet): return SpreadsheetRows(.xls(try sheet.rows()))
        case .html(let page): return SpreadsheetRows(.memory(page.rowSource()))
        case .csv(let text): return SpreadsheetRows(.memory(text.rowSource()))
        }
    }

    /// Whether the merged cell blocks come after the rows (an .xlsx part lists them after the cell data): a reader
    /// that streams the rows then gets them from `SpreadsheetRows.mergedRangesAfterRows()` without a second pass.
    public var mergesFollowRows: Bool {
        if case .xlsx = backing { true } else { false }
    }

    /// The merged cell blocks (for an .xlsx sheet, a pass over the whole part).
    public func mergedRanges() throws -> [MergedRange] {
        switch backing {
        case .xlsx(let sheet): return try sheet.mergedRanges()
        case .xls(let sheet): return try sheet.mergedRanges()
        case .html(let page): return page.mergedRanges
        case .csv: return []
        }
    }
}

/// The row stream of a `SpreadsheetSheet`; both readers are classes, so this dispatch copies nothing per row.
public struct SpreadsheetRows: SheetRowSource {
    private var backing: Backing

    enum Backing {
        case xlsx(WorksheetRows)
        case xls(XLSWorksheetRows)
        /// HTML and CSV: parsed whole (small exports), then handed out row by row.
        case memory(InMemoryRows)
    }

    init(_ backing: Backing) { self.backing = backing }

    /// The next row with at least one value, or nil after the last row.
    public mutating func nextRow() throws -> SheetRow? {
        switch backing {
        case .xlsx(let rows): return try rows.nextRow()
        case .xls(let rows): return try rows.nextRow()
        case .memory(var rows):
            let row = try rows.nextRow()
            backing = .memory(rows)
            return row
        }
    }

    /// An .xlsx sheet's merged cell blocks, read on the way to the end of its rows (the rows not yet read are read
    /// and dropped); nil for the other formats, whose sheet has them at hand (`SpreadsheetSheet.mergedRanges()`).
    public mutating func mergedRangesAfterRows() throws -> [MergedRange]? {
        guard case .xlsx(let rows) = backing else { return nil }
        return try rows.mergedRangesAfterRows()
    }
}
