import Foundation
@testable import Ledger
import Metrics
import OwnerDashCore
import Testing

/// The rental tracker over the hand-built ledger of `LedgerFixture`.
@Suite struct RentalTrackerTests {
    @Test func residentsBehindWithTheirMonthsWhatTheyOweAndWhatTheyPaid() throws {
        let fixture = try LedgerFixture()
        let tracker = try RentalTracker.run(database: fixture.database, properties: ["rp", "yp"], asOf: nil,
                                            minBalance: nil, minMonthsBehind: 1, sort: .balance)
        #expect(tracker.noLedger == ["rp"])
        // t2's rent is not yet due (11-25 after the property date 11-20): not behind. t1 and t3 are, by balance.
        #expect(tracker.residents.map(\.residentID) == ["t3", "t1"])
        let ann = try #require(tracker.residents.last)
        #expect(ann.balanceCents == 94_000, "1400 + 40 + 1400 charged, 1900 paid")
        #expect(ann.monthsMissing == ["2026-11"], "October rent was paid; only the water of October is open")
        #expect(ann.owed.map(\.code) == ["water", "rent"])
        #expect(ann.owed.map(\.amountCents) == [4_000, 90_000])
        #expect(ann.paid.map(\.reference) == ["ACH 77"], "payments from the first missing month on")
        #expect(tracker.residents.first?.monthsMissing == ["2026-10"])

        let later = try RentalTracker.run(database: fixture.database, properties: ["yp"], asOf: LocalDate(iso: "2026-11-30"),
                                          minBalance: nil, minMonthsBehind: 1, sort: .unit)
        #expect(later.residents.map(\.unit) == ["101", "101", "201"], "after 11-25 Ken is behind too")
        let big = try RentalTracker.run(database: fixture.database, properties: ["yp"], asOf: nil,
                                        minBalance: 1000, minMonthsBehind: 1, sort: .name)
        #expect(big.residents.map(\.residentID) == ["t3"], "only balances of $1,000 or more")
        let two = try RentalTracker.run(database: fixture.database, properties: ["yp"], asOf: LocalDate(iso: "2026-12-31"),
                                        minBalance: nil, minMonthsBehind: 2, sort: .balance)
        #expect(two.residents.isEmpty, "nobody has two months of rent unpaid")

        #expect(ann.lastPayment?.reference == "ACH 77" && ann.lastPayment?.date == "2026-11-05")
        #expect(tracker.residents.first?.lastPayment == nil, "the former tenant never paid")

        let result = tracker.result(parameters: [])
        #expect(result.tables.map(\.name) == ["rows", "owed", "paid"])
        let balance = try #require(result.tables[0].columns.firstIndex { $0.name == "balance" })
        #expect(result.tables[0].total?[balance] == .real(2240), "the total balance owed: 1300 + 940")
    }

    /// The former tenant paid September's rent on 09-02 and nothing since; October is the first month missing. The
    /// payments since then are none, but the last payment is September's, not "-".
    /// The months behind of a ledger the nightly windows have brought past its last whole pull may lack a posting
    /// dated back before them until the next one: the tracker names the property and that pull's date.
    @Test func aLedgerBroughtForwardByWindowsIsNamedWithItsLastWholePull() throws {
        let fixture = try LedgerFixture()
        try fixture.database.execute("UPDATE unified_properties SET ledger_whole_as_of = '2026-11-16' WHERE unified_property_id = 'yp'")
        let tracker = try RentalTracker.run(database: fixture.database, properties: ["rp", "yp"], asOf: nil,
                                            minBalance: nil, minMonthsBehind: 1, sort: .balance)
        #expect(tracker.ledgerWholeAsOf == ["yp": LedgerWholeAsOf(asOf: "2026-11-20", wholeAsOf: "2026-11-16")])
        let table = try #require(tracker.result(parameters: []).tables.first { $0.name == "ledger_whole_as_of" })
        #expect(table.rows == [[.text("yp"), .text("2026-11-20"), .text("2026-11-16")]])
    }

    @Test func theLastPaymentIsTheLatestEverMadeNotOnlySinceTheFirstMonthMissing() throws {
        let fixture = try LedgerFixture()
        try fixture.database.execute("""
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES ('yp', 'c7', 't3', 'L0', '101', 'rent', 'RENT', 1, '2026-09', '2026-09-01', '2026-09-01', 1300, 1300, 0);
            INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date,
                period, amount, reference, payment_type)
            VALUES ('yp', 'p3', 't3', 'L0', '101', '2026-09-02', '2026-09', 1300, 'CHK 88', 'Check');
            """)
        let tracker = try RentalTracker.run(database: fixture.database, properties: ["yp"], asOf: nil,
                                            minBalance: nil, minMonthsBehind: 1, sort: .balance)
        let old = try #require(tracker.residents.first { $0.residentID == "t3" })
        #expect(old.monthsMissing == ["2026-10"] && old.paid.isEmpty, "nothing paid since October")
        #expect(old.lastPayment?.date == "2026-09-02" && old.lastPayment?.amountCents == 130_000)
        let table = tracker.result(parameters: []).tables[0]
        let columns = table.columns.map(\.name)
        let row = try #require(table.rows.first { $0[2] == .text("t3") })
        #expect(row[try #require(columns.firstIndex(of: "last_payment"))] == .text("2026-09-02"))
        #expect(row[try #require(columns.firstIndex(of: "last_payment_amount"))] == .real(1300))
    }
}
