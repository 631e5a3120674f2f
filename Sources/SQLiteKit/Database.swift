import CSQLite

/// SQLite's process-wide settings, applied once before the first connection is opened (sqlite3_config refuses them
/// after SQLite has initialized; it then runs with its defaults, which are only slower).
private let processSettings: Void = {
    // Memory statistics off: SQLite updates them on every allocation under one process-wide mutex, which connections
    // reading side by side on several threads (the audit's workers) then contend for on every row. OwnerDash never
    // reads them (sqlite3_memory_used, soft heap limits).
    _ = ownerdash_sqlite3_config_memstatus(0)
}()

/// One SQLite connection: WAL, foreign keys on, a busy timeout; closed in deinit.
public final class Database {
    /// How a database file is opened.
    public enum Mode: Sendable {
        /// Create if missing, read and write; WAL journal.
        case readWrite
        /// Never writes: the mode of query, report and dashboard readers.
        case readOnly
    }

    /// WAL bytes written between two automatic checkpoints: SQLite's default is 1,000 pages, 4 MiB of its 4 KiB pages.
    static let walBytesBetweenCheckpoints = 32 << 20

    let handle: OpaquePointer
    /// Its compiled statements not in use, taken again by `prepare` (StatementCache).
    let statements = StatementCache()
    public let path: String
    public let mode: Mode

    /// Opens (or creates) a database. `busyTimeoutMilliseconds` is how long a writer waits for another; `pageSize`,
    /// the bytes per page of a file this connection creates (nil: SQLite's 4,096). A file that already holds pages
    /// keeps its own size: SQLite changes it only by VACUUM outside WAL mode.
    public init(path: String, mode: Mode = .readWrite, busyTimeoutMilliseconds: Int32 = 5_000,
                pageSize: Int? = nil) throws {
        _ = processSettings
        var connection: OpaquePointer?
        let flags: Int32 = switch mode {
        case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        case .readOnly: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        }
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = SQLiteError(code: code, handle: connection, context: "opening \(path)")
            sqlite3_close_v2(connection)
            throw error
        }
        self.handle = connection
        self.path = path
        self.mode = mode
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
        try execute("PRAGMA foreign_keys = ON")
        if mode == .readWrite, let pageSize {
            // Before the first write (turning the file to WAL below writes its header); a no-op on a file with pages.
            try execute("PRAGMA page_size = \(pageSize)")
        }
        if mode == .readWrite {
            // Turning a new file to WAL takes it whole for a moment. A second process opening it while the first is
            // still creating it (two commands started together) is refused at once, not after the busy timeout, since
            // SQLite does not wait where waiting could deadlock: it waits here instead, up to the same timeout.
            var waited: Int32 = 0
            while true {
                do {
                    try execute("PRAGMA journal_mode = WAL")
                    break
                } catch let error as SQLiteError where error.isBusy && waited < busyTimeoutMilliseconds {
                    sqlite3_sleep(25)
                    waited += 25
                }
            }
            // NORMAL is durable across application crashes in WAL mode (kill -9), which is the failure we plan for.
            try execute("PRAGMA synchronous = NORMAL")
            // A checkpoint every 32 MiB of WAL, not every 1,000 pages (4 MiB in the raw databases' 4 KiB pages): each
            // copies back the pages written since the last (the B-trees' upper pages again and again) and syncs the
            // file; a churned night's `fdatasync` calls 67 -> 24, its page writes 2 % fewer. unified.db's 32 KiB pages
            // checkpoint as before. A writer done with a database checkpoints it itself (`checkpoint`), so that the
            // file holds its work and the WAL is not kept at that size on disk.
            try execute("PRAGMA wal_autocheckpoint = \(max(1_000, Self.walBytesBetweenCheckpoints / max(try self.pageSize(), 512)))")
        }
    }

    deinit {
        statements.close()
        sqlite3_close_v2(handle)
    }

    /// Keeps this connection's TEMP tables (and their rollback journal) in memory rather than in a temporary file.
    /// For a connection whose work goes through TEMP tables made and dropped again and again (the sync's twins,
    /// a property's rows at a time): in a file, dropping one wrote its every page to the journal first, and half of a
    /// 500-property first sync's system time was those writes. `pageSize`: the bytes per page of those tables (nil:
    /// SQLite's 4,096), taken only before the connection's first TEMP table.
    public func keepTemporaryTablesInMemory(pageSize: Int? = nil) throws {
        try execute("PRAGMA temp_store = MEMORY")
        if let pageSize { try execute("PRAGMA temp.page_size = \(pageSize)") }
    }

    /// Copies the WAL's pages into the database file and empties the WAL, waiting (up to the busy timeout) for readers
    /// of older pages to finish: for a writer whose work is done, so that the file holds it, and the WAL's 32 MiB
    /// (`walBytesBetweenCheckpoints`) are not kept on disk, whether or not its connection is closed before the process
    /// ends. A reader that keeps it from finishing leaves the rest in the WAL, where SQLite still reads it.
    public func checkpoint() throws {
        _ = try query("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Runs one or more statements that return no rows (schema, pragmas).
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(code: code, message: text, context: SQLiteError.describe(sql: sql))
        }
    }

    /// Compiles a statement once, to be run for many rows.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Runs a query and returns its rows (for small results).
    public func query(_ sql: String, _ values: [String: SQLValue] = [:]) throws -> [[SQLValue]] {
        try prepare(sql).query(values)
    }

    /// The first column of the first row, or nil.
    public func scalar(_ sql: String, _ values: [String: SQLValue] = [:]) throws -> SQLValue? {
        try query(sql, values).first?.first
    }

    /// Rows changed by the last INSERT/UPDATE/DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` inside `BEGIN IMMEDIATE ... COMMIT`; on any error rolls back and rethrows the first error.
    ///
    /// IMMEDIATE takes the write lock up front, so a busy database fails at BEGIN
    /// (after the busy timeout) instead of half-way through the work.
    public func withTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    /// Runs `body` inside `BEGIN DEFERRED ... COMMIT`: one consistent view of the files it reads, and a write lock
    /// only on a file it writes, when it first does (none, for work written to TEMP tables alone, which other
    /// connections' writers then never wait for). Rolls back and rethrows on any error.
    public func withDeferredTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN DEFERRED", body)
    }

    private func transaction<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        let result: T
        do {
            result = try body()
        } catch {
            // The body's error is the one that explains the failure; a failed ROLLBACK adds nothing.
            try? execute("ROLLBACK")
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        return result
    }

    /// Runs `body` inside a savepoint of the open transaction: when it throws, what it wrote is undone and the
    /// transaction goes on (one sheet of a workbook tried again, the file's other sheets kept).
    public func withSavepoint<T>(_ name: String, _ body: () throws -> T) throws -> T {
        try execute("SAVEPOINT \(name)")
        do {
            let result = try body()
            try execute("RELEASE \(name)")
            return result
        } catch {
            try? execute("ROLLBACK TO \(name)")
            try? execute("RELEASE \(name)")
            throw error
        }
    }

    /// Attaches another database file under `schema` (`SELECT ... FROM schema.table`), read-only unless asked.
    ///
    /// Read-only attachment (a `file:` URI with `mode=ro`) keeps this connection's write transactions from
    /// locking the attached file, so a sync reading the raw databases never blocks a load writing them.
    public func attach(path: String, as schema: String, readOnly: Bool = true) throws {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%", "?", "#": escaped += "%" + String(character.value, radix: 16, uppercase: true)
            default: escaped.unicodeScalars.append(character)
            }
        }
        let uri = "file:\(escaped)?mode=\(readOnly ? "ro" : "rw")"
        try prepare("ATTACH DATABASE :uri AS \"\(schema)\"").execute([":uri": .text(uri)])
    }

    /// The bytes per page of the file (`PRAGMA page_size`).
    public func pageSize() throws -> Int {
        Int(try scalar("PRAGMA page_size")?.integerValue ?? 0)
    }

    /// `PRAGMA user_version`: the schema version this database was migrated to.
    public func userVersion() throws -> Int {
        Int(try scalar("PRAGMA user_version")?.integerValue ?? 0)
    }

    /// Whether a table exists.
    public func tableExists(_ name: String) throws -> Bool {
        try scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = :name", [":name": .text(name)]) != nil
    }

    /// Deletes the rows of `table` that `condition` selects, or with `dryRun` only counts them (a retention's dry
    /// run); returns how many.
    public func deleteRows(from table: String, where condition: String, _ values: [String: SQLValue],
                           dryRun: Bool) throws -> Int {
        if dryRun {
            return Int(try scalar("SELECT count(*) FROM \(table) WHERE \(condition)", values)?.integerValue ?? 0)
        }
        try prepare("DELETE FROM \(table) WHERE \(condition)").execute(values)
        return changes
    }
}
