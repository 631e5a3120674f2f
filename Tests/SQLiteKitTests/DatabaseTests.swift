import Foundation
import Testing
@testable import SQLiteKit

/// A fresh directory per test, removed afterwards.
final class TemporaryDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sqlitekit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

@Suite struct DatabaseTests {
    let units = Migration(version: 1, name: "units", sql: """
        CREATE TABLE units (
            unit_number TEXT PRIMARY KEY,
            market_rent REAL,
            note        TEXT
        ) STRICT;
        """)

    @Test func migrationsRunOnceAndAreRecorded() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("a.db"))
        let second = Migration(version: 2, name: "unit floor", sql: "ALTER TABLE units ADD COLUMN floor INTEGER;")
        try db.migrate([units, second])
        #expect(try db.userVersion() == 2)
        // Running again is a no-op (the ALTER would fail if it ran twice).
        try db.migrate([units, second])
        let recorded = try db.query("SELECT version, name FROM schema_migrations ORDER BY version")
        #expect(recorded == [[.integer(1), .text("units")], [.integer(2), .text("unit floor")]])
    }

    @Test func aReaderStopsAtTheRowItNeedsAndTheStatementRunsAgain() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("a.db"))
        try db.migrate([units])
        try db.execute("INSERT INTO units VALUES ('101', 1000, NULL), ('102', 1100, NULL), ('103', 1200, NULL)")
        let rents = try db.prepare("SELECT market_rent FROM units WHERE market_rent >= :floor ORDER BY unit_number")
        var read: [Double] = []
        try rents.forEachRowWhile([":floor": .real(0)]) { row in
            read.append(row.double(at: 0) ?? 0)
            return read.reduce(0, +) < 2_000
        }
        #expect(read == [1000, 1100], "stops once 2,000 is covered")
        var again: [Double] = []
        try rents.forEachRowWhile([":floor": .real(1_100)]) { again.append($0.double(at: 0) ?? 0); return true }
        #expect(again == [1100, 1200])
    }

    @Test func aNewerDatabaseIsRefused() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("a.db"))
        try db.migrate([units, Migration(version: 2, name: "x", sql: "SELECT 1;")])
        #expect(throws: SQLiteError.self) { try db.migrate([units]) }
    }

    @Test func failedMigrationLeavesTheVersionUnchanged() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("a.db"))
        let broken = Migration(version: 2, name: "broken", sql: "CREATE TABLE t (a); CREATE TABLE t (b);")
        #expect(throws: SQLiteError.self) { try db.migrate([units, broken]) }
        #expect(try db.userVersion() == 1)
        #expect(try !db.tableExists("t"))
    }

    @Test func walAndForeignKeysAreOn() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("a.db"))
        #expect(try db.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
    }

    @Test func transactionRollsBackAndRethrowsTheFirstError() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("a.db"))
        try db.migrate([units])
        let insert = try db.prepare("INSERT INTO units (unit_number, market_rent) VALUES (:unit, :rent)")
        do {
            try db.withTransaction {
                try insert.execute([":unit": .text("101"), ":rent": .real(1500)])
                try insert.execute([":unit": .text("101"), ":rent": .real(1600)])  // duplicate key
            }
            Issue.record("expected a constraint error")
        } catch let error as SQLiteError {
            #expect(error.code & 0xff == 19)  // SQLITE_CONSTRAINT
            #expect(error.description.contains("UNIQUE constraint failed: units.unit_number"))
            #expect(error.description.contains("INSERT INTO units"))
        }
        #expect(try db.scalar("SELECT count(*) FROM units") == .integer(0))
        // The statement is reusable after the failure.
        try insert.execute([":unit": .text("102"), ":rent": .real(1700)])
        #expect(try db.scalar("SELECT market_rent FROM units WHERE unit_number = '102'") == .real(1700))
    }

    @Test func bindingKeepsEmptyTextApartFromNull() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("a.db"))
        try db.migrate([units])
        let insert = try db.prepare("INSERT INTO units (unit_number, note) VALUES (?, ?)")
        try insert.execute([.text("1"), .text("")])
        try insert.execute([.text("2"), .null])
        try insert.execute([.text("3"), .text("Ünït — 5¢")])
        let rows = try db.query("SELECT note, note IS NULL FROM units ORDER BY unit_number")
        #expect(rows == [[.text(""), .integer(0)], [.null, .integer(1)], [.text("Ünït — 5¢"), .integer(0)]])
    }

    @Test func readOnlyConnectionsCannotWrite() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("a.db")
        try Database(path: path).migrate([units])
        let reader = try Database(path: path, mode: .readOnly)
        #expect(try reader.scalar("SELECT count(*) FROM units") == .integer(0))
        #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO units (unit_number) VALUES ('x')") }
    }

    @Test func readersSeeTheLastCommitWhileAWriterIsInATransaction() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("a.db")
        let writer = try Database(path: path)
        try writer.migrate([units])
        try writer.execute("INSERT INTO units (unit_number) VALUES ('1')")
        let reader = try Database(path: path, mode: .readOnly)
        try writer.withTransaction {
            try writer.execute("INSERT INTO units (unit_number) VALUES ('2')")
            // WAL: the reader neither waits nor sees the uncommitted row.
            #expect(try reader.scalar("SELECT count(*) FROM units") == .integer(1))
        }
        #expect(try reader.scalar("SELECT count(*) FROM units") == .integer(2))
    }

    @Test func openingAMissingDatabaseReadOnlyNamesThePath() throws {
        let dir = try TemporaryDirectory()
        do {
            _ = try Database(path: dir.path("missing.db"), mode: .readOnly)
            Issue.record("expected an error")
        } catch let error as SQLiteError {
            #expect(error.description.contains("missing.db"))
        }
    }

    /// A new file takes the page size asked for; a file that already holds pages keeps its own, rows and all.
    @Test func aNewFileTakesThePageSizeAskedAndAnOldOneKeepsItsOwn() throws {
        let dir = try TemporaryDirectory()
        let large = try Database(path: dir.path("large.db"), pageSize: 32_768)
        try large.migrate([units])
        try large.execute("INSERT INTO units (unit_number, market_rent) VALUES ('101', 1450)")
        #expect(try large.pageSize() == 32_768)

        let old = try Database(path: dir.path("old.db"))
        try old.migrate([units])
        try old.execute("INSERT INTO units (unit_number, market_rent) VALUES ('102', 1525)")
        #expect(try old.pageSize() == 4_096)
        let reopened = try Database(path: dir.path("old.db"), pageSize: 32_768)
        #expect(try reopened.pageSize() == 4_096)
        #expect(try reopened.query("SELECT unit_number, market_rent FROM units") == [[.text("102"), .real(1525)]])
        try reopened.execute("INSERT INTO units (unit_number) VALUES ('103')")
        #expect(try reopened.scalar("SELECT count(*) FROM units") == .integer(2))
    }
}
