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
    static let unitInformation = repositoryRoot.appendingPathComponent("Tests/Fixtures/soap/yardi_get_unit_information.xml")

    /// Lands the unit list fixture as `property`'s GetUnitInformation, as the fetch would, and returns its entry.
    static func land(_ landing: LandingZone, property: String) throws -> ManifestEntry {
        let staged = try landing.stagingPath(pms: .yardi, property: property, name: "GetUnitInformation.xml")
        FileManager.default.createFile(atPath: staged, contents: try Data(contentsOf: unitInformation))
        let landed = try landing.commit(staged: staged, pms: .yardi, property: property, name: "GetUnitInformation.xml")
        var entry = ManifestEntry(pms: "yardi", property: property, operation: "GetUnitInformation",
                                  asOfRequested: "2026-11-20", startedAt: "2026-11-20T02:30:00.000Z")
        entry.asOf = "2026-11-20"
        entry.path = landed.relativePath
        entry.object = landed.object
        entry.size = landed.size
        entry.sha256 = landed.sha256
        entry.httpStatus = 200
        try landing.record(entry)
        return entry
    }

    /// The journal's items of `stage` for `property`, read as another process would.
    static func items(_ directory: DataDir, _ runID: RunID, stage: String, property: String) throws -> [[String: SQLValue]] {
        try directory.items(runID.value).filter { $0.text("stage") == stage && $0.text("property_id") == property }
    }

    @Test func aPropertyIsLoadedAndSyncedWhileTheNextIsStillBeingFetched() throws {
        let directory = try DataDir()
        try directory.data.create()
        let configuration = try Configuration.load(path: repositoryRoot.appendingPathComponent("report_definitions.json").path)
        let first = try #require(configuration.property(key: "yp_cedar_bluff"))
        let second = try #require(configuration.property(key: "yp_riverwalk"))
        let runID = RunID("20261120T023000Z-pipe")
        let store = try UnifiedStore(dataDirectory: directory.data, busyTimeoutMilliseconds: 60_000)
        let journal = try RunJournal(database: store.database, start: RunJournal.Start(
            runID: runID.value, trigger: "ingest", commandLine: "test", asOf: LocalDate(iso: "2026-11-20"), properties: 3,
            holder: LockHolder(command: "ingest", runID: runID.value)))
        let landing = try LandingZone(dataDirectory: directory.data, runID: runID)
        let nothing = Property(key: "yp_nothing", name: "Nothing Landed", pms: .yardi, propertyCode: "none01")
        let pipeline = PropertyPipeline(properties: [first, nothing, second], artifacts: [first.key: 1, second.key: 2],
                                        dataDirectory: directory.data, configuration: configuration, runID: runID,
                                        landing: landing, journal: journal, log: Diagnostics(quiet: true))

        pipeline.ended(try Self.land(landing, property: first.key))
        pipeline.ended(try Self.land(landing, property: second.key))
        // The second property has an artifact still out: the first is loaded and synced meanwhile, the second not.
        let deadline = Date().addingTimeInterval(30)
        while try Self.items(directory, runID, stage: "sync", property: first.key).isEmpty && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let firstLoad = try Self.items(directory, runID, stage: "load", property: first.key)
        #expect(firstLoad.map { $0.text("status") } == ["succeeded"], "\(firstLoad)")
        #expect(try Self.items(directory, runID, stage: "sync", property: first.key).map { $0.text("status") } == ["succeeded"])
        #expect(try Self.items(directory, runID, stage: "load", property: second.key).isEmpty,
                "nothing of a property is loaded before all its artifacts have ended")

        var failed = ManifestEntry(pms: "yardi", property: second.key, operation: "GetResidentsByStatus",
                                   asOfRequested: "2026-11-20", startedAt: "2026-11-20T02:30:00.000Z")
        failed.error = "HTTP 500"
        try landing.record(failed)
        pipeline.ended(failed)
        let stages = try pipeline.finish(anythingLanded: true)

        #expect(stages.loads.map { $0.property } == [first.key, second.key])
        #expect(stages.syncs.map { $0.property } == [first.key, second.key] && stages.syncs.allSatisfy { $0.error == nil })
        #expect(stages.items.map { "\($0.stage.rawValue) \($0.property ?? "") \($0.status.rawValue)" } == [
            "load yp_cedar_bluff succeeded", "load yp_riverwalk succeeded",
            "sync yp_cedar_bluff succeeded", "sync yp_nothing skipped", "sync yp_riverwalk succeeded",
        ], "by stage, then in the selection's order, whatever order they ended in")
        let unified = try directory.unified()
        let synced = try unified.query("SELECT unified_property_id FROM unified_properties WHERE last_run_id = :run ORDER BY 1",
                                       [":run": .text(runID.value)]).compactMap { $0.first?.textValue }
        #expect(synced == [first.key, second.key])
    }

    @Test func aRunThatLandedNothingLoadsAndSyncsNothing() throws {
        let directory = try DataDir()
        try directory.data.create()
        let configuration = try Configuration.load(path: repositoryRoot.appendingPathComponent("report_definitions.json").path)
        let property = try #require(configuration.property(key: "yp_cedar_bluff"))
        let runID = RunID("20261120T023000Z-none")
        let store = try UnifiedStore(dataDirectory: directory.data)
        let journal = try RunJournal(database: store.database, start: RunJournal.Start(
            runID: runID.value, trigger: "ingest", commandLine: "test", asOf: LocalDate(iso: "2026-11-20"), properties: 1,
            holder: LockHolder(command: "ingest", runID: runID.value)))
        let landing = try LandingZone(dataDirectory: directory.data, runID: runID)
        let pipeline = PropertyPipeline(properties: [property], artifacts: [property.key: 1], dataDirectory: directory.data,
                                        configuration: configuration, runID: runID, landing: landing, journal: journal,
                                        log: Diagnostics(quiet: true))
        var failed = ManifestEntry(pms: "yardi", property: property.key, operation: "GetUnitInformation",
                                   asOfRequested: "2026-11-20", startedAt: "2026-11-20T02:30:00.000Z")
        failed.error = "connection refused"
        try landing.record(failed)
        pipeline.ended(failed)
        let stages = try pipeline.finish(anythingLanded: false)
        #expect(stages.loads.isEmpty && stages.syncs.isEmpty && stages.items.isEmpty)
        #expect(try directory.items(runID.value).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.data.yardiRawDatabase), "no raw database for a run with nothing to load")
    }
}
