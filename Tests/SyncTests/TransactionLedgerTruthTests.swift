import Foundation
import Ledger
import OwnerDashCore
import RawStore
import SQLiteKit
@testable import Sync
import Testing

/// The ledger read from Transaction Detail by Code, held against the simulator's own ledger at the site whose RPX
/// license refuses getresidentledger (ridian). The simulator prints no 4028 (its report key has never been seen, so
/// `fetch` cannot ask for it); the Detail rows are written here from the truth's ledger, one fiscal period per month
/// of the window, one snapshot each: every household's month charges as one RENT charge on the 1st and its month
/// payments as one payment on the 15th, under the unit and name the RPX roster gives it. What is tested is what the
/// rules add: the household matching, the balance forward (none may be needed: the Delinquent and Prepaid report of
/// the property date must equal the postings), and amount paid / balance laid oldest-paid-first as the simulator
/// allocates them.
@Suite struct TransactionLedgerTruthTests {
    static let site = LedgerTruthTests.deniedSite

    @Test func theDeniedSitesLedgerFromTheReportMatchesTheSimulatorsLedger() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let property = try #require(portfolio.properties.first { $0.key == Self.site })
        let store = try UnifiedStore(dataDirectory: data)
        let synchronizer = Synchronizer(store: store, runID: "truth-4028", chargeCategories: portfolio.configuration.chargeCategories)
        // A first sync gives the roster the report's rows are named after.
        _ = synchronizer.sync([property], log: Diagnostics(sink: { _ in }))
        var roster: [String: (unit: String, name: String)] = [:]
        for row in try store.database.query("""
            SELECT resident_id, unit_number, first_name, last_name FROM unified_residents WHERE unified_property_id = :p
            """, [":p": .text(Self.site)]) {
            guard let id = row[0].textValue, let unit = row[1].textValue else { continue }
            roster[id] = (unit, "\(row[2].textValue ?? "")  \(row[3].textValue ?? "")")
        }

        let ledger = try #require(try portfolio.truth(Self.site)["ledger"] as? [String: [String: Any]])
        let raw = try RealPageRawStore(path: data.realpageRawDatabase)
        let insert = try raw.database.prepare("""
            INSERT INTO realpage_transaction_detail (
                lineage_id, property_id, as_of_date, source_row, unit_number, resident_name,
                description, transaction_code, ledger_date, accounting_date, fiscal_period, amount, debit_amount, source)
            VALUES (:lineage, :property, :as_of, :row, :unit, :name, :description, :code, :date, :date,
                    :fiscal, :amount, :amount, :source)
            """)
        var row: [String: Int64] = [:]
        var households = 0
        for (id, entry) in ledger {
            guard let (unit, name) = roster[id], let months = entry["months"] as? [[Any]] else { continue }
            households += 1
            for month in months {
                guard let period = month[0] as? String else { continue }
                let charges = (month[1] as? NSNumber)?.int64Value ?? 0, payments = (month[2] as? NSNumber)?.int64Value ?? 0
                // Each month its own snapshot, dated its last day (the current month: the property date).
                let first = try #require(LocalDate(iso: period + "-01"))
                let next = try #require(LocalDate(year: first.year + first.month / 12, month: first.month % 12 + 1, day: 1))
                let last = next.adding(days: -1).iso
                let asOf = min(last, SimulatedPortfolio.asOf)
                let fiscal = String(period.suffix(2)) + String(period.prefix(4))
                for (cents, code, day, source) in [(charges, "C-CA-RENT", "01", "A = Scheduled billing"),
                                                   (payments, "P-PZ-PMTOPACH", "15", "Z = RealPage Payments")] where cents != 0 {
                    row[asOf, default: 0] += 1
                    let lineage = try RawLineage.id(raw.database, runID: "truth", propertyID: Self.site, asOf: asOf,
                                                    artifact: "truth", sha256: "truth")
                    try insert.execute([
                        ":lineage": .integer(lineage), ":property": .text(Self.site), ":as_of": .text(asOf), ":row": .integer(row[asOf] ?? 0),
                        ":unit": .text(unit), ":name": .text(name), ":description": .text(code), ":code": .text(code),
                        ":date": .text(min("\(period)-\(day)", asOf)), ":fiscal": .text(fiscal),
                        ":amount": .real(Double(cents) / 100), ":source": .text(source),
                    ])
                }
            }
        }
        #expect(households > 50, "households written (too few proves nothing)")

        let outcome = try #require(synchronizer.sync([property], log: Diagnostics(sink: { _ in })).first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        let database = store.database
        let key: [String: SQLValue] = [":p": .text(Self.site)]
        #expect(try database.scalar("SELECT ledger_source FROM unified_properties WHERE unified_property_id = :p", key)?
                    .textValue == RealPageTransactionLedger.source)
        #expect(try database.scalar("""
            SELECT count(*) FROM unified_charges WHERE unified_property_id = :p AND charge_id NOT LIKE 'tdc:%'
            """, key) == .integer(0), "no balance forward: the Delinquent and Prepaid report equals the postings")
        #expect(try database.scalar("""
            SELECT count(*) FROM unified_charges WHERE unified_property_id = :p AND resident_id LIKE '%/%'
            """, key) == .integer(0), "every row found its household on the roster")

        // Debtors: every household the truth has owing, to the cent.
        var owing: [String: Int64] = [:]
        for (id, entry) in ledger where roster[id] != nil {
            let balance = (entry["balance_cents"] as? NSNumber)?.int64Value ?? 0
            if balance > 0 { owing[id] = balance }
        }
        let debtors = try Debtors.run(database: database, properties: [Self.site], asOf: nil, minDebt: nil)
        #expect(debtors.partialLedger.isEmpty)
        #expect(Dictionary(debtors.people.flatMap(\.units).map { ($0.residentID, $0.balanceCents) }, uniquingKeysWith: +) == owing)
        #expect(owing.count > 10)

        // Open per charge, oldest paid first: the household's balance lies on its newest months, each taking what is
        // left up to its charges; a month whose running balance at its end was not positive is paid up.
        var checked = 0, open = 0
        for (id, entry) in ledger where roster[id] != nil {
            guard let months = entry["months"] as? [[Any]] else { continue }
            let rows = try database.query("""
                SELECT period, CAST(round(sum(balance) * 100) AS INTEGER) FROM unified_charges
                WHERE unified_property_id = :p AND resident_id = :r GROUP BY period
                """, key.merging([":r": .text(id)]) { $1 })
            let openByPeriod = Dictionary(rows.map { ($0[0].textValue ?? "", $0[1].integerValue ?? 0) }) { first, _ in first }
            var remaining = max(0, (entry["balance_cents"] as? NSNumber)?.int64Value ?? 0)
            for month in months.sorted(by: { ($0[0] as? String ?? "") > ($1[0] as? String ?? "") }) {
                guard let period = month[0] as? String else { continue }
                let charges = (month[1] as? NSNumber)?.int64Value ?? 0
                let expected = charges > 0 ? min(charges, remaining) : 0
                remaining -= expected
                let left = openByPeriod[period] ?? 0
                #expect(left == expected, "\(id) \(period): open \(left), expected \(expected)")
                if ((month[3] as? NSNumber)?.int64Value ?? 0) <= 0 {
                    #expect(left == 0, "\(id) \(period): paid up at its end, still open \(left)")
                }
                checked += 1
                if left > 0 { open += 1 }
            }
        }
        #expect(checked > 500 && open > 10, "months checked \(checked), open \(open)")
    }
}
