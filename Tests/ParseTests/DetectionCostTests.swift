import Foundation
@testable import Parse
import Testing
import XLSXKit

/// Detection tries every report type's layouts over the first 40 rows; it must cost what the rows hold, once, not
/// once per layout: a 1 MiB title cell took ~20 s and a 16,000-column header row ~15 s (debug build) when every
/// layout normalized every cell again.
@Suite struct DetectionCostTests {
    static func sheet(_ name: String) throws -> (rows: [SheetRow], merges: [MergedRange]) {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/reports/\(name)").path
        let sheet = try SpreadsheetFile(path: path).sheet(at: 0)
        var source = try sheet.rows()
        var rows: [SheetRow] = []
        while let row = try source.nextRow() { rows.append(row) }
        return (rows, try sheet.mergedRanges())
    }

    static func records(_ rows: [SheetRow], merges: [MergedRange] = []) throws -> (ReportType?, Int) {
        var source = InMemoryRows(rows)
        let result = try parse(nil, source: &source, merges: merges)
        return (result.metadata?.reportType, result.records.count)
    }

    /// The box score with a 1 MiB note beside its title and its header's last row widened to Excel's 16,384
    /// columns with unknown headings: detected as the same report, same records, in seconds.
    @Test func aHugeTitleCellAndAWideHeaderAreReadOnce() throws {
        let (original, merges) = try Self.sheet("box_score_nexus_east.xlsx")
        let (type, count) = try Self.records(original, merges: merges)
        #expect(type == .boxScore)
        #expect(count > 0)

        var rows = original
        rows[0].cells += [.empty, .empty, .text("note " + String(repeating: "x", count: 1 << 20))]
        let headerIndex = try #require(rows.firstIndex { row in
            row.cells.contains { if case .text(let text) = $0 { text.contains("SqFt") } else { false } }
        })
        while rows[headerIndex].cells.count < 16_384 { rows[headerIndex].cells.append(.text("Extra \(rows[headerIndex].cells.count)")) }

        let started = threadCPUSeconds()
        let (wideType, wideCount) = try Self.records(rows, merges: merges)
        let seconds = threadCPUSeconds() - started
        #expect(wideType == .boxScore)
        #expect(wideCount == count)
        #expect(seconds < 10, "took \(seconds) s")
    }

    /// Six rows of 16,384 unknown headings each (every window of them is tried against every layout): no
    /// report, said in one line, in seconds (a 16,000-column row alone took ~14 s before; the bound leaves room for a loaded machine).
    @Test func sixWideRowsOfUnknownHeadingsAreRefusedQuickly() throws {
        let cells = (0..<16_384).map { CellValue.text("Heading \($0)") }
        let rows = (1...6).map { SheetRow(number: $0, cells: cells) }
        let started = threadCPUSeconds()
        let error = #expect(throws: ReportParseError.self) { _ = try Self.records(rows) }
        let seconds = threadCPUSeconds() - started
        #expect(error?.kind == .unknownLayout)
        #expect(seconds < 20, "took \(seconds) s")
    }
}

/// CPU seconds this thread has used: the bounds above are on work done, not on wall time, which the other builds
/// sharing the machine stretch.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
