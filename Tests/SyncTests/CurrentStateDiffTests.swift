import Foundation
import OwnerDashCore
import SQLiteKit
import Testing
@testable import Sync

/// The write of a table without a key (`unified_activity`: two identical events are two rows), on a table of its shape.
@Suite struct CurrentStateDiffTests {
    /// A table without a key beside the changes log, and its diff for property `p1`.
    func events() throws -> (Database, CurrentStateDiff, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString).db").path
        let database = try Database(path: path)
        try database.execute("""
            CREATE TABLE events (id INTEGER PRIMARY KEY, unified_property_id TEXT NOT NULL, day TEXT NOT NULL, party TEXT);
            CREATE INDEX events_by_day ON events (unified_property_id, day);
            CREATE TABLE unpublished_changes (unified_property_id TEXT NOT NULL, table_name TEXT NOT NULL,
                                              row_key TEXT NOT NULL, PRIMARY KEY (unified_property_id, table_name, row_key));
            """)
        return (database, try CurrentStateDiff(database, tables: ["events"]), path)
    }

    func rows(_ database: Database, _ property: String) throws -> [[SQLValue]] {
        try database.query("SELECT id, day, party FROM main.events WHERE unified_property_id = :p ORDER BY id",
                           [":p": .text(property)])
    }

    @Test func eachRowIsThereAsOftenAsTheRebuildHasIt() throws {
        let (database, diff, path) = try events()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Stored: a lead twice, a tour three times, a NULL party once; another property's identical rows.
        try database.execute("""
            INSERT INTO events (unified_property_id, day, party) VALUES
                ('p1', '2026-11-01', 'Ann'), ('p1', '2026-11-01', 'Ann'),
                ('p1', '2026-11-02', 'Bo'), ('p1', '2026-11-02', 'Bo'), ('p1', '2026-11-02', 'Bo'),
                ('p1', '2026-11-03', NULL),
                ('p2', '2026-11-02', 'Bo'), ('p2', '2026-11-02', 'Bo');
            """)
        try diff.createTwins(database)
        defer { diff.dropTwins(database) }
        // Rebuilt: Ann three times, Bo once, the NULL party kept, a new row.
        try database.execute("""
            INSERT INTO temp.events (unified_property_id, day, party) VALUES
                ('p1', '2026-11-02', 'Bo'), ('p1', '2026-11-01', 'Ann'), ('p1', '2026-11-03', NULL),
                ('p1', '2026-11-04', 'Cy'), ('p1', '2026-11-01', 'Ann'), ('p1', '2026-11-01', 'Ann');
            """)
        let changes = try diff.apply(database, property: "p1", logChanges: true)

        #expect(changes["events"] == RowChanges(deleted: 2, inserted: 2))
        // The earliest of each value are kept (ids 1, 2, 3, 6); Bo's two latest went; Cy and the third Ann came, in
        // the rebuild's order (Cy first).
        #expect(try rows(database, "p1") == [
            [.integer(1), .text("2026-11-01"), .text("Ann")], [.integer(2), .text("2026-11-01"), .text("Ann")],
            [.integer(3), .text("2026-11-02"), .text("Bo")], [.integer(6), .text("2026-11-03"), .null],
            [.integer(9), .text("2026-11-04"), .text("Cy")], [.integer(10), .text("2026-11-01"), .text("Ann")],
        ])
        #expect(try rows(database, "p2").count == 2)
        // Every row written or deleted is noted for the publication, by its id.
        let logged = try database.query("SELECT row_key FROM unpublished_changes WHERE table_name = 'events' ORDER BY row_key")
            .compactMap { $0.first?.textValue }
        #expect(logged == ["[10]", "[4]", "[5]", "[9]"])
        #expect(try diff.countsMatch(database, property: "p1"))
        #expect(try diff.drift(database, property: "p1").isEmpty)
    }

    /// Keyed tables walked side by side: a changed, a gone and a new parent; the child rows of the changed parent,
    /// identical in the rebuild but cascaded away by its delete, are written again.
    @Test func keyedRowsAreWrittenByKeyAndCascadedChildrenComeBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString).db").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try Database(path: path)
        try database.execute("""
            CREATE TABLE leases (unified_property_id TEXT NOT NULL, lease_id TEXT NOT NULL, rent REAL, note TEXT,
                                 PRIMARY KEY (unified_property_id, lease_id));
            CREATE TABLE members (unified_property_id TEXT NOT NULL, lease_id TEXT NOT NULL, member TEXT NOT NULL,
                                  PRIMARY KEY (unified_property_id, lease_id, member),
                                  FOREIGN KEY (unified_property_id, lease_id) REFERENCES leases ON DELETE CASCADE);
            INSERT INTO leases VALUES ('p1', 'L1', 1000, NULL), ('p1', 'L2', 1100, 'x'), ('p1', 'L3', 900, NULL),
                                      ('p2', 'L1', 1000, NULL);
            INSERT INTO members VALUES ('p1', 'L1', 'Ann'), ('p1', 'L1', 'Bo'), ('p1', 'L2', 'Cy'), ('p1', 'L3', 'Di'),
                                       ('p2', 'L1', 'Ed');
            """)
        let diff = try CurrentStateDiff(database, tables: ["members", "leases"])
        try diff.createTwins(database)
        defer { diff.dropTwins(database) }
        // L1's rent changes (its members do not), L2 is the same (1100 as an integer), L3 is gone, L4 is new.
        try database.execute("""
            INSERT INTO temp.leases VALUES ('p1', 'L4', 800, NULL), ('p1', 'L2', 1100, 'x'), ('p1', 'L1', 1050, NULL);
            INSERT INTO temp.members VALUES ('p1', 'L1', 'Bo'), ('p1', 'L1', 'Ann'), ('p1', 'L2', 'Cy'), ('p1', 'L4', 'Fay');
            """)
        let changes = try diff.apply(database, property: "p1")

        #expect(changes["leases"] == RowChanges(deleted: 2, inserted: 2))
        // L3's member deleted as gone (children first); L1's two, cascaded away with their lease, came back.
        #expect(changes["members"] == RowChanges(deleted: 1, inserted: 3))
        #expect(try diff.countsMatch(database, property: "p1"))
        #expect(try diff.drift(database, property: "p1").isEmpty)
        #expect(try database.query("SELECT lease_id, member FROM main.members WHERE unified_property_id = 'p1' ORDER BY 1, 2")
            .map { $0.compactMap(\.textValue).joined(separator: " ") } == ["L1 Ann", "L1 Bo", "L2 Cy", "L4 Fay"])
        // The unchanged lease kept its row; the other property was not touched. (`main.`: the twins are still there.)
        #expect(try database.scalar("SELECT rowid FROM main.leases WHERE unified_property_id = 'p1' AND lease_id = 'L2'") == .integer(2))
        #expect(try database.query("SELECT lease_id, member FROM main.members WHERE unified_property_id = 'p2'").map { $0.compactMap(\.textValue).joined(separator: " ") } == ["L1 Ed"])
    }

    @Test func theSameRowsWriteNothing() throws {
        let (database, diff, path) = try events()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let values = "('p1', '2026-11-01', 'Ann'), ('p1', '2026-11-01', 'Ann'), ('p1', '2026-11-02', NULL)"
        try database.execute("INSERT INTO events (unified_property_id, day, party) VALUES \(values)")
        try diff.createTwins(database)
        defer { diff.dropTwins(database) }
        try database.execute("INSERT INTO temp.events (unified_property_id, day, party) VALUES \(values)")
        #expect(try diff.apply(database, property: "p1")["events"] == RowChanges(deleted: 0, inserted: 0))
        #expect(try rows(database, "p1").map { $0[0] } == [.integer(1), .integer(2), .integer(3)])
    }

    /// `sync --full`'s comparison of a table without a key: it differs when a value is there more or fewer times, not
    /// when the same rows were written in another order.
    @Test func aMultisetDiffersByItsCountsNotItsOrder() throws {
        let (database, diff, path) = try events()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try database.execute("""
            INSERT INTO events (unified_property_id, day, party) VALUES
                ('p1', '2026-11-02', 'Bo'), ('p1', '2026-11-01', 'Ann'), ('p1', '2026-11-01', 'Ann');
            """)
        try diff.createTwins(database)
        defer { diff.dropTwins(database) }
        try database.execute("""
            INSERT INTO temp.events (unified_property_id, day, party) VALUES
                ('p1', '2026-11-01', 'Ann'), ('p1', '2026-11-02', 'Bo'), ('p1', '2026-11-01', 'Ann');
            """)
        #expect(try diff.drift(database, property: "p1").isEmpty)
        try database.execute("DELETE FROM temp.events WHERE rowid = (SELECT max(rowid) FROM temp.events)")
        let drift = try diff.drift(database, property: "p1")
        #expect(drift.map(\.table) == ["events"])
        #expect(drift.map(\.detail) == ["its rows differ: 3 stored, 2 from a full rebuild"])
    }

    /// Every night compares each property's stored rows of every current-state table with the night's: on unified.db's
    /// own schema, main's side of each walk is read in order off an index (a table without a key, unified_activity, off
    /// one holding every column in the compare's order), never sorted nor read from its table row by row; a column
    /// added to such a table without adding it to its index fails here.
    @Test func everyStoredSideIsWalkedOffAnIndexInItsOrder() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try UnifiedStore(dataDirectory: DataDirectory(root: directory.path))
        let diff = try CurrentStateDiff(store.database, tables: Synchronizer.currentStateTables)
        #expect(diff.tables.contains { $0.name == "unified_activity" && $0.key.isEmpty })
        for table in diff.tables {
            let plan = try store.database.query("EXPLAIN QUERY PLAN " + CurrentStateDiff.walk(table, columns: table.columns).stored,
                                                [":property": .text("p1")]).compactMap { $0[3].textValue }
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(table.name): \(plan)")
            if table.key.isEmpty {
                #expect(plan.contains { $0.contains("COVERING INDEX") }, "\(table.name): \(plan)")
            }
        }
        // The activity compared in part (RealPageActivityDays): the resident events before the days computed and
        // those days' events, each read off its index and merged in order, no other event read.
        let activity = try #require(diff.tables.first { $0.name == "unified_activity" })
        let walk = CurrentStateDiff.walk(activity, columns: activity.columns,
                                         storedConditions: RealPageActivityDays.scopeConditions).stored
        let plan = try store.database.query("EXPLAIN QUERY PLAN " + walk, [":property": .text("p1"), ":activity_from": .text("2026-11-01")])
            .compactMap { $0[3].textValue }
        #expect(plan.contains("MERGE (UNION ALL)") && !plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        #expect(plan.filter { $0.contains("COVERING INDEX unified_activity_residents (unified_property_id=? AND event_date<?)")
                              || $0.contains("COVERING INDEX unified_activity_by_date (unified_property_id=? AND event_date>?)") }.count == 2,
                "\(plan)")
        // The residents, leases and lease members compared by household (RealPageEventHouseholds): each looked up by
        // key from the households computed and read in key order, not one row of the property's others read (a scan
        // by the property alone grew with every former household the vendor keeps listing).
        try store.database.execute("CREATE TEMP TABLE event_households (household_id TEXT PRIMARY KEY) WITHOUT ROWID")
        let byHousehold = RealPageLeases.householdScopes.merging(["unified_residents": RealPageResidents.householdScope]) { $1 }
        for (name, scope) in byHousehold.sorted(by: { $0.key < $1.key }) {
            let table = try #require(diff.tables.first { $0.name == name })
            let walk = CurrentStateDiff.walk(table, columns: table.columns, storedConditions: scope.conditions).stored
            let plan = try store.database.query("EXPLAIN QUERY PLAN " + walk, [":property": .text("p1")]).compactMap { $0[3].textValue }
            #expect(!plan.contains { $0.contains("TEMP B-TREE") || $0.hasPrefix("SCAN main.") || $0.hasSuffix("(unified_property_id=?)") },
                    "\(name): \(plan)")
        }
    }
}
