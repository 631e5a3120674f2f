import Foundation
@testable import Ledger
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

        let result = tracker.result(parameters: [])
        #expect(result.tables.map(\.name) == ["rows", "owed", "paid"])
        #expect(result.tables[0].total?[5] == .real(2240), "the total balance owed: 1300 + 940")
    }
}
