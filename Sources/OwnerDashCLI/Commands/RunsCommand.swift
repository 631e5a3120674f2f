import Foundation
import Ingest
import OwnerDashCore
import Sync

/// `ownerdash runs`: List the recorded ingest runs, or show what one did.
struct RunsCommand: Command {
    static let names = ["runs"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "List the recorded ingest runs, or show what one did."
    static let arguments: [ArgumentSpec] = [
        .positional("list|show", optional: true, help: "list (default): the newest runs; show RUN_ID: one run and its items"),
        .positional("RUN_ID", optional: true, help: "the run to show; `latest`: the newest run"),
        .option("--limit", "N", help: "runs to list, newest first (default 20)"),
        .option("--status", "STATUS", help: "list only the runs of this status (failed, partial, refused, ...)"),
        .option("--format", "table|json", help: "output format (default table)"),
    ]
    static let discussion = """
        Reads etl_runs and etl_run_items in unified.db (read-only: never waits on a running ingest).
        list: one line per run, newest first: run id, trigger (ingest, schedule, sync), status, start, duration,
        properties, artifacts fetched, rows loaded, properties synced, failed items, warnings, the host that ran it.
        show RUN_ID: the run, then its items by stage (fetch, load, sync), failures first, each with its
        property, artifact, rows, duration and error. show latest: the newest run.

        Statuses: running (still going, or its process died: the next ingest or sync marks it abandoned),
        succeeded, partial (some items failed), failed (nothing could be done), abandoned, refused (another
        process held the data directory's lock; nothing was done: its detail names the holder).
        """

    let global: GlobalOptions
    let runID: String?
    let limit: Int
    let status: RunStatus?
    let json: Bool

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        switch parsed.value("list|show") ?? "list" {
        case "list":
            guard parsed.value("RUN_ID") == nil else {
                throw UsageError("ownerdash runs: list takes no run id (did you mean: ownerdash runs show \(parsed.value("RUN_ID") ?? "")?)")
            }
            runID = nil
        case "show":
            guard let id = parsed.value("RUN_ID") else { throw UsageError("ownerdash runs show: missing RUN_ID") }
            runID = id
        case let other:
            throw UsageError("ownerdash runs: unknown subcommand \"\(other)\" (list or show RUN_ID)")
        }
        if let text = parsed.value("--limit") {
            guard let value = Int(text), value > 0 else {
                throw UsageError("ownerdash runs: --limit must be a positive number, not \"\(text)\"")
            }
            limit = value
        } else {
            limit = 20
        }
        if let text = parsed.value("--status") {
            guard let value = RunStatus(rawValue: text) else {
                throw UsageError("ownerdash runs: --status must be one of \(RunStatus.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"")
            }
            guard runID == nil else { throw UsageError("ownerdash runs show: --status is for runs list") }
            status = value
        } else {
            status = nil
        }
        switch parsed.value("--format") ?? "table" {
        case "table": json = false
        case "json": json = true
        case let other: throw UsageError("ownerdash runs: --format must be table or json, not \"\(other)\"")
        }
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let output = StandardOutput()
        defer { output.flush() }
        guard FileManager.default.fileExists(atPath: global.dataDirectory.unifiedDatabase) else {
            if let runID { throw UsageError("ownerdash runs show: no run \(runID): \(global.dataDirectory.unifiedDatabase) does not exist yet") }
            log.info(nil, "no runs recorded: \(global.dataDirectory.unifiedDatabase) does not exist yet (run ownerdash ingest)")
            if json { output.write("[]\n") }
            return .success
        }
        let history = RunHistory(database: try UnifiedStore.openForReading(dataDirectory: global.dataDirectory))
        guard let runID else {
            let runs = try history.list(limit: limit, status: status)
            output.write(json ? try RunJSON.render(runs) : Self.table(runs))
            return .success
        }
        let found = runID == "latest" ? try history.latest() : try history.run(runID)
        guard let run = found else {
            throw UsageError(runID == "latest" ? "ownerdash runs show latest: no run recorded in \(global.dataDirectory.unifiedDatabase)"
                                               : "ownerdash runs show: no run \(runID) in \(global.dataDirectory.unifiedDatabase)")
        }
        let items = try history.items(of: run.runID)
        let checks = try history.checks(of: run.runID)
        if json {
            output.write(try RunJSON.render(RunDetail(run: run, items: items, checks: checks)))
        } else {
            output.write(Self.detail(run, items: items, holder: IngestLock.recordedHolder(dataDirectory: global.dataDirectory))
                + Self.checks(checks))
        }
        return .success
    }

    // MARK: - Table

    static func table(_ runs: [RunRecord]) -> String {
        TextTable.render(
            header: ["run", "trigger", "status", "started", "duration", "properties", "fetched", "rows loaded",
                     "synced", "failed", "warnings", "host"],
            rows: runs.map { run in
                // The host: with several ingest hosts sharing a night on the server, which one did the run.
                [run.runID, run.trigger, run.status, run.startedAt, duration(run.durationSeconds), String(run.properties),
                 String(run.artifactsFetched), String(run.rowsLoaded), String(run.propertiesSynced), String(run.failures),
                 String(run.warnings), run.host ?? "-"]
            })
    }

    static func detail(_ run: RunRecord, items: [RunItem], holder: LockHolder?) -> String {
        var status = run.status
        if run.status == RunStatus.running.rawValue {
            // Only a hint: whether the process still lives is known for sure only by taking the lock.
            status += holder?.runID == run.runID ? " (holds the lock)"
                : " (no longer holds the lock: its process died; the next ingest or sync marks it abandoned)"
        }
        var lines = [
            "run        \(run.runID)",
            "trigger    \(run.trigger)",
            "status     \(status)",
            "command    \(run.command ?? "")",
            "as of      \(run.asOf ?? "")",
            "started    \(run.startedAt)",
            "finished   \(run.finishedAt.map { "\($0) (\(duration(run.durationSeconds)))" } ?? "")",
            "process    pid \(run.pid.map(String.init) ?? "?") on host \(run.host ?? "?")",
        ] + (run.detail.map { ["detail     \($0)"] } ?? []) + [
            "counts     \(run.properties) propert\(run.properties == 1 ? "y" : "ies"), "
                + "\(run.artifactsFetched) artifact(s) fetched (\(run.artifactsFailed) failed), \(run.rowsLoaded) rows loaded, "
                + "\(run.propertiesSynced) propert\(run.propertiesSynced == 1 ? "y" : "ies") synced (\(run.propertiesFailed) failed), "
                + "\(run.warnings) warning(s)",
        ]
        for stage in RunStage.allCases {
            let stageItems = items.filter { $0.stage == stage }
            guard !stageItems.isEmpty else { continue }
            let failed = stageItems.filter { $0.status == .failed }.count
            let skipped = stageItems.filter { $0.status == .skipped }.count
            lines.append("")
            lines.append("\(stage.rawValue): \(stageItems.count) item(s), \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : ""))
            let table = TextTable.render(
                header: ["status", "property", "artifact", "rows", "ms", "error"],
                rows: stageItems.map { item in
                    [item.status.rawValue, item.property ?? "", item.artifact ?? "", item.rows.map(String.init) ?? "",
                     item.durationMilliseconds.map(String.init) ?? "", item.error ?? ""]
                })
            lines.append(table.trimmingCharacters(in: .newlines))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The run's reconciliations with the vendors' own totals: how many passed, failed and were skipped, then each
    /// failed one with both figures (the skipped ones' reasons are in sync_checks and on the dashboard).
    static func checks(_ checks: [RunCheck]) -> String {
        guard !checks.isEmpty else { return "" }
        let failed = checks.filter { $0.status == "failed" }
        let counts = ["passed", "failed", "skipped"].map { status in
            "\(checks.filter { $0.status == status }.count) \(status)"
        }
        var lines = ["", "checks: \(checks.count) reconciliation(s) with the vendors' totals, \(counts.joined(separator: ", "))"]
        if !failed.isEmpty {
            lines.append(TextTable.render(header: ["property", "check", "measure", "expected", "actual", "detail"],
                                          rows: failed.map { check in
                [check.property, check.check, check.measure, check.expected.map(Self.figure) ?? "",
                 check.actual.map(Self.figure) ?? "", check.detail]
            }).trimmingCharacters(in: .newlines))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func figure(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.2f", value)
    }

    /// `4m 05s`, `12s`, `1h 02m`; `-` when unknown.
    static func duration(_ seconds: Int?) -> String {
        guard let seconds else { return "-" }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\(seconds / 60)m \(two(seconds % 60))s" }
        return "\(seconds / 3600)h \(two(seconds % 3600 / 60))m"
    }
}
