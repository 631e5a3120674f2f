import Foundation
import PostgresKit
import Sync

/// unified data's schema on PostgreSQL, generated from `UnifiedShape` (itself read from `UnifiedSchema`'s SQLite
/// migrations) and the data dictionary (`UnifiedDictionary`, as `COMMENT ON`), and brought up to date on connect.
///
/// Migrating is additive, as SQLite's migrations are: a missing table is created, a missing column added, the views
/// and comments written again; a column whose type differs from the one expected is an error naming it, never a
/// silent conversion. `ownerdash_schema` records the SQLite migration level the server is at.
public enum PostgresSchema {
    /// OwnerDash's own bookkeeping on the server: the schema level and what was published when (`UnifiedPublisher`).
    static let bookkeeping = """
        CREATE TABLE IF NOT EXISTS ownerdash_schema (
            version     integer     NOT NULL,
            migrated_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE SEQUENCE IF NOT EXISTS ownerdash_generation;
        CREATE TABLE IF NOT EXISTS ownerdash_publications (
            scope        text        PRIMARY KEY,
            generation   bigint      NOT NULL,
            published_at timestamptz NOT NULL DEFAULT now(),
            host         text        NOT NULL,
            rows         bigint      NOT NULL,
            synced_run   text
        );
        CREATE TABLE IF NOT EXISTS ownerdash_logins (
            login      text        PRIMARY KEY,
            role       text        NOT NULL CHECK (role IN ('owner', 'manager')),
            created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE IF NOT EXISTS ownerdash_login_properties (
            login               text NOT NULL,
            unified_property_id text NOT NULL,
            PRIMARY KEY (login, unified_property_id)
        );
        COMMENT ON TABLE ownerdash_logins IS 'The read-only logins made by ownerdash logins add: owners read every row, managers the rows of their properties (ownerdash_login_properties).';
        CREATE TABLE IF NOT EXISTS ownerdash_hosts (
            host    text        PRIMARY KEY,
            seen_at timestamptz NOT NULL
        );
        COMMENT ON TABLE ownerdash_hosts IS 'Each ingest host and when it last said it was alive (every third of its claim timeout while it runs).';
        CREATE TABLE IF NOT EXISTS ownerdash_claims (
            run_date            date        NOT NULL,
            unified_property_id text        NOT NULL,
            state               text        NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'claimed', 'done', 'failed')),
            host                text,
            lease_until         timestamptz,
            attempts            integer     NOT NULL DEFAULT 0,
            opened_at           timestamptz NOT NULL DEFAULT now(),
            claimed_at          timestamptz,
            finished_at         timestamptz,
            run_id              text,
            PRIMARY KEY (run_date, unified_property_id)
        );
        COMMENT ON TABLE ownerdash_claims IS 'Which host fetches, loads and syncs each property on each run date: claimed under a lease its host renews, taken by another host once the lease lapses, done or failed with the run that did it.';
        CREATE TABLE IF NOT EXISTS ownerdash_property_hosts (
            unified_property_id text        PRIMARY KEY,
            host                text        NOT NULL,
            since               timestamptz NOT NULL DEFAULT now()
        );
        COMMENT ON TABLE ownerdash_property_hosts IS 'The host holding each property''s raw history (the last that ingested it): its later nights go to that host while it is alive.';
        COMMENT ON TABLE ownerdash_publications IS 'What each host last published: one row per property (property:<key>) and one for the run journal (runs); synced_run is the run whose sync the published rows are; generation grows with every publication, so a reader copies only what changed since it last looked.';
        """

    /// Brings the server's schema to `shape`'s level; concurrent callers (several hosts starting at once) wait for
    /// the first under an advisory lock.
    public static func migrate(_ connection: PostgresConnection, to shape: UnifiedShape = .current) throws {
        try connection.execute("SELECT pg_advisory_lock(hashtext('ownerdash:schema'))")
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock(hashtext('ownerdash:schema'))") }
        try connection.execute(bookkeeping)
        let current = Int(try connection.scalar("SELECT max(version) FROM ownerdash_schema") ?? "0") ?? 0
        if current > shape.version {
            throw PostgresError(message: "the server's unified schema is at version \(current), newer than this ownerdash (\(shape.version)); upgrade ownerdash",
                                context: "migrating \(connection.url)")
        }
        // A table can join the server at the same level: one a host kept to itself that is now published (the
        // forecast's models), so a server this level of an earlier ownerdash set up lacks it.
        guard try current < shape.version || missingTables(connection, shape: shape) else { return }
        try connection.transaction {
            for view in shape.views.reversed() { try connection.execute("DROP VIEW IF EXISTS \(view.name) CASCADE") }
            // Columns a migration since the server's level dropped: a row written without one must not fail its
            // NOT NULL, nor a reader see a column no host keeps up to date.
            for retired in UnifiedSchema.retiredColumns where retired.version > current && retired.version <= shape.version {
                try connection.execute("ALTER TABLE IF EXISTS \(retired.table) DROP COLUMN IF EXISTS \(retired.column)")
            }
            for table in shape.tables {
                let existing = try connection.query("""
                    SELECT column_name, data_type FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name = :table
                    """, ["table": .text(table.name)])
                if existing.isEmpty {
                    try connection.execute(createTable(table))
                } else {
                    let types = Dictionary(existing.map { ($0["column_name"] ?? "", $0["data_type"] ?? "") }, uniquingKeysWith: { a, _ in a })
                    for column in table.columns {
                        if let type = types[column.name] {
                            guard dataType(type, matches: column.postgresType) else {
                                throw PostgresError(message: "\(table.name).\(column.name) is \(type) on the server, expected \(column.postgresType.rawValue)",
                                                    context: "migrating \(connection.url)")
                            }
                        } else {
                            try connection.execute("ALTER TABLE \(table.name) ADD COLUMN \(column.name) \(column.postgresType.rawValue)")
                        }
                    }
                }
                for index in table.indexes {
                    try connection.execute("CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(index.name) ON \(table.name) (\(index.columns.joined(separator: ", ")))")
                }
            }
            for view in shape.views { try connection.execute(PostgresDialect.view(view.sql)) }
            try connection.execute(comments(for: shape))
            // Views were made again and tables may be new: the analysts' scopes are applied to them too.
            if try AnalystLogins.isInstalled(on: connection) { try AnalystLogins.install(on: connection, shape: shape) }
            try connection.execute("INSERT INTO ownerdash_schema (version) VALUES (:version)", ["version": .integer(Int64(shape.version))])
        }
    }

    /// Whether a table of `shape` is not on the server yet.
    static func missingTables(_ connection: PostgresConnection, shape: UnifiedShape) throws -> Bool {
        let present = try connection.query("""
            SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()
            """).compactMap { $0["table_name"] }
        return !Set(shape.tables.map(\.name)).isSubset(of: present)
    }

    /// Throws unless the server holds the unified schema at `shape`'s level: nothing published yet, a server behind
    /// this ownerdash (a writer of this version migrates it) or ahead of it (upgrade), each in one line.
    public static func requireCurrent(_ connection: PostgresConnection, shape: UnifiedShape = .current) throws {
        guard try connection.scalar("SELECT to_regclass('ownerdash_schema')::text") != nil else {
            throw PostgresError(message: "no OwnerDash data on the server yet (ownerdash publish, or sync or ingest with --database-url, puts it there)",
                                context: "reading \(connection.url)")
        }
        let version = Int(try connection.scalar("SELECT max(version) FROM ownerdash_schema") ?? "0") ?? 0
        if version < shape.version {
            throw PostgresError(message: "the server's unified schema is at version \(version), this ownerdash reads \(shape.version): a sync, ingest or publish of this version migrates it",
                                context: "reading \(connection.url)")
        }
        if version > shape.version {
            throw PostgresError(message: "the server's unified schema is at version \(version), newer than this ownerdash (\(shape.version)); upgrade ownerdash",
                                context: "reading \(connection.url)")
        }
    }

    /// `CREATE TABLE` for one unified table. No foreign keys: a property's rows arrive whole in one transaction
    /// (`UnifiedPublisher`), and SQLite already held them to their keys before they left.
    static func createTable(_ table: UnifiedShape.Table) -> String {
        var lines = table.columns.map { column in
            "    \(column.name) \(column.postgresType.rawValue)\(column.notNull ? " NOT NULL" : "")"
        }
        if !table.primaryKey.isEmpty { lines.append("    PRIMARY KEY (\(table.primaryKey.joined(separator: ", ")))") }
        return "CREATE TABLE \(table.name) (\n\(lines.joined(separator: ",\n"))\n)"
    }

    /// The data dictionary as `COMMENT ON` statements for every table, view and column it describes.
    static func comments(for shape: UnifiedShape) -> String {
        let present = Set(shape.tables.map(\.name) + shape.views.map(\.name))
        var statements: [String] = []
        for relation in UnifiedDictionary.relations where present.contains(relation.name) {
            let kind = relation.isView ? "VIEW" : "TABLE"
            statements.append("COMMENT ON \(kind) \(relation.name) IS \(literal(relation.description))")
            let columns: Set<String> = relation.isView ? [] : Set(shape.table(relation.name)?.columns.map(\.name) ?? [])
            for column in relation.columns where relation.isView || columns.contains(column.name) {
                statements.append("COMMENT ON COLUMN \(relation.name).\(column.name) IS \(literal(column.meaning))")
            }
        }
        return statements.joined(separator: ";\n")
    }

    /// A SQL string literal.
    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// Whether `information_schema.columns.data_type` is the type expected.
    static func dataType(_ type: String, matches expected: PostgresType) -> Bool {
        switch expected {
        case .text: type == "text"
        case .bigint: type == "bigint"
        case .numeric: type == "numeric"
        case .boolean: type == "boolean"
        case .date: type == "date"
        case .timestamptz: type == "timestamp with time zone"
        case .bytea: type == "bytea"
        }
    }
}
