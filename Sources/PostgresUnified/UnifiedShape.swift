import Foundation
import OwnerDashCore
import SQLiteKit
import Sync

/// The unified schema read from a SQLite database migrated by `UnifiedSchema.migrations`: the one definition both
/// engines come from. PostgreSQL's tables, keys, indexes, views and comments are generated from it (`PostgresSchema`),
/// never written a second time by hand.
public struct UnifiedShape: Sendable {
    /// A column with its SQLite storage class and the PostgreSQL type a PostgreSQL user expects for it.
    public struct Column: Sendable, Equatable {
        public var name: String
        /// `INTEGER`, `REAL` or `TEXT` (unified.db's tables are STRICT).
        public var sqliteType: String
        public var postgresType: PostgresType
        public var notNull: Bool
    }

    /// A unified table: its columns in order, its key and its indexes.
    public struct Table: Sendable {
        public var name: String
        public var columns: [Column]
        /// The primary key as PostgreSQL holds it: a lone SQLite row id (`id INTEGER PRIMARY KEY`) is widened with the
        /// property or run it belongs to, since ids numbered on one host's SQLite collide with another host's.
        public var primaryKey: [String]
        /// That lone row id when the key was widened: numbered by each host's SQLite, so a mirror holding several
        /// hosts' rows numbers them afresh (nothing refers to these ids; their order within the key's owner is kept).
        public var hostRowID: String?
        public var indexes: [Index]
        /// Its rows belong to one property (`unified_property_id`): published and mirrored per property.
        public var isPropertyScoped: Bool { columns.contains { $0.name == "unified_property_id" } }
    }

    /// A secondary index (`CREATE INDEX`, or a UNIQUE constraint other than the key).
    public struct Index: Sendable {
        public var name: String
        public var isUnique: Bool
        public var columns: [String]
    }

    /// A view with its SQLite text (translated by `PostgresDialect`).
    public struct View: Sendable {
        public var name: String
        public var sql: String
    }

    public var tables: [Table]
    public var views: [View]
    /// The SQLite migration level this shape is (`PRAGMA user_version`); PostgreSQL records it too.
    public var version: Int

    /// SQLite's bookkeeping tables, which PostgreSQL has its own of (`ownerdash_schema`) or no need for, a host's
    /// own record of what it has not published yet, and where this host's last sync of each property left its ledger
    /// (`ledger_sync_marks`), what the rules of the tables it keeps read (`sync_input_marks`) and what its report
    /// events were computed from (`sync_activity_marks`, `sync_activity_prospects`) and its households' sums
    /// (`sync_yardi_households`, `sync_realpage_postings`, `sync_household_sum_marks`) and Yardi's window gaps of the
    /// last whole ledger (`sync_yardi_gap_baselines`) and the snapshots its rules by snapshot read (`sync_snapshot_marks`).
    static let bookkeeping: Set<String> = ["schema_migrations", "sqlite_sequence", "unpublished_changes", "published_syncs",
                                           "ledger_sync_marks", "sync_input_marks", "sync_activity_marks",
                                           "sync_activity_prospects", "sync_yardi_households", "sync_realpage_postings",
                                           "sync_household_sum_marks", "sync_yardi_gap_baselines",
                                           "sync_snapshot_marks"]

    /// The shape of the current `UnifiedSchema`, read from an in-memory database migrated to it (once per process).
    public static let current: UnifiedShape = {
        do {
            let database = try Database(path: ":memory:")
            try database.migrate(UnifiedSchema.migrations)
            return try UnifiedShape(reading: database)
        } catch {
            fatalError("the unified schema does not migrate in memory: \(error)")
        }
    }()

    /// Reads tables, columns, keys, indexes and views from a migrated unified database.
    public init(reading database: Database) throws {
        version = Int(try database.userVersion())
        var tables: [Table] = []
        for row in try database.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") {
            guard let name = row[0].textValue, !Self.bookkeeping.contains(name) else { continue }
            var columns: [Column] = []
            var key: [(Int64, String)] = []
            for info in try database.query("SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo(:table)",
                                            [":table": .text(name)]) {
                let column = info[0].textValue ?? ""
                // Hidden (generated) columns are computed on each engine, not stored data.
                guard info[4].integerValue == 0 else { continue }
                let type = (info[1].textValue ?? "").uppercased()
                columns.append(Column(name: column, sqliteType: type, postgresType: PostgresType(column: column, sqliteType: type),
                                      notNull: info[2].integerValue == 1))
                if let position = info[3].integerValue, position > 0 { key.append((position, column)) }
            }
            var primaryKey = key.sorted { $0.0 < $1.0 }.map(\.1)
            var hostRowID: String?
            if primaryKey.count == 1, let id = columns.first(where: { $0.name == primaryKey[0] }), id.sqliteType == "INTEGER" {
                // Only by a column that is never NULL: a key's columns are.
                if let owner = ["unified_property_id", "run_id"].first(where: { owner in
                    columns.contains { $0.name == owner && $0.notNull }
                }) {
                    primaryKey = [owner, id.name]
                    hostRowID = id.name
                }
            }
            var indexes: [Index] = []
            for index in try database.query("SELECT name, \"unique\", origin, partial FROM pragma_index_list(:table)",
                                            [":table": .text(name)]) {
                // A partial index (`WHERE ...`) serves the sync's own questions in SQLite; readers have no use for it.
                guard let indexName = index[0].textValue, index[2].textValue != "pk", index[3].integerValue == 0 else { continue }
                let indexColumns = try database.query("SELECT name FROM pragma_index_info(:index) ORDER BY seqno",
                                                      [":index": .text(indexName)]).compactMap { $0[0].textValue }
                // SQLite names UNIQUE constraints' indexes sqlite_autoindex_<table>_<n>; PostgreSQL gets a name of its own.
                let portableName = indexName.hasPrefix("sqlite_autoindex_")
                    ? "\(name)_\(indexColumns.joined(separator: "_"))_key" : indexName
                indexes.append(Index(name: portableName, isUnique: index[1].integerValue == 1, columns: indexColumns))
            }
            tables.append(Table(name: name, columns: columns, primaryKey: primaryKey, hostRowID: hostRowID,
                                indexes: indexes.sorted { $0.name < $1.name }))
        }
        self.tables = tables
        // Views in creation order (a view may read an earlier one).
        views = try database.query("SELECT name, sql FROM sqlite_schema WHERE type = 'view' ORDER BY rowid").map {
            View(name: $0[0].textValue ?? "", sql: $0[1].textValue ?? "")
        }
    }

    /// The table named `name`, if the schema has it.
    public func table(_ name: String) -> Table? { tables.first { $0.name == name } }
}

/// The PostgreSQL type of a unified column, from its SQLite storage class and the schema's naming conventions
/// (docs/data-dictionary.md, "Conventions"): flags `is_*`/`has_*`/`*_known` are booleans, `*_date` dates, `*_at`
/// times, money and percentages `numeric` (exact: a value comes back as the same double it left as), bytes `bytea`.
public enum PostgresType: String, Sendable, Equatable {
    case text, bigint, numeric, boolean, date, timestamptz, bytea

    init(column: String, sqliteType: String) {
        switch sqliteType {
        case "BLOB":
            // The forecast's model document: bytes as SQLite holds them, never read through a text encoding.
            self = .bytea
        case "INTEGER":
            self = column.hasPrefix("is_") || column.hasPrefix("has_") || column.hasSuffix("_known") ? .boolean : .bigint
        case "REAL":
            self = .numeric
        default:
            if column.hasSuffix("_date") || column == "vacant_since" {
                self = .date
            } else if column.hasSuffix("_at") {
                self = .timestamptz
            } else {
                self = .text
            }
        }
    }
}
