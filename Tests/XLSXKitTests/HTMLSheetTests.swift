import Foundation
import Testing
@testable import XLSXKit

/// HTML exports (RealPage "Excel" downloads that are really web pages) read as one sheet of rows.
@Suite struct HTMLSheetTests {
    static func sheet(_ html: String) throws -> HTMLSheet { try HTMLSheet(bytes: Array(html.utf8)) }

    @Test func titleLinesThenTableRowsWithStackedCellsAndTextMoney() throws {
        let page = try Self.sheet("""
            <html><head><title>Income Statement</title><style>td { color: red }</style></head><body>
            <div><b>OneSite Rents v3.0</b><br>Kairoi Residential - Nexus East</div>
            <p>As&nbsp;of   11/20/2026</p>
            <table>
              <thead><tr><th>Unit</th><th>Name<br/>Phone</th><th>Balance</th></tr></thead>
              <tbody>
                <tr><td>101</td><td>Lee, Ann<br>555-0100</td><td>(1,951.00)</td></tr>
                <tr><td>102</td><td></td><td>&#36;2,400.50</td></tr>
                <tr><td></td><td></td><td></td></tr>
                <tr><td>Total</td><td></td><td>449.50</td></tr>
              </tbody>
            </table></body></html>
            """)
        #expect(page.rows == [
            SheetRow(number: 1, cells: [.text("OneSite Rents v3.0")]),
            SheetRow(number: 2, cells: [.text("Kairoi Residential - Nexus East")]),
            SheetRow(number: 3, cells: [.text("As of 11/20/2026")]),
            SheetRow(number: 4, cells: [.text("Unit"), .text("Name\nPhone"), .text("Balance")]),
            SheetRow(number: 5, cells: [.text("101"), .text("Lee, Ann\n555-0100"), .text("(1,951.00)")]),
            SheetRow(number: 6, cells: [.text("102"), .empty, .text("$2,400.50")]),
            // Row 7 is empty: numbered, not emitted, as a blank sheet row.
            SheetRow(number: 8, cells: [.text("Total"), .empty, .text("449.50")]),
        ])
        #expect(page.mergedRanges.isEmpty)
    }

    @Test func colspanAndRowspanPlaceCellsUnderTheirColumnsAndBecomeMergedRanges() throws {
        let page = try Self.sheet("""
            <table>
              <tr><td rowspan="2">Floor Plan</td><td colspan="2">Vacant</td><td rowspan=2>Units</td></tr>
              <tr><td>Not Leased</td><td>Leased</td></tr>
              <tr><td>A1</td><td>3</td><td>1</td><td>40</td></tr>
              <tr><td colspan="3" rowspan="2">note</td><td>x</td></tr>
              <tr><td>y</td></tr>
            </table>
            """)
        #expect(page.rows.map(\.cells) == [
            [.text("Floor Plan"), .text("Vacant"), .empty, .text("Units")],
            [.empty, .text("Not Leased"), .text("Leased")],
            [.text("A1"), .text("3"), .text("1"), .text("40")],
            [.text("note"), .empty, .empty, .text("x")],
            [.empty, .empty, .empty, .text("y")],
        ])
        #expect(Set(page.mergedRanges) == [
            MergedRange(firstRow: 1, firstColumn: 0, lastRow: 2, lastColumn: 0),
            MergedRange(firstRow: 1, firstColumn: 1, lastRow: 1, lastColumn: 2),
            MergedRange(firstRow: 1, firstColumn: 3, lastRow: 2, lastColumn: 3),
            MergedRange(firstRow: 4, firstColumn: 0, lastRow: 5, lastColumn: 2),
        ])
    }

    @Test func layoutTablesAreFlattenedIntoTheRowsOfTheTablesInside() throws {
        let page = try Self.sheet("""
            <table><tr>
              <td><table><tr><td>Company - Property</td></tr></table></td>
            </tr><tr>
              <td><table><tr><td>Unit</td><td>Rent</td></tr><tr><td>101</td><td>1,200.00</td></tr></table></td>
            </tr></table>
            """)
        #expect(page.rows.map(\.cells) == [
            [.text("Company - Property")], [.text("Unit"), .text("Rent")], [.text("101"), .text("1,200.00")],
        ])
    }

    @Test func aPageWithoutAnyTableIsRefusedAsAnErrorPage() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture("html_disguised.xlsx"))))
        #expect(message { _ = try HTMLSheet(bytes: bytes) }
                == "is an HTML page without any table (titled \"Session expired\"): an error or login page, not a report")
        #expect(message { _ = try Self.sheet("<p>nothing</p>") }
                == "is an HTML page without any table: an error or login page, not a report")
    }
}

/// CSV exports read as one sheet of text cells.
@Suite struct DelimitedTextSheetTests {
    @Test func quotedFieldsEmbeddedNewlinesCRLFAndBlankLines() throws {
        let csv = "\u{FEFF}Unit,Name,Balance\r\n101,\"Lee, Ann\",\"(1,951.00)\"\r\n\r\n102,\"Say \"\"hi\"\"\nthere\",\r\n"
        let sheet = try DelimitedTextSheet(bytes: Array(csv.utf8))
        #expect(sheet.delimiter == UInt8(ascii: ","))
        #expect(sheet.rows == [
            SheetRow(number: 1, cells: [.text("Unit"), .text("Name"), .text("Balance")]),
            SheetRow(number: 2, cells: [.text("101"), .text("Lee, Ann"), .text("(1,951.00)")]),
            SheetRow(number: 4, cells: [.text("102"), .text("Say \"hi\"\nthere")]),
        ])
    }

    @Test func theDelimiterIsTheCommonestOnTheFirstLine() throws {
        let tabs = try DelimitedTextSheet(bytes: Array("Unit\tRent, monthly\n101\t1,200.00".utf8))
        #expect(tabs.rows.map(\.cells) == [[.text("Unit"), .text("Rent, monthly")], [.text("101"), .text("1,200.00")]])
        let semicolons = try DelimitedTextSheet(bytes: Array("a;b;c\n1;2;3\n".utf8))
        #expect(semicolons.rows.last?.cells == [.text("1"), .text("2"), .text("3")])
    }

    @Test func anUnclosedQuoteIsAnErrorNamingTheLine() {
        #expect(message { _ = try DelimitedTextSheet(bytes: Array("a,b\n1,\"open\n2,3\n".utf8)) }
                == "CSV: line 2: a quoted field is never closed")
    }

    /// A look at a long download's first rows (the fetch's check for an error page) reads only its head: the rows it
    /// gives are the whole page's first rows; CSV the same; a page whose table starts past the head makes no sheet.
    @Test func theHeadOfALongPageGivesItsFirstRows() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("htmlhead-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ name: String, _ text: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        func rows(_ file: SpreadsheetFile) throws -> [SheetRow] {
            var source = try file.sheet(at: 0).rows()
            var rows: [SheetRow] = []
            while let row = try source.nextRow() { rows.append(row) }
            return rows
        }
        let body = (1...2_000).map { "<tr><td>\($0)</td><td>Résident \($0) — ünit</td><td>1,000.00</td></tr>" }.joined(separator: "\n")
        let page = try write("long.html", "<html><body><p>Lease Details</p><table>\(body)</table></body></html>")
        let whole = try rows(SpreadsheetFile(path: page))
        let head = try rows(SpreadsheetFile(path: page, head: 4_096))
        #expect(whole.count == 2_001 && head.count > 40 && head.count < 200)
        #expect(Array(whole.prefix(head.count - 1)) == Array(head.dropLast()), "every row before the cut as in the whole page")
        let csv = try write("long.csv", "Unit,Name,Balance\n" + (1...2_000).map { "\($0),Résident \($0),1000.00" }.joined(separator: "\n"))
        let csvWhole = try rows(SpreadsheetFile(path: csv)), csvHead = try rows(SpreadsheetFile(path: csv, head: 4_096))
        #expect(csvHead.count > 40 && csvHead.count < 400 && Array(csvWhole.prefix(csvHead.count)) == csvHead)
        let late = try write("late.html", "<html><head><style>\(String(repeating: "td { color: red } ", count: 1_000))</style></head><body><table><tr><td>1</td></tr></table></body></html>")
        #expect(throws: XLSXError.self) { try SpreadsheetFile(path: late, head: 4_096) }
        #expect(try rows(SpreadsheetFile(path: late)).count == 1)
    }
}
