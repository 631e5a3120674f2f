import Foundation
import RawStore
import SQLiteKit
@testable import Sync
import Testing

/// Yardi's recurring charges (YardiLedger.insertRecurring) over a history of lease-charge statements, and prune.
struct YardiLedgerTests {
    /// A charge is read from the latest post month listing it. Pruned, the rows of months the fetch no longer asks for
    /// (older than its 24-month window) go where a later such month lists the same charge (by lease, or by tenant
    /// without a lease id); a row only a month inside the window supersedes stays (that month is fetched again and
    /// may stop listing it), as does a charge no later month lists; the recurring charges are as before.
    @Test func pruningLeaseChargeMonthsPastTheWindowLeavesTheRecurringChargesAsTheyWere() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        func charge(_ month: String, lease: String?, tenant: String, code: String, from: String, _ amount: Double) throws {
            try yardi.insert("yardi_lease_charges", [
                "tenant_code": .text(tenant), "unit_code": .text("101"), "lease_id": lease.map { .text($0) } ?? .null,
                "charge_code": .text(code), "amount": .real(amount), "service_from_date": .text(from),
            ], asOf: month + "-01")
        }
        // Past the window (before 2024-12 for a newest month of 2026-11): September and October 2024.
        try charge("2024-09", lease: "L1", tenant: "t1", code: "RENT", from: "2024-01-01", 1000)
        try charge("2024-09", lease: "L2", tenant: "t2", code: "RENT", from: "2023-06-01", 900)   // listed no later
        try charge("2024-09", lease: nil, tenant: "t9", code: "PET", from: "2024-02-01", 25)
        try charge("2024-10", lease: "L1", tenant: "t1", code: "RENT", from: "2024-01-01", 1000)
        try charge("2024-10", lease: nil, tenant: "t9", code: "PET", from: "2024-02-01", 30)
        // Inside the window: January 2025 restates L1's rent; November 2026 is the newest statement.
        try charge("2025-01", lease: "L1", tenant: "t1", code: "RENT", from: "2024-01-01", 1050)
        try charge("2026-11", lease: "L3", tenant: "t3", code: "RENT", from: "2026-06-01", 1200)
        #expect(yardi.sync().first?.error == nil)
        let recurring = "SELECT lease_id, charge_code, start_date, amount FROM unified_recurring_charges ORDER BY 1, 2, 3"
        let before = try yardi.rows(recurring)
        #expect(before == [[.text("L1"), .text("RENT"), .text("2024-01-01"), .real(1050)],
                           [.text("L2"), .text("RENT"), .text("2023-06-01"), .real(900)],
                           [.text("L3"), .text("RENT"), .text("2026-06-01"), .real(1200)],
                           [.text("t9"), .text("PET"), .text("2024-02-01"), .real(30)]])

        let database = yardi.raw.database
        let result = try RawRetention.prune(path: database.path, keyColumn: "operation",
                                            policy: RawSnapshotPolicy(keepDays: 0, keepMonthly: 0), dryRun: false)
        #expect(result.rows == 2, "September's L1 rent and t9's pet fee, which October lists again")
        #expect(try database.query("""
            SELECT substr(as_of_date, 1, 7), coalesce(lease_id, tenant_code) FROM yardi_lease_charges ORDER BY 1, 2
            """) == [[.text("2024-09"), .text("L2")], [.text("2024-10"), .text("L1")], [.text("2024-10"), .text("t9")],
                     [.text("2025-01"), .text("L1")], [.text("2026-11"), .text("L3")]])
        #expect(yardi.sync().first?.error == nil)
        #expect(try yardi.rows(recurring) == before)
    }
}
