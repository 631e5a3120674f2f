import Foundation
import Testing
@testable import SQLiteKit

/// `Migration.rebuildsTables`: SQLite's 12-step table rebuild with foreign keys off, checked before commit.
@Suite struct TableRebuildMigrationTests {
    let schema = Migration(version: 1, name: "leases", sql: """
        CREATE TABLE leases (lease_id TEXT PRIMARY KEY) STRICT;
        CREATE TABLE lease_residents (
            lease_id    TEXT NOT NULL REFERENCES leases ON DELETE CASCADE,
            resident_id TEXT NOT NULL,
            PRIMARY KEY (lease_id, resident_id)
        ) STRICT;
        INSERT INTO leases VALUES ('L1');
        INSERT INTO lease_residents VALUES ('L1', 'R1');
        """)

    /// Rebuilding the parent drops it: with foreign keys on, its children would be cascade-deleted.
    static func rebuildParent(rebuildsTables: Bool) -> Migration {
        Migration(version: 2, name: "rebuild leases", sql: """
            CREATE TABLE leases_new (lease_id TEXT PRIMARY KEY, rent REAL) STRICT;
            INSERT INTO leases_new (lease_id) SELECT lease_id FROM leases;
            DROP TABLE leases;
            ALTER TABLE leases_new RENAME TO leases;
            """, rebuildsTables: rebuildsTables)
    }

    @Test func aRebuildKeepsTheChildrenAndTurnsForeignKeysBackOn() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("a.db"))
        try db.migrate([schema, Self.rebuildParent(rebuildsTables: true)])
        #expect(try db.scalar("SELECT count(*) FROM lease_residents")?.integerValue == 1)
        #expect(try db.scalar("PRAGMA foreign_keys")?.integerValue == 1)
        #expect(try db.userVersion() == 2)

        // Without the flag the same steps lose the child row: what the flag is for.
        let other = try Database(path: dir.path("b.db"))
        try other.migrate([schema, Self.rebuildParent(rebuildsTables: false)])
        #expect(try other.scalar("SELECT count(*) FROM lease_residents")?.integerValue == 0)
    }

    @Test func aRebuildThatOrphansARowIsRolledBack() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("a.db"))
        try db.migrate([schema])
        let losing = Migration(version: 2, name: "drop a lease", sql: """
            CREATE TABLE leases_new (lease_id TEXT PRIMARY KEY) STRICT;
            DROP TABLE leases;
            ALTER TABLE leases_new RENAME TO leases;
            """, rebuildsTables: true)
        #expect {
            try db.migrate([schema, losing])
        } throws: { error in
            (error as? SQLiteError)?.description.contains("migration 2 (drop a lease) leaves a row of lease_residents without its parent in leases") == true
        }
        #expect(try db.userVersion() == 1)
        #expect(try db.scalar("SELECT count(*) FROM leases")?.integerValue == 1, "rolled back whole")
        #expect(try db.scalar("PRAGMA foreign_keys")?.integerValue == 1)
    }
}
