import SQLiteKit

/// The sync's TEMP tables kept from one property to the next on a connection: made the first time, emptied and filled
/// again after. Every TEMP table made or dropped changes the connection's schema, which makes SQLite compile again
/// every statement that reads a TEMP table the next time it runs.
enum TempTables {
    /// Whether the TEMP table `name` exists on `database`.
    static func exists(_ name: String, in database: Database) throws -> Bool {
        try database.scalar("SELECT EXISTS (SELECT 1 FROM temp.sqlite_schema WHERE type = 'table' AND name = :name)",
                            [":name": .text(name)])?.integerValue == 1
    }

    /// Makes `temp.<name>` hold exactly `query`'s rows: `run` runs `CREATE TEMP TABLE name AS query` (and `indexes`, name
    /// -> columns, are made) the first time, `INSERT INTO temp.name query` into the emptied table after.
    static func refill(_ name: String, with query: String, indexes: [(name: String, columns: String)] = [],
                       in database: Database, run: (String) throws -> Void) throws {
        if try exists(name, in: database) {
            try database.execute("DELETE FROM temp.\(name)")
            try run("INSERT INTO temp.\(name) \(query)")
        } else {
            try run("CREATE TEMP TABLE \(name) AS \(query)")
            for index in indexes { try database.execute("CREATE INDEX temp.\(index.name) ON \(name) (\(index.columns))") }
        }
    }

    /// Makes `temp.<name>`, of `definition` (`(id TEXT PRIMARY KEY) WITHOUT ROWID`), exist and empty.
    static func empty(_ name: String, definition: String, in database: Database) throws {
        try database.execute("CREATE TEMP TABLE IF NOT EXISTS \(name) \(definition)")
        try database.execute("DELETE FROM temp.\(name)")
    }
}
