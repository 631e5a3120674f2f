import Foundation
import Testing
@testable import ZipKit

/// A fresh directory per test, removed at the end.
private final class Scratch {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("zipwriter-\(UUID().uuidString)")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// Bytes that do not compress to nothing: a small linear congruential generator mixed with repeated text.
private func sampleBytes(_ count: Int, seed: UInt32) -> [UInt8] {
    var state = seed
    return (0..<count).map { i in
        state = state &* 1_664_525 &+ 1_013_904_223
        return i % 3 == 0 ? UInt8(truncatingIfNeeded: state >> 24) : Array("rent roll ".utf8)[i % 10]
    }
}

@Suite struct ZipWriterTests {
    @Test func whatIsWrittenReadsBackEntryByEntryWithCRCsChecked() throws {
        let scratch = try Scratch()
        let path = scratch.path("out.zip")
        let big = sampleBytes(700_000, seed: 7)
        let writer = try ZipWriter(path: path)
        try writer.addEntry("[Content_Types].xml", text: "<Types/>")
        try writer.startEntry("xl/worksheets/sheet1.xml")
        // Streamed in uneven chunks, as a sheet is written row by row.
        var start = 0
        for size in [1, 10, 4096, 65_536, 200_000] where start < big.count {
            try writer.write(Array(big[start..<min(start + size, big.count)]))
            start += size
        }
        try writer.write(Array(big[start...]))
        try writer.endEntry()
        try writer.addEntry("stored.txt", Array("kept as is".utf8), method: .stored)
        try writer.addEntry("empty.txt", [])
        try writer.addEntry("façade/ünïcode.txt", text: "named in UTF-8")
        try writer.finish()

        let archive = try ZipArchive(path: path)
        #expect(archive.entries.map(\.name) == ["[Content_Types].xml", "xl/worksheets/sheet1.xml", "stored.txt", "empty.txt",
                                                "façade/ünïcode.txt"])
        #expect(try archive.contents(named: "xl/worksheets/sheet1.xml") == big)
        let sheet = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        #expect(sheet.method == 8 && sheet.compressedSize < sheet.uncompressedSize, "deflated")
        #expect(archive.entry(named: "stored.txt")?.method == 0)
        #expect(try archive.contents(named: "stored.txt") == Array("kept as is".utf8))
        #expect(try archive.contents(named: "empty.txt") == [])
        #expect(String(decoding: try archive.contents(named: "façade/ünïcode.txt"), as: UTF8.self) == "named in UTF-8")
        // Nothing but the finished file is left in the directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["out.zip"])
    }

    @Test func unzipTestsTheArchiveClean() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") else { return }
        let scratch = try Scratch()
        let path = scratch.path("out.zip")
        let writer = try ZipWriter(path: path)
        try writer.addEntry("a.xml", sampleBytes(100_000, seed: 3))
        try writer.addEntry("dir/b.txt", Array("b".utf8), method: .stored)
        try writer.finish()
        let unzip = Process()
        unzip.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        unzip.arguments = ["-t", path]
        let pipe = Pipe()
        unzip.standardOutput = pipe
        unzip.standardError = pipe
        try unzip.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        unzip.waitUntilExit()
        #expect(unzip.terminationStatus == 0, "\(output)")
        #expect(output.contains("No errors detected"))
    }

    @Test func anArchiveNeverFinishedLeavesNoFile() throws {
        let scratch = try Scratch()
        let path = scratch.path("abandoned.zip")
        do {
            let writer = try ZipWriter(path: path)
            try writer.addEntry("a.txt", text: "a")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }

    @Test func passingTheSizeLimitIsAClearErrorNotAZip64() throws {
        let scratch = try Scratch()
        // The real limit is 4 GiB - 2; a lowered one exercises the same checks without writing gigabytes.
        let writer = try ZipWriter(path: scratch.path("big.zip"), sizeLimit: 50_000)
        try writer.startEntry("xl/worksheets/sheet1.xml", method: .stored)
        #expect(throws: ZipWriteError.tooLarge(entry: "xl/worksheets/sheet1.xml", limit: 50_000)) {
            try writer.write(sampleBytes(60_000, seed: 1))
        }
        let real = ZipWriteError.tooLarge(entry: "xl/worksheets/sheet1.xml", limit: 0xFFFF_FFFE)
        #expect(real.description == "zip entry xl/worksheets/sheet1.xml would take the archive past 4 GiB, the most a zip without Zip64 holds (Zip64 is not written)")
    }

    @Test func mistakesAndBadPathsAreTypedErrors() throws {
        let scratch = try Scratch()
        let writer = try ZipWriter(path: scratch.path("x.zip"))
        try writer.addEntry("a.txt", text: "a")
        #expect(throws: ZipWriteError.duplicateEntry(name: "a.txt")) { try writer.addEntry("a.txt", text: "again") }
        #expect(throws: ZipWriteError.invalidEntryName(name: "/etc/passwd")) { try writer.startEntry("/etc/passwd") }
        try writer.finish()
        #expect(throws: ZipWriteError.self) { try writer.finish() }

        let missing = scratch.path("no/such/dir/x.zip")
        #expect(throws: ZipWriteError.cannotCreate(path: missing, reason: "No such file or directory")) {
            _ = try ZipWriter(path: missing)
        }
    }

    @Test func deflaterRoundTripsThroughTheReadersInflate() throws {
        let input = sampleBytes(300_000, seed: 11)
        let deflater = try Deflater()
        var compressed: [UInt8] = []
        try input.withUnsafeBytes { bytes in
            try deflater.deflate(bytes, finish: true) { compressed.append(contentsOf: $0) }
        }
        #expect(deflater.totalIn == UInt64(input.count) && deflater.totalOut == UInt64(compressed.count))
        var crc = CRC32()
        input.withUnsafeBytes { crc.update($0) }
        // A hand-built one-entry zip around the raw stream, read by ZipArchive, proves it is raw DEFLATE with that CRC.
        let scratch = try Scratch()
        let writer = try ZipWriter(path: scratch.path("one.zip"))
        try writer.addEntry("data.bin", input)
        try writer.finish()
        let archive = try ZipArchive(path: scratch.path("one.zip"))
        let entry = try #require(archive.entries.first)
        #expect(entry.crc32 == crc.value)
        #expect(entry.compressedSize == UInt64(compressed.count), "the writer deflates exactly as the Deflater alone")
    }
}
