import Foundation
import OwnerDashCore
import SQLiteKit
import Testing

/// `ownerdash query` as a user runs it: the built binary on a hand-built unified.db, checking stdout, stderr and
/// the exit code.
@Suite struct QueryCommandTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `ownerdash` executable swift build put next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("ownerdash")
    }

    static func run(_ arguments: [String], in directory: URL) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Outputs here are small: read stderr after stdout without risk of blocking.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// SummaryTests' two properties (alpha, beta at 2026-11-20; alpha also at 2026-11-01).
    static func query(_ arguments: [String]) throws -> Run {
        let fixture = try SummaryTests.fixture()
        return try run(["query"] + arguments + ["--data-dir", fixture.dataDirectory.root], in: fixture.directory)
    }

    @Test func summaryTableForTheSelectedPropertiesWithTheirTotal() throws {
        let result = try Self.query(["summary", "--property", "alpha", "--property", "beta"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        // The numbers worked out in SummaryTests, laid out as the table format does.
        #expect(result.stdout == """
            Summary at the latest snapshot — alpha, beta
            property  as_of       units  occupancy_pct  leased_pct  exposure_30_pct  exposure_60_pct  vacant_ready  aged_vacant_90  delinquent  net_delinquent  leads_30d  leases_30d  move_ins_mtd  move_outs_mtd
            --------  ----------  -----  -------------  ----------  ---------------  ---------------  ------------  --------------  ----------  --------------  ---------  ----------  ------------  -------------
            alpha     2026-11-20     10         90.00%      90.00%            0.00%           10.00%             0               0      500.00          475.00          2           1             2              1
            beta      2026-11-20     30         80.00%      76.67%           10.00%           13.33%             3               1        0.00            0.00          1           0             0              0
            --------  ----------  -----  -------------  ----------  ---------------  ---------------  ------------  --------------  ----------  --------------  ---------  ----------  ------------  -------------
            all       2026-11-20     40         82.50%      80.00%            7.50%           12.50%             3               1      500.00          475.00          3           1             2              1

            """)
    }

    @Test func jsonAndCSVPrintOnlyTheResult() throws {
        let json = try Self.query(["summary", "--format", "json"])
        #expect(json.status == 0 && json.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["metric"] as? String == "summary")
        let parameters = try #require(object["parameters"] as? [String: Any])
        #expect(parameters["portfolio"] as? Bool == true && parameters["properties"] as? [String] == ["alpha", "beta"])
        let total = try #require(object["total"] as? [String: Any])
        #expect(total["property"] as? String == "portfolio" && total["occupancy_pct"] as? Double == 82.5)
        #expect(total["net_delinquent"] as? Double == 475 && total["leads_30d"] as? Int == 3)

        let csv = try Self.query(["exposure", "--property", "beta", "--format", "csv"])
        #expect(csv.status == 0 && csv.stderr.isEmpty)
        #expect(csv.stdout == """
            property,as_of,units,vacant_not_leased,notice_not_leased,exposure_now,exposure_now_pct,exposure_30,exposure_30_pct,exposure_60,exposure_60_pct
            beta,2026-11-20,30,2,3,5,16.67,3,10,4,13.33

            """)
    }

    /// `--format xlsx --out FILE`: the answer as a workbook people open, headers in words, nothing on stdout.
    @Test func xlsxWritesAWorkbookToOut() throws {
        let fixture = try SummaryTests.fixture()
        let book = fixture.directory.appendingPathComponent("summary.xlsx").path
        let written = try Self.run(["query", "summary", "--format", "xlsx", "--out", book,
                                    "--data-dir", fixture.dataDirectory.root], in: fixture.directory)
        #expect(written.status == 0 && written.stdout.isEmpty && written.stderr.isEmpty, "\(written.stderr)")
        let dump = try Self.run(["sheet", "dump", "--all-sheets", book], in: fixture.directory)
        #expect(dump.status == 0, "\(dump.stderr)")
        #expect(dump.stdout.contains("== Summary =="))
        #expect(dump.stdout.contains("\nProperty,As of,Units,Occupancy %,Leased %,Exposure 30 %,Exposure 60 %,Vacant ready,"
                                     + "Aged vacant 90,Delinquent,Net delinquent,Leads (30 days),Leases (30 days),Move-ins MTD,Move-outs MTD\n"))
        #expect(dump.stdout.contains("\nalpha,2026-11-20,10,90,90,0,10,0,0,500,475,2,1,2,1\n"), "\(dump.stdout)")
        let unwritable = try Self.run(["query", "summary", "--format", "xlsx", "--out", "/no/such/dir/summary.xlsx",
                                       "--data-dir", fixture.dataDirectory.root], in: fixture.directory)
        #expect(unwritable.status == 1 && unwritable.stderr.split(separator: "\n").count == 1, "\(unwritable.stderr)")
        #expect(unwritable.stderr.contains("cannot write --out /no/such/dir/summary.xlsx"))
    }

    @Test(arguments: [
        (["bogus"], "unknown metric \"bogus\" (one of occupancy, exposure, pricing, delinquency, funnel, activity, summary)"),
        (["summary", "--property", "gamma"], "unknown property \"gamma\" (not in unified.db; synced: alpha, beta)"),
        (["summary", "--format", "xml"], "unknown --format \"xml\" (one of table, json, csv, xlsx)"),
        (["summary", "--format", "xlsx"], "--format xlsx needs --out FILE (a workbook is never written to the terminal)"),
        (["summary", "--out", "summary.xlsx"], "--out is for --format xlsx (the other formats print on stdout)"),
        (["summary", "--as-of", "2026-13-01"], "--as-of \"2026-13-01\" is not a date (YYYY-MM-DD)"),
        (["funnel", "--from", "11/01/2026"], "--from \"11/01/2026\" is not a date (YYYY-MM-DD)"),
        (["summary", "--from", "2026-11-01"], "takes --as-of, not --from/--to"),
        (["delinquency", "--top", "-1"], "--top \"-1\" is not a count"),
        ([], "missing METRIC"),
    ])
    func usageErrorsExitOneWithOneLine(arguments: [String], message: String) throws {
        let result = try Self.query(arguments)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains(message) == true, "\(result.stderr)")
    }

    @Test func nothingToReadExitsThree() throws {
        let early = try Self.query(["summary", "--property", "beta", "--as-of", "2026-11-10"])
        #expect(early.status == 3 && early.stdout.isEmpty)
        #expect(early.stderr == "error: ownerdash query summary: beta: no snapshot on or before 2026-11-10 (earliest 2026-11-20)\n")

        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let missing = try Self.run(["query", "summary", "--data-dir", empty.path], in: empty)
        #expect(missing.status == 3 && missing.stdout.isEmpty)
        #expect(missing.stderr.contains("no unified database yet") && missing.stderr.split(separator: "\n").count == 1)
    }

    @Test func portfolioPropertyWithoutSnapshotIsAWarningOnStderr() throws {
        let result = try Self.query(["occupancy", "--as-of", "2026-11-10", "--format", "csv"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").map { $0.split(separator: ",").first ?? "" } == ["property", "alpha", "portfolio"])
        #expect(result.stderr == "warning: ownerdash query occupancy: left out: beta: no snapshot on or before 2026-11-10 (earliest 2026-11-20)\n")
    }
}
