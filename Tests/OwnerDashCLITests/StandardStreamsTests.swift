import Foundation
import Testing

/// stdout and stderr on a full disk (`/dev/full` answers every write with ENOSPC): a result that cannot be written
/// is an error naming why, and a log line that cannot be written stops nothing (it killed the process with SIGILL).
@Suite struct StandardStreamsTests {
    /// Runs the binary with stdout or stderr on /dev/full; returns the exit status and what the other stream got.
    func run(_ arguments: [String], full stream: String) throws -> (status: Int32, other: String, reason: Process.TerminationReason) {
        let process = Process()
        process.executableURL = OwnerDash.executable
        process.arguments = arguments
        process.currentDirectoryURL = OwnerDash.repository
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let other = Pipe()
        if stream == "stdout" {
            process.standardOutput = full
            process.standardError = other
        } else {
            process.standardOutput = other
            process.standardError = full
        }
        try process.run()
        let text = String(decoding: other.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text, process.terminationReason)
    }

    @Test func aResultThatCannotBeWrittenIsAnErrorNotASuccess() throws {
        let box = OwnerDash.repository.appendingPathComponent("Tests/Fixtures/reports/box_score_nexus_east.xlsx").path
        // Written in blocks (StandardOutput) and through print (the help).
        for arguments in [["sheet", "dump", box], ["--help"]] {
            let (status, stderr, reason) = try run(arguments, full: "stdout")
            #expect(reason == .exit && status == 3, "\(arguments)")
            let lines = stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("stdout: error: the output could not be written whole: "),
                    "\(arguments): \(stderr)")
        }
    }

    @Test func aLogLineThatCannotBeWrittenStopsNothing() throws {
        let data = DataDir()
        // A load whose file warns (its totals row disagrees with its rows): the warning is lost, the load is not.
        let box = OwnerDash.repository.appendingPathComponent("Tests/Fixtures/reports/box_score_totals_mismatch.xlsx").path
        let (status, stdout, reason) = try run(["load", box, "--data-dir", data.path], full: "stderr")
        #expect(reason == .exit && status == 0)
        #expect(stdout.contains("loaded  box_score  nexus_east  2026-02-08  5 rows"), "\(stdout)")
        #expect(try OwnerDash.sqlite(data.url.appendingPathComponent("realpage_raw.db").path,
                                     "SELECT count(*) FROM realpage_box_score") == "5")
        // A failure whose error line is lost still says so by its exit status.
        let missing = try run(["query", "summary", "--data-dir", data.url.appendingPathComponent("none").path], full: "stderr")
        #expect(missing.reason == .exit && missing.status == 3)
    }
}
