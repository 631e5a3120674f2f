import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// How a sync by change finds the charges and payments whose ledger row is gone since its mark (LedgerDelta): from
/// the raw log of the removals (RawStore's LedgerRemovals) when it lists every one since the mark, else by comparing
/// the stored rows with the ledger. Either way the rows are a full rebuild's.
@Suite struct LedgerDeltaTests {
    @Test func theRemovalsSinceTheMarkAreReadFromTheLogWhenItHoldsThemAll() throws {
        let yardi = try YardiHouseholdsTests.synced()
        let synchronizer = Synchronizer(store: yardi.store, runID: "20261121T000000Z-test")
        func delta() throws -> LedgerDelta? {
            try LedgerDelta.available(yardi.store.database, property: YardiFixture.property.key, ledger: .yardi,
                                      rules: synchronizer.ledgerRules)
        }
        #expect(try delta()?.removedSinceMark == false)
        // The merge deletes t1's and t3's payments: two removals, both logged.
        try yardi.raw.database.execute("DELETE FROM yardi_transactions WHERE kind = 'payment'")
        let logged = try #require(try delta())
        #expect(logged.removedSinceMark && logged.loggedRemovals == 1...2)
        // A log missing one of them (as after a mark older than the log keeps) is not read: the ledger is compared.
        try yardi.raw.database.execute("""
            CREATE TEMP TABLE first_removal AS SELECT * FROM ledger_removed_rows WHERE removal = 1;
            DELETE FROM ledger_removed_rows WHERE removal = 1;
            """)
        let compared = try #require(try delta())
        #expect(compared.removedSinceMark && compared.loggedRemovals == nil)
        try yardi.raw.database.execute("INSERT INTO ledger_removed_rows SELECT * FROM temp.first_removal")

        let outcome = try #require(synchronizer.sync([YardiFixture.property], log: Diagnostics(sink: { _ in })).first)
        #expect(outcome.error == nil)
        #expect(try yardi.rows("SELECT count(*) FROM unified_payments") == [[.integer(0)]], "both payments gone")
        #expect(try yardi.rows(YardiHouseholdsTests.balances) == [[.text("t1"), .real(1000)], [.text("t2"), .real(1000)],
                                                                  [.text("t3"), .real(1000)]])
        #expect(try YardiHouseholdsTests.fullSyncDrift(yardi, runID: "20261122T000000Z-test").isEmpty)
    }
}
