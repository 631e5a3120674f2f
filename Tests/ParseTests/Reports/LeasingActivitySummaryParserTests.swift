import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

@Suite("Leasing Activity Summary on the real download")
struct LeasingActivitySummaryParserTests {
    @Test("Ridian, January 2026: 5 consultants totalling the printed 38 prospects, 375 activities, 5 net leases")
    func ridian() throws {
        let result = try parseReal("Leasing_Activity_Summary.xls")
        #expect(result.metadata?.reportType == .leasingActivitySummary)
        #expect(result.metadata?.propertyName == "Ridian")
        #expect(result.metadata?.periodStart == ymd("2026-01-01"))
        // 01/01/2026 through 01/31/2026, run 01/28/2026 2:32:40AM: as of its run.
        #expect(result.metadata?.asOf == ymd("2026-01-28"))
        let consultants = result.rows("realpage_leasing_activity_summary")
        #expect(consultants.count == 5)
        #expect(consultants.map { $0["leasing_consultant"] }.contains(.text("HOUSE")))
        #expect(consultants.count("new_prospects") == 38 && consultants.count("activities") == 375)
        #expect(consultants.count("off_site_conversions") == 16 && consultants.count("visits") == 16)
        #expect(consultants.count("return_visits") == 1 && consultants.count("quotes") == 33)
        #expect(consultants.count("leases") == 5 && consultants.count("net_leases") == 5)
        #expect(consultants.count("move_ins") == 6)
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("The other groupings are kept by name, each summing to the same printed Totals")
    func groupings() throws {
        let result = try parseReal("Leasing_Activity_Summary.xls")
        let groups = result.rows("realpage_leasing_activity_summary_groups")
        let names = Set(groups.compactMap { if case .text(let g) = $0["grouping"] { g } else { nil } })
        #expect(names == ["floor plan group", "floor plan", "day of week"])
        for grouping in names {
            let rows = groups.filter { $0["grouping"] == .text(grouping) }
            #expect(rows.count("new_prospects") == 38, "\(grouping)")
            #expect(rows.count("activities") == 375, "\(grouping)")
            #expect(rows.count("net_leases") == 5, "\(grouping)")
        }
        #expect(groups.filter { $0["grouping"] == .text("floor plan group") }.count == 4)
    }

    @Test("A consultant's figure moved under another header is caught by the Totals row")
    func shiftedValueIsCaught() throws {
        // "Bishop, Ewing" has 5 new prospects in column D; put 6 there instead.
        let result = try parseReal("Leasing_Activity_Summary.xls") { rows in
            guard let bishop = rows.number(ofRowWith: "Bishop, Ewing") else { return }
            rows[bishop, "D"] = .number(6)
        }
        #expect(result.summary.warnings.contains { $0.contains("39 new prospects") && $0.contains("says 38") },
                "\(result.summary.warnings)")
    }
}
