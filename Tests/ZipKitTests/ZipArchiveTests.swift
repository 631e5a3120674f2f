import Foundation
import Testing
@testable import ZipKit

/// Fixtures are shared with XLSXKitTests; they are written by scripts/fixtures/make_xlsx_fixtures.py.
private func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xlsx/\(name)").path
}

private func message(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return "\(error)"
    }
}

@Suite struct ZipArchiveTests {
    @Test func listsEntriesAndReadsThemByName() throws {
        let archive = try ZipArchive(path: fixture("merged_header.xlsx"))
        #expect(archive.entries.map(\.name).contains("xl/worksheets/sheet1.xml"))
        let workbook = try archive.contents(named: "xl/workbook.xml")
        #expect(String(decoding: workbook, as: UTF8.self).contains("<sheet name=\"Rent Roll\""))
        // OPC part names are case-insensitive.
        #expect(archive.entry(named: "XL/Workbook.XML")?.name == "xl/workbook.xml")
        #expect(archive.entry(named: "/xl/workbook.xml")?.name == "xl/workbook.xml")
    }

    @Test func readsStoredEntries() throws {
        let archive = try ZipArchive(path: fixture("stored_parts.xlsx"))
        let entry = try #require(archive.entry(named: "xl/sharedStrings.xml"))
        #expect(entry.method == 0)
        #expect(String(decoding: try archive.contents(of: entry), as: UTF8.self).contains("not compressed"))
    }

    @Test func streamingInTinyChunksGivesTheSameBytes() throws {
        let archive = try ZipArchive(path: fixture("shared_and_rich_strings.xlsx"))
        let entry = try #require(archive.entry(named: "xl/sharedStrings.xml"))
        let whole = try archive.contents(of: entry)
        let reader = try archive.reader(for: entry)
        var streamed: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 7)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try reader.read(into: $0) }
            if n == 0 { break }
            streamed += chunk[0..<n]
        }
        #expect(streamed == whole)
        #expect(streamed.count == Int(entry.uncompressedSize))
    }

    @Test func openingFromMemoryMatchesOpeningTheFile() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture("inline_strings.xlsx"))))
        let fromMemory = try ZipArchive(bytes: bytes)
        let fromFile = try ZipArchive(path: fixture("inline_strings.xlsx"))
        #expect(fromMemory.entries == fromFile.entries)
        #expect(try fromMemory.contents(named: "xl/worksheets/sheet1.xml") == fromFile.contents(named: "xl/worksheets/sheet1.xml"))
    }

    @Test func aCutOffFileSaysItIsTruncated() {
        #expect(message { _ = try ZipArchive(path: fixture("truncated.xlsx")) }
            == "zip file is truncated: no end of central directory record (the file was cut off?)")
    }

    @Test func somethingElseIsNotAZip() {
        #expect(message { _ = try ZipArchive(path: fixture("html_disguised.xlsx")) }
            == "not a zip file (no end of central directory record)")
        #expect(message { _ = try ZipArchive(bytes: []) } == "not a zip file (no end of central directory record)")
    }

    @Test func aMissingFileNamesTheReason() {
        #expect(message { _ = try ZipArchive(path: "/nonexistent/file.xlsx") } == "cannot open file: No such file or directory")
    }

    @Test func aCorruptedEntryFailsItsCRCCheck() throws {
        let archive = try ZipArchive(path: fixture("crc_mismatch.xlsx"))
        #expect(message { _ = try archive.contents(named: "xl/worksheets/sheet1.xml") }
            == "entry xl/worksheets/sheet1.xml is corrupt: CRC mismatch")
        // The other entries are intact.
        #expect(try !archive.contents(named: "xl/workbook.xml").isEmpty)
    }

    @Test func aZipBombIsRefusedByItsCompressionRatio() throws {
        let archive = try ZipArchive(path: fixture("zip_bomb.xlsx"))
        let entry = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        #expect(message { _ = try archive.reader(for: entry) }
            == "entry xl/worksheets/sheet1.xml inflates more than 1000 times its compressed size (zip bomb?)")
    }

    @Test func theInflatedSizeLimitIsConfigurable() throws {
        let limits = ZipLimits(maxInflatedSize: 1 << 20, maxCompressionRatio: 100_000)
        let archive = try ZipArchive(path: fixture("zip_bomb.xlsx"), limits: limits)
        #expect(message { _ = try archive.contents(named: "xl/worksheets/sheet1.xml") }
            == "entry xl/worksheets/sheet1.xml inflates past the 1 MiB limit (zip bomb?)")
        #expect(ZipError.inflatedSizeLimit(entry: "x", limit: ZipLimits.standard.maxInflatedSize).description
            == "entry x inflates past the 2 GiB limit (zip bomb?)")
    }

    @Test func theEntryCountIsCapped() {
        #expect(message { _ = try ZipArchive(path: fixture("merged_header.xlsx"), limits: ZipLimits(maxEntryCount: 3)) }
            == "zip has 5 entries, more than the limit of 3")
    }

    @Test func aMissingEntryIsNamed() throws {
        let archive = try ZipArchive(path: fixture("merged_header.xlsx"))
        #expect(message { _ = try archive.contents(named: "xl/styles.xml") } == "no entry xl/styles.xml in the zip")
    }
}

@Suite struct PrefetchingEntryReaderTests {
    @Test func givesTheSameBytesAsReadingDirectly() throws {
        let archive = try ZipArchive(path: fixture("shared_and_rich_strings.xlsx"))
        for entry in archive.entries {
            let reader = try PrefetchingEntryReader(archive.reader(for: entry), chunkSize: 4096, depth: 2)
            var streamed: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 5)
            while true {
                let n = try chunk.withUnsafeMutableBytes { try reader.read(into: $0) }
                if n == 0 { break }
                streamed += chunk[0..<n]
            }
            #expect(streamed == (try archive.contents(of: entry)), "\(entry.name)")
        }
    }

    @Test func passesOnTheCRCErrorAtTheEnd() throws {
        let archive = try ZipArchive(path: fixture("crc_mismatch.xlsx"))
        let entry = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        let reader = try PrefetchingEntryReader(archive.reader(for: entry))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        #expect(message {
            while try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }) > 0 {}
        } == "entry xl/worksheets/sheet1.xml is corrupt: CRC mismatch")
    }

    @Test func canBeAbandonedHalfWay() throws {
        let archive = try ZipArchive(path: fixture("zip_bomb.xlsx"), limits: ZipLimits(maxCompressionRatio: 1 << 20))
        let entry = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        var buffer = [UInt8](repeating: 0, count: 100)
        for _ in 0..<20 {
            // The inflating thread is blocked on full buffers; deinit must stop and join it.
            let reader = try PrefetchingEntryReader(archive.reader(for: entry), chunkSize: 4096, depth: 2)
            #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == 100)
        }
    }
}
