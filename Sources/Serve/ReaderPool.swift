import Foundation
import OwnerDashCore
import SQLiteKit
import Sync

/// Read-only connections to unified.db, reused across requests: a request borrows one, the pool takes it back.
/// Opened read-only in WAL mode, so an ingest writing meanwhile never waits on a reader and no reader on it.
final class ReaderPool: @unchecked Sendable {
    // @unchecked: `idle` is only touched under `lock`; a borrowed connection is used by one thread at a time.
    private let dataDirectory: DataDirectory
    private let lock = NSLock()
    private var idle: [Reader] = []
    private let keep: Int

    /// A connection and the statement every API request runs first (which run the data is at), prepared once per
    /// connection rather than per request: an answer from the cache then costs one step of it and no parse.
    final class Reader {
        let database: Database
        private var latestRunStatement: Statement?

        init(database: Database) { self.database = database }

        /// The latest run's id and whether it finished (nil: no run recorded): the version of the data answers are
        /// cached and tagged by. A forecast model trained since (`forecast train`, or an ingest's retraining after its
        /// run finished) changes answers without a run, so the latest model's id is part of it (`RUN-m7`).
        func latestRun() throws -> (runID: String, finished: Bool)? {
            let statement = try latestRunStatement ?? database.prepare("""
                SELECT run_id, finished_at IS NOT NULL AS finished, (SELECT max(model_id) FROM forecast_models) AS model_id
                FROM etl_runs ORDER BY started_at DESC, run_id DESC LIMIT 1
                """)
            latestRunStatement = statement
            defer { statement.reset() }
            guard try statement.step(), let runID = statement.text("run_id") else { return nil }
            return (runID + (statement.int("model_id").map { "-m\($0)" } ?? ""), statement.text("finished") == "1")
        }
    }

    init(dataDirectory: DataDirectory, keep: Int) {
        self.dataDirectory = dataDirectory
        self.keep = keep
    }

    /// Runs `body` with a connection. Throws `ConfigurationError` when there is no readable unified.db.
    func with<T>(_ body: (Database) throws -> T) throws -> T {
        try withReader { try body($0.database) }
    }

    /// Runs `body` with a connection and its prepared statements.
    func withReader<T>(_ body: (Reader) throws -> T) throws -> T {
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        let reader = try reused ?? Reader(database: UnifiedStore.openForReading(dataDirectory: dataDirectory))
        defer {
            lock.lock()
            if idle.count < keep { idle.append(reader) }
            lock.unlock()
        }
        return try body(reader)
    }
}
