import Foundation
import LibCryptoKit
import SOAP

/// A whole-state RPX answer cut into its record elements on its bytes, before any XML parser sees it
/// (`RPXOperation.wholeStateRecord`: `<Lease>...</Lease>` of getleaseinfo, one raw row each, in order).
///
/// The cut is taken only where it is certainly the decoder's list (`RecordFrame`, which the fetch's check frames an
/// answer by too); otherwise `init` fails and the answer is decoded whole. A record elsewhere in the answer with the
/// same name (the decoder reads only the payload's) is caught by the loader's counts (`RecordLoad`), not here.
struct RecordSplit {
    let bytes: [UInt8]
    /// Each record element's bytes, from its `<` to the end of its closing tag, in document order.
    let records: [Range<Int>]

    /// Nil when the answer cannot be cut cleanly, or lists no record (nothing to gain).
    init?(_ bytes: [UInt8], record name: String) {
        guard let records = Self.cut(bytes, name: name), !records.isEmpty else { return nil }
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

    /// The records' ranges (`RecordFrame`, the whole answer in one piece), or nil where a cut would not be certain.
    private static func cut(_ bytes: [UInt8], name: String) -> [Range<Int>]? {
        var frame = RecordFrame(record: name)
        var records: [Range<Int>] = []
        bytes.withUnsafeBytes { frame.feed($0, at: 0, last: true) { records.append($0) } }
        return frame.finish { records.append($0) } ? records : nil
    }
}
