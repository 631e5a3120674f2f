import Foundation
import Testing

/// docs/contracts.md, "Reliability": a killed process (kill -9 at any moment) leaves every database readable and
/// consistent, and the next run completes.
@Suite struct CrashSafetyTests {
    @Test func aLoadKilledMidwayLeavesNothingHalfWrittenAndTheNextLoadCompletes() throws {
        let data = DataDir()
        try FileManager.default.createDirectory(at: data.url, withIntermediateDirectories: true)
        let workbook = data.url.appendingPathComponent("big_rent_roll.xlsx").path
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        generator.arguments = ["python3", OwnerDash.repository.appendingPathComponent("scripts/bench/make_big_rent_roll.py").path,
                               workbook, "60000"]
        try generator.run()
        generator.waitUntilExit()
        #expect(generator.terminationStatus == 0)

        // A good snapshot first, which the killed load must not disturb.
        let box = OwnerDash.repository.appendingPathComponent("Tests/Fixtures/reports/box_score_nexus_east.xlsx").path
        #expect(try OwnerDash.run(["load", box, "--data-dir", data.path]).status == 0)

        let load = Process()
        load.executableURL = OwnerDash.executable
        load.arguments = ["load", workbook, "--property", "nexus_east", "--as-of", "2026-11-20", "--data-dir", data.path, "--quiet"]
        load.currentDirectoryURL = OwnerDash.repository
        load.standardOutput = FileHandle.nullDevice
        try load.run()
        // Kill it once it has started inserting: the WAL file grows past its initial size.
        let wal = data.url.appendingPathComponent("realpage_raw.db-wal").path
        let deadline = Date().addingTimeInterval(30)
        var walSize = 0
        repeat {
            Thread.sleep(forTimeInterval: 0.05)
            walSize = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        } while walSize < 1_000_000 && load.isRunning && Date() < deadline
        #expect(load.isRunning, "the load finished before it could be killed; make the workbook bigger")
        kill(load.processIdentifier, SIGKILL)
        load.waitUntilExit()
        #expect(load.terminationReason == .uncaughtSignal)

        let database = data.url.appendingPathComponent("realpage_raw.db").path
        #expect(try OwnerDash.sqlite(database, "PRAGMA integrity_check") == "ok")
        #expect(try OwnerDash.sqlite(database, "SELECT count(*) FROM realpage_rent_roll") == "0")
        #expect(try OwnerDash.sqlite(database, "SELECT count(*) FROM realpage_box_score") == "5")
        #expect(try OwnerDash.sqlite(database, "SELECT group_concat(report_type) FROM loaded_artifacts") == "box_score")

        let again = try OwnerDash.run(["load", workbook, "--property", "nexus_east", "--as-of", "2026-11-20", "--data-dir", data.path])
        #expect(again.status == 0)
        #expect(try OwnerDash.sqlite(database, "SELECT count(*) FROM realpage_rent_roll") == "60000")
    }
}
