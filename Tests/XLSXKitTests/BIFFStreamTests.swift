import Testing
@testable import XLSXKit

/// The Workbook stream is read from the file as sheets are read: memory does not grow with the file.
@Suite struct BIFFStreamTests {
    /// multi_sheet_3x1000.xls: three sheets of 1,000 rows ("sheet N row R", N * 10000 + R).
    @Test func readingEverySheetHoldsOneBufferAndEachSheetReadsOnlyItsOwnBytes() throws {
        let workbook = try XLSWorkbook(path: xlsFixture("multi_sheet_3x1000.xls"))
        let stream = workbook.stream
        // The stream is many buffers long, so holding it (or a sheet of it) would show in the count below.
        #expect(stream.count > 6 * BIFFCursor.capacity)
        #expect(workbook.sheets.count == 3)
        for (index, sheet) in workbook.sheets.enumerated() {
            stream.resetReadCount()
            let rows = try allRows(workbook.worksheet(at: index).rows())
            #expect(rows.count == 1000)
            #expect(rows.first == SheetRow(number: 1, cells: [.text("sheet \(index + 1) row 1"), .number(Double((index + 1) * 10000 + 1))]))
            #expect(rows.last == SheetRow(number: 1000, cells: [.text("sheet \(index + 1) row 1000"), .number(Double((index + 1) * 10000 + 1000))]))
            // Only this sheet's substream was read (and at most one buffer of read-ahead past its end), twice:
            // once to check it, once for the rows.
            let end = index + 1 < workbook.sheets.count ? workbook.sheets[index + 1].offset : stream.count
            let span = try #require(stream.readSpan)
            #expect(span.lowerBound == sheet.offset)
            #expect(span.upperBound <= min(end + BIFFCursor.capacity, stream.count))
            #expect(stream.bytesRead <= 2 * (end - sheet.offset + BIFFCursor.capacity))
        }
        // The globals' cursor, then one cursor at a time for each sheet: never more than two buffers held.
        #expect(stream.peakBytesHeld <= 2 * BIFFCursor.capacity)
        #expect(stream.bytesHeld == 0)
    }

    @Test func aSheetReadAloneReadsNoOtherSheet() throws {
        let workbook = try XLSWorkbook(path: xlsFixture("multi_sheet_3x1000.xls"))
        workbook.stream.resetReadCount()
        let rows = try workbook.worksheet(named: "Sheet 3").rows()
        #expect(try rows.nextRow() == SheetRow(number: 1, cells: [.text("sheet 3 row 1"), .number(30001)]))
        #expect(try #require(workbook.stream.readSpan).lowerBound == workbook.sheets[2].offset)
    }

    @Test func aSmallStreamFromTheMiniStreamIsHeldAndCounted() throws {
        // every_cell_record.xls keeps its Workbook stream (under 4,096 bytes) in the mini stream: it is copied.
        let workbook = try XLSWorkbook(path: xlsFixture("every_cell_record.xls"))
        #expect(workbook.stream.count < 4096)
        #expect(workbook.stream.bytesHeld == workbook.stream.count)
    }

    @Test func theSameRowsFromAFileAndFromBytes() throws {
        // A path reads sectors on demand, bytes in memory are read in place: the same workbook either way.
        for file in ["multi_sheet_3x1000.xls", "lo_rent_roll.xls", "sector_4096.xls", "difat_sector.xls", "rows_out_of_order.xls"] {
            let (fromPath, fromBytes) = (try SpreadsheetFile(path: xlsFixture(file)), try SpreadsheetFile(bytes: xlsFixtureBytes(file)))
            #expect(fromPath.sheetNames == fromBytes.sheetNames, "\(file)")
            for index in fromPath.sheetNames.indices {
                #expect(try allRows(fromPath.sheet(at: index).rows()) == allRows(fromBytes.sheet(at: index).rows()), "\(file) sheet \(index)")
            }
        }
    }
}
