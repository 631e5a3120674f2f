import Foundation
import OwnerDashCore
import PostgresKit
import SQLiteKit
import Sync

/// A reader's local copy of the unified data held on PostgreSQL: a unified.db (same schema, same SQL) that holds what
/// the server published, refreshed by what changed since it last looked (`ownerdash_publications.generation`).
///
/// Every metric, report and page reads it with the same SQL as a SQLite unified.db, so an answer is the same whichever
/// engine holds the data: one dialect for every question, and the server's tables, views and types for analysts.
public final class UnifiedMirror: @unchecked Sendable {
    // @unchecked: used by one thread at a time (a command, or serve's refresh thread); its connections are its own.
    /// Where the mirror lives: `<data-dir>/postgres-mirror/unified.db`.
    public static func path(in dataDirectory: DataDirectory) -> String {
        (dataDirectory.path("postgres-mirror") as NSString).appendingPathComponent("unified.db")
    }

    let connection: PostgresConnection
    let database: Database
    let shape: UnifiedShape
    public let path: String

    /// What one refresh copied.
    public struct Refresh: Sendable, Equatable {
        /// Properties copied again (new or republished) and removed.
        public var propertiesCopied: [String] = []
        public var propertiesRemoved: [String] = []
        public var runsCopied = false
        /// Portfolio-wide scopes copied again (`audit`).
        public var scopesCopied: [String] = []
        public var rows = 0
        public var changed: Bool { !propertiesCopied.isEmpty || !propertiesRemoved.isEmpty || runsCopied || !scopesCopied.isEmpty }
    }

    /// Opens (creating and migrating) the mirror of `dataDirectory` and connects to the server.
    public init(url: DatabaseURL, dataDirectory: DataDirectory, shape: UnifiedShape = .current) throws {
        try dataDirectory.create()
        path = Self.path(in: dataDirectory)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        connection = try PostgresConnection(url: url, applicationName: "ownerdash read")
        self.shape = shape
        // A reader never changes the server's schema (its login may only read): it checks the level instead.
        try PostgresSchema.requireCurrent(connection, shape: shape)
        database = try Database(path: path, busyTimeoutMilliseconds: 60_000, pageSize: UnifiedStore.pageSize)
        try database.migrate(UnifiedSchema.migrations)
        try database.execute("""
            CREATE TABLE IF NOT EXISTS mirror_generations (
                scope      TEXT    PRIMARY KEY,
                generation INTEGER NOT NULL
            ) STRICT
            """)
    }

    /// Copies what the server published since the last refresh, in one local transaction (readers of the mirror see
    /// the refresh whole) from one server snapshot (REPEATABLE READ: the generations and the rows agree).
    @discardableResult
    public func refresh() throws -> Refresh {
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { _ = try? connection.execute("COMMIT") }
        var published: [String: Int64] = [:]
        for row in try connection.query("SELECT scope, generation FROM ownerdash_publications") {
            if let scope = row["scope"], let generation = row["generation"].flatMap({ Int64($0) }) { published[scope] = generation }
        }
        var seen: [String: Int64] = [:]
        for row in try database.query("SELECT scope, generation FROM mirror_generations") {
            if let scope = row[0].textValue, let generation = row[1].integerValue { seen[scope] = generation }
        }
        let changed = published.filter { seen[$0.key] != $0.value }.keys.sorted()
        let removed = seen.keys.filter { published[$0] == nil }.sorted()
        var refresh = Refresh()
        guard !changed.isEmpty || !removed.isEmpty else { return refresh }
        let propertyTables = PublishedScopes.propertyTables(shape)
        let runTables = PublishedScopes.runTables(shape)
        try database.withTransaction {
            // The server keeps no foreign keys and sends tables in name order; SQLite checks them all at commit.
            try database.execute("PRAGMA defer_foreign_keys = ON")
            for scope in removed + changed {
                if scope.hasPrefix("property:") {
                    let key = String(scope.dropFirst("property:".count))
                    for table in propertyTables {
                        try database.prepare("DELETE FROM \(table.name) WHERE unified_property_id = :key").execute([":key": .text(key)])
                    }
                    if published[scope] != nil {
                        for table in propertyTables {
                            refresh.rows += try copy(table, where: "unified_property_id = \(PostgresSchema.literal(key))")
                        }
                        refresh.propertiesCopied.append(key)
                    } else {
                        refresh.propertiesRemoved.append(key)
                    }
                } else if scope == "runs" {
                    for table in runTables.reversed() { try database.execute("DELETE FROM \(table.name)") }
                    for table in runTables { refresh.rows += try copy(table, where: "true") }
                    refresh.runsCopied = true
                } else {
                    let tables = PublishedScopes.tables(ofScope: scope, shape)
                    for table in tables.reversed() { try database.execute("DELETE FROM \(table.name)") }
                    if published[scope] != nil {
                        for table in tables { refresh.rows += try copy(table, where: "true") }
                    }
                    if !tables.isEmpty { refresh.scopesCopied.append(scope) }
                }
                if let generation = published[scope] {
                    try database.prepare("INSERT OR REPLACE INTO mirror_generations (scope, generation) VALUES (:scope, :generation)")
                        .execute([":scope": .text(scope), ":generation": .integer(generation)])
                } else {
                    try database.prepare("DELETE FROM mirror_generations WHERE scope = :scope").execute([":scope": .text(scope)])
                }
            }
        }
        return refresh
    }

    /// Streams the server's rows of `table` matching `condition` into the mirror's table.
    private func copy(_ table: UnifiedShape.Table, where condition: String) throws -> Int {
        try Self.copy(table, where: condition, from: connection, into: database)
    }

    /// Streams the server's rows of `table` matching `condition` into the same table of the SQLite unified data
    /// `database` (a mirror; a host's unified.db taking a property's history over, UnifiedPublisher). A host-numbered
    /// row id (`UnifiedShape.Table.hostRowID`) is left for SQLite to number, in the server's key order: two hosts' rows
    /// may carry the same id.
    static func copy(_ table: UnifiedShape.Table, where condition: String, from connection: PostgresConnection,
                     into database: Database) throws -> Int {
        let columns = table.columns.filter { $0.name != table.hostRowID }
        let names = columns.map(\.name)
        let insert = try database.prepare("INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))")
        let select = columns.map(PublishedValue.selectExpression).joined(separator: ", ")
        let order = table.hostRowID == nil ? "" : " ORDER BY \(table.primaryKey.joined(separator: ", "))"
        let storage = columns.map { PublishedValue.Storage(sqliteType: $0.sqliteType) }
        return try connection.copyOut("COPY (SELECT \(select) FROM \(table.name) WHERE \(condition)\(order)) TO STDOUT") { row in
            guard row.count == columns.count else {
                throw ConfigurationError("\(connection.url): \(table.name) sent \(row.count) fields a row, not its \(columns.count) columns")
            }
            for (offset, column) in columns.enumerated() {
                let bound = try row.withBytes(offset) { field in
                    try PublishedValue.bind(field, as: storage[offset], to: insert, at: Int32(offset + 1))
                }
                guard bound else {
                    throw ConfigurationError("\(connection.url): \(table.name).\(column.name) holds \"\(row.text(offset) ?? "")\", not a \(column.sqliteType)")
                }
            }
            while try insert.step() {}
            insert.resetKeepingBindings()
        }
    }
}
