import Foundation
import OwnerDashCore
import RawStore
import SQLiteKit
@testable import Sync
import Testing

/// Yardi's households summed by change (YardiHouseholds): an incremental sync sums again only the households of a
/// transaction written since the last sync, keeps the others' sums, and sums every household when one lost a
/// transaction; a full sync rebuilds and names what differs.
@Suite struct YardiHouseholdsTests {
    static let balances = "SELECT resident_id, balance FROM unified_residents ORDER BY 1"
    static let sums = "SELECT tenant_code, transactions, window_cents FROM sync_yardi_households ORDER BY 1"

    /// Three households, each charged rent; t1 and t3 paid part of theirs. Synced once.
    static func synced() throws -> YardiFixture {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        for (tenant, unit) in [("t1", "101"), ("t2", "102"), ("t3", "103")] {
            try yardi.unit(unit, "Occupied No Notice", tenant: tenant)
            try yardi.resident(tenant, "Current", unit: unit)
            try yardi.charge(tenant, "2026-11-01", 1000, unit: unit)
        }
        try yardi.payment("t1", "2026-11-03", 400)
        try yardi.payment("t3", "2026-11-04", 250)
        #expect(yardi.sync().first?.error == nil)
        return yardi
    }

    /// A full sync of the same raw data: the drift it names (table and key), and every error.
    static func fullSyncDrift(_ yardi: YardiFixture, runID: String) throws -> [String] {
        let full = try #require(Synchronizer(store: yardi.store, runID: runID, mode: .full)
            .sync([YardiFixture.property], log: Diagnostics(sink: { _ in })).first)
        #expect(full.error == nil)
        return full.warnings.filter { $0.check == "sync_drift" }.map(\.subject)
    }

    @Test func aNightSumsAgainOnlyTheHouseholdsOfATransactionWrittenSince() throws {
        let yardi = try Self.synced()
        #expect(try yardi.rows(Self.sums) == [
            [.text("t1"), .integer(2), .integer(60000)], [.text("t2"), .integer(1), .integer(100000)],
            [.text("t3"), .integer(2), .integer(75000)]])
        #expect(try yardi.rows("SELECT count(*) FROM sync_household_sum_marks") == [[.integer(1)]])

        // t2's kept sums altered behind the sync's back: a night that does not sum t2 again keeps them.
        try yardi.store.database.execute("UPDATE sync_yardi_households SET window_cents = 1 WHERE tenant_code = 't2'")
        // A payment of t1's loaded the next night (a newer lineage).
        try yardi.payment("t1", "2026-11-20", 100, asOf: "2026-11-21")
        #expect(yardi.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try yardi.rows(Self.balances) == [[.text("t1"), .real(500)], [.text("t2"), .real(0.01)],
                                                   [.text("t3"), .real(750)]],
                "t1 summed again with its new payment, t2 as kept")
        #expect(try yardi.rows(Self.sums).first == [.text("t1"), .integer(3), .integer(50000)])

        // The full sync sums every household, and names the balance the kept sums had left wrong.
        #expect(try Self.fullSyncDrift(yardi, runID: "20261122T000000Z-test").contains { $0.hasPrefix("unified_residents") })
        #expect(try yardi.rows(Self.balances) == [[.text("t1"), .real(500)], [.text("t2"), .real(1000)],
                                                   [.text("t3"), .real(750)]])
        #expect(try yardi.rows(Self.sums)[1] == [.text("t2"), .integer(1), .integer(100000)])
    }

    @Test func aHouseholdThatLostATransactionIsSummedAgain() throws {
        let yardi = try Self.synced()
        let lineage = try RawLineage.id(yardi.raw.database, runID: "run2", propertyID: YardiFixture.property.key,
                                        asOf: "2026-11-21", artifact: "landing/run2/yardi/ledger.xml", sha256: "sha2")
        // t3's payment now t2's (rewritten with the load's lineage): t3, not written since, lost it.
        try yardi.raw.database.prepare("""
            UPDATE yardi_transactions SET tenant_code = 't2', lineage_id = :lineage WHERE tenant_code = 't3' AND kind = 'payment'
            """).execute([":lineage": .integer(lineage)])
        #expect(yardi.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try yardi.rows(Self.balances) == [[.text("t1"), .real(600)], [.text("t2"), .real(750)],
                                                   [.text("t3"), .real(1000)]])
        // t1's payment gone from the ledger (the merge deletes it).
        try yardi.raw.database.execute("DELETE FROM yardi_transactions WHERE tenant_code = 't1' AND kind = 'payment'")
        #expect(yardi.sync(runID: "20261122T000000Z-test").first?.error == nil)
        #expect(try yardi.rows(Self.balances) == [[.text("t1"), .real(1000)], [.text("t2"), .real(750)],
                                                   [.text("t3"), .real(1000)]])
        #expect(try Self.fullSyncDrift(yardi, runID: "20261123T000000Z-test").isEmpty)
    }

    @Test func theOpenChargesAreReadOffTheirIndexAlone() throws {
        let yardi = try Self.synced()
        let plan = try yardi.rows("EXPLAIN QUERY PLAN \(YardiHouseholds.openCharges)").compactMap { $0.last?.textValue }
        #expect(plan == ["SEARCH yardi_raw.yardi_transactions USING COVERING INDEX yardi_transactions_open_charges (property_id=? AND tenant_code>?)"])
    }
}
