import Foundation
import OwnerDashCore
import RawStore
import SQLiteKit
@testable import Sync
import Testing

/// Yardi's recurring charges (YardiLedger.insertRecurring) over a history of lease-charge statements, prune, and the
/// table kept while its statements are unchanged (InputMarks).
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

    /// While the lease-charge statements are as the last sync read them, an incremental sync keeps the recurring
    /// charges as unified.db holds them (the rule is skipped: a row changed by hand stays); a new statement line runs
    /// the rule again; `sync --full` always runs it and names the row the kept table held that differs from its rebuild.
    @Test func theRecurringChargesAreKeptWhileTheirStatementsAreUnchanged() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        func charge(_ lease: String, _ amount: Double) throws {
            try yardi.insert("yardi_lease_charges", [
                "tenant_code": .text("t-" + lease), "unit_code": .text("101"), "lease_id": .text(lease),
                "charge_code": .text("RENT"), "amount": .real(amount), "service_from_date": .text("2026-06-01"),
            ], asOf: "2026-11-01")
        }
        let recurring = "SELECT lease_id, amount FROM unified_recurring_charges ORDER BY 1"
        let database = yardi.store.database
        func tamper() throws { try database.execute("UPDATE unified_recurring_charges SET amount = 1 WHERE lease_id = 'L1'") }
        try charge("L1", 1200)
        #expect(yardi.sync().first?.error == nil)
        #expect(try yardi.rows(recurring) == [[.text("L1"), .real(1200)]])
        #expect(try yardi.rows("SELECT unified_property_id, table_name FROM sync_input_marks")
                == [[.text(YardiFixture.property.key), .text("unified_recurring_charges")]])

        // Each write of a mark counted: a sync that finds the marks it would write writes none.
        try database.execute("""
            CREATE TEMP TABLE mark_writes (table_name TEXT);
            CREATE TEMP TRIGGER mark_written AFTER INSERT ON main.sync_input_marks
            BEGIN INSERT INTO mark_writes VALUES (new.table_name); END;
            """)
        try tamper()
        #expect(yardi.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try yardi.rows(recurring) == [[.text("L1"), .real(1)]], "the statements are unchanged: the rule did not run")
        #expect(try yardi.rows("SELECT count(*) FROM temp.mark_writes") == [[.integer(0)]], "the mark is tonight's already")

        try charge("L2", 950)
        #expect(yardi.sync(runID: "20261122T000000Z-test").first?.error == nil)
        #expect(try yardi.rows(recurring) == [[.text("L1"), .real(1200)], [.text("L2"), .real(950)]],
                "a new line: the rule ran and its rows were written")
        #expect(try yardi.rows("SELECT table_name FROM temp.mark_writes") == [[.text("unified_recurring_charges")]],
                "the new inputs are recorded")

        try tamper()
        let full = try #require(Synchronizer(store: yardi.store, runID: "20261123T000000Z-test", mode: .full)
            .sync([YardiFixture.property], log: Diagnostics(sink: { _ in })).first)
        #expect(full.error == nil)
        #expect(full.warnings.filter { $0.check == "sync_drift" }.map(\.subject).contains { $0.hasPrefix("unified_recurring_charges") })
        #expect(try yardi.rows(recurring) == [[.text("L1"), .real(1200)], [.text("L2"), .real(950)]])
    }

    /// A line without a LeaseID takes its tenant's lease from the resident list, so a changed list runs the rule again
    /// (a property whose every line has a LeaseID keeps its recurring charges whatever the list does).
    @Test func aLineWithoutALeaseIDFollowsTheResidentList() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.resident("t9", "Current", unit: "101")
        try chargeWithoutLease(yardi)
        #expect(yardi.sync().first?.error == nil)
        let recurring = "SELECT lease_id, resident_id FROM unified_recurring_charges"
        #expect(try yardi.rows(recurring) == [[.text("t9"), .text("t9")]], "no lease listed: the tenant code stands for it")
        // The list loaded again for the same day, now naming the lease.
        try reloadResidents(yardi) { try yardi.resident("t9", "Current", unit: "101", leaseID: "L9") }
        #expect(yardi.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try yardi.rows(recurring) == [[.text("L9"), .text("t9")]])
    }

    /// The resident list changes every night (a rent, a household moving in) while the lease it names for a tenant
    /// whose lines carry no LeaseID stays: the recurring charges are kept as unified.db holds them (the rule not run:
    /// a row changed by hand stays), as at a property whose every line has a LeaseID.
    @Test func aLineWithoutALeaseIDKeepsItsChargesWhileTheListNamesTheSameLease() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.resident("t9", "Current", unit: "101", leaseID: "L9")
        try chargeWithoutLease(yardi)
        #expect(yardi.sync().first?.error == nil)
        let recurring = "SELECT lease_id, resident_id, amount FROM unified_recurring_charges"
        #expect(try yardi.rows(recurring) == [[.text("L9"), .text("t9"), .real(1100)]])
        // The list loaded again: t9's rent changed and a household moved in ahead of it; t9's lease is L9 still.
        try reloadResidents(yardi) {
            try yardi.resident("t8", "Current", unit: "102", leaseID: "L8")
            try yardi.resident("t9", "Current", unit: "101", rent: 1500, leaseID: "L9")
        }
        try yardi.store.database.execute("UPDATE unified_recurring_charges SET amount = 1")
        #expect(yardi.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try yardi.rows(recurring) == [[.text("L9"), .text("t9"), .real(1)]], "the same lease: the rule did not run")
    }

    /// t9's rent in the November statement, without a LeaseID (Yardi's own sample sends none).
    private func chargeWithoutLease(_ yardi: YardiFixture) throws {
        try yardi.insert("yardi_lease_charges", [
            "tenant_code": .text("t9"), "unit_code": .text("101"), "charge_code": .text("RENT"), "amount": .real(1100),
            "service_from_date": .text("2026-06-01"),
        ], asOf: "2026-11-01")
    }

    /// The resident list loaded again for the same day, as the loader does (a new load of the snapshot): its rows
    /// those `residents` inserts.
    private func reloadResidents(_ yardi: YardiFixture, _ residents: () throws -> Void) throws {
        try yardi.raw.database.execute("DELETE FROM yardi_residents")
        try residents()
        try yardi.raw.database.execute("""
            UPDATE loaded_artifacts SET run_id = 'run2', artifact_sha256 = 'sha2' WHERE operation = 'GetResidentsByStatus'
            """)
    }
}
