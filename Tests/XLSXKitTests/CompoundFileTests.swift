import Foundation
import Testing
@testable import XLSXKit

/// Fixtures live in Tests/Fixtures/xls and are written by scripts/fixtures/make_xls_fixtures.sh.
func xlsFixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xls/\(name)").path
}

func xlsFixtureBytes(_ name: String) throws -> [UInt8] {
    try readWholeFile(xlsFixture(name))
}

/// The OLE2 container: lenient about a short last sector (Crystal exports), strict about chains that would read garbage.
@Suite struct CompoundFileTests {
    @Test func aLibreOfficeFileListsItsStreamsAndReadsMiniStreams() throws {
        let file = try CompoundFile(bytes: xlsFixtureBytes("lo_rent_roll.xls"))
        #expect(file.sectorSize == 512)
        #expect(Set(file.streamNames) == ["Workbook", "\u{1}CompObj", "\u{1}Ole", "\u{5}SummaryInformation", "\u{5}DocumentSummaryInformation"])
        // 172 bytes: stored in 64-byte mini sectors inside the mini stream.
        let summary = try #require(try file.stream(named: "\u{5}SummaryInformation"))
        #expect(summary.count == 172)
        #expect(Array(summary.prefix(2)) == [0xFE, 0xFF])
        // Names compare ignoring case, as OLE2 does.
        #expect(try file.stream(named: "WORKBOOK")?.prefix(4) == [0x09, 0x08, 0x10, 0x00])
        #expect(try file.stream(named: "Book") == nil)
    }

    @Test func aWorkbookSmallEnoughForTheMiniStream() throws {
        let file = try CompoundFile(bytes: xlsFixtureBytes("every_cell_record.xls"))
        let workbook = try #require(try file.stream(named: "Workbook"))
        #expect(workbook.count < 4096)
        #expect(workbook.prefix(4) == [0x09, 0x08, 0x10, 0x00])
    }

    @Test func sectorsOf4096Bytes() throws {
        let file = try CompoundFile(bytes: xlsFixtureBytes("sector_4096.xls"))
        #expect(file.sectorSize == 4096)
        let rows = try allRows(SpreadsheetFile(path: xlsFixture("sector_4096.xls")).sheet(at: 0).rows())
        #expect(rows.count == 300)
        #expect(rows.last == SheetRow(number: 300, cells: [.text("row 300"), .number(300)]))
    }

    @Test func moreThan109FATSectorsAreListedInADIFATSector() throws {
        let bytes = try xlsFixtureBytes("difat_sector.xls")
        #expect(CompoundFile.uint32(bytes, 44) == 110) // FAT sectors
        #expect(CompoundFile.uint32(bytes, 72) == 1) // DIFAT sectors
        let workbook = try SpreadsheetFile(bytes: bytes)
        #expect(workbook.sheetNames == ["DIFAT"])
        #expect(try allRows(workbook.sheet(at: 0).rows()).count == 300)
    }

    @Test func aFileCutInsideItsLastSectorStillReads() throws {
        let bytes = try xlsFixtureBytes("truncated_last_sector.xls")
        #expect((bytes.count - 512) % 512 != 0)
        let rows = try allRows(SpreadsheetFile(bytes: bytes).sheet(at: 0).rows())
        #expect(rows.count == 300)
        #expect(rows[299] == SheetRow(number: 300, cells: [.text("row 300"), .number(300)]))
    }

    @Test func aFileCutInsideAStreamIsRefused() throws {
        #expect(message { _ = try SpreadsheetFile(path: xlsFixture("truncated_inside_stream.xls")) }
            == "is a damaged legacy .xls (OLE2) file: stream Workbook needs bytes 10922..<11022 of its 11022, which lie past the end of the file (13482 bytes): the file is truncated")
    }

    @Test func corruptChainsAreErrorsNotGarbage() throws {
        #expect(message { _ = try SpreadsheetFile(path: xlsFixture("fat_chain_loop.xls")) }
            == "is a damaged legacy .xls (OLE2) file: the FAT chain of stream Workbook loops at sector 5")
        #expect(message { _ = try SpreadsheetFile(path: xlsFixture("fat_chain_past_end.xls")) }
            == "is a damaged legacy .xls (OLE2) file: the FAT chain of stream Workbook points at sector 5000, past the end of the file (26 sectors)")
        #expect(message { _ = try SpreadsheetFile(path: xlsFixture("stream_longer_than_chain.xls")) }
            == "is a damaged legacy .xls (OLE2) file: stream Workbook is 11022 bytes, but its FAT chain ends after 4 sectors (2048 bytes)")
    }

    @Test func headersThatAreNotCompoundFiles() throws {
        // The xlsx fixture legacy_ole2.xls is only the 8-byte signature and zeros: no real container.
        #expect(message { _ = try SpreadsheetFile(path: fixture("legacy_ole2.xls")) }
            == "is a damaged legacy .xls (OLE2) file: the OLE2 header's byte order mark is 0x0000, not 0xFFFE (a damaged or fake compound file)")
        #expect(message { _ = try CompoundFile(bytes: Array(try xlsFixtureBytes("every_cell_record.xls").prefix(300))) }
            == "is a damaged legacy .xls (OLE2) file: the OLE2 header is cut off: the file has 300 bytes, the header alone needs 512")
        #expect(message { _ = try CompoundFile(bytes: [UInt8](repeating: 0, count: 1024)) }
            == "is a damaged legacy .xls (OLE2) file: the file does not start with the OLE2 signature D0 CF 11 E0 A1 B1 1A E1")
        var badShift = try xlsFixtureBytes("every_cell_record.xls")
        badShift[30] = 10
        #expect(message { _ = try CompoundFile(bytes: badShift) }
            == "is a damaged legacy .xls (OLE2) file: the OLE2 header's sector shift is 10: sectors must be 512 (shift 9) or 4096 (shift 12) bytes")
    }

    @Test func aLoopInTheMiniFATChain() throws {
        // every_cell_record.xls keeps its Workbook in the mini stream; point its 3rd mini sector back at its 1st.
        var bytes = try xlsFixtureBytes("every_cell_record.xls")
        let miniFATSector = Int(CompoundFile.uint32(bytes, 60))
        let entry = 512 + miniFATSector * 512 + 4 * 2
        bytes[entry] = 0; bytes[entry + 1] = 0; bytes[entry + 2] = 0; bytes[entry + 3] = 0
        #expect(message { _ = try SpreadsheetFile(bytes: bytes) } == "is a damaged legacy .xls (OLE2) file: the mini FAT chain of stream Workbook loops at mini sector 0")
    }
}
