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

    /// A unit without a floor (Yardi sends none) is listed under the reason the sync recorded, and the result says so.
    @Test func aUnitWithoutAFloorCarriesTheReasonTheSyncRecorded() throws {
        let fixture = try LedgerFixture()
        try fixture.database.execute("""
            UPDATE unified_units SET floor = NULL WHERE unified_property_id = 'yp' AND unit_number = '201';
            UPDATE unified_properties SET floor_note = 'Yardi sends no floor' WHERE unified_property_id = 'yp';
            """)
        let report = try LeasePaymentStatusReport.run(database: fixture.database, properties: ["yp"], start: "2026-10",
                                                      months: 2, asOf: nil, includeInactive: false)
        #expect(report.lines.first { $0.unit == "201" }?.floor == nil)
        #expect(report.floorNotes == ["yp": "Yardi sends no floor"])
        #expect(report.result(detailed: false, parameters: []).warnings.contains("yp: floor not known for some units: Yardi sends no floor"))
    }

    @Test func monthsRunAcrossTheYearEnd() {
        #expect(LeasePaymentStatusReport.months(from: "2026-11", count: 3) == ["2026-11", "2026-12", "2027-01"])
    }

    @Test func theGridGroupsByFloorAndUnitAndSaysWhichPropertiesHaveNoLedger() throws {
        let fixture = try LedgerFixture()
        let db = fixture.database
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
