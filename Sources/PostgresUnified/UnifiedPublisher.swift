import Foundation
import OwnerDashCore
import PostgresKit
import SQLiteKit
import Sync

/// Copies what a host synced into its local unified.db to the shared PostgreSQL database: one property at a time,
/// each in one transaction with `COPY` (readers see the property before or after, never half of it), and the run
/// journal after a run. The local unified.db stays the sync's working copy; the server holds the portfolio.
///
/// A property's publication replaces only that property's rows, under an advisory lock on the property alone, so
/// hosts publishing different properties never wait on each other.
public final class UnifiedPublisher {
    let connection: PostgresConnection
    let shape: UnifiedShape
    /// Recorded with each publication (`ownerdash_publications.host`, `ownerdash runs`).
    public let host: String

    /// Connects and brings the server's schema up to date.
    public init(url: DatabaseURL, host: String, shape: UnifiedShape = .current) throws {
        connection = try PostgresConnection(url: url, applicationName: "ownerdash publish")
        self.shape = shape
        self.host = host
        try PostgresSchema.migrate(connection, to: shape)
    }

    var propertyTables: [UnifiedShape.Table] { PublishedScopes.propertyTables(shape) }
    var runTables: [UnifiedShape.Table] { PublishedScopes.runTables(shape) }

    /// Replaces every row of a portfolio-wide scope's tables (`PublishedScopes.portfolio`: the charge audit) on the
    /// server with those of `database`, in one transaction. Its writers take turns (`ScopeWriter`), so a whole-table
    /// replacement loses nothing another wrote.
    @discardableResult
    public func publishScope(_ scope: String, from database: Database) throws -> Int {
        let tables = PublishedScopes.tables(ofScope: scope, shape)
        precondition(!tables.isEmpty, "no published scope \(scope)")
        return try connection.transaction {
            var rows = 0
            for table in tables.reversed() { try connection.execute("DELETE FROM \(table.name)") }
            for table in tables { rows += try copy(table, from: database, where: "1 = 1", [:]) }
            try record(scope: scope, rows: rows)
            return rows
        }
    }

    /// Refused: a publication that does not come from syncing the property now (`prune`, `ownerdash publish`) found
    /// the server holding another host's sync of it, which it would have replaced with this host's older rows.
    public struct PublishedElsewhere: Error, CustomStringConvertible {
        public let property: String
        /// The sync the server holds (`ownerdash_publications.synced_run`), a run of another host.
        public let syncedRun: String
        public var description: String {
            "\(property): left as the server holds it: another host's sync \(syncedRun) is there, newer than this unified.db's "
                + "(the host that syncs a property publishes it; `ownerdash ingest --property \(property)` here takes it over)"
        }
    }

    /// Replaces the property's rows on the server with those of `database` (its unified.db) in one transaction;
    /// returns the rows sent. A property `database` does not hold is removed from the server. `keepingOtherHosts`:
    /// not after a sync of the property (`prune`, `ownerdash publish`), so a server holding another host's sync of it
    /// is left as it is (`PublishedElsewhere`).
    @discardableResult
    public func publishProperty(_ key: String, from database: Database, keepingOtherHosts: Bool = false) throws -> Int {
        let (rows, syncedRun) = try connection.transaction {
            try lock(key)
            let held = try heldSync(key)
            if keepingOtherHosts { try requireNotElsewhere(key, held: held, in: database) }
            return try sendWhole(key, from: database, held: held)
        }
        Self.remember(key, syncedRun: syncedRun, in: database)
        return rows
    }

    /// What a publication sent: rows, and whether the property went whole.
    public struct Sent: Sendable, Equatable {
        public var rows: Int
        public var whole: Bool
    }

    /// Brings the server's copy of the property up to `database`'s by the rows its syncs changed since the last
    /// publication from here (`unpublished_changes`), in one transaction: each changed row deleted by its key and
    /// sent again if it still exists, each noted night of a per-night table replaced. Only when the server holds the
    /// property as that publication left it (`published_syncs` is the server's `synced_run`); else, or when nothing
    /// was noted, the property goes whole (`publishProperty`).
    @discardableResult
    public func publishChanges(_ key: String, from database: Database, keepingOtherHosts: Bool = false) throws -> Sent {
        let property: [String: SQLValue] = [":key": .text(key)]
        let base = try Self.publishedSync(key, in: database)
        var noted: [String: [String]] = [:]
        for row in try database.query("SELECT table_name, row_key FROM unpublished_changes WHERE unified_property_id = :key", property) {
            if let table = row[0].textValue, let rowKey = row[1].textValue { noted[table, default: []].append(rowKey) }
        }
        let (sent, syncedRun) = try connection.transaction { () -> (Sent, String?) in
            try lock(key)
            let held = try heldSync(key)
            if keepingOtherHosts { try requireNotElsewhere(key, held: held, in: database) }
            guard let base, held == base, !noted.isEmpty else {
                let (rows, syncedRun) = try sendWhole(key, from: database, held: held)
                return (Sent(rows: rows, whole: true), syncedRun)
            }
            var rows = 0
            for table in propertyTables {
                guard let keys = noted[table.name] else { continue }
                if table.name == "unified_properties" {
                    try connection.execute("DELETE FROM unified_properties WHERE unified_property_id = :key", ["key": .text(key)])
                    rows += try copy(table, from: database, where: "unified_property_id = :key", property)
                } else if Synchronizer.nightTables.contains(table.name) {
                    for night in keys {
                        try connection.execute("DELETE FROM \(table.name) WHERE unified_property_id = :key AND as_of_date = :night",
                                               ["key": .text(key), "night": .text(night)])
                        rows += try copy(table, from: database, where: "unified_property_id = :key AND as_of_date = :night",
                                         [":key": .text(key), ":night": .text(night)])
                    }
                } else {
                    rows += try sendRows(table, key: key, from: database)
                }
            }
            let syncedRun = try Self.syncedRun(key, in: database)
            try record(scope: "property:\(key)", rows: rows, syncedRun: syncedRun)
            return (Sent(rows: rows, whole: false), syncedRun)
        }
        Self.remember(key, syncedRun: syncedRun, in: database)
        return sent
    }

    /// The noted rows of a table with a key: deleted on the server by their keys (sent through a temporary table of
    /// the key's columns, typed as the table's), then those `database` still holds copied.
    private func sendRows(_ table: UnifiedShape.Table, key: String, from database: Database) throws -> Int {
        let keyColumns = table.primaryKey.filter { $0 != "unified_property_id" }
        precondition(table.primaryKey.first == "unified_property_id" && !keyColumns.isEmpty, "\(table.name) is not keyed by property")
        let names = keyColumns.joined(separator: ", ")
        try connection.execute("CREATE TEMP TABLE changed_keys ON COMMIT DROP AS SELECT \(names) FROM \(table.name) WITH NO DATA")
        let types = keyColumns.map { name in table.columns.first { $0.name == name }!.postgresType }
        let select = try database.prepare("""
            SELECT \(keyColumns.indices.map { "json_extract(row_key, '$[\($0)]')" }.joined(separator: ", "))
            FROM unpublished_changes WHERE unified_property_id = :key AND table_name = :table
            """)
        try select.bind([":key": .text(key), ":table": .text(table.name)])
        let keys = AnySequence<[String?]> { () -> AnyIterator<[String?]> in
            AnyIterator {
                guard (try? select.step()) == true else { return nil }
                return types.indices.map { PublishedValue.text(select.value(at: $0), as: types[$0]) }
            }
        }
        try connection.copyIn("COPY changed_keys (\(names)) FROM STDIN", rows: keys)
        select.reset()
        try connection.execute("""
            DELETE FROM \(table.name) t USING changed_keys k
            WHERE t.unified_property_id = :key AND \(keyColumns.map { "t.\($0) = k.\($0)" }.joined(separator: " AND "))
            """, ["key": .text(key)])
        try connection.execute("DROP TABLE changed_keys")
        let localKey = "json_array(" + keyColumns.joined(separator: ", ") + ")"
        return try copy(table, from: database, where: """
            unified_property_id = :key AND \(localKey) IN (
                SELECT row_key FROM unpublished_changes WHERE unified_property_id = :key AND table_name = '\(table.name)')
            """, [":key": .text(key)])
    }

    /// The property's advisory lock, for the transaction: its publications take turns, other properties' never wait.
    private func lock(_ key: String) throws {
        try connection.execute("SELECT pg_advisory_xact_lock(hashtext('ownerdash:property:' || :key))", ["key": .text(key)])
    }

    /// Replaces every row of the property on the server and records the publication; returns the rows sent and the
    /// sync they are of. When the server holds the property (`held`, read under the property's lock) as another
    /// publication than this host's last (another host had it: a host that died, an operator's re-sync elsewhere),
    /// its history is first taken into `database` (`takeHistory`), so the whole publication keeps it.
    private func sendWhole(_ key: String, from database: Database, held: String?) throws -> (rows: Int, syncedRun: String?) {
        if let held, held != (try Self.publishedSync(key, in: database)),
           try database.scalar("SELECT count(*) FROM unified_properties WHERE unified_property_id = :key", [":key": .text(key)])?.integerValue == 1 {
            try takeHistory(key, into: database)
        }
        var rows = 0
        for table in propertyTables {
            try connection.execute("DELETE FROM \(table.name) WHERE unified_property_id = :key", ["key": .text(key)])
            rows += try copy(table, from: database, where: "unified_property_id = :key", [":key": .text(key)])
        }
        let syncedRun = try Self.syncedRun(key, in: database)
        try record(scope: "property:\(key)", rows: rows, syncedRun: syncedRun)
        return (rows, syncedRun)
    }

    /// The sync whose rows the server holds for the property (`ownerdash_publications.synced_run`); nil when it holds
    /// none.
    private func heldSync(_ key: String) throws -> String? {
        Array(try connection.query("SELECT synced_run FROM ownerdash_publications WHERE scope = :scope",
                                   ["scope": .text("property:\(key)")])).first?["synced_run"] ?? nil
    }

    /// Throws `PublishedElsewhere` when the sync the server holds of the property (`held`) is one no run of
    /// `database` made (`etl_runs`): another host's.
    private func requireNotElsewhere(_ key: String, held: String?, in database: Database) throws {
        guard let held,
              try database.scalar("SELECT count(*) FROM etl_runs WHERE run_id = :run", [":run": .text(held)])?.integerValue == 0
        else { return }
        throw PublishedElsewhere(property: key, syncedRun: held)
    }

    /// The sync this host last published of the property (`published_syncs`); nil when none.
    private static func publishedSync(_ key: String, in database: Database) throws -> String? {
        try database.scalar("SELECT synced_run FROM published_syncs WHERE unified_property_id = :key", [":key": .text(key)])?.textValue
    }

    /// The property's tables whose rows are its history by night (`as_of_date` in the key: the metrics' snapshots, the
    /// delinquency lists, the checks, the occupancy a backfill rebuilt): a host that did not sync a night has none of it.
    var historyTables: [UnifiedShape.Table] { propertyTables.filter { $0.primaryKey.contains("as_of_date") } }

    /// Copies into `database` the server's nights of the property's history tables that `database` lacks: what the
    /// hosts that had the property before synced. Without it a whole publication from a host that took the property
    /// over (its unified.db holding tonight alone) replaced the property's trends, delinquency history and checks on
    /// the server with that one night. History a host rebuilds from its raw data (Income Statement months, closed work
    /// orders) is not taken: its sync keeps what its own raw data holds, as on a first night.
    private func takeHistory(_ key: String, into database: Database) throws {
        try database.withTransaction {
            for table in historyTables {
                let nights = try database.query("SELECT DISTINCT as_of_date FROM \(table.name) WHERE unified_property_id = :key",
                                                [":key": .text(key)]).compactMap { $0[0].textValue.flatMap(LocalDate.init(iso:)) }
                let lacking = nights.isEmpty ? "" : " AND as_of_date NOT IN (" + nights.map { "'\($0.iso)'" }.joined(separator: ", ") + ")"
                _ = try UnifiedMirror.copy(table, where: "unified_property_id = \(PostgresSchema.literal(key))" + lacking,
                                           from: connection, into: database)
            }
        }
    }

    /// The run of the property's last sync in `database`.
    private static func syncedRun(_ key: String, in database: Database) throws -> String? {
        try database.scalar("SELECT last_run_id FROM unified_properties WHERE unified_property_id = :key", [":key": .text(key)])?.textValue
    }

    /// After a publication committed: the server holds the property as `syncedRun` left it, and nothing noted before
    /// is unpublished. Best effort (a read-only unified.db, say): left undone, the next publication goes whole.
    private static func remember(_ key: String, syncedRun: String?, in database: Database) {
        _ = try? database.withTransaction {
            try database.prepare("DELETE FROM unpublished_changes WHERE unified_property_id = :key").execute([":key": .text(key)])
            if let syncedRun {
                try database.prepare("INSERT OR REPLACE INTO published_syncs (unified_property_id, synced_run) VALUES (:key, :run)")
                    .execute([":key": .text(key), ":run": .text(syncedRun)])
            } else {
                try database.prepare("DELETE FROM published_syncs WHERE unified_property_id = :key").execute([":key": .text(key)])
            }
        }
    }

    /// Replaces the journal rows of `runIDs` (etl_runs and their items) on the server.
    @discardableResult
    public func publishRuns(_ runIDs: [String], from database: Database) throws -> Int {
        guard !runIDs.isEmpty else { return 0 }
        return try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('ownerdash:runs'))")
            var rows = 0
            for runID in runIDs {
                for table in runTables {
                    try connection.execute("DELETE FROM \(table.name) WHERE run_id = :run", ["run": .text(runID)])
                    rows += try copy(table, from: database, where: "run_id = :run", [":run": .text(runID)])
                }
            }
            try record(scope: "runs", rows: rows)
            return rows
        }
    }

    /// What `publishAll` sent.
    public struct Moved: Sendable, Equatable {
        public var properties: Int
        public var runs: Int
        /// The forecast's models sent; nil when the server kept its own (or `database` holds none).
        public var models: Int?
        /// The properties left as the server holds them, another host's sync there (`PublishedElsewhere`, said).
        public var left: [String] = []
    }

    /// Publishes every property and every run `database` holds (`ownerdash publish`: a unified.db moved to the server),
    /// and its forecast models when the server holds none yet. A property the server holds as another host's sync is
    /// left as it is.
    public func publishAll(from database: Database, progress: (String, Int) -> Void = { _, _ in }) throws -> Moved {
        let keys = try database.query("SELECT unified_property_id FROM unified_properties ORDER BY unified_property_id")
            .compactMap { $0[0].textValue }
        var left: [String] = []
        for key in keys {
            do {
                progress(key, try publishProperty(key, from: database, keepingOtherHosts: true))
            } catch let elsewhere as PublishedElsewhere {
                left.append(elsewhere.description)
            }
        }
        let runs = try database.query("SELECT run_id FROM etl_runs ORDER BY started_at").compactMap { $0[0].textValue }
        try publishRuns(runs, from: database)
        return Moved(properties: keys.count - left.count, runs: runs.count, models: try publishFirstModels(from: database),
                     left: left)
    }

    /// The models of `database` (the forecast scope, whole) when the server has none: readers on the server then
    /// score as the moved unified.db did. Models already there were trained since on the server's data
    /// (`forecast train --database-url`) and are newer than the moved file's; they are kept. Under the scope's lock,
    /// so a training meanwhile is not overwritten.
    private func publishFirstModels(from database: Database) throws -> Int? {
        let local = try database.scalar("SELECT count(*) FROM forecast_models")?.integerValue ?? 0
        guard local > 0 else { return nil }
        return try connection.transaction { () -> Int? in
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('ownerdash:scope:' || :scope))", ["scope": .text("forecast")])
            guard try connection.scalar("SELECT count(*) FROM forecast_models") == "0" else { return nil }
            var rows = 0
            for table in PublishedScopes.tables(ofScope: "forecast", shape) {
                rows += try copy(table, from: database, where: "1 = 1", [:])
            }
            try record(scope: "forecast", rows: rows)
            return rows
        }
    }

    /// Streams `table`'s rows matching `condition` from SQLite into `COPY ... FROM STDIN`, each value in the text
    /// PostgreSQL reads for the column's type.
    private func copy(_ table: UnifiedShape.Table, from database: Database, where condition: String,
                      _ values: [String: SQLValue]) throws -> Int {
        let names = table.columns.map(\.name).joined(separator: ", ")
        // `main.`: a sync that keeps its TEMP twins between properties (Synchronizer's `keepsTwins`) publishes each
        // property on the same connection, and an unqualified name would read the twin.
        let select = try database.prepare("SELECT \(names) FROM main.\(table.name) WHERE \(condition)")
        try select.bind(values)
        let types = table.columns.map(\.postgresType)
        let rows = AnySequence<[String?]> { () -> AnyIterator<[String?]> in
            AnyIterator {
                guard (try? select.step()) == true else { return nil }
                return types.indices.map { PublishedValue.text(select.value(at: $0), as: types[$0]) }
            }
        }
        let sent = try connection.copyIn("COPY \(table.name) (\(names)) FROM STDIN", rows: rows)
        select.reset()
        return sent
    }

    /// Records the publication: the scope's generation moves on, so mirrors copy it again.
    private func record(scope: String, rows: Int, syncedRun: String? = nil) throws {
        try connection.execute("""
            INSERT INTO ownerdash_publications (scope, generation, host, rows, synced_run)
            VALUES (:scope, nextval('ownerdash_generation'), :host, :rows, :synced_run)
            ON CONFLICT (scope) DO UPDATE SET generation = EXCLUDED.generation, published_at = now(),
                                              host = EXCLUDED.host, rows = EXCLUDED.rows, synced_run = EXCLUDED.synced_run
            """, ["scope": .text(scope), "host": .text(host), "rows": .integer(Int64(rows)),
                  "synced_run": syncedRun.map(PostgresValue.text) ?? .null])
    }

    /// Whether the server holds the property as `database` last synced it (the run of its rows): a property skipped as
    /// unchanged is published again only when it is not (a first night on the server, a publication that failed).
    public func isCurrent(_ key: String, in database: Database) throws -> Bool {
        let local = try database.query("SELECT last_run_id FROM unified_properties WHERE unified_property_id = :key",
                                       [":key": .text(key)]).first?.first?.textValue
        let published = try connection.query("SELECT synced_run FROM ownerdash_publications WHERE scope = :scope",
                                             ["scope": .text("property:\(key)")])
        guard let row = Array(published).first else { return false }
        return row["synced_run"] == local
    }
}

/// Which unified tables travel together to the server and back: per property, per run, or whole (a portfolio-wide
/// scope that one writer at a time replaces). One definition for the publisher and the mirror.
public enum PublishedScopes {
    /// Portfolio-wide scopes and their tables, parents first.
    public static let portfolio: [String: [String]] = [
        "audit": ["audit_runs", "audit_run_properties", "audit_lease_charges", "audit_results", "audit_resolutions"],
        // What was sent to whom: the record that keeps a notice from going out twice, whichever host sends it.
        "notices": ["notices_sent"],
        // The delinquency forecast's models: every reader scores with the model the portfolio's latest training
        // stored, so its answers are the same on every host as from the unified.db it was trained in.
        "forecast": ["forecast_models"],
    ]

    /// Every table keyed by property, but those of a portfolio-wide scope.
    static func propertyTables(_ shape: UnifiedShape) -> [UnifiedShape.Table] {
        let whole = Set(portfolio.values.joined())
        return shape.tables.filter { $0.isPropertyScoped && !whole.contains($0.name) }
    }

    /// The run journal's tables, published per run.
    static func runTables(_ shape: UnifiedShape) -> [UnifiedShape.Table] {
        ["etl_runs", "etl_run_items"].compactMap { shape.table($0) }
    }

    /// A portfolio-wide scope's tables, parents first; empty for an unknown scope.
    static func tables(ofScope scope: String, _ shape: UnifiedShape) -> [UnifiedShape.Table] {
        (portfolio[scope] ?? []).compactMap { shape.table($0) }
    }
}

/// A command that writes a portfolio-wide scope (`audit run`, `audit resolve`) through the server: it holds the scope's
/// advisory lock from before it reads the server's data until its rows are published, so writers on several hosts
/// take turns and none overwrites what another wrote meanwhile. The lock goes with the connection.
public final class ScopeWriter {
    let lock: PostgresConnection
    let publisher: UnifiedPublisher
    public let scope: String

    /// Connects and waits for the scope's lock; `host` is recorded with the scope's publication.
    public init(url: DatabaseURL, scope: String, host: String) throws {
        self.scope = scope
        publisher = try UnifiedPublisher(url: url, host: host)
        lock = try PostgresConnection(url: url, applicationName: "ownerdash \(scope)")
        try lock.execute("SELECT pg_advisory_lock(hashtext('ownerdash:scope:' || :scope))", ["scope": .text(scope)])
    }

    /// Publishes the scope's tables from the unified database at `path` (the mirror the command wrote).
    public func publish(from path: String) throws {
        try publisher.publishScope(scope, from: Database(path: path, mode: .readOnly))
    }
}

/// A SQLite value as the text PostgreSQL reads for a column's type, and back.
enum PublishedValue {
    /// The COPY text of `value` for a column of `type` (nil: NULL).
    static func text(_ value: SQLValue, as type: PostgresType) -> String? {
        switch value {
        case .null: return nil
        case .integer(let number): return type == .boolean ? (number == 0 ? "f" : "t") : String(number)
        // The shortest text that reads back as the same double: numeric keeps it exactly.
        case .real(let number): return "\(number)"
        case .text(let text): return text
        case .blob(let bytes):
            // bytea's hex input (`\x...`): the bytes exactly, whatever they hold; text only if the column is.
            guard type == .bytea else { return String(decoding: bytes, as: UTF8.self) }
            return "\\x" + Hex.encode(bytes)
        }
    }

    /// The expression a mirror selects for a column: the text SQLite held, whatever PostgreSQL's own output style.
    static func selectExpression(_ column: UnifiedShape.Column) -> String {
        switch column.postgresType {
        case .boolean: "\(column.name)::integer"
        case .date: "to_char(\(column.name), 'YYYY-MM-DD')"
        case .timestamptz: "to_char(\(column.name) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
        // Hex, whatever the server's bytea_output: the mirror turns it back into the same bytes.
        case .bytea: "encode(\(column.name), 'hex')"
        case .text, .bigint, .numeric: column.name
        }
    }

    /// A column's SQLite storage class, told apart once per table rather than once per field copied.
    enum Storage {
        case integer, real, blob, text

        init(sqliteType: String) {
            switch sqliteType {
            case "INTEGER": self = .integer
            case "REAL": self = .real
            case "BLOB": self = .blob
            default: self = .text
            }
        }
    }

    /// Binds a mirrored field (its bytes as the server sent them, escapes undone; nil for NULL) at `index` of
    /// `statement` as `storage`; false when the text is not one (the caller names the table and column). Text is bound
    /// from the bytes themselves: a reader's first copy binds a million fields.
    static func bind(_ field: UnsafeRawBufferPointer?, as storage: Storage, to statement: Statement, at index: Int32) throws -> Bool {
        guard let field else { try statement.bind(.null, at: index); return true }
        switch storage {
        case .text:
            try statement.bindText(field, at: index)
        case .integer:
            guard let number = integer(field) else { return false }
            try statement.bind(.integer(number), at: index)
        case .real:
            guard let number = Double(String(decoding: field, as: UTF8.self)) else { return false }
            try statement.bind(.real(number), at: index)
        case .blob:
            guard let bytes = Hex.decode(String(decoding: field, as: UTF8.self)) else { return false }
            try statement.bind(.blob(bytes), at: index)
        }
        return true
    }

    /// A bigint's decimal digits (and sign) as PostgreSQL prints them, read without a String; anything else is read
    /// as Swift reads an Int64's text, so both give the same answer.
    static func integer(_ field: UnsafeRawBufferPointer) -> Int64? {
        var negative = false
        var digits = field[...]
        if digits.first == 0x2D { negative = true; digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return Int64(String(decoding: field, as: UTF8.self))
        }
        var value: Int64 = 0
        for digit in digits { value = value * 10 + Int64(digit - 0x30) }
        return negative ? -value : value
    }
}
