import Testing
import XMLKit
import ZipKit
@testable import XLSXKit

/// Each failure a user can meet gives one line that says what is wrong and where.
@Suite struct ErrorTests {
    @Test func aCutOffDownload() {
        #expect(message { _ = try Workbook(path: fixture("truncated.xlsx")) }
            == "zip file is truncated: no end of central directory record (the file was cut off?)")
    }

    @Test func aCorruptSheetFailsItsCRCAtTheEndOfTheStream() throws {
        let sheet = try Workbook(path: fixture("crc_mismatch.xlsx")).worksheet(at: 0)
        #expect(message { _ = try allRows(sheet.rows()) } == "entry xl/worksheets/sheet1.xml is corrupt: CRC mismatch")
    }

    @Test func aZipWithoutAWorkbook() {
        #expect(message { _ = try Workbook(path: fixture("missing_workbook_part.xlsx")) } == "missing part xl/workbook.xml")
    }

    @Test func aZipBomb() throws {
        let sheet = try Workbook(path: fixture("zip_bomb.xlsx")).worksheet(at: 0)
        #expect(message { _ = try sheet.rows() }
            == "entry xl/worksheets/sheet1.xml inflates more than 1000 times its compressed size (zip bomb?)")
        let capped = try Workbook(path: fixture("zip_bomb.xlsx"), limits: ZipLimits(maxInflatedSize: 4 << 20, maxCompressionRatio: 1 << 20))
        #expect(message { _ = try capped.worksheet(at: 0).rows() }
            == "entry xl/worksheets/sheet1.xml inflates past the 4 MiB limit (zip bomb?)")
    }

    @Test func filesThatAreNotWorkbooksSayWhatTheyAre() {
        #expect(message { _ = try Workbook(path: fixture("legacy_ole2.xls")) }
            == "is really a legacy Excel 97-2003 .xls (OLE2) file; only .xlsx is read")
        #expect(message { _ = try Workbook(path: fixture("html_disguised.xlsx")) }
            == "is really an HTML page, not an .xlsx workbook (an error or login page?)")
        #expect(message { _ = try Workbook(bytes: Array("%PDF-1.7\n%âãÏÓ\n1 0 obj".utf8)) } == "is a PDF, not an .xlsx workbook")
        #expect(message { _ = try Workbook(bytes: Array("Unit,Market Rent,Status\n101,1500,Occupied\n".utf8)) }
            == "looks like CSV text, not an .xlsx workbook")
        #expect(message { _ = try Workbook(bytes: []) } == "is empty (0 bytes)")
        #expect(message { _ = try Workbook(path: "/nonexistent/rent_roll.xlsx") } == "cannot open: No such file or directory")
    }

    @Test func sniffing() {
        #expect(FileKind.sniff([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]) == .zip)
        #expect(FileKind.sniff([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0]) == .ole2)
        #expect(FileKind.sniff(Array("\u{FEFF}  <HTML><body>".utf8)) == .html)
        #expect(FileKind.sniff(Array("<?xml version=\"1.0\"?><Workbook xmlns=\"urn:schemas-microsoft-com:office:spreadsheet\">".utf8)) == .xml)
        #expect(FileKind.sniff(Array("%PDF-1.4".utf8)) == .pdf)
        #expect(FileKind.sniff(Array("a\tb\n1\t2\n".utf8)) == .csvText)
        #expect(FileKind.sniff([0x00, 0x01, 0x02]) == .unknown)
    }

    @Test func anExternalEntityIsRefusedAndNeverExpanded() throws {
        let error = message { _ = try Workbook(path: fixture("external_entity.xlsx")) }
        #expect(error?.hasPrefix("xl/sharedStrings.xml: DOCTYPE and other declarations are not allowed in this part") == true, "\(error ?? "no error")")
        // libxml2, as used for every other part, refuses the same bytes too.
        let bytes = try ZipArchive(path: fixture("external_entity.xlsx")).contents(named: "xl/sharedStrings.xml")
        #expect(message { _ = try XMLDocument(bytes: bytes) }
            == "XML error: the DOCTYPE declares external entity 'xxe' (\"file:///etc/passwd\"); documents with external entities are refused")
    }

    @Test func outOfRangeIndicesAreErrorsNotCrashes() throws {
        #expect(message { _ = try rows("bad_shared_string_index.xlsx") }
            == "sheet \"Bad\": cell B1 refers to shared string 5, but xl/sharedStrings.xml has 1")
        #expect(message { _ = try rows("bad_style_index.xlsx") }
            == "sheet \"Bad\": cell C1 refers to style 9, but xl/styles.xml defines 2 cell formats")
    }

    @Test func unknownSheets() throws {
        let workbook = try Workbook(path: fixture("shared_and_rich_strings.xlsx"))
        #expect(message { _ = try workbook.worksheet(named: "Rent Roll") } == "no sheet named \"Rent Roll\" (sheets: \"Strings\", \"Notes\")")
        #expect(message { _ = try workbook.worksheet(at: 2) } == "no sheet at index 2 (the workbook has 2 sheets)")
    }
}
