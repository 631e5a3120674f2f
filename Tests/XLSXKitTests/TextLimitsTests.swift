import Foundation
import Testing
import ZipKit
@testable import XLSXKit

/// A cell that inflates to far more text than any report holds is refused in one line naming it, after reading only
/// a little past the cap: the workbooks here are a few hundred KB and would inflate to 64 MiB (a real attack file
/// goes to gigabytes at the same ratio; the cap makes the size past it irrelevant).
@Suite struct TextLimitsTests {
    /// A one-sheet workbook in a temporary directory: `sheetData` is the sheet's rows, `sharedStrings` (when given)
    /// writes the `<si>` elements of xl/sharedStrings.xml.
    static func workbook(sheetData: (ZipWriter) throws -> Void, sharedStrings: ((ZipWriter) throws -> Void)? = nil) throws -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("textlimits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("big.xlsx").path
        let zip = try ZipWriter(path: path)
        try zip.startEntry("[Content_Types].xml")
        try zip.write("""
            <?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
            <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
            <Default Extension="xml" ContentType="application/xml"/>\
            <Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>\
            <Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>\
            <Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>\
            </Types>
            """)
        try zip.endEntry()
        try zip.startEntry("_rels/.rels")
        try zip.write("""
            <?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
            <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>\
            </Relationships>
            """)
        try zip.endEntry()
        try zip.startEntry("xl/workbook.xml")
        try zip.write("""
            <?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
            xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>\
            <sheet name="Report" sheetId="1" r:id="rId1"/></sheets></workbook>
            """)
        try zip.endEntry()
        try zip.startEntry("xl/_rels/workbook.xml.rels")
        try zip.write("""
            <?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
            <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>\
            <Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>\
            </Relationships>
            """)
        try zip.endEntry()
        try zip.startEntry("xl/worksheets/sheet1.xml")
        try zip.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?><worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>")
        try sheetData(zip)
        try zip.write("</sheetData></worksheet>")
        try zip.endEntry()
        if let sharedStrings {
            try zip.startEntry("xl/sharedStrings.xml")
            try zip.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?><sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">")
            try sharedStrings(zip)
            try zip.write("</sst>")
            try zip.endEntry()
        }
        try zip.finish()
        return (path, directory)
    }

    /// Text that deflates about 60:1, well under the zip reader's 1000:1 bomb limit (one letter repeated would be
    /// refused as a bomb, which is not what these tests are about): runs of `a` with a varying letter every 256 bytes.
    static func letters(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: count)
        var state: UInt32 = 12345
        for index in stride(from: 0, to: count, by: 256) {
            state = state &* 1_103_515_245 &+ 12_345
            bytes[index] = UInt8(ascii: "a") + UInt8((state >> 16) % 26)
        }
        return bytes
    }

    /// `mebibytes` MiB of `letters`, written a MiB at a time.
    static func writeLetters(_ zip: ZipWriter, mebibytes: Int) throws {
        let chunk = letters(count: 1 << 20)
        for _ in 0..<mebibytes { try zip.write(chunk) }
    }

    @Test func aSharedStringOf64MiBIsRefusedNamingItsIndex() throws {
        let (path, directory) = try Self.workbook(sheetData: { zip in
            try zip.write("<row r=\"1\"><c r=\"A1\" t=\"s\"><v>1</v></c></row>")
        }, sharedStrings: { zip in
            try zip.write("<si><t>Unit</t></si><si><t>")
            try Self.writeLetters(zip, mebibytes: 64)
            try zip.write("</t></si>")
        })
        defer { try? FileManager.default.removeItem(at: directory) }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size < 2 << 20, "the workbook is \(size) bytes")
        let started = threadCPUSeconds()
        #expect(message { _ = try SpreadsheetFile(path: path) }
                == "xl/sharedStrings.xml: shared string 1 holds more than 1 MiB of text (Excel itself caps a cell at 32,767 characters); refused rather than held in memory")
        #expect(threadCPUSeconds() - started < 5)
    }

    @Test func manySharedStringsUnderTheCellCapAreRefusedPastTheTableCap() throws {
        let (path, directory) = try Self.workbook(sheetData: { zip in
            try zip.write("<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c></row>")
        }, sharedStrings: { zip in
            // 80 strings of 1 MiB each (just under the cell cap): 80 MiB in all, past the table's 64 MiB.
            let string = Self.letters(count: (1 << 20) - 16)
            for _ in 0..<80 {
                try zip.write("<si><t>")
                try zip.write(string)
                try zip.write("</t></si>")
            }
        })
        defer { try? FileManager.default.removeItem(at: directory) }
        let refusal = message { _ = try SpreadsheetFile(path: path) }
        #expect(refusal?.hasPrefix("xl/sharedStrings.xml: the shared strings hold more than 64 MiB of text by string 64") == true, "\(refusal ?? "nil")")
    }

    @Test func anInlineCellOf64MiBIsRefusedNamingItsCell() throws {
        let (path, directory) = try Self.workbook(sheetData: { zip in
            try zip.write("<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>Unit</t></is></c></row>")
            try zip.write("<row r=\"7\"><c r=\"C7\" t=\"inlineStr\"><is><t>")
            try Self.writeLetters(zip, mebibytes: 64)
            try zip.write("</t></is></c></row>")
        })
        defer { try? FileManager.default.removeItem(at: directory) }
        let sheet = try SpreadsheetFile(path: path).sheet(at: 0)
        let started = threadCPUSeconds()
        #expect(message { _ = try allRows(sheet.rows()) }
                == "sheet \"Report\": cell C7 holds more than 1 MiB of text (Excel itself caps a cell at 32,767 characters); refused rather than held in memory")
        #expect(threadCPUSeconds() - started < 5)
    }

    @Test func aFormulaStringOf2MiBIsRefusedButOneOfHalfAMebibyteIsRead() throws {
        let (path, directory) = try Self.workbook(sheetData: { zip in
            try zip.write("<row r=\"2\"><c r=\"B2\" t=\"str\"><f>REPT(\"a\",1)</f><v>")
            try zip.write(Self.letters(count: 512 << 10))
            try zip.write("</v></c></row><row r=\"3\"><c r=\"D3\" t=\"str\"><v>")
            try Self.writeLetters(zip, mebibytes: 2)
            try zip.write("</v></c></row>")
        })
        defer { try? FileManager.default.removeItem(at: directory) }
        var rows = try SpreadsheetFile(path: path).sheet(at: 0).rows()
        let first = try rows.nextRow()
        #expect(first?.number == 2)
        #expect(first?[1] == .text(String(decoding: Self.letters(count: 512 << 10), as: UTF8.self)))
        #expect(message { _ = try rows.nextRow() }
                == "sheet \"Report\": cell D3 holds more than 1 MiB of text (Excel itself caps a cell at 32,767 characters); refused rather than held in memory")
    }

    /// A long text run comes from the scanner in 64 KiB pieces: entities and CRLFs across the cuts read as a whole.
    @Test func aLongCellWithEntitiesAndLineEndsReadsWholeAcrossPieces() throws {
        // 13 and 14 bytes per repetition, so cuts fall at every offset within an entity or a CRLF.
        let written = String(repeating: "ab&amp;c\r\nd&#233;", count: 40_000)
        let expected = String(repeating: "ab&c\nd\u{E9}", count: 40_000)
        let (path, directory) = try Self.workbook(sheetData: { zip in
            try zip.write("<row r=\"1\"><c r=\"A1\" t=\"str\"><v>\(written)</v></c></row>")
        })
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = try allRows(SpreadsheetFile(path: path).sheet(at: 0).rows())
        #expect(rows.first?[0] == .text(expected))
    }

    @Test func aCSVFieldPastTheCapIsRefusedNamingItsLineAndField() throws {
        let bytes = Array("Unit,Name\n101,Smith\n102,\"".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20) + Array("\"\n".utf8)
        let started = threadCPUSeconds()
        #expect(message { _ = try SpreadsheetFile(bytes: bytes) }
                == "CSV: line 3, field 2 holds more than 1 MiB of text (Excel itself caps a cell at 32,767 characters); refused rather than held in memory")
        #expect(threadCPUSeconds() - started < 5)
    }

    @Test func aCSVLineOfAMillionFieldsIsRefusedAtExcelsColumnLimit() throws {
        let bytes = Array("Unit,Name\n".utf8) + Array(String(repeating: "1,", count: 1_000_000).utf8) + [0x0A]
        let started = threadCPUSeconds()
        #expect(message { _ = try SpreadsheetFile(bytes: bytes) }
                == "CSV: line 2 has more than 16384 fields (Excel's own column limit); refused")
        #expect(threadCPUSeconds() - started < 5)
        // Excel's limit itself is read.
        let wide = Array((0..<16_384).map { "h\($0)" }.joined(separator: ",").utf8) + [0x0A]
        let rows = try allRows(SpreadsheetFile(bytes: wide).sheet(at: 0).rows())
        #expect(rows.first?.cells.count == 16_384)
    }

    @Test func anHTMLCellPastTheCapIsRefusedNamingItsCell() throws {
        let bytes = Array("<html><body><table><tr><td>Unit</td><td>Name</td></tr><tr><td>101</td><td>".utf8)
            + [UInt8](repeating: UInt8(ascii: "y"), count: 2 << 20) + Array("</td></tr></table></body></html>".utf8)
        #expect(message { _ = try SpreadsheetFile(bytes: bytes) }
                == "sheet \"HTML\": cell B2 holds more than 1 MiB of text (Excel itself caps a cell at 32,767 characters); refused")
    }

    @Test func anHTMLRowOfAMillionCellsIsRefusedAtExcelsColumnLimit() throws {
        let bytes = Array("<html><body><table><tr><td>Unit</td></tr><tr>".utf8)
            + Array(String(repeating: "<td>1</td>", count: 1_000_000).utf8) + Array("</tr></table></body></html>".utf8)
        let started = threadCPUSeconds()
        #expect(message { _ = try SpreadsheetFile(bytes: bytes) }
                == "sheet \"HTML\": row 2 has 1000000 cells, more than 16384 (Excel's own column limit); refused")
        #expect(threadCPUSeconds() - started < 10)
    }
}

/// CPU seconds this thread has used: the bounds above are on work done, not on wall time, which the other builds
/// sharing the machine stretch.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
