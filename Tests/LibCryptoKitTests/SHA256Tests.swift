import Foundation
import LibCryptoKit
import Testing

@Suite struct SHA256Tests {
    func digest(_ text: String) -> String {
        let hasher = SHA256()
        hasher.update(Array(text.utf8))
        return hasher.finalizeHex()
    }

    @Test func knownVectors() {
        // FIPS 180-4 examples.
        #expect(digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func streamingInOddChunksEqualsOneShot() {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = SHA256()
        whole.update(bytes)
        let pieces = SHA256()
        var offset = 0
        for size in [1, 63, 64, 65, 127, 1000, 3] where offset < bytes.count {
            let end = min(bytes.count, offset + size)
            pieces.update(Array(bytes[offset..<end]))
            offset = end
        }
        pieces.update(Array(bytes[offset...]))
        #expect(whole.finalizeHex() == pieces.finalizeHex())
    }

    @Test func fileDigestMatchesKnownValue() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("abc".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try SHA256.hexDigest(ofFile: path) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func fileDigestOverSeveralReadsEqualsTheBytesDigest() throws {
        // 2.5 MiB: the file is read in 1 MiB pieces into one buffer, the last piece short.
        let bytes = (0 ..< (5 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ ($0 >> 12)) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try SHA256.hexDigest(ofFile: path) == SHA256.hexDigest(of: bytes))
    }

    @Test func aMissingFileIsAnErrorNamingIt() {
        let path = "/nonexistent/ownerdash-\(UUID().uuidString)"
        #expect {
            try SHA256.hexDigest(ofFile: path)
        } throws: { error in
            "\(error)".contains(path) || (error as NSError).userInfo[NSFilePathErrorKey] as? String == path
        }
    }
}
