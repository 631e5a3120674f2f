import Testing
@testable import SOAP

/// The frame of an answer's record list found on its bytes, fed in pieces of any size: the same records and the same
/// refusals as in one piece (the fetch reads a staged answer in pieces, the load holds it whole).
@Suite struct RecordFrameTests {
    func document(_ list: String) -> [UInt8] { Array("<?xml version=\"1.0\"?><E><B><L>\(list)</L></B></E>".utf8) }

    /// The records `RecordFrame` finds in `bytes` fed `size` bytes at a time; nil where it refuses the frame.
    func records(_ bytes: [UInt8], pieces size: Int) -> [String]? {
        var frame = RecordFrame(record: "Lease")
        var ranges: [Range<Int>] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + size, bytes.count)
            bytes[offset..<end].withUnsafeBytes { frame.feed($0, at: offset) { ranges.append($0) } }
            offset = end
        }
        guard frame.finish(record: { ranges.append($0) }) else { return nil }
        return ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    static let accepted = [
        "<Lease><LeaseID>1</LeaseID></Lease>\n  <Lease a=\"x\"><LeaseID>2</LeaseID></Lease>",
        "<Lease>\t<LeaseID>1</LeaseID><Leases>3</Leases></Lease><Lease\n><LeaseID>2</LeaseID></Lease>",
        "",
    ]
    static let refused = [
        "<Lease><Lease>1</Lease></Lease>", "<Lease/><Lease><LeaseID>1</LeaseID></Lease>",
        "<Lease><LeaseID>1</LeaseID></Lease>x<Lease><LeaseID>2</LeaseID></Lease>",
        "<Lease><LeaseID>1</LeaseID></Lease><Other/><Lease><LeaseID>2</LeaseID></Lease>",
        "<Lease><!-- c --><LeaseID>1</LeaseID></Lease>", "<Lease><LeaseID><![CDATA[1]]></LeaseID></Lease>",
        "<Lease><?pi x?><LeaseID>1</LeaseID></Lease>", "<Lease><LeaseID>1</LeaseID>", "</Lease>",
    ]

    @Test func piecesOfAnySizeFindWhatOnePieceFinds() {
        for list in Self.accepted + Self.refused {
            let bytes = document(list)
            let whole = records(bytes, pieces: bytes.count)
            #expect((whole == nil) == Self.refused.contains(list), "\(list)")
            for size in [1, 2, 3, 4, 5, 7, 8, 9, 11, 13, 64] {
                #expect(records(bytes, pieces: size) == whole, "\(list) in pieces of \(size)")
            }
        }
        #expect(records(document(Self.accepted[1]), pieces: 3) == [
            "<Lease>\t<LeaseID>1</LeaseID><Leases>3</Leases></Lease>", "<Lease\n><LeaseID>2</LeaseID></Lease>"])
    }

    @Test func anAnswerCutShortLeavesARecordOpenOrTheEnvelopeUnclosed() {
        let bytes = document(Self.accepted[0])
        let records = self.records(bytes, pieces: 5)!
        for length in 1..<bytes.count {
            let cut = Array(bytes[..<length])
            // Cut inside a record: refused. Cut elsewhere: the records before the cut (what follows them is for the
            // XML parser to find unclosed: `SOAPResponse.check(path:records:)`).
            if let found = self.records(cut, pieces: 4) {
                #expect(records.starts(with: found), "cut at \(length)")
            }
        }
        #expect(self.records(Array(bytes[..<40]), pieces: 4) == nil, "cut inside the first record")
    }
}
