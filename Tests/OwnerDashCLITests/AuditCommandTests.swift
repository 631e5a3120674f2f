import Foundation
import Testing

/// `ownerdash audit run | show | resolve | reopen` (and `report audit`) from the command line: one-line usage errors,
/// and three runs with a resolution and a reopening in between.
@Suite struct AuditCommandTests {
    @Test(arguments: [
        (["audit", "run", "--months", "0"], "ownerdash audit run: --months \"0\" must be a whole number from 1 to 120"),
        (["audit", "run", "--as-of", "2026-02-30"], "ownerdash audit run: --as-of \"2026-02-30\" is not a date (YYYY-MM-DD)"),
        (["audit", "show", "--format", "pdf"], "ownerdash audit show: unknown --format \"pdf\" (one of table, json, csv, xlsx, html)"),
        (["audit", "show", "latest"], "ownerdash audit show: RUN \"latest\" is not an audit run id (a number)"),
        (["audit", "resolve", "yp:L1:WATER:2026-13", "--fix", "x", "--action", "charge", "--by", "dana"],
         "ownerdash audit resolve: \"yp:L1:WATER:2026-13\": \"2026-13\" is not a month (YYYY-MM)"),
        (["audit", "resolve", "yp:L1:WATER:2026-11", "--fix", "x", "--action", "charge"],
         "ownerdash audit resolve: --by NAME is required (who did it)"),
        (["audit", "resolve", "yp:L1:WATER:2026-11", "--fix", "x", "--action", "refund", "--by", "dana"],
         "ownerdash audit resolve: --action \"refund\" must be one of charge, credit, schedule, waive, none"),
        (["audit", "reopen", "yp:L1:WATER:2026-11"], "ownerdash audit reopen: --by NAME is required (who did it)"),
    ])
    func badUsageIsOneLineAndExitsOne(arguments: [String], message: String) throws {
        let data = DataDir()
        let result = try OwnerDash.run(arguments + ["--data-dir", data.path])
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(message)\n")
    }

    @Test func withoutUnifiedDBThereIsNothingToAudit() throws {
        let data = DataDir()
        #expect(try OwnerDash.run(["audit", "run", "--data-dir", data.path]).status == 3)
        #expect(try OwnerDash.run(["audit", "show", "--data-dir", data.path]).status == 3)
    }

    /// Posted charges and no schedule to hold them against (Yardi lease charges that never synced): "0 leases, 0
    /// lines, 0 exceptions" would read as a pass. The run is recorded, the property named, exit 2.
    @Test func postedChargesWithNothingToAuditExitTwoNamingTheProperty() throws {
        let data = DataDir()
        try FileManager.default.createDirectory(at: data.url, withIntermediateDirectories: true)
        _ = try OwnerDash.run(["sync", "--property", "yp_riverwalk", "--data-dir", data.path, "--quiet"])
        try Self.sqlite(data.url.appendingPathComponent("unified.db").path, """
            DELETE FROM unified_properties;
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('yp_riverwalk', 'Riverwalk', 'yardi', '2026-11-20', 'yardi: test');
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status, move_in_date)
            VALUES ('yp_riverwalk', 't1', '101', 'Lee, Ann', 'current', '2025-01-01');
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, amount, amount_paid, balance)
            VALUES ('yp_riverwalk', 'c1', 't1', NULL, '101', 'rent', 'RENT', 1, '2026-10', 1400, 0, 1400),
                   ('yp_riverwalk', 'c2', 't1', NULL, '101', 'rent', 'RENT', 1, '2026-11', 1400, 0, 1400);
            """)
        let result = try OwnerDash.run(["audit", "run", "--as-of", "2026-11-20", "--months", "2", "--data-dir", data.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("yp_riverwalk: error: ownerdash audit run: 2 charges posted from 2026-10 to 2026-11 but no recurring-charge schedule was synced, so nothing was audited"), "\(result.stderr)")
        #expect(result.stdout.hasPrefix("audit run 1: 2026-10 to 2026-11, as of 2026-11-20\n"))
    }

    @Test func threeRunsWithAResolutionAndAReopening() throws {
        let data = DataDir()
        try FileManager.default.createDirectory(at: data.url, withIntermediateDirectories: true)
        _ = try OwnerDash.run(["sync", "--property", "yp_riverwalk", "--data-dir", data.path, "--quiet"])
        // One lease: rent billed right, water billed 5.00 short in October and not at all in November.
        try Self.sqlite(data.url.appendingPathComponent("unified.db").path, """
            DELETE FROM unified_properties;
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('yp_riverwalk', 'Riverwalk', 'yardi', '2026-11-20', 'yardi: test'),
                   ('nexus_east', 'Nexus East', 'realpage', '2026-11-20', NULL);
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status, move_in_date)
            VALUES ('yp_riverwalk', 't1', '101', 'Lee, Ann', 'current', '2025-01-01');
            INSERT INTO unified_recurring_charges (unified_property_id, lease_id, resident_id, unit_number, charge_code,
                category, category_known, amount, start_date, end_date)
            VALUES ('yp_riverwalk', 'L1', 't1', '101', 'rent', 'RENT', 1, 1400, '2025-01-01', '2027-01-01'),
                   ('yp_riverwalk', 'L1', 't1', '101', 'water', 'UTILITIES', 1, 40, '2025-01-01', '2027-01-01');
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, amount, amount_paid, balance)
            VALUES ('yp_riverwalk', 'c1', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-10', 1400, 0, 1400),
                   ('yp_riverwalk', 'c2', 't1', 'L1', '101', 'water', 'UTILITIES', 1, '2026-10', 35, 0, 35),
                   ('yp_riverwalk', 'c3', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-11', 1400, 0, 1400);
            """)
        let dir = ["--data-dir", data.path]
        let run1 = try OwnerDash.run(["audit", "run", "--as-of", "2026-11-20", "--months", "2"] + dir)
        #expect(run1.status == 0)
        #expect(run1.stdout.hasPrefix("audit run 1: 2026-10 to 2026-11, as of 2026-11-20\n"))
        #expect(run1.stdout.contains("yp_riverwalk"))
        #expect(run1.stderr.contains("nexus_east: warning: ownerdash audit run: no tenant ledger synced for this property (not audited)"))

        let shown = try OwnerDash.run(["audit", "show", "--exceptions-only"] + dir)
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("yp_riverwalk:L1:WATER:2026-10"), "the key to copy")
        #expect(shown.stdout.contains("yp_riverwalk:L1:WATER:2026-11"))

        let unknown = try OwnerDash.run(["audit", "resolve", "yp_riverwalk:L1:RENT:2026-10", "--fix", "x", "--action", "none",
                                         "--by", "dana"] + dir)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("error: ownerdash audit resolve: yp_riverwalk:L1:RENT:2026-10: not an exception of run 1"))

        let resolve = try OwnerDash.run(["audit", "resolve", "yp_riverwalk:L1:WATER:2026-11", "--fix", "posted water",
                                         "--action", "charge", "--by", "dana", "--note", "meter read late"] + dir)
        #expect(resolve.status == 0)
        #expect(try OwnerDash.run(["audit", "run", "--as-of", "2026-11-20", "--months", "2"] + dir).status == 0)

        let json2 = try Self.json(try OwnerDash.run(["report", "audit", "2", "--format", "json"] + dir))
        let exceptions2 = try #require(json2["exceptions"] as? [[String: Any]])
        let water2 = exceptions2.filter { $0["key"] as? String == "yp_riverwalk:L1:WATER:2026-11" }
        #expect(water2.count == 1, "one row per exception")
        #expect(water2.first?["status"] as? String == "Resolved" && water2.first?["historical"] as? String == "yes")
        #expect(water2.first?["by"] as? String == "dana" && water2.first?["resolution_run"] as? Int == 1)
        #expect(water2.first?["expected"] as? Double == 40 && water2.first?["posted"] as? Double == 0)
        let leases2 = try #require(json2["leases"] as? [[String: Any]])
        #expect(leases2.first { $0["charge_code"] as? String == "WATER" }?["status"] as? String == "Open", "October is open")
        #expect(leases2.first { $0["charge_code"] as? String == "RENT" }?["status"] as? String == "Passed")

        #expect(try OwnerDash.run(["audit", "reopen", "yp_riverwalk:L1:WATER:2026-11", "--by", "lee"] + dir).status == 0)
        let again = try OwnerDash.run(["audit", "reopen", "yp_riverwalk:L1:WATER:2026-11", "--by", "lee"] + dir)
        #expect(again.status == 1 && again.stderr.contains("not resolved, nothing to reopen"))
        #expect(try OwnerDash.run(["audit", "run", "--as-of", "2026-11-20", "--months", "2"] + dir).status == 0)
        let json3 = try Self.json(try OwnerDash.run(["audit", "show", "--format", "json", "--exceptions-only"] + dir))
        let water3 = (json3["exceptions"] as? [[String: Any]] ?? []).filter { $0["key"] as? String == "yp_riverwalk:L1:WATER:2026-11" }
        #expect(water3.count == 1 && water3.first?["status"] as? String == "Open" && water3.first?["by"] as? String == "lee")
        #expect(json3["leases"] == nil)

        let page = data.url.appendingPathComponent("audit.html").path
        let html = try OwnerDash.run(["audit", "show", "1", "--format", "html", "--out", page] + dir)
        #expect(html.status == 0 && html.stdout.isEmpty)
        let text = try String(contentsOfFile: page, encoding: .utf8)
        #expect(text.contains("Lease-charge audit, run 1") && text.contains("yp_riverwalk:L1:WATER:2026-10"))
        let missing = try OwnerDash.run(["audit", "show", "7"] + dir)
        #expect(missing.status == 1 && missing.stderr == "error: ownerdash audit show: no audit run 7 (the latest is 3)\n")
    }

    static func json(_ result: OwnerDash.Result) throws -> [String: Any] {
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    static func sqlite(_ path: String, _ script: String) throws {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()",
                            path, script]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)
    }
}
