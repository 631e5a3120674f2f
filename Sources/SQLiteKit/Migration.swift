/// One forward-only schema step; `version` numbers start at 1 and never change once released.
public struct Migration: Sendable {
    public var version: Int
    public var name: String
    public var sql: String
    /// A migration that rebuilds tables (SQLite's 12-step ALTER: create the new table, copy, drop the old, rename)
    /// runs with foreign keys off, as SQLite requires: with them on, dropping a parent table would cascade-delete its
    /// children's rows. The keys are checked (`PRAGMA foreign_key_check`) before its transaction commits.
    public var rebuildsTables: Bool
    /// A migration written as code (it reads the schema it finds, `PRAGMA table_info`, to decide what to run): called
    /// inside the migration's transaction after `sql`.
    public var apply: (@Sendable (Database) throws -> Void)?

    public init(version: Int, name: String, sql: String, rebuildsTables: Bool = false,
                apply: (@Sendable (Database) throws -> Void)? = nil) {
        self.version = version; self.name = name; self.sql = sql; self.rebuildsTables = rebuildsTables; self.apply = apply
    }
}

extension Database {
    /// Applies, in order and each in its own transaction, every migration above `PRAGMA user_version`,
    /// recording it in `schema_migrations`. A database newer than this program is refused.
    public func migrate(_ migrations: [Migration]) throws {
        let ordered = migrations.sorted { $0.version < $1.version }
        precondition(Set(ordered.map(\.version)).count == ordered.count, "duplicate migration versions")
        let current = try userVersion()
        if let latest = ordered.last?.version, current > latest {
            throw SQLiteError(code: 1, message: "database schema version \(current) is newer than this ownerdash (knows up to \(latest))",
                              context: "migrating \(path)")
        }
        for migration in ordered where migration.version > current {
            // PRAGMA foreign_keys is a no-op inside a transaction: it is switched around it.
            if migration.rebuildsTables { try execute("PRAGMA foreign_keys = OFF") }
            defer { if migration.rebuildsTables { try? execute("PRAGMA foreign_keys = ON") } }
            try withTransaction {
                // Another process may have applied it since `current` was read (two processes opening a new
                // database at once): under the write lock, the version read now is the truth.
                guard try userVersion() < migration.version else { return }
                try execute("""
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version    INTEGER PRIMARY KEY,
                        name       TEXT NOT NULL,
                        applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                    ) STRICT
                    """)
                try execute(migration.sql)
                try migration.apply?(self)
                if migration.rebuildsTables {
                    var broken: (table: String, parent: String)?
                    try prepare("SELECT \"table\" AS child, parent FROM pragma_foreign_key_check LIMIT 1").forEachRow { row in
                        broken = (row.text("child") ?? "?", row.text("parent") ?? "?")
                    }
                    if let broken {
                        throw SQLiteError(code: 19, message: "migration \(migration.version) (\(migration.name)) leaves a row of \(broken.table) without its parent in \(broken.parent)",
                                          context: "migrating \(path)")
                    }
                }
                try prepare("INSERT INTO schema_migrations (version, name) VALUES (:version, :name)")
                    .execute([":version": .integer(Int64(migration.version)), ":name": .text(migration.name)])
                // PRAGMA does not take bound parameters; the version is an Int we control.
                try execute("PRAGMA user_version = \(migration.version)")
            }
            // A rebuild leaves the old table's pages free: a database in incremental auto-vacuum mode gives them back
            // now (the file would otherwise stay its old size plus the copy until the next prune), outside the
            // transaction as SQLite requires. Without that mode the pages are reused by later rows.
            if migration.rebuildsTables, try scalar("PRAGMA auto_vacuum")?.integerValue == 2 {
                try execute("PRAGMA incremental_vacuum")
            }
        }
    }
}
