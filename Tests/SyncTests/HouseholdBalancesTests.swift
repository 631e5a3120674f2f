import OwnerDashCore
import SQLiteKit
import Testing
@testable import Sync

/// The household balances summed again only for the households that can have moved (LedgerDelta.rebalance): those
/// whose postings the night changed, and those with a posting the property date reached since the last sync. Every
/// other household's row is the last sync's; each night is checked against a full rebuild.
@Suite struct HouseholdBalancesTests {
    /// t1, t2 and t3 live in 101-103; t2's November rent is charged ahead, dated the 22nd.
    static func fixture() throws -> YardiFixture {
        let yardi = try YardiFixture()
        try units(yardi, asOf: YardiFixture.asOf)
        try yardi.loadedEverything()
        try yardi.charge("t1", "2026-11-01", 1400, paid: 1400, unit: "101")
        try yardi.payment("t1", "2026-11-01", 1400)
        try yardi.charge("t2", "2026-11-22", 1300, unit: "102")
        try yardi.charge("t3", "2026-11-01", 1200, unit: "103")
        return yardi
    }

    /// The three units and their residents as a GetUnitInformation / GetResidentsByStatus snapshot of `asOf`.
    static func units(_ yardi: YardiFixture, asOf: String) throws {
        for (unit, tenant) in [("101", "t1"), ("102", "t2"), ("103", "t3")] {
            try yardi.unit(unit, "Occupied No Notice", tenant: tenant, asOf: asOf)
            try yardi.resident(tenant, "Current", unit: unit, moveIn: "2025-06-01", asOf: asOf)
        }
    }

    static func balances(_ yardi: YardiFixture) throws -> [String: Double] {
        try yardi.keyed("SELECT resident_id, balance FROM unified_household_balances ORDER BY 1")
            .mapValues { $0[0].doubleValue ?? .nan }
    }

    /// The rows a full rebuild (`sync --full`) finds different from what the nights left: none.
    static func drift(_ yardi: YardiFixture, runID: String) throws -> [String] {
        let outcome = try #require(Synchronizer(store: yardi.store, runID: runID, mode: .full)
            .sync([YardiFixture.property], log: Diagnostics(sink: { _ in })).first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        return outcome.warnings.filter { $0.check == "sync_drift" }.map(\.message)
    }

    @Test func aChargeDatedAheadCountsOnTheNightTheDateReachesItWithoutAnyLedgerChange() throws {
        let yardi = try Self.fixture()
        yardi.sync()
        #expect(try Self.balances(yardi) == ["t1": 0, "t3": 1200], "t2's charge is dated after the 20th")
        // Three days on: the same ledger (no row written since the mark), a new unit snapshot moves the date.
        try Self.units(yardi, asOf: "2026-11-23")
        try yardi.loadedEverything(asOf: "2026-11-23")
        let night = try #require(yardi.sync(runID: "20261123T000000Z-test").first)
        #expect(night.error == nil, "\(night.error ?? "")")
        #expect(try yardi.rows("SELECT count(*) FROM ledger_sync_marks") == [[.integer(1)]], "the ledger was synced by change")
        #expect(try Self.balances(yardi) == ["t1": 0, "t2": 1300, "t3": 1200])
        #expect(night.changes["unified_household_balances"] == RowChanges(deleted: 0, inserted: 1), "only t2's row is new")
        #expect(try Self.drift(yardi, runID: "20261123T010000Z-full").isEmpty)
    }

    @Test func aLatePostingMovesItsHouseholdAndARemovedChargeItsOwnTheOthersAreKept() throws {
        let yardi = try Self.fixture()
        yardi.sync()
        // The 21st: t3's payment of 200 dated the 19th shows up only now (before the date the last sync summed to, so
        // only the rewrite finds it), and t1's charge of the 1st is gone from the vendor's ledger (the merge deletes it).
        try Self.units(yardi, asOf: "2026-11-21")
        try yardi.loadedEverything(asOf: "2026-11-21")
        try yardi.payment("t3", "2026-11-19", 200, asOf: "2026-11-21")
        try yardi.raw.database.execute("DELETE FROM yardi_transactions WHERE tenant_code = 't1' AND kind = 'charge'")
        let night = try #require(yardi.sync(runID: "20261121T000000Z-test").first)
        #expect(night.error == nil, "\(night.error ?? "")")
        #expect(try Self.balances(yardi) == ["t1": -1400, "t3": 1000])
        #expect(night.changes["unified_household_balances"] == RowChanges(deleted: 2, inserted: 2))
        #expect(try Self.drift(yardi, runID: "20261121T010000Z-full").isEmpty)
    }
}
