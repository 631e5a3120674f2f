import Foundation
import OwnerDashCore
import SQLiteKit
import SimulatorSupport
import Testing

/// `ownerdash fetch` and `load --run`, end to end: the built binary against the pms_sim simulator.
@Suite struct FetchCommandTests {
    @Test func twoPropertiesLandEveryReportWithAManifestThatMatchesTheBytes() throws {
        let simulator = try PMSSimulator.clean.get()
        let workspace = try Workspace()
        let token = freshToken()
        let result = try workspace.ownerdash(
            // Every report named: a default run leaves out those fetched only when named (UnknownReportKeyTests).
            ["fetch", "--property", "nexus_east", "--property", "parkside", "--reports", allReports.joined(separator: ","),
             "--as-of", "2026-11-20", "--parallel", "4"],
            environment: ["OWNERDASH_REALPAGE_REPORTS_URL": simulator.reportsURL, "REALPAGE_TOKEN": token])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let runID = try #require(result.runID)
        let landedLines = result.stdoutLines.filter { $0.hasPrefix("landed  ") }
        #expect(landedLines.count == 2 * allReports.count)

        let run = workspace.runDirectory(runID)
        var expectedFiles = ["manifest.json"]
        for property in ["nexus_east", "parkside"] {
            for report in allReports { expectedFiles.append("realpage/\(property)/\(report).xlsx") }
        }
        // Nothing else: no staging leftovers, no temp manifest.
        #expect(try workspace.landedFiles(runID) == expectedFiles.sorted())

        let manifest = try workspace.manifest(runID)
        #expect(manifest.artifacts.count == 2 * allReports.count)
        for artifact in manifest.artifacts {
            let (path, bytes) = try workspace.landedBytes(of: artifact, in: run)
            #expect(artifact["size"] as? Int == bytes.count, "\(path)")
            // Landed as sent: OneSite sends 4156 as a BIFF8 .xls and Lease Details as HTML, the rest here as .xlsx.
            switch artifact["report"] as? String {
            case "renewal_detail": #expect(bytes.starts(with: [0xD0, 0xCF, 0x11, 0xE0]), "\(path) is a BIFF8 .xls")
            case "lease_details": #expect(bytes.starts(with: Array("<html".utf8)), "\(path) is HTML")
            default: #expect(bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]), "\(path) is an xlsx (zip)")
            }
            #expect(artifact["http_status"] as? Int == 200)
            #expect(artifact["error"] is NSNull, "\(path): error is an explicit null")
            #expect(artifact["as_of"] as? String == "2026-11-20")
            #expect((artifact["url"] as? String)?.hasPrefix(simulator.reportsURL + "/reports/") == true)
            #expect((artifact["attempts"] as? Int ?? 0) >= 2, "create and download (the polls are shared)")
        }
        #expect(!manifest.text.contains(token))
        #expect(!result.stdout.contains(token) && !result.stderr.contains(token))
    }

    @Test func loadRunFillsTheRawDatabaseWithTheSimulatorsNumbers() throws {
        let simulator = try PMSSimulator.clean.get()
        let workspace = try Workspace()
        let environment = ["OWNERDASH_REALPAGE_REPORTS_URL": simulator.reportsURL, "REALPAGE_TOKEN": freshToken()]
        let fetch = try workspace.ownerdash(["fetch", "--property", "nexus_east", "--property", "parkside",
                                             "--reports", "box_score,rent_roll,delinquency", "--as-of", "2026-11-20"],
                                            environment: environment)
        #expect(fetch.status == 0, "stderr: \(fetch.stderr)")
        let runID = try #require(fetch.runID)

        let load = try workspace.ownerdash(["load", "--run", runID], environment: [:])
        #expect(load.status == 0, "stderr: \(load.stderr)")
        #expect(load.stdoutLines.filter { $0.hasPrefix("loaded  ") }.count == 6)

        let database = try Database(path: workspace.data.appendingPathComponent("realpage_raw.db").path, mode: .readOnly)
        for property in ["nexus_east", "parkside"] {
            let truth = try simulator.truth(property)
            let units = try database.query("SELECT sum(total_units) FROM realpage_box_score WHERE property_id = :p",
                                           [":p": .text(property)])
            #expect(units.first?[0].integerValue == Int64(truth["total_units"] as? Int ?? -1), "\(property) box score units")
            let rentRoll = try database.query("SELECT count(*), min(run_id), max(run_id), min(as_of_date) FROM v_realpage_rent_roll WHERE property_id = :p",
                                              [":p": .text(property)])
            #expect(rentRoll.first?[0].integerValue == Int64(truth["total_units"] as? Int ?? -1), "\(property) one rent-roll row per unit")
            #expect(rentRoll.first?[1].textValue == runID && rentRoll.first?[2].textValue == runID, "rows carry the fetch run's id")
            #expect(rentRoll.first?[3].textValue == "2026-11-20")
            let delinquency = try database.query(
                "SELECT sum(CAST(round(current_balance * 100) AS INTEGER)) FROM realpage_delinquency WHERE property_id = :p",
                [":p": .text(property)])
            let totals = (truth["delinquency"] as? [String: Any])?["totals"] as? [String: Any]
            let net = try #require(totals?["net"] as? Double)
            #expect(delinquency.first?[0].integerValue == Int64((net * 100).rounded()), "\(property) net delinquency")
        }

        // A landed file edited afterwards is refused by its manifest sha256; the others are untouched.
        let rentRoll = try #require(try workspace.manifest(runID).artifacts.first { $0["path"] as? String == "realpage/parkside/rent_roll.xlsx" })
        let edited = workspace.data.appendingPathComponent("landing").appendingPathComponent(try #require(rentRoll["object"] as? String))
        let handle = try FileHandle(forWritingTo: edited)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x00]))
        try handle.close()
        let again = try workspace.ownerdash(["load", "--run", runID], environment: [:])
        #expect(again.status == 2)
        #expect(again.stderr.contains("realpage/parkside/rent_roll.xlsx (\(edited.path)): error: the file's sha256 differs from the run's manifest"), "\(again.stderr)")
        #expect(again.stdoutLines.filter { $0.hasPrefix("already loaded  ") }.count == 5)
    }

    @Test func injectedFaultsStillLandEveryGoodArtifactAndNameEachFailedOne() throws {
        let simulator = try PMSSimulator.faulty.get()
        let workspace = try Workspace()
        let result = try workspace.ownerdash(
            ["fetch", "--property", "nexus_east", "--property", "ridian", "--property", "parkside", "--as-of", "2026-11-20", "--parallel", "8"],
            environment: ["OWNERDASH_REALPAGE_REPORTS_URL": simulator.reportsURL, "REALPAGE_TOKEN": freshToken()])
        #expect(result.status == 2, "stderr: \(result.stderr)")
        let runID = try #require(result.runID)

        var expectedFiles = ["manifest.json"]
        for property in ["nexus_east", "parkside"] {
            for report in nightlyReports { expectedFiles.append("realpage/\(property)/\(report).xlsx") }
        }
        #expect(try workspace.landedFiles(runID) == expectedFiles.sorted(), "every good artifact landed, nothing of ridian")
        for report in nightlyReports {
            let line = result.stderrLines.first { $0.hasPrefix("realpage/ridian/\(report).xlsx: error: ") }
            // ridian answers 500; a random 503 or 429 may be the last answer, after the retries.
            #expect(line?.contains("create report instance: HTTP ") == true, "stderr names ridian/\(report).xlsx and why: \(result.stderr)")
        }
        let manifest = try workspace.manifest(runID)
        let failed = manifest.artifacts.filter { !($0["error"] is NSNull) }
        #expect(failed.count == nightlyReports.count, "failed: \(failed.map { "\($0["property"] ?? "-") \($0["name"] ?? "-"): \($0["error"] ?? "-")" })")
        #expect(failed.allSatisfy { $0["property"] as? String == "ridian" && $0["path"] is NSNull })
        // The faults really happened, and the good artifacts got through those that fell on their requests by
        // retrying: every request is counted to the artifact that made it (a shared poll to the one that ran it),
        // so the good artifacts' attempts beyond the requests answered without a fault are their retries. Every
        // answer without a fault went to a good artifact (ridian's requests all fail). The simulator faults the
        // first create of each property's Box Score (429) and Activity (503), so the two good properties retried
        // at least four times whatever the random faults did.
        let stats = try simulator.stats()
        // At least the four certain ones (a 429 and a 503 for each good property): a third of each kind was left to
        // the 2 % drawn at random, which gave none in one full run (["429": 2, "5xx": 9]).
        #expect((stats.faults["429"] ?? 0) >= 2 && (stats.faults["5xx"] ?? 0) >= 2, "faults injected: \(stats.faults)")
        let faulted = (stats.faults["429"] ?? 0) + (stats.faults["5xx"] ?? 0)
        let attempts = { (entries: [[String: Any]]) in entries.reduce(0) { $0 + ($1["attempts"] as? Int ?? 0) } }
        #expect(attempts(manifest.artifacts) == stats.requests, "every request is some artifact's attempt")
        let answered = stats.requests - faulted - (stats.faults["fail-property"] ?? 0)
        let good = manifest.artifacts.filter { $0["error"] is NSNull }
        #expect(attempts(good) >= answered + 4, "the good artifacts retried: \(attempts(good)) attempts, \(answered) answers")
    }

    @Test func anExpiredTokenIsRefreshedOnceThroughTheTokenCommand() throws {
        let simulator = try PMSSimulator.clean.get()
        let workspace = try Workspace()
        // The first token the command prints is expired, the second is good: one refresh must fix the run.
        let counter = workspace.root.appendingPathComponent("calls")
        let script = workspace.root.appendingPathComponent("token.sh")
        try """
            n=$(cat '\(counter.path)' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '\(counter.path)'
            if [ $n -eq 1 ]; then echo sim-token-expired-first; else echo "  sim-token-fresh-$n  "; fi
            """.write(to: script, atomically: true, encoding: .utf8)
        let result = try workspace.ownerdash(
            ["fetch", "--property", "nexus_east", "--reports", "box_score,rent_roll", "--as-of", "2026-11-20", "--parallel", "2"],
            environment: ["OWNERDASH_REALPAGE_REPORTS_URL": simulator.reportsURL, "REALPAGE_TOKEN_COMMAND": "sh '\(script.path)'"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try String(contentsOf: counter, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "2",
                "the command ran once for the first token and once for the refresh, shared by both downloads")
        let manifest = try workspace.manifest(try #require(result.runID))
        #expect(manifest.artifacts.count == 2)
        #expect(!manifest.text.contains("sim-token-"))
        #expect(!result.stderr.contains("sim-token-"))
    }

    @Test func anAlwaysExpiredTokenFailsWithAClearMessage() throws {
        let simulator = try PMSSimulator.clean.get()
        let workspace = try Workspace()
        let token = "sim-token-expired-\(UUID().uuidString.lowercased())"
        let result = try workspace.ownerdash(["fetch", "--property", "nexus_east", "--reports", "box_score", "--as-of", "2026-11-20"],
                                             environment: ["OWNERDASH_REALPAGE_REPORTS_URL": simulator.reportsURL,
                                                           "REALPAGE_TOKEN": token])
        #expect(result.status == 3, "nothing landed")
        #expect(result.stderr.contains("realpage/nexus_east/box_score.xlsx: error: RealPage token expired or invalid (refreshed once); set REALPAGE_TOKEN or REALPAGE_TOKEN_COMMAND"))
        let manifest = try workspace.manifest(try #require(result.runID))
        #expect(!manifest.text.contains(token) && !result.stderr.contains(token) && !result.stdout.contains(token))
    }

    @Test func theErrorAsReportIsRetriedWithEarlierDates() throws {
        let simulator = try PMSSimulator.clean.get()
        let workspace = try Workspace()
        let environment = ["OWNERDASH_REALPAGE_REPORTS_URL": simulator.reportsURL, "REALPAGE_TOKEN": freshToken()]
        // The simulator's property date is 2026-11-20: a box score ending on the 22nd is refused twice.
        let result = try workspace.ownerdash(["fetch", "--property", "nexus_east", "--reports", "box_score", "--as-of", "2026-11-22"],
                                             environment: environment)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdoutLines.contains { $0.hasPrefix("landed  realpage/nexus_east/box_score.xlsx  as of 2026-11-20  ") })
        let manifest = try workspace.manifest(try #require(result.runID))
        let entry = try #require(manifest.artifacts.first)
        #expect(entry["as_of_requested"] as? String == "2026-11-22")
        #expect(entry["as_of"] as? String == "2026-11-20")
        let notes = entry["notes"] as? [String] ?? []
        #expect(notes.count == 2 && notes.allSatisfy { $0.contains("Invalid end date entered") })

        // More than three days ahead of the property date: given up, with the dates tried.
        let tooFar = try workspace.ownerdash(["fetch", "--property", "nexus_east", "--reports", "box_score", "--as-of", "2026-11-25"],
                                             environment: environment)
        #expect(tooFar.status == 3)
        #expect(tooFar.stderr.contains("realpage/nexus_east/box_score.xlsx: error: the server answered every date from 2026-11-25 back to 2026-11-22 with \"Invalid end date entered\""))
    }

    /// A failing REALPAGE_TOKEN_COMMAND's stderr never reaches ours: with --log-format json every stderr line is one
    /// JSON object, and what the command printed (here a secret) is not repeated.
    @Test func aFailingTokenCommandIsOneJSONLineWithoutItsOutput() throws {
        let workspace = try Workspace()
        let result = try workspace.ownerdash(
            ["fetch", "--property", "nexus_east", "--reports", "box_score", "--log-format", "json"],
            environment: ["OWNERDASH_REALPAGE_REPORTS_URL": "http://127.0.0.1:9/realpage/reports/v1",
                          "REALPAGE_TOKEN_COMMAND": "echo 'helper: password hunter2-secret refused' >&2; exit 4"])
        #expect(result.status != 0)
        #expect(!result.stderr.contains("hunter2-secret"), "\(result.stderr)")
        #expect(result.stderr.contains("REALPAGE_TOKEN_COMMAND failed with exit status 4"), "\(result.stderr)")
        for line in result.stderr.split(separator: "\n") where !line.isEmpty {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not JSON: \(line)")
        }
    }

    /// A night whose source is down: the first request retries and fails, naming its attempts; every later request to
    /// the same host is not sent (each artifact still named on its own line), so the run ends in about one request's
    /// retries, not one per artifact.
    @Test func aHostNobodyAnswersIsTriedOnceNotOncePerArtifact() throws {
        let workspace = try Workspace()
        let reports = ["box_score", "rent_roll", "delinquency"]
        let result = try workspace.ownerdash(
            ["fetch", "--property", "nexus_east", "--reports", reports.joined(separator: ","), "--parallel", "1"],
            environment: ["OWNERDASH_REALPAGE_REPORTS_URL": "http://127.0.0.1:9/realpage/reports/v1",
                          "REALPAGE_TOKEN": freshToken()])
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(lines.count == reports.count, "one line per artifact: \(result.stderr)")
        #expect(lines.filter { !$0.contains("not tried") && $0.contains("Couldn't connect to server") && $0.contains("after 5 attempts") }.count == 1,
                "\(result.stderr)")
        #expect(lines.filter { $0.contains("not tried: 127.0.0.1:9 could not be reached by an earlier request of this run") }.count
                == reports.count - 1, "\(result.stderr)")
    }

    @Test func usageErrorsSayWhatIsNotPossible() throws {
        let workspace = try Workspace()
        let yardi = try workspace.ownerdash(["fetch", "--pms", "yardi"], environment: ["REALPAGE_TOKEN": freshToken()])
        #expect(yardi.status == 1)
        #expect(yardi.stderr.contains("no Yardi credentials for ItfResidentData: set YARDI_USERNAME, YARDI_PASSWORD"))
        let noToken = try workspace.ownerdash(["fetch", "--property", "nexus_east"], environment: [:])
        #expect(noToken.status == 1)
        #expect(noToken.stderr.contains("set REALPAGE_TOKEN or REALPAGE_TOKEN_COMMAND"))
        let unknown = try workspace.ownerdash(["load", "--run", "20990101T000000Z-0000"], environment: [:])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no run 20990101T000000Z-0000"))
    }
}
