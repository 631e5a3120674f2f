import CSQLite
import Synchronization

/// One connection's compiled statements that are not in use, by their SQL: `Database.prepare` takes one when the same
/// SQL was run before and lets the statement go back here when its `Statement` is released, reset and its bindings
/// cleared, instead of compiling it again. The load prepares the same statements for every artifact: compiling them
/// again was 1.8 % of a night's CPU, 0.4 % with the cache.
///
/// A statement is taken out while a `Statement` uses it, so two uses of the same SQL at once (a query inside another's
/// loop) get two statements. SQLite recompiles a kept statement by itself when the schema changed since (a TEMP table
/// made or dropped), so one taken from here reads what a new one would; that is also why the sync, whose TEMP twins
/// are made and dropped for every property, gains little from it (its compiling 4.5 -> 3.9 % of a night). The cache is emptied, its statements
/// finalized, when the connection closes; a `Statement` released after that finalizes its own. Locked: a `Statement`
/// may be released on another thread than the one its connection is used on.
final class StatementCache: Sendable {
    /// Statements kept at most: past it the one kept longest ago is finalized (SQL made for one property, its key
    /// written into it, would otherwise fill the cache for good).
    static let limit = 256

    private struct Kept: ~Copyable {
        var idle: [String: [Handle]] = [:]
        /// When a statement of each SQL kept was last given back (`given`'s count then).
        var lastGiven: [String: Int] = [:]
        /// Every give back in order, with its count: the SQL given back longest ago is the first entry still its SQL's
        /// `lastGiven` (a later give leaves the earlier entry stale). Found by walking the stale ones off the front,
        /// each once: looking for the least `lastGiven` over every key kept hashed each kept SQL text twice per give
        /// once the cache was full, 2 % of a churned night's CPU.
        var order: [(given: Int, sql: String)] = []
        /// The entries of `order` before it are stale.
        var orderStart = 0
        var given = 0
        var count = 0
        var closed = false

        /// Takes one idle statement of `sql` out: the one kept last (to use again) or, `oldest`, the one kept first.
        mutating func remove(_ sql: String, oldest: Bool = false) -> Handle? {
            guard var handles = idle[sql], !handles.isEmpty else { return nil }
            let handle = oldest ? handles.removeFirst() : handles.removeLast()
            idle[sql] = handles.isEmpty ? nil : handles
            if handles.isEmpty { lastGiven[sql] = nil }
            count -= 1
            return handle
        }

        /// Keeps `handle` of `sql`, given back now.
        mutating func keep(_ handle: Handle, sql: String) {
            idle[sql, default: []].append(handle)
            given += 1
            lastGiven[sql] = given
            count += 1
            order.append((given, sql))
            // The walked-off front goes once it is longer than the limit; stale entries behind it pile up while
            // nothing is let go: past twice the limit, `order` is made again of the entries still current (at most
            // the limit and one). Each at most once per some limit gives.
            if orderStart > StatementCache.limit {
                order.removeFirst(orderStart)
                orderStart = 0
            }
            if order.count - orderStart > 2 * StatementCache.limit {
                order = lastGiven.map { (given: $0.value, sql: $0.key) }.sorted { $0.given < $1.given }
                orderStart = 0
            }
        }

        /// The SQL whose statements were given back longest ago (the least `lastGiven`), or nil when none is kept.
        mutating func oldest() -> String? {
            while orderStart < order.count {
                let entry = order[orderStart]
                if lastGiven[entry.sql] == entry.given { return entry.sql }
                orderStart += 1
            }
            return nil
        }
    }

    /// A compiled statement, passed between threads only through the lock.
    private struct Handle: @unchecked Sendable { let pointer: OpaquePointer }

    private let kept = Mutex(Kept())

    /// A kept statement compiled from exactly `sql`, or nil.
    func take(_ sql: String) -> OpaquePointer? {
        kept.withLock { kept -> OpaquePointer? in
            guard !kept.closed else { return nil }
            return kept.remove(sql)?.pointer
        }
    }

    /// Keeps `handle`, reset and without bindings, for the next `take(sql)`; finalizes it when the cache is full or
    /// the connection closed.
    func give(_ handle: OpaquePointer, sql: String) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let evicted = kept.withLock { kept -> Handle? in
            guard !kept.closed else { return Handle(pointer: handle) }
            kept.keep(Handle(pointer: handle), sql: sql)
            guard kept.count > Self.limit else { return nil }
            // Past the limit, a statement of the SQL given back longest ago goes.
            guard let oldest = kept.oldest() else { return nil }
            return kept.remove(oldest, oldest: true)
        }
        if let evicted { sqlite3_finalize(evicted.pointer) }
    }

    /// How many statements are kept now (for the tests).
    var keptCount: Int { kept.withLock { $0.count } }

    /// Finalizes every kept statement: the connection is closing.
    func close() {
        let handles = kept.withLock { kept -> [Handle] in
            kept.closed = true
            defer { kept.idle = [:]; kept.lastGiven = [:]; kept.order = []; kept.orderStart = 0; kept.count = 0 }
            return kept.idle.values.flatMap { $0 }
        }
        for handle in handles { sqlite3_finalize(handle.pointer) }
    }
}
