import Foundation

/// Whose turn it is to write one database, among connections of this process that write it side by side.
///
/// SQLite takes one writer at a time. A connection whose transaction read the file before another's commit cannot
/// write in it at all (SQLITE_BUSY_SNAPSHOT, however long it waits), and a wait longer than the busy timeout fails
/// too; writers that take turns here instead never meet at SQLite's lock.
public final class WriteTurns: @unchecked Sendable {
    private let lock = NSLock()

    public init() {}

    /// Runs `body` while no other caller of these turns runs its own.
    public func take<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
