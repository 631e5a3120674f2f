import Testing
@testable import XLSXKit

@Suite struct WorkbookReadingTests {
    @Test func sharedStringsIncludingRichRunsPreservedSpaceAndPhonetics() throws {
        let workbook = try Workbook(path: fixture("shared_and_rich_strings.xlsx"))
        #expect(workbook.sheetNames == ["Strings", "Notes"])
        #expect(!workbook.uses1904DateSystem)
        #expect(try allRows(workbook.worksheet(at: 0).rows()) == [
            SheetRow(number: 1, cells: [.text("Unit"), .text("Market Rent"), .text("  padded  ")]),
            SheetRow(number: 2, cells: [.text("Résident 日本"), .text("Smith, \"Jo\"\nJr"), .text("東京")]),
            // Cells holding the empty shared string are values, so the row counts.
            SheetRow(number: 3, cells: [.text(""), .text("")]),
        ])
        #expect(try allRows(workbook.worksheet(named: "notes").rows()) == [SheetRow(number: 2, cells: [.empty, .text("Unit")])])
    }

    @Test func inlineAndFormulaStrings() throws {
        #expect(try rows("inline_strings.xlsx") == [
            SheetRow(number: 1, cells: [.text("Inline"), .text("Rich run"), .text("Inline!")]),
            SheetRow(number: 2, cells: [.text("")]),
            // Row 3 holds only formatted empty cells and is skipped.
            SheetRow(number: 4, cells: [.empty, .text("only B")]),
        ])
    }

    @Test func rowsAndCellsWithoutReferencesFollowThePreviousOne() throws {
        #expect(try rows("no_r_attributes.xlsx") == [
            SheetRow(number: 1, cells: [.text("a"), .number(1), .number(2.5)]),
            SheetRow(number: 2, cells: [.number(3), .empty, .number(-4)]),
            SheetRow(number: 5, cells: [.empty, .empty, .number(5), .number(6)]),
            SheetRow(number: 6, cells: [.number(7)]),
        ])
    }

    @Test func namespacePrefixesQuotesWhitespaceAndAttributeOrderDoNotMatter() throws {
        let workbook = try Workbook(path: fixture("prefixed_namespace.xlsx"))
        #expect(workbook.sheetNames == ["Prefixed"])
        #expect(try allRows(workbook.worksheet(at: 0).rows()) == [
            SheetRow(number: 1, cells: [.text("Property"), .text("Occupancy"), .number(42)]),
            SheetRow(number: 2, cells: [.text("prefixed inline")]),
        ])
        #expect(try workbook.worksheet(at: 0).mergedRanges() == [MergedRange(firstRow: 2, firstColumn: 0, lastRow: 2, lastColumn: 2)])
    }

    @Test func builtInAndCustomDateFormatsMakeDates() throws {
        let values = try rows("dates_builtin_and_custom.xlsx").map { $0[0] }
        #expect(values == [
            date(1900, 1, 1), date(1900, 2, 28), date(1900, 2, 29), date(1900, 3, 1), // Lotus leap-year bug
            date(2024, 1, 1), date(2024, 1, 1, 18), // 14, 22
            date(2024, 2, 29), // yyyy-mm-dd
            date(1900, 1, 1, 12), // [h]:mm elapsed time
            .number(12.5), .number(3), .number(1234.5), .number(12345), // [Red], "Day ", accounting, scientific
            date(2025, 1, 1), // [$-409]mmmm d, yyyy;@
            .number(7), // \d escaped
            .number(45292), // General
            date(1899, 12, 31, 0, 1, 0), // 47 mm:ss.0, a minute
            date(1899, 12, 31), // serial 0 (Excel shows 1900-01-00)
        ])
    }

    @Test func the1904DateSystem() throws {
        let workbook = try Workbook(path: fixture("date1904.xlsx"))
        #expect(workbook.uses1904DateSystem)
        #expect(try allRows(workbook.worksheet(at: 0).rows()) == [
            SheetRow(number: 1, cells: [date(1904, 1, 1), date(2024, 1, 1), date(1904, 1, 2, 6), .number(43830)]),
        ])
    }

    @Test func booleansErrorsCachedFormulaValuesAndISODates() throws {
        #expect(try rows("booleans_errors_formulas.xlsx") == [
            SheetRow(number: 1, cells: [.bool(true), .bool(false), .error("#N/A"), .error("#DIV/0!")]),
            SheetRow(number: 2, cells: [.number(1), .number(2), .number(3), .number(6)]),
            // F3 is a formula without a cached value: no value.
            SheetRow(number: 3, cells: [.empty, .empty, .empty, .number(0.1), .text("ab")]),
            SheetRow(number: 4, cells: [date(2024, 2, 29, 13, 45), date(2023, 12, 31), .number(-0.5), .number(1500),
                                        .number(0.30000000000000004)]),
        ])
    }

    @Test func entitiesCDATACommentsAndLineEnds() throws {
        #expect(try rows("entities_cdata.xlsx") == [
            SheetRow(number: 1, cells: [.text("Tom & Jerry <3 > \"q\" 'a'"), .text("café 中"), .text("<b>raw & \"kept\"</b>")]),
            SheetRow(number: 2, cells: [.text("line1\nline2"), .text("xyz"), .text("AT&T, Inc."), .text("<mergeCell ref=\"Z1:Z9\"/>")]),
        ])
        let sheet = try Workbook(path: fixture("entities_cdata.xlsx")).worksheet(at: 0)
        #expect(try sheet.mergedRanges() == [MergedRange(firstRow: 1, firstColumn: 0, lastRow: 1, lastColumn: 1)])
    }

    @Test func mergedHeaderCells() throws {
        let sheet = try Workbook(path: fixture("merged_header.xlsx")).worksheet(named: "Rent Roll")
        #expect(try sheet.mergedRanges() == [
            MergedRange(firstRow: 1, firstColumn: 0, lastRow: 2, lastColumn: 0),
            MergedRange(firstRow: 1, firstColumn: 1, lastRow: 1, lastColumn: 2),
            MergedRange(firstRow: 1, firstColumn: 3, lastRow: 2, lastColumn: 3),
        ])
        #expect(try allRows(sheet.rows()) == [
            SheetRow(number: 1, cells: [.text("Unit"), .text("Rent"), .empty, .text("Status")]),
            SheetRow(number: 2, cells: [.empty, .text("Market"), .text("Lease")]),
            SheetRow(number: 3, cells: [.text("101"), .number(1500), .number(1450.5), .text("Occupied")]),
        ])
    }

    @Test func storedEntriesAndWorkbooksInMemory() throws {
        let bytes = try [UInt8](contentsOf: fixture("stored_parts.xlsx"))
        let workbook = try Workbook(bytes: bytes)
        #expect(try allRows(workbook.worksheet(at: 0).rows()) == [SheetRow(number: 1, cells: [.text("not compressed"), .number(99.95)])])
    }

    @Test func mergedRangeReferences() {
        #expect(MergedRange(reference: "B2:AA10") == MergedRange(firstRow: 2, firstColumn: 1, lastRow: 10, lastColumn: 26))
        #expect(MergedRange(reference: "$C$3") == MergedRange(firstRow: 3, firstColumn: 2, lastRow: 3, lastColumn: 2))
        #expect(MergedRange(reference: "A0:B2") == nil)
        #expect(MergedRange(reference: "1:2") == nil)
    }
}

extension Array where Element == UInt8 {
    init(contentsOf path: String) throws {
        guard let handle = fopen(path, "rb") else { throw XLSXError.cannotOpen(reason: path) }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&chunk, 1, chunk.count, handle)
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        self = bytes
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
