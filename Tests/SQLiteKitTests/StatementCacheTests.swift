import Testing
@testable import SQLiteKit

/// A statement compiled once per connection and SQL, and taken again: it must answer as a newly compiled one would.
@Suite struct StatementCacheTests {
    private func database(_ dir: TemporaryDirectory) throws -> Database {
        let db = try Database(path: dir.path("a.db"))
        try db.execute("CREATE TABLE units (unit_number TEXT PRIMARY KEY, rent REAL) STRICT")
        try db.execute("INSERT INTO units VALUES ('101', 1000), ('102', 1100)")
        return db
    }

    @Test func aStatementRunAgainIsTheKeptOneWithItsBindingsCleared() throws {
        let dir = try TemporaryDirectory()
        let db = try database(dir)
        let sql = "SELECT :unit, count(*) FROM units WHERE unit_number = :unit"
        #expect(try db.query(sql, [":unit": .text("101")]) == [[.text("101"), .integer(1)]])
        let kept = db.statements.keptCount
        #expect(kept >= 1, "the released statement is kept")
        // The same SQL again, its parameter left unbound: NULL, as for a statement compiled anew, not last run's 101.
        let again = try db.prepare(sql)
        #expect(db.statements.keptCount == kept - 1, "taken from the kept ones, not compiled again")
        #expect(try again.query() == [[.null, .integer(0)]])
        withExtendedLifetime(again) {}
    }

    @Test func aKeptStatementReadsATempTableMadeAfterItWasCompiled() throws {
        let dir = try TemporaryDirectory()
        let db = try database(dir)
        let sql = "SELECT count(*) FROM units"
        #expect(try db.scalar(sql) == .integer(2))
        // The sync's twins: a TEMP table of the same name is read before main's by an unqualified name.
        try db.execute("CREATE TEMP TABLE units (unit_number TEXT PRIMARY KEY, rent REAL)")
        #expect(try db.scalar(sql) == .integer(0))
        try db.execute("DROP TABLE temp.units")
        #expect(try db.scalar(sql) == .integer(2))
        // A table gone since the statement was kept: the same error a new statement would meet.
        try db.execute("DROP TABLE main.units")
        #expect(throws: SQLiteError.self) { try db.scalar(sql) }
    }

    @Test func theSameSQLInsideItsOwnLoopGetsAStatementOfItsOwn() throws {
        let dir = try TemporaryDirectory()
        let db = try database(dir)
        let sql = "SELECT unit_number FROM units WHERE unit_number >= :from ORDER BY unit_number"
        var pairs: [String] = []
        try db.prepare(sql).forEachRow([":from": .text("")]) { outer in
            let unit = outer.text(at: 0) ?? ""
            for row in try db.query(sql, [":from": .text(unit)]) { pairs.append("\(unit)>\(row[0].textValue ?? "")") }
        }
        #expect(pairs == ["101>101", "101>102", "102>102"])
    }

    @Test func aStatementReleasedAfterItsConnectionClosedIsFinalized() throws {
        let dir = try TemporaryDirectory()
        var db: Database? = try database(dir)
        let statement = try db!.prepare("SELECT count(*) FROM units")
        #expect(try statement.query() == [[.integer(2)]])
        db = nil
        // The connection is closed (a zombie until its last statement goes); the statement still answers and goes.
        #expect(try statement.query() == [[.integer(2)]])
    }

    @Test func pastItsLimitTheCacheLetsTheOldestGo() throws {
        let dir = try TemporaryDirectory()
        let db = try database(dir)
        // SQL written for one property each (its key in the text), as some rules are: more than the cache keeps.
        for index in 0..<(StatementCache.limit + 40) {
            #expect(try db.scalar("SELECT \(index) + count(*) FROM units") == .integer(Int64(index + 2)))
        }
        #expect(db.statements.keptCount == StatementCache.limit)
        // While a statement is held it is out of the cache: one fewer kept means it was taken from there.
        do {
            let newest = try db.prepare("SELECT \(StatementCache.limit + 39) + count(*) FROM units")
            #expect(db.statements.keptCount == StatementCache.limit - 1, "the newest was kept")
            withExtendedLifetime(newest) {}
        }
        #expect(db.statements.keptCount == StatementCache.limit, "given back")
        do {
            let oldest = try db.prepare("SELECT 0 + count(*) FROM units")
            #expect(db.statements.keptCount == StatementCache.limit, "the oldest was let go: compiled anew")
            withExtendedLifetime(oldest) {}
        }
    }
    @Test func aStatementGivenBackAgainIsNotTheOldest() throws {
        let dir = try TemporaryDirectory()
        let db = try database(dir)
        for index in 0..<StatementCache.limit {
            _ = try db.scalar("SELECT \(index) + count(*) FROM units")
        }
        // The first SQL is used again: given back last, it is now the newest, and the second the oldest.
        _ = try db.scalar("SELECT 0 + count(*) FROM units")
        // Many rounds past the limit, each letting the oldest go, and SQL given back again in between (stale order).
        for round in 0..<5 {
            for index in 0..<(StatementCache.limit / 2) {
                _ = try db.scalar("SELECT \(10_000 * (round + 1) + index) + count(*) FROM units")
                _ = try db.scalar("SELECT 0 + count(*) FROM units")
            }
        }
        #expect(db.statements.keptCount == StatementCache.limit)
        do {
            // Kept through every round: taking it leaves one fewer kept.
            let first = try db.prepare("SELECT 0 + count(*) FROM units")
            #expect(db.statements.keptCount == StatementCache.limit - 1, "the SQL given back each round was kept")
            withExtendedLifetime(first) {}
        }
        do {
            // The second was the oldest after the first round: long let go, so compiled anew.
            let second = try db.prepare("SELECT 1 + count(*) FROM units")
            #expect(db.statements.keptCount == StatementCache.limit, "the oldest was let go")
            withExtendedLifetime(second) {}
        }
    }
}
