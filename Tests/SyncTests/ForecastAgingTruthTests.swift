import Forecast
import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// The forecast's label on the synced simulated portfolio: what it calls "owed more than 30 days" on a property's
/// date is, household by household and to the cent, what the delinquency aging (unified_delinquency's 31-60, 61-90
/// and over-90 buckets, which the sync builds from each PMS's own aging rules) says on that date.
@Suite struct ForecastAgingTruthTests {
    @Test func theLabelsOver30DollarsAreTheAgingsOver30Buckets() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let store = try UnifiedStore(dataDirectory: data)
        let outcomes = Synchronizer(store: store, runID: "forecast").sync(portfolio.properties, log: Diagnostics(sink: { _ in }))
        #expect(outcomes.allSatisfy { $0.error == nil }, "\(outcomes.compactMap(\.error))")
        var compared = 0
        var behind = 0
        for key in portfolio.properties.map(\.key) {
            let ledgers: PropertyLedgers
            do {
                ledgers = try PropertyLedgers.read(database: store.database, property: key)
            } catch let error as ForecastError {
                // Only a property without a tenant ledger may be refused, and the error names it.
                #expect(error.description.contains("property \(key) has no tenant ledger"))
                continue
            }
            // A partial ledger (balances, no postings) has nothing to age here.
            guard !ledgers.households.isEmpty else { continue }
            var aging: [String: Int64] = [:]
            for row in try store.database.query("""
                SELECT d.resident_id,
                       CAST(round((d.balance_31_60 + d.balance_61_90 + d.balance_over_90) * 100) AS INTEGER) AS over_30
                FROM unified_delinquency d JOIN unified_properties p USING (unified_property_id)
                WHERE d.unified_property_id = :property AND d.as_of_date = p.as_of_date
                """, [":property": .text(key)]) {
                if let resident = row[0].textValue, let cents = row[1].integerValue, cents > 0 { aging[resident] = cents }
            }
            var labelled: [String: Int64] = [:]
            for household in ledgers.households {
                let cents = household.over30Cents(on: ledgers.asOf)
                if NextMonthDelinquency.isBehind(over30Cents: cents) { labelled[household.residentID] = cents }
            }
            #expect(labelled == aging, "\(key): the label's over-30 households and dollars differ from the aging's")
            compared += 1
            behind += labelled.count
        }
        // Held to the portfolio: several ledgers compared, and some households behind (a vacuous pass would be 0 = 0).
        #expect(compared >= 3)
        #expect(behind > 10)
    }
}
