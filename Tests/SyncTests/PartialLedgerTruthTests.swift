import Foundation
import Ledger
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// The partial ledger of the simulated site whose RPX license refuses the ledger (ridian), built from its Delinquent
/// and Prepaid and Rent Roll reports, held against the simulator's truth: the balances per household and code, the
/// debtors (counts exact, money to the cent) and the rental tracker's months behind (the aging buckets holding rent).
@Suite struct PartialLedgerTruthTests {
    static let site = LedgerTruthTests.deniedSite

    /// Cents of a truth money value (dollars, two decimals).
    static func cents(_ value: Any?) -> Int64 {
        Int64((((value as? NSNumber)?.doubleValue ?? 0) * 100).rounded())
    }

    @Test func theDeniedSitesBalancesDebtorsAndRentalTrackerMatchTheSimulator() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let store = try UnifiedStore(dataDirectory: data)
        let property = try #require(portfolio.properties.first { $0.key == Self.site })
        let outcomes = Synchronizer(store: store, runID: "partial", chargeCategories: portfolio.configuration.chargeCategories)
            .sync([property], log: Diagnostics(sink: { _ in }))
        #expect(outcomes.allSatisfy { $0.error == nil }, "\(outcomes.compactMap(\.error))")
        #expect(outcomes.first?.warnings.filter { $0.check == "charge_category" }.isEmpty == true, "every code has a category")
        let database = store.database
        let key: [String: SQLValue] = [":p": .text(Self.site)]

        // Marked partial where an analyst looks, and no posting invented.
        let marks = try #require(try database.query("""
            SELECT ledger_source, ledger_coverage, ledger_note FROM unified_properties WHERE unified_property_id = :p
            """, key).first)
        #expect(marks[0].textValue == "realpage_onesite_reports")
        #expect(marks[1].textValue == "partial")
        #expect(marks[2].textValue?.contains("no posted charges or payments") == true)
        #expect(try database.scalar("SELECT count(*) FROM unified_charges WHERE unified_property_id = :p", key) == .integer(0))
        #expect(try database.scalar("SELECT count(*) FROM unified_payments WHERE unified_property_id = :p", key) == .integer(0))

        // The schedule from the Rent Roll: every current lease that began by the first of the month bills rent, under
        // its own lease id, and the unit's rent is what the truth says the lease bills.
        #expect(try SimulatedPortfolio.currentLeasesWithoutRent(database, property: Self.site) == 0)
        #expect(try database.scalar("""
            SELECT count(*) FROM unified_recurring_charges WHERE unified_property_id = :p AND lease_id LIKE 'rent-roll:%'
            """, key)?.integerValue == 0, "every schedule line found its RPX lease")
        let truth = try portfolio.truth(Self.site)
        var rentChecked = 0
        for unit in try #require(truth["units"] as? [[String: Any]]) {
            guard let lease = unit["lease_id"] as? NSNumber, let rent = unit["lease_rent"] else { continue }
            let scheduled = try database.scalar("""
                SELECT CAST(round(sum(amount) * 100) AS INTEGER) FROM unified_recurring_charges
                WHERE unified_property_id = :p AND lease_id = :lease AND charge_code = 'RENT'
                """, key.merging([":lease": .text(lease.stringValue)]) { $1 })?.integerValue
            #expect(scheduled == Self.cents(rent), "lease \(lease): scheduled rent")
            rentChecked += 1
        }
        #expect(rentChecked > 50)

        // Balances per household and code: the truth's aging per code, to the cent.
        let residents = try #require((truth["delinquency"] as? [String: Any])?["residents"] as? [[String: Any]])
        var expectedRows: [String: [Int64]] = [:]
        for resident in residents {
            guard let id = (resident["resident_id"] as? NSNumber)?.stringValue,
                  let byCode = resident["aging_by_code"] as? [String: [String: Any]] else { continue }
            for (code, aging) in byCode {
                expectedRows["\(id)/\(code)"] = ["balance_0_30", "balance_31_60", "balance_61_90", "balance_over_90", "prepaid"]
                    .map { Self.cents(aging[$0]) }
            }
        }
        var syncedRows: [String: [Int64]] = [:]
        for row in try database.query("""
            SELECT resident_id || '/' || charge_code, CAST(round(balance_0_30 * 100) AS INTEGER),
                   CAST(round(balance_31_60 * 100) AS INTEGER), CAST(round(balance_61_90 * 100) AS INTEGER),
                   CAST(round(balance_over_90 * 100) AS INTEGER), CAST(round(prepaid * 100) AS INTEGER)
            FROM unified_ledger_balances WHERE unified_property_id = :p
            """, key) {
            syncedRows[row[0].textValue ?? ""] = (1...5).map { row[$0].integerValue ?? 0 }
        }
        #expect(!expectedRows.isEmpty)
        #expect(syncedRows == expectedRows, "balances per household and code")

        // Debtors: every household the truth's ledger has owing, with its balance to the cent; months are buckets.
        let ledger = try #require(truth["ledger"] as? [String: [String: Any]])
        var owing: [String: Int64] = [:]
        for (id, entry) in ledger {
            let balance = (entry["balance_cents"] as? NSNumber)?.int64Value ?? 0
            if balance > 0 { owing[id] = balance }
        }
        let debtors = try Debtors.run(database: database, properties: [Self.site], asOf: nil, minDebt: nil)
        #expect(debtors.partialLedger == [Self.site] && debtors.noLedger.isEmpty)
        let units = debtors.people.flatMap(\.units)
        #expect(Dictionary(units.map { ($0.residentID, $0.balanceCents) }, uniquingKeysWith: +) == owing)
        #expect(units.count == owing.count && owing.count > 10, "debtor count (too few proves nothing)")
        #expect(debtors.totalCents == owing.values.reduce(0, +), "total to the cent")
        #expect(units.allSatisfy { unit in
            unit.months.reduce(0) { $0 + $1.amountCents } == unit.balanceCents
                && unit.months.allSatisfy { PartialLedger.buckets.contains($0.period) && $0.dueDate == nil }
        }, "month shares are aging buckets adding up to each debt")
        #expect(debtors.asOf[Self.site] == SimulatedPortfolio.asOf)

        // Rental tracker: behind = a positive RENT aging bucket; months behind = how many such buckets.
        let categories = portfolio.configuration.chargeCategories
        var behind: [String: Int] = [:]
        for resident in residents {
            guard let id = (resident["resident_id"] as? NSNumber)?.stringValue, let balance = owing[id],
                  let byCode = resident["aging_by_code"] as? [String: [String: Any]] else { continue }
            let rentBuckets = ["balance_0_30", "balance_31_60", "balance_61_90", "balance_over_90"].map { bucket in
                byCode.filter { categories.category(of: $0.key) == .rent }.values.reduce(Int64(0)) { $0 + Self.cents($1[bucket]) }
            }
            let months = rentBuckets.filter { $0 > 0 }.count
            if months > 0, balance > 0 { behind[id] = months }
        }
        let tracker = try RentalTracker.run(database: database, properties: [Self.site], asOf: nil, minBalance: nil,
                                            minMonthsBehind: 1, sort: .balance)
        #expect(tracker.partialLedger == [Self.site] && tracker.noLedger.isEmpty)
        #expect(Dictionary(tracker.residents.map { ($0.residentID, $0.monthsMissing.count) }, uniquingKeysWith: +) == behind)
        #expect(behind.count > 5, "the site has residents behind on rent")
        for resident in tracker.residents {
            #expect(resident.balanceCents == owing[resident.residentID], "\(resident.residentID) balance")
            #expect(resident.paid.isEmpty, "no payment is known")
            #expect(resident.owed.reduce(0) { $0 + $1.amountCents } >= resident.balanceCents)
        }
        #expect(tracker.residents.map(\.balanceCents) == tracker.residents.map(\.balanceCents).sorted(by: >))
        let twoBehind = try RentalTracker.run(database: database, properties: [Self.site], asOf: nil, minBalance: nil,
                                              minMonthsBehind: 2, sort: .balance)
        #expect(twoBehind.residents.count == behind.values.filter { $0 >= 2 }.count)

        // Lease status: only the balances' month has cells; its rent owed is the truth's RENT 0-30 bucket, at most billed.
        let grid = try LeasePaymentStatusReport.run(database: database, properties: [Self.site], start: "2026-09",
                                                    months: 3, asOf: nil, includeInactive: true)
        #expect(grid.partialLedger == [Self.site: "2026-11"])
        #expect(grid.lines.count > 50)
        #expect(grid.lines.allSatisfy { $0.rent.keys.allSatisfy { $0 == "2026-11" } && $0.utilities.keys.allSatisfy { $0 == "2026-11" } })
        let rentNow = Dictionary(residents.compactMap { resident -> (String, Int64)? in
            guard let id = (resident["resident_id"] as? NSNumber)?.stringValue,
                  let byCode = resident["aging_by_code"] as? [String: [String: Any]] else { return nil }
            return (id, byCode.filter { categories.category(of: $0.key) == .rent }.values.reduce(0) { $0 + Self.cents($1["balance_0_30"]) })
        }, uniquingKeysWith: +)
        var overdue = 0
        for line in grid.lines {
            guard let cell = line.rent["2026-11"] else { continue }
            // A household in credit prints its credit in RENT's Current column (net of it, as the real report): owes nothing.
            #expect(cell.balanceCents == max(0, min(cell.billedCents, rentNow[line.residentID] ?? 0)),
                    "\(line.residentID) rent owed")
            #expect(cell.status == (cell.balanceCents > 0 ? .overdue : .paid))
            if cell.status == .overdue { overdue += 1 }
        }
        #expect(overdue > 0)
    }
}
