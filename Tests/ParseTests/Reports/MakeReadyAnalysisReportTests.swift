import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

@Suite("Make Ready Analysis on the real download")
struct MakeReadyAnalysisReportTests {
    @Test("Nexus East, February 2026: one period, 5 units made ready in 0:05, renovations and costs zero")
    func nexusEast() throws {
        let result = try parseReal("Make_Ready_Analysis_Nexus_East.xls")
        #expect(result.metadata?.reportType == .makeReadyAnalysis)
        #expect(result.metadata?.propertyName == "Nexus East")
        let rows = result.rows("realpage_make_ready_analysis")
        #expect(rows.count == 1)
        let period = try #require(rows.first)
        #expect(period["period"] == .text("2/2026"))
        #expect(period["units_made_ready"] == .integer(5))
        #expect(period["avg_minutes"] == .integer(1))
        #expect(period["total_minutes"] == .integer(5))
        #expect(period["renovations"] == .integer(0))
        #expect(period["renovation_avg_minutes"] == .integer(0))
        #expect(period["renovation_total_minutes"] == .integer(0))
        #expect(period["labor_cost"] == .money(.zero) && period["parts_cost"] == .money(.zero))
        #expect(period["total_cost"] == .money(.zero))
        // The Total row (5 units, 0:05) agrees; the averages block after it is not read as periods.
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("A period's hours changed are caught by the Total row, in H:MM")
    func changedDurationIsCaught() throws {
        // Row 10 is the period; column I its Total Hrs:Min.
        let result = try parseReal("Make_Ready_Analysis_Nexus_East.xls") { rows in rows[10, "I"] = .text("1:05") }
        #expect(result.summary.warnings == [
            "make ready analysis: data rows sum to 1:05 total minutes but \"Total\" (row 11) says 0:05",
        ])
    }
}
