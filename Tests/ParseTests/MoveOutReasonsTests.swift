import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Expected values are worked out by hand from MOVE_OUT_CATEGORIES and MOVE_OUT_RESIDENTS in
// scripts/fixtures/make_report_fixtures.py (9 move-outs).

@Suite("Reasons for Move Out")
struct MoveOutReasonsTests {
    @Test("reasons_for_move_out: six reasons under three categories, then the three-resident move-out list")
    func reasons() throws {
        let result = try parseFixture("reasons_for_move_out.xlsx")
        #expect(result.metadata?.reportType == .moveOutReasons)
        #expect(result.metadata?.periodStart == ymd("2026-01-01") && result.metadata?.asOf == ymd("2026-01-31"))
        let reasons = result.moveOutLines.filter { $0.lineType == "reason" }
        #expect(reasons.map(\.reason) == ["Purchased home", "Relocation - job", "Rent too high", "Eviction", "Skip",
                                          "Transfer within property"])
        #expect(reasons.map(\.category) == ["Voluntary", "Voluntary", "Voluntary", "Involuntary", "Involuntary",
                                            "Transfer"])
        #expect(reasons.map(\.count) == [3, 2, 1, 1, 1, 1])
        #expect(reasons[0].percent == 33.33 && reasons[1].percent == 22.22, "3 and 2 of 9")
        #expect(reasons.allSatisfy { $0.unitNumber == nil })
        let residents = result.moveOutLines.filter { $0.lineType == "resident" }
        #expect(residents.map(\.unitNumber) == ["1207", "3105", "2105"])
        #expect(residents[1].residentName == "Diaz, Luis" && residents[1].moveOutDate == ymd("2026-01-15"))
        #expect(residents[1].reason == "Eviction" && residents[1].category == "Involuntary" && residents[1].count == nil)
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("reasons_for_move_out_mismatch: a category count and Totals: that disagree with the reasons")
    func mismatch() throws {
        #expect(try parseFixture("reasons_for_move_out_mismatch.xlsx").summary.warnings == [
            "reasons for move out: category Voluntary (row 8): its reasons sum to 6 move-outs but the category row "
                + "says 7",
            "reasons for move out: data rows sum to 9 move-outs but \"Totals:\" (row 17) says 10",
        ])
    }

    @Test("the move-out list alone is not enough to tell the report from its header")
    func listNotDetected() {
        var sheet = SheetBuilder()
        sheet.add("Unit", "Name", "Move-Out Date", "Reason")
        sheet.add("1207", "Ito, Ken", "01/31/2026", "Purchased home")
        #expect(parseError(nil, sheet)?.kind == .unknownLayout)
    }

    @Test("Count missing is the one-line error naming it")
    func missingColumn() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "REASONS FOR MOVE OUT")
        sheet.add("Category", "Reason", "Reason %")
        sheet.add(nil, "Purchased home", "33.33")
        let error = parseError(nil, sheet)
        #expect(error?.kind == .missingColumn)
        #expect(error?.description == "reasons for move out: missing required column \"Count\" (found: Category, "
            + "Reason, Reason %) in the header at row 7 of sheet \"Report\"")
    }
}
