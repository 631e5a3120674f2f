import Foundation
@testable import Ledger
import OwnerDashCore
@testable import Render
import Testing

/// The printable lease-charge audit page.
@Suite struct AuditPageTests {
    /// A RealPage property whose former leases have no schedule (RPX sends current leases' only): the page says how
    /// many lines on how many leases, for how much, went unjudged and why, beside the totals.
    @Test func chargesNotAuditedAreShownWithTheirAmountAndWhy() throws {
        var totals = ChargeAudit.PropertyTotals(property: "nexus_east", asOf: "2026-11-20", leases: 2, lines: 10, matched: 10,
                                                missing: 0, unexpected: 0, undercharge: 0, overcharge: 0,
                                                underchargeTotal: .zero, overchargeTotal: .zero)
        totals.notAudited = 6
        totals.notAuditedLeases = 2
        totals.notAuditedAmount = Money(cents: 780_000)
        let report = AuditReport(runID: 3, startedAt: "2026-11-22T14:00:00Z", asOf: "2026-11-20", firstMonth: "2026-09",
                                 lastMonth: "2026-11", properties: [totals], noLedger: [], partialLedger: [],
                                 leaseCharges: [], exceptions: [])
        let html = AuditPage.render(report, exceptionsOnly: true, generatedAt: "2026-11-22 14:05")
        #expect(html.contains("Not audited: 6 charge lines on 2 leases ($7,800.00), posted on leases without any recurring-charge schedule"))
        #expect(html.contains("<th scope=\"col\">Not audited $</th>") || html.contains(">Not audited $<"))
        totals.notAudited = 0
        let clean = AuditPage.render(AuditReport(runID: 3, startedAt: "", asOf: "2026-11-20", firstMonth: "2026-09",
                                                 lastMonth: "2026-11", properties: [totals], noLedger: [], partialLedger: [],
                                                 leaseCharges: [], exceptions: []),
                                     exceptionsOnly: true, generatedAt: "")
        #expect(!clean.contains("Not audited:"), "nothing left unjudged, nothing said")
    }
}
