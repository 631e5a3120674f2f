import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Ledger
import Metrics
import Sync
import Testing

/// The lease-charge audit on a small hand-made ledger (the real unified schema), one case per rule: proration at
/// move-in and move-out (half up, credits included), a month-to-month lease, charges without a lease id, codes never
/// scheduled, leases without a schedule, months not due yet; then resolutions across three runs.
@Suite struct ChargeAuditTests {
    /// The documented proration: amount x days / days in month, rounded half up to the cent (floor of n + half).
    static func prorated(_ cents: Int64, days: Int64, of monthDays: Int64) -> Int64 {
        let n = cents * days + monthDays / 2
        return n >= 0 ? n / monthDays : -((-n + monthDays - 1) / monthDays)
    }

    /// Property yp, as of 2026-11-20, audited over 2026-08 .. 2026-11.
    /// L1 (t1, 101): moved in 2026-09-16 (15 of 30 days); RENT 1500.00, WATER 45.67, CONCESSION -33.33; a late fee;
    ///     November rent short by 50, November water not posted, a water charge in August before the move-in.
    /// L2 (t2, 201): moved out 2026-10-10 (10 of 31 days); RENT 1234.56; September billed 1300, November billed again.
    /// L3 (t3, 301): month-to-month since its term ended 2026-06-30; RENT 999.99 billed every month.
    /// L4 (t4 + co-resident t4b, 401): RENT 800.00 billed to t4b without a lease id.
    /// L5 (t5): posted rent, no schedule.  L6 (t6): moves in 2026-11-25, after the as-of date.
    final class Fixture {
        let directory: URL
        let store: UnifiedStore
        var database: Database { store.database }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            store = try UnifiedStore(dataDirectory: DataDirectory(root: directory.path))
            try store.database.execute("""
                INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
                VALUES ('yp', 'Yardi Place', 'yardi', '2026-11-20', 'yardi: test'),
                       ('rp', 'RealPage Place', 'realpage', '2026-11-20', NULL);
                INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status, move_in_date, move_out_date)
                VALUES ('yp', 't1', '101', 'A', 'current', '2026-09-16', NULL),
                       ('yp', 't2', '201', 'B', 'former', '2025-01-01', '2026-10-10'),
                       ('yp', 't3', '301', 'C', 'current', '2025-07-01', NULL),
                       ('yp', 't4', '401', 'D', 'current', '2024-01-01', NULL),
                       ('yp', 't4b', '401', 'E', 'current', '2024-01-01', NULL),
                       ('yp', 't5', '501', 'F', 'current', '2024-01-01', NULL),
                       ('yp', 't6', '601', 'G', 'future', '2026-11-25', NULL);
                INSERT INTO unified_leases (unified_property_id, lease_id, unit_number, resident_id, start_date, end_date,
                                            status, is_renewal, is_month_to_month)
                VALUES ('yp', 'L1', '101', 't1', '2026-09-16', '2027-09-15', 'current', 0, 0),
                       ('yp', 'L2', '201', 't2', '2025-01-01', '2026-12-31', 'past', 0, 0),
                       ('yp', 'L3', '301', 't3', '2025-07-01', '2026-06-30', 'current', 0, 1),
                       ('yp', 'L4', '401', 't4', '2024-01-01', '2027-01-01', 'current', 0, 0),
                       ('yp', 'L5', '501', 't5', '2024-01-01', '2027-01-01', 'current', 0, 0),
                       ('yp', 'L6', '601', 't6', '2026-11-25', '2027-11-24', 'future', 0, 0);
                INSERT INTO unified_lease_residents (unified_property_id, lease_id, resident_id, role)
                VALUES ('yp', 'L4', 't4', 'head'), ('yp', 'L4', 't4b', 'co_resident');
                INSERT INTO unified_recurring_charges (unified_property_id, lease_id, resident_id, unit_number, charge_code,
                    category, category_known, amount, start_date, end_date)
                VALUES ('yp', 'L1', 't1', '101', 'rent', 'RENT', 1, 1500.00, '2026-09-16', '2027-09-15'),
                       ('yp', 'L1', 't1', '101', 'water', 'UTILITIES', 1, 45.67, '2026-09-16', '2027-09-15'),
                       ('yp', 'L1', 't1', '101', 'concession', 'OTHER', 1, -33.33, '2026-09-16', '2027-09-15'),
                       ('yp', 'L2', 't2', '201', 'rent', 'RENT', 1, 1234.56, '2025-01-01', '2026-10-10'),
                       ('yp', 'L3', 't3', '301', 'rent', 'RENT', 1, 999.99, '2025-07-01', '2026-06-30'),
                       ('yp', 'L4', 't4', '401', 'rent', 'RENT', 1, 800.00, '2024-01-01', '2027-01-01'),
                       ('yp', 'L6', 't6', '601', 'rent', 'RENT', 1, 1700.00, '2026-11-25', '2027-11-24');
                """)
            let charge = try store.database.prepare("""
                INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                    category, category_known, period, amount, amount_paid, balance)
                VALUES ('yp', :id, :resident, :lease, :unit, :code, 'OTHER', 1, :period, :amount, 0, :amount)
                """)
            var id = 0
            func post(_ resident: String, _ lease: String?, _ unit: String, _ code: String, _ period: String, _ cents: Int64) throws {
                id += 1
                try charge.execute([":id": .text("c\(id)"), ":resident": .text(resident), ":lease": SQLValue(lease),
                                    ":unit": .text(unit), ":code": .text(code), ":period": .text(period),
                                    ":amount": .real(Double(cents) / 100)])
            }
            try post("t1", "L1", "101", "rent", "2026-09", prorated(150_000, days: 15, of: 30))
            try post("t1", "L1", "101", "water", "2026-09", prorated(4_567, days: 15, of: 30))
            try post("t1", "L1", "101", "concession", "2026-09", prorated(-3_333, days: 15, of: 30))
            try post("t1", "L1", "101", "rent", "2026-10", 150_000)
            try post("t1", "L1", "101", "water", "2026-10", 4_567)
            try post("t1", "L1", "101", "concession", "2026-10", -3_333)
            try post("t1", "L1", "101", "latefee", "2026-10", 5_000)
            try post("t1", "L1", "101", "rent", "2026-11", 145_000)
            try post("t1", "L1", "101", "concession", "2026-11", -3_333)
            try post("t1", "L1", "101", "water", "2026-08", 4_567)
            try post("t2", "L2", "201", "rent", "2026-08", 123_456)
            try post("t2", "L2", "201", "rent", "2026-09", 130_000)
            try post("t2", "L2", "201", "rent", "2026-10", prorated(123_456, days: 10, of: 31))
            try post("t2", "L2", "201", "rent", "2026-11", 123_456)
            for month in ["2026-08", "2026-09", "2026-10", "2026-11"] {
                try post("t3", "L3", "301", "RENT", month, 99_999)
                try post("t4b", nil, "401", "rent", month, 80_000)
                try post("t5", "L5", "501", "rent", month, 90_000)
            }
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func run(_ properties: [String] = ["yp", "rp"]) throws -> ChargeAudit.Run {
            try ChargeAudit.run(database: database, properties: properties, asOf: LocalDate(iso: "2026-11-20"), months: 4,
                                now: { "2026-11-21T08:00:00Z" })
        }
    }

    @Test func prorationFollowsTheSimulatorsRule() {
        // Half a cent rounds up, for charges and for credits; a whole month is never prorated.
        #expect(Self.prorated(4_567, days: 15, of: 30) == 2_284)        // 22.835 -> 22.84
        #expect(Self.prorated(-3_333, days: 15, of: 30) == -1_666)      // -16.665 -> -16.66
        #expect(Self.prorated(123_456, days: 10, of: 31) == 39_825)     // 398.245... -> 398.25
        #expect(ChargeAudit.window(endingAt: LocalDate(iso: "2026-02-10")!, months: 3) == ["2025-12", "2026-01", "2026-02"])
    }

    @Test func everyRuleOnTheFixtureLedger() throws {
        let fixture = try Fixture()
        let run = try fixture.run()
        #expect(run.months == ["2026-08", "2026-09", "2026-10", "2026-11"])
        #expect(run.noLedger == ["rp"])
        let report = try AuditReport.load(database: fixture.database, runID: run.runID)
        let found = Dictionary(uniqueKeysWithValues: report.exceptions.map { ($0.key.description, $0) })
        // Exactly these exceptions: prorated move-in and move-out months, the credit, the late fee, the
        // month-to-month lease, the co-resident's charges without a lease id and the lease without a schedule all pass.
        #expect(Set(found.keys) == ["yp:L1:RENT:2026-11", "yp:L1:WATER:2026-11", "yp:L1:WATER:2026-08",
                                    "yp:L2:RENT:2026-09", "yp:L2:RENT:2026-11"])
        func check(_ key: String, _ kind: String, expected: Int64, posted: Int64) {
            let e = found[key]
            #expect(e?.kind == kind, "\(key)")
            #expect(e?.expected.cents == expected && e?.posted.cents == posted, "\(key)")
            #expect(e?.variance.cents == posted - expected, "\(key)")
            #expect(e?.status == .open, "\(key)")
        }
        check("yp:L1:RENT:2026-11", "undercharge", expected: 150_000, posted: 145_000)
        check("yp:L1:WATER:2026-11", "missing", expected: 4_567, posted: 0)
        check("yp:L1:WATER:2026-08", "unexpected", expected: 0, posted: 4_567)
        check("yp:L2:RENT:2026-09", "overcharge", expected: 123_456, posted: 130_000)
        check("yp:L2:RENT:2026-11", "unexpected", expected: 0, posted: 123_456)
        #expect(found["yp:L1:WATER:2026-08"]?.unit == "101" && found["yp:L1:WATER:2026-08"]?.residentID == "t1")

        let totals = try #require(run.properties.first { $0.property == "yp" })
        #expect(totals.leases == 4, "L1-L4; L5 has no schedule and L6 is not due yet")
        #expect(totals.notAudited == 4, "L5's rent, posted in four months with no schedule: counted, not audited")
        // L1: 3 codes x Sep-Nov + the August water; L2: Aug-Oct + November; L3 and L4: 4 months each.
        #expect(totals.lines == 10 + 4 + 4 + 4)
        #expect(totals.matched == totals.lines - 5)
        #expect((totals.missing, totals.unexpected, totals.undercharge, totals.overcharge) == (1, 2, 1, 1))
        #expect(totals.underchargeTotal.cents == 5_000 + 4_567)
        #expect(totals.overchargeTotal.cents == 4_567 + 6_544 + 123_456)
        #expect(!run.properties.contains { $0.property == "rp" }, "no ledger: no totals, not zeros")
        #expect(try fixture.database.scalar("SELECT has_ledger FROM audit_run_properties WHERE unified_property_id = 'rp'")?
                    .integerValue == 0)
        #expect(try fixture.database.scalar("SELECT leases FROM audit_run_properties WHERE unified_property_id = 'rp'")?.isNull == true)

        let lines = Dictionary(uniqueKeysWithValues: report.leaseCharges.map { ("\($0.leaseID):\($0.chargeCode)", $0) })
        #expect(Set(lines.keys) == ["L1:RENT", "L1:WATER", "L1:CONCESSION", "L2:RENT", "L3:RENT", "L4:RENT"])
        #expect(lines["L1:CONCESSION"]?.status == .passed && lines["L1:CONCESSION"]?.matched == 3)
        #expect(lines["L1:WATER"]?.status == .open && lines["L1:WATER"]?.exceptions == 2 && lines["L1:WATER"]?.months == 4)
        #expect(lines["L3:RENT"]?.status == .passed && lines["L3:RENT"]?.matched == 4, "month-to-month keeps billing")
        #expect(lines["L4:RENT"]?.status == .passed && lines["L4:RENT"]?.matched == 4, "charges without a lease id")
        // The run row carries the portfolio totals.
        let runRow = try #require(try fixture.database.query("""
            SELECT lines, matched, missing, unexpected, undercharge, overcharge, undercharge_total, overcharge_total,
                   first_month, last_month, as_of_date, finished_at FROM audit_runs WHERE run_id = :run
            """, [":run": .integer(run.runID)]).first)
        #expect(runRow[0].integerValue == Int64(totals.lines) && runRow[1].integerValue == Int64(totals.matched))
        #expect(runRow[6].doubleValue == 95.67 && runRow[7].doubleValue == 1345.67)
        #expect(runRow[8].textValue == "2026-08" && runRow[9].textValue == "2026-11" && runRow[10].textValue == "2026-11-20")
        #expect(runRow[11].textValue == "2026-11-21T08:00:00Z")
    }

    /// A lease whose schedule the PMS no longer sends (RPX sends current leases' only: a former household's, a renewed
    /// lease's) is audited for its rent against the rent the lease states, under the property's rent code; its other
    /// charges are counted as not audited. L5 states no rent: still not audited at all. L9 posted its rent under the
    /// property's other rent code (RENTAFF, which L10 schedules): held against that code, not found missing.
    @Test func aLeaseWithoutAScheduleIsAuditedForTheRentItStates() throws {
        let fixture = try Fixture()
        try fixture.database.execute("""
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status, move_in_date, move_out_date)
            VALUES ('yp', 't7', '701', 'H', 'former', '2025-05-01', '2026-10-15'),
                   ('yp', 't8', '801', 'I', 'current', '2025-09-01', NULL),
                   ('yp', 't9', '901', 'J', 'former', '2026-01-01', '2026-09-30'),
                   ('yp', 't10', '902', 'K', 'current', '2026-01-01', NULL);
            INSERT INTO unified_leases (unified_property_id, lease_id, unit_number, resident_id, start_date, end_date,
                                        rent_amount, status, is_renewal, is_month_to_month)
            VALUES ('yp', 'L7', '701', 't7', '2025-05-01', '2026-04-30', 1100.00, 'past', 0, 0),
                   ('yp', 'L8a', '801', 't8', '2025-09-01', '2026-08-31', 1000.00, 'past', 0, 0),
                   ('yp', 'L8b', '801', 't8', '2026-09-01', '2027-08-31', 1050.00, 'current', 1, 0),
                   ('yp', 'L9', '901', 't9', '2026-01-01', '2026-12-31', 900.00, 'past', 0, 0),
                   ('yp', 'L10', '902', 't10', '2026-01-01', '2026-12-31', 950.00, 'current', 0, 0);
            INSERT INTO unified_recurring_charges (unified_property_id, lease_id, resident_id, unit_number, charge_code,
                category, category_known, amount, start_date, end_date)
            VALUES ('yp', 'L8b', 't8', '801', 'rent', 'RENT', 1, 1050.00, '2026-09-01', '2027-08-31'),
                   ('yp', 'L10', 't10', '902', 'rentaff', 'RENT', 1, 950.00, '2026-01-01', '2026-12-31');
            """)
        let charge = try fixture.database.prepare("""
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, amount, amount_paid, balance)
            VALUES ('yp', :id, :resident, :lease, :unit, :code, 'OTHER', 1, :period, :amount, 0, :amount)
            """)
        for (id, resident, lease, unit, code, period, cents) in [
            ("d1", "t7", "L7", "701", "rent", "2026-08", Int64(110_000)),
            // L7's September rent was never posted; October's is prorated to the move-out on the 15th.
            ("d2", "t7", "L7", "701", "rent", "2026-10", Self.prorated(110_000, days: 15, of: 31)),
            ("d3", "t7", "L7", "701", "water", "2026-08", 4_000), ("d4", "t7", "L7", "701", "water", "2026-09", 4_000),
            ("d5", "t8", "L8a", "801", "rent", "2026-08", 100_000),
            ("d6", "t8", "L8b", "801", "rent", "2026-09", 105_000), ("d7", "t8", "L8b", "801", "rent", "2026-10", 105_000),
            ("d8", "t8", "L8b", "801", "rent", "2026-11", 105_000),
            ("d9", "t9", "L9", "901", "rentaff", "2026-08", 90_000), ("d10", "t9", "L9", "901", "rentaff", "2026-09", 90_000),
            ("d11", "t10", "L10", "902", "rentaff", "2026-08", 95_000), ("d12", "t10", "L10", "902", "rentaff", "2026-09", 95_000),
            ("d13", "t10", "L10", "902", "rentaff", "2026-10", 95_000), ("d14", "t10", "L10", "902", "rentaff", "2026-11", 95_000),
        ] {
            try charge.execute([":id": .text(id), ":resident": .text(resident), ":lease": .text(lease), ":unit": .text(unit),
                                ":code": .text(code), ":period": .text(period), ":amount": .real(Double(cents) / 100)])
        }
        let run = try fixture.run(["yp"])
        let report = try AuditReport.load(database: fixture.database, runID: run.runID)
        let found = Dictionary(uniqueKeysWithValues: report.exceptions.map { ($0.key.description, $0) })
        let missed = try #require(found["yp:L7:RENT:2026-09"], "the rent L7 states, not posted: \(found.keys.sorted())")
        #expect(missed.kind == "missing" && missed.expected.cents == 110_000 && missed.posted.cents == 0)
        #expect(missed.expectedFrom == "lease rent" && found["yp:L1:RENT:2026-11"]?.expectedFrom == "schedule")
        #expect(!found.keys.contains { $0.hasPrefix("yp:L7:RENT:2026-08") || $0.hasPrefix("yp:L7:RENT:2026-10") },
                "August whole, October prorated to the move-out: matched")
        #expect(!found.keys.contains { $0.contains(":L8a:") || $0.contains(":L8b:") },
                "the renewed lease ends with its term; the new one has its schedule")
        let lines = Dictionary(uniqueKeysWithValues: report.leaseCharges.map { ("\($0.leaseID):\($0.chargeCode)", $0) })
        #expect(lines["L7:RENT"]?.months == 3 && lines["L7:RENT"]?.matched == 2)
        #expect(lines["L7:RENT"]?.expectedFrom == "lease rent" && lines["L8b:RENT"]?.expectedFrom == "schedule",
                "each line says what it was held against")
        let leasesTable = try #require(report.result(exceptionsOnly: false, parameters: []).tables.first { $0.name == "leases" })
        #expect(leasesTable.columns.map(\.name).last == "expected_from")
        #expect(lines["L8a:RENT"]?.months == 1 && lines["L8a:RENT"]?.matched == 1)
        #expect(lines["L9:RENTAFF"]?.months == 2 && lines["L9:RENTAFF"]?.matched == 2 && lines["L9:RENT"] == nil,
                "the rent code the lease posted, among the property's")
        #expect(!found.keys.contains { $0.contains(":L9:") || $0.contains(":L10:") })
        let totals = try #require(run.properties.first { $0.property == "yp" })
        #expect(totals.notAudited == 4 + 2, "L5's four rent months and L7's two water months")
        #expect(totals.notAuditedLeases == 2 && totals.notAuditedAmount?.cents == 4 * 90_000 + 2 * 4_000)
    }

    /// L5's rent was posted in four months on a lease with no schedule (as RPX sends the schedule of current leases
    /// only): `audit show` says how many lines, on how many leases, for how much, and why they were not audited.
    @Test func whatWasNotAuditedIsShownWithItsAmountAndWhy() throws {
        let fixture = try Fixture()
        let run = try fixture.run()
        let report = try AuditReport.load(database: fixture.database, runID: run.runID)
        let yp = try #require(report.properties.first { $0.property == "yp" })
        #expect(yp.notAudited == 4 && yp.notAuditedLeases == 1 && yp.notAuditedAmount?.cents == 4 * 90_000)
        let result = report.result(exceptionsOnly: false, parameters: [])
        let properties = try #require(result.tables.first { $0.name == "properties" })
        let columns = properties.columns.map(\.name)
        let row = try #require(properties.rows.first { $0.first == .text("yp") })
        #expect(row[try #require(columns.firstIndex(of: "not_audited_lines"))] == .integer(4))
        #expect(row[try #require(columns.firstIndex(of: "not_audited_amount"))] == .real(3600))
        let notAudited = try #require(result.tables.first { $0.name == "not_audited" })
        #expect(notAudited.rows == [[.text("yp"), .integer(1), .integer(4), .real(3600), .text(ChargeAudit.unscheduledReason)]])
        #expect(result.warnings.contains {
            $0.hasPrefix("yp: 4 charge lines (lease, code, month) on 1 leases, $3600.00 posted, not audited: posted on leases without")
        })
    }

    /// A ledger nightly windows had brought past its last whole pull is recorded with the run, so `audit show` names
    /// that pull's date later, whatever the property's ledger has become since.
    @Test func theRunKeepsTheDateOfTheLedgersLastWholePull() throws {
        let fixture = try Fixture()
        let whole = try fixture.run()
        #expect(try AuditReport.load(database: fixture.database, runID: whole.runID)
            .result(exceptionsOnly: true, parameters: []).tables.allSatisfy { $0.name != "ledger_whole_as_of" })
        try fixture.database.execute("UPDATE unified_properties SET ledger_whole_as_of = '2026-11-16' WHERE unified_property_id = 'yp'")
        let windowed = try fixture.run()
        try fixture.database.execute("UPDATE unified_properties SET ledger_whole_as_of = NULL")
        let report = try AuditReport.load(database: fixture.database, runID: windowed.runID)
        #expect(report.ledgerWholeAsOf == ["yp": LedgerWholeAsOf(asOf: "2026-11-20", wholeAsOf: "2026-11-16")])
        let table = try #require(report.result(exceptionsOnly: true, parameters: []).tables.first { $0.name == "ledger_whole_as_of" })
        #expect(table.rows == [[.text("yp"), .text("2026-11-20"), .text("2026-11-16")]])
    }

    @Test func resolutionsCarryAcrossRunsAndTheLatestEventWins() throws {
        let fixture = try Fixture()
        let database = fixture.database
        let key = try AuditKey(parsing: "yp:L1:water:2026-11")
        #expect(key.description == "yp:L1:WATER:2026-11")
        let run1 = try fixture.run()
        #expect(try AuditResolutions.resolve(database: database, key: key, fix: "posted water", action: .charge, by: "dana",
                                             note: "meter read late", at: "2026-11-21T09:00:00Z") == run1.runID)

        let run2 = try fixture.run()
        #expect(run2.runID == run1.runID + 1)
        let report2 = try AuditReport.load(database: database, runID: run2.runID)
        let rows2 = report2.exceptions.filter { $0.key == key }
        #expect(rows2.count == 1, "one row per exception, however many events")
        let seen = try #require(rows2.first)
        #expect(seen.status == .resolved && seen.historical)
        #expect(seen.by == "dana" && seen.at == "2026-11-21T09:00:00Z" && seen.eventRun == run1.runID)
        #expect(seen.fix == "posted water" && seen.action == "charge" && seen.note == "meter read late")
        #expect(report2.leaseCharges.first { $0.leaseID == "L1" && $0.chargeCode == "WATER" }?.status == .open,
                "the August water of L1 is still open")
        #expect(report2.exceptions.count == 5)

        try AuditResolutions.reopen(database: database, key: key, by: "lee", note: "still not posted", at: "2026-11-22T09:00:00Z")
        let run3 = try fixture.run()
        let report3 = try AuditReport.load(database: database, runID: run3.runID)
        let rows3 = report3.exceptions.filter { $0.key == key }
        #expect(rows3.count == 1)
        #expect(rows3.first?.status == .open && rows3.first?.event == "reopened" && rows3.first?.by == "lee")
        // Run 2 still reads as it stood: the reopening was recorded against run 2, so it shows there too; run 1
        // keeps the resolution recorded against it.
        #expect(try AuditReport.load(database: database, runID: run1.runID).exceptions.first { $0.key == key }?.status == .resolved)
        // History is kept: two events, none overwritten.
        #expect(try database.scalar("SELECT count(*) FROM audit_resolutions")?.integerValue == 2)
        #expect(try database.scalar("SELECT count(*) FROM audit_runs")?.integerValue == 3)
        #expect(try database.scalar("SELECT count(DISTINCT run_id) FROM audit_results")?.integerValue == 3)

        // Resolving every exception of L1's water makes the lease and code Resolved.
        let august = try AuditKey(parsing: "yp:L1:WATER:2026-08")
        for k in [key, august] {
            try AuditResolutions.resolve(database: database, key: k, fix: "billing fixed", action: .schedule, by: "dana",
                                         note: nil, at: "2026-11-23T09:00:00Z")
        }
        let latest = try AuditReport.load(database: database, runID: nil)
        #expect(latest.runID == run3.runID)
        #expect(latest.leaseCharges.first { $0.leaseID == "L1" && $0.chargeCode == "WATER" }?.status == .resolved)
        #expect(latest.exceptions.filter { $0.key == key }.count == 1)
    }

    @Test func unknownKeysAndReopeningWhatIsOpenAreRefused() throws {
        let fixture = try Fixture()
        let database = fixture.database
        #expect(throws: AuditError.self) { try AuditKey(parsing: "yp:L1:WATER:2026-13") }
        #expect(throws: AuditError.self) { try AuditKey(parsing: "yp:L1:2026-11") }
        let key = try AuditKey(parsing: "yp:L1:WATER:2026-11")
        #expect(throws: AuditError.self, "no run yet") {
            try AuditResolutions.resolve(database: database, key: key, fix: "x", action: .none, by: "a", note: nil, at: "t")
        }
        _ = try fixture.run()
        #expect(throws: AuditError.self, "a matched line is not an exception") {
            try AuditResolutions.resolve(database: database, key: try AuditKey(parsing: "yp:L1:RENT:2026-10"), fix: "x",
                                         action: .none, by: "a", note: nil, at: "t")
        }
        #expect(throws: AuditError.self, "open: nothing to reopen") {
            try AuditResolutions.reopen(database: database, key: key, by: "a", note: nil, at: "t")
        }
        #expect(throws: AuditError.self) { try AuditReport.load(database: database, runID: 99) }
        #expect(try database.scalar("SELECT count(*) FROM audit_resolutions")?.integerValue == 0)
    }
}
