import Foundation
import OwnerDashCore
import Sync

/// `ownerdash backfill --months N`: month-end occupancy for the N months before each property's first synced
/// snapshot, reconstructed from its resident history (`OccupancyHistory`), recorded as one run whose trigger is
/// `backfill` (the run kind the dashboard marks) with a sync item per property.
///
/// It needs the property's current data synced (an ingest first): the resident list every PMS hands out holds the
/// move-in, notice and move-out dates the months are rebuilt from. The move-in/move-out series and renewal rates
/// already reach back as far as that history (they are counted from the same dates), so they need no backfill.
public struct BackfillRun {
    public let dataDirectory: DataDirectory
    /// Where each backfilled property is published when the unified data lives on PostgreSQL; nil: unified.db only.
    public var publication: UnifiedPublication?
    /// This host's name, recorded in etl_runs.host (`OWNERDASH_HOST_NAME`, else the machine's).
    public var hostName = LockHolder.hostName()

    public init(dataDirectory: DataDirectory, publication: UnifiedPublication? = nil) {
        self.dataDirectory = dataDirectory
        self.publication = publication
    }

    /// Backfills each property under the data directory's lock; throws `IngestLockBusy` when another process
    /// holds it. A property that cannot be backfilled is a failed item naming why; the others go on.
    public func run(_ properties: [Property], months: Int, through: LocalDate?, commandLine: String,
                    log: Diagnostics) throws -> (runID: RunID, status: RunStatus, outcomes: [BackfillOutcome]) {
        let runID = RunID.new()
        try dataDirectory.create()
        let lock = try IngestLock.acquire(dataDirectory: dataDirectory, holder: LockHolder(command: "backfill", runID: runID.value, host: hostName))
        defer { lock.release() }
        let store = try UnifiedStore(dataDirectory: dataDirectory)
        _ = try IngestRun.takeOver(lock, database: store, runID: runID, log: log)
        let journal = try RunJournal(database: store.database, start: RunJournal.Start(
            runID: runID.value, trigger: "backfill", commandLine: commandLine, asOf: through,
            properties: properties.count, holder: lock.holder))
        let history = OccupancyHistory(store: store, runID: runID.value)
        var outcomes: [BackfillOutcome] = []
        do {
            for property in properties {
                let started = Date()
                var outcome: BackfillOutcome
                do {
                    outcome = try history.backfill(property, months: months, through: through)
                } catch {
                    outcome = BackfillOutcome(property: property.key, months: [], skipped: [], failure: "\(error)")
                }
                if outcome.failure == nil, let publication,
                   let failure = publication.publish(property.key, from: store.database) {
                    outcome.failure = failure
                }
                if let failure = outcome.failure {
                    log.error(property.key, "not backfilled: \(failure)")
                } else {
                    log.info(nil, "backfill: \(property.key) \(outcome.months.count) month end(s)"
                             + (outcome.months.first.map { " from \($0.iso) to \(outcome.months.last!.iso)" } ?? "")
                             + (outcome.skipped.isEmpty ? "" : ", \(outcome.skipped.count) left out"))
                    for reason in outcome.skipped { log.info(nil, "backfill: \(property.key) left out \(reason)") }
                }
                try journal.record(RunItem(stage: .sync, property: property.key, artifact: "occupancy_history",
                                           status: outcome.failure == nil ? .succeeded : .failed, rows: outcome.months.count,
                                           seconds: Date().timeIntervalSince(started), error: outcome.failure))
                outcomes.append(outcome)
            }
        } catch {
            try? journal.finish(status: .failed, warnings: 0)
            throw error
        }
        let failed = outcomes.filter { $0.failure != nil }.count
        let status: RunStatus = failed == 0 ? .succeeded : failed == outcomes.count ? .failed : .partial
        try journal.finish(status: status, warnings: 0)
        publication?.publishRun(runID, from: store.database, log: log)
        return (runID, status, outcomes)
    }
}
