import Foundation
import OwnerDashCore
import SQLiteKit
import Sync
import Testing
@testable import Ingest

/// `ownerdash runs list|show` over runs recorded by RunJournal: what an operator reads the morning after.
@Suite struct RunsCommandTests {
    /// Three runs: a clean one, a partial one (a failed download and a failed sync), one whose process died.
    static func recordedRuns() throws -> DataDir {
        let directory = try DataDir()
        try directory.data.create()
        let store = try UnifiedStore(dataDirectory: directory.data)
        func start(_ id: String, _ started: String, trigger: String = "schedule") throws -> RunJournal {
            try RunJournal(database: store.database, start: RunJournal.Start(
                runID: id, trigger: trigger, commandLine: "ownerdash ingest --trigger \(trigger)", asOf: LocalDate(iso: "2026-11-20"),
                properties: 2, holder: LockHolder(command: "ingest", runID: id, pid: 31337, host: "ops-1", startedAt: started)))
        }
        let clean = try start("20261120T023000Z-0001", "2026-11-20T02:30:00Z")
        try clean.record(RunItem(stage: .fetch, property: "nexus_east", artifact: "realpage/nexus_east/box_score.xlsx", status: .succeeded, seconds: 0.3))
        try clean.record(RunItem(stage: .load, property: "nexus_east", artifact: "realpage/nexus_east/box_score.xlsx", status: .succeeded, rows: 3, seconds: 0.1))
        try clean.record(RunItem(stage: .sync, property: "nexus_east", status: .succeeded, rows: 352, seconds: 0.2))
        try clean.finish(status: .succeeded, warnings: 0, at: Timestamp.date("2026-11-20T02:34:05Z") ?? Date())

        let partial = try start("20261121T023000Z-0002", "2026-11-21T02:30:00Z")
        try partial.record(RunItem(stage: .fetch, property: "nexus_east", artifact: "realpage/nexus_east/box_score.xlsx", status: .succeeded))
        try partial.record(RunItem(stage: .fetch, property: "ridian", artifact: "realpage/ridian/box_score.xlsx", status: .failed,
                                   seconds: 1.5, error: "create report instance: HTTP 500"))
        try partial.record(RunItem(stage: .load, property: "nexus_east", artifact: "realpage/nexus_east/box_score.xlsx", status: .succeeded, rows: 3))
        try partial.record(RunItem(stage: .sync, property: "nexus_east", status: .failed,
                                   error: "sync failed, unified rows left as before: RealPage sync rules not written yet"))
        try partial.record(RunItem(stage: .sync, property: "ridian", status: .skipped, error: "not synced: nothing of this property was loaded in this run"))
        try partial.finish(status: .partial, warnings: 1, at: Timestamp.date("2026-11-21T02:31:10Z") ?? Date())

        let died = try start("20261122T023000Z-0003", "2026-11-22T02:30:00Z", trigger: "ingest")
        try died.record(RunItem(stage: .fetch, property: "nexus_east", artifact: "realpage/nexus_east/box_score.xlsx", status: .succeeded))
        try RunJournal.abandonStaleRuns(in: store.database)
        return directory
    }

    @Test func listIsNewestFirstWithStatusDurationAndCounts() throws {
        let directory = try Self.recordedRuns()
        let result = try directory.ownerdash(["runs", "list"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutLines
        #expect(lines.count == 5, "header, rule and three runs: \(result.stdout)")
        #expect(lines[0].split(separator: " ", omittingEmptySubsequences: true) ==
                ["run", "trigger", "status", "started", "duration", "properties", "fetched", "rows", "loaded", "synced", "failed", "warnings", "host"])
        let rows = lines.dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(rows.map { $0[0] } == ["20261122T023000Z-0003", "20261121T023000Z-0002", "20261120T023000Z-0001"])
        #expect(rows[0] == ["20261122T023000Z-0003", "ingest", "abandoned", "2026-11-22T02:30:00Z", "-", "2", "1", "0", "0", "0", "0", "ops-1"])
        #expect(rows[1] == ["20261121T023000Z-0002", "schedule", "partial", "2026-11-21T02:30:00Z", "1m", "10s", "2", "1", "3", "0", "2", "1", "ops-1"])
        #expect(rows[2] == ["20261120T023000Z-0001", "schedule", "succeeded", "2026-11-20T02:30:00Z", "4m", "05s", "2", "1", "3", "1", "0", "0", "ops-1"])

        let limited = try directory.ownerdash(["runs", "list", "--limit", "1"])
        #expect(limited.stdoutLines.count == 3 && limited.stdoutLines[2].hasPrefix("20261122T023000Z-0003"))

        let json = try directory.ownerdash(["runs", "--format", "json"])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(runs.map { $0["run_id"] as? String } == ["20261122T023000Z-0003", "20261121T023000Z-0002", "20261120T023000Z-0001"])
        #expect(runs[1]["artifacts_failed"] as? Int == 1 && runs[1]["properties_failed"] as? Int == 1)
        #expect(runs[1]["duration_seconds"] as? Int == 70 && runs[0]["duration_seconds"] is NSNull)
        #expect(json.stderr.isEmpty)
    }

    @Test func showPrintsTheRunThenEachStageFailuresFirstWithTheirErrors() throws {
        let directory = try Self.recordedRuns()
        let result = try directory.ownerdash(["runs", "show", "20261121T023000Z-0002"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutLines
        #expect(lines.contains("status     partial"))
        #expect(lines.contains("trigger    schedule"))
        #expect(lines.contains("finished   2026-11-21T02:31:10Z (1m 10s)"))
        #expect(lines.contains("process    pid 31337 on host ops-1"))
        #expect(lines.contains("counts     2 properties, 1 artifact(s) fetched (1 failed), 3 rows loaded, 0 properties synced (1 failed), 1 warning(s)"))
        let fetch = try #require(lines.firstIndex(of: "fetch: 2 item(s), 1 failed"))
        #expect(lines[fetch + 3].hasPrefix("failed "), "the failure first: \(lines[fetch + 3])")
        #expect(lines[fetch + 3].contains("ridian") && lines[fetch + 3].hasSuffix("1500  create report instance: HTTP 500"))
        #expect(lines[fetch + 4].hasPrefix("succeeded ") && lines[fetch + 4].contains("realpage/nexus_east/box_score.xlsx"))
        let sync = try #require(lines.firstIndex(of: "sync: 2 item(s), 1 failed, 1 skipped"))
        #expect(lines[sync + 3].hasPrefix("failed ") && lines[sync + 3].contains("RealPage sync rules not written yet"))
        #expect(lines[sync + 4].hasPrefix("skipped ") && lines[sync + 4].contains("ridian"))
        #expect(lines.firstIndex(of: "load: 1 item(s), 0 failed").map { $0 > fetch && $0 < sync } == true)

        let json = try directory.ownerdash(["runs", "show", "20261121T023000Z-0002", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(object["status"] as? String == "partial" && items.count == 5)
        #expect(items.first?["error"] as? String == "create report instance: HTTP 500" && items.first?["duration_ms"] as? Int == 1500)

        let abandoned = try directory.ownerdash(["runs", "show", "20261122T023000Z-0003"])
        #expect(abandoned.stdoutLines.contains("status     abandoned") && abandoned.stdoutLines.contains("finished   "))
    }

    @Test func anUnknownRunIsOneLineAndExit1() throws {
        let directory = try Self.recordedRuns()
        let result = try directory.ownerdash(["runs", "show", "20990101T000000Z-dead"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["error: ownerdash runs show: no run 20990101T000000Z-dead in \(directory.data.unifiedDatabase)"])

        let missingID = try directory.ownerdash(["runs", "show"])
        #expect(missingID.status == 1 && missingID.stderrLines == ["error: ownerdash runs show: missing RUN_ID"])
        let fresh = try DataDir()
        let empty = try fresh.ownerdash(["runs", "list", "--format", "json"])
        #expect(empty.status == 0 && empty.stdout == "[]\n", "no unified.db yet: no runs")
        let unknownInFresh = try fresh.ownerdash(["runs", "show", "x"])
        #expect(unknownInFresh.status == 1)
    }

    @Test func showLatestAndListByStatus() throws {
        let directory = try Self.recordedRuns()
        let store = try UnifiedStore(dataDirectory: directory.data)
        try RunJournal.recordRefused(in: store.database, start: RunJournal.Start(
            runID: "20261123T023000Z-0004", trigger: "schedule", commandLine: "ownerdash ingest", asOf: nil, properties: 2,
            holder: LockHolder(command: "ingest", runID: "20261123T023000Z-0004", pid: 4242, host: "ops-1",
                               startedAt: "2026-11-23T02:30:00Z")),
            reason: "refused: ingest is running: run 20261122T023000Z-0003, pid 31337 on host ops-1 since 2026-11-22T02:30:00Z")

        let latest = try directory.ownerdash(["runs", "show", "latest"])
        #expect(latest.status == 0, "\(latest.stderr)")
        #expect(latest.stdoutLines.first == "run        20261123T023000Z-0004")
        #expect(latest.stdoutLines.contains("status     refused"))
        #expect(latest.stdoutLines.contains("detail     refused: ingest is running: run 20261122T023000Z-0003, pid 31337 on host ops-1 since 2026-11-22T02:30:00Z"))

        let partial = try directory.ownerdash(["runs", "list", "--status", "partial", "--format", "json"])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(partial.stdout.utf8)) as? [[String: Any]])
        #expect(runs.map { $0["run_id"] as? String } == ["20261121T023000Z-0002"])
        let refused = try directory.ownerdash(["runs", "list", "--status", "refused", "--format", "json"])
        let refusedRuns = try #require(try JSONSerialization.jsonObject(with: Data(refused.stdout.utf8)) as? [[String: Any]])
        #expect(refusedRuns.map { $0["run_id"] as? String } == ["20261123T023000Z-0004"])
        #expect(refusedRuns.first?["detail"] as? String == "refused: ingest is running: run 20261122T023000Z-0003, pid 31337 on host ops-1 since 2026-11-22T02:30:00Z")
        #expect(refusedRuns.first?["finished_at"] as? String == "2026-11-23T02:30:00Z")
        let none = try directory.ownerdash(["runs", "list", "--status", "failed"])
        #expect(none.status == 0 && none.stdoutLines.count == 2, "header and rule only: \(none.stdout)")

        let bad = try directory.ownerdash(["runs", "list", "--status", "broken"])
        #expect(bad.status == 1)
        #expect(bad.stderrLines == ["error: ownerdash runs: --status must be one of running, succeeded, partial, failed, abandoned, refused, not \"broken\""])
        let empty = try DataDir().ownerdash(["runs", "show", "latest"])
        #expect(empty.status == 1)
    }
}
