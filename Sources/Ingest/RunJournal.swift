import Foundation
import OwnerDashCore
import SQLiteKit

/// Writes one run into unified.db's etl_runs / etl_run_items as it goes.
///
/// The run row is inserted at the start with status `running` and each item as soon as it ends (in a short
/// transaction of its own, or with the others handed over while the journal's thread was writing), so a run killed
/// half-way still shows what it did; `finish` stamps the end, the status and the counts (computed from the items, so
/// they always agree with them).
public final class RunJournal: @unchecked Sendable {
    private let database: Database
    public let runID: String
    // Fetch items are recorded from the fetch worker threads as they end: one connection, used by one at a time.
    private let lock = NSLock()
    private let background = DispatchQueue(label: "ownerdash.run-journal")
    private let deferredError = Locked<(any Error)?>(nil)
    /// Items handed to `recordSoon` that the journal's thread has not taken yet.
    private let pending = Locked<[RunItem]>([])

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
        try record([item])
    }

    /// Records `items` in their order, several in one transaction (one alone commits as it is written, so that a
    /// caller inside a transaction of its own on the same connection records it there).
    private func record(_ items: [RunItem]) throws {
        lock.lock()
        defer { lock.unlock() }
        let insert = try database.prepare(Self.insertItem)
        func write() throws {
            for item in items {
                try insert.execute([
                    ":run_id": .text(runID), ":property": SQLValue(item.property), ":stage": .text(item.stage.rawValue),
                    ":artifact": SQLValue(item.artifact), ":status": .text(item.status.rawValue),
                    ":rows": SQLValue(item.rows), ":duration_ms": SQLValue(item.durationMilliseconds),
                    ":error": SQLValue(item.error),
                ])
            }
        }
        if items.count == 1 { try write() } else { try database.withTransaction(write) }
    }

    /// Records `item` on the journal's own thread, in the order handed over: for a caller that must not wait while
    /// another connection writes unified.db (a fetch worker while the ingest syncs a property). `drain` waits for them.
    /// The items handed over within `gathering` of each other are written in one transaction: a night's thousand fetch
    /// and load items, each committed alone, were 0.7-1.9 % of a churned night's samples (`perf`), 0.5 % so.
    public func recordSoon(_ item: RunItem) {
        // The item that finds none pending schedules the write; the ones after it until the write takes them ride on it.
        let first = pending.withLock { items -> Bool in
            items.append(item)
            return items.count == 1
        }
        guard first else { return }
        background.asyncAfter(deadline: .now() + Self.gathering) { self.writePending() }
    }

    /// How long an item handed to `recordSoon` waits for others to be written with.
    static let gathering: DispatchTimeInterval = .milliseconds(100)

    /// Writes the items handed over and not written yet (on the journal's thread).
    private func writePending() {
        let items = pending.withLock { items -> [RunItem] in
            defer { items = [] }
            return items
        }
        guard !items.isEmpty else { return }
        do { try record(items) } catch { deferredError.withLock { $0 = $0 ?? error } }
    }

    /// Waits until every item handed to `recordSoon` is recorded; throws the first that could not be.
    public func drain() throws {
        background.sync { writePending() }
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
