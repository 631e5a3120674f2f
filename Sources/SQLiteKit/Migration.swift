/// One forward-only schema step; `version` numbers start at 1 and never change once released.
public struct Migration: Sendable {
    public var version: Int
    public var name: String
    public var sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version; self.name = name; self.sql = sql
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
            try withTransaction {
                try execute("""
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version    INTEGER PRIMARY KEY,
                        name       TEXT NOT NULL,
                        applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
                    ) STRICT
                    """)
                try execute(migration.sql)
                try prepare("INSERT INTO schema_migrations (version, name) VALUES (:version, :name)")
                    .execute([":version": .integer(Int64(migration.version)), ":name": .text(migration.name)])
                // PRAGMA does not take bound parameters; the version is an Int we control.
                try execute("PRAGMA user_version = \(migration.version)")
            }
        }
    }
}
