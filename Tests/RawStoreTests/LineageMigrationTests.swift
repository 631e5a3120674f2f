import Foundation
import Testing
import SQLiteKit
@testable import RawStore

/// Raw databases written before rows were keyed by lineage: the migration keeps every row, its natural key and its
/// indexes, and the `v_` views read as the old tables did.
struct LineageMigrationTests {
    /// Every row of `sql` as column name to value, in order.
    private func rows(_ database: Database, _ sql: String) throws -> [[String: SQLValue]] {
        let statement = try database.prepare(sql)
        var all: [[String: SQLValue]] = []
        try statement.forEachRow { row in
            var named: [String: SQLValue] = [:]
            for index in 0..<row.columnCount { named[row.columnName(index)] = row.value(at: index) }
            all.append(named)
        }
        return all
    }

    @Test func anOldRealPageDatabaseKeepsItsRowsAndReadsTheSameThroughTheViews() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lineage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("realpage_raw.db").path
        let before: (rentRoll: [[String: SQLValue]], households: [[String: SQLValue]])
        do {
            let old = try Database(path: path)
            try old.migrate(RealPageRawSchema.migrations.filter { $0.version < RealPageRawSchema.keyedByLineage })
            for (run, day, units) in [("run-1", "2026-11-19", ["101", "102"]), ("run-2", "2026-11-20", ["101", "103", "104"])] {
                for (offset, unit) in units.enumerated() {
                    try old.prepare("""
                        INSERT INTO realpage_rent_roll (run_id, property_id, as_of_date, artifact, artifact_sha256, source_row,
                                                        unit_number, market_rent)
                        VALUES (:run, 'nexus_east', :day, :artifact, :sha, :row, :unit, 1450.5)
                        """).execute([":run": .text(run), ":day": .text(day), ":artifact": .text("landing/\(run)/rent_roll.xlsx"),
                                      ":sha": .text("sha-\(run)"), ":row": .integer(Int64(offset + 7)), ":unit": .text(unit)])
                }
            }
            try old.execute("""
                INSERT INTO realpage_ledger_households (property_id, resh_id, balance, run_id, as_of_date, artifact, artifact_sha256)
                VALUES ('nexus_east', '900', 25.5, 'run-2', '2026-11-20', 'landing/run-2/ledger.xml', 'sha-ledger');
                """)
            before = (try rows(old, "SELECT * FROM realpage_rent_roll ORDER BY id"),
                      try rows(old, "SELECT * FROM realpage_ledger_households ORDER BY resh_id"))
        }

        let store = try RealPageRawStore(path: path)
        let database = store.database
        #expect(try database.userVersion() == RealPageRawSchema.migrations.last?.version)
        // The columns a later migration added (the Rent Roll's contact, notice and deposits) are empty on the old rows.
        let added: Set = ["unit_designation", "phone", "email", "notice_for_date", "deposits_on_hand", "total_charges"]
        let viewed = try rows(database, "SELECT * FROM v_realpage_rent_roll ORDER BY id")
        #expect(viewed.allSatisfy { row in added.allSatisfy { row[$0] == .null } })
        #expect(viewed.map { $0.filter { $0.key != "lineage_id" && !added.contains($0.key) } } == before.rentRoll)
        #expect(try rows(database, "SELECT * FROM v_realpage_ledger_households ORDER BY resh_id")
                    .map { $0.filter { $0.key != "lineage_id" } } == before.households)
        // The text lineage is stored once per artifact.
        let columns = try database.query("SELECT name FROM pragma_table_info('realpage_rent_roll')").compactMap { $0[0].textValue }
        #expect(!columns.contains("artifact") && !columns.contains("run_id") && columns.contains("lineage_id"))
        #expect(try database.scalar("SELECT count(*) FROM raw_lineage") == .integer(3))
        // The natural key still holds: the same sheet row of the same snapshot is refused.
        #expect(try database.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'realpage_rent_roll_snapshot_row'") == .integer(1))
        #expect(throws: SQLiteError.self) {
            try database.execute("""
                INSERT INTO realpage_rent_roll (lineage_id, property_id, as_of_date, source_row, unit_number)
                VALUES (1, 'nexus_east', '2026-11-19', 7, '999')
                """)
        }
        // A household is still one row per (property, resh_id).
        #expect(throws: SQLiteError.self) {
            try database.execute("""
                INSERT INTO realpage_ledger_households (property_id, resh_id, lineage_id, as_of_date)
                VALUES ('nexus_east', '900', 1, '2026-11-20')
                """)
        }
    }

    @Test func anOldYardiLedgerKeepsItsRowsIndexesAndChecks() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lineage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("yardi_raw.db").path
        let before: [[String: SQLValue]]
        let changes: [[String: SQLValue]]
        do {
            let old = try Database(path: path)
            try old.migrate(YardiRawSchema.migrations.filter { $0.version < 8 })
            try old.execute("""
                INSERT INTO yardi_transactions (run_id, property_id, as_of_date, artifact, artifact_sha256, source_row, kind,
                                                transaction_id, tenant_code, transaction_date, amount, first_run_id)
                VALUES ('run-1', 'yp_riverwalk', '2026-11-19', 'a.xml', 'sha-a', 1, 'charge', 'c1', 't1', '2026-11-01', 1000, 'run-1'),
                       ('run-2', 'yp_riverwalk', '2026-11-20', 'b.xml', 'sha-b', 1, 'payment', 'p1', 't1', '2026-11-03', 990, 'run-2');
                """)
            before = try rows(old, "SELECT * FROM yardi_transactions ORDER BY id")
            // The change log: a correction the run-2 answer showed (its rows carry that lineage) and a removal a
            // reconciling pull found, whose answer wrote no row (its sha256 comes from loaded_artifacts).
            try old.execute("""
                INSERT INTO loaded_artifacts (operation, property_id, as_of_date, artifact, artifact_sha256, run_id, row_count)
                VALUES ('GetResidentTransactions_Login', 'yp_riverwalk', '2026-11-21', 'c.xml', 'sha-c', 'run-3', 0);
                INSERT INTO yardi_transaction_changes (property_id, kind, transaction_id, change, found_by, run_id, as_of_date,
                                                       artifact, old_amount, new_amount, detail)
                VALUES ('yp_riverwalk', 'payment', 'p1', 'corrected', 'window', 'run-2', '2026-11-20', 'b.xml', 1000, 990, 'amount'),
                       ('yp_riverwalk', 'charge', 'c9', 'removed', 'full_refresh', 'run-3', '2026-11-21', 'c.xml', 50, NULL, 'gone');
                """)
            changes = try rows(old, "SELECT * FROM yardi_transaction_changes ORDER BY id")
        }
        let store = try YardiRawStore(path: path)
        let database = store.database
        #expect(try rows(database, "SELECT * FROM v_yardi_transactions ORDER BY id").map { $0.filter { $0.key != "lineage_id" } }
                == before)
        // The change log points at lineages too, and its view reads as the old table did, with each answer's sha256.
        let changeColumns = try database.query("SELECT name FROM pragma_table_info('yardi_transaction_changes')").compactMap { $0[0].textValue }
        #expect(changeColumns.contains("lineage_id") && !changeColumns.contains("run_id") && !changeColumns.contains("artifact"))
        let viewed = try rows(database, "SELECT * FROM v_yardi_transaction_changes ORDER BY id")
        #expect(viewed.map { $0.filter { $0.key != "lineage_id" && $0.key != "artifact_sha256" } } == changes)
        #expect(viewed.map { $0["artifact_sha256"] } == [.text("sha-b"), .text("sha-c")])
        #expect(try database.scalar("SELECT count(*) FROM raw_lineage") == .integer(3), "a.xml, b.xml and c.xml")
        let indexes = try database.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'yardi_transactions' ORDER BY 1")
            .compactMap { $0[0].textValue }
        #expect(indexes == ["yardi_transactions_date", "yardi_transactions_lineage", "yardi_transactions_merged_vendor_id",
                            "yardi_transactions_open_charges", "yardi_transactions_tenant"])
        // The kind's CHECK came along.
        #expect(throws: SQLiteError.self) {
            try database.execute("""
                INSERT INTO yardi_transactions (lineage_id, property_id, as_of_date, source_row, kind, transaction_id, amount)
                VALUES (1, 'yp_riverwalk', '2026-11-20', 2, 'refund', 'r1', 5)
                """)
        }
    }

    /// Every schema entry (type, name, table, SQL) of a database, in name order.
    private func schema(_ database: Database) throws -> [[SQLValue]] {
        try database.query("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
    }

    /// A new database's tables are empty, so the migration creates them anew instead of copying and renaming; the
    /// schema must come out exactly as the copy-and-rename path leaves a database that had rows.
    @Test func emptyTablesAreCreatedAnewWithTheSameSchemaAsCopiedOnes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lineage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let withRows = directory.appendingPathComponent("with_rows.db").path
        var copiedTables = 0
        do {
            let old = try Database(path: withRows)
            try old.migrate(RealPageRawSchema.migrations.filter { $0.version < RealPageRawSchema.keyedByLineage })
            // A row in every table that carries the text lineage: each one takes the copy-and-rename path.
            let tables = try old.query("""
                SELECT m.name FROM sqlite_master m
                WHERE m.type = 'table' AND m.name NOT IN ('loaded_artifacts') AND m.name NOT LIKE 'sqlite_%'
                  AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'artifact_sha256')
                """).compactMap { $0[0].textValue }
            #expect(tables.count > 20)
            for table in tables {
                // Every column gets a value its type and CHECK accept: the first allowed word of a CHECK
                // (... IN ('a', ...)), else a number or a text.
                let columns = try old.query("""
                    SELECT name, type FROM pragma_table_info(:table) WHERE pk = 0
                    """, [":table": .text(table)])
                let createSQL = try old.scalar("SELECT sql FROM sqlite_master WHERE name = :table", [":table": .text(table)])?
                    .textValue ?? ""
                var names: [String] = [], values: [String] = []
                for column in columns {
                    guard let name = column[0].textValue else { continue }
                    names.append("\"\(name)\"")
                    if let allowed = Self.firstAllowedWord(of: name, in: createSQL) {
                        values.append("'\(allowed)'")
                    } else {
                        values.append((column[1].textValue ?? "").uppercased().contains("INT") ? "1"
                                      : (column[1].textValue ?? "").uppercased() == "REAL" ? "1.5" : "'x'")
                    }
                }
                // A table whose other constraints refuse the made-up row stays empty (it takes the new path in both).
                if (try? old.execute("INSERT INTO \"\(table)\" (\(names.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))")) != nil {
                    copiedTables += 1
                }
            }
            #expect(copiedTables * 4 >= tables.count * 3, "\(copiedTables) of \(tables.count) tables had a row to copy")
        }
        _ = try RealPageRawStore(path: withRows)
        let fresh = try RealPageRawStore(path: directory.appendingPathComponent("fresh.db").path)
        let copied = try Database(path: withRows)
        let copiedSchema = try schema(copied), freshSchema = try schema(fresh.database)
        #expect(copiedSchema.count == freshSchema.count)
        for (left, right) in zip(copiedSchema, freshSchema) { #expect(left == right) }
    }

    /// The first word a `CHECK (column IN ('word', ...))` allows, if the statement has one for the column.
    private static func firstAllowedWord(of column: String, in createSQL: String) -> String? {
        for check in RawLineage.checkConstraints(createSQL) where check.contains("\(column) IN (") || check.contains("\"\(column)\" IN (") {
            let afterIn = check.components(separatedBy: " IN (").dropFirst().first ?? ""
            return afterIn.split(separator: "'").first.map(String.init)
        }
        return nil
    }

    @Test func checkConstraintsAreReadWholeWithQuotesAndNestedParentheses() {
        let sql = """
            CREATE TABLE t (
                kind TEXT NOT NULL check (kind IN ('a)', 'b(c')),
                amount REAL CHECK(amount > (0 - 1)),
                recheck INTEGER,
                "check_note" TEXT
            ) STRICT
            """
        #expect(RawLineage.checkConstraints(sql) == ["CHECK (kind IN ('a)', 'b(c'))", "CHECK (amount > (0 - 1))"])
        #expect(RawLineage.checkConstraints("CREATE TABLE u (x TEXT)") == [])
        #expect(RawLineage.checkConstraints("CREATE TABLE v (x TEXT CHECK (x <> 'é'))") == ["CHECK (x <> 'é')"])
    }
}
