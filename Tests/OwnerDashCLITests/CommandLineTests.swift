import Foundation
import Testing

/// Runs the built `ownerdash` binary the way a user does and captures what it prints.
struct OwnerDash {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable next to the test bundle (swift build puts both in the same directory).
    static var executable: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("ownerdash")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return repository.appendingPathComponent(".build/debug/ownerdash")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    /// The first row of a query, `|`-joined, read by Python's sqlite3 so the check does not go
    /// through the code under test's own SQLite wrapper.
    static func sqlite(_ path: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sqlite3,sys; r=sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone(); print('|'.join(str(x) for x in r))", path, sql]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `environment`: variables added to (or replacing) this process's own for the run.
    /// `executable`: another program than ownerdash (a shell that limits it, then runs it).
    static func run(_ arguments: [String], in directory: URL = repository, environment: [String: String] = [:],
                    executable program: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = program ?? executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A fresh data directory per test.
final class DataDir {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ownerdash-\(UUID().uuidString)")
    var path: String { url.path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

@Suite struct LoadCommandTests {
    func fixture(_ name: String) -> String { OwnerDash.repository.appendingPathComponent("Tests/Fixtures/\(name)").path }

    @Test func goodFilesLoadAndBadOnesAreNamedWithTheirReasonAndExitTwo() throws {
        let data = DataDir()
        let good = fixture("reports/box_score_nexus_east.xlsx")
        let truncated = fixture("xlsx/truncated.xlsx")
        let legacy = fixture("xlsx/legacy_ole2.xls")
        let missing = fixture("reports/rent_roll_missing_column.xlsx")
        let result = try OwnerDash.run(["load", truncated, good, legacy, missing, "--data-dir", data.path])
        #expect(result.status == 2)
        #expect(result.stdout.contains("loaded  box_score  nexus_east  2026-02-08"))
        let errors = result.stderrLines
        #expect(errors.contains { $0.hasPrefix("\(truncated): error: zip file is truncated") })
        // Only an OLE2 signature and zeros: read as an .xls, and refused as a damaged one.
        #expect(errors.contains { $0.hasPrefix("\(legacy): error: is a damaged legacy .xls (OLE2) file: the OLE2 header") })
        #expect(errors.contains { $0.hasPrefix("\(missing): error: rent roll: missing required column \"Lease Rent\"") })
        #expect(errors.last == "error: 3 of 4 file(s) failed: \(truncated), \(legacy), \(missing)")
        // The good file is in the database despite the bad ones around it.
        let again = try OwnerDash.run(["load", good, "--data-dir", data.path])
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("already loaded  box_score  nexus_east  2026-02-08"))
    }

    @Test func usageErrorsExitOne() throws {
        let data = DataDir()
        let badDate = try OwnerDash.run(["load", "x.xlsx", "--as-of", "02/08/2026", "--data-dir", data.path])
        #expect(badDate.status == 1)
        #expect(badDate.stderr == "error: ownerdash load: --as-of must be a date YYYY-MM-DD, not \"02/08/2026\"\n")
        let badReport = try OwnerDash.run(["load", "x.xlsx", "--report", "rentroll"])
        #expect(badReport.status == 1)
        #expect(badReport.stderr.contains("unknown --report \"rentroll\""))
        let unknown = try OwnerDash.run(["frobnicate"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "error: unknown command \"frobnicate\" (see ownerdash --help)\n")
    }

    @Test func helpIsGeneratedFromTheDeclarations() throws {
        let help = try OwnerDash.run(["load", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: ownerdash load [FILE ...] [--run RUN_ID] [--report TYPE] [--property KEY] [--as-of YYYY-MM-DD]"))
        #expect(help.stdout.contains("--data-dir DIR"))
        let overview = try OwnerDash.run(["--help"])
        #expect(overview.stdout.contains("sheet dump"))
        #expect(overview.stdout.contains("load"))
    }
}

@Suite struct SheetDumpCommandTests {
    @Test func dumpsTheGridAsCSV() throws {
        let file = OwnerDash.repository.appendingPathComponent("Tests/Fixtures/reports/rent_roll_two_row_header.xlsx").path
        let result = try OwnerDash.run(["xlsx", "dump", file])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "OneSite Rents v3.0,,,,,,,,,,,,,,Page 1 of 2")
        #expect(lines[3] == "As of 02/08/2026")
        // Text money stays text; numbers print without ".0"; the name with a comma is quoted.
        #expect(lines.contains("1101,A1,715,Occupied no NTV,\"Garcia, Ana\",12/06/2024,12/06/2025,12/05/2026,1450,RENT,\"1,400.00\",,\"1,400.00\",500,$0.00"))
    }

    @Test func aMissingSheetIsAUsageErrorListingTheSheets() throws {
        let file = OwnerDash.repository.appendingPathComponent("Tests/Fixtures/reports/rent_roll_two_row_header.xlsx").path
        let result = try OwnerDash.run(["xlsx", "dump", file, "--sheet", "Nope"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no sheet \"Nope\" (sheets: \"Report\""))
    }

    @Test func anHTMLPageWithoutATableSaysWhatItIs() throws {
        let file = OwnerDash.repository.appendingPathComponent("Tests/Fixtures/xlsx/html_disguised.xlsx").path
        let result = try OwnerDash.run(["xlsx", "dump", file])
        #expect(result.status == 3)
        #expect(result.stderr == "\(file): error: is an HTML page without any table (titled \"Session expired\"): "
                    + "an error or login page, not a report\n")
    }

    @Test func legacyXLSAndHTMLExportsDumpTheSameGridAsTheXLSX() throws {
        let reports = OwnerDash.repository.appendingPathComponent("Tests/Fixtures/reports")
        let xlsx = try OwnerDash.run(["sheet", "dump", reports.appendingPathComponent("box_score_nexus_east.xlsx").path])
        let xls = try OwnerDash.run(["sheet", "dump", reports.appendingPathComponent("forms/box_score_nexus_east.xls").path])
        #expect(xlsx.status == 0 && xls.status == 0)
        #expect(xls.stdout == xlsx.stdout)
        let html = try OwnerDash.run(["sheet", "dump", reports.appendingPathComponent("forms/box_score_nexus_east.html").path,
                                      "--sheet", "HTML"])
        #expect(html.status == 0)
        // HTML cells are text as displayed: the title lines and labels read the same.
        let lines = html.stdout.split(separator: "\n")
        #expect(lines.first == "OneSite Rents v3.0,,,,,,,,,,,,,,,,Page 1 of 1")
        #expect(lines.contains { $0.hasPrefix("BOXSCORE") })
    }

    @Test func allSheetsPrintsEachAfterItsName() throws {
        let file = OwnerDash.repository.appendingPathComponent("Tests/Fixtures/xls/lo_rent_roll.xls").path
        let result = try OwnerDash.run(["sheet", "dump", file, "--all-sheets"])
        #expect(result.status == 0)
        let names = result.stdout.split(separator: "\n").filter { $0.hasPrefix("== ") }
        #expect(names.count == 3)
        #expect(try OwnerDash.run(["sheet", "dump", file, "--all-sheets", "--sheet", "1"]).status == 1)
    }
}

/// `ownerdash load` of the bundled sample reports (data/samples, made by the simulator's report writers): the raw
/// numbers must equal the simulator's ground truth (data/samples/truth.json, computed from the generated portfolio,
/// not from the files).
@Suite struct SampleReportTests {
    struct Truth: Decodable {
        struct Property: Decodable {
            struct Counts: Decodable {
                let total_units: Int, occupied: Int, vacant: Int, vacant_leased: Int, on_notice: Int,
                    notice_leased: Int, model: Int, down: Int
            }
            struct Delinquency: Decodable {
                struct Totals: Decodable {
                    let current_balance: Double, balance_0_30: Double, balance_31_60: Double,
                        balance_61_90: Double, balance_over_90: Double, prepaid: Double
                }
                let totals: Totals
            }
            struct Month: Decodable { let move_ins: Int, move_outs: Int, renewals: Int, notices: Int }
            let unit_counts: Counts
            let physical_occupancy_pct: Double
            let delinquency: Delinquency
            let activity_by_month: [String: Month]
        }
        let as_of: String
        let properties: [String: Property]
    }

    static var sampleFiles: [String] {
        let directory = OwnerDash.repository.appendingPathComponent("data/samples")
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".xlsx") }.sorted().map { directory.appendingPathComponent($0).path }
    }

    @Test func loadingTheSamplesAgreesWithTheSimulatorsTruth() throws {
        let data = DataDir()
        #expect(Self.sampleFiles.count == 18)
        let result = try OwnerDash.run(["load"] + Self.sampleFiles + ["--data-dir", data.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("nexus_east"))
        let truthFile = OwnerDash.repository.appendingPathComponent("data/samples/truth.json")
        let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: truthFile))
        #expect(truth.properties.count == 3)
        let database = data.url.appendingPathComponent("realpage_raw.db").path
        for (key, fact) in truth.properties {
            let box = try OwnerDash.sqlite(database, """
                SELECT sum(total_units), sum(occupied_units), sum(vacant_units), sum(vacant_leased),
                       sum(occupied_on_notice), sum(notice_leased), sum(model_units), sum(down_units)
                FROM realpage_box_score WHERE property_id = '\(key)'
                """)
            let c = fact.unit_counts
            #expect(box == "\(c.total_units)|\(c.occupied)|\(c.vacant)|\(c.vacant_leased)|\(c.on_notice)|\(c.notice_leased)|\(c.model)|\(c.down)", "box score of \(key)")
            let occupancy = try OwnerDash.sqlite(database, """
                SELECT printf('%.2f', 100.0 * sum(occupied_units) / sum(total_units)) FROM realpage_box_score WHERE property_id = '\(key)'
                """)
            #expect(occupancy == String(format: "%.2f", fact.physical_occupancy_pct), "occupancy of \(key)")
            let aging = try OwnerDash.sqlite(database, """
                SELECT printf('%.2f|%.2f|%.2f|%.2f|%.2f|%.2f', sum(current_balance), sum(balance_0_30), sum(balance_31_60),
                              sum(balance_61_90), sum(balance_over_90), sum(prepaid))
                FROM realpage_delinquency WHERE property_id = '\(key)'
                """)
            let t = fact.delinquency.totals
            let expected = [t.current_balance, t.balance_0_30, t.balance_31_60, t.balance_61_90, t.balance_over_90, t.prepaid]
                .map { String(format: "%.2f", $0) }.joined(separator: "|")
            #expect(aging == expected, "delinquency of \(key)")
            let rentRoll = try OwnerDash.sqlite(database, "SELECT count(DISTINCT unit_number) FROM realpage_rent_roll WHERE property_id = '\(key)'")
            #expect(rentRoll == String(c.total_units), "rent roll units of \(key)")
            let month = String(truth.as_of.prefix(7))
            let summary = try OwnerDash.sqlite(database, """
                SELECT month, move_ins, move_outs, renewals, notices FROM realpage_monthly_summary WHERE property_id = '\(key)'
                """)
            let m = try #require(fact.activity_by_month[month])
            #expect(summary == "\(month)|\(m.move_ins)|\(m.move_outs)|\(m.renewals)|\(m.notices)", "monthly summary of \(key)")
        }
        // Loading them again loads nothing new.
        let again = try OwnerDash.run(["load"] + Self.sampleFiles + ["--data-dir", data.path])
        #expect(again.status == 0)
        #expect(!again.stdout.isEmpty && again.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("already loaded") },
                "\(again.stdout)")
    }
}

/// `OWNERDASH_SQL_PROFILE_MS` with `OWNERDASH_SQL_PROFILE_PLAN=1`: each rule's time and SQLite's plan for it, and the
/// sync still succeeds (a plan asked for after a `CREATE TEMP TABLE ... AS` had run failed the property's sync).
@Suite struct SyncProfileTests {
    @Test func theProfileWithPlansPrintsEachRuleAndItsPlanAndTheSyncSucceeds() throws {
        let data = DataDir()
        let box = OwnerDash.repository.appendingPathComponent("Tests/Fixtures/reports/box_score_nexus_east.xlsx").path
        #expect(try OwnerDash.run(["load", box, "--data-dir", data.path]).status == 0)
        let sync = try OwnerDash.run(["sync", "--property", "nexus_east", "--data-dir", data.path, "--quiet"],
                                     environment: ["OWNERDASH_SQL_PROFILE_MS": "0", "OWNERDASH_SQL_PROFILE_PLAN": "1"])
        #expect(sync.status == 0, "\(sync.stderr.suffix(800))")
        let lines = sync.stderrLines
        #expect(lines.contains { $0.hasPrefix("sql ") && $0.contains("nexus_east  CREATE TEMP TABLE") }, "a table a rule makes")
        #expect(lines.contains { $0.hasPrefix("      ") && ($0.contains("SEARCH") || $0.contains("SCAN")) }, "its plan")
        #expect(!lines.contains { $0.contains("no plan") || $0.contains("error") }, "\(lines.filter { $0.contains("error") })")
    }
}
