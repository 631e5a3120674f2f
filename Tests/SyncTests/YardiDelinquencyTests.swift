import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// unified_delinquency from the GetResidentTransactions_Login ledger, at the property date.
@Suite struct YardiDelinquencyTests {
    static func daysAgo(_ days: Int) -> String { YardiUnitsTests.daysAgo(days) }

    static let delinquency = """
        SELECT resident_id, unit_number, name, resident_status, current_balance,
               balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid
        FROM unified_delinquency WHERE as_of_date = '2026-11-20'
        """

    @Test func openChargesAreAgedByDaysSinceTheChargeDateAtTheBucketEdges() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.resident("t1", "Current", unit: "101", first: "Ann", last: "Lee")
        // Days old -> bucket: 0 and 30 -> 0-30, 31 and 60 -> 31-60, 61 and 90 -> 61-90, 91 -> over 90.
        for (days, amount) in [(0, 100.10), (30, 200.20), (31, 400.0), (60, 800.0), (61, 1600.0), (90, 3200.0), (91, 6400.0)] {
            try yardi.charge("t1", Self.daysAgo(days), amount)
        }
        // A charge paid in full and its payment: no aging, no balance.
        try yardi.charge("t1", Self.daysAgo(200), 500, paid: 500)
        try yardi.payment("t1", Self.daysAgo(195), 500)
        // Dated after the property date (a ledger fetched later): counted as current.
        try yardi.resident("t2", "Current", unit: "102")
        try yardi.charge("t2", "2026-11-23", 50, unit: "102")
        #expect(yardi.sync().first?.error == nil)

        let rows = try yardi.keyed(Self.delinquency)
        #expect(rows["t1"] == [.text("101"), .text("Lee, Ann"), .text("current"), .real(12700.3),
                               .real(300.3), .real(1200), .real(4800), .real(6400), .real(0)])
        #expect(rows["t2"]?[4...] == [.real(50), .real(0), .real(0), .real(0), .real(0)])
    }

    @Test func prepaidPartialPaymentsZeroBalancesAndUnknownResidents() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.resident("t2", "Notice", unit: "102", first: "Bo", last: "Kim")
        try yardi.resident("t3", "Past", unit: "103", first: "Cy", last: "Ng")
        try yardi.resident("t4", "Current", unit: "104")
        // Paid ahead: the credit is prepaid, the balance negative.
        try yardi.charge("t2", Self.daysAgo(19), 1000, paid: 1000, unit: "102")
        try yardi.payment("t2", Self.daysAgo(25), 1000)
        try yardi.payment("t2", Self.daysAgo(2), 250)
        // Partly paid: the open rest is aged.
        try yardi.charge("t3", Self.daysAgo(45), 1000, paid: 400, unit: "103")
        try yardi.payment("t3", Self.daysAgo(40), 400)
        // Settled: no row.
        try yardi.charge("t4", Self.daysAgo(19), 500, paid: 500, unit: "104")
        try yardi.payment("t4", Self.daysAgo(18), 500)
        // Not in GetResidentsByStatus: the ledger's unit, no name.
        try yardi.charge("t5", Self.daysAgo(100), 75.25, unit: "199")
        #expect(yardi.sync().first?.error == nil)

        let rows = try yardi.keyed(Self.delinquency)
        #expect(rows.keys.sorted() == ["t2", "t3", "t5"])
        #expect(rows["t2"] == [.text("102"), .text("Kim, Bo"), .text("notice"), .real(-250),
                               .real(0), .real(0), .real(0), .real(0), .real(250)])
        #expect(rows["t3"] == [.text("103"), .text("Ng, Cy"), .text("former"), .real(600),
                               .real(0), .real(600), .real(0), .real(0), .real(0)])
        #expect(rows["t5"] == [.text("199"), .null, .null, .real(75.25), .real(0), .real(0), .real(0), .real(75.25), .real(0)])
        let source = try yardi.rows("SELECT DISTINCT source, run_id FROM unified_delinquency")
        #expect(source == [[.text(YardiDelinquency.source), .text("20261120T000000Z-test")]])
    }

    @Test func aHouseholdListedUnderEvictionIsMarkedSoInTheDelinquency() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.resident("t1", "Eviction", unit: "101")
        try yardi.resident("t2", "Current", unit: "102")
        try yardi.charge("t1", Self.daysAgo(70), 1200, unit: "101")
        try yardi.charge("t2", Self.daysAgo(10), 80, unit: "102")
        // Not in GetResidentsByStatus: nothing said either way.
        try yardi.charge("t3", Self.daysAgo(100), 75.25, unit: "199")
        #expect(yardi.sync().first?.error == nil)
        #expect(try yardi.rows("""
            SELECT resident_id, resident_status, under_eviction FROM unified_delinquency ORDER BY resident_id
            """) == [[.text("t1"), .text("current"), .integer(1)], [.text("t2"), .text("current"), .integer(0)],
                     [.text("t3"), .null, .null]])
    }

    @Test func aLedgerWhoseOpenChargesDoNotAddUpIsWarnedAbout() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.resident("t1", "Current", unit: "101")
        try yardi.charge("t1", Self.daysAgo(5), 100, paid: 0, due: 50)
        try yardi.charge("t1", Self.daysAgo(5), 20, paid: 20, due: 0.01)  // within the cent tolerance
        try yardi.resident("t2", "Current", unit: "102")
        try yardi.charge("t2", Self.daysAgo(5), 20, paid: 20, due: 0.01)
        let outcome = try #require(yardi.sync().first)
        let ledger = outcome.warnings.filter { $0.check == "ledger_balance" }
        #expect(ledger.map(\.subject) == ["t1"])
        #expect(ledger.first?.message.contains("charges total 120.00 but AmountPaid 20.00 + BalanceDue 50.01 = 70.01") == true)
        #expect(try yardi.rows("SELECT subject FROM unified_sync_warnings WHERE check_name = 'ledger_balance'")
                    .map { $0[0].textValue } == ["t1"])
    }
}
