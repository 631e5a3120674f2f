import Fetch
import Foundation
import OwnerDashCore
import SQLiteKit
import SimulatorSupport
import Sync
import Testing
@testable import Ingest

/// The ingest's load and sync run property by property while the fetch goes on: a property whose artifacts have all
/// ended is loaded and synced before the next one's have.
@Suite struct PropertyPipelineTests {
    /// A run under way: its journal, landing zone and pipeline over `properties` (`artifacts`: each one's jobs).
    struct Run {
        let directory: DataDir
        let configuration: Configuration
        let runID: RunID
        let journal: RunJournal
        let landing: LandingZone
        let pipeline: PropertyPipeline

        init(_ runID: String, properties: (Configuration) throws -> [Property], artifacts: [String: Int]) throws {
            directory = try DataDir()
            try directory.data.create()
            configuration = try Configuration.load(path: repositoryRoot.appendingPathComponent("report_definitions.json").path)
            self.runID = RunID(runID)
            let selection = try properties(configuration)
            // The ingest's journal connection waits out a property's sync.
            let store = try UnifiedStore(dataDirectory: directory.data, busyTimeoutMilliseconds: 60_000)
            journal = try RunJournal(database: store.database, start: RunJournal.Start(
                runID: runID, trigger: "ingest", commandLine: "test", asOf: LocalDate(iso: "2026-11-20"),
                properties: selection.count, holder: LockHolder(command: "ingest", runID: runID)))
            landing = try LandingZone(dataDirectory: directory.data, runID: self.runID)
            pipeline = PropertyPipeline(properties: selection, artifacts: artifacts, dataDirectory: directory.data,
                                        configuration: configuration, runID: self.runID, landing: landing, journal: journal,
                                        log: Diagnostics(quiet: true))
        }

        /// Lands the unit list fixture as `property`'s GetUnitInformation and tells the pipeline it ended.
        func landed(_ property: String) throws {
            let bytes = try Data(contentsOf: LandingRetentionTests.unitInformation)
            pipeline.ended(try LandingRetentionTests.land(landing, property: property, bytes: bytes))
        }

        /// Records a failed fetch of `operation` for `property` and tells the pipeline it ended.
        func failed(_ property: String, _ operation: String, error: String) throws {
            var entry = ManifestEntry(pms: "yardi", property: property, operation: operation,
                                      asOfRequested: "2026-11-20", startedAt: "2026-11-20T02:30:00.000Z")
            entry.error = error
            try landing.record(entry)
            pipeline.ended(entry)
        }

        /// The journal's items of `stage` for `property`, read as another process would.
        func items(_ stage: String, _ property: String) throws -> [[String: SQLValue]] {
            try directory.items(runID.value).filter { $0.text("stage") == stage && $0.text("property_id") == property }
        }
    }

    @Test func aPropertyIsLoadedAndSyncedWhileTheNextIsStillBeingFetched() throws {
        let nothing = Property(key: "yp_nothing", name: "Nothing Landed", pms: .yardi, propertyCode: "none01")
        let run = try Run("20261120T023000Z-pipe", properties: { configuration in
            [try #require(configuration.property(key: "yp_cedar_bluff")), nothing,
             try #require(configuration.property(key: "yp_riverwalk"))]
        }, artifacts: ["yp_cedar_bluff": 1, "yp_riverwalk": 2])

        try run.landed("yp_cedar_bluff")
        try run.landed("yp_riverwalk")
        // The second property has an artifact still out: the first is loaded and synced meanwhile, the second not.
        let deadline = Date().addingTimeInterval(30)
        while try run.items("sync", "yp_cedar_bluff").isEmpty && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let firstLoad = try run.items("load", "yp_cedar_bluff")
        #expect(firstLoad.map { $0.text("status") } == ["succeeded"], "\(firstLoad)")
        #expect(try run.items("sync", "yp_cedar_bluff").map { $0.text("status") } == ["succeeded"])
        #expect(try run.items("load", "yp_riverwalk").isEmpty, "nothing of a property is loaded before all its artifacts have ended")

        try run.failed("yp_riverwalk", "GetResidentsByStatus", error: "HTTP 500")
        let stages = try run.pipeline.finish(anythingLanded: true)

        #expect(stages.loads.map { $0.property } == ["yp_cedar_bluff", "yp_riverwalk"])
        #expect(stages.syncs.map { $0.property } == ["yp_cedar_bluff", "yp_riverwalk"] && stages.syncs.allSatisfy { $0.error == nil })
        #expect(stages.items.map { "\($0.stage.rawValue) \($0.property ?? "") \($0.status.rawValue)" } == [
            "load yp_cedar_bluff succeeded", "load yp_riverwalk succeeded",
            "sync yp_cedar_bluff succeeded", "sync yp_nothing skipped", "sync yp_riverwalk succeeded",
        ], "by stage, then in the selection's order, whatever order they ended in")
        let synced = try run.directory.unified().query(
            "SELECT unified_property_id FROM unified_properties WHERE last_run_id = :run ORDER BY 1",
            [":run": .text(run.runID.value)]).compactMap { $0.first?.textValue }
        #expect(synced == ["yp_cedar_bluff", "yp_riverwalk"])
        // The loads are in the raw database's own file once the run is done, its connection still open: a copy of
        // the file alone holds them (SQLite would otherwise copy its log back only every 32 MiB).
        #expect(FileStatus.size(atPath: run.directory.data.yardiRawDatabase + "-wal") == 0)
    }

    @Test func aRunThatLandedNothingLoadsAndSyncsNothing() throws {
        let run = try Run("20261120T023000Z-none", properties: { configuration in
            [try #require(configuration.property(key: "yp_cedar_bluff"))]
        }, artifacts: ["yp_cedar_bluff": 1])
        try run.failed("yp_cedar_bluff", "GetUnitInformation", error: "connection refused")
        let stages = try run.pipeline.finish(anythingLanded: false)
        #expect(stages.loads.isEmpty && stages.syncs.isEmpty && stages.items.isEmpty)
        #expect(try run.directory.items(run.runID.value).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: run.directory.data.yardiRawDatabase),
                "no raw database for a run with nothing to load")
    }
}
