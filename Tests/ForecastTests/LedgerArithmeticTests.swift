import OwnerDashCore
import Testing
@testable import Forecast

/// Day numbers from ISO dates, so that a test reads in dates.
func day(_ iso: String) -> Int { LocalDate(iso: iso)!.daysSinceEpoch }

/// A household billed `rent` on the 1st of each month from January to `through`, paying what `payments` says.
func household(rentCents: Int64 = 100_000, months: [String], payments: [(String, Int64)],
               moveIn: String? = "2025-12-20", notice: String? = nil, moveOut: String? = nil) -> HouseholdLedger {
    HouseholdLedger(
        property: "p", residentID: "r1", unit: "101", name: "Lee, Ann",
        charges: months.map { month in
            .init(posted: day(month + "-01"), due: day(month + "-01"), period: month, cents: rentCents,
                  isReturnedPayment: false, isLateFee: false)
        },
        payments: payments.map { .init(day: day($0.0), cents: $0.1) },
        moveIn: moveIn.map(day), notice: notice.map(day), moveOut: moveOut.map(day),
        leases: [.init(start: day("2026-01-01"), end: day("2026-12-31"), monthToMonth: false, rentCents: rentCents, people: 2)],
        marketRentCents: 125_000)
}

@Suite struct LedgerArithmeticTests {
    @Test func over30CountsOnlyChargesOlderThan30DaysThatPaymentsLeftOpen() {
        // January paid on February 5th; February and March never paid.
        let ledger = household(months: ["2026-01", "2026-02", "2026-03"], payments: [("2026-02-05", 100_000)])
        // Jan 31: January's rent is 30 days old, the 0-30 bucket.
        #expect(ledger.balanceCents(on: day("2026-01-31")) == 100_000)
        #expect(ledger.over30Cents(on: day("2026-01-31")) == 0)
        // Feb 28: January was paid (oldest first), February is 27 days old.
        #expect(ledger.over30Cents(on: day("2026-02-28")) == 0)
        // Mar 31: February (58 days) is over 30, March (30 days) is not.
        #expect(ledger.balanceCents(on: day("2026-03-31")) == 200_000)
        #expect(ledger.over30Cents(on: day("2026-03-31")) == 100_000)
        #expect(NextMonthDelinquency.isBehind(over30Cents: ledger.over30Cents(on: day("2026-03-31"))))
        // A day later March's rent turns 31 days old.
        #expect(ledger.over30Cents(on: day("2026-04-01")) == 200_000)
    }

    @Test func aPartPaymentSettlesTheOldestChargeFirst() {
        // 1,500 paid in February against 2,000 of January and February: 500 of February stays open.
        let ledger = household(months: ["2026-01", "2026-02"], payments: [("2026-02-10", 150_000)])
        #expect(ledger.over30Cents(on: day("2026-03-10")) == 50_000) // February's rest is 37 days old
        #expect(ledger.over30Cents(on: day("2026-03-02")) == 0)      // 29 days old
    }

    @Test func daysLateRunFromTheDueDateToThePaymentThatCoveredTheMonth() {
        let ledger = household(months: ["2026-01", "2026-02", "2026-03"],
                               payments: [("2026-01-01", 100_000), ("2026-02-12", 60_000), ("2026-02-20", 40_000)])
        let late = ledger.daysLate(asOf: day("2026-03-31"))
        #expect(late.map(\.period) == ["2026-01", "2026-02", "2026-03"])
        #expect(late[0].days == 0)  // paid on the due date
        #expect(late[1].days == 19) // covered by the second part, Feb 20
        #expect(late[2].days == 30) // still open on Mar 31: at least 30 days
    }

    @Test func featuresSeeNothingDatedAfterTheirDay() {
        // The PMS's current state holds a notice and a move-out in April; on March 31 neither has happened.
        let ledger = household(months: ["2026-01", "2026-02", "2026-03", "2026-04"],
                               payments: [("2026-01-02", 100_000), ("2026-02-02", 100_000), ("2026-04-20", 50_000)],
                               notice: "2026-04-05", moveOut: "2026-05-04")
        let march = ledger.features(on: day("2026-03-31"))
        func value(_ feature: Feature, _ row: [Float]) -> Float { row[Feature.allCases.firstIndex(of: feature)!] }
        #expect(value(.noticeGiven, march) == 0)
        #expect(value(.balance, march) == 1000)             // the April payment is not yet made
        #expect(value(.partialPaymentMonths12, march) == 0) // nor is April's part payment
        #expect(value(.missedPaymentMonths12, march) == 1)  // March: billed, nothing paid
        #expect(ledger.inResidence(on: day("2026-03-31")))
        let april = ledger.features(on: day("2026-04-30"))
        #expect(value(.noticeGiven, april) == 1)
        #expect(value(.partialPaymentMonths12, april) == 1)
        #expect(!ledger.inResidence(on: day("2026-05-31")))
        // Lease and market: 1,000 against 1,250, two people, the lease ends Dec 31 (9 months after Mar 31).
        #expect(abs(value(.rentToMarket, march) - 0.8) < 1e-6)
        #expect(value(.householdSize, march) == 2)
        #expect(abs(value(.monthsToLeaseEnd, march) - 9) < 0.05)
    }

    @Test func whatTheLedgerCannotSayIsMissingNotZero() {
        var ledger = household(months: ["2026-01"], payments: [], moveIn: nil)
        ledger.leases = []
        ledger.marketRentCents = nil
        let row = ledger.features(on: day("2026-01-31"))
        for feature in [Feature.monthsToLeaseEnd, .rentToMarket, .householdSize] {
            #expect(row[Feature.allCases.firstIndex(of: feature)!].isNaN, "\(feature.name)")
        }
        // Tenure falls back to the first charge.
        #expect(row[Feature.allCases.firstIndex(of: .tenureMonths)!] == Float(30.0 / 30.4375))
    }

    @Test func monthEnds() {
        #expect(MonthEnd.iso(MonthEnd.of(day("2024-02-10"))) == "2024-02-29")
        #expect(MonthEnd.iso(MonthEnd.next(after: day("2026-01-31"))) == "2026-02-28")
        #expect(MonthEnd.before(day("2026-03-31"), count: 3).map(MonthEnd.iso) == ["2025-12-31", "2026-01-31", "2026-02-28"])
        #expect(MonthEnd.before(day("2026-03-31") + 1, count: 2).map(MonthEnd.iso) == ["2026-02-28", "2026-03-31"])
    }
}
