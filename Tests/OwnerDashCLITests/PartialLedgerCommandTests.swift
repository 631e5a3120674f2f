import Foundation
import Testing

/// The ledger reports from the command line for a property whose ledger is partial (a RealPage site without RPX
/// getresidentledger: balances and aging from Delinquent and Prepaid, the schedule from the Rent Roll): debts and
/// months behind come from the aging buckets, lease-status knows only the balances' month, the audit skips it.
///
/// Ridian (partial, as of 2026-11-20): Ann Lee (R1, unit 101) owes rent in the 0-30 and 31-60 days buckets and water;
/// Ken Ito (R2, 102) is in credit; Bo Park (R3, 103) owes only a late fee.
@Suite struct PartialLedgerCommandTests {
    static func ledger() throws -> DataDir {
        let data = DataDir()
        try FileManager.default.createDirectory(at: data.url, withIntermediateDirectories: true)
        _ = try OwnerDash.run(["sync", "--property", "yp_riverwalk", "--data-dir", data.path, "--quiet"])
        try DebtorsCommandTests.execute(data, """
            DELETE FROM unified_properties;
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source, ledger_coverage, ledger_note)
            VALUES ('ridian', 'Ridian', 'realpage', '2026-11-20', 'realpage_onesite_reports', 'partial', 'partial: test');
            INSERT INTO unified_units (unified_property_id, unit_number, floor, status)
            VALUES ('ridian', '101', '1', 'occupied'), ('ridian', '102', '1', 'occupied'), ('ridian', '103', '1', 'occupied');
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status)
            VALUES ('ridian', 'R1', '101', 'Lee, Ann', 'current'), ('ridian', 'R2', '102', 'Ito, Ken', 'current'),
                   ('ridian', 'R3', '103', 'Park, Bo', 'current');
            INSERT INTO unified_recurring_charges (unified_property_id, lease_id, resident_id, unit_number, charge_code,
                category, category_known, amount, start_date, end_date)
            VALUES ('ridian', 'L1', 'R1', '101', 'RENT', 'RENT', 1, 1400, '2026-03-01', '2027-02-28'),
                   ('ridian', 'L1', 'R1', '101', 'WATER', 'UTILITIES', 1, 40, '2026-03-01', '2027-02-28'),
                   ('ridian', 'L2', 'R2', '102', 'RENT', 'RENT', 1, 1500, '2026-02-01', '2027-01-31'),
                   ('ridian', 'L3', 'R3', '103', 'RENT', 'RENT', 1, 1300, '2026-05-01', '2027-04-30');
            INSERT INTO unified_ledger_balances (unified_property_id, resident_id, unit_number, charge_code, category,
                category_known, as_of_date, balance, delinquent, balance_0_30, balance_31_60, balance_61_90,
                balance_over_90, prepaid, source)
            VALUES ('ridian', 'R1', '101', 'RENT', 'RENT', 1, '2026-11-20', 1500, 1500, 100, 1400, 0, 0, 0, 'test'),
                   ('ridian', 'R1', '101', 'WATER', 'UTILITIES', 1, '2026-11-20', 40, 40, 40, 0, 0, 0, 0, 'test'),
                   ('ridian', 'R2', '102', 'RENT', 'RENT', 1, '2026-11-20', -50, 0, 0, 0, 0, 0, 50, 'test'),
                   ('ridian', 'R3', '103', 'LATEFEE', 'FEES', 1, '2026-11-20', 75, 75, 75, 0, 0, 0, 0, 'test');
            """)
        return data
    }

    @Test func debtorsListTheBalancesWithAgingBucketsForMonthsInEveryFormat() throws {
        let data = try Self.ledger()
        let json = try OwnerDash.run(["report", "debtors", "--format", "json", "--data-dir", data.path])
        #expect(json.status == 0)
        #expect(json.stderr.contains("ridian: partial ledger (balances and aging from the Delinquent and Prepaid report as of 2026-11-20"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["Lee, Ann", "Park, Bo"], "in credit: not a debtor")
        #expect(rows.map { $0["total"] as? Double } == [1540, 75])
        let months = try #require(object["months"] as? [[String: Any]])
        #expect(months.filter { $0["unit"] as? String == "101" }.map { $0["period"] as? String } == ["31-60 days", "0-30 days"])
        #expect(months.filter { $0["unit"] as? String == "101" }.map { $0["amount"] as? Double } == [1400, 140])

        let table = try OwnerDash.run(["report", "debtors", "--data-dir", data.path])
        #expect(table.status == 0)
        #expect(table.stdout.contains("Lee, Ann") && table.stdout.contains("1,540.00") && table.stdout.contains("31-60 days"))
        #expect(!table.stdout.contains("Ito, Ken"))

        let csv = try OwnerDash.run(["report", "debtors", "--format", "csv", "--min-debt", "100", "--data-dir", data.path])
        #expect(csv.status == 0 && csv.stdout.contains("\"Lee, Ann\"") && !csv.stdout.contains("Park, Bo"))

        let page = data.url.appendingPathComponent("debtors.html").path
        let html = try OwnerDash.run(["report", "debtors", "--format", "html", "--out", page, "--data-dir", data.path])
        #expect(html.status == 0)
        let markup = try String(contentsOfFile: page, encoding: .utf8)
        #expect(markup.contains("Partial ledger, from the Delinquent and Prepaid and Rent Roll reports") && markup.contains("ridian"))
        #expect(!markup.contains("No tenant ledger synced"))
    }

    @Test func theRentalTrackerCountsTheAgingBucketsHoldingRentAndListsNoPayment() throws {
        let data = try Self.ledger()
        let json = try OwnerDash.run(["report", "rental-tracker", "--format", "json", "--data-dir", data.path])
        #expect(json.status == 0)
        #expect(json.stderr.contains("ridian: partial ledger") && json.stderr.contains("no payments listed"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.map { $0["resident_id"] as? String } == ["R1"], "a late fee alone is not rent behind; a credit is not")
        #expect(rows.first?["months_behind"] as? Int == 2)
        #expect(rows.first?["months_missing"] as? String == "31-60 days 0-30 days")
        #expect(rows.first?["balance"] as? Double == 1540)
        let owed = try #require(object["owed"] as? [[String: Any]])
        #expect(owed.map { "\($0["charge_code"] as? String ?? "") \($0["period"] as? String ?? "") \($0["amount"] as? Double ?? 0)" }
                == ["RENT 31-60 days 1400.0", "RENT 0-30 days 100.0", "WATER 0-30 days 40.0"])
        #expect((object["paid"] as? [[String: Any]])?.isEmpty == true)

        let twoMonths = try OwnerDash.run(["report", "rental-tracker", "--min-months-behind", "3", "--data-dir", data.path])
        #expect(twoMonths.status == 0 && !twoMonths.stdout.contains("Lee, Ann"))
        let table = try OwnerDash.run(["report", "rental-tracker", "--data-dir", data.path])
        #expect(table.status == 0 && table.stdout.contains("Lee, Ann") && table.stdout.contains("31-60 days 0-30 days"))
    }

    @Test func leaseStatusKnowsOnlyTheBalancesMonthAndSaysWhichItCannot() throws {
        let data = try Self.ledger()
        let json = try OwnerDash.run(["report", "lease-status", "--start", "2026-10", "--months", "2", "--format", "json",
                                      "--data-dir", data.path])
        #expect(json.status == 0)
        #expect(json.stderr.contains("ridian: partial ledger") && json.stderr.contains("only 2026-11 is known, the other months cannot be"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        let ann = try #require(rows.first { $0["resident_id"] as? String == "R1" })
        #expect(ann["2026-11_rent_status"] as? String == "OVERDUE")
        #expect(ann["2026-11_rent_billed"] as? Double == 1400 && ann["2026-11_rent_balance"] as? Double == 100)
        #expect(ann["2026-11_utilities_status"] as? String == "OVERDUE")
        #expect(ann["2026-10_rent_status"] == nil || ann["2026-10_rent_status"] is NSNull, "October cannot be known")
        let ken = try #require(rows.first { $0["resident_id"] as? String == "R2" })
        #expect(ken["2026-11_rent_status"] as? String == "PAID")
        let partial = try #require(object["partial_ledger"] as? [[String: Any]])
        #expect(partial.first?["known_month"] as? String == "2026-11" && partial.first?["unknown_months"] as? String == "2026-10")

        let table = try OwnerDash.run(["report", "lease-status", "--start", "2026-10", "--months", "2", "--data-dir", data.path])
        #expect(table.status == 0)
        #expect(table.stdout.contains("R OVERDUE  U OVERDUE") && table.stdout.contains("R PAID"))
    }

    @Test func theWorkbooksAndPagesOfAPartialLedgerAreWritten() throws {
        let data = try Self.ledger()
        for (report, extra) in [("debtors", [String]()), ("rental-tracker", []), ("lease-status", ["--start", "2026-10", "--months", "2"])] {
            for format in report == "rental-tracker" ? ["xlsx"] : ["xlsx", "html"] {
                let out = data.url.appendingPathComponent("\(report).\(format)").path
                let result = try OwnerDash.run(["report", report] + extra + ["--format", format, "--out", out, "--data-dir", data.path])
                #expect(result.status == 0, "\(report) \(format): \(result.stderr)")
                #expect(FileManager.default.fileExists(atPath: out))
            }
        }
        let grid = try String(contentsOfFile: data.url.appendingPathComponent("lease-status.html").path, encoding: .utf8)
        #expect(grid.contains("only the month of the balances is known): ridian"))
    }

    @Test func theAuditRecordsThePropertyAsScheduleOnlyNotAudited() throws {
        let data = try Self.ledger()
        let run = try OwnerDash.run(["audit", "run", "--data-dir", data.path])
        #expect(run.status == 0)
        #expect(run.stderr.contains("ridian") && run.stderr.contains("partial ledger, schedule only, no posted charges (not audited)"))
        #expect(!run.stderr.contains("no tenant ledger synced"))
        let shown = try OwnerDash.run(["audit", "show", "--format", "json", "--data-dir", data.path])
        #expect(shown.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let partial = try #require(object["partial_ledger"] as? [[String: Any]])
        #expect(partial.map { $0["reason"] as? String } == ["schedule only, no posted charges"])
        #expect(object["no_ledger"] == nil)
        #expect((object["exceptions"] as? [[String: Any]] ?? []).isEmpty, "no line flagged missing")
    }

    @Test func aStatementIsRefusedWithTheReasonNotPrintedAsZeros() throws {
        let data = try Self.ledger()
        let statement = try OwnerDash.run(["report", "statement", "--resident", "R1", "--data-dir", data.path])
        #expect(statement.status == 3)
        #expect(statement.stdout.isEmpty)
        #expect(statement.stderr.contains("ridian: partial ledger (Delinquent and Prepaid balances, no posted charges or payments), so no statement"))
        let history = try OwnerDash.run(["report", "tenant-history", "--property", "ridian", "--unit", "101", "--format", "json",
                                         "--data-dir", data.path])
        #expect(history.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])
        #expect((object["rows"] as? [[String: Any]])?.first?["balance"] as? Double == 1540, "the balance of the partial ledger")
    }
}
