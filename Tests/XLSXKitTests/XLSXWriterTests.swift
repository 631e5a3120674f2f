import Foundation
import Testing
import XMLKit
import ZipKit
@testable import XLSXKit

/// A fresh directory per test, removed at the end.
private final class Scratch {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("xlsxwriter-\(UUID().uuidString)")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

private func xml(_ archive: ZipArchive, _ part: String) throws -> XMLElement {
    let document = try XMLDocument(bytes: archive.contents(named: part))
    return try #require(document.root, "\(part) has a root element")
}

@Suite struct XLSXWriterTests {
    /// Two sheets of every cell type, read back by OwnerDash's own reader.
    @Test func everyCellTypeReadsBackAsWritten() throws {
        let scratch = try Scratch()
        let path = scratch.path("book.xlsx")
        let writer = try XLSXWriter(path: path)
        try writer.startSheet("Residents", layout: SheetLayout(columnWidths: [12, 30, 12, 12, 8], frozenRows: 1, autoFilterRow: 1))
        try writer.appendRow(["Unit", "Name", "Balance", "Due", "Current"].map { .text($0, look: .header) })
        try writer.appendRow([.text("101"), .text("Lee, Ann & \"Bo\" <co>"), WorkbookCell(.money(cents: 140_050)),
                              WorkbookCell(.date(ExcelDateTime(year: 2026, month: 10, day: 1))), WorkbookCell(.bool(true))])
        try writer.appendRow([.text(" 0042 "), .text("line one\nline two\u{7}bell"), WorkbookCell(.money(cents: -12_345)),
                              WorkbookCell(.date(ExcelDateTime(year: 1900, month: 1, day: 1))), WorkbookCell(.bool(false))])
        try writer.appendRow([.empty, .text("sparse"), WorkbookCell(.number(0.1 + 0.2)), .empty,
                              WorkbookCell(.number(1e-7))])
        try writer.startSheet("Totals")
        try writer.appendRow([.text("count"), WorkbookCell(.number(3), look: CellLook(format: .count))])
        try writer.finish()

        let book = try Workbook(path: path)
        #expect(book.sheetNames == ["Residents", "Totals"])
        let rows = try allRows(book.worksheet(at: 0).rows())
        #expect(rows.map(\.number) == [1, 2, 3, 4])
        #expect(rows[0].cells == [.text("Unit"), .text("Name"), .text("Balance"), .text("Due"), .text("Current")])
        #expect(rows[1].cells == [.text("101"), .text("Lee, Ann & \"Bo\" <co>"), .number(1400.5),
                                  .date(ExcelDateTime(year: 2026, month: 10, day: 1)), .bool(true)])
        // Spaces kept, LF kept, the BEL that XML 1.0 cannot hold replaced rather than breaking the part.
        #expect(rows[2].cells == [.text(" 0042 "), .text("line one\nline two\u{FFFD}bell"), .number(-123.45),
                                  .date(ExcelDateTime(year: 1900, month: 1, day: 1)), .bool(false)])
        // Numbers to 16 significant digits (Excel shows 15): 0.1 + 0.2 reads back as 0.3.
        #expect(rows[3].cells == [.empty, .text("sparse"), .number(0.3), .empty, .number(1e-7)])
        #expect(try allRows(book.worksheet(at: 1).rows()).map(\.cells) == [[.text("count"), .number(3)]])
    }

    @Test func datesAreRealSerialsBothWaysAcrossTheLotusLeapDay() throws {
        for (y, m, d) in [(1900, 1, 1), (1900, 2, 28), (1900, 3, 1), (1999, 12, 31), (2026, 11, 20), (9999, 12, 31)] {
            let date = ExcelDateTime(year: y, month: m, day: d)
            let serial = try #require(date.serial)
            #expect(ExcelDateTime(serial: serial, uses1904DateSystem: false) == date)
        }
        #expect(ExcelDateTime(year: 1900, month: 3, day: 1).serial == 61)
        #expect(ExcelDateTime(year: 2026, month: 10, day: 1).serial == 46_296)
        #expect(ExcelDateTime(year: 1899, month: 12, day: 31).serial == nil)
    }

    @Test func stylesFrozenPaneFilterAndWidthsAreInTheParts() throws {
        let scratch = try Scratch()
        let path = scratch.path("styled.xlsx")
        let writer = try XLSXWriter(path: path)
        try writer.startSheet("Grid", layout: SheetLayout(columnWidths: [8, 20], frozenRows: 2, frozenColumns: 1,
                                                          autoFilterRow: 2, landscape: true))
        try writer.appendRow([.text("Title", look: CellLook(bold: true))])
        try writer.appendRow([.text("Unit", look: .header), .text("Status", look: .header)])
        let paid = CellLook(bold: true, fill: RGBColor("#bfe5c8"), border: true, wrap: true, alignment: .center)
        try writer.appendRow([.text("101"), .text("PAID", look: paid)])
        try writer.appendRow([.text("102"), WorkbookCell(.money(cents: 5), look: CellLook(fill: RGBColor("bfe5c8")))])
        try writer.closeAutoFilter()
        try writer.appendRow([.text("Total", look: CellLook(bold: true))])
        try writer.finish()

        let archive = try ZipArchive(path: path)
        let sheet = try xml(archive, "xl/worksheets/sheet1.xml")
        let pane = try #require(sheet.descendants(named: "pane").first)
        #expect(pane.attribute("ySplit") == "2" && pane.attribute("xSplit") == "1" && pane.attribute("state") == "frozen")
        #expect(pane.attribute("topLeftCell") == "B3")
        #expect(sheet.descendants(named: "autoFilter").first?.attribute("ref") == "A2:B4", "the total row is left out")
        // Excel's own form of 8 and 20 characters of the default font (the cell padding included).
        #expect(sheet.descendants(named: "col").map { $0.attribute("width") } == ["8.7109375", "20.7109375"])
        #expect(sheet.descendants(named: "pageSetup").first?.attribute("orientation") == "landscape")
        let workbook = try xml(archive, "xl/workbook.xml")
        #expect(workbook.descendants(named: "definedName").first?.text == "Grid!$A$2:$B$4")

        let styles = try xml(archive, "xl/styles.xml")
        let formats = styles.descendants(named: "numFmt").map { $0.attribute("formatCode") }
        #expect(formats == ["#,##0.00;(#,##0.00)"])
        let fills = styles.descendants(named: "fgColor").compactMap { $0.attribute("rgb") }
        #expect(fills.filter { $0 == "FFBFE5C8" }.count == 1, "one fill, shared by both cells that use it")
        // The PAID cell's style: bold font, the green fill, a border, wrapped and centered.
        let cells = sheet.descendants(named: "c")
        let status = try #require(cells.first { $0.attribute("r") == "B3" })
        let xfs = try #require(styles.child(named: "cellXfs")).children(named: "xf")
        let xf = xfs[Int(status.attribute("s") ?? "0") ?? 0]
        let fillList = try #require(styles.child(named: "fills")).children(named: "fill")
        let fill = fillList[Int(xf.attribute("fillId") ?? "0") ?? 0]
        #expect(fill.descendants(named: "fgColor").first?.attribute("rgb") == "FFBFE5C8")
        #expect(xf.attribute("fontId") == "1" && xf.attribute("borderId") == "1")
        #expect(xf.child(named: "alignment")?.attribute("wrapText") == "1")
        #expect(xf.child(named: "alignment")?.attribute("horizontal") == "center")
    }

    /// What a printed sheet needs: landscape, one page wide, the title and header rows on every page, a header naming
    /// the report and a page N of M footer, and totals that follow a filter (SUBTOTAL, with the value cached).
    @Test func sheetsPrintWithTitlesHeaderFooterAndSubtotals() throws {
        let scratch = try Scratch()
        let path = scratch.path("print.xlsx")
        let writer = try XLSXWriter(path: path)
        try writer.startSheet("Debtors", layout: SheetLayout(
            columnWidths: [10, 12], frozenRows: 2, autoFilterRow: 2, landscape: true, printTitles: 1...2,
            pageHeader: PageText(left: "Debtors", center: "Nexus East & Co", right: "as of 2026-02-14")))
        try writer.appendRow([.text("Debtors", look: CellLook(bold: true))])
        try writer.appendRow([.text("Unit", look: .header), .text("Balance", look: .header)])
        try writer.appendRow([.text("101"), WorkbookCell(.money(cents: 120_000))])
        try writer.appendRow([.text("102"), WorkbookCell(.money(cents: 5_050))])
        try writer.closeAutoFilter()
        try writer.appendRow([.text("Total", look: CellLook(bold: true)),
                              WorkbookCell(.formula("SUBTOTAL(9,B3:B4)", cached: 1_250.50), look: CellLook(format: .money))])
        try writer.finish()

        let archive = try ZipArchive(path: path)
        let sheet = try xml(archive, "xl/worksheets/sheet1.xml")
        let setup = try #require(sheet.descendants(named: "pageSetup").first)
        #expect(setup.attribute("orientation") == "landscape")
        #expect(setup.attribute("fitToHeight") == "0", "one page wide, as many tall as needed")
        #expect(sheet.descendants(named: "pageSetUpPr").first?.attribute("fitToPage") == "1")
        #expect(sheet.descendants(named: "oddHeader").first?.text == "&LDebtors&CNexus East && Co&Ras of 2026-02-14")
        #expect(sheet.descendants(named: "oddFooter").first?.text == "&RPage &P of &N")
        let names = try xml(archive, "xl/workbook.xml").descendants(named: "definedName")
        #expect(names.contains { $0.attribute("name") == "_xlnm.Print_Titles" && $0.text == "Debtors!$1:$2" })
        #expect(names.contains { $0.attribute("name") == "_xlnm._FilterDatabase" && $0.text == "Debtors!$A$2:$B$4" })
        let total = try #require(sheet.descendants(named: "c").first { $0.attribute("r") == "B5" })
        #expect(total.child(named: "f")?.text == "SUBTOTAL(9,B3:B4)")
        #expect(total.child(named: "v")?.text == "1250.5")
        // Read back as data, the formula cell gives its cached value.
        let rows = try allRows(Workbook(path: path).worksheet(at: 0).rows())
        #expect(rows.last?.cells == [.text("Total"), .number(1_250.50)])
    }

    @Test func commentsGetTheirPartsDrawingRelationshipsAndContentTypes() throws {
        let scratch = try Scratch()
        let path = scratch.path("notes.xlsx")
        let writer = try XLSXWriter(path: path)
        try writer.startSheet("Plain")
        try writer.appendRow([.text("no comments here")])
        try writer.startSheet("Notes")
        try writer.appendRow([.text("Unit"), .text("Rent")])
        try writer.appendRow([.text("101"), WorkbookCell(.text("OVERDUE"), comment: "billed $1,400.00\npaid $0.00 & <none>")])
        try writer.appendRow([.text("102"), WorkbookCell(.text("PAID"), comment: "billed $900.00")])
        try writer.finish()

        let archive = try ZipArchive(path: path)
        // The notes part of the Notes sheet (sheet2), found through its relationships.
        #expect(archive.entry(named: "xl/worksheets/_rels/sheet1.xml.rels") == nil, "a sheet without notes has none")
        let rels = try xml(archive, "xl/worksheets/_rels/sheet2.xml.rels").children(named: "Relationship")
        let target = try #require(rels.first { ($0.attribute("Target") ?? "").contains("comments") }?.attribute("Target"))
        let comments = try xml(archive, "xl/" + target.replacingOccurrences(of: "../", with: ""))
        let list = comments.descendants(named: "comment")
        #expect(list.map { $0.attribute("ref") } == ["B2", "B3"])
        #expect(list.first?.text == "billed $1,400.00\npaid $0.00 & <none>")
        #expect(rels.contains { ($0.attribute("Target") ?? "").hasSuffix(".vml") }, "the notes' drawing")
        // The workbook still reads as data.
        let rows = try allRows(Workbook(path: path).worksheet(named: "Notes").rows())
        #expect(rows.map(\.cells) == [[.text("Unit"), .text("Rent")], [.text("101"), .text("OVERDUE")], [.text("102"), .text("PAID")]])
    }

    @Test func rowsAreStreamedNotHeld() throws {
        // 100,000 rows: the writer keeps no row; every one reads back.
        let scratch = try Scratch()
        let path = scratch.path("long.xlsx")
        let writer = try XLSXWriter(path: path)
        try writer.startSheet("Long")
        for i in 0..<100_000 {
            try writer.appendRow([.text("unit \(i)"), WorkbookCell(.money(cents: Int64(i)))])
        }
        try writer.finish()
        let source = try Workbook(path: path).worksheet(at: 0).rows()
        var count = 0, last: SheetRow?
        while let row = try source.nextRow() { count += 1; last = row }
        #expect(count == 100_000)
        #expect(last?.cells == [.text("unit 99999"), .number(999.99)])
    }

    @Test func badSheetNamesAndValuesAreOneLineErrors() throws {
        let scratch = try Scratch()
        let writer = try XLSXWriter(path: scratch.path("bad.xlsx"))
        #expect(message { try writer.startSheet("a/b") } == "sheet name \"a/b\" holds \"/\", which Excel does not allow")
        #expect(message { try writer.startSheet(String(repeating: "x", count: 32)) }?.hasSuffix("must be 1 to 31 characters") == true)
        try writer.startSheet("Data")
        #expect(message { try writer.startSheet("DATA") } == "sheet name \"DATA\" is already used (Excel ignores case)")
        try writer.startSheet("More")
        #expect(message { try writer.appendRow([.empty, WorkbookCell(.number(.nan))]) } == "sheet \"More\" cell B1: not a finite number")
        #expect(message { try writer.appendRow([WorkbookCell(.date(ExcelDateTime(year: 1899, month: 1, day: 1)))]) }
                == "sheet \"More\" cell A1: a date before 1900 has no Excel serial", "a refused row is not written: the next takes its number")
        #expect(XLSXWriter.sheetName("nexus/east: [A]", avoiding: []) == "nexus east   A")
        #expect(XLSXWriter.sheetName("Residents", avoiding: ["residents"]) == "Residents (2)")
        #expect(XLSXWriter.sheetName(String(repeating: "y", count: 40), avoiding: []).count == 31)
        #expect(XLSXWriter.sheetName(String(repeating: "y", count: 30) + " z", avoiding: []) == String(repeating: "y", count: 30))
        #expect(throws: XLSXWriteError.noSheets) { try XLSXWriter(path: scratch.path("empty.xlsx")).finish() }
    }

    @Test func moneyIsWrittenAsExactDecimals() throws {
        let scratch = try Scratch()
        let path = scratch.path("money.xlsx")
        let writer = try XLSXWriter(path: path)
        try writer.startSheet("Money")
        for cents in [140_050, -5, 1_999_999, 100, 1_234_567_891] as [Int64] {
            try writer.appendRow([WorkbookCell(.money(cents: cents))])
        }
        try writer.finish()
        let sheet = try xml(try ZipArchive(path: path), "xl/worksheets/sheet1.xml")
        #expect(sheet.descendants(named: "v").map(\.text) == ["1400.5", "-0.05", "19999.99", "1", "12345678.91"])
        #expect(columnLetters(0) == "A" && columnLetters(25) == "Z" && columnLetters(26) == "AA" && columnLetters(16_383) == "XFD")
    }
}
