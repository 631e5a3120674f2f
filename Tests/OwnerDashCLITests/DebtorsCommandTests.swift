import Foundation
import Testing

/// `ownerdash report debtors` and `ownerdash notices generate|send` from the command line, on a small ledger: Ann Lee
/// rents 101 at Riverwalk and 7A at Cedar Bluff (same e-mail), Ken Ito owes on 201, Nexus East has no ledger.
@Suite struct DebtorsCommandTests {
    /// A data directory whose unified.db (made by a sync, so it has every migration) holds the small ledger.
    static func ledger() throws -> DataDir {
        let data = DataDir()
        try FileManager.default.createDirectory(at: data.url, withIntermediateDirectories: true)
        _ = try OwnerDash.run(["sync", "--property", "yp_riverwalk", "--data-dir", data.path, "--quiet"])
        try execute(data, """
            DELETE FROM unified_properties;
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('yp_riverwalk', 'Riverwalk', 'yardi', '2026-11-20', 'yardi: test'),
                   ('yp_cedar_bluff', 'Cedar Bluff', 'yardi', '2026-11-20', 'yardi: test'),
                   ('nexus_east', 'Nexus East', 'realpage', '2026-11-20', NULL);
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, email, phone, status)
            VALUES ('yp_riverwalk', 't1', '101', 'Lee, Ann', 'ann@example.com', '555-010-1234', 'current'),
                   ('yp_riverwalk', 't2', '201', 'Ito, Ken', NULL, '555-010-9999', 'current'),
                   ('yp_cedar_bluff', 'c1', '7A', 'Lee, Ann', 'Ann@Example.com', NULL, 'current');
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES ('yp_riverwalk', 'a1', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 1400, 0, 1400),
                   ('yp_riverwalk', 'a2', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 1400, 0, 1400),
                   ('yp_riverwalk', 'a3', 't2', 'L2', '201', 'water', 'UTILITIES', 1, '2026-11', '2026-11-01', '2026-11-01', 40.5, 0, 40.5),
                   ('yp_cedar_bluff', 'b1', 'c1', 'M1', '7A', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 900, 0, 900);
            """)
        return data
    }

    static func execute(_ data: DataDir, _ script: String) throws {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()",
                            data.url.appendingPathComponent("unified.db").path, script]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)
    }

    @Test(arguments: [
        (["report", "debtors", "--min-debt", "lots"], "ownerdash report debtors: --min-debt \"lots\" is not an amount (0 or more)"),
        (["report", "debtors", "--format", "pdf"], "ownerdash report debtors: unknown --format \"pdf\" (one of table, json, csv, xlsx, html)"),
        (["notices", "send"], "ownerdash notices send: --webhook URL is required"),
        (["notices", "send", "--webhook", "ftp://x"], "ownerdash notices send: --webhook \"ftp://x\" is not an http(s) URL"),
        (["ingest", "--notices-webhook", "http://x"], "ownerdash ingest: --notices-webhook needs --notices"),
    ])
    func badOptionsAreOneLineUsageErrors(arguments: [String], message: String) throws {
        let data = DataDir()
        let result = try OwnerDash.run(arguments + ["--data-dir", data.path])
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(message)\n")
    }

    /// A unified.db with no property synced (a failed first night) is exit 3 with the reason, for every ledger
    /// report and the audit: an empty debtors list would read as "nobody owes anything".
    @Test(arguments: [["report", "debtors"], ["report", "lease-status", "--start", "2026-06"], ["audit", "run"],
                      ["report", "rental-tracker"]])
    func aUnifiedDatabaseWithNoPropertyIsNotAnEmptyReport(arguments: [String]) throws {
        let data = try Self.ledger()
        try Self.execute(data, "DELETE FROM unified_properties;")
        let result = try OwnerDash.run(arguments + ["--data-dir", data.path])
        #expect(result.status == 3 && result.stdout.isEmpty)
        #expect(result.stderr == "error: ownerdash \(arguments.prefix(2).joined(separator: " ")): no property in unified.db yet "
            + "(run ownerdash sync or ownerdash ingest first)\n")
    }

    @Test func anUnknownPlaceholderNamesItAndTheTemplateFile() throws {
        let data = try Self.ledger()
        let template = data.url.appendingPathComponent("notice.txt")
        try "Dear {{name}}, you owe {{totl}}.".write(to: template, atomically: true, encoding: .utf8)
        let result = try OwnerDash.run(["notices", "generate", "--template", template.path, "--data-dir", data.path])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("error: ownerdash notices generate: \(template.path): unknown placeholder {{totl}} (known: "))
    }

    /// What Python's csv module reads from a file: the header and the row count, failing on a row of another width
    /// (the blank-line-separated tables of old parsed as rows of one empty field).
    static func readCSV(_ path: String) throws -> (header: [String], rows: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import csv, json, sys
            rows = list(csv.reader(open(sys.argv[1], newline="")))
            assert rows and all(len(r) == len(rows[0]) for r in rows), "rows of another width: %r" % [r for r in rows if len(r) != len(rows[0])][:3]
            print(json.dumps({"header": rows[0], "rows": len(rows) - 1}))
            """, path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let problem = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(path): \(problem)")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (object["header"] as? [String] ?? [], object["rows"] as? Int ?? -1)
    }

    /// One table per CSV: the first by default (the others named on stderr), `--table NAME`, or a file per table.
    @Test func csvIsOneTablePerFileThatCSVReadersParse() throws {
        let data = try Self.ledger()
        let people = data.url.appendingPathComponent("people.csv").path
        let first = try OwnerDash.run(["report", "debtors", "--format", "csv", "--out", people, "--data-dir", data.path])
        #expect(first.status == 0)
        #expect(first.stderr.contains("ownerdash report debtors: csv of table rows; the others (units, months) with --table NAME, or all with --out DIR/"))
        let read = try Self.readCSV(people)
        #expect(read.header == ["debtor", "name", "email", "phone", "properties", "units", "months", "total"])
        #expect(read.rows == 3, "Ann, Ken and the total row")

        let units = try OwnerDash.run(["report", "debtors", "--format", "csv", "--table", "units", "--data-dir", data.path])
        #expect(units.status == 0)
        let unitLines = units.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(unitLines.first == "debtor,property,unit,resident_id,name,status,under_eviction,in_collections,balance,months")
        #expect(unitLines.count == 5 && unitLines.last == "", "header, three units, the final newline: \(units.stdout)")

        let directory = data.url.appendingPathComponent("debtors").path + "/"
        let files = try OwnerDash.run(["report", "debtors", "--format", "csv", "--out", directory, "--data-dir", data.path])
        #expect(files.status == 0 && files.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["months.csv", "rows.csv", "units.csv"])
        #expect(try Self.readCSV(directory + "units.csv").rows == 3)
        #expect(try Self.readCSV(directory + "months.csv").header.last == "amount")

        let unknown = try OwnerDash.run(["report", "debtors", "--format", "csv", "--table", "people", "--data-dir", data.path])
        #expect(unknown.status == 1)
        #expect(unknown.stderrLines.last == "error: ownerdash report debtors: no table \"people\" (tables: rows, units, months)")
    }

    @Test func theReportInEveryFormatGroupsAnnsTwoUnits() throws {
        let data = try Self.ledger()
        let json = try OwnerDash.run(["report", "debtors", "--format", "json", "--data-dir", data.path])
        #expect(json.status == 0)
        #expect(json.stderr.contains("nexus_east: no tenant ledger synced for this property (left out, not shown as zeros)"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["Lee, Ann", "Ito, Ken"])
        #expect(rows.first?["total"] as? Double == 3700)
        #expect(rows.first?["units"] as? String == "101 7A")
        #expect(rows.first?["debtor"] as? String == "email:ann@example.com")
        let months = try #require(object["months"] as? [[String: Any]])
        #expect(months.filter { $0["unit"] as? String == "101" }.map { $0["period"] as? String } == ["2026-10", "2026-11"])

        let csv = try OwnerDash.run(["report", "debtors", "--format", "csv", "--min-debt", "100", "--data-dir", data.path])
        #expect(csv.status == 0)
        #expect(csv.stdout.contains("email:ann@example.com,\"Lee, Ann\""))
        #expect(!csv.stdout.contains("Ito, Ken"), "Ken owes $40.50, under --min-debt 100")

        let page = data.url.appendingPathComponent("debtors.html").path
        let html = try OwnerDash.run(["report", "debtors", "--format", "html", "--out", page, "--data-dir", data.path])
        #expect(html.status == 0 && html.stdout.isEmpty)
        let markup = try String(contentsOfFile: page, encoding: .utf8)
        #expect(markup.hasPrefix("<!DOCTYPE html>"))
        #expect(!markup.contains("<script") && !markup.contains("http"), "self-contained")
        #expect(markup.contains("Cedar Bluff") && markup.contains("$3,700.00") && markup.contains("$3,740.50"))
        #expect(markup.contains("No tenant ledger synced (not shown as zeros): nexus_east"))

        let table = try OwnerDash.run(["report", "debtors", "--property", "yp_cedar_bluff", "--data-dir", data.path])
        #expect(table.status == 0 && table.stdout.contains("Lee, Ann") && !table.stdout.contains("Ito, Ken"))
    }

    /// Ken's household is under eviction at Riverwalk's delinquency snapshot (Ann's is not): the report marks his unit
    /// in every format, and notices leave him out with one line saying so, unless asked for.
    @Test func aDebtorUnderEvictionIsMarkedAndGetsNoNoticeUnlessAsked() throws {
        let data = try Self.ledger()
        try Self.execute(data, """
            INSERT INTO unified_delinquency (unified_property_id, as_of_date, resident_id, unit_number, name, current_balance,
                balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, under_eviction, source)
            VALUES ('yp_riverwalk', '2026-11-01', 't1', '101', 'Lee, Ann', 1400, 1400, 0, 0, 0, 0, 1, 'test'),
                   ('yp_riverwalk', '2026-11-20', 't1', '101', 'Lee, Ann', 2800, 1400, 1400, 0, 0, 0, 0, 'test'),
                   ('yp_riverwalk', '2026-11-20', 't2', '201', 'Ito, Ken', 40.5, 40.5, 0, 0, 0, 0, 1, 'test');
            """)
        let units = try OwnerDash.run(["report", "debtors", "--format", "csv", "--table", "units", "--data-dir", data.path])
        #expect(units.status == 0)
        let marks = units.stdout.split(separator: "\n").dropFirst().map { line in
            (line.split(separator: ",").dropFirst(2).first.map(String.init), line.contains(",current,yes,"),
             line.contains(",current,no,"), line.contains(",current,,"))
        }
        // Ann: 101 not under eviction at the latest snapshot (the mark of 11-01 is history), 7A's source says nothing.
        #expect(marks.map { "\($0.0 ?? "") \($0.1 ? "yes" : $0.2 ? "no" : $0.3 ? "unknown" : "?")" }.sorted()
                == ["101 no", "201 yes", "7A unknown"])
        // The rental tracker says it beside each resident behind, from the same snapshot.
        let tracker = try OwnerDash.run(["report", "rental-tracker", "--min-months-behind", "0", "--format", "csv",
                                         "--data-dir", data.path])
        let trackerLines = tracker.stdout.split(separator: "\n")
        #expect(tracker.status == 0 && trackerLines.first?.contains(",status,under_eviction,in_collections,balance,") == true)
        #expect(trackerLines.contains { $0.hasPrefix("yp_riverwalk,201,t2,") && $0.contains(",yes,") })
        #expect(trackerLines.contains { $0.hasPrefix("yp_riverwalk,101,t1,") && $0.contains(",no,") })
        let page = data.url.appendingPathComponent("debtors.html").path
        #expect(try OwnerDash.run(["report", "debtors", "--format", "html", "--out", page, "--data-dir", data.path]).status == 0)
        let markup = try String(contentsOfFile: page, encoding: .utf8)
        #expect(markup.components(separatedBy: ">under eviction</span>").count == 2, "Ken's unit only")

        let out = data.url.appendingPathComponent("notices")
        let held = try OwnerDash.run(["notices", "generate", "--out", out.path, "--data-dir", data.path])
        #expect(held.status == 0)
        #expect(held.stdout.contains("notices   1 written to \(out.path), total 3700.00"))
        #expect(held.stderrLines.filter { $0.contains("eviction") }
                == ["warning: ownerdash notices generate: Ito, Ken (yp_riverwalk 201): under eviction in the PMS, "
                    + "no notice (--include-evictions writes one)"], "\(held.stderr)")
        let all = try OwnerDash.run(["notices", "generate", "--include-evictions", "--out", out.path, "--data-dir", data.path])
        #expect(all.status == 0 && all.stdout.contains("notices   2 written") && !all.stderr.contains("under eviction"))
        #expect(!all.stderr.contains("pulled whole"))

        // Riverwalk's ledger brought forward by nightly windows since its last whole pull: an amount may still lack an
        // adjustment dated back before them, and the operator writing the notices is told which property and since when.
        try Self.execute(data, "UPDATE unified_properties SET ledger_whole_as_of = '2026-11-16' WHERE unified_property_id = 'yp_riverwalk'")
        let lagging = try OwnerDash.run(["notices", "generate", "--out", out.path, "--data-dir", data.path])
        #expect(lagging.status == 0)
        #expect(lagging.stderrLines.filter { $0.contains("pulled whole") }
                == ["warning: ownerdash notices generate: yp_riverwalk: ledger last pulled whole on 2026-11-16: a posting "
                    + "entered since, dated before the nightly windows (an adjustment to an old month), shows from the "
                    + "property's next whole ledger pull (weekly) (`ownerdash ingest --full-ledger --property yp_riverwalk` "
                    + "pulls it now)"], "\(lagging.stderr)")
    }

    /// Ken's account is placed with a collection agency at Riverwalk's delinquency snapshot (the Collections Report's
    /// mark, synced into unified_delinquency): the report marks his unit, and no notice is written for him, whatever
    /// the options, with one line saying why.
    @Test func aDebtorInCollectionsIsMarkedAndNeverGetsANotice() throws {
        let data = try Self.ledger()
        try Self.execute(data, """
            INSERT INTO unified_delinquency (unified_property_id, as_of_date, resident_id, unit_number, name, current_balance,
                balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, in_collections, source)
            VALUES ('yp_riverwalk', '2026-11-20', 't1', '101', 'Lee, Ann', 2800, 1400, 1400, 0, 0, 0, 0, 'test'),
                   ('yp_riverwalk', '2026-11-20', 't2', '201', 'Ito, Ken', 40.5, 40.5, 0, 0, 0, 0, 1, 'test');
            """)
        let units = try OwnerDash.run(["report", "debtors", "--format", "csv", "--table", "units", "--data-dir", data.path])
        #expect(units.status == 0)
        let lines = units.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "debtor,property,unit,resident_id,name,status,under_eviction,in_collections,balance,months")
        #expect(lines.contains { $0.contains(",201,t2,\"Ito, Ken\",current,,yes,40.50,") }, "\(units.stdout)")
        #expect(lines.contains { $0.contains(",101,t1,\"Lee, Ann\",current,,no,") }, "\(units.stdout)")
        let page = data.url.appendingPathComponent("debtors.html").path
        #expect(try OwnerDash.run(["report", "debtors", "--format", "html", "--out", page, "--data-dir", data.path]).status == 0)
        #expect(try String(contentsOfFile: page, encoding: .utf8).components(separatedBy: ">in collections</span>").count == 2)
        // The rental tracker says it beside the resident too.
        let tracker = try OwnerDash.run(["report", "rental-tracker", "--min-months-behind", "0", "--format", "csv",
                                         "--data-dir", data.path])
        #expect(tracker.status == 0)
        #expect(tracker.stdout.split(separator: "\n").contains { $0.hasPrefix("yp_riverwalk,201,t2,\"Ito, Ken\",current,,yes,") },
                "\(tracker.stdout)")

        let out = data.url.appendingPathComponent("notices")
        for options in [[], ["--include-evictions"]] {
            let run = try OwnerDash.run(["notices", "generate"] + options + ["--out", out.path, "--data-dir", data.path])
            #expect(run.status == 0)
            #expect(run.stdout.contains("notices   1 written to \(out.path), total 3700.00"), "\(run.stdout)")
            #expect(run.stderrLines.filter { $0.contains("collection") }
                    == ["warning: ownerdash notices generate: Ito, Ken (yp_riverwalk 201): placed with a collection agency "
                        + "(the Collections Report), no notice"], "\(run.stderr)")
        }
    }

    @Test func generatingTwiceWritesTheSameNoticesAndHashes() throws {
        let data = try Self.ledger()
        let out = data.url.appendingPathComponent("notices")
        let first = try OwnerDash.run(["notices", "generate", "--out", out.path, "--data-dir", data.path])
        #expect(first.status == 0)
        #expect(first.stdout.contains("notices   2 written to \(out.path), total 3740.50"))
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8)
        let lines = manifest.split(separator: "\n").map(String.init)
        #expect(lines.first == "debtor,name,file,total,sha256")
        #expect(lines.count == 3)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".txt") }.sorted()
        #expect(files.count == 2)
        let ann = try String(contentsOf: out.appendingPathComponent(try #require(files.first { $0.hasPrefix("lee-ann-") })), encoding: .utf8)
        #expect(ann.contains("Total due: $3700.00") && ann.contains("Unit(s): 101 (Riverwalk), 7A (Cedar Bluff)"))

        let second = try OwnerDash.run(["notices", "generate", "--out", out.path, "--data-dir", data.path])
        #expect(second.status == 0)
        #expect(try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8) == manifest,
                "the same ledger gives the same files and hashes")

        // Ken pays: his notice goes, Ann's stays.
        try Self.execute(data, """
            INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, unit_number, payment_date, period, amount)
            VALUES ('yp_riverwalk', 'p1', 't2', '201', '2026-11-10', '2026-11', 40.5);
            """)
        let third = try OwnerDash.run(["notices", "generate", "--out", out.path, "--data-dir", data.path])
        #expect(third.stdout.contains("1 paid off removed"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".txt") }.count == 1)

        let dry = try OwnerDash.run(["notices", "generate", "--dry-run", "--out", data.url.appendingPathComponent("dry").path,
                                     "--data-dir", data.path])
        #expect(dry.status == 0 && dry.stdout.contains("1 would be written"))
        #expect(!FileManager.default.fileExists(atPath: data.url.appendingPathComponent("dry").path))
    }

    @Test func sendRetriesRecordsEachNoticeAndSendsNothingTwice() throws {
        let data = try Self.ledger()
        let receiver = try WebhookReceiver()
        let database = data.url.appendingPathComponent("unified.db").path
        // The receiver answers 503 twice before taking anything: the first notice needs three attempts.
        let send = try OwnerDash.run(["notices", "send", "--webhook", "\(receiver.base)/inbox/run1/2", "--data-dir", data.path])
        #expect(send.status == 0, "\(send.stderr)")
        #expect(send.stdout.contains("sent      2 to \(receiver.base)/inbox/run1/2, 0 already sent, 0 failed"))
        let bodies = try receiver.inbox("run1")
        #expect(bodies.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(bodies[0].utf8)) as? [String: Any])
        #expect(first["name"] as? String == "Lee, Ann" && first["total"] as? Double == 3700)
        #expect((first["text"] as? String)?.contains("Total due: $3700.00") == true)
        #expect(try OwnerDash.sqlite(database, "SELECT count(*), sum(attempts), max(attempts), min(channel) FROM notices_sent")
                == "2|4|3|webhook")
        #expect(try OwnerDash.sqlite(database, "SELECT content_hash FROM notices_sent WHERE debtor_key = 'email:ann@example.com'")
                == first["content_hash"] as? String)

        let again = try OwnerDash.run(["notices", "send", "--webhook", "\(receiver.base)/inbox/run1/2", "--data-dir", data.path])
        #expect(again.status == 0)
        #expect(again.stdout.contains("sent      0 to \(receiver.base)/inbox/run1/2, 2 already sent, 0 failed"))
        #expect(try receiver.inbox("run1").count == 2, "nothing new was posted")
    }

    @Test func aChangedNoticeIsSentAgainAndFailuresAreOneLineEachWithExitTwo() throws {
        let data = try Self.ledger()
        let receiver = try WebhookReceiver()
        #expect(try OwnerDash.run(["notices", "send", "--webhook", "\(receiver.base)/inbox/a/0", "--data-dir", data.path]).status == 0)
        try Self.execute(data, "UPDATE unified_charges SET amount = 41.5 WHERE charge_id = 'a3';")
        let changed = try OwnerDash.run(["notices", "send", "--webhook", "\(receiver.base)/inbox/a/0", "--dry-run",
                                         "--data-dir", data.path])
        #expect(changed.stdout.contains("1 would be sent"), "Ken's notice changed, Ann's did not")
        #expect(try receiver.inbox("a").count == 2, "a dry run posts nothing")

        let failing = try OwnerDash.run(["notices", "send", "--webhook", "\(receiver.base)/status/400", "--data-dir", data.path])
        #expect(failing.status == 2)
        let errors = failing.stderrLines.filter { $0.hasPrefix("error:") }
        #expect(errors.count == 2, "one line per notice that failed")
        #expect(errors.allSatisfy { $0.hasPrefix("error: ownerdash notices send: notice for ") && $0.contains("answered HTTP 400 after 1 attempt") })
    }
}

/// scripts/fixtures/http_test_server.py on a loopback port: its /inbox endpoints stand in for a webhook.
final class WebhookReceiver {
    let process = Process()
    let input = Pipe()
    let base: String

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", OwnerDash.repository.appendingPathComponent("scripts/fixtures/http_test_server.py").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("listening on ") else { throw CocoaError(.fileReadUnknown) }
        base = String(text.dropFirst("listening on ".count))
    }

    /// The bodies posted to /inbox/KEY/..., oldest first.
    func inbox(_ key: String) throws -> [String] {
        // Read with Python's urllib: Foundation on Linux fetches http:// URLs only through FoundationNetworking.
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", "import sys,urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())",
                            "\(base)/inbox/\(key)"]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        return try JSONSerialization.jsonObject(with: data) as? [String] ?? []
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
