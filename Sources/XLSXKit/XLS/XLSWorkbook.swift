#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open BIFF8 .xls workbook (Excel 97-2003, the format of Crystal Reports exports); sheets decode on demand.
///
/// Opened from a path, the Workbook stream stays in the file: the globals (sheet list, formats, shared strings)
/// are read once, and each sheet's records are read from its BOUNDSHEET offset when it is read, through a
/// small buffer, so memory does not grow with the file (the shared strings excepted: cells refer to them).
public final class XLSWorkbook {
    /// Sheet names in workbook order (hidden sheets, chart and macro sheets included, as the tabs are).
    public let sheetNames: [String]
    /// True when serials count from 1904-01-01 (the DATEMODE record).
    public let uses1904DateSystem: Bool
    /// The CODEPAGE record: 1200 (UTF-16) as BIFF8 requires, though some writers say 1252 or 1251; nil when absent.
    public let codePage: Int?

    let stream: BIFFStream
    let sheets: [SheetEntry]
    let sharedStrings: [String]
    /// Per XF record: does its number format show a date or time.
    let isDateXF: [Bool]
    /// Which XF records show numbers as percents (their cells read as `88.24%` text, not the stored fraction).
    let isPercentXF: [Bool]
    /// How compressed strings in the sheets decode (from `codePage`).
    let characters: CodePage

    struct SheetEntry {
        var name: String
        /// Offset of the sheet's BOF record in the Workbook stream.
        var offset: Int
        /// BOUNDSHEET dt: 0 worksheet (or dialog), 1 Excel 4.0 macro sheet, 2 chart, 6 VBA module.
        var kind: Int
    }

    /// Opens the .xls at `path`, reading sectors as they are needed; other files are refused with what they really are.
    public convenience init(path: String) throws {
        let kind = FileKind.sniff(try readWholeFile(path, upTo: 4096))
        guard kind == .ole2 else { throw XLSError.notXLS(kind) }
        try self.init(compoundFile: CompoundFile(path: path))
    }

    /// Reads an .xls held in memory (a downloaded artifact).
    public convenience init(bytes: [UInt8]) throws {
        let kind = FileKind.sniff(bytes.prefix(4096))
        guard kind == .ole2 else { throw XLSError.notXLS(kind) }
        try self.init(compoundFile: CompoundFile(bytes: bytes))
    }

    /// Reads the workbook in an already parsed OLE2 container: its Workbook stream, else an Excel 5/95 Book stream (refused by version).
    public init(compoundFile file: CompoundFile) throws {
        let name: String
        let stream: BIFFStream
        if let workbook = try file.biffStream(named: "Workbook") {
            (name, stream) = ("Workbook", workbook)
        } else if let book = try file.biffStream(named: "Book") {
            (name, stream) = ("Book", book)
        } else {
            throw XLSError.noWorkbookStream(streams: file.streamNames)
        }
        self.stream = stream
        let globals = try Globals(stream: stream, streamName: name)
        sheetNames = globals.sheets.map(\.name)
        sheets = globals.sheets
        uses1904DateSystem = globals.uses1904
        codePage = globals.codePage
        characters = CodePage(number: globals.codePage)
        sharedStrings = globals.sharedStrings
        isDateXF = globals.xfFormats.map { globals.customFormatIsDate[$0] ?? NumberFormat.isBuiltInDate($0) }
        isPercentXF = globals.xfFormats.map { globals.customFormatIsPercent[$0] ?? NumberFormat.isBuiltInPercent($0) }
    }

    /// The worksheet with this name (exact match first, then ignoring case as Excel does).
    public func worksheet(named name: String) throws -> XLSWorksheet {
        if let index = sheetNames.firstIndex(of: name) { return try worksheet(at: index) }
        let folded = name.lowercased()
        if let index = sheetNames.firstIndex(where: { $0.lowercased() == folded }) { return try worksheet(at: index) }
        throw XLSXError.noSuchSheet(name: name, available: sheetNames)
    }

    /// The worksheet at a 0-based position in workbook order.
    public func worksheet(at index: Int) throws -> XLSWorksheet {
        guard index >= 0 && index < sheets.count else {
            throw XLSXError.sheetIndexOutOfRange(index: index, count: sheets.count)
        }
        let sheet = sheets[index]
        switch sheet.kind {
        case 0: return XLSWorksheet(workbook: self, name: sheet.name, offset: sheet.offset)
        case 2: throw XLSXError.notAWorksheet(sheet: sheet.name)
        case 1: throw XLSError.notAWorksheet(sheet: sheet.name, kind: "an Excel 4.0 macro sheet")
        case 6: throw XLSError.notAWorksheet(sheet: sheet.name, kind: "a VBA module")
        default: throw XLSError.notAWorksheet(sheet: sheet.name, kind: "a sheet of unknown type \(sheet.kind)")
        }
    }
}

// MARK: - Workbook globals

/// The records before the first sheet: BOF, BOUNDSHEET, DATEMODE, CODEPAGE, FORMAT, XF, SST, EOF.
private struct Globals {
    var sheets: [XLSWorkbook.SheetEntry] = []
    var uses1904 = false
    var codePage: Int?
    var sharedStrings: [String] = []
    var xfFormats: [Int] = []
    var customFormatIsDate: [Int: Bool] = [:]
    var customFormatIsPercent: [Int: Bool] = [:]

    init(stream: BIFFStream, streamName: String) throws {
        let cursor = BIFFCursor(stream: stream, at: 0)
        guard try cursor.next() else {
            throw XLSError.malformedWorkbook("the \(streamName) stream is \(stream.count) bytes, too short for a BOF record")
        }
        if let version = BIFFRecord.olderBOFs[cursor.type] {
            throw XLSError.unsupportedBIFFVersion(stream: streamName, version: version)
        }
        guard cursor.type == BIFFRecord.bof, cursor.length >= 4 else {
            throw XLSError.malformedWorkbook("the stream starts with \(BIFFRecord.name(cursor.type)), not a BOF record")
        }
        let version = cursor.u16(0)
        guard version == 0x0600 else { throw XLSError.unsupportedBIFFVersion(stream: streamName, version: version) }
        guard cursor.u16(2) == 0x0005 else {
            throw XLSError.malformedWorkbook("the first BOF record is of substream type \(biffHex(cursor.u16(2), width: 4)), not workbook globals (0x0005)")
        }
        var text = BIFFText()
        while true {
            guard try cursor.next() else {
                let offset = cursor.position
                throw XLSError.malformedWorkbook(offset >= stream.count
                    ? "the workbook globals end without an EOF record (truncated?)"
                    : "the record at offset \(biffHex(offset)) runs past the end of the stream (\(stream.count) bytes; truncated?)")
            }
            let length = cursor.length
            func tooShort(_ needed: Int) -> XLSError {
                .malformedWorkbook("\(BIFFRecord.name(cursor.type)) record at offset \(biffHex(cursor.offset)) is \(length) bytes, shorter than the \(needed) it needs")
            }
            switch cursor.type {
            case BIFFRecord.eof:
                return
            case BIFFRecord.filePass:
                throw XLSError.encrypted
            case BIFFRecord.boundSheet:
                guard length >= 8 else { throw tooShort(8) }
                let count = cursor.u8(6)
                let wide = cursor.u8(7) & 1 != 0
                guard 8 + (wide ? 2 : 1) * count <= length else { throw tooShort(8 + (wide ? 2 : 1) * count) }
                let p = cursor.body + 8
                let name = wide ? text.utf16(p, count) : try text.compressed(p, count)
                let position = Int(cursor.u32(0))
                guard position < stream.count else {
                    throw XLSError.malformedWorkbook("BOUNDSHEET of sheet \"\(name)\" points at offset \(biffHex(position)), past the end of the stream (\(stream.count) bytes)")
                }
                sheets.append(XLSWorkbook.SheetEntry(name: name, offset: position, kind: cursor.u8(5)))
            case BIFFRecord.dateMode:
                guard length >= 2 else { throw tooShort(2) }
                uses1904 = cursor.u16(0) == 1
            case BIFFRecord.codePage:
                guard length >= 2 else { throw tooShort(2) }
                codePage = cursor.u16(0)
                // Writers put CODEPAGE before any string (BOUNDSHEET, FORMAT, SST), so every string decodes in it.
                text.codePage = CodePage(number: codePage)
            case BIFFRecord.format:
                guard length >= 5 else { throw tooShort(5) }
                let count = cursor.u16(2)
                let wide = cursor.u8(4) & 1 != 0
                guard 5 + (wide ? 2 : 1) * count <= length else { throw tooShort(5 + (wide ? 2 : 1) * count) }
                let p = cursor.body + 5
                let code = wide ? text.utf16(p, count) : try text.compressed(p, count)
                customFormatIsDate[cursor.u16(0)] = NumberFormat.isDateFormat(code: code)
                customFormatIsPercent[cursor.u16(0)] = NumberFormat.isPercentFormat(code: code)
            case BIFFRecord.xf:
                guard length >= 4 else { throw tooShort(4) }
                xfFormats.append(cursor.u16(2))
            case BIFFRecord.sst:
                try readSST(cursor: cursor, text: &text)
            default:
                break
            }
        }
    }

    /// The shared strings: the SST record the cursor is on and its CONTINUE records, which the cursor moves past.
    private mutating func readSST(cursor: BIFFCursor, text: inout BIFFText) throws {
        var reader = ContinuedRecord(cursor: cursor, what: "the SST record at offset \(biffHex(cursor.offset))")
        _ = try reader.u32("its header")
        let unique = try reader.u32("its header")
        // Reserve from the declared count, capped so a lying header cannot allocate much.
        sharedStrings.reserveCapacity(min(unique, 1 << 20))
        for index in 0..<unique {
            // Fewer strings than declared is harmless: a cell that refers to a missing one fails by itself.
            if try reader.atEnd() { break }
            let count = try reader.u16("the header of string \(index)")
            let flags = try reader.byte("the header of string \(index)")
            let runs = flags & 0x08 != 0 ? try reader.u16("the header of string \(index)") : 0
            let phonetic = flags & 0x04 != 0 ? try reader.u32("the header of string \(index)") : 0
            sharedStrings.append(try reader.characters(count, highByte: flags & 0x01 != 0, text: &text, "the characters of string \(index)"))
            // Formatting runs (4 bytes each) and the far-east phonetic block carry no text we report.
            if runs > 0 { try reader.skip(4 * runs, "the formatting runs of string \(index)") }
            if phonetic > 0 { try reader.skip(phonetic, "the phonetic block of string \(index)") }
        }
    }
}

// MARK: - Files

/// The bytes of a file, or of its first `limit` bytes (HTML and CSV reports are read whole; they are small).
func readWholeFile(_ path: String, upTo limit: Int = .max) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw XLSXError.cannotOpen(reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw XLSXError.cannotOpen(reason: String(cString: strerror(errno))) }
    var bytes = [UInt8](repeating: 0, count: min(max(Int(info.st_size), 0), limit))
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
        if n < 0 {
            if errno == EINTR { continue }
            throw XLSXError.cannotOpen(reason: String(cString: strerror(errno)))
        }
        if n == 0 { break }
        done += n
    }
    bytes.removeLast(bytes.count - done)
    return bytes
}
