import Foundation
@testable import Ledger
import OwnerDashCore
import SQLiteKit
import Sync
import Testing

/// The lease payment-status grid: the status precedence, and the report over a hand-built unified.db.
@Suite struct LeasePaymentStatusTests {
    static func billing(_ billed: Int64, paid: Int64, due: String = "2026-11-01") -> PaymentStatus.Billing {
        PaymentStatus.Billing(billedCents: billed, paidCents: paid, balanceCents: billed - paid, dueDate: due)
    }

    @Test func statusPrecedenceIsPaidThenOverdueThenPartialThenPending() {
        let asOf = "2026-11-20"
        #expect(PaymentStatus.of([], asOf: asOf) == nil, "no billing: blank")
        #expect(PaymentStatus.of([Self.billing(1000, paid: 1000), Self.billing(50, paid: 50)], asOf: asOf) == .paid)
        // One billing past due and unpaid makes the month overdue, even beside a partly paid one.
        #expect(PaymentStatus.of([Self.billing(1000, paid: 400), Self.billing(50, paid: 0, due: "2026-11-05")], asOf: asOf) == .overdue)
        #expect(PaymentStatus.of([Self.billing(1000, paid: 400, due: "2026-11-25")], asOf: asOf) == .partial)
        #expect(PaymentStatus.of([Self.billing(1000, paid: 0, due: "2026-11-25")], asOf: asOf) == .pending)
        // Due on the as-of date itself is not yet past due.
        #expect(PaymentStatus.of([Self.billing(1000, paid: 0, due: asOf)], asOf: asOf) == .pending)
        // Overpaid is paid.
        #expect(PaymentStatus.of([PaymentStatus.Billing(billedCents: 1000, paidCents: 1200, balanceCents: -200, dueDate: nil)],
                                 asOf: asOf) == .paid)
    }

    @Test func monthsRunAcrossTheYearEnd() {
        #expect(LeasePaymentStatusReport.months(from: "2026-11", count: 3) == ["2026-11", "2026-12", "2027-01"])
    }

    @Test func theGridGroupsByFloorAndUnitAndSaysWhichPropertiesHaveNoLedger() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try UnifiedStore(dataDirectory: DataDirectory(root: directory.path))
        let db = store.database
        try db.execute("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('yp', 'Yardi Place', 'yardi', '2026-11-20', 'yardi: test'),
                   ('rp', 'RealPage Place', 'realpage', '2026-11-20', NULL);
            INSERT INTO unified_units (unified_property_id, unit_number, floor, status)
            VALUES ('yp', '201', '2', 'occupied'), ('yp', '101', '1', 'occupied');
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status)
            VALUES ('yp', 't1', '101', 'Lee, Ann', 'current'), ('yp', 't2', '201', 'Ito, Ken', 'current'),
                   ('yp', 't3', '101', 'Old, Tenant', 'former');
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES ('yp', 'c1', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 1400, 1400, 0),
                   ('yp', 'c2', 't1', 'L1', '101', 'water', 'UTILITIES', 1, '2026-10', '2026-10-01', '2026-10-01', 40, 0, 40),
                   ('yp', 'c3', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 1400, 500, 900),
                   ('yp', 'c4', 't2', 'L2', '201', 'rent', 'RENT', 1, '2026-11', '2026-11-25', '2026-11-25', 1900, 0, 1900),
                   ('yp', 'c5', 't2', 'L2', '201', 'parking', 'OTHER', 1, '2026-11', '2026-11-01', '2026-11-01', 50, 0, 50),
                   ('yp', 'c6', 't3', 'L0', '101', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 1300, 0, 1300);
            """)
        let report = try LeasePaymentStatusReport.run(database: db, properties: ["rp", "yp"], start: "2026-10", months: 2,
                                                      asOf: nil, includeInactive: false)
        #expect(report.noLedger == ["rp"])
        #expect(report.months == ["2026-10", "2026-11"])
        #expect(report.lines.map(\.unit) == ["101", "201"], "floor 1 before floor 2; the former tenant left out")
        let ann = try #require(report.lines.first)
        #expect(ann.tenants == ["Lee, Ann"])
        #expect(ann.rent["2026-10"]?.status == .paid)
        #expect(ann.utilities["2026-10"]?.status == .overdue)
        #expect(ann.rent["2026-11"]?.status == .overdue)
        #expect(ann.rent["2026-11"]?.balanceCents == 90_000)
        #expect(ann.utilities["2026-11"] == nil, "no utility billing in November: blank")
        let ken = report.lines[1]
        #expect(ken.rent["2026-11"]?.status == .pending, "due after the property date")
        #expect(ken.utilities.isEmpty, "parking is OTHER, not utilities")

        let all = try LeasePaymentStatusReport.run(database: db, properties: ["yp"], start: "2026-10", months: 2,
                                                   asOf: LocalDate(iso: "2026-11-30"), includeInactive: true)
        #expect(all.lines.map(\.residentID) == ["t1", "t3", "t2"])
        #expect(all.lines.last?.rent["2026-11"]?.status == .overdue, "--as-of after the due date")
    }
}
