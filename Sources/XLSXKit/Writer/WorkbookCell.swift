/// What a cell written by `XLSXWriter` holds; the kind picks the number format unless the cell's look names one.
public enum CellContent: Sendable, Equatable {
    case empty
    case text(String)
    case number(Double)
    /// An amount in cents, written as dollars under `#,##0.00;(#,##0.00)` (negatives in parentheses, as accountants print).
    case money(cents: Int64)
    /// A calendar date, written as a real Excel serial under `yyyy-mm-dd`, so Excel sorts and filters it as a date.
    case date(ExcelDateTime)
    case bool(Bool)
    /// A formula without its `=` (`SUBTOTAL(9,E4:E120)`) and the value it gives as written, which readers that do
    /// not compute formulas show.
    case formula(String, cached: Double)
}

/// How a number is shown; each is a number format in styles.xml.
public enum NumberStyle: Hashable, Sendable {
    /// Excel's General (built-in 0).
    case general
    /// Whole numbers with thousands separators (built-in 3, `#,##0`).
    case count
    /// `#,##0.00;(#,##0.00)`.
    case money
    /// `yyyy-mm-dd`.
    case date
    /// A plain number with this many decimals (`0.00`).
    case decimals(Int)
    /// A number 0-100 shown with two decimals and a literal `%` (the value stays 95.35, as in JSON and CSV).
    case percentPoints
}

/// An sRGB color as six hex digits (`BFE5C8`), the form styles.xml stores after its `FF` alpha byte.
public struct RGBColor: Hashable, Sendable {
    public let hex: String

    /// `hex` with or without `#`, three or six digits; nil when it is not a color.
    public init?(_ hex: String) {
        var digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit) else { return nil }
        self.hex = digits.uppercased()
    }
}

/// The formatting of a cell beyond its number format: bold, fill, thin border, wrapped text, alignment.
public struct CellLook: Hashable, Sendable {
    /// Horizontal alignment; nil is Excel's default (text left, numbers right).
    public enum Alignment: String, Hashable, Sendable { case left, center, right }

    public var bold: Bool
    public var fill: RGBColor?
    public var border: Bool
    public var wrap: Bool
    public var alignment: Alignment?
    /// Overrides the number format the content would pick.
    public var format: NumberStyle?

    /// A look; the default is a plain cell.
    public init(bold: Bool = false, fill: RGBColor? = nil, border: Bool = false, wrap: Bool = false,
                alignment: Alignment? = nil, format: NumberStyle? = nil) {
        self.bold = bold; self.fill = fill; self.border = border; self.wrap = wrap
        self.alignment = alignment; self.format = format
    }

    /// No formatting at all.
    public static let plain = CellLook()
    /// A bold header cell with a light grey fill and a border.
    public static let header = CellLook(bold: true, fill: RGBColor("F3F3F3"), border: true, wrap: true)
}

/// One cell handed to `XLSXWriter.appendRow`: its content, its look, and an optional comment (a note Excel shows on hover).
public struct WorkbookCell: Sendable, Equatable {
    public var content: CellContent
    public var look: CellLook
    public var comment: String?

    /// A cell; only content is required.
    public init(_ content: CellContent, look: CellLook = .plain, comment: String? = nil) {
        self.content = content; self.look = look; self.comment = comment
    }

    /// A text cell.
    public static func text(_ text: String, look: CellLook = .plain) -> WorkbookCell { WorkbookCell(.text(text), look: look) }

    /// An empty cell (nothing is written for it unless it has a look).
    public static let empty = WorkbookCell(.empty)
}

// MARK: - References and serials

/// `A`, `Z`, `AA`, ... for a 0-based column index.
public func columnLetters(_ index: Int) -> String {
    var n = index + 1
    var letters: [Character] = []
    while n > 0 {
        let remainder = (n - 1) % 26
        letters.append(Character(UnicodeScalar(UInt8(65 + remainder))))
        n = (n - 1) / 26
    }
    return String(letters.reversed())
}

/// `C7` for a 0-based column and a 1-based row.
public func cellReference(column: Int, row: Int) -> String {
    columnLetters(column) + String(row)
}

extension ExcelDateTime {
    /// The 1900-system serial of this date and time (the inverse of `init(serial:uses1904DateSystem:)`): serials
    /// before 1900-03-01 keep Lotus's phantom 1900-02-29; nil before 1900-01-01.
    public var serial: Double? {
        let days: Int
        if year == 1900 && month == 2 && day == 29 {
            days = 60
        } else {
            let sinceEpoch = daysFromCivil(year, month, day)
            if sinceEpoch < daysFromCivil(1900, 1, 1) { return nil }
            days = sinceEpoch < daysFromCivil(1900, 3, 1) ? sinceEpoch - daysFromCivil(1899, 12, 31)
                                                           : sinceEpoch - daysFromCivil(1899, 12, 30)
        }
        return Double(days) + Double(hour * 3600 + minute * 60 + second) / 86_400
    }

    /// A date from `YYYY-MM-DD` (optionally with a time), as stored in the databases; nil when it is not one.
    public init?(iso: String) {
        self.init(iso8601: Array(iso.utf8))
    }
}
