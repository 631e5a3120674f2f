import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// When a nightly ingest may leave a property's unified rows as they are (Synchronizer.upToDateRun): only while the
/// sync would read what the last one read.
@Suite struct SyncFingerprintTests {
    static let run = "20261120T000000Z-test"

    /// A synced Yardi property whose ledger answer wrote rows.
    func synced() throws -> YardiFixture {
        let fixture = try YardiFixture()
        try fixture.loadedEverything()
        try fixture.unit("101", "Occupied No Notice", tenant: "t1")
        try fixture.resident("t1", "Current", unit: "101")
        try fixture.charge("t1", "2026-11-01", 1400)
        try fixture.raw.database.execute("""
            UPDATE loaded_artifacts SET row_count = 1 WHERE operation = 'GetResidentTransactions_Login'
            """)
        #expect(fixture.sync().first?.error == nil)
        return fixture
    }

    func artifact(_ fixture: YardiFixture, _ operation: String, asOf: String = YardiFixture.asOf, rows: Int) throws {
        try fixture.raw.database.prepare("""
            INSERT INTO loaded_artifacts (operation, property_id, as_of_date, artifact, artifact_sha256, run_id, row_count)
            VALUES (:operation, :property, :as_of, 'landing/again.xml', 'sha-again', 'run-again', :rows)
            """).execute([":operation": .text(operation), ":property": .text(YardiFixture.property.key), ":as_of": .text(asOf),
                          ":rows": .integer(Int64(rows))])
    }

    func upToDate(_ fixture: YardiFixture, _ synchronizer: Synchronizer? = nil) throws -> String? {
        try (synchronizer ?? Synchronizer(store: fixture.store, runID: "next")).upToDateRun(YardiFixture.property)
    }

    @Test func nothingLoadedSinceTheSyncIsUpToDate() throws {
        let fixture = try synced()
        #expect(try upToDate(fixture) == Self.run)
    }

    @Test func aLedgerWindowThatMergedWithoutAChangeDatedNoLaterIsUpToDate() throws {
        let fixture = try synced()
        try artifact(fixture, "GetResidentTransactions_ByChargeDate_Login", rows: 0)
        #expect(try upToDate(fixture) == Self.run, "the same night's window, every transaction as stored")
    }

    @Test func aLedgerWindowDatedLaterOrOneThatWroteRowsIsNot() throws {
        let later = try synced()
        try artifact(later, "GetResidentTransactions_ByChargeDate_Login", asOf: "2026-11-21", rows: 0)
        #expect(try upToDate(later) == nil, "it moves the ledger's date")
        let wrote = try synced()
        try artifact(wrote, "GetResidentTransactions_ByChargeDate_Login", rows: 2)
        #expect(try upToDate(wrote) == nil)
    }

    /// The same ledger answer loaded again in other bytes over its own date (the night run twice, a retry) that
    /// changes nothing leaves the property up to date: its date's record stays the first load's (RawStore's
    /// `LedgerLoad`), where a record of no rows written over it renewed the raw-state token, and a night run again
    /// synced every property again to change no row. The same answer with a posting changed is not.
    @Test func aLedgerAnswerLoadedAgainWithoutAChangeIsUpToDate() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        func load(_ xml: String, run: String) throws { try RealPageLedgerWindowTests.load(xml, into: realpage, run: run) }
        func upToDate() throws -> String? {
            try Synchronizer(store: realpage.store, runID: "next").upToDateRun(RealPageFixture.property)
        }
        func recordedRun() throws -> SQLValue? {
            try realpage.raw.database.scalar("SELECT run_id FROM loaded_artifacts WHERE report_type = 'getresidentledger'")
        }
        try load(RealPageLedgerWindowTests.windowPassed, run: "run1")
        #expect(realpage.sync().first?.error == nil)
        #expect(try upToDate() == Self.run)

        try load(RealPageLedgerWindowTests.windowPassed + "\n", run: "run2")
        #expect(try upToDate() == Self.run, "the answer again, every transaction as stored")
        #expect(try recordedRun() == .text("run1"))

        let corrected = RealPageLedgerWindowTests.windowPassed
            .replacingOccurrences(of: "<Amount>900.00</Amount>", with: "<Amount>950.00</Amount>")
        #expect(corrected != RealPageLedgerWindowTests.windowPassed)
        try load(corrected, run: "run3")
        #expect(try upToDate() == nil, "a posting corrected")
        #expect(try recordedRun() == .text("run3"))
    }

    @Test func aRemovalLoggedInTheChangeLogIsNot() throws {
        let fixture = try synced()
        try artifact(fixture, "GetResidentTransactions_ByChargeDate_Login", rows: 0)
        let lineage = try #require(try fixture.raw.database.scalar("SELECT min(id) FROM raw_lineage")?.integerValue)
        try fixture.raw.database.execute("""
            INSERT INTO yardi_transaction_changes (lineage_id, property_id, kind, transaction_id, change, found_by, as_of_date,
                                                   old_amount, detail)
            VALUES (\(lineage), 'yp_test', 'charge', 'c9', 'removed', 'window', '2026-11-20', 50, 'gone')
            """)
        #expect(try upToDate(fixture) == nil)
    }

    @Test func aSnapshotLoadedAgainAnEmptyReportOrANewConfigurationIsNot() throws {
        let reloaded = try synced()
        try reloaded.raw.database.execute("UPDATE loaded_artifacts SET artifact_sha256 = 'other' WHERE operation = 'GetUnitInformation'")
        #expect(try upToDate(reloaded) == nil)
        let empty = try synced()
        try artifact(empty, "GetServiceRequest_Search", asOf: "2026-11-19", rows: 0)
        #expect(try upToDate(empty) == nil, "only a ledger answer that changed nothing is passed over")
        let configured = try synced()
        let categories = try ChargeCategories(overrides: ["rent": ["BASERENT"]])
        #expect(try upToDate(configured, Synchronizer(store: configured.store, runID: "next", chargeCategories: categories)) == nil)
    }

    /// The ingest asks `upToDateRun`, then syncs with the same synchronizer, which takes the fingerprint the question
    /// worked out; a load between the two (another connection writing the raw database) makes the sync work it out
    /// again, so the fingerprint it stores is that of what it read: asked afterwards, the property is up to date.
    @Test func aLoadBetweenTheQuestionAndTheSyncIsFingerprintedAgain() throws {
        let fixture = try synced()
        try artifact(fixture, "GetServiceRequest_Search", asOf: "2026-11-19", rows: 0)
        let synchronizer = Synchronizer(store: fixture.store, runID: "next")
        #expect(try synchronizer.upToDateRun(YardiFixture.property) == nil)
        try fixture.raw.database.execute("UPDATE loaded_artifacts SET artifact_sha256 = 'later' WHERE operation = 'GetUnitInformation'")
        #expect(synchronizer.sync([YardiFixture.property], log: Diagnostics(sink: { _ in })).first?.error == nil)
        #expect(try upToDate(fixture) == "next", "the sync stored the fingerprint of the raw state it read")
    }

    /// A raw database not loaded into since the token came (no `raw_state_tokens`): its artifact rows are digested
    /// themselves, by the same rule (a ledger window that wrote nothing, dated no later, passed over).
    @Test func aRawDatabaseWithoutTheTokenIsFingerprintedByItsRows() throws {
        func withoutToken() throws -> YardiFixture {
            let fixture = try YardiFixture()
            try fixture.raw.database.execute("""
                DROP TRIGGER loaded_artifacts_added; DROP TRIGGER loaded_artifacts_changed;
                DROP TRIGGER loaded_artifacts_removed; DROP TABLE raw_state_tokens;
                """)
            try fixture.loadedEverything()
            try fixture.unit("101", "Occupied No Notice", tenant: "t1")
            try fixture.resident("t1", "Current", unit: "101")
            try fixture.raw.database.execute("UPDATE loaded_artifacts SET row_count = 1 WHERE operation = 'GetResidentTransactions_Login'")
            #expect(fixture.sync().first?.error == nil)
            #expect(try upToDate(fixture) == Self.run)
            return fixture
        }
        let quiet = try withoutToken()
        try artifact(quiet, "GetResidentTransactions_ByChargeDate_Login", rows: 0)
        #expect(try upToDate(quiet) == Self.run)
        let loaded = try withoutToken()
        try artifact(loaded, "GetServiceRequest_Search", asOf: "2026-11-19", rows: 0)
        #expect(try upToDate(loaded) == nil)
    }
}
