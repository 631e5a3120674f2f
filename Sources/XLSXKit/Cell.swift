/// One cell's value as the workbook means it: shared strings resolved, date-formatted numbers as dates.
public enum CellValue: Sendable, Equatable {
    case empty
    case text(String)
    case number(Double)
    /// A number whose number format is a date/time format, converted with the workbook's date system.
    case date(ExcelDateTime)
    case bool(Bool)
    /// An error value such as `#N/A` or `#DIV/0!`.
    case error(String)
}

/// A calendar date and time of day from an Excel serial, in a fixed UTC Gregorian calendar.
public struct ExcelDateTime: Sendable, Equatable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = second
    }

    /// True when the value carries no time of day.
    public var isDateOnly: Bool { hour == 0 && minute == 0 && second == 0 }
}

/// One physical row of a sheet. `number` is the 1-based row number Excel shows;
/// `cells[0]` is column A. Trailing empty cells may be absent.
public struct SheetRow: Sendable, Equatable {
    public var number: Int
    public var cells: [CellValue]

    public init(number: Int, cells: [CellValue]) {
        self.number = number
        self.cells = cells
    }

    /// The cell at a 0-based column index, `.empty` past the end.
    public subscript(column: Int) -> CellValue {
        column < cells.count ? cells[column] : .empty
    }
}

/// A merged block of cells; rows are 1-based as Excel shows them, columns 0-based (A = 0).
public struct MergedRange: Sendable, Equatable, Hashable {
    public var firstRow: Int
    public var firstColumn: Int
    public var lastRow: Int
    public var lastColumn: Int

    public init(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int) {
        self.firstRow = firstRow; self.firstColumn = firstColumn
        self.lastRow = lastRow; self.lastColumn = lastColumn
    }
}

/// Anything that yields sheet rows in order: a streamed worksheet, or rows held in memory (tests).
public protocol SheetRowSource {
    /// The next row that has at least one cell, or nil at the end of the sheet.
    mutating func nextRow() throws -> SheetRow?
}

/// Rows held in memory; used by tests and by small sheets.
public struct InMemoryRows: SheetRowSource {
    private var rows: [SheetRow]
    private var position = 0

    public init(_ rows: [SheetRow]) { self.rows = rows }

    public mutating func nextRow() throws -> SheetRow? {
        guard position < rows.count else { return nil }
        defer { position += 1 }
        return rows[position]
    }
}

/// How much text a report file may put in one cell, one row or one shared-string table before it is refused.
///
/// A 2-3 MB .xlsx can inflate one cell to gigabytes at a compression ratio under the zip-bomb limit; without a cap
/// that text is held (and copied) in full. Excel itself caps a cell at 32,767 characters, at most 96 KiB as UTF-8,
/// and OneSite writes far less; 1 MiB is ten times Excel's cap, so only a damaged or hostile file reaches it.
public enum TextLimits {
    /// Bytes of UTF-8 text one cell may hold: 1 MiB, ten times Excel's own 32,767-character cap.
    public static let cellBytes = 1 << 20
    /// Human wording of `cellBytes` for messages.
    public static let cellDescription = "1 MiB of text (Excel itself caps a cell at 32,767 characters)"
    /// Bytes of text all of a workbook's shared strings may hold together: 64 MiB, five times the table of a
    /// 500,000-row OneSite export (~12 MB) and the whole memory budget of a load.
    public static let sharedStringsBytes = 64 << 20
    /// Columns a row may have: Excel's own limit (column XFD), for the forms (HTML, CSV) that have no limit of their own.
    public static let columns = 16_384
}

/// Thrown by the byte scanner when text being collected passes its limit; readers turn it into a line naming the cell.
struct TextLimitExceeded: Error {}
