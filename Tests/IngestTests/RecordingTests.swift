import Foundation
import OwnerDashCore
import SQLiteKit
import Sync
import Testing
@testable import Ingest

/// etl_runs / etl_run_items as RunJournal writes them: the run row at the start, items as they end, counts at the end.
@Suite struct RecordingTests {
    static func holder(_ runID: String, startedAt: String = "2026-11-22T02:30:00Z") -> LockHolder {
        LockHolder(command: "ingest", runID: runID, pid: 777, host: "ops-1", startedAt: startedAt)
    }

    @Test func theRunRowIsWrittenAtTheStartAndItsCountsComeFromTheItems() throws {
        let directory = try DataDir()
        try directory.data.create()
        let store = try UnifiedStore(dataDirectory: directory.data)
        let journal = try RunJournal(database: store.database, start: RunJournal.Start(
            runID: "R1", trigger: "schedule", commandLine: "ownerdash ingest --parallel 4", asOf: LocalDate(iso: "2026-11-20"),
            properties: 2, holder: Self.holder("R1")))
        var started = try directory.runRow("R1")
        #expect(started.text("status") == "running" && started.text("finished_at") == nil)
        #expect(started.text("trigger") == "schedule" && started.text("command") == "ownerdash ingest --parallel 4")
        #expect(started.text("as_of_date") == "2026-11-20" && started.text("started_at") == "2026-11-22T02:30:00Z")
        #expect(started.int("pid") == 777 && started.text("host") == "ops-1" && started.int("properties") == 2)

        let items = [
            RunItem(stage: .fetch, property: "a", artifact: "realpage/a/box_score.xlsx", status: .succeeded, seconds: 0.25),
            RunItem(stage: .fetch, property: "a", artifact: "realpage/a/rent_roll.xlsx", status: .succeeded, seconds: 0.5),
            RunItem(stage: .fetch, property: "b", artifact: "realpage/b/box_score.xlsx", status: .failed, seconds: 1, error: "HTTP 500"),
            RunItem(stage: .load, property: "a", artifact: "realpage/a/box_score.xlsx", status: .succeeded, rows: 3, seconds: 0.1),
            RunItem(stage: .load, property: "a", artifact: "realpage/a/rent_roll.xlsx", status: .skipped, rows: 352,
                    error: "already loaded"),
            RunItem(stage: .sync, property: "a", status: .succeeded, rows: 352),
            RunItem(stage: .sync, property: "b", status: .skipped, error: "nothing loaded"),
        ]
        for item in items { try journal.record(item) }
        // Items are visible while the run goes on (a crash keeps them).
        #expect(try directory.items("R1").count == items.count)
        started = try directory.runRow("R1")
        #expect(started.text("status") == "running")

        try journal.finish(status: .partial, warnings: 4, at: Date(timeIntervalSince1970: 1_795_400_000))
        let finished = try directory.runRow("R1")
        #expect(finished.text("status") == "partial")
        #expect(finished.text("finished_at") == Timestamp.iso(Date(timeIntervalSince1970: 1_795_400_000)))
        #expect(finished.int("artifacts_fetched") == 2)
        #expect(finished.int("rows_loaded") == 3, "an artifact loaded before adds no rows")
        #expect(finished.int("properties_synced") == 1)
        #expect(finished.int("failures") == 1)
        #expect(finished.int("warnings") == 4)

        let stored = try directory.items("R1")
        #expect(stored.map { $0.text("stage") } == ["fetch", "fetch", "fetch", "load", "load", "sync", "sync"])
        #expect(stored[2].text("error") == "HTTP 500" && stored[2].text("status") == "failed" && stored[2].int("duration_ms") == 1000)
        #expect(stored[4].int("rows") == 352 && stored[4].text("status") == "skipped")
        #expect(stored[5].text("artifact") == nil && stored[5].int("rows") == 352)
    }

    @Test func onlyRunsStillRunningAreMarkedAbandonedWithTheCountsOfWhatTheyDid() throws {
        let directory = try DataDir()
        try directory.data.create()
        let store = try UnifiedStore(dataDirectory: directory.data)
        func start(_ id: String) throws -> RunJournal {
            try RunJournal(database: store.database, start: RunJournal.Start(
                runID: id, trigger: "ingest", commandLine: "ownerdash ingest", asOf: nil, properties: 1, holder: Self.holder(id)))
        }
        let crashed = try start("crashed")
        try crashed.record(RunItem(stage: .fetch, property: "a", artifact: "realpage/a/box_score.xlsx", status: .succeeded))
        try crashed.record(RunItem(stage: .load, property: "a", artifact: "realpage/a/box_score.xlsx", status: .succeeded, rows: 3))
        let finished = try start("finished")
        try finished.finish(status: .succeeded, warnings: 0)
        _ = try start("current")

        let abandoned = try RunJournal.abandonStaleRuns(in: store.database, except: "current")
        #expect(abandoned == ["crashed"])
        #expect(try directory.runRow("crashed").text("status") == "abandoned")
        #expect(try directory.runRow("crashed").int("artifacts_fetched") == 1)
        #expect(try directory.runRow("crashed").int("rows_loaded") == 3)
        #expect(try directory.runRow("crashed").text("finished_at") == nil)
        #expect(try directory.runRow("finished").text("status") == "succeeded")
        #expect(try directory.runRow("current").text("status") == "running")
        #expect(try RunJournal.abandonStaleRuns(in: store.database, except: "current").isEmpty, "nothing left to abandon")
    }

    @Test func historyListsNewestFirstAndShowsFailuresFirstWithinAStage() throws {
        let directory = try DataDir()
        try directory.data.create()
        let store = try UnifiedStore(dataDirectory: directory.data)
        for (id, day) in [("older", "20"), ("newer", "21")] {
            let journal = try RunJournal(database: store.database, start: RunJournal.Start(
                runID: id, trigger: "ingest", commandLine: "ownerdash ingest", asOf: nil, properties: 2,
                holder: Self.holder(id, startedAt: "2026-11-\(day)T02:30:00Z")))
            try journal.record(RunItem(stage: .sync, property: "a", status: .succeeded, rows: 10))
            try journal.record(RunItem(stage: .fetch, property: "z", artifact: "realpage/z/box_score.xlsx", status: .succeeded))
            try journal.record(RunItem(stage: .fetch, property: "b", artifact: "realpage/b/box_score.xlsx", status: .failed, error: "HTTP 500"))
            try journal.finish(status: .partial, warnings: 0)
        }
        let history = RunHistory(database: try UnifiedStore.openForReading(dataDirectory: directory.data))
        #expect(try history.list(limit: 10).map(\.runID) == ["newer", "older"])
        #expect(try history.list(limit: 1).map(\.runID) == ["newer"])
        let run = try #require(try history.run("newer"))
        #expect(run.artifactsFetched == 1 && run.artifactsFailed == 1 && run.propertiesSynced == 1 && run.failures == 1)
        let items = try history.items(of: "newer")
        #expect(items.map(\.stage) == [.fetch, .fetch, .sync])
        #expect(items.first?.status == .failed && items.first?.error == "HTTP 500")
        #expect(try history.run("missing") == nil)
    }
}
