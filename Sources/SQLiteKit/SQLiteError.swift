import CSQLite

/// A failure reported by SQLite, with its result code, its message and what was being done.
public struct SQLiteError: Error, CustomStringConvertible, Equatable {
    /// The primary or extended SQLite result code (`SQLITE_CONSTRAINT` = 19, `SQLITE_BUSY` = 5, ...).
    public var code: Int32
    public var message: String
    /// What OwnerDash was doing: the SQL (shortened) or the operation.
    public var context: String

    public init(code: Int32, message: String, context: String) {
        self.code = code; self.message = message; self.context = context
    }

    /// True when another connection holds the lock (SQLITE_BUSY / SQLITE_LOCKED).
    public var isBusy: Bool {
        let primary = code & 0xff
        return primary == SQLITE_BUSY || primary == SQLITE_LOCKED
    }

    public var description: String {
        "SQLite error \(code): \(message) — while \(context)"
    }
}

extension SQLiteError {
    /// Builds an error from a connection's last error; `handle` may be nil when open itself failed.
    init(code: Int32, handle: OpaquePointer?, context: String) {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: message, context: context)
    }

    /// The SQL, shortened to one line, for error context.
    static func describe(sql: String) -> String {
        let oneLine = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return "executing " + (oneLine.count > 120 ? String(oneLine.prefix(117)) + "..." : oneLine)
    }
}
