import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Expected values are worked out by hand from PROJECTED_WEEKS in scripts/fixtures/make_report_fixtures.py
// (352 units, 335 occupied at the first week's beginning).

@Suite("Projected Occupancy")
struct ProjectedOccupancyTests {
    @Test("projected_occupancy: six weeks from 2026-02-09, each projection = occupied + move-ins - move-outs")
    func weeks() throws {
        let result = try parseFixture("projected_occupancy.xlsx")
        #expect(result.metadata?.reportType == .projectedOccupancy && result.metadata?.asOf == ymd("2026-02-08"))
        let rows = result.weeks
        #expect(rows.map(\.weekStart) == ["2026-02-09", "2026-02-16", "2026-02-23", "2026-03-02", "2026-03-09",
                                          "2026-03-16"].map(ymd))
        #expect(rows[0].weekEnd == ymd("2026-02-15"))
        #expect(rows.map(\.occupiedBegin) == [335, 337, 335, 336, 338, 335])
        #expect(rows.map(\.scheduledMoveIns) == [4, 3, 2, 5, 1, 0])
        #expect(rows.map(\.scheduledMoveOuts) == [2, 5, 1, 3, 4, 2])
        #expect(rows.map(\.projectedOccupied) == [337, 335, 336, 338, 335, 333])
        #expect(rows[0].occupiedBeginPct == 95.17 && rows[0].projectedPct == 95.74, "335 and 337 of 352")
        #expect(rows[5].projectedPct == 94.60)
        #expect(rows.allSatisfy { $0.totalUnits == 352 })
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("projected_occupancy_mismatch: the week of 2026-02-23 projects 337 for 335 + 2 - 1")
    func mismatch() throws {
        let result = try parseFixture("projected_occupancy_mismatch.xlsx")
        #expect(result.weeks.count == 6)
        #expect(result.summary.warnings == [
            "projected occupancy: week of 2026-02-23 (row 12): 335 occupied + 2 move-ins - 1 move-outs = 336 but "
                + "the projected occupied at week end says 337",
        ])
    }

    @Test("a Week Ending column dates the week by its last day")
    func weekEnding() throws {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "PROJECTED OCCUPANCY")
        sheet.add("Week Ending", "# Occupied At Week Begin", "Scheduled Move-Ins", "Scheduled Move-Outs",
                  "Projected # Occupied At Week End")
        sheet.add("02/15/2026", "0", "4", "2", "2")
        let row = try #require(try parse(nil, sheet).weeks.first)
        #expect(row.weekStart == ymd("2026-02-09") && row.weekEnd == ymd("2026-02-15"))
        #expect(row.occupiedBegin == 0 && row.totalUnits == nil, "counts stored as text read; no Total Units line")
    }

    @Test("Scheduled Move-Outs missing is the one-line error naming it")
    func missingColumn() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "PROJECTED OCCUPANCY")
        sheet.add("Week Beginning", "# Occupied At Week Begin", "Scheduled Move-Ins", "Projected # Occupied")
        sheet.add("02/09/2026", 335, 4, 339)
        let error = parseError(nil, sheet)
        #expect(error?.kind == .missingColumn)
        #expect(error?.description == "projected occupancy: missing required column \"Scheduled Move-Outs\" (found: "
            + "Week Beginning, # Occupied At Week Begin, Scheduled Move-Ins, Projected # Occupied) in the header at "
            + "row 7 of sheet \"Report\"")
    }
}
