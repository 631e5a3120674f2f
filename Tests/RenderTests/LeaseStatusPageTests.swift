import Foundation
import Ledger
import Metrics
@testable import Render
import Testing
import XMLKit

/// The printable lease payment-status page.
@Suite struct LeaseStatusPageTests {
    static let report = LeasePaymentStatusReport(
        months: ["2026-10", "2026-11"],
        lines: [
            .init(property: "yp_riverwalk", floor: "1", unit: "101", residentID: "t1", leaseIDs: ["L1"],
                  tenants: ["Lee, Ann", "Lee, Bo"], residentStatus: "current",
                  rent: ["2026-10": .init(status: .paid, billedCents: 140_000, paidCents: 140_000, balanceCents: 0,
                                          dueDate: "2026-10-01"),
                         "2026-11": .init(status: .overdue, billedCents: 140_000, paidCents: 50_000,
                                          balanceCents: 90_000, dueDate: "2026-11-01")],
                  utilities: ["2026-11": .init(status: .pending, billedCents: 4_050, paidCents: 0, balanceCents: 4_050,
                                               dueDate: "2026-11-25")]),
            .init(property: "yp_riverwalk", floor: "2", unit: "201", residentID: "t2", leaseIDs: [],
                  tenants: ["O'Neil <Kim> & Co"], residentStatus: "current", rent: [:], utilities: [:]),
        ],
        noLedger: ["nexus_east"], asOf: ["yp_riverwalk": "2026-11-20"])

    @Test func everyCellIsABadgeWithItsFiguresAndThePageIsSelfContainedXML() throws {
        let html = LeaseStatusPage.render(Self.report, generatedAt: "2026-11-22 14:00")
        // Well-formed (a strict parser reads it), data escaped, nothing fetched from anywhere.
        _ = try XMLDocument(bytes: Array(html.dropFirst("<!DOCTYPE html>\n".count).utf8))
        #expect(html.contains("O&#39;Neil &lt;Kim&gt; &amp; Co") || html.contains("O'Neil &lt;Kim&gt; &amp; Co"))
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"))
        #expect(html.contains(#"<span class="badge overdue" title="Rent: billed $1,400.00, paid $500.00, due 2026-11-01, balance $900.00">R OVERDUE</span>"#))
        #expect(html.contains(#"<span class="badge pending" title="Utilities: billed $40.50, paid $0.00, due 2026-11-25, balance $40.50">U PENDING</span>"#))
        #expect(html.contains(#"<span class="badge paid" title="Rent: billed $1,400.00, paid $1,400.00, due 2026-10-01, balance $0.00">R PAID</span>"#))
        #expect(html.contains("Floor 1") && html.contains("Floor 2"))
        #expect(html.contains("Lee, Ann; Lee, Bo"))
        #expect(html.contains("No tenant ledger synced (not shown as zeros): nexus_east"))
        #expect(html.contains("@media print"))
    }

    /// Units whose floor the PMS does not send are grouped under the reason, never a bare "not recorded".
    @Test func unitsWithoutAFloorAreHeadedWithTheReason() throws {
        var report = Self.report
        report.lines[1].floor = nil
        report.floorNotes = ["yp_riverwalk": "Yardi sends no floor: GetUnitInformation names the unit type"]
        let html = LeaseStatusPage.render(report, generatedAt: "2026-11-22 14:00")
        #expect(html.contains("Floor 1"))
        #expect(html.contains("Floor not known: Yardi sends no floor: GetUnitInformation names the unit type"))
        #expect(!html.contains("Floor not recorded"))
    }

    /// A ledger windows have brought past its last whole pull is named with that pull's date under the grid.
    @Test func aLedgerBroughtForwardByWindowsIsNamedWithItsWholePull() throws {
        var report = Self.report
        #expect(!LeaseStatusPage.render(report, generatedAt: "2026-11-22 14:00").contains("pulled whole"))
        report.ledgerWholeAsOf = ["yp_riverwalk": LedgerWholeAsOf(asOf: "2026-11-20", wholeAsOf: "2026-11-16")]
        let html = LeaseStatusPage.render(report, generatedAt: "2026-11-22 14:00")
        #expect(html.contains("Ledgers last pulled whole on an earlier night: yp_riverwalk (2026-11-16): a posting entered since"))
    }

    @Test func dollarsAreGroupedWithCents() {
        #expect(LeaseStatusPage.dollars(123_456_789) == "$1,234,567.89")
        #expect(LeaseStatusPage.dollars(5) == "$0.05")
        #expect(LeaseStatusPage.dollars(-12_500) == "-$125.00")
    }
}

@Suite struct PaymentStatusColorTests {
    /// The spec's colours: green PAID, blue PARTIAL, yellow PENDING, red OVERDUE, told apart by which channel leads.
    @Test func eachStatusHasTheSpecsHue() throws {
        func channels(_ status: PaymentStatus) -> (red: Int, green: Int, blue: Int) {
            let hex = status.badgeColor.dropFirst()
            let value = Int(hex, radix: 16) ?? 0
            return (value >> 16, (value >> 8) & 0xFF, value & 0xFF)
        }
        let paid = channels(.paid), partial = channels(.partial)
        let pending = channels(.pending), overdue = channels(.overdue)
        #expect(paid.green > paid.red && paid.green > paid.blue, "PAID is green")
        #expect(partial.blue > partial.red && partial.blue > partial.green, "PARTIAL is blue")
        #expect(pending.red > pending.blue + 40 && pending.green > pending.blue + 40, "PENDING is yellow")
        #expect(overdue.red > overdue.green + 40 && overdue.red > overdue.blue + 40, "OVERDUE is red")
    }
}
