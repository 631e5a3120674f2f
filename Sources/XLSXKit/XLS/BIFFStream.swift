/// The bytes of a BIFF8 Workbook stream, owned once and read through a raw pointer (the row loop touches every byte).
final class BIFFStream: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let count: Int

    /// An uninitialized buffer of `count` bytes, for the caller to fill (`CompoundFile.biffStream(named:)`).
    init(count: Int) {
        self.count = count
        // UInt8 is trivial: the filler initializes the bytes by copying into them.
        base = .allocate(capacity: max(count, 1))
    }

    deinit { base.deallocate() }

    @inline(__always) func u8(_ offset: Int) -> Int { Int(base[offset]) }
    @inline(__always) func u16(_ offset: Int) -> Int { Int(base[offset]) | Int(base[offset + 1]) << 8 }
    @inline(__always) func u32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt32.self))
    }
    @inline(__always) func f64(_ offset: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)))
    }

    /// The record at `offset`: type, body offset and body length; nil when its header or body runs past the end.
    @inline(__always) func record(at offset: Int) -> (type: Int, body: Int, length: Int)? {
        guard offset + 4 <= count else { return nil }
        let length = u16(offset + 2)
        guard offset + 4 + length <= count else { return nil }
        return (u16(offset), offset + 4, length)
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

/// Decodes BIFF8 character data, which each string stores either as UTF-16LE or "compressed" (one byte per character).
///
/// Compressed bytes are the low halves of UTF-16 code units, i.e. Latin-1. Bytes 0x80-0x9F are C1 control
/// characters there, never text; writers that put Windows-1252 bytes into compressed strings mean `€ ‘ ’ “ ” † ‡ …`
/// by them, so those bytes are read as Windows-1252 (as the CODEPAGE 1252 such writers declare says).
struct BIFFText {
    private var units: [UInt16] = []

    init() { units.reserveCapacity(256) }

    mutating func removeAll() { units.removeAll(keepingCapacity: true) }

    mutating func appendCompressed(_ p: UnsafePointer<UInt8>, _ count: Int) {
        for i in 0..<count { units.append(Self.scalar(p[i])) }
    }

    mutating func appendUTF16(_ p: UnsafePointer<UInt8>, _ count: Int) {
        for i in 0..<count { units.append(UInt16(p[2 * i]) | UInt16(p[2 * i + 1]) << 8) }
    }

    func string() -> String { String(decoding: units, as: UTF16.self) }

    /// A compressed string read in place: ASCII (nearly every string) becomes a String without a copy through `units`.
    mutating func compressed(_ p: UnsafePointer<UInt8>, _ count: Int) -> String {
        var i = 0
        while i < count && p[i] < 0x80 { i += 1 }
        if i == count { return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self) }
        removeAll()
        appendCompressed(p, count)
        return string()
    }

    mutating func utf16(_ p: UnsafePointer<UInt8>, _ count: Int) -> String {
        removeAll()
        appendUTF16(p, count)
        return string()
    }

    @inline(__always) static func scalar(_ byte: UInt8) -> UInt16 {
        byte >= 0x80 && byte < 0xA0 ? windows1252High[Int(byte - 0x80)] : UInt16(byte)
    }

    /// Windows-1252 for 0x80-0x9F; its five undefined bytes stay as they are.
    private static let windows1252High: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}

/// A record's body followed by its CONTINUE records, read as one sequence (SST, STRING).
///
/// Raw fields run straight across record boundaries; character data does not: a string's characters that
/// continue in the next record are preceded there by a fresh flags byte saying whether they are compressed.
struct ContinuedRecord {
    private let stream: BIFFStream
    private var segments: [Range<Int>]
    private var segment = 0
    private(set) var position: Int
    private let what: String

    /// The record whose body starts at `body`, and every CONTINUE record right after it.
    init(stream: BIFFStream, recordAt offset: Int, what: String) {
        self.stream = stream
        self.what = what
        var segments: [Range<Int>] = []
        var next = offset
        while let record = stream.record(at: next), next == offset || record.type == BIFFRecord.continueRecord {
            segments.append(record.body..<(record.body + record.length))
            next = record.body + record.length
        }
        self.segments = segments
        position = segments.first?.lowerBound ?? offset
    }

    /// The stream offset just after the last CONTINUE record.
    var end: Int { segments.last.map { $0.upperBound } ?? position }

    /// True when every byte has been read.
    var atEnd: Bool { segment >= segments.count || (segment == segments.count - 1 && position >= segments[segment].upperBound) }

    private func cutOff(_ detail: String) -> XLSError {
        .malformedWorkbook("\(what) ends inside \(detail) (a cut-off record or a missing CONTINUE)")
    }

    /// Moves to the next record when the current one is used up; false when there is none.
    private mutating func ensureByte() -> Bool {
        while segment < segments.count && position >= segments[segment].upperBound {
            segment += 1
            if segment < segments.count { position = segments[segment].lowerBound }
        }
        return segment < segments.count
    }

    mutating func byte(_ detail: @autoclosure () -> String) throws -> Int {
        guard ensureByte() else { throw cutOff(detail()) }
        defer { position += 1 }
        return stream.u8(position)
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
            guard ensureByte() else { throw cutOff(detail()) }
            let step = min(left, segments[segment].upperBound - position)
            position += step
            left -= step
        }
    }

    /// `count` characters starting in the given form; a record boundary inside them brings a new flags byte.
    mutating func characters(_ count: Int, highByte: Bool, text: inout BIFFText, _ detail: @autoclosure () -> String) throws -> String {
        if count == 0 { return "" }
        // No ensureByte() here: characters that start in the next record start with its flags byte.
        guard segment < segments.count else { throw cutOff(detail()) }
        let bytes = highByte ? 2 * count : count
        if position + bytes <= segments[segment].upperBound {
            defer { position += bytes }
            let p = UnsafePointer(stream.base + position)
            return highByte ? text.utf16(p, count) : text.compressed(p, count)
        }
        text.removeAll()
        var left = count
        var wide = highByte
        var first = true
        while left > 0 {
            if !first || position >= segments[segment].upperBound {
                guard position >= segments[segment].upperBound else { throw cutOff(detail()) }
                segment += 1
                guard segment < segments.count, !segments[segment].isEmpty else { throw cutOff(detail()) }
                position = segments[segment].lowerBound
                wide = stream.u8(position) & 1 != 0
                position += 1
            }
            first = false
            let room = segments[segment].upperBound - position
            let take = min(left, wide ? room / 2 : room)
            let p = UnsafePointer(stream.base + position)
            if wide { text.appendUTF16(p, take) } else { text.appendCompressed(p, take) }
            position += wide ? 2 * take : take
            left -= take
            if left > 0 && wide && room % 2 == 1 {
                throw XLSError.malformedWorkbook("\(what): UTF-16 characters of \(detail()) straddle a CONTINUE boundary")
            }
        }
        return text.string()
    }
}
