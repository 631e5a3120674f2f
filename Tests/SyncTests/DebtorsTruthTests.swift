import Foundation
import Ledger
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// The debtors report on the synced simulated portfolio, held against the simulator's ledger truth: every household
/// with a positive balance appears, with its balance to the cent; totals are exact; the people the simulator made
/// rent two units (multi_unit_persons) are one debtor.
@Suite struct DebtorsTruthTests {
    @Test func everyHouseholdOwingAppearsWithItsBalanceToTheCentAndTwoUnitPeopleAreOne() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let store = try UnifiedStore(dataDirectory: data)
        let outcomes = Synchronizer(store: store, runID: "debtors").sync(portfolio.properties, log: Diagnostics(sink: { _ in }))
        #expect(outcomes.allSatisfy { $0.error == nil }, "\(outcomes.compactMap(\.error))")
        let keys = portfolio.properties.map(\.key)
        let report = try Debtors.run(database: store.database, properties: keys, asOf: nil, minDebt: nil)
        // On each property's own date the report reads the balances the sync summed (unified_household_balances);
        // summing the postings instead, as it does for any other date, gives the same debtors.
        #expect(try store.database.scalar("SELECT count(*) FROM unified_household_balances")?.integerValue ?? 0 > 1_000)
        let summedFromPostings = try Debtors.run(database: store.database, properties: keys, asOf: nil, minDebt: nil,
                                                 syncedBalances: false)
        #expect(summedFromPostings.people == report.people, "the sync's balances and the postings agree")

        var ledgers = 0
        var joinedByPMS: [PMS: Int] = [:]
        for key in keys {
            let truth = try portfolio.truth(key)
            let hasLedger = try store.database.scalar("SELECT ledger_source FROM unified_properties WHERE unified_property_id = :p",
                                                      [":p": .text(key)])?.textValue != nil
            guard hasLedger else {
                #expect(report.noLedger.contains(key), "\(key): no ledger, so named")
                continue
            }
            ledgers += 1
            let ledger = try #require(truth["ledger"] as? [String: [String: Any]], "truth.json has no ledger for \(key)")
            // household id as unified.db names it (Yardi tenant code, RealPage ReshID) -> balance in cents, of those owing.
            let pms = portfolio.properties.first { $0.key == key }?.pms
            var expected: [String: Int64] = [:]
            for (truthKey, entry) in ledger {
                guard let code = pms == .yardi ? entry["tenant_code"] as? String : truthKey,
                      let balance = (entry["balance_cents"] as? NSNumber)?.int64Value, balance > 0 else { continue }
                expected[code] = balance
            }
            let units = report.people.flatMap(\.units).filter { $0.property == key }
            var listed: [String: Int64] = [:]
            for unit in units { listed[unit.residentID] = unit.balanceCents }
            #expect(listed == expected, "\(key): the households owing and their balances")
            #expect(units.reduce(0) { $0 + $1.balanceCents } == expected.values.reduce(0, +), "\(key): total to the cent")
            #expect(units.allSatisfy { $0.months.reduce(0) { $0 + $1.amountCents } == $0.balanceCents },
                    "\(key): the month shares add up to each debt")
            #expect(expected.count > 10, "\(key): too few debtors to prove anything")

            // One person per multi-unit pair: where both households owe, one debtor holds both units (joined by the
            // e-mail: Yardi's GetResidentsByStatus `Email`, RealPage's getresidentlistinfo `email`).
            let pairs = try #require(truth["multi_unit_persons"] as? [[String: Any]], "truth.json has no multi_unit_persons for \(key)")
            #expect(!pairs.isEmpty)
            for pair in pairs {
                let codes = try #require(pair[pms == .yardi ? "tenant_codes" : "resident_ids"] as? [String])
                guard codes.allSatisfy({ expected[$0] != nil }) else { continue }
                let holders = report.people.filter { person in person.units.contains { $0.property == key && codes.contains($0.residentID) } }
                #expect(holders.count == 1, "\(key): \(codes) are one person")
                #expect(holders.first?.email == pair["email"] as? String)
                #expect(holders.first?.totalCents == codes.reduce(0) { $0 + (expected[$1] ?? 0) })
                if let pms { joinedByPMS[pms, default: 0] += 1 }
            }
        }
        #expect(ledgers >= 2, "the Yardi properties have a ledger")
        #expect(joinedByPMS[.yardi, default: 0] >= 2 && joinedByPMS[.realpage, default: 0] >= 2,
                "some simulated people owe on two units, on both PMSs: \(joinedByPMS)")
        #expect(report.totalCents == report.people.flatMap(\.units).reduce(0) { $0 + $1.balanceCents })
        #expect(zip(report.people, report.people.dropFirst()).allSatisfy { $0.totalCents >= $1.totalCents }, "largest first")
    }

    /// notices_sent is history: a re-sync replaces the property's rows and leaves every notice record in place.
    @Test func aResyncKeepsTheNoticesSent() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let store = try UnifiedStore(dataDirectory: data)
        let yardi = portfolio.properties.filter { $0.pms == .yardi }
        _ = Synchronizer(store: store, runID: "first").sync(yardi, log: Diagnostics(sink: { _ in }))
        try store.database.execute("""
            INSERT INTO notices_sent (debtor_key, properties, resident_ids, total, content_hash, channel, destination,
                                      sent_at, attempts)
            VALUES ('email:a@example.com', '\(yardi[0].key)', '\(yardi[0].key)/t1', 10, 'abc', 'webhook', 'http://x', '2026-11-20T00:00:00Z', 1)
            """)
        let again = Synchronizer(store: store, runID: "second").sync(yardi, log: Diagnostics(sink: { _ in }))
        #expect(again.allSatisfy { $0.error == nil })
        #expect(try store.database.scalar("SELECT count(*) FROM notices_sent")?.integerValue == 1)
    }
}
