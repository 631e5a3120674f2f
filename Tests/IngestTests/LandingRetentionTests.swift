import Fetch
import Foundation
import Ingest
import LibCryptoKit
import OwnerDashCore
import RawStore
import SQLiteKit
import SimulatorSupport
import Testing
import ZipKit

/// The landing zone over many nights: objects shared by runs, old-layout runs still loading, and prune keeping
/// exactly what its policy says without breaking the replay of a kept run.
@Suite struct LandingRetentionTests {
    static let unitInformation = repositoryRoot.appendingPathComponent("Tests/Fixtures/soap/yardi_get_unit_information.xml")

    /// Lands `bytes` as yp_cedar_bluff's GetUnitInformation of a new run started at `started`, as fetch would.
    @discardableResult
    static func landRun(_ data: DataDirectory, started: Date, bytes: Data, name: String = "GetUnitInformation.xml") throws -> (RunID, ManifestEntry) {
        let runID = RunID.new(now: started)
        let zone = try LandingZone(dataDirectory: data, runID: runID, now: started)
        let entry = try land(zone, property: "yp_cedar_bluff", bytes: bytes, name: name)
        try zone.finish(now: started)
        return (runID, entry)
    }

    /// Lands `bytes` as `property`'s GetUnitInformation (as of 2026-11-20) into `zone`, as fetch would; records its entry.
    static func land(_ zone: LandingZone, property: String, bytes: Data, name: String = "GetUnitInformation.xml") throws -> ManifestEntry {
        let staged = try zone.stagingPath(pms: .yardi, property: property, name: name)
        _ = FileManager.default.createFile(atPath: staged, contents: bytes)
        let landed = try zone.commit(staged: staged, pms: .yardi, property: property, name: name)
        var entry = ManifestEntry(pms: "yardi", property: property, operation: "GetUnitInformation",
                                  asOfRequested: "2026-11-20", startedAt: "2026-11-20T02:30:00.000Z")
        entry.asOf = "2026-11-20"
        entry.path = landed.relativePath
        entry.object = landed.object
        entry.size = landed.size
        entry.sha256 = landed.sha256
        entry.httpStatus = 200
        try zone.record(entry)
        return entry
    }

    @Test func anOldLayoutRunAndACompressedObjectRunBothLoadAndACutObjectIsNamed() throws {
        let directory = try DataDir()
        try directory.data.create()
        let bytes = try Data(contentsOf: Self.unitInformation)
        let digest = SHA256()
        digest.update([UInt8](bytes))

        // A run landed before objects existed: the file under the run directory, no "object" in the manifest.
        let old = RunID("20261119T023000Z-0001")
        let oldDirectory = LandingZone.runDirectory(in: directory.data, runID: old)
        try FileManager.default.createDirectory(atPath: oldDirectory + "/yardi/yp_cedar_bluff", withIntermediateDirectories: true)
        try bytes.write(to: URL(fileURLWithPath: oldDirectory + "/yardi/yp_cedar_bluff/GetUnitInformation.xml"))
        var entry = ManifestEntry(pms: "yardi", property: "yp_cedar_bluff", operation: "GetUnitInformation",
                                  asOfRequested: "2026-11-19", startedAt: "2026-11-19T02:30:00.000Z")
        entry.asOf = "2026-11-19"
        entry.path = "yardi/yp_cedar_bluff/GetUnitInformation.xml"
        entry.size = bytes.count
        entry.sha256 = digest.finalizeHex()
        let manifest = RunManifest(runID: old.value, startedAt: entry.startedAt, finishedAt: entry.finishedAt, artifacts: [entry])
        try JSONEncoder().encode(manifest).write(to: URL(fileURLWithPath: oldDirectory + "/manifest.json"))
        let oldLoad = try directory.ownerdash(["load", "--run", old.value])
        #expect(oldLoad.status == 0, "\(oldLoad.stderr)")
        #expect(oldLoad.stdout.contains("4 rows"), "\(oldLoad.stdout)")

        let (new, landed) = try Self.landRun(directory.data, started: Date(timeIntervalSince1970: 1_795_660_200), bytes: bytes)
        #expect(landed.object?.hasSuffix(".xml.z") == true && landed.sha256 == entry.sha256,
                "compressed on disk, the manifest keeps the sha256 of the bytes as sent")
        let newLoad = try directory.ownerdash(["load", "--run", new.value])
        #expect(newLoad.status == 0, "\(newLoad.stderr)")
        // The same unit list as the night before: recorded as unchanged since that run (not stored again), its
        // four units read through the stored night.
        #expect(newLoad.stdout.contains("(unchanged since run \(old.value))"), "\(newLoad.stdout)")
        let yardi = try Database(path: directory.data.yardiRawDatabase, mode: .readOnly)
        let units = try yardi.query("""
            SELECT count(*) FROM loaded_artifacts l
            JOIN yardi_units u ON u.property_id = l.property_id AND u.as_of_date = coalesce(l.stored_as_of, l.as_of_date)
            WHERE l.operation = 'GetUnitInformation' AND l.property_id = 'yp_cedar_bluff' AND l.as_of_date = '2026-11-20'
            """)
        #expect(units.first?[0].integerValue == 4, "the compressed object's four units")

        // A cut object: the load fails on one line naming the artifact and the object, and why.
        let object = directory.data.landing + "/" + (landed.object ?? "")
        let whole = try Data(contentsOf: URL(fileURLWithPath: object))
        try whole.prefix(whole.count - 40).write(to: URL(fileURLWithPath: object))
        let cut = try directory.ownerdash(["load", "--run", new.value, "--reload"])
        #expect(cut.status == 2)
        let line = try #require(cut.stderrLines.first { $0.contains("GetUnitInformation") })
        #expect(line == "yardi/yp_cedar_bluff/GetUnitInformation.xml (\(object)): error: the compressed landed object cannot be read: the compressed file is truncated (it ends before its stream does)")
    }

    @Test func pruneKeepsTheLastDaysAndMonthEndsAndEveryObjectTheyUse() throws {
        let directory = try DataDir()
        let data = directory.data
        try data.create()
        let calendar = { var c = Calendar(identifier: .gregorian); c.timeZone = .gmt; return c }()
        func at(_ y: Int, _ m: Int, _ d: Int) -> Date { calendar.date(from: DateComponents(year: y, month: m, day: d, hour: 2, minute: 30))! }
        let shared = try Data(contentsOf: Self.unitInformation)
        var runs: [(id: String, day: Date, unique: String)] = []
        var days = [at(2025, 10, 31), at(2026, 8, 30), at(2026, 8, 31), at(2026, 9, 30), at(2026, 10, 15), at(2026, 10, 31)]
        days += (1...22).map { at(2026, 11, $0) }
        for day in days {
            // Every run lands the same unit list (one object for all) and a response of its own.
            let (runID, _) = try Self.landRun(data, started: day, bytes: shared)
            let ownText = String(decoding: shared, as: UTF8.self)
                .replacingOccurrences(of: "Riverwalk Commons", with: "Riverwalk Commons \(Int(day.timeIntervalSince1970))")
            let own = try Self.landObject(data, runID: runID, bytes: Data(ownText.utf8))
            runs.append((runID.value, day, own))
        }
        let now = calendar.date(from: DateComponents(year: 2026, month: 11, day: 22, hour: 12))!
        // No grace period: every object here was written a moment ago, though dated months back.
        let prune = LandingPrune(dataDirectory: data, policy: RetentionPolicy(keepDays: 7, keepMonthly: 3), grace: 0)
        let dry = try prune.run(now: now, dryRun: true)
        let expectedKept = Set(runs.filter { run in
            run.day > at(2026, 11, 15) || [at(2026, 10, 31), at(2026, 9, 30)].contains(run.day)
        }.map(\.id))
        #expect(Set(dry.kept) == expectedKept)
        #expect(dry.removed.count == runs.count - expectedKept.count)
        #expect(try prune.landedRuns().count == runs.count, "a dry run removes nothing")

        let result = try prune.run(now: now, dryRun: false)
        #expect(result.removed.map(\.runID) == dry.removed.map(\.runID))
        #expect(Set(try prune.landedRuns().map(\.runID)) == expectedKept)
        for run in runs {
            let exists = FileManager.default.fileExists(atPath: data.landing + "/" + run.unique)
            #expect(exists == expectedKept.contains(run.id), "\(run.id)'s own object")
        }
        let removedBytes = result.removed.reduce(Int64(0)) { $0 + $1.bytes }
        #expect(removedBytes == result.totalBytes && removedBytes > 0)

        // The shared object stays (kept runs use it), and a kept run still replays.
        let kept = try #require(expectedKept.min())
        let replay = try directory.ownerdash(["load", "--run", kept])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("4 rows"), "\(replay.stdout)")
    }

    @Test func theCommandSaysWhatItRemovesAndNeverTheNewestRun() throws {
        let directory = try DataDir()
        try directory.data.create()
        let bytes = try Data(contentsOf: Self.unitInformation)
        let now = Date()
        let old = try Self.landRun(directory.data, started: now.addingTimeInterval(-100 * 86_400), bytes: Data("<old/>".utf8), name: "GetUnitInformation.xml").0
        let newest = try Self.landRun(directory.data, started: now.addingTimeInterval(-60), bytes: bytes).0
        // The old run's object was written 100 days ago; an object landed a moment ago that no manifest names yet
        // (a fetch landing beside the prune, without the lock) is within the grace period and stays.
        let oldObject = try #require(try RunManifest.read(path: LandingZone.manifestPath(in: directory.data, runID: old)).artifacts.first?.object)
        try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-100 * 86_400)],
                                              ofItemAtPath: directory.data.landing + "/" + oldObject)
        let landingStarted = now.addingTimeInterval(-90)
        let landing = try LandingZone(dataDirectory: directory.data, runID: RunID.new(now: landingStarted), now: landingStarted)
        let staged = try landing.stagingPath(pms: .yardi, property: "yp_cedar_bluff", name: "GetUnitInformation.xml")
        _ = FileManager.default.createFile(atPath: staged, contents: Data("<landing-now/>".utf8))
        let landingNow = try landing.commit(staged: staged, pms: .yardi, property: "yp_cedar_bluff", name: "GetUnitInformation.xml")

        let dry = try directory.ownerdash(["prune", "--keep-days", "0", "--keep-monthly", "0", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdoutLines.first?.hasPrefix("would remove run \(old.value) (") == true, "\(dry.stdout)")
        #expect(dry.stdoutLines.count == 2 && dry.stdoutLines.last?.hasPrefix("would free ") == true)
        #expect(directory.landedRuns() == [old.value, newest.value, landing.runID.value].sorted())

        let done = try directory.ownerdash(["prune", "--keep-days", "0", "--keep-monthly", "0"])
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stdoutLines.first?.hasPrefix("removed run \(old.value) (") == true, "\(done.stdout)")
        #expect(directory.landedRuns() == [newest.value, landing.runID.value].sorted(),
                "the newest run is kept whatever the policy, and so is a run still landing")
        let objects = try FileManager.default.subpathsOfDirectory(atPath: LandingZone.objectsDirectory(in: directory.data))
            .filter { $0.hasSuffix(".z") }.map { "objects/" + $0 }
        let newestObject = try #require(try RunManifest.read(path: LandingZone.manifestPath(in: directory.data, runID: newest)).artifacts.first?.object)
        #expect(Set(objects) == [newestObject, landingNow.object], "the old run's object went: \(objects)")

        let bad = try directory.ownerdash(["prune", "--keep-days", "two"])
        #expect(bad.status != 0 && bad.stderr.contains("--keep-days must be a whole number of 0 or more, not \"two\""), "\(bad.stderr)")
    }

    /// A prune right after an upgrade, before any ingest, migrates the raw databases first, as a load would: the
    /// retention rules are written for the current schema (raw migration 54's make-ready index among it). A dry run
    /// leaves the schema as it is.
    @Test func pruneMigratesTheRawDatabasesItPrunes() throws {
        let directory = try DataDir()
        try directory.data.create()
        let index = "SELECT count(*) FROM sqlite_master WHERE name = 'realpage_closed_make_ready_unit'"
        do {
            let upgraded = try Database(path: directory.data.realpageRawDatabase)
            try upgraded.migrate(RealPageRawSchema.migrations.filter { $0.version < 54 })
            #expect(try upgraded.scalar(index) == .integer(0))
        }
        let dry = try directory.ownerdash(["prune", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try Database(path: directory.data.realpageRawDatabase, mode: .readOnly).scalar(index) == .integer(0))
        let done = try directory.ownerdash(["prune"])
        #expect(done.status == 0, "\(done.stderr)")
        let pruned = try Database(path: directory.data.realpageRawDatabase, mode: .readOnly)
        #expect(try pruned.scalar(index) == .integer(1))
        #expect(try pruned.userVersion() == RealPageRawSchema.migrations.last?.version)
    }

    /// Lands one more artifact into an existing run's objects and manifest; returns its object.
    static func landObject(_ data: DataDirectory, runID: RunID, bytes: Data) throws -> String {
        let manifestPath = LandingZone.manifestPath(in: data, runID: runID)
        var manifest = try RunManifest.read(path: manifestPath)
        let staging = data.landing + "/.staging/own-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: staging, contents: bytes)
        let sha = SHA256.hexDigest(of: [UInt8](bytes))
        let object = LandingZone.objectName(sha256: sha, artifactName: "GetUnitInformation.xml")
        try FileManager.default.createDirectory(atPath: (data.landing + "/" + object as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try DeflatedFile.compress(staging, to: data.landing + "/" + object)
        var entry = ManifestEntry(pms: "yardi", property: "yp_cedar_bluff", operation: "GetUnitInformation",
                                  asOfRequested: "2026-11-21", startedAt: manifest.startedAt)
        entry.asOf = "2026-11-21"
        entry.path = "yardi/yp_cedar_bluff/GetUnitInformation.2026-11-21.xml"
        entry.object = object
        entry.sha256 = sha
        entry.size = bytes.count
        manifest.artifacts.append(entry)
        try JSONEncoder().encode(manifest).write(to: URL(fileURLWithPath: manifestPath))
        return object
    }
}
