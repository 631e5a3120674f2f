import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// The partial ledger of a RealPage site without RPX getresidentledger: balances per household and code from the
/// Delinquent and Prepaid report, the schedule from the Rent Roll's transaction codes, the property marked partial.
@Suite struct RealPagePartialLedgerTests {
    /// Two households on RPX leases, their Rent Roll codes and their Delinquent and Prepaid accounts.
    static func site() throws -> RealPageFixture {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.unit("102", .occupied)
        try realpage.resident(household: "H1", unit: "101", status: "Current", lease: "L1", first: "Ann", last: "Lee",
                              moveIn: "2025-03-01")
        try realpage.resident(household: "H2", unit: "102", status: "Current", lease: "L2", first: "Ken", last: "Ito",
                              moveIn: "2026-02-01")
        try realpage.lease("L1", household: "H1", unit: "101", begin: "2026-03-01", end: "2027-02-28", rent: 1400)
        try realpage.lease("L2", household: "H2", unit: "102", begin: "2026-02-01", end: "2027-01-31", rent: 1500)
        // Rent Roll units (sheet rows 1 and 2) and the codes of their current leases.
        for (unit, start) in [("101", "2026-03-01"), ("102", "2026-02-01")] {
            try realpage.insert("realpage_rent_roll", ["unit_number": .text(unit), "status": .text("Occupied"),
                                                       "lease_start": .text(start), "lease_end": .text("2027-01-31")])
        }
        for (unit, row, code, rent, other) in [("101", 1, "RENT", 1400.0, nil), ("101", 1, "WATER", nil, 40.0),
                                               ("101", 1, "ZAPCODE", nil, 5.0), ("102", 2, "RENT", 1500.0, nil)] as [(String, Int, String, Double?, Double?)] {
            try realpage.insert("realpage_rent_roll_charges", [
                "unit_number": .text(unit), "unit_row": .integer(Int64(row)), "code": .text(code),
                "lease_rent": SQLValue(rent), "other_charges": SQLValue(other), "amount": .real((rent ?? 0) + (other ?? 0)),
            ])
        }
        // Accounts (sheet rows 1, 2) and their codes: H1 owes rent in two buckets and water; H2 prepaid.
        try realpage.delinquency("101", residentID: "H1", name: "Lee, Ann", balance: 1540, aging: [140, 1400, 0, 0])
        try realpage.delinquency("102", residentID: "H2", name: "Ito, Ken", balance: -50, prepaid: 50)
        for (account, code, delinquent, aging, prepaid) in [
            (1, "RENT", 1500.0, [100.0, 1400, 0, 0], 0.0), (1, "WATER", 40, [40, 0, 0, 0], 0), (2, "RENT", 0, [0, 0, 0, 0], -50),
        ] {
            try realpage.insert("realpage_delinquency_codes", [
                "unit_number": .text(account == 1 ? "101" : "102"), "resident_id": .text(account == 1 ? "H1" : "H2"),
                "account_row": .integer(Int64(account)), "code": .text(code), "prepaid": .real(prepaid),
                "delinquent": .real(delinquent), "balance_0_30": .real(aging[0]), "balance_31_60": .real(aging[1]),
                "balance_61_90": .real(aging[2]), "balance_over_90": .real(aging[3]),
            ])
        }
        return realpage
    }

    @Test func withoutTheRPXLedgerBalancesAndScheduleComeFromTheReportsAndThePropertyIsMarkedPartial() throws {
        let realpage = try Self.site()
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        #expect(outcome.rows["unified_ledger_balances"] == 3)
        #expect(outcome.warnings.filter { $0.check == "charge_category" }.map(\.subject) == ["ZAPCODE"],
                "an unknown code is listed, not dropped")

        let property = try realpage.rows("SELECT ledger_source, ledger_coverage, ledger_note FROM unified_properties").first
        #expect(property?[0] == .text("realpage_onesite_reports"))
        #expect(property?[1] == .text("partial"))
        #expect(property?[2].textValue?.hasPrefix("partial: balances and aging") == true)
        #expect(try realpage.rows("SELECT count(*) FROM unified_charges UNION ALL SELECT count(*) FROM unified_payments")
                    == [[.integer(0)], [.integer(0)]], "no posting invented")

        let balances = try realpage.keyed("""
            SELECT resident_id || '/' || charge_code, category, balance, delinquent, balance_0_30, balance_31_60,
                   balance_61_90, balance_over_90, prepaid, as_of_date
            FROM unified_ledger_balances
            """)
        #expect(balances["H1/RENT"] == [.text("RENT"), .real(1500), .real(1500), .real(100), .real(1400), .real(0), .real(0),
                                        .real(0), .text(RealPageFixture.asOf)])
        #expect(balances["H1/WATER"]?[0...2] == [.text("UTILITIES"), .real(40), .real(40)])
        #expect(balances["H2/RENT"]?[1...2] == [.real(-50), .real(0)], "prepaid: a credit")
        #expect(balances["H2/RENT"]?[7] == .real(50))

        let schedule = try realpage.keyed("""
            SELECT lease_id || '/' || charge_code, resident_id, unit_number, category, category_known, amount, start_date,
                   end_date
            FROM unified_recurring_charges
            """)
        #expect(schedule.keys.sorted() == ["L1/RENT", "L1/WATER", "L1/ZAPCODE", "L2/RENT"])
        #expect(schedule["L1/RENT"] == [.text("H1"), .text("101"), .text("RENT"), .integer(1), .real(1400),
                                        .text("2026-03-01"), .text("2027-01-31")])
        #expect(schedule["L1/WATER"]?[2...4] == [.text("UTILITIES"), .integer(1), .real(40)])
        #expect(schedule["L1/ZAPCODE"]?[2...3] == [.text("OTHER"), .integer(0)])
        #expect(schedule["L2/RENT"]?[0...1] == [.text("H2"), .text("102")])

        // A re-sync gives the same rows.
        _ = realpage.sync()
        #expect(try realpage.rows("SELECT count(*) FROM unified_ledger_balances") == [[.integer(3)]])
        #expect(try realpage.rows("SELECT count(*) FROM unified_recurring_charges") == [[.integer(4)]])
    }

    @Test func aSiteWithTheRPXLedgerKeepsItAndGetsNoReportBalances() throws {
        let realpage = try Self.site()
        try realpage.loaded("getresidentledger")
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil)
        #expect(outcome.rows["unified_ledger_balances"] == nil)
        #expect(try realpage.rows("SELECT ledger_source, ledger_coverage, ledger_note FROM unified_properties")
                    == [[.text(RealPageLedger.source), .text("full"), .null]])
        #expect(try realpage.rows("SELECT count(*) FROM unified_ledger_balances") == [[.integer(0)]])
        #expect(try realpage.rows("SELECT count(*) FROM unified_recurring_charges") == [[.integer(0)]],
                "the schedule is getscheduledcharges' (none loaded here), not the Rent Roll's")
    }

    @Test func aSiteWithNeitherTheLedgerNorTheReportsHasNoLedger() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        _ = realpage.sync()
        #expect(try realpage.rows("SELECT ledger_source, ledger_coverage FROM unified_properties") == [[.null, .null]])
    }
}
