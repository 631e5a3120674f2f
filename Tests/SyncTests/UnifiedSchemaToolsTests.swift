import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// unified.db as SQL tools read it (issue 17): what Datasette and DuckDB need of the schema, checked through the same
/// pragmas they read (scripts/bench/sql_tools.sh opens a demo database with the tools themselves).
@Suite struct UnifiedSchemaToolsTests {
    static func freshStore() throws -> (UnifiedStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (try UnifiedStore(dataDirectory: DataDirectory(root: directory.path)), directory)
    }

    static func names(_ database: Database, type: String) throws -> [String] {
        var names: [String] = []
        try database.prepare("""
            SELECT name FROM sqlite_schema WHERE type = :type AND name NOT LIKE 'sqlite_%' ORDER BY name
            """).forEachRow([":type": .text(type)]) { names.append($0.text("name") ?? "") }
        return names
    }

    /// Datasette answers 500 for a table whose `PRAGMA foreign_key_list` has a NULL `to` (and for the tables it points at).
    @Test func everyForeignKeyNamesItsColumns() throws {
        let (store, directory) = try Self.freshStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        var keys = 0
        var unnamed: [String] = []
        try store.database.prepare("""
            SELECT m.name AS child, f."table" AS parent, f."from" AS from_column, f."to" AS to_column
            FROM sqlite_schema m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table'
            """).forEachRow { row in
            keys += 1
            if row.text("to_column") == nil { unnamed.append("\(row.text("child") ?? "").\(row.text("from_column") ?? "") -> \(row.text("parent") ?? "")") }
        }
        #expect(keys >= 22)
        #expect(unnamed == [])
    }

    /// DuckDB's SQLite scanner (and `PRAGMA table_info`) leaves out generated and hidden columns.
    @Test func everyColumnIsVisibleToTableInfo() throws {
        let (store, directory) = try Self.freshStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        var hidden: [String] = []
        try store.database.prepare("""
            SELECT m.name AS relation, c.name AS column_name, c.hidden AS hidden
            FROM sqlite_schema m, pragma_table_xinfo(m.name) c WHERE m.type = 'table'
            """).forEachRow { row in
            if row.int(at: row.columnIndex("hidden")) != 0 { hidden.append("\(row.text("relation") ?? "").\(row.text("column_name") ?? "")") }
        }
        #expect(hidden == [])
        let unitColumns = try store.database.query("SELECT name FROM pragma_table_info('unified_units')").compactMap { $0.first?.textValue }
        #expect(["is_occupied", "is_leased", "is_on_notice", "is_model", "is_down"].allSatisfy(unitColumns.contains))
    }

    /// The flags are set from `status` by the schema, on insert and on a status change, and a flag written by hand is
    /// put back.
    @Test func unitFlagsFollowStatus() throws {
        let (store, directory) = try Self.freshStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = store.database
        try db.execute("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source) VALUES ('p', 'P', 'yardi');
            INSERT INTO unified_units (unified_property_id, unit_number, status) VALUES
                ('p', '101', 'occupied'), ('p', '102', 'occupied_notice'), ('p', '103', 'occupied_notice_leased'),
                ('p', '104', 'vacant'), ('p', '105', 'vacant_leased'), ('p', '106', 'model'), ('p', '107', 'down');
            UPDATE unified_units SET status = 'vacant_leased' WHERE unit_number = '101';
            """)
        var flags: [String: [Int]] = [:]
        try db.prepare("SELECT unit_number, is_occupied, is_leased, is_on_notice, is_model, is_down FROM unified_units").forEachRow { row in
            flags[row.text("unit_number") ?? ""] = ["is_occupied", "is_leased", "is_on_notice", "is_model", "is_down"]
                .map { row.int(at: row.columnIndex($0)) ?? -1 }
        }
        #expect(flags == ["101": [0, 1, 0, 0, 0], "102": [1, 0, 1, 0, 0], "103": [1, 1, 1, 0, 0], "104": [0, 0, 0, 0, 0],
                          "105": [0, 1, 0, 0, 0], "106": [0, 0, 0, 1, 0], "107": [0, 0, 0, 0, 1]])
        // Flags given with the insert, as the sync gives them, are kept; wrong ones are put right.
        try db.execute("""
            INSERT INTO unified_units (unified_property_id, unit_number, status, \(UnitFlags.columns))
            SELECT 'p', '108', s, \(UnitFlags.values(status: "s")) FROM (SELECT 'occupied_notice_leased' AS s);
            INSERT INTO unified_units (unified_property_id, unit_number, status, is_occupied, is_leased, is_on_notice, is_model, is_down)
            VALUES ('p', '109', 'down', 1, 1, 1, 1, 0);
            """)
        #expect(try db.scalar("SELECT group_concat(is_occupied || is_leased || is_on_notice || is_model || is_down, ' ') FROM unified_units WHERE unit_number IN ('108', '109') ORDER BY unit_number")?.textValue == "11100 00001")
        try db.execute("UPDATE unified_units SET is_occupied = 1, is_leased = 1 WHERE unit_number = '104'")
        #expect(try db.scalar("SELECT is_occupied || is_leased FROM unified_units WHERE unit_number = '104'")?.textValue == "00")
    }

    /// A database written by the schema before migration 30 keeps every row, index and the lease residents (which a
    /// rebuild with foreign keys on would cascade-delete), and its flags, once migrated.
    @Test func migrationThirtyKeepsRowsIndexesAndChildren() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("unified.db").path
        let indexesBefore: [String]
        do {
            let old = try Database(path: path)
            try old.migrate(UnifiedSchema.migrations.filter { $0.version < 30 })
            try old.execute("""
                INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date) VALUES ('p', 'P', 'realpage', '2026-11-20');
                INSERT INTO unified_units (unified_property_id, unit_number, status, market_rent) VALUES ('p', '101', 'occupied', 1234.5),
                    ('p', '102', 'vacant_leased', 999.99);
                INSERT INTO unified_leases (unified_property_id, lease_id, status, is_renewal) VALUES ('p', 'L1', 'current', 0);
                INSERT INTO unified_lease_residents VALUES ('p', 'L1', 'R1', 'head');
                INSERT INTO etl_runs (run_id, trigger, started_at, status) VALUES ('r1', 'ingest', '2026-11-20T04:00:00Z', 'succeeded');
                INSERT INTO etl_run_items (run_id, stage, status) VALUES ('r1', 'fetch', 'succeeded');
                INSERT INTO audit_runs (started_at, as_of_date, first_month, last_month, properties) VALUES ('t', '2026-11-20', '2026-01', '2026-11', '[]');
                INSERT INTO audit_resolutions (unified_property_id, lease_id, charge_code, month, event, fix, action, by_name, at, run_id)
                    VALUES ('p', 'L1', 'RENT', '2026-10', 'resolved', 'f', 'a', 'me', 't', 1);
                DELETE FROM audit_resolutions;
                """)
            indexesBefore = try Self.names(old, type: "index")
        }
        let store = try UnifiedStore(dataDirectory: DataDirectory(root: directory.path))
        let db = store.database
        #expect(try db.userVersion() == UnifiedSchema.migrations.map(\.version).max())
        #expect(try db.scalar("SELECT count(*) FROM unified_lease_residents")?.integerValue == 1)
        #expect(try db.scalar("SELECT count(*) FROM etl_run_items")?.integerValue == 1)
        #expect(try db.scalar("SELECT group_concat(unit_number || ':' || is_occupied || is_leased || ':' || market_rent, ' ') FROM unified_units")?.textValue
                == "101:11:1234.5 102:01:999.99")
        #expect(Set(indexesBefore).isSubset(of: Set(try Self.names(db, type: "index"))))
        #expect(try Self.names(db, type: "table").allSatisfy { !$0.hasSuffix("_new") })
        // AUTOINCREMENT carried over: the deleted event's id is not handed out again.
        try db.execute("""
            INSERT INTO audit_resolutions (unified_property_id, lease_id, charge_code, month, event, by_name, at, run_id)
            VALUES ('p', 'L1', 'RENT', '2026-10', 'reopened', 'me', 't', 1)
            """)
        #expect(try db.scalar("SELECT max(event_id) FROM audit_resolutions")?.integerValue == 2)
        #expect(try db.scalar("PRAGMA foreign_keys")?.integerValue == 1)
        // The cascade still works through the rebuilt keys.
        try db.execute("DELETE FROM unified_leases")
        #expect(try db.scalar("SELECT count(*) FROM unified_lease_residents")?.integerValue == 0)
    }

    /// Every view compiles and answers; the money sums are exact to the cent where `SUM(REAL)` is not.
    @Test func viewsAnswerWithSumsExactToTheCent() throws {
        let (store, directory) = try Self.freshStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = store.database
        try db.execute("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date) VALUES ('p', 'P', 'yardi', '2026-11-20');
            INSERT INTO unified_units (unified_property_id, unit_number, status, vacant_since) VALUES ('p', '101', 'vacant', '2026-11-01');
            """)
        let charge = try db.prepare("""
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, charge_code, category, category_known,
                                         period, amount, amount_paid, balance)
            VALUES ('p', :id, 'R1', 'RENT', 'RENT', 1, '2026-10', :amount, 0, :amount)
            """)
        for index in 0..<10 {
            try charge.execute([":id": .text("c\(index)"), ":amount": .real(0.1)])
            charge.reset()
        }
        try charge.execute([":id": .text("c10"), ":amount": .real(0.2)])
        for (date, balance) in [("2026-10-31", 50.0), ("2026-11-20", 0.1), ("2026-11-20", 0.2)] {
            try db.prepare("""
                INSERT INTO unified_delinquency (unified_property_id, as_of_date, resident_id, current_balance, balance_0_30,
                    balance_31_60, balance_61_90, balance_over_90, prepaid, source)
                VALUES ('p', :date, :resident, :balance, :balance, 0, 0, 0, 0, 't')
                """).execute([":date": .text(date), ":resident": .text("R\(balance)"), ":balance": .real(balance)])
        }
        #expect(try db.scalar("SELECT charged FROM v_ledger_monthly WHERE month = '2026-10'")?.doubleValue == 1.2)
        #expect(try db.scalar("SELECT charges FROM v_ledger_monthly")?.integerValue == 11)
        #expect(try db.scalar("SELECT current_balance FROM v_delinquency_totals_latest")?.doubleValue == 0.3)
        #expect(try db.scalar("SELECT count(*) FROM v_delinquency_latest")?.integerValue == 2)
        #expect(try db.scalar("SELECT days_vacant FROM v_units")?.integerValue == 19)
        #expect(try db.scalar("SELECT delinquent_balance FROM v_properties")?.doubleValue == 0.3)
        for view in try Self.names(db, type: "view") {
            _ = try db.query("SELECT * FROM \(view)")
        }
    }

    /// The dictionary says what every table, view and column is: no more, no fewer, in the database's order.
    @Test func dictionaryCoversEveryRelationAndColumn() throws {
        let (store, directory) = try Self.freshStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = store.database
        var actual: [String: [String]] = [:]
        for type in ["table", "view"] {
            for name in try Self.names(db, type: type) {
                actual[name] = try db.query("SELECT name FROM pragma_table_xinfo(:name)", [":name": .text(name)]).compactMap { $0.first?.textValue }
            }
        }
        var documented: [String: [String]] = [:]
        for relation in UnifiedDictionary.relations {
            documented[relation.name] = relation.columns.map(\.name)
            for column in relation.columns { #expect(!column.meaning.isEmpty, "\(relation.name).\(column.name) has no meaning") }
            #expect(relation.isView == (try Self.names(db, type: "view").contains(relation.name)))
        }
        #expect(Set(documented.keys) == Set(actual.keys))
        for (name, columns) in actual { #expect(documented[name] == columns, "\(name)") }

        // metadata.json beside the database, which Datasette reads.
        let metadata = try Data(contentsOf: directory.appendingPathComponent("metadata.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: metadata) as? [String: Any])
        let tables = try #require((json["databases"] as? [String: Any])?["unified"] as? [String: Any])["tables"] as? [String: Any]
        #expect(Set(tables?.keys.map { $0 } ?? []) == Set(actual.keys))
    }

    /// docs/data-dictionary.md and docs/analysts.md carry the generated dictionary verbatim (OWNERDASH_RECORD_SNAPSHOTS=1
    /// rewrites it).
    @Test(arguments: [("docs/data-dictionary.md", "data-dictionary"), ("docs/analysts.md", "analyst-views")])
    func documentsCarryTheGeneratedDictionary(file: String, marker: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        let begin = "<!-- \(marker): generated from Sources/Sync/UnifiedDictionary.swift -->\n"
        let end = "<!-- /\(marker) -->"
        let generated = marker == "data-dictionary" ? UnifiedDictionary.markdown() : UnifiedDictionary.viewsMarkdown()
        let start = try #require(text.range(of: begin), "\(file) has no \(begin)")
        let stop = try #require(text.range(of: end, range: start.upperBound..<text.endIndex))
        let current = String(text[start.upperBound..<stop.lowerBound])
        if ProcessInfo.processInfo.environment["OWNERDASH_RECORD_SNAPSHOTS"] == "1", current != generated {
            try text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: generated).write(to: url, atomically: true, encoding: .utf8)
            Issue.record("rewrote the \(marker) section of \(file); run again without OWNERDASH_RECORD_SNAPSHOTS")
            return
        }
        #expect(current == generated, "\(file): the \(marker) section is not what UnifiedDictionary generates")
    }
}
