import Testing
@testable import XLSXKit

/// Compressed (8-bit) strings decode in the workbook's CODEPAGE; UTF-16 strings are untouched by it.
@Suite struct CodePageTests {
    @Test func aCyrillicWorkbookReadsInCodePage1251() throws {
        let workbook = try XLSWorkbook(path: xlsFixture("code_page_1251.xls"))
        #expect(workbook.codePage == 1251)
        // The sheet name is a compressed BOUNDSHEET string in Windows-1251.
        #expect(workbook.sheetNames == ["Остатки"])
        #expect(try allRows(workbook.worksheet(at: 0).rows()) == [
            // Shared strings (SST), compressed.
            SheetRow(number: 1, cells: [.text("Квартира"), .text("Остаток, руб.")]),
            // A LABEL with 0x97, which is an em dash in 1251 as in 1252.
            SheetRow(number: 2, cells: [.text("Иванов И. И. — кв. 12"), .number(1250.5)]),
            // A UTF-16 LABEL, and an ASCII one.
            SheetRow(number: 3, cells: [.text("Жильцы"), .text("ASCII only")]),
        ])
    }

    @Test func anUnreadCodePageIsRefusedAtTheFirstByteItWouldHaveToGuess() throws {
        let workbook = try XLSWorkbook(path: xlsFixture("code_page_932.xls"))
        #expect(workbook.codePage == 932)
        #expect(workbook.sheetNames == ["Tenants"])
        let rows = try workbook.worksheet(at: 0).rows()
        #expect(try rows.nextRow() == SheetRow(number: 1, cells: [.text("Tenant")]))
        #expect(message { _ = try rows.nextRow() }
            == "the workbook's 8-bit strings are in code page 932 (its CODEPAGE record), which is not read; only code pages 1200, 1250, 1251, 1252, 1253, 1254, 1257 are (re-save it from Excel as .xlsx)")
    }

    @Test func eachWindowsCodePageMapsItsOwnLetters() throws {
        // One letter each that differs between the code pages: byte -> character.
        let cases: [(Int, UInt8, Character)] = [
            (1200, 0xC0, "À"), (1200, 0x80, "€"), (1252, 0x9C, "œ"), (1250, 0x8A, "Š"), (1250, 0xA3, "Ł"),
            (1251, 0xC0, "А"), (1251, 0xB8, "ё"), (1253, 0xC1, "Α"), (1254, 0xDE, "Ş"), (1257, 0xE0, "ą"),
        ]
        for (codePage, byte, expected) in cases {
            var text = BIFFText(codePage: CodePage(number: codePage))
            let decoded = try [byte].withUnsafeBufferPointer { try text.compressed($0.baseAddress!, 1) }
            #expect(decoded == String(expected), "code page \(codePage), byte \(biffHex(Int(byte)))")
        }
    }
}
