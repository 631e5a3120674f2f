import Foundation
import OwnerDashCore
import SQLiteKit

/// The lineage of raw rows, kept once per artifact in `raw_lineage` (run, property, as-of date, artifact path and
/// sha256) and pointed at from every raw row by `lineage_id`; `v_<table>` views show a raw table with the text
/// columns its rows carried before (docs/contracts.md, "Databases").
///
/// Raw rows keep `property_id` and `as_of_date` as columns of their own: the natural keys, the sync's filters and
/// retention select on them, and a snapshot moved to a later date (UnchangedSnapshots) changes its rows' date,
/// not their lineage.
public enum RawLineage {
    /// The lineage table.
    static let ddl = """
        CREATE TABLE raw_lineage (
            id              INTEGER PRIMARY KEY,
            run_id          TEXT NOT NULL,
            property_id     TEXT NOT NULL,
            as_of_date      TEXT NOT NULL,
            artifact        TEXT NOT NULL,
            artifact_sha256 TEXT NOT NULL,
            UNIQUE (artifact_sha256, property_id, as_of_date, run_id, artifact)
        ) STRICT;
        """

    /// The text lineage a raw row carried before `raw_lineage`, replaced by `lineage_id`.
    static let textColumns = ["run_id", "artifact", "artifact_sha256"]

    /// Columns every raw table starts with: `keyed` (tables created from the lineage migration on) points at
    /// `raw_lineage`; otherwise the text lineage of the released migrations that created the older tables.
    static func columns(keyed: Bool) -> String {
        keyed ? """
            id              INTEGER PRIMARY KEY,
            lineage_id      INTEGER NOT NULL,
            property_id     TEXT    NOT NULL,
            as_of_date      TEXT    NOT NULL,
            source_row      INTEGER NOT NULL,
            """ : """
            id              INTEGER PRIMARY KEY,
            run_id          TEXT    NOT NULL,
            property_id     TEXT    NOT NULL,
            as_of_date      TEXT    NOT NULL,
            artifact        TEXT    NOT NULL,
            artifact_sha256 TEXT    NOT NULL,
            source_row      INTEGER NOT NULL,
            """
    }

    /// The analysts' view of a keyed raw table: its columns, then the run, artifact and sha256 of each row's lineage.
    static func view(_ table: String) -> String {
        """
        CREATE VIEW v_\(table) AS
            SELECT t.*, l.run_id, l.artifact, l.artifact_sha256
            FROM \(table) t JOIN raw_lineage l ON l.id = t.lineage_id;
        """
    }

    /// The id of a lineage, added when new.
    public static func id(_ database: Database, runID: String, propertyID: String, asOf: String, artifact: String,
                          sha256: String) throws -> Int64 {
        let values: [String: SQLValue] = [":run": .text(runID), ":property": .text(propertyID), ":as_of": .text(asOf),
                                          ":artifact": .text(artifact), ":sha256": .text(sha256)]
        try database.prepare("""
            INSERT INTO raw_lineage (run_id, property_id, as_of_date, artifact, artifact_sha256)
            VALUES (:run, :property, :as_of, :artifact, :sha256)
            ON CONFLICT DO NOTHING
            """).execute(values)
        guard let id = try database.scalar("""
            SELECT id FROM raw_lineage
            WHERE artifact_sha256 = :sha256 AND property_id = :property AND as_of_date = :as_of AND run_id = :run
              AND artifact = :artifact
            """, values)?.integerValue else {
            throw SQLiteError(code: 1, message: "no raw_lineage row for \(artifact)", context: "raw lineage")
        }
        return id
    }

    /// Removes the lineages no raw row points at any more (after retention deleted their rows).
    ///
    /// One `NOT IN` per table rather than one over the `UNION` of them all: the same rows (no `lineage_id` is NULL),
    /// but SQLite builds a small set per table instead of deduplicating every raw row into one (a year of the 30
    /// demo properties, 3.9 million rows: 1.12 -> 0.80 s of CPU). Every table is still read whole each prune, so the
    /// cost follows the raw data kept, not what the prune removed.
    static func removeUnreferenced(_ database: Database) throws -> Int {
        let tables = try keyedTables(database)
        guard !tables.isEmpty else { return 0 }
        let unreferenced = tables.map { "id NOT IN (SELECT lineage_id FROM \($0))" }.joined(separator: " AND ")
        try database.execute("DELETE FROM raw_lineage WHERE \(unreferenced)")
        return database.changes
    }

    /// The tables whose rows point at `raw_lineage`.
    static func keyedTables(_ database: Database) throws -> [String] {
        try database.query("""
            SELECT m.name FROM sqlite_master m
            WHERE m.type = 'table' AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'lineage_id')
            ORDER BY m.name
            """).compactMap { $0[0].textValue }
    }

    // MARK: - The migration

    /// The migration that keys raw rows by lineage: creates `raw_lineage` and rebuilds every table carrying the text
    /// lineage (all of run_id, property_id, as_of_date, artifact, artifact_sha256; `loaded_artifacts` excepted), found by
    /// `PRAGMA table_info`: rows, ids, natural keys, indexes, CHECK constraints and STRICT kept, `lineage_id` in place of
    /// `run_id`, a `v_<table>` view each.
    static func migration(version: Int) -> Migration {
        Migration(version: version, name: "raw rows keyed by lineage", sql: ddl, rebuildsTables: true) { database in
            let tables = try database.query("""
                SELECT name, sql FROM sqlite_master
                WHERE type = 'table' AND name NOT IN ('loaded_artifacts', 'raw_lineage') AND name NOT LIKE 'sqlite_%'
                ORDER BY name
                """)
            for row in tables {
                guard let table = row[0].textValue else { continue }
                if try rebuild(database, table: table, createSQL: row[1].textValue ?? "") {
                    try database.execute(view(table))
                }
            }
        }
    }

    /// The migration that keys a ledger's change log (realpage_ledger_changes, yardi_transaction_changes) by
    /// lineage, as `migration(version:)` did the snapshot tables: the log carried the run and artifact as text but no
    /// sha256, so the generic rebuild passed it by. Each change points at the answer that showed it (the lineage its
    /// merge wrote rows under; one added from `loaded_artifacts` where that merge wrote none, as a removal does), and
    /// `v_<table>` shows the run, artifact and sha256 again.
    static func changeLogMigration(version: Int, table: String) -> Migration {
        let lineageOf = """
            l.run_id = c.run_id AND l.property_id = c.property_id AND l.as_of_date = c.as_of_date AND l.artifact = c.artifact
            """
        return Migration(version: version, name: "\(table) keyed by lineage", sql: """
            INSERT INTO raw_lineage (run_id, property_id, as_of_date, artifact, artifact_sha256)
            SELECT DISTINCT c.run_id, c.property_id, c.as_of_date, c.artifact,
                   coalesce((SELECT l.artifact_sha256 FROM raw_lineage l WHERE \(lineageOf) ORDER BY l.id LIMIT 1),
                            (SELECT a.artifact_sha256 FROM loaded_artifacts a
                             WHERE a.artifact = c.artifact AND a.property_id = c.property_id LIMIT 1),
                            '')
            FROM \(table) c WHERE true
            ON CONFLICT DO NOTHING;
            CREATE TABLE \(table)_keyed (
                id             INTEGER PRIMARY KEY,
                lineage_id     INTEGER NOT NULL,
                property_id    TEXT NOT NULL,
                kind           TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                change         TEXT NOT NULL CHECK (change IN ('added', 'corrected', 'reversed', 'applied', 'removed')),
                found_by       TEXT NOT NULL CHECK (found_by IN ('window', 'full_refresh')),
                as_of_date     TEXT NOT NULL,
                old_amount     REAL,
                new_amount     REAL,
                old_balance    REAL,
                new_balance    REAL,
                detail         TEXT NOT NULL
            ) STRICT;
            INSERT INTO \(table)_keyed (id, lineage_id, property_id, kind, transaction_id, change, found_by, as_of_date,
                                        old_amount, new_amount, old_balance, new_balance, detail)
            SELECT c.id, (SELECT min(l.id) FROM raw_lineage l WHERE \(lineageOf)), c.property_id, c.kind, c.transaction_id,
                   c.change, c.found_by, c.as_of_date, c.old_amount, c.new_amount, c.old_balance, c.new_balance, c.detail
            FROM \(table) c;
            DROP TABLE \(table);
            ALTER TABLE \(table)_keyed RENAME TO \(table);
            CREATE INDEX \(table)_property ON \(table) (property_id, lineage_id);
            \(view(table))
            """, rebuildsTables: true)
    }

    /// One column as `PRAGMA table_info` states it.
    private struct Column {
        var name: String
        var type: String
        var notNull: Bool
        var defaultValue: String?
        var primaryKeyOrder: Int
    }

    /// Rebuilds `table` with `lineage_id` when it carries the text lineage; returns whether it did.
    private static func rebuild(_ database: Database, table: String, createSQL: String) throws -> Bool {
        let columns = try database.query("""
            SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(:table) ORDER BY cid
            """, [":table": .text(table)]).map {
            Column(name: $0[0].textValue ?? "", type: $0[1].textValue ?? "", notNull: $0[2].integerValue == 1,
                   defaultValue: $0[3].textValue, primaryKeyOrder: Int($0[4].integerValue ?? 0))
        }
        let names = Set(columns.map(\.name))
        guard names.isSuperset(of: textColumns + ["property_id", "as_of_date"]), !names.contains("lineage_id") else {
            return false
        }
        let primaryKey = columns.filter { $0.primaryKeyOrder > 0 }.sorted { $0.primaryKeyOrder < $1.primaryKeyOrder }
        let rowidAlias = primaryKey.count == 1 && primaryKey[0].type.uppercased() == "INTEGER"
        var definitions: [String] = []
        var kept: [String] = []
        for column in columns {
            if column.name == "run_id" {
                definitions.append("lineage_id INTEGER NOT NULL")
                continue
            }
            if textColumns.contains(column.name) { continue }
            kept.append(quote(column.name))
            var definition = "\(quote(column.name)) \(column.type)"
            if rowidAlias && column.primaryKeyOrder == 1 { definition += " PRIMARY KEY" }
            if column.notNull { definition += " NOT NULL" }
            if let value = column.defaultValue { definition += " DEFAULT \(value)" }
            definitions.append(definition)
        }
        if !primaryKey.isEmpty && !rowidAlias {
            definitions.append("PRIMARY KEY (\(primaryKey.map { quote($0.name) }.joined(separator: ", ")))")
        }
        for unique in try database.query("""
            SELECT name FROM pragma_index_list(:table) WHERE origin = 'u' ORDER BY seq
            """, [":table": .text(table)]).compactMap({ $0[0].textValue }) {
            let keyColumns = try database.query("SELECT name FROM pragma_index_info(:index) ORDER BY seqno",
                                                [":index": .text(unique)]).compactMap { $0[0].textValue }
            definitions.append("UNIQUE (\(keyColumns.map(quote).joined(separator: ", ")))")
        }
        definitions += checkConstraints(createSQL)
        let strict = createSQL.trimmingWhitespace.uppercased().hasSuffix("STRICT")
        let indexes = try database.query("""
            SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = :table AND sql IS NOT NULL ORDER BY name
            """, [":table": .text(table)]).compactMap { $0[0].textValue }

        let create = """
            (
                \(definitions.joined(separator: ",\n    "))
            )\(strict ? " STRICT" : "")
            """
        if try database.scalar("SELECT 1 FROM \(quote(table)) LIMIT 1") == nil {
            // An empty table (every table of a new database) is created anew: no rows to copy, and no RENAME, which
            // makes SQLite rewrite and re-read every schema entry. On a new realpage_raw.db that rename, table after
            // table, was most of the migrations' cost: a third of a 50,000-row `load` (1.5 G of its 4.4 G instructions).
            try database.execute("""
                DROP TABLE \(quote(table));
                CREATE TABLE \(quote(table)) \(create);
                """)
            for index in indexes { try database.execute(index) }
            return true
        }
        let keyed = quote(table + "_keyed")
        try database.execute("""
            INSERT INTO raw_lineage (run_id, property_id, as_of_date, artifact, artifact_sha256)
            SELECT DISTINCT run_id, property_id, as_of_date, artifact, artifact_sha256 FROM \(quote(table)) WHERE true
            ON CONFLICT DO NOTHING;
            CREATE TABLE \(keyed) \(create);
            INSERT INTO \(keyed) (\(kept.joined(separator: ", ")), lineage_id)
            SELECT \(kept.map { "t.\($0)" }.joined(separator: ", ")), l.id
            FROM \(quote(table)) t JOIN raw_lineage l
              ON l.artifact_sha256 = t.artifact_sha256 AND l.property_id = t.property_id AND l.as_of_date = t.as_of_date
             AND l.run_id = t.run_id AND l.artifact = t.artifact;
            DROP TABLE \(quote(table));
            ALTER TABLE \(keyed) RENAME TO \(quote(table));
            """)
        for index in indexes { try database.execute(index) }
        return true
    }

    /// The `CHECK (...)` constraints of a `CREATE TABLE` statement, each as a table constraint.
    ///
    /// Read byte by byte (the keyword, identifiers and parentheses are ASCII; text inside quotes is copied whole):
    /// a scan by `Character` took 3.7 M instructions a table, most of a new database's migrations.
    static func checkConstraints(_ createSQL: String) -> [String] {
        let bytes = Array(createSQL.utf8)
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F || byte >= 0x80
        }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        let keyword = Array("check".utf8)
        var found: [String] = []
        var index = 0
        while index + keyword.count <= bytes.count {
            let matches = keyword.indices.allSatisfy { bytes[index + $0] | 0x20 == keyword[$0] }
            guard matches, index == 0 || !isWordByte(bytes[index - 1]) else { index += 1; continue }
            var cursor = index + keyword.count
            while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "(") else { index += 1; continue }
            var depth = 0, inString = false, end = cursor
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "'") { inString.toggle() }
                if !inString {
                    if byte == UInt8(ascii: "(") { depth += 1 }
                    if byte == UInt8(ascii: ")") { depth -= 1; if depth == 0 { break } }
                }
                end += 1
            }
            guard end < bytes.count else { break }
            found.append("CHECK " + String(decoding: bytes[cursor...end], as: UTF8.self))
            index = end + 1
        }
        return found
    }

    private static func quote(_ name: String) -> String {
        name.utf8.contains(UInt8(ascii: "\"")) ? "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            : "\"" + name + "\""
    }
}
