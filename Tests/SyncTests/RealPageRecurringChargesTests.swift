import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// RealPage's recurring charges from getscheduledcharges (RealPageLedger.insertRecurring), kept while the schedule it
/// reads is unchanged (InputMarks, RealPageLedger.recurringInputs).
@Suite struct RealPageRecurringChargesTests {
    /// A site with the RPX ledger and a schedule of L1's rent, as of `asOf`.
    static func site() throws -> RealPageFixture {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.loaded("getresidentledger")
        try realpage.unit("101", .occupied)
        try realpage.resident(household: "H1", unit: "101", status: "Current", lease: "L1", first: "Ann", last: "Lee",
                              moveIn: "2025-03-01")
        try realpage.lease("L1", household: "H1", unit: "101", begin: "2026-03-01", end: "2027-02-28", rent: 1400)
        try schedule(realpage, lease: "L1", 1400)
        return realpage
    }

    /// A scheduled rent of `lease` in the getscheduledcharges snapshot as of `asOf`.
    static func schedule(_ realpage: RealPageFixture, lease: String, _ amount: Double,
                         asOf: String = RealPageFixture.asOf) throws {
        try realpage.insert("realpage_scheduled_charges", [
            "resh_id": .text("H1"), "lease_id": .text(lease), "unit_number": .text("101"), "transaction_code": .text("RENT"),
            "amount": .real(amount), "start_date": .text("2026-03-01"),
        ], asOf: asOf)
        try realpage.loaded("getscheduledcharges", asOf: asOf)
    }

    static let recurring = "SELECT lease_id, amount FROM unified_recurring_charges ORDER BY 1"

    /// While the schedule is the one the last sync read, an incremental sync keeps the recurring charges as unified.db
    /// holds them (the rule is skipped: a row changed by hand stays); a new schedule runs the rule again; `sync --full`
    /// always runs it and names the row the kept table held that differs from its rebuild.
    @Test func theRecurringChargesAreKeptWhileTheScheduleIsUnchanged() throws {
        let realpage = try Self.site()
        let database = realpage.store.database
        func tamper() throws { try database.execute("UPDATE unified_recurring_charges SET amount = 1 WHERE lease_id = 'L1'") }
        #expect(realpage.sync().first?.error == nil)
        #expect(try realpage.rows(Self.recurring) == [[.text("L1"), .real(1400)]])
        #expect(try realpage.rows("SELECT table_name FROM sync_input_marks") == [[.text("unified_recurring_charges")]])

        try tamper()
        #expect(realpage.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try realpage.rows(Self.recurring) == [[.text("L1"), .real(1)]], "the schedule is unchanged: the rule did not run")

        // The next day's schedule raises the rent.
        let next = "2026-11-21"
        try realpage.loadedEverything(asOf: next)
        try realpage.loaded("getresidentledger", asOf: next)
        try Self.schedule(realpage, lease: "L1", 1450, asOf: next)
        #expect(realpage.sync(runID: "20261121T010000Z-test").first?.error == nil)
        #expect(try realpage.rows(Self.recurring) == [[.text("L1"), .real(1450)]], "a new schedule: the rule ran")

        try tamper()
        let full = try #require(Synchronizer(store: realpage.store, runID: "20261122T000000Z-test", mode: .full)
            .sync([RealPageFixture.property], log: Diagnostics(sink: { _ in })).first)
        #expect(full.error == nil)
        #expect(full.warnings.filter { $0.check == "sync_drift" }.map(\.subject).contains { $0.hasPrefix("unified_recurring_charges") })
        #expect(try realpage.rows(Self.recurring) == [[.text("L1"), .real(1450)]])
    }

    /// The same snapshot loaded again (a reload after a decoder fix) runs the rule, even where its rows take the row
    /// ids of the ones they replace.
    @Test func aReloadedScheduleRunsTheRule() throws {
        let realpage = try Self.site()
        #expect(realpage.sync().first?.error == nil)
        try realpage.raw.database.execute("""
            UPDATE realpage_scheduled_charges SET amount = 1500;
            UPDATE loaded_artifacts SET loaded_at = '2099-01-01T00:00:00Z' WHERE report_type = 'getscheduledcharges';
            """)
        #expect(realpage.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try realpage.rows(Self.recurring) == [[.text("L1"), .real(1500)]])
    }

    /// A night without the RPX ledger (its license refused) takes the schedule from the Rent Roll and leaves no mark:
    /// when the ledger comes back with the very schedule the first night read, the rule runs again rather than keep
    /// the Rent Roll's rows.
    @Test func aNightWithoutTheLedgerLeavesNoMarkToKeepItsRowsBy() throws {
        let realpage = try Self.site()
        #expect(realpage.sync().first?.error == nil)
        #expect(try realpage.rows(Self.recurring) == [[.text("L1"), .real(1400)]])
        // The next night neither the ledger nor the schedule: the schedule comes from the Rent Roll's codes.
        let raw = realpage.raw.database
        try raw.execute("""
            CREATE TEMP TABLE refused AS SELECT * FROM loaded_artifacts
            WHERE report_type IN ('getresidentledger', 'getscheduledcharges');
            DELETE FROM loaded_artifacts WHERE report_type IN ('getresidentledger', 'getscheduledcharges');
            """)
        try realpage.insert("realpage_rent_roll", ["unit_number": .text("101"), "status": .text("Occupied"),
                                                   "lease_start": .text("2026-03-01"), "lease_end": .text("2027-02-28")])
        try realpage.insert("realpage_rent_roll_charges", [
            "unit_number": .text("101"), "unit_row": .integer(1), "code": .text("RENT"), "lease_rent": .real(1399),
            "amount": .real(1399),
        ])
        try realpage.loaded("rent_roll")
        #expect(realpage.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try realpage.rows(Self.recurring) == [[.text("L1"), .real(1399)]])
        #expect(try realpage.rows("SELECT count(*) FROM sync_input_marks") == [[.integer(0)]])
        // Both back as the first night loaded them: the schedule's inputs are the first night's to the byte.
        try raw.execute("INSERT INTO loaded_artifacts SELECT * FROM temp.refused")
        #expect(realpage.sync(runID: "20261122T000000Z-test").first?.error == nil)
        #expect(try realpage.rows(Self.recurring) == [[.text("L1"), .real(1400)]])
    }
}
