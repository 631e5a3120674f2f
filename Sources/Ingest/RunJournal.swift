import Foundation
import OwnerDashCore
import SQLiteKit

/// Writes one run into unified.db's etl_runs / etl_run_items as it goes.
///
/// The run row is inserted at the start with status `running` and each item as soon as it ends (each in its own
/// short transaction), so a run killed half-way still shows what it did; `finish` stamps the end, the status and
/// the counts (computed from the items, so they always agree with them).
public final class RunJournal: @unchecked Sendable {
    private let database: Database
    public let runID: String
    // Fetch items are recorded from the fetch worker threads as they end: one connection, used by one at a time.
    private let lock = NSLock()
    private let background = DispatchQueue(label: "ownerdash.run-journal")
    private let deferredError = Locked<(any Error)?>(nil)

    /// What is known when a run starts.
    public struct Start: Sendable {
        public var runID: String
        /// `ingest`, `schedule` (the nightly timer) or `sync`.
        public var trigger: String
        public var commandLine: String
        public var asOf: LocalDate?
        public var properties: Int
        public var holder: LockHolder

        public init(runID: String, trigger: String, commandLine: String, asOf: LocalDate?, properties: Int, holder: LockHolder) {
            self.runID = runID; self.trigger = trigger; self.commandLine = commandLine; self.asOf = asOf
            self.properties = properties; self.holder = holder
        }
    }

    /// Inserts the run (status `running`). `database` is unified.db, migrated.
    public init(database: Database, start: Start) throws {
        self.database = database
        runID = start.runID
        try database.prepare(Self.insertRun).execute([
            ":run_id": .text(start.runID), ":trigger": .text(start.trigger), ":command": .text(start.commandLine),
            ":as_of": SQLValue(start.asOf?.iso), ":started_at": .text(start.holder.startedAt),
            ":pid": .integer(Int64(start.holder.pid)), ":host": .text(start.holder.host),
            ":properties": .integer(Int64(start.properties)),
        ])
    }

    /// Marks every `running` run but `except` abandoned (their processes are gone: the caller holds the lock they
    /// would hold) and fills in their counts from the items they recorded; returns their ids.
    @discardableResult
    public static func abandonStaleRuns(in database: Database, except runID: String? = nil) throws -> [String] {
        try database.withTransaction {
            let stale = try database.query(
                "SELECT run_id FROM etl_runs WHERE status = 'running' AND run_id IS NOT :except ORDER BY run_id",
                [":except": SQLValue(runID)]).compactMap { $0.first?.textValue }
            for id in stale {
                try database.prepare(Self.updateCounts).execute([":run_id": .text(id), ":warnings": .integer(0)])
                try database.prepare("UPDATE etl_runs SET status = 'abandoned' WHERE run_id = :run_id")
                    .execute([":run_id": .text(id)])
            }
            return stale
        }
    }

    /// Records a run refused because another process holds the data directory's lock (status `refused`, started and
    /// finished now, `detail` naming the holder), so `runs list --status refused` shows the night two runs collided.
    public static func recordRefused(in database: Database, start: Start, reason: String) throws {
        try database.prepare("""
            INSERT INTO etl_runs (run_id, trigger, command, as_of_date, started_at, finished_at, status, pid, host,
                                  properties, detail)
            VALUES (:run_id, :trigger, :command, :as_of, :started_at, :started_at, 'refused', :pid, :host, :properties,
                    :detail)
            """).execute([
            ":run_id": .text(start.runID), ":trigger": .text(start.trigger), ":command": .text(start.commandLine),
            ":as_of": SQLValue(start.asOf?.iso), ":started_at": .text(start.holder.startedAt),
            ":pid": .integer(Int64(start.holder.pid)), ":host": .text(start.holder.host),
            ":properties": .integer(Int64(start.properties)), ":detail": .text(reason),
        ])
    }

    /// Records one item now, so it survives a crash of the rest of the run.
    public func record(_ item: RunItem) throws {
        lock.lock()
        defer { lock.unlock() }
        try database.prepare(Self.insertItem).execute([
            ":run_id": .text(runID), ":property": SQLValue(item.property), ":stage": .text(item.stage.rawValue),
            ":artifact": SQLValue(item.artifact), ":status": .text(item.status.rawValue), ":rows": SQLValue(item.rows),
            ":duration_ms": SQLValue(item.durationMilliseconds), ":error": SQLValue(item.error),
        ])
    }

    /// Records `item` on the journal's own thread, in the order handed over: for a caller that must not wait while
    /// another connection writes unified.db (a fetch worker while the ingest syncs a property). `drain` waits for them.
    public func recordSoon(_ item: RunItem) {
        background.async {
            do { try self.record(item) } catch { self.deferredError.withLock { $0 = $0 ?? error } }
        }
    }

    /// Waits until every item handed to `recordSoon` is recorded; throws the first that could not be.
    public func drain() throws {
        background.sync {}
        if let error = deferredError.withLock({ $0 }) { throw error }
    }

    /// Stamps the end: status, finish time and the counts (from the items; `warnings` is counted by the caller).
    public func finish(status: RunStatus, warnings: Int, at date: Date = Date()) throws {
        lock.lock()
        defer { lock.unlock() }
        try database.withTransaction {
            try database.prepare(Self.updateCounts).execute([":run_id": .text(runID), ":warnings": .integer(Int64(warnings))])
            try database.prepare("UPDATE etl_runs SET status = :status, finished_at = :finished_at WHERE run_id = :run_id")
                .execute([":run_id": .text(runID), ":status": .text(status.rawValue), ":finished_at": .text(Timestamp.iso(date))])
        }
    }

    static let insertRun = """
        INSERT INTO etl_runs (run_id, trigger, command, as_of_date, started_at, status, pid, host, properties)
        VALUES (:run_id, :trigger, :command, :as_of, :started_at, 'running', :pid, :host, :properties)
        """

    static let insertItem = """
        INSERT INTO etl_run_items (run_id, property_id, stage, artifact, status, rows, duration_ms, error)
        VALUES (:run_id, :property, :stage, :artifact, :status, :rows, :duration_ms, :error)
        """

    /// Counts from the items: artifacts landed, rows newly loaded (an artifact loaded before adds none),
    /// properties synced, failed items.
    static let updateCounts = """
        UPDATE etl_runs SET
            artifacts_fetched = (SELECT count(*) FROM etl_run_items
                                 WHERE run_id = :run_id AND stage = 'fetch' AND status = 'succeeded'),
            rows_loaded = (SELECT coalesce(sum(rows), 0) FROM etl_run_items
                           WHERE run_id = :run_id AND stage = 'load' AND status = 'succeeded'),
            properties_synced = (SELECT count(*) FROM etl_run_items
                                 WHERE run_id = :run_id AND stage = 'sync' AND status = 'succeeded'),
            failures = (SELECT count(*) FROM etl_run_items WHERE run_id = :run_id AND status = 'failed'),
            warnings = max(warnings, :warnings)
        WHERE run_id = :run_id
        """
}
