import Foundation
import Testing
@testable import XLSXKit

/// Inputs found by fuzzing the readers (Tests/Fixtures/fuzz, see scripts/fuzz.sh): each once crashed or read
/// memory it did not own, and must now give its one-line error, read from a path and from bytes alike.
@Suite struct FuzzFindingsTests {
    static func fuzzFixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz/\(name)").path
    }

    /// The error of opening the file and reading every row of every sheet, from its path and from its bytes.
    static func errors(_ name: String) throws -> [String?] {
        let path = fuzzFixture(name)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func readAll(_ file: () throws -> SpreadsheetFile) -> String? {
            message {
                let file = try file()
                for index in file.sheetNames.indices { _ = try allRows(file.sheet(at: index).rows()) }
            }
        }
        return [readAll { try SpreadsheetFile(path: path) }, readAll { try SpreadsheetFile(bytes: bytes) }]
    }

    /// A version 4 file whose Root Entry declares a 64-bit size of 464 GiB: once an abort in reserveCapacity.
    @Test func aRootEntryLargerThanTheFileIsRefusedBeforeAnyReservation() throws {
        let expected = "is a damaged legacy .xls (OLE2) file: the mini stream (Root Entry) declares 498222563437 bytes, more than the whole file holds (8322 bytes)"
        #expect(try Self.errors("ole2-root-size-256GiB-abort.min.xls") == [expected, expected])
    }

    /// The same with a version 3 size of 0xFFFFFFFF: once a 4 GiB reservation before the error.
    @Test func aFourGiBRootEntryIsRefusedToo() throws {
        let expected = "is a damaged legacy .xls (OLE2) file: the mini stream (Root Entry) declares 4294967295 bytes, more than the whole file holds (5855 bytes)"
        #expect(try Self.errors("ole2-root-size-4GiB-reserve.oom.xls") == [expected, expected])
    }

    /// A FORMAT record whose length passes the 16 KiB record buffer: once handed out whole, read past the buffer.
    @Test func aRecordLongerThanTheBufferIsRefusedNotHandedOutCut() throws {
        let expected = "Workbook stream: FORMAT record at offset 0x4B4 declares 29728 bytes, more than a BIFF8 record holds (8,224; this reader takes up to 16,380)"
        #expect(try Self.errors("xls-biff-record-over-buffer.min.xls") == [expected, expected])
    }

    /// The 1e17 money cell is a valid number to the reader (the report parser refuses it: ParseTests).
    @Test func theHugeMoneyCellReadsAsTheNumberItIs() throws {
        let file = try SpreadsheetFile(path: Self.fuzzFixture("money-overflow-1e17.xlsx"))
        let rows = try allRows(file.sheet(at: 0).rows())
        #expect(rows.contains { $0.cells.contains(.number(1e17)) })
    }

    /// A stream entry (not the Root Entry) declaring more than the file: refused when the stream is opened.
    @Test func aStreamLargerThanTheFileIsRefused() throws {
        var bytes = try xlsFixtureBytes("lo_rent_roll.xls")
        let file = try CompoundFile(bytes: bytes)
        #expect(file.streamNames.contains("Workbook"))
        // Find the Workbook entry's name in the directory and give it a size past the file (version 3: 32 bits).
        let name: [UInt8] = Array("Workbook".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let at = try #require((0..<(bytes.count - name.count)).first { bytes[$0..<($0 + name.count)].elementsEqual(name) })
        for (i, byte) in [UInt8](arrayLiteral: 0x00, 0x00, 0x00, 0x40).enumerated() { bytes[at + 120 + i] = byte }
        #expect(message { _ = try XLSWorkbook(bytes: bytes) }
            == "is a damaged legacy .xls (OLE2) file: stream Workbook declares 1073741824 bytes, more than the whole file holds (\(bytes.count) bytes)")
    }
}
