import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

@Suite("Lease Summary on the real downloads")
struct LeaseSummaryReportTests {
    @Test("Ridian: detected by its title, the site named above the header, one row matching SiteTotal and PMC Total")
    func ridian() throws {
        let result = try parseReal("Lease_Summary_Report.xls")
        #expect(result.metadata?.reportType == .leaseSummary)
        #expect(result.metadata?.propertyName == "Ridian")
        #expect(result.metadata?.periodStart == ymd("2026-01-01"))
        // January, created 01/28/2026 08:24 AM: as of its run, not the month's last day.
        #expect(result.metadata?.asOf == ymd("2026-01-28"))
        let rows = result.rows("realpage_lease_summary")
        #expect(rows.count == 1)
        // The printed SiteTotal: 38 guest cards, 4 online, 28 quotes, 5 applications, 5 screenings, 5 RP E-Sign,
        // 0 not signed, 5 leases.
        #expect(rows.count("guest_cards") == 38 && rows.count("online_guest_cards") == 4)
        #expect(rows.count("quotes") == 28 && rows.count("applications") == 5 && rows.count("screenings") == 5)
        #expect(rows.count("signed_rp_esign") == 5 && rows.count("signed_docusign") == 0)
        #expect(rows.count("not_signed") == 0 && rows.count("total_leases") == 5)
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("The Northern (Online Leasing Lease Summary): 94 guest cards, 7 RP E-Sign and 4 not signed of 11 leases")
    func theNorthern() throws {
        let result = try parseReal("Online_Leasing_Lease_Summary__1_.xls")
        #expect(result.metadata?.propertyName == "The Northern")
        let rows = result.rows("realpage_lease_summary")
        #expect(rows.count == 1)
        #expect(rows.count("guest_cards") == 94 && rows.count("online_guest_cards") == 13)
        #expect(rows.count("quotes") == 21 && rows.count("applications") == 11)
        #expect(rows.count("signed_rp_esign") == 7 && rows.count("not_signed") == 4 && rows.count("total_leases") == 11)
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("A count changed in the site row is caught by SiteTotal and by PMC Total")
    func changedCountIsCaught() throws {
        // Row 19 is the site's counts; column D its total guest cards.
        let result = try parseReal("Lease_Summary_Report.xls") { rows in rows[19, "D"] = .number(37) }
        #expect(result.summary.warnings.count == 2)
        #expect(result.summary.warnings.allSatisfy { $0.contains("37 guest cards") && $0.contains("says 38") })
    }
}
