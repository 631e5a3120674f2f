import Foundation
import OwnerDashCore
import SQLiteKit
import Sync

/// Properties synced side by side (`ownerdash sync --parallel N`): each worker a `Synchronizer` on its own unified.db
/// connection, computing a property's rows apart and writing them in its turn (`WriteTurns`), with what follows each
/// property's sync (its publication, its run item) written in the same turn.
///
/// A connection is one thread's: each of the pool's threads uses the synchronizer of its own number. With one worker
/// the synchronizer uses the caller's connection and no turns: a property in one transaction, one after the other, as
/// before there were workers.
final class SyncWorkers: @unchecked Sendable {
    /// A step after a property's sync that failed (its run item could not be written): the run stops there.
    struct Failure: Error {
        let error: any Error
        /// The properties synced before it stopped.
        let outcomes: [PropertySyncOutcome]
    }

    private let synchronizers: [(Synchronizer, Database)]
    private let turns: WriteTurns?
    /// Each worker's connection: the first is the caller's store when one worker syncs alone.
    private let stores: [UnifiedStore]

    /// `width` workers (at least one); `make` builds each one's synchronizer over its store, sharing the turns.
    init(store: UnifiedStore, dataDirectory: DataDirectory, width: Int,
         make: (UnifiedStore, WriteTurns?) -> Synchronizer) throws {
        let count = max(1, width)
        let turns = count > 1 ? WriteTurns() : nil
        let stores = try (0..<count).map { _ in turns == nil ? store : try UnifiedStore(dataDirectory: dataDirectory) }
        self.turns = turns
        self.stores = stores
        synchronizers = stores.map { (make($0, turns), $0.database) }
    }

    /// Syncs `properties` and runs `after` on each outcome, in the property's writing turn, with the connection that
    /// wrote it; returns the outcomes in the order of `properties`. Throws `Failure` when an `after` throws.
    func sync(_ properties: [Property], log: Diagnostics,
              after: @escaping (inout PropertySyncOutcome, Database) throws -> Void) throws -> [PropertySyncOutcome] {
        let results = Locked([PropertySyncOutcome?](repeating: nil, count: properties.count))
        let failure = Locked<(any Error)?>(nil)
        let turn = turns ?? WriteTurns()
        let after = InTurn(body: after)
        WorkerPool.run(items: properties.count, width: synchronizers.count) { [self] index, worker in
            guard failure.withLock({ $0 == nil }) else { return }
            let (synchronizer, database) = synchronizers[worker]
            guard var outcome = synchronizer.sync([properties[index]], log: log).first else { return }
            do {
                try turn.take { try after.body(&outcome, database) }
                results.withLock { $0[index] = outcome }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        // The synchronizers keep their TEMP twins from one property to the next (`keepsTwins`); the caller's store
        // reads main's tables again after.
        for store in stores { Synchronizer.dropTwins(store) }
        let outcomes = results.withLock { $0.compactMap { $0 } }
        if let error = failure.withLock({ $0 }) { throw Failure(error: error, outcomes: outcomes) }
        return outcomes
    }

    /// What follows a property's sync: called in turn, never by two workers at once, so it need not be Sendable.
    private struct InTurn: @unchecked Sendable {
        let body: (inout PropertySyncOutcome, Database) throws -> Void
    }
}
