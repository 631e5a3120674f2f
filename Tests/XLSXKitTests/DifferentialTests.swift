import Testing
@testable import XLSXKit

/// The fast byte tokenizer must read exactly what libxml2's DOM reads, on every valid fixture and every sheet,
/// also when the inflate window is so small that every tag, text and entity straddles a refill.
@Suite struct DifferentialTests {
    @Test(arguments: validFixtures)
    func tokenizerMatchesTheLibxml2Reference(file: String) throws {
        let workbook = try Workbook(path: fixture(file))
        for index in workbook.sheetNames.indices {
            let sheet = try workbook.worksheet(at: index)
            let reference = try ReferenceWorksheetReader(sheet: sheet).rows()
            #expect(!reference.isEmpty, "\(file) sheet \(index) has rows")
            #expect(try allRows(sheet.rows()) == reference, "\(file) sheet \(sheet.name)")
            let merges = try ReferenceWorksheetReader(sheet: sheet).mergedRanges()
            #expect(try sheet.mergedRanges() == merges, "\(file) sheet \(sheet.name) merges")
            for chunk in [1, 2, 3, 5, 16] {
                #expect(try allRows(sheet.rows(windowChunk: chunk)) == reference, "\(file) sheet \(sheet.name), \(chunk)-byte window")
                #expect(try sheet.mergedRanges(windowChunk: chunk) == merges, "\(file) sheet \(sheet.name) merges, \(chunk)-byte window")
            }
        }
    }

    @Test func sharedStringsMatchTheReferenceInTinyWindows() throws {
        // Shared strings are read by the byte scanner too; the rows above compare them through t="s" cells.
        let workbook = try Workbook(path: fixture("shared_and_rich_strings.xlsx"))
        #expect(workbook.sharedStrings.count == 8)
        #expect(workbook.sharedStrings[6] == "東京", "phonetic reading left out")
    }

    @Test func fastNumberParsingMatchesSwiftsParser() {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "-0", "1", "0.1", "1234.56", "-1234.56", "1e21", "1E-7", "123456789012345678", "0.30000000000000004",
                     "4.9406564584124654e-324", "1.7976931348623157e308", "00012.5000", "9007199254740993", "45292.75", "+3"]
        for _ in 0..<2000 {
            let bits = generator.next() as UInt64
            let value = Double(bitPattern: bits)
            if value.isFinite { texts.append(value.description) }
            texts.append(String(Double(Int.random(in: -10_000_000...10_000_000)) / 100))
        }
        for text in texts {
            let bytes = Array(text.utf8)
            let fast = bytes.withUnsafeBufferPointer { NumberText.parseDouble($0.baseAddress!, $0.count) }
            #expect(fast?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
        for bad in ["", "-", ".", "1e", "1.2.3", "abc", "1,5", "0x10", "inf", "nan"] {
            let bytes = Array(bad.utf8)
            #expect(bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { NumberText.parseDouble($0, buffer.count) }
            } == nil, "\(bad)")
        }
    }
}

/// The merged cells an .xlsx lists after its rows, read at the end of the row stream (no second pass).
@Suite struct MergedRangesAfterRowsTests {
    @Test func theRowStreamEndsWithTheSheetsMergedCells() throws {
        let sheet = try SpreadsheetFile(path: fixture("merged_header.xlsx")).sheet(at: 0)
        #expect(sheet.mergesFollowRows)
        var rows = try sheet.rows()
        _ = try rows.nextRow()
        // Rows not yet read are read on the way; the ranges equal the separate pass's.
        let after = try #require(try rows.mergedRangesAfterRows())
        #expect(after == (try sheet.mergedRanges()))
        #expect(!after.isEmpty)
        #expect(try rows.nextRow() == nil)
    }
}
