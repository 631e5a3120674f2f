#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// The rows of one worksheet, tokenized from the sheet XML while it inflates.
///
/// A row is yielded when at least one of its cells has a value: a number, a string (even an empty
/// one, e.g. shared string "" or a formula that returned ""), a boolean or an error. Cells that carry
/// only formatting (`<c r="B2" s="3"/>`) are `.empty` and do not make a row count, so formatting-only
/// rows are skipped; `SheetRow.number` keeps the sheet's numbering, so the gap stays visible.
public final class WorksheetRows: SheetRowSource {
    private var tokenizer: RowTokenizer

    init(scanner: ByteScanner, workbook: Workbook, sheet: String) {
        tokenizer = RowTokenizer(scanner: scanner, sharedStrings: workbook.sharedStrings,
                                 sharedStringsPart: workbook.sharedStringsPart, styles: workbook.cellStyles,
                                 uses1904: workbook.uses1904DateSystem, sheet: sheet)
    }

    /// The next row with at least one value, or nil after the last row.
    public func nextRow() throws -> SheetRow? {
        try tokenizer.nextRow()
    }

    /// The sheet's merged cell blocks, which `<mergeCells>` lists after the cell data: read on the way to the end of
    /// the part, so a caller that streams the rows first needs no second pass over the sheet. Reads (and drops) any
    /// rows not yet read.
    public func mergedRangesAfterRows() throws -> [MergedRange] {
        while try tokenizer.nextRow() != nil {}
        return tokenizer.trailingMerges
    }
}

/// The `t` attribute of a cell.
enum CellKind {
    case number, sharedString, formulaString, inlineString, boolean, error, isoDate

    init?(_ p: UnsafePointer<UInt8>, _ n: Int) {
        switch n {
        case 1:
            switch p[0] {
            case 0x73: self = .sharedString // s
            case 0x6E: self = .number // n
            case 0x62: self = .boolean // b
            case 0x65: self = .error // e
            case 0x64: self = .isoDate // d
            default: return nil
            }
        case 3 where p[0] == 0x73 && p[1] == 0x74 && p[2] == 0x72: self = .formulaString
        case 9 where memcmp(p, "inlineStr", 9) == 0: self = .inlineString
        default: return nil
        }
    }
}

/// All the state of streaming one sheet, kept in a struct so the hot loop pays no class-access checks.
struct RowTokenizer {
    private var scanner: ByteScanner
    private let sharedStrings: [String]
    private let sharedStringsPart: String
    private let styles: CellStyles
    private let uses1904: Bool
    private let sheet: String
    private var text = ScratchBytes(capacity: 4096)
    private var decodedAttribute = ScratchBytes(capacity: 64)
    private var inSheetData = false
    private var finished = false
    /// The `<mergeCell>` ranges after `</sheetData>`, read when the rows end.
    private(set) var trailingMerges: [MergedRange] = []
    private var lastRow = 0
    private var widthHint = 4

    init(scanner: ByteScanner, sharedStrings: [String], sharedStringsPart: String, styles: CellStyles, uses1904: Bool, sheet: String) {
        self.scanner = scanner
        self.sharedStrings = sharedStrings
        self.sharedStringsPart = sharedStringsPart
        self.styles = styles
        self.uses1904 = uses1904
        self.sheet = sheet
    }

    private func malformed(_ detail: String) -> XLSXError {
        .malformedSheet(sheet: sheet, detail: detail)
    }

    mutating func nextRow() throws -> SheetRow? {
        do {
            return try scanRows()
        } catch let error as XLSXError {
            finished = true
            if case .malformedPart(let part, let detail) = error, part == scanner.part {
                throw malformed(detail)
            }
            throw error
        }
    }

    private mutating func scanRows() throws -> SheetRow? {
        while !finished {
            switch try scanner.next() {
            case .startTag:
                if scanner.name == .row && inSheetData {
                    let number = try rowNumber()
                    if let row = try readRow(number) { return row }
                } else if scanner.name == .sheetData {
                    inSheetData = true
                }
            case .emptyTag:
                if scanner.name == .row && inSheetData { _ = try rowNumber() }
            case .endTag:
                if scanner.name == .sheetData {
                    finished = true
                    // A corrupt entry shows only at its end (CRC), so read to the end before saying "no more rows";
                    // the merged ranges are on the way.
                    trailingMerges = try Worksheet.mergedRanges(&scanner, sheet: sheet)
                }
            case .end:
                finished = true
                if inSheetData { throw malformed("the sheet XML ends inside <sheetData> (truncated?)") }
            case .text, .cdata:
                break
            }
        }
        return nil
    }

    /// The row's `r` attribute, or the previous row + 1 when it has none.
    private mutating func rowNumber() throws -> Int {
        var number = lastRow + 1
        for i in 0..<scanner.attributeCount where scanner.attributeLetter(i) == 0x72 {
            let (start, end) = try attributeBytes(i)
            guard let value = NumberText.parseIndex(start, end), value >= 1, value <= CellReference.rowLimit else {
                throw malformed("row number \"\(String(decoding: UnsafeBufferPointer(start: start, count: end), as: UTF8.self))\" after row \(lastRow) is not a row number")
            }
            number = value
        }
        lastRow = number
        return number
    }

    /// The bytes of attribute `i`, entity references decoded only if it has any.
    private mutating func attributeBytes(_ i: Int) throws -> (UnsafePointer<UInt8>, Int) {
        let (start, end) = scanner.attributeValue(i)
        if memchr(scanner.base + start, 0x26, end - start) == nil {
            return (UnsafePointer(scanner.base + start), end - start)
        }
        decodedAttribute.removeAll()
        try scanner.appendText(start, end, to: &decodedAttribute)
        return (UnsafePointer(decodedAttribute.base), decodedAttribute.count)
    }

    private mutating func readRow(_ number: Int) throws -> SheetRow? {
        var cells: [CellValue] = []
        cells.reserveCapacity(widthHint)
        var column = -1
        while true {
            let token = try scanner.next()
            switch token {
            case .startTag, .emptyTag:
                guard scanner.name == .c else {
                    if token == .startTag { try scanner.skipElement() }
                    continue
                }
                var kind = CellKind.number
                var style = 0
                var explicitColumn = -1
                for i in 0..<scanner.attributeCount {
                    switch scanner.attributeLetter(i) {
                    case 0x72: // r
                        let (start, count) = try attributeBytes(i)
                        explicitColumn = columnIndex(start, count)
                        guard explicitColumn >= 0 else {
                            throw malformed("cell reference \"\(String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self))\" in row \(number) is not a cell reference")
                        }
                    case 0x74: // t
                        let (start, count) = try attributeBytes(i)
                        guard let parsed = CellKind(start, count) else {
                            throw malformed("a cell in row \(number) has unknown type t=\"\(String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self))\"")
                        }
                        kind = parsed
                    case 0x73: // s
                        let (start, count) = try attributeBytes(i)
                        guard let parsed = NumberText.parseIndex(start, count) else {
                            throw malformed("a cell in row \(number) has style \"\(String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self))\", which is not an index")
                        }
                        style = parsed
                    default:
                        break
                    }
                }
                column = explicitColumn >= 0 ? explicitColumn : column + 1
                guard column < CellReference.columnLimit else {
                    throw malformed("row \(number) has more than \(CellReference.columnLimit) columns")
                }
                if style != 0, let isDate = styles.isDate, style >= isDate.count {
                    throw malformed("cell \(CellReference.name(column: column, row: number)) refers to style \(style), but \(styles.part) defines \(isDate.count) cell formats")
                }
                if token == .emptyTag { continue }
                guard let value = try readCellValue(kind: kind, style: style, column: column, row: number) else { continue }
                if column == cells.count {
                    cells.append(value)
                } else if column > cells.count {
                    cells.append(contentsOf: repeatElement(.empty, count: column - cells.count))
                    cells.append(value)
                } else {
                    cells[column] = value
                }
            case .endTag:
                if cells.isEmpty { return nil }
                if cells.count > widthHint { widthHint = cells.count }
                return SheetRow(number: number, cells: cells)
            case .end:
                throw malformed("the sheet XML ends inside row \(number) (truncated?)")
            case .text, .cdata:
                continue
            }
        }
    }

    /// 0-based column of the letters that start a reference like `AB12`; -1 when there are none or too many.
    private func columnIndex(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var column = 0
        var i = 0
        while i < n {
            let letter = p[i] | 0x20
            guard letter >= 0x61 && letter <= 0x7A && i < 3 else { break }
            column = column * 26 + Int(letter - 0x60)
            i += 1
        }
        guard i > 0 else { return -1 }
        while i < n {
            guard p[i] &- 0x30 < 10 else { return -1 }
            i += 1
        }
        return column <= CellReference.columnLimit ? column - 1 : -1
    }

    /// Reads a cell's content up to `</c>`; nil when the cell holds no value.
    private mutating func readCellValue(kind: CellKind, style: Int, column: Int, row: Int) throws -> CellValue? {
        var hasValue = false
        var hasInline = false
        while true {
            switch try scanner.next() {
            case .startTag:
                switch scanner.name {
                case .v:
                    if let (start, end) = scanner.plainTextThenEndTag() {
                        // Numbers and shared-string indices are read in place; other text is copied.
                        guard scanner.name == .v else { throw malformed("<v> of cell \(CellReference.name(column: column, row: row)) is not closed by </v>") }
                        if end > start, kind == .number || kind == .sharedString, let value = try valueInPlace(kind: kind, style: style, start: start, end: end, column: column, row: row) {
                            try closeCell(column: column, row: row)
                            return value
                        }
                        text.removeAll()
                        text.append(scanner.base + start, end - start)
                        hasValue = true
                        continue
                    }
                    text.removeAll()
                    do {
                        try scanner.collectText(into: &text)
                    } catch is TextLimitExceeded {
                        throw tooLong(column: column, row: row)
                    }
                    hasValue = true
                case .is:
                    text.removeAll()
                    do {
                        try scanner.collectRichText(into: &text)
                    } catch is TextLimitExceeded {
                        throw tooLong(column: column, row: row)
                    }
                    hasInline = true
                default:
                    try scanner.skipElement() // <f>: the cached value in <v> is what we report
                }
            case .emptyTag:
                if scanner.name == .v || scanner.name == .is {
                    text.removeAll()
                    if scanner.name == .v { hasValue = true } else { hasInline = true }
                }
            case .endTag:
                return try value(kind: kind, style: style, hasValue: hasValue, hasInline: hasInline, column: column, row: row)
            case .end:
                throw malformed("the sheet XML ends inside cell \(CellReference.name(column: column, row: row)) (truncated?)")
            case .text, .cdata:
                continue
            }
        }
    }

    private func tooLong(column: Int, row: Int) -> XLSXError {
        malformed("cell \(CellReference.name(column: column, row: row)) holds more than \(TextLimits.cellDescription); refused rather than held in memory")
    }

    /// A number or shared string read straight from the window; nil to fall back to the general path.
    @inline(__always) private func valueInPlace(kind: CellKind, style: Int, start: Int, end: Int, column: Int, row: Int) throws -> CellValue? {
        let p = UnsafePointer(scanner.base + start)
        if kind == .sharedString {
            guard let index = NumberText.parseIndex(p, end - start) else { return nil }
            guard index < sharedStrings.count else {
                throw malformed("cell \(CellReference.name(column: column, row: row)) refers to shared string \(index), but \(sharedStringsPart) has \(sharedStrings.count)")
            }
            return .text(sharedStrings[index])
        }
        guard let number = NumberText.parseDouble(p, end - start) else { return nil }
        if let isDate = styles.isDate, style < isDate.count, isDate[style],
           let date = ExcelDateTime(serial: number, uses1904DateSystem: uses1904) {
            return .date(date)
        }
        if let isPercent = styles.isPercent, style < isPercent.count, isPercent[style] {
            return .text(NumberFormat.percentText(number))
        }
        return .number(number)
    }

    /// Reads to the cell's `</c>` after its value was taken in place (a `<f>` after `<v>` is skipped).
    private mutating func closeCell(column: Int, row: Int) throws {
        while true {
            switch try scanner.next() {
            case .endTag:
                return
            case .startTag:
                try scanner.skipElement()
            case .end:
                throw malformed("the sheet XML ends inside cell \(CellReference.name(column: column, row: row)) (truncated?)")
            default:
                continue
            }
        }
    }

    private func value(kind: CellKind, style: Int, hasValue: Bool, hasInline: Bool, column: Int, row: Int) throws -> CellValue? {
        switch kind {
        case .number:
            if hasInline { return .text(text.string()) }
            guard hasValue, text.count > 0 else { return nil }
            guard let number = NumberText.parseDouble(text.base, text.count) else {
                throw malformed("cell \(CellReference.name(column: column, row: row)) holds \"\(text.string())\", which is not a number")
            }
            if let isDate = styles.isDate, style < isDate.count, isDate[style],
               let date = ExcelDateTime(serial: number, uses1904DateSystem: uses1904) {
                return .date(date)
            }
            if let isPercent = styles.isPercent, style < isPercent.count, isPercent[style] {
                return .text(NumberFormat.percentText(number))
            }
            return .number(number)
        case .sharedString:
            guard hasValue, text.count > 0 else { return nil }
            guard let index = NumberText.parseIndex(text.base, text.count) else {
                throw malformed("cell \(CellReference.name(column: column, row: row)) has shared string index \"\(text.string())\", which is not an index")
            }
            guard index < sharedStrings.count else {
                throw malformed("cell \(CellReference.name(column: column, row: row)) refers to shared string \(index), but \(sharedStringsPart) has \(sharedStrings.count)")
            }
            return .text(sharedStrings[index])
        case .formulaString, .inlineString:
            return hasValue || hasInline ? .text(text.string()) : nil
        case .boolean:
            guard hasValue, text.count > 0 else { return nil }
            switch text.string().trimmingXMLSpace() {
            case "1", "true": return .bool(true)
            case "0", "false": return .bool(false)
            case let other: throw malformed("cell \(CellReference.name(column: column, row: row)) holds \"\(other)\", which is not a boolean")
            }
        case .error:
            guard hasValue else { return nil }
            return .error(text.string())
        case .isoDate:
            guard hasValue, text.count > 0 else { return nil }
            if let date = ExcelDateTime(iso8601: text.buffer) { return .date(date) }
            return .text(text.string())
        }
    }
}

extension String {
    /// Without the XML whitespace (space, tab, CR, LF) around it.
    func trimmingXMLSpace() -> String {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        while start < end && ByteScanner.isSpace(bytes[start]) { start += 1 }
        while end > start && ByteScanner.isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
