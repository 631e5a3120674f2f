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
    private var idle: [Database] = []
    private let keep: Int

    init(dataDirectory: DataDirectory, keep: Int) {
        self.dataDirectory = dataDirectory
        self.keep = keep
    }

    /// Runs `body` with a connection. Throws `ConfigurationError` when there is no readable unified.db.
    func with<T>(_ body: (Database) throws -> T) throws -> T {
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        let database = try reused ?? UnifiedStore.openForReading(dataDirectory: dataDirectory)
        defer {
            lock.lock()
            if idle.count < keep { idle.append(database) }
            lock.unlock()
        }
        return try body(database)
    }
}
