import Foundation
import SQLiteKit

/// The property audits of one run computed on worker threads, each with its own read-only connection to unified.db,
/// and handed back in the run's order for its own connection to record.
///
/// Why: nearly all of a run is reading and matching (the writes are a property's exceptions and counts), and each
/// property's passes are independent, so on a machine with more than one core they run side by side. WAL lets the
/// readers see the committed ledger while the run's write transaction is open; they read only unified_* tables, which
/// the run does not write. Workers stay at most `lookahead` properties ahead of the recorder, so memory is a few
/// properties' lines whatever the portfolio's size. An error in one property's passes is thrown when its turn to be
/// recorded comes, exactly where the serial run would have thrown it (and the run's transaction rolls back).
final class AuditWorkers: @unchecked Sendable {
    // @unchecked: every mutable field below is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var tallies: [Int: Result<PropertyAudit.Tally, any Error>] = [:]
    private var nextToClaim = 0
    private var nextToRecord = 0
    private var stopped = false
    private var running = 0

    private let audits: [PropertyAudit]
    private let lookahead: Int

    /// How many workers a run of `properties` properties on the database at `path` gets: one per core, at most four,
    /// none when there is only one core or one property, or when the database is in memory (another connection
    /// would not see it): then the run's own connection does the passes.
    static func count(properties: Int, path: String, cores: Int) -> Int {
        guard properties > 1, cores > 1, !path.isEmpty, !path.contains(":memory:"), !path.contains("mode=memory") else {
            return 0
        }
        return min(cores, 4, properties)
    }

    /// Starts `workers` threads over `audits`, each opening `path` read-only and preparing the run's reads once.
    /// The threads hold the instance until they end: the run calls `finish()` on every path out.
    init(path: String, audits: [PropertyAudit], workers: Int, first: String, last: String) {
        self.audits = audits
        lookahead = workers * 2
        running = workers
        for _ in 0..<workers {
            let thread = Thread { [self] in
                work(path: path, first: first, last: last)
            }
            thread.start()
        }
    }

    /// The tally of `audits[index]`, waiting for a worker to finish it; indices must be asked in order.
    func tally(at index: Int) throws -> PropertyAudit.Tally {
        condition.lock()
        defer { condition.unlock() }
        precondition(index == nextToRecord, "audit tallies are recorded in the run's order")
        while tallies[index] == nil {
            condition.wait()
        }
        let result = tallies.removeValue(forKey: index)!
        nextToRecord = index + 1
        condition.broadcast()
        return try result.get()
    }

    /// Stops the workers after the property each is on and waits until every thread has closed its connection.
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        condition.broadcast()
        while running > 0 { condition.wait() }
    }

    private func work(path: String, first: String, last: String) {
        defer {
            condition.lock()
            running -= 1
            condition.broadcast()
            condition.unlock()
        }
        let reads: Result<(Database, PropertyAudit.Reads), any Error> = Result {
            let database = try Database(path: path, mode: .readOnly)
            return (database, try PropertyAudit.Reads(database: database, first: first, last: last))
        }
        while let index = claim() {
            let tally = Result { try audits[index].tally(try reads.get().1) }
            condition.lock()
            tallies[index] = tally
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The next property to audit, or nil when there is none or the run has stopped; waits while the workers are
    /// `lookahead` properties ahead of the recorder.
    private func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped, nextToClaim < audits.count, nextToClaim - nextToRecord >= lookahead {
            condition.wait()
        }
        guard !stopped, nextToClaim < audits.count else { return nil }
        nextToClaim += 1
        return nextToClaim - 1
    }
}
