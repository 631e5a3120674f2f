import Foundation
import OwnerDashCore
import SQLiteKit

/// One recorded run (an etl_runs row) with the counts `runs list` shows.
public struct RunRecord: Sendable, Equatable, Codable {
    public var runID: String
    public var trigger: String
    public var command: String?
    public var asOf: String?
    public var startedAt: String
    public var finishedAt: String?
    public var status: String
    public var pid: Int?
    public var host: String?
    public var properties: Int
    public var artifactsFetched: Int
    /// Fetch items that failed.
    public var artifactsFailed: Int
    public var rowsLoaded: Int
    public var propertiesSynced: Int
    /// Sync items that failed.
    public var propertiesFailed: Int
    /// Failed items of every stage.
    public var failures: Int
    public var warnings: Int
    /// Why the run ended as it did, in words (a refused run: who held the lock); nil for most runs.
    public var detail: String?

    enum CodingKeys: String, CodingKey {
        case trigger, command, status, pid, host, properties, failures, warnings, detail
        case runID = "run_id"
        case asOf = "as_of_date"
        case startedAt = "started_at"
        case finishedAt = "finished_at"
        case artifactsFetched = "artifacts_fetched"
        case artifactsFailed = "artifacts_failed"
        case rowsLoaded = "rows_loaded"
        case propertiesSynced = "properties_synced"
        case propertiesFailed = "properties_failed"
        case durationSeconds = "duration_seconds"
    }

    /// Seconds from start to finish; nil while running or when abandoned.
    public var durationSeconds: Int? {
        guard let finishedAt, let end = Timestamp.date(finishedAt), let start = Timestamp.date(startedAt) else { return nil }
        return max(0, Int(end.timeIntervalSince(start).rounded()))
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        runID = try c.decode(String.self, forKey: .runID)
        trigger = try c.decode(String.self, forKey: .trigger)
        command = try c.decodeIfPresent(String.self, forKey: .command)
        asOf = try c.decodeIfPresent(String.self, forKey: .asOf)
        startedAt = try c.decode(String.self, forKey: .startedAt)
        finishedAt = try c.decodeIfPresent(String.self, forKey: .finishedAt)
        status = try c.decode(String.self, forKey: .status)
        pid = try c.decodeIfPresent(Int.self, forKey: .pid)
        host = try c.decodeIfPresent(String.self, forKey: .host)
        properties = try c.decode(Int.self, forKey: .properties)
        artifactsFetched = try c.decode(Int.self, forKey: .artifactsFetched)
        artifactsFailed = try c.decode(Int.self, forKey: .artifactsFailed)
        rowsLoaded = try c.decode(Int.self, forKey: .rowsLoaded)
        propertiesSynced = try c.decode(Int.self, forKey: .propertiesSynced)
        propertiesFailed = try c.decode(Int.self, forKey: .propertiesFailed)
        failures = try c.decode(Int.self, forKey: .failures)
        warnings = try c.decode(Int.self, forKey: .warnings)
        detail = try c.decodeIfPresent(String.self, forKey: .detail)
    }

    /// Every field, explicit nulls included, plus `duration_seconds`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(runID, forKey: .runID)
        try c.encode(trigger, forKey: .trigger)
        try c.encode(command, forKey: .command)
        try c.encode(asOf, forKey: .asOf)
        try c.encode(startedAt, forKey: .startedAt)
        try c.encode(finishedAt, forKey: .finishedAt)
        try c.encode(durationSeconds, forKey: .durationSeconds)
        try c.encode(status, forKey: .status)
        try c.encode(pid, forKey: .pid)
        try c.encode(host, forKey: .host)
        try c.encode(properties, forKey: .properties)
        try c.encode(artifactsFetched, forKey: .artifactsFetched)
        try c.encode(artifactsFailed, forKey: .artifactsFailed)
        try c.encode(rowsLoaded, forKey: .rowsLoaded)
        try c.encode(propertiesSynced, forKey: .propertiesSynced)
        try c.encode(propertiesFailed, forKey: .propertiesFailed)
        try c.encode(failures, forKey: .failures)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(detail, forKey: .detail)
    }

    init(row: [SQLValue]) {
        func text(_ i: Int) -> String? { row[i].textValue }
        func int(_ i: Int) -> Int { Int(row[i].integerValue ?? 0) }
        runID = text(0) ?? ""; trigger = text(1) ?? ""; command = text(2); asOf = text(3)
        startedAt = text(4) ?? ""; finishedAt = text(5); status = text(6) ?? ""
        pid = row[7].integerValue.map(Int.init); host = text(8)
        properties = int(9); artifactsFetched = int(10); artifactsFailed = int(11); rowsLoaded = int(12)
        propertiesSynced = int(13); propertiesFailed = int(14); failures = int(15); warnings = int(16)
        detail = row.count > 17 ? text(17) : nil
    }
}

/// Reads the recorded runs (etl_runs, etl_run_items) for `runs list` and `runs show`; never writes.
public struct RunHistory {
    let database: Database

    /// `database` is unified.db, opened read-only by the caller.
    public init(database: Database) { self.database = database }

    /// The newest `limit` runs, newest first; only those of `status` when given (`runs list --status failed`).
    public func list(limit: Int, status: RunStatus? = nil) throws -> [RunRecord] {
        try database.query(Self.selectRuns + """

            WHERE :status IS NULL OR r.status = :status
            ORDER BY r.started_at DESC, r.run_id DESC LIMIT :limit
            """, [":limit": .integer(Int64(limit)), ":status": SQLValue(status?.rawValue)]).map(RunRecord.init(row:))
    }

    /// The newest run (`runs show latest`), or nil when none is recorded.
    public func latest() throws -> RunRecord? {
        try list(limit: 1).first
    }

    /// One run, or nil when unified.db has no such run.
    public func run(_ runID: String) throws -> RunRecord? {
        try database.query(Self.selectRuns + "\nWHERE r.run_id = :run_id", [":run_id": .text(runID)])
            .first.map(RunRecord.init(row:))
    }

    /// A run's items by stage (fetch, load, sync), failures first within a stage, then by property and artifact.
    public func items(of runID: String) throws -> [RunItem] {
        try database.query(Self.selectItems, [":run_id": .text(runID)]).compactMap { row in
            guard let stage = row[0].textValue.flatMap(RunStage.init(rawValue:)),
                  let status = row[3].textValue.flatMap(RunItem.Status.init(rawValue:)) else { return nil }
            var item = RunItem(stage: stage, property: row[1].textValue, artifact: row[2].textValue, status: status,
                               rows: row[4].integerValue.map(Int.init), error: row[6].textValue)
            item.durationMilliseconds = row[5].integerValue.map(Int.init)
            return item
        }
    }

    /// The reconciliations a run's sync recorded (sync_checks): failed first, then skipped, then passed.
    public func checks(of runID: String) throws -> [RunCheck] {
        try database.query(Self.selectChecks, [":run_id": .text(runID)]).map { row in
            RunCheck(property: row[0].textValue ?? "", asOf: row[1].textValue ?? "", check: row[2].textValue ?? "",
                     measure: row[3].textValue ?? "", status: row[4].textValue ?? "", expected: row[5].doubleValue,
                     actual: row[6].doubleValue, difference: row[7].doubleValue, detail: row[8].textValue ?? "")
        }
    }

    static let selectChecks = """
        SELECT unified_property_id, as_of_date, check_name, measure, status, expected, actual, difference, detail
        FROM sync_checks
        WHERE run_id = :run_id
        ORDER BY CASE status WHEN 'failed' THEN 0 WHEN 'skipped' THEN 1 ELSE 2 END, unified_property_id, check_name,
                 measure
        """

    // Counts come from the items, like RunJournal's, so a run still going (or abandoned) shows what it has done.
    static let selectRuns = """
        SELECT r.run_id, r.trigger, r.command, r.as_of_date, r.started_at, r.finished_at, r.status, r.pid, r.host,
               r.properties,
               (SELECT count(*) FROM etl_run_items i
                 WHERE i.run_id = r.run_id AND i.stage = 'fetch' AND i.status = 'succeeded'),
               (SELECT count(*) FROM etl_run_items i
                 WHERE i.run_id = r.run_id AND i.stage = 'fetch' AND i.status = 'failed'),
               (SELECT coalesce(sum(rows), 0) FROM etl_run_items i
                 WHERE i.run_id = r.run_id AND i.stage = 'load' AND i.status = 'succeeded'),
               (SELECT count(*) FROM etl_run_items i
                 WHERE i.run_id = r.run_id AND i.stage = 'sync' AND i.status = 'succeeded'),
               (SELECT count(*) FROM etl_run_items i
                 WHERE i.run_id = r.run_id AND i.stage = 'sync' AND i.status = 'failed'),
               (SELECT count(*) FROM etl_run_items i WHERE i.run_id = r.run_id AND i.status = 'failed'),
               r.warnings, r.detail
        FROM etl_runs r
        """

    static let selectItems = """
        SELECT stage, property_id, artifact, status, rows, duration_ms, error
        FROM etl_run_items
        WHERE run_id = :run_id
        ORDER BY CASE stage WHEN 'fetch' THEN 0 WHEN 'load' THEN 1 ELSE 2 END,
                 CASE status WHEN 'failed' THEN 0 WHEN 'skipped' THEN 1 ELSE 2 END,
                 property_id, artifact, id
        """
}

/// One reconciliation of a run's sync: a unified figure held against the vendor's own (sync_checks).
public struct RunCheck: Sendable, Equatable, Encodable {
    public var property: String
    public var asOf: String
    public var check: String
    public var measure: String
    /// `passed`, `failed` or `skipped`.
    public var status: String
    public var expected: Double?
    public var actual: Double?
    public var difference: Double?
    public var detail: String

    enum CodingKeys: String, CodingKey {
        case property, asOf = "as_of_date", check, measure, status, expected, actual, difference, detail
    }
}

/// `runs show --format json`: the run's fields and its items.
public struct RunDetail: Encodable, Sendable {
    public var run: RunRecord
    public var items: [RunItem]
    /// The run's reconciliations with the vendors' totals (sync_checks).
    public var checks: [RunCheck]

    public init(run: RunRecord, items: [RunItem], checks: [RunCheck] = []) {
        self.run = run; self.items = items; self.checks = checks
    }

    enum CodingKeys: String, CodingKey { case items, checks }

    public func encode(to encoder: any Encoder) throws {
        try run.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(checks, forKey: .checks)
    }
}

/// The JSON of `runs --format json` (a list of runs, or one `RunDetail`): pretty-printed, keys sorted.
public enum RunJSON {
    public static func render<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}
