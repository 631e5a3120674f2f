import Testing
@testable import XLSXKit

func xlsRows(_ file: String, sheet: Int = 0) throws -> [SheetRow] {
    try allRows(SpreadsheetFile(path: xlsFixture(file)).sheet(at: sheet).rows())
}

/// The record types a workbook's stream holds, to show what a fixture really exercises.
func recordTypes(_ file: String) throws -> Set<Int> {
    let stream = try #require(try CompoundFile(bytes: xlsFixtureBytes(file)).stream(named: "Workbook"))
    var types = Set<Int>()
    var offset = 0
    while offset + 4 <= stream.count {
        types.insert(Int(CompoundFile.uint16(stream, offset)))
        offset += 4 + Int(CompoundFile.uint16(stream, offset + 2))
    }
    return types
}

/// BIFF8 records, read from hand-made edge cases and from LibreOffice's own .xls output.
@Suite struct XLSWorkbookTests {
    @Test func everyCellRecord() throws {
        let workbook = try XLSWorkbook(path: xlsFixture("every_cell_record.xls"))
        #expect(workbook.sheetNames == ["Cells", "Chart1", "Résumé 日本", "Hidden"])
        #expect(!workbook.uses1904DateSystem)
        #expect(workbook.codePage == 1200)
        let long = String(repeating: "0123456789", count: 50)
        #expect(try allRows(workbook.worksheet(at: 0).rows()) == [
            // LABELSST, LABEL compressed (Windows-1252 bytes 0x80 and 0x86 read as € and †), LABEL UTF-16,
            // written right to left.
            SheetRow(number: 1, cells: [.text("Shared"), .text("Café € †!"), .text("Résumé 日本"), .text("Ünïcode 日本")]),
            // RK: integer, integer/100, float, float/100, negative; MULRK with a percent and a date format.
            SheetRow(number: 2, cells: [.number(12345), .number(1234.56), .number(0.5), .number(0.015), .number(-7),
                                        .number(1), .text("95%"), date(2024, 2, 29)]),
            // NUMBER under built-in 14, custom dd/mm/yyyy hh:mm, [h]:mm, 0.00%, "day "0, built-in 22, General.
            // A percent-formatted number reads as the points it shows, like a percent exported as text.
            SheetRow(number: 3, cells: [date(2024, 1, 1), date(2024, 1, 1, 18), date(1900, 1, 1, 12), .text("35.71%"),
                                        .number(3), date(2024, 1, 1, 12), .number(0.30000000000000004)]),
            SheetRow(number: 4, cells: [.bool(true), .bool(false), .error("#NULL!"), .error("#DIV/0!"), .error("#VALUE!"),
                                        .error("#REF!"), .error("#NAME?"), .error("#NUM!"), .error("#N/A")]),
            // Row 5 holds only BLANK and MULBLANK cells: no values, no row.
            SheetRow(number: 6, cells: [.empty, .text("after a blank"), .empty, .empty, .number(4)]),
            // FORMULA results: a date-formatted number, a string (STRING record), TRUE, #DIV/0!, "" and a number.
            SheetRow(number: 7, cells: [date(2024, 2, 29), .text("Nexus East"), .bool(true), .error("#DIV/0!"), .text(""), .number(2.5)]),
            // A string result whose STRING record continues, compressed then UTF-16, in a CONTINUE record.
            SheetRow(number: 8, cells: [.text(long)]),
        ])
        // The chart embedded in the sheet has a NUMBER of its own: not a cell of the sheet.
        #expect(try workbook.worksheet(at: 0).mergedRanges() == [
            MergedRange(firstRow: 1, firstColumn: 0, lastRow: 1, lastColumn: 1),
            MergedRange(firstRow: 6, firstColumn: 6, lastRow: 7, lastColumn: 7),
            MergedRange(firstRow: 10, firstColumn: 0, lastRow: 11, lastColumn: 2),
        ])
        #expect(message { _ = try workbook.worksheet(at: 1) } == "sheet \"Chart1\" is a chart sheet, not a worksheet")
        #expect(try allRows(workbook.worksheet(named: "résumé 日本").rows()) == [SheetRow(number: 1, cells: [.text("second sheet")])])
        #expect(try allRows(workbook.worksheet(named: "Hidden").rows()) == [SheetRow(number: 3, cells: [.empty, .number(3)])])
        #expect(message { _ = try workbook.worksheet(named: "Rent Roll") }
            == "no sheet named \"Rent Roll\" (sheets: \"Cells\", \"Chart1\", \"Résumé 日本\", \"Hidden\")")
        #expect(message { _ = try workbook.worksheet(at: 4) } == "no sheet at index 4 (the workbook has 4 sheets)")
    }

    @Test func stringsSplitAcrossSSTContinueRecords() throws {
        #expect(try recordTypes("sst_split_across_continue.xls").contains(BIFFRecord.continueRecord))
        let texts = try xlsRows("sst_split_across_continue.xls").map(\.cells)
        #expect(texts == [
            [.text("Plain first")],
            [.text("Compressed then ÜTF-16 日本語 after the split")], // compressed half, then UTF-16
            [.text("日本 wide then compressed after")], // UTF-16 half, then compressed
            [.text("Rich text with runs")], // formatting runs split by the boundary
            [.text("Phonetic カタカナ")], // far-east phonetic block split by the boundary
            [.text("Starts in the next record")], // header ends a record, characters start the next
            [.text("")], // the empty string is a value: its row counts
            [.text("Last, Résumé")],
        ])
    }

    @Test func rowsStoredOutOfOrderComeOutInOrder() throws {
        #expect(try xlsRows("rows_out_of_order.xls") == [
            SheetRow(number: 1, cells: [.text("first A"), .text("first B")]),
            SheetRow(number: 2, cells: [.text("second")]),
            SheetRow(number: 3, cells: [.text("third"), .empty, .number(3)]),
        ])
    }

    @Test func libreOfficeRentRoll() throws {
        // What a real BIFF8 writer emits: SST with CONTINUE records, RK and MULRK, FORMULA + STRING, MERGEDCELLS.
        let types = try recordTypes("lo_rent_roll.xls")
        for type in [BIFFRecord.sst, BIFFRecord.continueRecord, BIFFRecord.labelSST, BIFFRecord.rk, BIFFRecord.mulRK,
                     BIFFRecord.number, BIFFRecord.formula, BIFFRecord.string, BIFFRecord.mergedCells] {
            #expect(types.contains(type), "no \(BIFFRecord.name(type)) record")
        }
        let workbook = try SpreadsheetFile(path: xlsFixture("lo_rent_roll.xls"))
        #expect(workbook.format == .xls)
        #expect(workbook.sheetNames == ["Rent Roll", "Formulas", "Sparse"])
        let sheet = try workbook.sheet(named: "Rent Roll")
        #expect(try sheet.mergedRanges() == [
            MergedRange(firstRow: 1, firstColumn: 0, lastRow: 1, lastColumn: 5),
            MergedRange(firstRow: 2, firstColumn: 0, lastRow: 2, lastColumn: 5),
            MergedRange(firstRow: 5, firstColumn: 2, lastRow: 6, lastColumn: 2),
        ])
        let rows = try allRows(sheet.rows())
        #expect(rows.count == 407)
        #expect(Array(rows.prefix(5)) == [
            SheetRow(number: 1, cells: [.text("OneSite Rents v3.0")]),
            SheetRow(number: 2, cells: [.text("Greystar - Nexus East")]),
            SheetRow(number: 3, cells: [.text("As of 02/08/2026"), .empty, .empty, .empty, .text("Page 1 of 3")]),
            SheetRow(number: 5, cells: [.text("Unit"), .text("Floor Plan"), .text("Resident\nName"), .text("Market\nRent"),
                                        .text("Move-In"), .text("Balance"), .text("Occupancy"), .text("Flag")]),
            SheetRow(number: 6, cells: [.empty, .empty, .empty, .text("(Monthly)"), .text("Date"), .empty, .text("Percent")]),
        ])
        #expect(rows[8] == SheetRow(number: 10, cells: [.text("1003"), .text("A1"), .text("Résident 3 Müller-Łukasz 日本 †"), .number(1450.75),
                                                        date(2020, 1, 10), .number(-2839.65), .text("93%"), .text("§")]))
        #expect(rows[10].cells[2] == .text("O'Brien, “Jo” 5\nphone 555-0105"))
        #expect(rows[405] == SheetRow(number: 408, cells: [.text("Property Totals"), .empty, .number(400), .number(599950)]))
        #expect(rows[406] == SheetRow(number: 409, cells: [date(2026, 2, 8, 6, 58, 21), date(2026, 2, 8)]))

        #expect(try allRows(workbook.sheet(at: 1).rows()) == [
            SheetRow(number: 1, cells: ["Text", "Joined", "Division", "Missing", "Compare", "Sum", "Date", "Blank"].map { .text($0) }),
            SheetRow(number: 2, cells: [.text("Nexus"), .text("Nexus East"), .error("#DIV/0!"), .error("#N/A"), .bool(true), .number(30.5),
                                        date(2024, 2, 29), .text("")]),
            SheetRow(number: 3, cells: [.text(String(repeating: "ab", count: 300)), .bool(false), .error("#VALUE!"), .text("日本語")]),
        ])
        let sparse = try allRows(workbook.sheet(named: "Sparse").rows())
        #expect(sparse.map(\.number) == [2, 4, 9, 65536])
        #expect(sparse[1].cells.count == 40 && sparse[1][39] == .text("column AN"))
        #expect(sparse[2] == SheetRow(number: 9, cells: [.text("0"), .text("35.71"), .text(" padded "), .number(0), .number(-0.5),
                                                         .number(123456789), .number(1e20), .number(0.1)]))
        #expect(sparse[3] == SheetRow(number: 65536, cells: [.bool(true), .bool(false), .number(7)]))
    }

    @Test func libreOffice1904Workbook() throws {
        let workbook = try SpreadsheetFile(path: xlsFixture("lo_date1904.xls"))
        #expect(workbook.uses1904DateSystem)
        #expect(try allRows(workbook.sheet(at: 0).rows()) == [
            SheetRow(number: 1, cells: [.text("Date"), .text("Serial")]),
            SheetRow(number: 2, cells: [date(1904, 1, 2), .number(1)]),
            SheetRow(number: 3, cells: [date(2024, 2, 29), .number(43889)]),
            SheetRow(number: 4, cells: [date(2026, 2, 8, 18, 30), .number(44600.5)]),
        ])
    }

    /// What a parser relies on: the same workbook as .xlsx and as LibreOffice's .xls gives the same rows and merges.
    @Test(arguments: ["lo_rent_roll", "lo_date1904"])
    func xlsxAndXLSReadTheSame(_ name: String) throws {
        let xlsx = try SpreadsheetFile(path: xlsFixture(name + ".xlsx"))
        let xls = try SpreadsheetFile(path: xlsFixture(name + ".xls"))
        #expect(xlsx.format == .xlsx && xls.format == .xls)
        #expect(xlsx.sheetNames == xls.sheetNames)
        #expect(xlsx.uses1904DateSystem == xls.uses1904DateSystem)
        for index in xlsx.sheetNames.indices {
            let (a, b) = (try xlsx.sheet(at: index), try xls.sheet(at: index))
            #expect(a.name == b.name)
            let (rowsA, rowsB) = (try allRows(a.rows()), try allRows(b.rows()))
            #expect(rowsA.count == rowsB.count, "sheet \(a.name)")
            for (rowA, rowB) in zip(rowsA, rowsB) where rowA != rowB {
                Issue.record("sheet \(a.name): .xlsx \(rowA) != .xls \(rowB)")
            }
            #expect(Set(try a.mergedRanges()) == Set(try b.mergedRanges()), "sheet \(a.name)")
        }
    }

    @Test func refusedWorkbooksSayWhy() throws {
        #expect(message { _ = try SpreadsheetFile(path: xlsFixture("biff5_book.xls")) }
            == "Book stream is BIFF5 (Excel 5.0/95), BOF version 0x0500; only BIFF8 (Excel 97-2003) .xls is read")
        #expect(message { _ = try SpreadsheetFile(path: xlsFixture("encrypted_filepass.xls")) }
            == "the workbook is password-protected (FILEPASS record); save it without a password")
        #expect(message { _ = try SpreadsheetFile(path: xlsFixture("word_document.doc")) }
            == "is an OLE2 file without a Workbook stream, so not an Excel workbook (streams: WordDocument, 1Table)")
        #expect(message { _ = try SpreadsheetFile(path: xlsFixture("encrypted_xlsx.xlsx")) }
            == "is a password-protected .xlsx (an OLE2 file with an EncryptedPackage stream); save it without a password")
        #expect(message { _ = try xlsRows("bad_sst_index.xls") }
            == "sheet \"Bad\": cell B1 refers to shared string 5, but the SST has 1")
        #expect(message { _ = try XLSWorkbook(path: xlsFixture("lo_rent_roll.xlsx")) }
            == "is a zip file (an .xlsx?), not a legacy Excel 97-2003 .xls")
    }

    @Test func theEntryPointRoutesByContentNotByExtension() throws {
        // encrypted_xlsx.xlsx is OLE2 despite its name; the .xlsx fixtures are zips.
        #expect(try SpreadsheetFile(path: fixture("date1904.xlsx")).format == .xlsx)
        #expect(try SpreadsheetFile(bytes: xlsFixtureBytes("lo_date1904.xls")).format == .xls)
        #expect(message { _ = try SpreadsheetFile(path: fixture("html_disguised.xlsx")) }
            == "is an HTML page without any table (titled \"Session expired\"): an error or login page, not a report")
        #expect(try SpreadsheetFile(bytes: Array("<html><table><tr><td>Unit</td></tr></table></html>".utf8)).format == .html)
        #expect(try SpreadsheetFile(bytes: Array("Unit,Rent\n101,1200\n".utf8)).format == .csv)
        #expect(message { _ = try SpreadsheetFile(bytes: Array("%PDF-1.4 report".utf8)) } == "is a PDF, not a spreadsheet: download the report in its Excel format")
        #expect(message { _ = try SpreadsheetFile(bytes: []) } == "is empty (0 bytes)")
        #expect(message { _ = try SpreadsheetFile(path: "/nonexistent/rent_roll.xls") } == "cannot open: No such file or directory")
        // The .xlsx reader itself still refuses .xls bytes (its callers rely on that).
        #expect(message { _ = try Workbook(path: xlsFixture("lo_date1904.xls")) }
            == "is really a legacy Excel 97-2003 .xls (OLE2) file; only .xlsx is read")
    }
}
