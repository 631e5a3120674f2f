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

    /// A report written with `--out` to a disk that fills part way (here a file size limit, `ulimit -f`, which fails
    /// the write past it as a full disk would: EFBIG, SIGXFSZ ignored): one line naming the file and why, exit 3, and
    /// neither the file nor a partial one left. The CSV was a usage error (exit 1) whatever the reason; the workbook was
    /// a damaged file and exit 0.
    @Test(arguments: ["csv", "xlsx"])
    func aResultFileCutShortIsAFailureInOneLineAndLeavesNothing(format: String) throws {
        let data = try Self.households(10_000)
        let out = data.url.appendingPathComponent("grid.\(format)").path
        let arguments = ["report", "lease-status", "--start", "2026-10", "--format", format, "--out", out, "--data-dir", data.path]
        let limited = try OwnerDash.run(["-c", #"trap '' XFSZ; ulimit -f 40; exec "$@""#, "bash",
                                         OwnerDash.executable.path] + arguments, executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(limited.status == 3, "\(limited.stderr)")
        let lines = limited.stderr.split(separator: "\n")
        // The workbook's library writes the sheet's rows to a file of its own first, never checking those writes: the
        // sheet is what the limit cuts, and the workbook read back before it takes its name says so (it was zipped cut
        // off mid-row and called a success, exit 0).
        let reason = format == "csv" ? "File too large"
            : "the workbook came out incomplete (xl/worksheets/sheet1.xml: XML error at line 2: expected '>'); was the disk full?"
        #expect(lines.count == 1 && lines[0] == "error: ownerdash report lease-status: cannot write --out \(out): \(reason)",
                "\(limited.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: data.path).filter { $0.hasPrefix("grid.") }
        #expect(left.isEmpty, "\(left)")
        // Without the limit the same command writes the file: the limit is what failed it.
        let whole = try OwnerDash.run(arguments)
        #expect(whole.status == 0, "\(whole.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int)
        #expect(size > 40 * 1024)
    }

    /// A data directory whose unified.db holds `count` households of yp_riverwalk, each with a month's rent (10,000: a
    /// CSV of about 1 MB, a workbook of about 150 KB).
    static func households(_ count: Int) throws -> DataDir {
        let data = DataDir()
        try data.unifiedDatabase(with: """
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('yp_riverwalk', 'Riverwalk', 'yardi', '2026-11-20', 'yardi: test');
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO unified_units (unified_property_id, unit_number, floor, status)
            SELECT 'yp_riverwalk', 'u' || i, '1', 'occupied' FROM n;
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status)
            SELECT 'yp_riverwalk', 't' || substr(unit_number, 2), unit_number, 'Resident ' || unit_number, 'current' FROM unified_units;
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            SELECT 'yp_riverwalk', 'c' || resident_id, resident_id, 'L' || resident_id, unit_number, 'rent', 'RENT', 1,
                   '2026-10', '2026-10-01', '2026-10-01', 1400, 1400, 0
            FROM unified_residents;
            """)
        return data
    }

    /// `--out` through a symbolic link replaces the link's target and keeps the link; `--out` naming a FIFO (or
    /// `/dev/stdout` piped on) writes into it. Both were replaced by a regular file (renamed over them): the link
    /// lost, the pipe's reader left waiting, and as root `--out /dev/stdout` put a file in /dev.
    @Test(arguments: ["csv", "xlsx"])
    func aResultFileGoesThroughALinkAndIntoAPipe(format: String) throws {
        let data = try Self.households(20)
        let target = data.url.appendingPathComponent("2026-10.\(format)").path
        let link = data.url.appendingPathComponent("latest.\(format)").path
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let throughLink = try OwnerDash.run(["report", "lease-status", "--start", "2026-10", "--format", format,
                                             "--out", link, "--data-dir", data.path])
        #expect(throughLink.status == 0, "\(throughLink.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        let written = try Data(contentsOf: URL(fileURLWithPath: target))
        #expect(written.count > 100 && written.prefix(2) == Data(format == "csv" ? "pr".utf8 : "PK".utf8))

        // Through a pipe: the shell hands ownerdash `/dev/stdout`, the pipe to `cat`.
        let piped = try OwnerDash.run(["-c", #""$@" --out /dev/stdout | cat > "$OUT""#, "bash", OwnerDash.executable.path,
                                       "report", "lease-status", "--start", "2026-10", "--format", format,
                                       "--data-dir", data.path],
                                      environment: ["OUT": data.url.appendingPathComponent("piped").path],
                                      executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(piped.status == 0, "\(piped.stderr)")
        let received = data.url.appendingPathComponent("piped.\(format)")
        try FileManager.default.moveItem(at: data.url.appendingPathComponent("piped"), to: received)
        // The same report either way (a workbook's title says the minute it was written, and its zip the time).
        func shown(_ path: String) throws -> String {
            let dump = try OwnerDash.run(["sheet", "dump", path])
            return dump.stdout.split(separator: "\n").filter { !$0.contains("written ") }.joined(separator: "\n")
        }
        #expect(try shown(received.path) == shown(target) && !(try shown(target)).isEmpty)
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
