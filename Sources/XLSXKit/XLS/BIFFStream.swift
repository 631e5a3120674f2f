#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A BIFF8 Workbook stream, read where it lies: a big one sector by sector from the file along its chain
/// (checked whole when opened), a small one (from the mini stream, under 4,096 bytes) from a copy.
///
/// Readers walk it through `BIFFCursor`s, each with a buffer of `BIFFCursor.capacity` bytes; the stream counts
/// the bytes those buffers hold and the bytes read, so tests can see that memory does not grow with the file
/// and that reading a sheet reads only that sheet.
final class BIFFStream {
    /// The stream's size in bytes.
    let count: Int
    private let file: CompoundFileBytes?
    private let memory: [UInt8]
    private let sectors: [UInt32]
    private let sectorSize: Int

    /// Bytes the open cursors' buffers hold now, and at most so far.
    private(set) var bytesHeld = 0
    private(set) var peakBytesHeld = 0
    /// Stream bytes read (copied into cursor buffers) since the last `resetReadCount()`, and the lowest and
    /// highest stream offsets they came from.
    private(set) var bytesRead = 0
    private(set) var readSpan: Range<Int>?

    /// A stream kept in the mini stream: small, so held (and counted as held).
    init(bytes: [UInt8]) {
        count = bytes.count
        memory = bytes
        file = nil
        sectors = []
        sectorSize = 512
        hold(bytes.count)
    }

    /// A stream left in the file: `sectors` is its chain, already checked to cover `count` bytes inside the file.
    init(file: CompoundFileBytes, sectors: [UInt32], sectorSize: Int, count: Int) {
        self.count = count
        self.file = file
        self.sectors = sectors
        self.sectorSize = sectorSize
        memory = []
    }

    /// Copies stream bytes `offset..<offset + count` (inside the stream) to `destination`, one `pread` per run
    /// of consecutive sectors (writers lay a stream out mostly in order, so a buffer's worth is one or two reads).
    func read(into destination: UnsafeMutablePointer<UInt8>, at offset: Int, count: Int) throws {
        guard count > 0 else { return }
        bytesRead += count
        readSpan = readSpan.map { min($0.lowerBound, offset)..<max($0.upperBound, offset + count) } ?? offset..<(offset + count)
        guard let file else {
            memory.withUnsafeBufferPointer { (destination).update(from: $0.baseAddress! + offset, count: count) }
            return
        }
        var done = 0
        while done < count {
            let position = offset + done
            var index = position / sectorSize
            let within = position % sectorSize
            let first = Int(sectors[index])
            var run = sectorSize - within
            while run < count - done, index + 1 < sectors.count, Int(sectors[index + 1]) == Int(sectors[index]) + 1 {
                index += 1
                run += sectorSize
            }
            let take = min(run, count - done)
            try file.read(into: destination + done, at: (first + 1) * sectorSize + within, count: take)
            done += take
        }
    }

    /// Starts counting `bytesRead` and `readSpan` afresh (before reading one sheet).
    func resetReadCount() {
        bytesRead = 0
        readSpan = nil
    }

    fileprivate func hold(_ bytes: Int) {
        bytesHeld += bytes
        peakBytesHeld = max(peakBytesHeld, bytesHeld)
    }

    fileprivate func release(_ bytes: Int) { bytesHeld -= bytes }
}

/// A walk over the records of a `BIFFStream`, through a buffer refilled as it goes.
///
/// The current record's body is contiguous in the buffer (a BIFF8 record is at most 8,228 bytes with its header,
/// the buffer twice that) and stays valid until the cursor moves to another record. Moving to a record's
/// offset (`seek`) and reading from there is how a sheet is read from its BOUNDSHEET offset without touching
/// the sheets before it.
final class BIFFCursor {
    /// Buffer size: a few sectors, enough for the largest record; one `pread` per buffer when reading in order.
    static let capacity = 16 << 10

    let stream: BIFFStream
    private let buffer: UnsafeMutablePointer<UInt8>
    /// The stream bytes in the buffer: `bufferStart..<bufferEnd`.
    private var bufferStart = 0
    private var bufferEnd = 0
    /// Stream offset of the next record's header.
    private(set) var position: Int
    /// The current record: its type, body length, header offset in the stream, and body.
    private(set) var type = 0
    private(set) var length = 0
    private(set) var offset = -1
    private(set) var body: UnsafePointer<UInt8>

    /// A cursor whose first `next()` reads the record at `offset`.
    init(stream: BIFFStream, at offset: Int) {
        self.stream = stream
        buffer = .allocate(capacity: Self.capacity)
        body = UnsafePointer(buffer)
        position = offset
        stream.hold(Self.capacity)
    }

    deinit {
        stream.release(Self.capacity)
        buffer.deallocate()
    }

    /// Makes the record at `offset` the next one `next()` reads.
    func seek(to offset: Int) { position = offset }

    /// Moves to the record at `position`; false (not moving) when its header or body runs past the end of the stream.
    @inline(__always) func next() throws -> Bool {
        if position < bufferStart || position + 4 > bufferEnd {
            guard try load(position, 4) else { return false }
        }
        var p = buffer + (position - bufferStart)
        let length = Int(p[2]) | Int(p[3]) << 8
        // The 16-bit length can say up to 65,535; BIFF8 caps records at 8,224 bytes, and a body must fit the buffer
        // whole (every read of it goes through `body`), so a longer one is refused rather than handed out cut.
        guard 4 + length <= Self.capacity else {
            let type = Int(p[0]) | Int(p[1]) << 8
            throw XLSError.malformedWorkbook("\(BIFFRecord.name(type)) record at offset \(biffHex(position)) declares \(length) bytes, more than a BIFF8 record holds (8,224; this reader takes up to 16,380)")
        }
        if position + 4 + length > bufferEnd {
            guard try load(position, 4 + length) else { return false }
            p = buffer + (position - bufferStart)
        }
        type = Int(p[0]) | Int(p[1]) << 8
        self.length = length
        offset = position
        body = UnsafePointer(p + 4)
        position += 4 + length
        return true
    }

    /// The type of the record at `position` without moving to it; nil when its header runs past the end.
    func peekType() throws -> Int? {
        if position < bufferStart || position + 4 > bufferEnd {
            guard try load(position, 4) else { return nil }
        }
        let p = buffer + (position - bufferStart)
        return Int(p[0]) | Int(p[1]) << 8
    }

    /// Makes stream bytes `start..<start + count` present; false when they run past the end of the stream.
    /// The current record is kept when it lies just before them, so `body` stays valid across a `peekType()`.
    private func load(_ start: Int, _ count: Int) throws -> Bool {
        guard start >= 0, start + count <= stream.count else { return false }
        var from = start
        if offset >= bufferStart, offset < start, offset < bufferEnd, start + count - offset <= Self.capacity { from = offset }
        var kept = 0
        if from >= bufferStart && from < bufferEnd {
            kept = bufferEnd - from
            if from > bufferStart { memmove(buffer, buffer + (from - bufferStart), kept) }
        }
        let end = min(from + Self.capacity, stream.count)
        // What the caller asked for must be in the buffer; a request the buffer cannot hold is a reader bug.
        guard start + count <= end else {
            throw XLSError.malformedWorkbook("bytes \(biffHex(start))..<\(biffHex(start + count)) do not fit the \(Self.capacity)-byte record buffer")
        }
        try stream.read(into: buffer + kept, at: from + kept, count: end - from - kept)
        bufferStart = from
        bufferEnd = end
        if offset >= bufferStart && offset + 4 <= bufferEnd { body = UnsafePointer(buffer + (offset + 4 - bufferStart)) }
        return true
    }

    @inline(__always) func u8(_ at: Int) -> Int { Int(body[at]) }
    @inline(__always) func u16(_ at: Int) -> Int { Int(body[at]) | Int(body[at + 1]) << 8 }
    @inline(__always) func u32(_ at: Int) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(body + at).loadUnaligned(as: UInt32.self))
    }
    @inline(__always) func f64(_ at: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: UnsafeRawPointer(body + at).loadUnaligned(as: UInt64.self)))
    }
}

/// Record types (MS-XLS 2.3) this reader acts on.
enum BIFFRecord {
    static let bof = 0x0809
    static let eof = 0x000A
    static let boundSheet = 0x0085
    static let dateMode = 0x0022
    static let codePage = 0x0042
    static let filePass = 0x002F
    static let sst = 0x00FC
    static let continueRecord = 0x003C
    static let format = 0x041E
    static let xf = 0x00E0
    static let dimensions = 0x0200
    static let labelSST = 0x00FD
    static let label = 0x0204
    static let richString = 0x00D6
    static let number = 0x0203
    static let rk = 0x027E
    static let mulRK = 0x00BD
    static let formula = 0x0006
    static let string = 0x0207
    static let boolErr = 0x0205
    static let blank = 0x0201
    static let mulBlank = 0x00BE
    static let mergedCells = 0x00E5
    static let sharedFormula = 0x04BC
    static let array = 0x0221
    static let table = 0x0236
    /// The BOF record types of BIFF2, BIFF3 and BIFF4 (worksheet files, never inside OLE2 in practice).
    static let olderBOFs = [0x0009: 0x0200, 0x0209: 0x0300, 0x0409: 0x0400]

    static func name(_ type: Int) -> String {
        switch type {
        case bof: return "BOF"
        case eof: return "EOF"
        case boundSheet: return "BOUNDSHEET"
        case sst: return "SST"
        case continueRecord: return "CONTINUE"
        case format: return "FORMAT"
        case xf: return "XF"
        case labelSST: return "LABELSST"
        case label: return "LABEL"
        case richString: return "RSTRING"
        case number: return "NUMBER"
        case rk: return "RK"
        case mulRK: return "MULRK"
        case formula: return "FORMULA"
        case string: return "STRING"
        case boolErr: return "BOOLERR"
        case mergedCells: return "MERGEDCELLS"
        default: return "record \(biffHex(type, width: 4))"
        }
    }

    /// A cell error code's text (MS-XLS 2.5.97.2 BErr).
    static func errorText(_ code: Int) -> String {
        switch code {
        case 0x00: return "#NULL!"
        case 0x07: return "#DIV/0!"
        case 0x0F: return "#VALUE!"
        case 0x17: return "#REF!"
        case 0x1D: return "#NAME?"
        case 0x24: return "#NUM!"
        case 0x2A: return "#N/A"
        case 0x2B: return "#GETTING_DATA"
        // Unknown codes are kept visible rather than failing the sheet over one cell.
        default: return "#ERROR(\(biffHex(code, width: 2)))"
        }
    }

    /// An RK number: a 30-bit integer or the top 30 bits of a double, optionally divided by 100.
    @inline(__always) static func rkValue(_ rk: UInt32) -> Double {
        var value = rk & 2 != 0 ? Double(Int32(bitPattern: rk) >> 2) : Double(bitPattern: UInt64(rk & 0xFFFF_FFFC) << 32)
        if rk & 1 != 0 { value /= 100 }
        return value
    }
}

// MARK: - Strings

/// Decodes BIFF8 character data, which each string stores either as UTF-16LE or "compressed" (one byte per
/// character, in the workbook's `CodePage`: see there for which code pages are read and why).
struct BIFFText {
    private var units: [UInt16] = []
    /// The code page compressed strings are decoded in (the CODEPAGE record, once the globals have read it).
    var codePage: CodePage

    init(codePage: CodePage = .unicode) {
        self.codePage = codePage
        units.reserveCapacity(256)
    }

    mutating func removeAll() { units.removeAll(keepingCapacity: true) }

    mutating func appendCompressed(_ p: UnsafePointer<UInt8>, _ count: Int) throws {
        for i in 0..<count {
            let byte = p[i]
            if byte < 0x80 {
                units.append(UInt16(byte))
            } else if let high = codePage.high {
                units.append(high[Int(byte) - 0x80])
            } else {
                throw XLSError.unsupportedCodePage(codePage.number ?? 0)
            }
        }
    }

    mutating func appendUTF16(_ p: UnsafePointer<UInt8>, _ count: Int) {
        for i in 0..<count { units.append(UInt16(p[2 * i]) | UInt16(p[2 * i + 1]) << 8) }
    }

    func string() -> String { String(decoding: units, as: UTF16.self) }

    /// A compressed string read in place: ASCII (nearly every string) becomes a String without a copy through `units`.
    mutating func compressed(_ p: UnsafePointer<UInt8>, _ count: Int) throws -> String {
        var i = 0
        while i < count && p[i] < 0x80 { i += 1 }
        if i == count { return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self) }
        removeAll()
        try appendCompressed(p, count)
        return string()
    }

    mutating func utf16(_ p: UnsafePointer<UInt8>, _ count: Int) -> String {
        removeAll()
        appendUTF16(p, count)
        return string()
    }
}

/// A record's body followed by its CONTINUE records, read as one sequence (SST, STRING).
///
/// Raw fields run straight across record boundaries; character data does not: a string's characters that
/// continue in the next record are preceded there by a fresh flags byte saying whether they are compressed.
/// The CONTINUE records are pulled from the cursor as they are reached, so a big SST is never held as bytes.
struct ContinuedRecord {
    private let cursor: BIFFCursor
    /// Read position in the cursor's current record, and that record's body length.
    private var position = 0
    private var length: Int
    private let what: String

    /// Starts at the body of the record the cursor is on; the CONTINUE records right after it follow on.
    init(cursor: BIFFCursor, what: String) {
        self.cursor = cursor
        self.what = what
        length = cursor.length
    }

    /// True when every byte has been read.
    func atEnd() throws -> Bool {
        try position >= length && cursor.peekType() != BIFFRecord.continueRecord
    }

    private func cutOff(_ detail: String) -> XLSError {
        .malformedWorkbook("\(what) ends inside \(detail) (a cut-off record or a missing CONTINUE)")
    }

    /// Moves to the next CONTINUE record when the current one is used up; false when there is none.
    private mutating func ensureByte() throws -> Bool {
        while position >= length {
            guard try cursor.peekType() == BIFFRecord.continueRecord, try cursor.next() else { return false }
            position = 0
            length = cursor.length
        }
        return true
    }

    mutating func byte(_ detail: @autoclosure () -> String) throws -> Int {
        guard try ensureByte() else { throw cutOff(detail()) }
        defer { position += 1 }
        return cursor.u8(position)
    }

    mutating func u16(_ detail: @autoclosure () -> String) throws -> Int {
        try byte(detail()) | (try byte(detail())) << 8
    }

    mutating func u32(_ detail: @autoclosure () -> String) throws -> Int {
        try u16(detail()) | (try u16(detail())) << 16
    }

    mutating func skip(_ count: Int, _ detail: @autoclosure () -> String) throws {
        var left = count
        while left > 0 {
            guard try ensureByte() else { throw cutOff(detail()) }
            let step = min(left, length - position)
            position += step
            left -= step
        }
    }

    /// `count` characters starting in the given form; a record boundary inside them brings a new flags byte.
    mutating func characters(_ count: Int, highByte: Bool, text: inout BIFFText, _ detail: @autoclosure () -> String) throws -> String {
        if count == 0 { return "" }
        let bytes = highByte ? 2 * count : count
        if position + bytes <= length {
            defer { position += bytes }
            let p = cursor.body + position
            return highByte ? text.utf16(p, count) : try text.compressed(p, count)
        }
        text.removeAll()
        var left = count
        var wide = highByte
        var first = true
        while left > 0 {
            // No ensureByte() here: characters that start in the next record start with its flags byte.
            if !first || position >= length {
                guard position >= length else { throw cutOff(detail()) }
                guard try cursor.peekType() == BIFFRecord.continueRecord, try cursor.next(), cursor.length > 0 else {
                    throw cutOff(detail())
                }
                length = cursor.length
                wide = cursor.u8(0) & 1 != 0
                position = 1
            }
            first = false
            let room = length - position
            let take = min(left, wide ? room / 2 : room)
            let p = cursor.body + position
            if wide { text.appendUTF16(p, take) } else { try text.appendCompressed(p, take) }
            position += wide ? 2 * take : take
            left -= take
            if left > 0 && wide && room % 2 == 1 {
                throw XLSError.malformedWorkbook("\(what): UTF-16 characters of \(detail()) straddle a CONTINUE boundary")
            }
        }
        return text.string()
    }
}
