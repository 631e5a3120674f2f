import Foundation
import Testing

/// `ownerdash report lease-status` from the command line: validation, output formats, a property without a ledger.
@Suite struct LeaseStatusReportCommandTests {
    @Test(arguments: [
        (["--months", "3"], "--start YYYY-MM is required"),
        (["--start", "2026-13"], "--start \"2026-13\" is not a month (YYYY-MM, e.g. 2026-09)"),
        (["--start", "09/2026"], "--start \"09/2026\" is not a month (YYYY-MM, e.g. 2026-09)"),
        (["--start", "2026-09", "--months", "0"], "--months \"0\" must be a whole number from 1 to 12"),
        (["--start", "2026-09", "--months", "13"], "--months \"13\" must be a whole number from 1 to 12"),
        (["--start", "2026-09", "--format", "pdf"], "unknown --format \"pdf\" (one of table, json, csv, xlsx, html)"),
        (["--start", "2026-09", "--format", "xlsx"], "--format xlsx needs --out FILE (a workbook is never written to the terminal)"),
    ])
    func badOptionsAreOneLineUsageErrors(arguments: [String], message: String) throws {
        let data = DataDir()
        let result = try OwnerDash.run(["report", "lease-status"] + arguments + ["--data-dir", data.path])
        #expect(result.status == 1)
        #expect(result.stderr == "error: ownerdash report lease-status: \(message)\n")
    }

    @Test func withoutUnifiedDBThereIsNothingToReport() throws {
        let data = DataDir()
        let result = try OwnerDash.run(["report", "lease-status", "--start", "2026-09", "--data-dir", data.path])
        #expect(result.status == 3)
    }

    @Test func theGridInEveryFormatAndAPropertyWithoutALedgerIsNamed() throws {
        let data = DataDir()
        try data.unifiedDatabase(with: """
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('yp_riverwalk', 'Riverwalk', 'yardi', '2026-11-20', 'yardi: test'),
                   ('nexus_east', 'Nexus East', 'realpage', '2026-11-20', NULL);
            INSERT INTO unified_units (unified_property_id, unit_number, floor, status) VALUES ('yp_riverwalk', '101', '1', 'occupied');
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status)
            VALUES ('yp_riverwalk', 't1', '101', 'Lee, Ann', 'current');
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES ('yp_riverwalk', 'c1', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 1400, 1400, 0),
                   ('yp_riverwalk', 'c2', 't1', 'L1', '101', 'water', 'UTILITIES', 1, '2026-11', '2026-11-01', '2026-11-01', 40.5, 0, 40.5);
            """)

        let table = try OwnerDash.run(["report", "lease-status", "--start", "2026-10", "--months", "2", "--data-dir", data.path])
        #expect(table.status == 0)
        #expect(table.stdout.contains("R PAID"))
        #expect(table.stdout.contains("U OVERDUE"))
        #expect(table.stderr.contains("nexus_east: no tenant ledger synced for this property (left out, not shown as zeros)"))

        let json = try OwnerDash.run(["report", "lease-status", "--start", "2026-10", "--months", "2", "--format", "json",
                                      "--property", "yp_riverwalk", "--data-dir", data.path])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let row = try #require((object["rows"] as? [[String: Any]])?.first)
        #expect(row["tenants"] as? String == "Lee, Ann")
        #expect(row["2026-10_rent_status"] as? String == "PAID")
        #expect(row["2026-11_utilities_status"] as? String == "OVERDUE")
        #expect(row["2026-11_utilities_balance"] as? Double == 40.5)
        #expect(row["2026-11_rent_status"] is NSNull, "no rent billed in November: blank, not a status")

        let out = data.url.appendingPathComponent("grid.csv").path
        let csv = try OwnerDash.run(["report", "lease-status", "--start", "2026-10", "--months", "2", "--format", "csv",
                                     "--out", out, "--data-dir", data.path])
        #expect(csv.status == 0 && csv.stdout.isEmpty)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix("property,floor,unit,resident_id,leases,tenants,resident_status,2026-10_rent_status"))
        #expect(text.contains("yp_riverwalk,1,101,t1,L1,\"Lee, Ann\",current,PAID,1400.00,1400.00,0.00,2026-10-01"))

        let page = data.url.appendingPathComponent("grid.html").path
        let html = try OwnerDash.run(["report", "lease-status", "--start", "2026-10", "--months", "2", "--format", "html",
                                      "--out", page, "--data-dir", data.path])
        #expect(html.status == 0)
        let markup = try String(contentsOfFile: page, encoding: .utf8)
        #expect(markup.hasPrefix("<!DOCTYPE html>"))
        #expect(markup.contains(#"title="Utilities: billed $40.50, paid $0.00, due 2026-11-01, balance $40.50">U OVERDUE</span>"#))

        // The workbook: read back by `ownerdash sheet dump`, one sheet per property and one naming those without a ledger.
        let book = data.url.appendingPathComponent("grid.xlsx").path
        let xlsx = try OwnerDash.run(["report", "lease-status", "--start", "2026-10", "--months", "2", "--format", "xlsx",
                                      "--out", book, "--data-dir", data.path])
        #expect(xlsx.status == 0 && xlsx.stdout.isEmpty)
        let dump = try OwnerDash.run(["sheet", "dump", "--all-sheets", book])
        #expect(dump.status == 0)
        #expect(dump.stdout.contains("== yp_riverwalk ==\nLease payment status — yp_riverwalk\n"))
        #expect(dump.stdout.contains("\nFloor,Unit,Lease,Tenants,Household,Rent,Utilities,Rent,Utilities\n1,101,L1,\"Lee, Ann\",current,PAID,,,OVERDUE\n"))
        #expect(dump.stdout.contains("== No ledger ==") && dump.stdout.contains("\nnexus_east\n"))
        let unwritable = try OwnerDash.run(["report", "lease-status", "--start", "2026-10", "--format", "xlsx",
                                            "--out", data.url.appendingPathComponent("no/such/dir/grid.xlsx").path,
                                            "--data-dir", data.path])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr.contains("ownerdash report lease-status: cannot write --out "))
        #expect(unwritable.stderr.hasSuffix("no/such/dir/grid.xlsx: cannot create: No such file or directory\n"))

        let unknown = try OwnerDash.run(["report", "lease-status", "--start", "2026-10", "--property", "nope", "--data-dir", data.path])
        #expect(unknown.status == 1)

        // The rental tracker on the same ledger: November's water is open but no rent is, so nobody is behind.
        let tracker = try OwnerDash.run(["report", "rental-tracker", "--format", "json", "--as-of", "2026-11-20",
                                         "--data-dir", data.path])
        #expect(tracker.status == 0)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(tracker.stdout.utf8)) as? [String: Any])
        #expect((answer["rows"] as? [Any])?.isEmpty == true)
        #expect(tracker.stderr.contains("nexus_east: no tenant ledger synced for this property"))
        let trackerBook = data.url.appendingPathComponent("tracker.xlsx").path
        let trackerXLSX = try OwnerDash.run(["report", "rental-tracker", "--format", "xlsx", "--out", trackerBook,
                                             "--min-months-behind", "0", "--as-of", "2026-11-20", "--data-dir", data.path])
        #expect(trackerXLSX.status == 0)
        let trackerDump = try OwnerDash.run(["sheet", "dump", "--all-sheets", trackerBook])
        #expect(trackerDump.stdout.contains("== Residents =="))
        // Balance = every charge less every payment (none synced here); no rent month missing.
        #expect(trackerDump.stdout.contains("\nyp_riverwalk,101,t1,\"Lee, Ann\",current,,,1440.5,0\n"))
        #expect(trackerDump.stdout.contains("== Open charges and payments =="))
        #expect(trackerDump.stdout.contains("\nyp_riverwalk,101,t1,\"Lee, Ann\",owed,2026-11-01,2026-11,water,40.5\n"))
        // html: the same tables as one printable, self-contained page.
        let trackerHTML = try OwnerDash.run(["report", "rental-tracker", "--format", "html", "--min-months-behind", "0",
                                             "--as-of", "2026-11-20", "--data-dir", data.path])
        #expect(trackerHTML.status == 0)
        #expect(trackerHTML.stdout.hasPrefix("<!DOCTYPE html>") && trackerHTML.stdout.contains("<title>Rental tracker</title>"))
        #expect(trackerHTML.stdout.contains("@media print") && !trackerHTML.stdout.contains("<script") && !trackerHTML.stdout.contains("href=\"http"))
        #expect(trackerHTML.stdout.contains("Lee, Ann") && trackerHTML.stdout.contains("1,440.50"))
        let noOut = try OwnerDash.run(["report", "rental-tracker", "--format", "xlsx", "--data-dir", data.path])
        #expect(noOut.status == 1)
        #expect(noOut.stderr == "error: ownerdash report rental-tracker: --format xlsx needs --out FILE (a workbook is never written to the terminal)\n")
        let badSort = try OwnerDash.run(["report", "rental-tracker", "--sort", "age", "--data-dir", data.path])
        #expect(badSort.status == 1)
        #expect(badSort.stderr == "error: ownerdash report rental-tracker: --sort \"age\" must be balance, name or unit\n")
    }
}

extension DataDir {
    /// A unified.db with the real schema (a sync of a property with nothing loaded creates it), its properties
    /// replaced by what `script` inserts.
    func unifiedDatabase(with script: String) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        _ = try OwnerDash.run(["sync", "--property", "yp_riverwalk", "--data-dir", path, "--quiet"])
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()",
                            url.appendingPathComponent("unified.db").path, "DELETE FROM unified_properties;" + script]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)
    }
}

/// `ownerdash report statement` and `report tenant-history` from the command line.
@Suite struct StatementReportCommandTests {
    @Test(arguments: [
        (["statement"], "ownerdash report statement: --resident ID is required"),
        (["statement", "--resident", "t1", "--from", "2026-9"], "ownerdash report statement: --from \"2026-9\" is not a month (YYYY-MM)"),
        (["tenant-history", "--unit", "101"], "ownerdash report tenant-history: --property KEY is required"),
        (["tenant-history", "--property", "yp_riverwalk"], "ownerdash report tenant-history: --unit UNIT is required"),
    ])
    func badOptionsAreOneLineUsageErrors(arguments: [String], message: String) throws {
        let data = DataDir()
        let result = try OwnerDash.run(["report"] + arguments + ["--data-dir", data.path])
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(message)\n")
    }

    @Test func theDashboardLinksEachLedgerPropertysLeaseStatusAndDebtorsPages() throws {
        let data = DataDir()
        try data.unifiedDatabase(with: """
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('yp_riverwalk', 'Riverwalk', 'yardi', '2026-11-20', 'yardi: test'),
                   ('nexus_east', 'Nexus East', 'realpage', '2026-11-20', NULL);
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status)
            VALUES ('yp_riverwalk', 't1', '101', 'Lee, Ann', 'current');
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES ('yp_riverwalk', 'c1', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 1400, 0, 1400);
            """)
        let result = try OwnerDash.run(["dashboard", "--property", "yp_riverwalk", "--property", "nexus_east", "--data-dir", data.path])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOf: data.url.appendingPathComponent("dashboard.html"), encoding: .utf8)
        #expect(page.contains(#"<a href="ledger/yp_riverwalk-lease-status.html">lease payment status</a>"#))
        #expect(page.contains(#"<a href="ledger/yp_riverwalk-debtors.html">debtors</a>"#))
        #expect(page.contains("Tenant ledger: none synced for this property."), "nexus_east has no ledger: said, no links")
        #expect(!page.contains("ledger/nexus_east"))
        let status = try String(contentsOf: data.url.appendingPathComponent("ledger/yp_riverwalk-lease-status.html"), encoding: .utf8)
        #expect(status.contains("2026-06") && status.contains("R OVERDUE"), "six months to the property date; November's rent is past due")
        let debtors = try String(contentsOf: data.url.appendingPathComponent("ledger/yp_riverwalk-debtors.html"), encoding: .utf8)
        #expect(debtors.contains("Lee, Ann") && debtors.contains("1,400.00"))
    }

    /// A page says when it was written on the run clock: `OWNERDASH_CLOCK` when set (a fast-forwarded night, or two
    /// hosts' pages compared byte for byte), as run ids do.
    @Test func theDashboardSaysWhenItWasWrittenOnTheRunClock() throws {
        let data = DataDir()
        try data.unifiedDatabase(with: """
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('nexus_east', 'Nexus East', 'realpage', '2026-11-20', NULL);
            """)
        let result = try OwnerDash.run(["dashboard", "--data-dir", data.path], environment: ["OWNERDASH_CLOCK": "2027-03-01T02:30:59Z"])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOf: data.url.appendingPathComponent("dashboard.html"), encoding: .utf8)
        #expect(page.contains("Generated 2027-03-01 02:30 UTC"))
    }

    @Test func aStatementAndAUnitsHistoryFromTheCommandLine() throws {
        let data = DataDir()
        try data.unifiedDatabase(with: """
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('yp_riverwalk', 'Riverwalk', 'yardi', '2026-11-20', 'yardi: test'),
                   ('nexus_east', 'Nexus East', 'realpage', '2026-11-20', NULL);
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status, move_in_date)
            VALUES ('yp_riverwalk', 't1', '101', 'Lee, Ann', 'current', '2026-10-01'),
                   ('nexus_east', 'r9', '2201', 'Diaz, Eva', 'current', '2025-05-01');
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES ('yp_riverwalk', 'c1', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 1400, 1400, 0),
                   ('yp_riverwalk', 'c2', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 1400, 0, 1400);
            INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date,
                period, amount, reference, payment_type)
            VALUES ('yp_riverwalk', 'p1', 't1', 'L1', '101', '2026-10-02', '2026-10', 1400, 'CHK 12', 'Check');
            """)
        // One table per CSV: the statement's lines by --table (the default is its first table, the household).
        let csv = try OwnerDash.run(["report", "statement", "--resident", "t1", "--format", "csv", "--table", "lines", "--data-dir", data.path])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout.contains("2026-10-02,payment,2026-10,Check,CHK 12,,1400.00,0.00"))
        #expect(csv.stdout.contains("total,,,,,2800.00,1400.00,1400.00"))
        // Every ledger report also writes a workbook (read back here by `sheet dump`) and a printable page.
        let book = data.url.appendingPathComponent("statement.xlsx").path
        let xlsx = try OwnerDash.run(["report", "statement", "--resident", "t1", "--format", "xlsx", "--out", book, "--data-dir", data.path])
        #expect(xlsx.status == 0, "\(xlsx.stderr)")
        let sheets = try OwnerDash.run(["sheet", "dump", book, "--all-sheets"])
        #expect(sheets.stdout.contains("2026-10-02,payment,2026-10,Check,CHK 12,,1400,0"), "\(sheets.stdout)")
        let noOut = try OwnerDash.run(["report", "tenant-history", "--property", "yp_riverwalk", "--unit", "101", "--format", "xlsx",
                                       "--data-dir", data.path])
        #expect(noOut.status == 1 && noOut.stderr.contains("--format xlsx needs --out FILE"))
        let page = try OwnerDash.run(["report", "statement", "--resident", "t1", "--format", "html", "--data-dir", data.path])
        #expect(page.stdout.hasPrefix("<!DOCTYPE html>") && page.stdout.contains("Statement of Lee, Ann"))
        let unknown = try OwnerDash.run(["report", "statement", "--resident", "t7", "--data-dir", data.path])
        #expect(unknown.status == 1 && unknown.stderr.hasPrefix("error: ownerdash report statement: no resident \"t7\" in the synced properties"))
        // A household of a property without a ledger has no statement: said, never a statement of zeros.
        let noLedger = try OwnerDash.run(["report", "statement", "--resident", "r9", "--data-dir", data.path])
        #expect(noLedger.status == 3)
        #expect(noLedger.stderr == "error: ownerdash report statement: nexus_east: no tenant ledger synced for this property, so no statement\n")

        let history = try OwnerDash.run(["report", "tenant-history", "--property", "yp_riverwalk", "--unit", "101",
                                         "--format", "json", "--data-dir", data.path])
        #expect(history.status == 0, "\(history.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])
        let rows = try #require(answer["rows"] as? [[String: Any]])
        #expect(rows.map { $0["resident_id"] as? String } == ["t1"])
        #expect((rows.first?["balance"] as? NSNumber)?.doubleValue == 1400)
        let noUnit = try OwnerDash.run(["report", "tenant-history", "--property", "yp_riverwalk", "--unit", "999", "--data-dir", data.path])
        #expect(noUnit.status == 1 && noUnit.stderr == "error: ownerdash report tenant-history: yp_riverwalk has no unit \"999\"\n")
    }
}

/// `ownerdash report maintenance` and `report expenses` from the command line: validation and the fixtures end to end.
@Suite struct MaintenanceReportCommandTests {
    @Test(arguments: [
        (["maintenance", "--months", "0"], "ownerdash report maintenance: --months \"0\" must be a whole number from 1 to 24"),
        (["maintenance", "--older-than", "soon"], "ownerdash report maintenance: --older-than \"soon\" is not a number of days (0 or more)"),
        (["maintenance", "--format", "pdf"], "ownerdash report maintenance: unknown --format \"pdf\" (one of table, json, csv, xlsx, html)"),
        (["expenses", "--start", "2026-13"], "ownerdash report expenses: --start \"2026-13\" is not a month (YYYY-MM, e.g. 2026-09)"),
        (["expenses", "--months", "every"], "ownerdash report expenses: --months \"every\" must be a whole number from 1 to 24, or all"),
    ])
    func badOptionsAreOneLineUsageErrors(arguments: [String], message: String) throws {
        let data = DataDir()
        let result = try OwnerDash.run(["report"] + arguments + ["--data-dir", data.path])
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(message)\n")
    }

    @Test func theMakeReadyAndIncomeStatementFixturesLoadSyncAndReport() throws {
        let data = DataDir()
        let reports = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/reports")
        let files = ["make_ready_summary.xlsx", "closed_make_ready.xlsx", "income_statement_by_gl.xlsx"]
            .map { reports.appendingPathComponent($0).path }
        #expect(try OwnerDash.run(["load"] + files + ["--data-dir", data.path, "--quiet"]).status == 0)
        _ = try OwnerDash.run(["sync", "--property", "nexus_east", "--data-dir", data.path, "--quiet"])
        let maintenance = try OwnerDash.run(["report", "maintenance", "--format", "csv", "--data-dir", data.path])
        #expect(maintenance.status == 0)
        // As of 2026-02-08: 4 turns open (1102, 2101, 2201, 3105), 3 closed in January (7, 8, 14 days).
        #expect(maintenance.stdout.contains("nexus_east,2026-02-08,4,1,3,3,8,9.7"), "\(maintenance.stdout)")
        let expenses = try OwnerDash.run(["report", "expenses", "--format", "csv", "--data-dir", data.path])
        #expect(expenses.stdout.contains("nexus_east,All categories,,,36005.25,36005.25"), "\(expenses.stdout)")
        // Every month synced, with the statement's income: January's net operating income = 267,069.90 − 36,005.25.
        // One table per CSV: the operating statement is asked for by name.
        let all = try OwnerDash.run(["report", "expenses", "--months", "all", "--format", "csv", "--table", "operating",
                                     "--data-dir", data.path])
        #expect(all.status == 0)
        #expect(all.stdout.contains("nexus_east,Net operating income,231064.65,231064.65"), "\(all.stdout)")
        let html = try OwnerDash.run(["report", "expenses", "--format", "html", "--data-dir", data.path])
        #expect(html.stdout.hasPrefix("<!DOCTYPE html>") && html.stdout.contains("Repairs &amp; Maintenance"))
    }
}
