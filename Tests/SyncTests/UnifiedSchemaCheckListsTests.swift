import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// Unified migration 55 (CheckLists): the CHECK constraints that listed three or more values are comparisons, the
/// same constraints, so a wrong value is still refused and a database migrated from before keeps every row.
@Suite struct UnifiedSchemaCheckListsTests {
    static func temporaryDatabase() throws -> (Database, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("checks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (try Database(path: directory.appendingPathComponent("unified.db").path), directory)
    }

    static func insertCharge(_ database: Database, id: String, category: String) throws {
        try database.prepare("""
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, charge_code, category, category_known,
                                         period, amount, amount_paid, balance)
            VALUES ('nexus_east', :id, 'r1', 'RENT', :category, 1, '2026-11', 1200.0, 0.0, 1200.0)
            """).execute([":id": .text(id), ":category": .text(category)])
    }

    @Test func listsBecomeComparisonsAndTwoValueListsStay() {
        let sql = """
            CREATE TABLE t (
                status TEXT NOT NULL CHECK (status IN ('occupied', 'occupied_notice',
                                                       'vacant')),
                flag   INTEGER CHECK (flag IN (0, 1)),
                note   TEXT CHECK (note IN ('a, b', 'c', 'd'))
            )
            """
        let rewritten = CheckLists.rewrite(sql)
        #expect(rewritten.contains("CHECK (status = 'occupied' OR status = 'occupied_notice' OR status = 'vacant')"))
        #expect(rewritten.contains("CHECK (flag IN (0, 1))"))
        #expect(rewritten.contains("CHECK (note = 'a, b' OR note = 'c' OR note = 'd')"))
        #expect(CheckLists.rewrite(rewritten) == rewritten)
    }

    @Test func aDatabaseFromBeforeKeepsItsRowsAndStillRefusesAWrongValue() throws {
        let (database, directory) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        try database.migrate(UnifiedSchema.migrations.filter { $0.version < 55 })
        try database.execute("INSERT INTO unified_properties (unified_property_id, name, pms_source) VALUES ('nexus_east', 'Nexus East', 'realpage')")
        try Self.insertCharge(database, id: "c1", category: "RENT")
        // A second connection open across the migration reads the new schema (schema_version advanced).
        let reader = try Database(path: database.path)
        #expect(try reader.scalar("SELECT count(*) FROM unified_charges")?.integerValue == 1)

        try database.migrate(UnifiedSchema.migrations)

        #expect(try database.scalar("PRAGMA integrity_check")?.textValue == "ok")
        #expect(try database.scalar("SELECT category FROM unified_charges WHERE charge_id = 'c1'")?.textValue == "RENT")
        let lists = try database.query("SELECT name, sql FROM sqlite_schema WHERE type = 'table'").compactMap { row -> String? in
            guard let sql = row[1].textValue, CheckLists.rewrite(sql) != sql else { return nil }
            return row[0].textValue
        }
        #expect(lists == [], "tables still checking a list of three or more values: \(lists)")
        #expect(try reader.scalar("SELECT sql FROM sqlite_schema WHERE name = 'unified_charges'")?.textValue?
            .contains("category = 'FEES'") == true)
        try Self.insertCharge(database, id: "c2", category: "FEES")
        #expect(throws: SQLiteError.self) { try Self.insertCharge(database, id: "c3", category: "PARKING") }
        #expect(throws: SQLiteError.self) { try Self.insertCharge(reader, id: "c4", category: "rent") }
        #expect(try database.scalar("SELECT count(*) FROM unified_charges")?.integerValue == 2)
    }
}
