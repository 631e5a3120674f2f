import ZipKit

/// The container a spreadsheet came in, decided from its bytes, never from its extension.
public enum SpreadsheetFormat: String, Sendable, Equatable {
    /// Office Open XML in a zip (Excel 2007 and later).
    case xlsx
    /// BIFF8 in an OLE2 compound file (Excel 97-2003; Crystal Reports exports).
    case xls
}

/// A workbook opened by content, .xlsx or .xls alike, so report parsers never care which one a server sent.
///
/// Zip bytes open as `Workbook`, OLE2 bytes as `XLSWorkbook`; anything else is refused with what it really
/// is (`XLSXError.notXLSX`). Both formats yield the same `SheetRow`s for the same sheet.
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
    }

    /// Opens the file at `path`, sniffing its first bytes.
    public convenience init(path: String, limits: ZipLimits = .standard) throws {
        // Only the head is read to decide: an .xlsx is streamed from the file, never held whole in memory.
        let kind = FileKind.sniff(try readWholeFile(path, upTo: 4096))
        switch kind {
        case .zip: try self.init(backing: .xlsx(Workbook(path: path, limits: limits)))
        case .ole2: try self.init(backing: .xls(XLSWorkbook(compoundFile: CompoundFile(bytes: readWholeFile(path)))))
        default: throw XLSXError.notXLSX(kind)
        }
    }

    /// Reads a workbook held in memory (a downloaded artifact).
    public convenience init(bytes: [UInt8], limits: ZipLimits = .standard) throws {
        let kind = FileKind.sniff(bytes.prefix(4096))
        switch kind {
        case .zip: try self.init(backing: .xlsx(Workbook(bytes: bytes, limits: limits)))
        case .ole2: try self.init(backing: .xls(XLSWorkbook(compoundFile: CompoundFile(bytes: bytes))))
        default: throw XLSXError.notXLSX(kind)
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
        }
    }

    /// The sheet at a 0-based position in workbook order.
    public func sheet(at index: Int) throws -> SpreadsheetSheet {
        switch backing {
        case .xlsx(let workbook): return SpreadsheetSheet(.xlsx(try workbook.worksheet(at: index)))
        case .xls(let workbook): return SpreadsheetSheet(.xls(try workbook.worksheet(at: index)))
        }
    }

    /// The sheet with this name (exact match first, then ignoring case as Excel does).
    public func sheet(named name: String) throws -> SpreadsheetSheet {
        switch backing {
        case .xlsx(let workbook): return SpreadsheetSheet(.xlsx(try workbook.worksheet(named: name)))
        case .xls(let workbook): return SpreadsheetSheet(.xls(try workbook.worksheet(named: name)))
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
    }

    init(_ backing: Backing) {
        self.backing = backing
        switch backing {
        case .xlsx(let sheet): name = sheet.name
        case .xls(let sheet): name = sheet.name
        }
    }

    /// The rows that hold at least one value, in row order.
    public func rows() throws -> SpreadsheetRows {
        switch backing {
        case .xlsx(let sheet): return SpreadsheetRows(.xlsx(try sheet.rows()))
        case .xls(let sheet): return SpreadsheetRows(.xls(try sheet.rows()))
        }
    }

    /// The merged cell blocks.
    public func mergedRanges() throws -> [MergedRange] {
        switch backing {
        case .xlsx(let sheet): return try sheet.mergedRanges()
        case .xls(let sheet): return try sheet.mergedRanges()
        }
    }
}

/// The row stream of a `SpreadsheetSheet`; both readers are classes, so this dispatch copies nothing per row.
public struct SpreadsheetRows: SheetRowSource {
    private let backing: Backing

    enum Backing {
        case xlsx(WorksheetRows)
        case xls(XLSWorksheetRows)
    }

    init(_ backing: Backing) { self.backing = backing }

    /// The next row with at least one value, or nil after the last row.
    public mutating func nextRow() throws -> SheetRow? {
        switch backing {
        case .xlsx(let rows): return try rows.nextRow()
        case .xls(let rows): return try rows.nextRow()
        }
    }
}
