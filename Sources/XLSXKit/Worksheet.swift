import ZipKit

/// One worksheet of a workbook; reading its rows streams the sheet XML from the zip.
public final class Worksheet {
    /// The tab name.
    public let name: String
    /// The zip entry holding the sheet XML, e.g. `xl/worksheets/sheet1.xml`.
    public let part: String
    let workbook: Workbook

    init(workbook: Workbook, name: String, part: String) {
        self.workbook = workbook
        self.name = name
        self.part = part
    }

    /// Starts streaming the sheet's rows; memory stays flat however many rows there are.
    public func rows() throws -> WorksheetRows {
        try WorksheetRows(scanner: scanner(), workbook: workbook, sheet: name)
    }

    /// Rows read through a window of `chunk` bytes (tests use tiny windows to split every token).
    func rows(windowChunk chunk: Int) throws -> WorksheetRows {
        try WorksheetRows(scanner: scanner(chunk: chunk), workbook: workbook, sheet: name)
    }

    /// The merged cell blocks (`<mergeCells>` follows the cell data, so this is a second pass over the sheet).
    public func mergedRanges() throws -> [MergedRange] {
        try mergedRanges(windowChunk: PartWindow.standardChunk)
    }

    /// Merged ranges read through a window of `chunk` bytes (tests use tiny windows).
    func mergedRanges(windowChunk chunk: Int) throws -> [MergedRange] {
        var scanner = try scanner(chunk: chunk)
        return try Self.mergedRanges(&scanner, sheet: name)
    }

    /// The `ref` of every `<mergeCell>` from the scanner's position to the end of the part.
    static func mergedRanges(_ scanner: inout ByteScanner, sheet: String) throws -> [MergedRange] {
        var ranges: [MergedRange] = []
        while true {
            switch try scanner.skip(to: .mergeCell) {
            case .startTag, .emptyTag:
                for i in 0..<scanner.attributeCount where scanner.attributeName(i) == "ref" {
                    let (start, end) = scanner.attributeValue(i)
                    let ref = String(decoding: UnsafeBufferPointer(start: scanner.base + start, count: end - start), as: UTF8.self)
                    guard let range = MergedRange(reference: ref) else {
                        throw XLSXError.malformedSheet(sheet: sheet, detail: "merged range \"\(ref)\" is not a cell range")
                    }
                    ranges.append(range)
                }
            case .end:
                return ranges
            default:
                continue
            }
        }
    }

    private func scanner(chunk: Int = PartWindow.standardChunk) throws -> ByteScanner {
        guard let entry = workbook.archive.entry(named: part) else { throw XLSXError.missingPart(part) }
        do {
            // A big sheet is inflated on a second thread, overlapping with tokenizing (about a quarter of its time).
            let reader = try PrefetchingEntryReader.stream(workbook.archive.reader(for: entry))
            return ByteScanner(reader: reader, chunk: chunk)
        } catch {
            throw XLSXError.wrap(error, part: part)
        }
    }
}

extension MergedRange {
    /// Parses `A1:C2` (or a single cell `B3`).
    public init?(reference: String) {
        let parts = reference.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
              let first = CellReference(parts[0]), let last = CellReference(parts[parts.count - 1]),
              let firstRow = first.row, let lastRow = last.row else { return nil }
        self.init(firstRow: min(firstRow, lastRow), firstColumn: min(first.column, last.column),
                  lastRow: max(firstRow, lastRow), lastColumn: max(first.column, last.column))
    }
}

/// An A1-style reference: 0-based column, 1-based row (absent in `r` attributes that give only a column).
struct CellReference {
    /// Excel's last column is XFD.
    static let columnLimit = 16_384
    static let rowLimit = 1_048_576

    var column: Int
    var row: Int?

    init?(_ text: Substring) {
        var column = 0
        var letters = 0
        var row = 0
        var digits = 0
        for byte in text.utf8 where byte != 0x24 { // '$' of absolute references
            switch byte {
            case 0x41...0x5A where digits == 0:
                column = column * 26 + Int(byte - 0x40)
                letters += 1
            case 0x61...0x7A where digits == 0:
                column = column * 26 + Int(byte - 0x60)
                letters += 1
            case 0x30...0x39:
                row = row * 10 + Int(byte - 0x30)
                digits += 1
            default:
                return nil
            }
            guard letters <= 3, digits <= 7 else { return nil }
        }
        guard letters > 0, column <= Self.columnLimit, row <= Self.rowLimit else { return nil }
        self.column = column - 1
        self.row = digits > 0 && row > 0 ? row : nil
        if digits > 0 && row == 0 { return nil }
    }

    /// `B5` for column 1, row 5.
    static func name(column: Int, row: Int) -> String {
        var letters: [UInt8] = []
        var n = column + 1
        while n > 0 {
            letters.insert(UInt8(0x41 + (n - 1) % 26), at: 0)
            n = (n - 1) / 26
        }
        return String(decoding: letters, as: UTF8.self) + String(row)
    }
}
