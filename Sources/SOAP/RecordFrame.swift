import Foundation

/// The byte frame of the record list an answer holds: where each `<Name ...>...</Name>` record element begins and ends,
/// found on the bytes alone, before any XML parser sees them, and fed in pieces as they are read.
///
/// A frame is taken only where it is certainly the decoder's list: every record opens as `<Name>` or `<Name ` and
/// closes as `</Name>`, none is nested in another or empty (`<Name/>`), the records stand side by side with nothing
/// but whitespace between them, and the answer holds no comment, CDATA section, DOCTYPE or processing instruction
/// (past its XML declaration), any of which could hide a record from this scan or show one the decoder does not read.
/// Otherwise the frame `fails` and the answer is read whole. Two readers: the load's cut by record (`RecordSplit`,
/// which decodes only the records it has not decoded before) and the fetch's check (`SOAPResponse.check(path:records:)`,
/// which parses only what lies around the records).
public struct RecordFrame {
    /// The record element's name.
    private let name: [UInt8]
    /// The `<` of the record being read, as an offset from the answer's first byte.
    private var open: Int?
    /// The end of the last record closed (the byte after its `>`).
    public private(set) var lastEnd: Int?
    /// The start of the first record.
    public private(set) var firstStart: Int?
    /// Something but whitespace since the last record closed: a record opening now breaks the list.
    private var gapDirty = false
    /// The bytes fed that could not be read yet (a `<` too close to a piece's end to tell its name), and their offset.
    private var carry: [UInt8] = []
    private var carryOffset = 0
    /// The frame cannot be taken (see the type's comment): the answer is to be read whole (`finish` says so).
    private var failed = false

    public init(record name: String) {
        self.name = Array(name.utf8)
        failed = self.name.isEmpty
    }

    /// Reads the next piece of the answer (`offset`: its first byte's position in the answer, right after the pieces
    /// before), calling `record` with each record's range as it closes. `last`: no piece follows.
    public mutating func feed(_ piece: UnsafeRawBufferPointer, at offset: Int, last: Bool = false,
                              record: (Range<Int>) -> Void) {
        guard !failed else { return }
        if carry.isEmpty {
            scan(piece, at: offset, last: last, record: record)
        } else {
            var joined = carry
            joined.append(contentsOf: piece)
            let start = carryOffset
            carry = []
            joined.withUnsafeBytes { scan($0, at: start, last: last, record: record) }
        }
    }

    /// Ends the answer: false where the frame cannot be taken (a record left open, a tag cut at the end).
    public mutating func finish(record: (Range<Int>) -> Void) -> Bool {
        if !carry.isEmpty {
            let rest = carry, start = carryOffset
            carry = []
            rest.withUnsafeBytes { scan($0, at: start, last: true, record: record) }
        }
        if open != nil { failed = true }
        return !failed
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// One pass over a piece's `<`s; a `<` whose name the piece ends inside is carried to the next piece.
    private mutating func scan(_ buffer: UnsafeRawBufferPointer, at offset: Int, last: Bool,
                               record: (Range<Int>) -> Void) {
        let count = buffer.count
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), count > 0 else { return }
        let name = self.name, nameCount = name.count, first = name[0]
        // A record's tag is told from `<` plus its name plus one byte; `</` plus its name plus `>` for a close.
        let lookahead = nameCount + 3
        func named(at start: Int) -> Bool {
            start + nameCount <= count && base[start] == first && memcmp(base + start, name, nameCount) == 0
        }
        /// Bytes between two records must be whitespace.
        func noteGap(_ range: Range<Int>) {
            guard open == nil, lastEnd != nil, !gapDirty else { return }
            for index in range where !Self.isSpace(base[index]) { gapDirty = true; return }
        }
        var at = 0
        while at < count {
            guard let found = memchr(base + at, 0x3C /* < */, count - at) else {
                noteGap(at..<count)
                return
            }
            let lt = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            noteGap(at..<lt)
            if !last && lt + lookahead > count {
                carry = Array(UnsafeBufferPointer(start: base + lt, count: count - lt))
                carryOffset = offset + lt
                return
            }
            guard lt + 1 < count else { failed = true; return }
            let next = base[lt + 1]
            var opened = false
            if next == 0x21 /* ! */ {
                failed = true; return
            } else if next == 0x3F /* ? */ {
                guard offset + lt == 0 else { failed = true; return }
            } else if next == 0x2F /* / */ {
                let after = lt + 2 + nameCount
                if named(at: lt + 2), after < count, base[after] == 0x3E /* > */ {
                    guard let start = open else { failed = true; return }
                    record(start..<offset + after + 1)
                    lastEnd = offset + after + 1
                    open = nil
                    gapDirty = false
                    at = after + 1
                    continue
                }
            } else if named(at: lt + 1), lt + 1 + nameCount < count {
                let after = base[lt + 1 + nameCount]
                if after == 0x3E || Self.isSpace(after) {
                    guard open == nil, !gapDirty else { failed = true; return }
                    open = offset + lt
                    if firstStart == nil { firstStart = offset + lt }
                    opened = true
                } else if after == 0x2F { // `<Name/>`: a record the decoder reads, with nothing in it
                    failed = true; return
                }
            }
            // Any other tag between two records breaks the list.
            if !opened, open == nil, lastEnd != nil { gapDirty = true }
            at = lt + 1
        }
    }
}
