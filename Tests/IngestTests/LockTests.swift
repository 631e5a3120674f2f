import Foundation
import OwnerDashCore
import SQLiteKit
import SimulatorSupport
import Testing
@testable import Ingest

/// data/ingest.lock: one writer per data directory, the holder named to whoever is refused, a dead holder's lock
/// taken over and its run marked abandoned.
@Suite struct LockTests {
    @Test func aSecondHolderIsRefusedWithTheHolderNamed() throws {
        let directory = try DataDir()
        try directory.data.create()
        let holder = LockHolder(command: "ingest", runID: "20261122T023000Z-00aa", pid: 4242, host: "ops-1",
                                startedAt: "2026-11-22T02:30:00Z")
        let first = try IngestLock.acquire(dataDirectory: directory.data, holder: holder)
        #expect(first.staleHolder == nil, "a fresh lock file has no previous holder")

        // flock locks belong to the open file: a second open in the same process is refused like another process.
        let refusal = #expect(throws: IngestLockBusy.self) {
            try IngestLock.acquire(dataDirectory: directory.data, holder: LockHolder(command: "ingest", runID: "other"))
        }
        #expect(refusal?.holder == holder)
        #expect(refusal?.description == "ingest is running: run 20261122T023000Z-00aa, pid 4242 on host ops-1 since 2026-11-22T02:30:00Z")
        // A reader sees the holder without taking the lock.
        #expect(IngestLock.recordedHolder(dataDirectory: directory.data) == holder)

        first.release()
        let second = try IngestLock.acquire(dataDirectory: directory.data, holder: LockHolder(command: "sync", runID: "next"))
        #expect(second.staleHolder == nil && !second.staleUnreadable, "a clean release leaves nothing stale")
        #expect(IngestLock.recordedHolder(dataDirectory: directory.data)?.runID == "next")
        second.release()
        #expect(IngestLock.recordedHolder(dataDirectory: directory.data) == nil, "released: the file is empty")
        #expect(FileManager.default.fileExists(atPath: IngestLock.path(in: directory.data)), "never deleted")
    }

    @Test func aLockWhoseHolderWasKilledIsTakenOverAndItsRunMarkedAbandoned() throws {
        let silent = try SilentServer()
        let simulator = try PMSSimulator.shared.get()
        let directory = try DataDir()
        // An ingest that takes the lock, records its run and then waits forever on its first download.
        let stuck = try directory.start(["ingest", "--property", "nexus_east", "--reports", "box_score", "--as-of", PMSSimulator.asOf],
                                        environment: silent.environment)
        let recorded = try #require(directory.waitForLockHolder(pid: stuck.pid), "the ingest wrote its holder into the lock file")
        let stuckRun = try #require(recorded["run_id"] as? String)
        #expect(recorded["command"] as? String == "ingest" && recorded["host"] as? String == LockHolder.hostName())
        try waitFor("the stuck run's landing directory") { directory.landedRuns() == [stuckRun] }
        #expect(try directory.runRow(stuckRun).text("status") == "running")
        stuck.killHard()
        #expect(stuck.terminationReason == .uncaughtSignal)

        // Its kernel lock died with it; the file still names it, and the run row still says running.
        let contents = try #require(FileManager.default.contents(atPath: IngestLock.path(in: directory.data)))
        #expect(String(decoding: contents, as: UTF8.self).contains(stuckRun))
        #expect(try directory.runRow(stuckRun).text("status") == "running")

        // The next ingest takes over with a warning naming the dead holder and marks its run abandoned.
        let next = try directory.ownerdash(["ingest", "--property", "nexus_east", "--reports", "box_score", "--as-of", PMSSimulator.asOf],
                                           environment: simulator.environment)
        let nextRun = try #require(next.runID)
        #expect([0, 2].contains(next.status), "stderr: \(next.stderr)")
        #expect(next.stderr.contains("warning: took over a stale lock: ingest run \(stuckRun) (pid \(stuck.pid) on host \(LockHolder.hostName())"))
        #expect(next.stderr.contains("warning: run \(stuckRun) was left running by a process that is gone: marked abandoned"))
        #expect(next.stdout.contains("abandoned \(stuckRun)"))
        let abandoned = try directory.runRow(stuckRun)
        #expect(abandoned.text("status") == "abandoned")
        #expect(abandoned.int("pid") == Int(stuck.pid))
        #expect(abandoned.text("finished_at") == nil, "when it died is not known")
        #expect(try directory.runRow(nextRun).text("status") != "running")
        #expect(IngestLock.recordedHolder(dataDirectory: directory.data) == nil, "the next run released the lock cleanly")

        let shown = try directory.ownerdash(["runs", "show", stuckRun])
        #expect(shown.status == 0)
        #expect(shown.stdoutLines.contains("status     abandoned"))
    }

    @Test func twoConcurrentIngestsInSeparateProcessesExactlyOneRuns() throws {
        let silent = try SilentServer()
        let directory = try DataDir()
        let arguments = ["ingest", "--property", "nexus_east", "--reports", "box_score", "--as-of", PMSSimulator.asOf]
        let first = try directory.start(arguments, environment: silent.environment)
        let second = try directory.start(arguments, environment: silent.environment)
        defer { first.killHard(); second.killHard() }

        // The one refused ends at once; the one running stays stuck on the silent server.
        try waitFor("one of the two ingests to end") { !first.isRunning || !second.isRunning }
        let (refused, running) = first.isRunning ? (second, first) : (first, second)
        #expect(!running.ended(within: 2), "exactly one is refused: the other keeps running")
        let result = try refused.wait()
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty, "nothing was done, so no run id on stdout: \(result.stdout)")
        let holder = try #require(directory.waitForLockHolder(pid: running.pid))
        let runningRun = try #require(holder["run_id"] as? String)
        let message = try #require(result.stderrLines.last)
        #expect(result.stderrLines.count == 1, "one line: \(result.stderr)")
        #expect(message.hasPrefix("error: ingest is running: run \(runningRun), pid \(running.pid) on host \(LockHolder.hostName()) since 20"))

        try waitFor("the running ingest's landing directory") { directory.landedRuns() == [runningRun] }
        // The refused one is recorded too (`runs list --status refused`), with the holder in its detail.
        let runs = try directory.unified().query("SELECT run_id, status, detail FROM etl_runs ORDER BY status")
        #expect(runs.count == 2)
        #expect(runs.first?[0] != .text(runningRun) && runs.first?[1] == .text("refused"))
        #expect(runs.first?[2].textValue == "refused: " + String(message.dropFirst("error: ".count)))
        #expect(runs.last == [.text(runningRun), .text("running"), .null])
        #expect(directory.landedRuns() == [runningRun], "only the running ingest created a landing directory")
    }

    @Test func writersRefuseWhileAnIngestHoldsTheLockAndReadersDoNot() throws {
        let directory = try DataDir()
        try directory.data.create()
        let holder = LockHolder(command: "ingest", runID: "20261122T023000Z-beef")
        let lock = try IngestLock.acquire(dataDirectory: directory.data, holder: holder)
        defer { lock.release() }
        let report = repositoryRoot.appendingPathComponent("Tests/Fixtures/reports").path
        let file = try #require(FileManager.default.contentsOfDirectory(atPath: report).sorted().first { $0.hasSuffix(".xlsx") })

        for arguments in [["sync", "--property", "nexus_east"], ["load", (report as NSString).appendingPathComponent(file)]] {
            let result = try directory.ownerdash(arguments)
            #expect(result.status == 3, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderrLines == ["error: ownerdash \(arguments[0]): \(holder.description) (\(arguments[0]) writes the same databases: run it again when that has finished)"])
            #expect(result.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.data.realpageRawDatabase), "the refused load wrote nothing")
        // The refused sync wrote nothing but the record of its refusal.
        let refused = try directory.unified().query("SELECT trigger, status, detail FROM etl_runs")
        #expect(refused == [[.text("sync"), .text("refused"), .text("refused: \(holder.description)")]])
        #expect(try directory.unified().scalar("SELECT count(*) FROM unified_properties") == .integer(0))

        let readers = try directory.ownerdash(["runs", "list"])
        #expect(readers.status == 0, "runs never takes the lock: \(readers.stderr)")
    }
}

/// Polls `condition` for up to `seconds`; throws when it never holds.
func waitFor(_ what: String, seconds: Double = 30, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return }
        usleep(20_000)
    }
    throw SupportError("timed out waiting for \(what)")
}
