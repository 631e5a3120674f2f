import Foundation
import OwnerDashCore
import SQLiteKit

/// unified.db opened for writing and migrated, with the raw databases attached read-only for the sync rules.
///
/// The sync rules read raw tables as `realpage_raw.<table>` and `yardi_raw.<table>` in the same SQL that
/// writes the unified table, so a rule is one readable `INSERT ... SELECT` and no rows cross into Swift.
public final class UnifiedStore {
    public let database: Database

    /// Opens (creating and migrating) unified.db; attaches the raw databases of `dataDirectory` when they exist.
    /// `busyTimeoutMilliseconds`: how long a write waits for another connection's (the ingest's run journal waits
    /// out a property's sync).
    public init(dataDirectory: DataDirectory, busyTimeoutMilliseconds: Int32 = 5_000) throws {
        database = try Database(path: dataDirectory.unifiedDatabase, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                                pageSize: Self.pageSize)
        // The rules write a property's rows into TEMP twins and scratch tables, emptied after it (CurrentStateDiff):
        // a property's worth of rows, held in memory, in pages as large as unified.db's (the charges' twin filled 12 %
        // faster in 32 KiB pages than in 4).
        try database.keepTemporaryTablesInMemory(pageSize: Self.pageSize)
        try database.migrate(UnifiedSchema.migrations)
        // Datasette reads the data dictionary from it (`datasette unified.db -m metadata.json`).
        try UnifiedDictionary.writeMetadata(besides: dataDirectory.unifiedDatabase)
        try attachRawDatabases(of: dataDirectory)
    }

    /// The page size of a unified.db this build creates: 32 KiB, not SQLite's 4 KiB. A first sync writes a property's
    /// rows into five B-trees each (the charges' table, key and three indexes); in larger pages each insert walks fewer
    /// levels and splits pages less often, and a checkpoint copies the same bytes in fewer writes. The 500-property
    /// first sync (scripts/bench/scale.sh) took 65-71 s in 4 KiB pages, 62 s in 8, 57-58 s in 16 and 53-57 s in 32 on
    /// one machine, one after the other; a churned night, and a query of one property, cost the same within their
    /// spread. A file made before keeps its pages (docs/contributors.md says how to convert one).
    public static let pageSize = 32_768

    /// Attaches the raw databases of `dataDirectory` that exist and are not attached yet (the ingest's load creates
    /// yardi_raw.db on its first Yardi property, after RealPage properties have synced).
    public func attachRawDatabases(of dataDirectory: DataDirectory) throws {
        for (path, schema) in [(dataDirectory.realpageRawDatabase, "realpage_raw"),
                               (dataDirectory.yardiRawDatabase, "yardi_raw")] {
            if FileManager.default.fileExists(atPath: path), try !hasRaw(schema) {
                try database.attach(path: path, as: schema)
            }
        }
    }

    /// Whether a raw database is attached (a data directory may hold only one PMS).
    public func hasRaw(_ schema: String) throws -> Bool {
        try Self.hasRaw(database, schema)
    }

    /// Whether `schema` is attached to this connection.
    static func hasRaw(_ database: Database, _ schema: String) throws -> Bool {
        try database.query("PRAGMA database_list").contains { $0.count > 1 && $0[1].textValue == schema }
    }

    /// unified.db for readers (query, report, dashboard): read-only, never waits on a sync (WAL).
    public static func openForReading(dataDirectory: DataDirectory) throws -> Database {
        guard FileManager.default.fileExists(atPath: dataDirectory.unifiedDatabase) else {
            throw ConfigurationError("\(dataDirectory.unifiedDatabase): no unified database yet (run ownerdash sync or ownerdash ingest first)")
        }
        let database = try Database(path: dataDirectory.unifiedDatabase, mode: .readOnly)
        let version = try database.userVersion()
        let known = UnifiedSchema.migrations.map(\.version).max() ?? 0
        guard version == known else {
            throw ConfigurationError("\(dataDirectory.unifiedDatabase): schema version \(version), this ownerdash reads \(known) (run ownerdash sync to migrate)")
        }
        return database
    }
}
