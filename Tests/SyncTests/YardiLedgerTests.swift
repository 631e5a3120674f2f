import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// The tenant ledger synced from Yardi (GetResidentTransactions_Login, GetResidentLeaseCharges_Login) against the
/// simulator's truth, and the charge categories.
@Suite struct YardiLedgerTests {
    @Test func everyHouseholdsMonthlyChargesPaymentsAndBalanceMatchTheSimulatorToTheCent() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let store = try UnifiedStore(dataDirectory: data)
        let properties = portfolio.properties.filter { $0.pms == .yardi }
        try #require(!properties.isEmpty)
        let outcomes = Synchronizer(store: store, runID: "ledger").sync(properties, log: Diagnostics(sink: { _ in }))
        #expect(outcomes.allSatisfy { $0.error == nil && $0.warnings.isEmpty }, "\(outcomes.map { ($0.error, $0.warnings.map(\.message)) })")
        let database = store.database
        for property in properties {
            let key: [String: SQLValue] = [":p": .text(property.key)]
            #expect(try database.scalar("SELECT ledger_source FROM unified_properties WHERE unified_property_id = :p", key)?
                        .textValue == YardiLedger.source)
            let ledger = try #require(try portfolio.truth(property.key)["ledger"] as? [String: [String: Any]],
                                      "truth.json has no ledger for \(property.key)")
            // tenant code -> period -> (charges, payments) in cents, from unified.db.
            var charged: [String: [String: Int64]] = [:], paid: [String: [String: Int64]] = [:]
            for row in try database.query("""
                SELECT resident_id, period, CAST(round(sum(amount) * 100) AS INTEGER) FROM unified_charges
                WHERE unified_property_id = :p GROUP BY 1, 2
                """, key) {
                charged[row[0].textValue ?? "", default: [:]][row[1].textValue ?? ""] = row[2].integerValue
            }
            for row in try database.query("""
                SELECT resident_id, period, CAST(round(sum(amount) * 100) AS INTEGER) FROM unified_payments
                WHERE unified_property_id = :p GROUP BY 1, 2
                """, key) {
                paid[row[0].textValue ?? "", default: [:]][row[1].textValue ?? ""] = row[2].integerValue
            }
            var households = 0
            for (_, entry) in ledger {
                guard let tenant = entry["tenant_code"] as? String, let months = entry["months"] as? [[Any]] else { continue }
                households += 1
                for month in months {
                    guard let period = month[0] as? String else { continue }
                    let charges = (month[1] as? NSNumber)?.int64Value ?? 0
                    let payments = (month[2] as? NSNumber)?.int64Value ?? 0
                    #expect((charged[tenant]?[period] ?? 0) == charges, "\(property.key) \(tenant) \(period) charges")
                    #expect((paid[tenant]?[period] ?? 0) == payments, "\(property.key) \(tenant) \(period) payments")
                }
                let balance = (entry["balance_cents"] as? NSNumber)?.int64Value ?? 0
                let synced = (charged[tenant]?.values.reduce(0, +) ?? 0) - (paid[tenant]?.values.reduce(0, +) ?? 0)
                #expect(synced == balance, "\(property.key) \(tenant) balance")
            }
            #expect(households > 20, "\(property.key): the truth's ledger is too small to prove anything")
            // Every code the simulator posts has a category; the schedule (GetResidentLeaseCharges_Login asks for the
            // leases in effect on the first of the month) covers every current lease that began by then.
            #expect(try database.scalar("SELECT count(*) FROM unified_charges WHERE unified_property_id = :p AND category_known = 0", key)?.integerValue == 0)
            #expect(try database.scalar("""
                SELECT count(*) FROM unified_leases l WHERE l.unified_property_id = :p AND l.status = 'current'
                  AND l.start_date <= date(:as_of, 'start of month')
                  AND NOT EXISTS (SELECT 1 FROM unified_recurring_charges r
                                  WHERE r.unified_property_id = l.unified_property_id AND r.lease_id = l.lease_id
                                    AND r.category = 'RENT')
                """, key.merging([":as_of": .text(SimulatedPortfolio.asOf)]) { $1 })?.integerValue == 0,
                    "\(property.key): a current lease without a recurring rent charge")
        }
    }

    @Test func categoriesComeFromTheRegistryOverTheDefaultsAndUnknownCodesAreListed() throws {
        let categories = try ChargeCategories(overrides: ["UTILITIES": ["parking"], "fees": ["KEYFEE"]])
        #expect(categories.category(of: "rent") == .rent)
        #expect(categories.category(of: "Water") == .utilities)
        #expect(categories.category(of: "LATEFEE") == .fees)
        #expect(categories.category(of: "PARKING") == .utilities, "the registry wins over the defaults")
        #expect(categories.category(of: "keyfee") == .fees)
        #expect(categories.category(of: "BOATSLIP") == nil)
        #expect(throws: ConfigurationError.self) { try ChargeCategories(overrides: ["SNACKS": ["X"]]) }
        #expect(throws: ConfigurationError.self) { try ChargeCategories(overrides: ["RENT": ["X"], "FEES": ["x"]]) }

        let yardi = try YardiFixture()
        try YardiSyncTests.smallProperty(yardi)
        try yardi.insert("yardi_transactions", ["kind": .text("charge"), "transaction_id": .text("c-boat"),
                                                "tenant_code": .text("t1"), "charge_code": .text("boatslip"),
                                                "transaction_date": .text("2026-11-01"), "amount": .real(40),
                                                "amount_paid": .real(0), "balance_due": .real(40)])
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil)
        let warning = outcome.warnings.first { $0.check == "charge_category" }
        #expect(warning?.subject == "boatslip")
        #expect(warning?.message == "charge code 'boatslip' (1 ledger row) is in no charge_categories list of "
                    + "report_definitions.json: counted as OTHER")
        #expect(try yardi.rows("SELECT category FROM unified_charges WHERE charge_id = 'c-boat'") == [[.text("OTHER")]])
    }
}
