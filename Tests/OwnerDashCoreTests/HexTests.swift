import OwnerDashCore
import Testing

/// Bytes as hex and back: what a `bytea` column carries between SQLite and PostgreSQL, and a digest's name.
@Suite struct HexTests {
    @Test func bytesRoundTripThroughLowerCaseHex() {
        let bytes: [UInt8] = [0x00, 0x0F, 0x7F, 0x80, 0xAB, 0xFF]
        #expect(Hex.encode(bytes) == "000f7f80abff")
        #expect(Hex.decode("000f7f80abff") == bytes)
        #expect(Hex.decode("000F7F80ABFF") == bytes)
        #expect(Hex.encode([UInt8]()) == "")
        #expect(Hex.decode("") == [])
    }

    @Test func textThatIsNotHexIsRefused() {
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("0g") == nil)
        #expect(Hex.decode("\\x00") == nil)
    }
}
