import Foundation
import SQLiteKit
import Testing
@testable import Sync

/// A scratch table made ahead from its query (`TempTables.declare`) and filled after holds what the table the query
/// made itself held: the same columns and declared types, so the same values stored the same way.
@Suite struct TempTablesTests {
    static let table = ScratchTable(name: "scratch", shape: .query("""
        WITH ranked AS (
            SELECT name, amount, amount * 2 AS doubled, CASE WHEN amount > 1 THEN 'big' END AS size,
                   row_number() OVER (ORDER BY amount) AS rank, :property AS property
            FROM raw WHERE amount >= :least
        )
        SELECT * FROM ranked ORDER BY rank
        """), indexes: ["scratch_name": "name"])

    func database() throws -> Database {
        let database = try Database(path: ":memory:")
        try database.execute("""
            CREATE TABLE raw (name TEXT, amount REAL, note);
            INSERT INTO raw VALUES ('a', 1, NULL), ('b', 2.5, 'x'), ('c', '3', 7);
            """)
        return database
    }

    func run(_ database: Database) -> (String) throws -> Void {
        { sql in
            let statement = try database.prepare(sql)
            let values: [String: SQLValue] = [":property": .text("p1"), ":least": .integer(1)]
            try statement.bind(values.filter { statement.hasParameter($0.key) })
            while try statement.step() {}
        }
    }

    func shape(_ database: Database) throws -> [[SQLValue]] {
        try database.query("SELECT name, type FROM pragma_table_info('scratch', 'temp') ORDER BY cid")
    }

    func rows(_ database: Database) throws -> [[SQLValue]] {
        try database.query("SELECT *, typeof(amount), typeof(doubled), typeof(rank) FROM temp.scratch ORDER BY rowid")
    }

    @Test func aTableDeclaredAheadHoldsWhatItsFirstFillMade() throws {
        let made = try database(), declared = try database()
        try TempTables.refill(Self.table, in: made, run: run(made))
        try TempTables.declare([Self.table], in: declared, run: run(declared))
        #expect(try rows(declared).isEmpty)
        let version = try declared.scalar("PRAGMA temp.schema_version")
        try TempTables.refill(Self.table, in: declared, run: run(declared))

        #expect(try shape(declared) == shape(made))
        #expect(try rows(declared) == rows(made))
        #expect(try rows(made).count == 3)
        // Filled in place: the schema is as declared, its index there.
        #expect(try declared.scalar("PRAGMA temp.schema_version") == version)
        #expect(try declared.scalar("SELECT count(*) FROM temp.sqlite_schema WHERE name = 'scratch_name'")?.integerValue == 1)
        // A second declaration of a table there is nothing to make.
        try TempTables.declare([Self.table], in: declared, run: run(declared))
        #expect(try declared.scalar("PRAGMA temp.schema_version") == version)
    }

    @Test func aTableWhoseQueryCannotRunYetIsLeftToItsFirstFill() throws {
        let database = try database()
        let elsewhere = ScratchTable(name: "elsewhere", shape: .query("SELECT * FROM yardi_raw.yardi_transactions"))
        try TempTables.declare([elsewhere, Self.table], in: database, run: run(database))
        #expect(try !TempTables.exists("elsewhere", in: database))
        #expect(try TempTables.exists("scratch", in: database))
    }
}
