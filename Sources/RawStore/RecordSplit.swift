import Foundation
import LibCryptoKit

/// A whole-state RPX answer cut into its record elements on its bytes, before any XML parser sees it
/// (`RPXOperation.wholeStateRecord`: `<Lease>...</Lease>` of getleaseinfo, one raw row each, in order).
///
/// The cut is taken only where it is certainly the decoder's list: every record opens as `<Name>` or `<Name ` and
/// closes as `</Name>`, none is nested in another or empty (`<Name/>`), the records stand side by side with nothing
/// but whitespace between them, and the answer holds no comment, CDATA section, DOCTYPE or processing instruction
/// (past its XML declaration), any of which could hide a record from this scan or show one the decoder does not read.
/// Otherwise `init` fails and the answer is decoded whole. A record elsewhere in the answer with the same name (the
/// decoder reads only the payload's) is caught by the loader's counts (`RecordLoad`), not here.
struct RecordSplit {
    let bytes: [UInt8]
    /// Each record element's bytes, from its `<` to the end of its closing tag, in document order.
    let records: [Range<Int>]

    /// Nil when the answer cannot be cut cleanly, or lists no record (nothing to gain).
    init?(_ bytes: [UInt8], record name: String) {
        let name = Array(name.utf8)
        guard !name.isEmpty, let records = Self.cut(bytes, name: name), !records.isEmpty else { return nil }
        self.bytes = bytes
        self.records = records
    }

    var count: Int { records.count }

    /// The XML declaration the answer opens with (`<?xml version="1.0" encoding="utf-8"?>`), empty without one: it
    /// names the encoding the records' bytes are read in, so records are compared only between answers that declare
    /// the same.
    var declaration: ArraySlice<UInt8> {
        guard bytes.starts(with: Array("<?".utf8)), let end = bytes.firstIndex(of: 0x3E /* > */) else { return [] }
        return bytes[...end]
    }

    /// Each record's SHA-256, 32 bytes a record in document order: what a later answer's records are compared with,
    /// kept when this answer's bytes are no longer at hand (`RecordLoad`).
    var digests: [UInt8] { digests(prefixedBy: []) }

    /// Each record's SHA-256 over `prefix` and then the record's bytes, 32 bytes a record in document order (one
    /// hasher for all of them; LedgerHouseholds prefixes the decoding build and the answer's head).
    func digests(prefixedBy prefix: [UInt8]) -> [UInt8] {
        let hasher = SHA256()
        var digests: [UInt8] = []
        digests.reserveCapacity(records.count * 32)
        bytes.withUnsafeBytes { all in
            for range in records {
                hasher.update(prefix)
                hasher.update(UnsafeRawBufferPointer(rebasing: all[range]))
                hasher.finalizeAndRestart(appendingTo: &digests)
            }
        }
        return digests
    }

    /// The answer with only the records at `kept` (ascending) left in its list: still a whole document, the envelope
    /// and everything around the list as the vendor sent it, for the decoder (and its checks) to read.
    func keeping(_ kept: [Int]) -> [UInt8] {
        var document: [UInt8] = []
        let head = records[0].lowerBound, tail = records[records.count - 1].upperBound
        document.reserveCapacity(head + (bytes.count - tail) + kept.reduce(0) { $0 + records[$1].count })
        document.append(contentsOf: bytes[..<head])
        for index in kept { document.append(contentsOf: bytes[records[index]]) }
        document.append(contentsOf: bytes[tail...])
        return document
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// One pass over the answer's `<`s: the records' ranges, or nil where a cut would not be certain.
    private static func cut(_ bytes: [UInt8], name: [UInt8]) -> [Range<Int>]? {
        bytes.withUnsafeBufferPointer { buffer -> [Range<Int>]? in
            let count = buffer.count
            guard let base = buffer.baseAddress else { return nil }
            let first = name[0]
            // The first byte compared before calling memcmp: nearly every tag of an answer has another name.
            func named(at start: Int) -> Bool {
                start + name.count <= count && base[start] == first && memcmp(base + start, name, name.count) == 0
            }
            var records: [Range<Int>] = []
            var open: Int?          // the `<` of the record being read
            var lastEnd: Int?       // the end of the previous record
            var at = 0
            while at < count {
                guard let found = memchr(base + at, 0x3C /* < */, count - at) else { break }
                let lt = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                guard lt + 1 < count else { return nil }
                let next = base[lt + 1]
                if next == 0x21 /* ! */ { return nil }
                if next == 0x3F /* ? */ {
                    guard lt == 0 else { return nil }
                } else if next == 0x2F /* / */ {
                    let after = lt + 2 + name.count
                    if named(at: lt + 2), after < count, base[after] == 0x3E /* > */ {
                        guard let start = open else { return nil }
                        records.append(start..<after + 1)
                        lastEnd = after + 1
                        open = nil
                    }
                } else if named(at: lt + 1), lt + 1 + name.count < count {
                    let after = base[lt + 1 + name.count]
                    if after == 0x3E || isSpace(after) {
                        guard open == nil else { return nil }
                        if let lastEnd, !(lastEnd..<lt).allSatisfy({ isSpace(base[$0]) }) { return nil }
                        open = lt
                    } else if after == 0x2F { // `<Name/>`: a record the decoder reads, with nothing in it
                        return nil
                    }
                }
                at = lt + 1
            }
            return open == nil ? records : nil
        }
    }
}
