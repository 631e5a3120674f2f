import SQLiteKit

/// A TEMP table a property's sync fills for its rules (a scratch table), declared once: its name, what it holds and
/// the indexes its readers look rows up by.
struct ScratchTable: Sendable {
    /// Its columns: a definition (`(id TEXT PRIMARY KEY) WITHOUT ROWID`), or those of the query that fills it.
    enum Shape: Sendable {
        case definition(String)
        case query(String)
    }

    let name: String
    let shape: Shape
    /// Index name -> columns (`a, b` one index on both).
    var indexes: [String: String] = [:]
}

/// The sync's TEMP tables kept from one property to the next on a connection: made the first time, emptied and filled
/// again after. Every TEMP table made or dropped changes the connection's schema, which makes SQLite compile again
/// every statement that reads a TEMP table the next time it runs.
enum TempTables {
    /// Whether the TEMP table `name` exists on `database`.
    static func exists(_ name: String, in database: Database) throws -> Bool {
        try database.scalar("SELECT EXISTS (SELECT 1 FROM temp.sqlite_schema WHERE type = 'table' AND name = :name)",
                            [":name": .text(name)])?.integerValue == 1
    }

    /// Makes `table` (a query's) hold exactly the rows of `query` (its own unless given, of the same columns): `run`
    /// runs `CREATE TEMP TABLE ... AS` (and its indexes are made) the first time, `INSERT INTO` the emptied table after.
    static func refill(_ table: ScratchTable, with query: String? = nil, in database: Database,
                       run: (String) throws -> Void) throws {
        guard case .query(let own) = table.shape else { preconditionFailure("\(table.name) is not filled by a query") }
        let query = query ?? own
        if try exists(table.name, in: database) {
            try database.prepare("DELETE FROM temp.\(table.name)").execute()
            try run("INSERT INTO temp.\(table.name) \(query)")
        } else {
            try run("CREATE TEMP TABLE \(table.name) AS \(query)")
            try makeIndexes(table, in: database)
        }
    }

    /// Makes `table` (of a definition) exist and empty.
    static func empty(_ table: ScratchTable, in database: Database) throws {
        guard case .definition(let definition) = table.shape else { preconditionFailure("\(table.name) has no definition") }
        try database.prepare("CREATE TEMP TABLE IF NOT EXISTS \(table.name) \(definition)").execute()
        try database.prepare("DELETE FROM temp.\(table.name)").execute()
    }

    /// Makes every table of `tables` that is not there yet, empty, before the property's rules run: made by the
    /// first property that fills it, each would change the schema in the middle of the night, and the next property
    /// would compile every rule again. A query's table takes the query's columns from a query that reads no row (its
    /// parameters unbound); one whose query cannot run on this connection (a raw database not attached) is left to
    /// the first fill, as before.
    static func declare(_ tables: [ScratchTable], in database: Database, run: (String) throws -> Void) throws {
        for table in tables where try !exists(table.name, in: database) {
            switch table.shape {
            case .definition(let definition):
                try database.execute("CREATE TEMP TABLE IF NOT EXISTS \(table.name) \(definition)")
            case .query(let query):
                guard (try? run("CREATE TEMP TABLE \(table.name) AS SELECT * FROM (\(query)) LIMIT 0")) != nil else { continue }
            }
            try makeIndexes(table, in: database)
        }
    }

    private static func makeIndexes(_ table: ScratchTable, in database: Database) throws {
        for (index, columns) in table.indexes.sorted(by: { $0.key < $1.key }) {
            try database.execute("CREATE INDEX IF NOT EXISTS temp.\(index) ON \(table.name) (\(columns))")
        }
    }
}
