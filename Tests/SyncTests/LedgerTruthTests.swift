import Foundation
import Ledger
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// The tenant ledger synced from Yardi (GetResidentTransactions_Login, GetResidentLeaseCharges_Login) and from RPX
/// (getresidentledger, getscheduledcharges) against the simulator's truth, and the charge categories.
///
/// The simulator's RPX license is not authorized for the ledger at one site (`rpx_ledger_denied`, ridian): that
/// property has the partial ledger of the OneSite reports (PartialLedgerTruthTests), and the reports name it.
@Suite struct LedgerTruthTests {
    /// The simulated properties with a ledger, and the one without.
    static let deniedSite = "ridian"

    /// The household id the truth keys a ledger entry by, as unified.db spells it: Yardi's tenant code, RealPage's ReshID.
    static func residentID(_ pms: PMS, truthKey: String, entry: [String: Any]) -> String? {
        pms == .yardi ? entry["tenant_code"] as? String : truthKey
    }

    @Test(arguments: [PMS.yardi, PMS.realpage])
    func everyHouseholdsMonthlyChargesPaymentsAndBalanceMatchTheSimulatorToTheCent(pms: PMS) throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let store = try UnifiedStore(dataDirectory: data)
        let all = portfolio.properties.filter { $0.pms == pms }
        let properties = all.filter { $0.key != Self.deniedSite }
        try #require(!properties.isEmpty)
        let outcomes = Synchronizer(store: store, runID: "ledger").sync(all, log: Diagnostics(sink: { _ in }))
        #expect(outcomes.allSatisfy { $0.error == nil && !$0.warnings.contains { $0.check.hasPrefix("ledger") } },
                "\(outcomes.map { ($0.error, $0.warnings.map(\.message)) })")
        let database = store.database
        if pms == .realpage {
            // Its ledger is the partial one from the OneSite reports (PartialLedgerTruthTests): no posting.
            let denied: [String: SQLValue] = [":p": .text(Self.deniedSite)]
            #expect(try database.scalar("SELECT ledger_source FROM unified_properties WHERE unified_property_id = :p", denied)?
                        .textValue == RealPageReportLedger.source)
            #expect(try database.scalar("SELECT count(*) FROM unified_charges WHERE unified_property_id = :p", denied) == .integer(0))
        }
        for property in properties {
            let key: [String: SQLValue] = [":p": .text(property.key)]
            #expect(try database.scalar("SELECT ledger_source FROM unified_properties WHERE unified_property_id = :p", key)?
                        .textValue == (pms == .yardi ? YardiLedger.source : RealPageLedger.source))
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
            for (truthKey, entry) in ledger {
                guard let tenant = Self.residentID(pms, truthKey: truthKey, entry: entry),
                      let months = entry["months"] as? [[Any]] else { continue }
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
            // Every code the simulator posts has a category; the schedule covers every current lease that began by the
            // first of the month (GetResidentLeaseCharges_Login asks for the leases in effect then; getscheduledcharges
            // sends every current resident's current lease).
            #expect(try database.scalar("SELECT count(*) FROM unified_charges WHERE unified_property_id = :p AND category_known = 0", key)?.integerValue == 0)
            #expect(try SimulatedPortfolio.currentLeasesWithoutRent(database, property: property.key) == 0,
                    "\(property.key): a current lease without a recurring rent charge")
        }
    }

    /// The lease payment-status report on the synced Yardi ledger, held against the simulator's truth: a month by
    /// whose end a household had paid everything billed so far (its running balance is not positive) shows PAID, and
    /// a month not PAID belongs to a household that was behind at the month's end (payments apply to the oldest
    /// charges first); what the report bills as rent and utilities never exceeds the month's charges.
    @Test func leasePaymentStatusAgreesWithTheSimulatorsLedger() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let store = try UnifiedStore(dataDirectory: data)
        let properties = portfolio.properties
        _ = Synchronizer(store: store, runID: "ledger").sync(properties, log: Diagnostics(sink: { _ in }))
        let report = try LeasePaymentStatusReport.run(database: store.database, properties: properties.map(\.key),
                                                      start: "2026-06", months: 6, asOf: nil, includeInactive: true)
        // The site whose RPX license does not cover the ledger: named as partial, only its balances' month known.
        #expect(report.noLedger.isEmpty && report.partialLedger.keys.sorted() == [Self.deniedSite])
        var checkedPaid = 0, owing = 0
        for property in properties where property.key != Self.deniedSite {
            let ledger = try #require(try portfolio.truth(property.key)["ledger"] as? [String: [String: Any]])
            let lines = report.lines.filter { $0.property == property.key }
            #expect(!lines.isEmpty)
            for (truthKey, entry) in ledger {
                guard let tenant = Self.residentID(property.pms, truthKey: truthKey, entry: entry),
                      let months = entry["months"] as? [[Any]] else { continue }
                let mine = lines.filter { $0.residentID == tenant }
                for month in months {
                    guard let period = month[0] as? String, report.months.contains(period) else { continue }
                    let charges = (month[1] as? NSNumber)?.int64Value ?? 0
                    let runningBalance = (month[3] as? NSNumber)?.int64Value ?? 0
                    let cells = mine.flatMap { [$0.rent[period], $0.utilities[period]].compactMap { $0 } }
                    #expect(cells.reduce(0) { $0 + $1.billedCents } <= charges, "\(property.key) \(tenant) \(period) billed")
                    for cell in cells {
                        if runningBalance <= 0 {
                            #expect(cell.status == .paid, "\(property.key) \(tenant) \(period): \(cell.status) but paid up")
                            checkedPaid += 1
                        } else if cell.status != .paid {
                            owing += 1
                        }
                        // Conversely, a charge of the month still open now means the household was behind at its end.
                        if cell.status != .paid {
                            #expect(runningBalance > 0, "\(property.key) \(tenant) \(period): \(cell.status) but paid up by month end")
                        }
                    }
                }
            }
        }
        #expect(checkedPaid > 100 && owing > 0, "the portfolio must exercise both paid-up and owing households")
    }

    /// The rental tracker against the simulator's ledger: every resident listed owes what the truth says and was behind
    /// at the end of each month it lists as missing; residents are ordered by balance.
    @Test func rentalTrackerAgreesWithTheSimulatorsLedger() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let store = try UnifiedStore(dataDirectory: data)
        _ = Synchronizer(store: store, runID: "ledger").sync(portfolio.properties, log: Diagnostics(sink: { _ in }))
        let properties = portfolio.properties.filter { $0.key != Self.deniedSite }
        let tracker = try RentalTracker.run(database: store.database, properties: portfolio.properties.map(\.key), asOf: nil,
                                            minBalance: nil, minMonthsBehind: 1, sort: .balance)
        #expect(tracker.noLedger.isEmpty && tracker.partialLedger == [Self.deniedSite])
        #expect(tracker.residents.count > 5, "the simulated portfolio has residents behind on rent")
        #expect(Set(tracker.residents.map { $0.property }).count == properties.count + 1,
                "every ledger property (and the partial one) has someone behind")
        #expect(tracker.residents.map(\.balanceCents) == tracker.residents.map(\.balanceCents).sorted(by: >))
        for property in properties {
            let ledger = try #require(try portfolio.truth(property.key)["ledger"] as? [String: [String: Any]])
            let byTenant = Dictionary(ledger.compactMap { truthKey, entry in
                Self.residentID(property.pms, truthKey: truthKey, entry: entry).map { ($0, entry) } },
                uniquingKeysWith: { a, _ in a })
            let listed = tracker.residents.filter { $0.property == property.key }
            for resident in listed {
                let truth = try #require(byTenant[resident.residentID], "\(resident.residentID) is not in the truth")
                #expect(resident.balanceCents == (truth["balance_cents"] as? NSNumber)?.int64Value,
                        "\(property.key) \(resident.residentID) balance")
                let running = Dictionary((truth["months"] as? [[Any]] ?? []).compactMap { month -> (String, Int64)? in
                    guard let period = month[0] as? String, let end = month[3] as? NSNumber else { return nil }
                    return (period, end.int64Value)
                }, uniquingKeysWith: { a, _ in a })
                for month in resident.monthsMissing {
                    #expect((running[month] ?? 0) > 0, "\(property.key) \(resident.residentID) \(month): listed missing but paid up")
                }
                #expect(resident.owed.reduce(0) { $0 + $1.amountCents } >= resident.balanceCents,
                        "what is owed covers the balance (credits only lower it)")
            }
        }
    }

    /// Every household's statement against the simulator: its closing balance is the truth's balance to the cent, and
    /// its lines of each period and before add up to the truth's balance at that month's end (the truth closes a month
    /// by period: a payment dated the 1st of the next month can belong to it); the tenant
    /// history of each unit lists every household the truth placed in it.
    @Test func statementsAndTenantHistoriesAgreeWithTheSimulatorsLedger() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let store = try UnifiedStore(dataDirectory: data)
        _ = Synchronizer(store: store, runID: "ledger").sync(portfolio.properties, log: Diagnostics(sink: { _ in }))
        var statements = 0, monthEnds = 0
        for property in portfolio.properties where property.key != Self.deniedSite {
            let ledger = try #require(try portfolio.truth(property.key)["ledger"] as? [String: [String: Any]])
            var unitsOfTruth: [String: Set<String>] = [:]
            for (truthKey, entry) in ledger {
                guard let resident = Self.residentID(property.pms, truthKey: truthKey, entry: entry),
                      let months = entry["months"] as? [[Any]], let unit = entry["unit"] as? String else { continue }
                unitsOfTruth[unit, default: []].insert(resident)
                let households = try ResidentStatement.households(database: store.database, residentID: resident,
                                                                  properties: [property.key])
                let household = try #require(households.first, "\(property.key) \(resident) has no statement")
                let statement = try ResidentStatement.run(database: store.database, household: household, asOf: nil, from: nil)
                #expect(statement.closingBalanceCents == (entry["balance_cents"] as? NSNumber)?.int64Value,
                        "\(property.key) \(resident) closing balance")
                statements += 1
                for month in months {
                    guard let period = month[0] as? String, let end = (month[3] as? NSNumber)?.int64Value else { continue }
                    let balance = statement.lines.filter { $0.period <= period }
                        .reduce(statement.openingBalanceCents) { $0 + ($1.kind == .charge ? $1.amountCents : -$1.amountCents) }
                    #expect(balance == end, "\(property.key) \(resident) balance at the end of \(period)")
                    monthEnds += 1
                }
            }
            for (unit, residents) in unitsOfTruth {
                let history = try #require(try TenantHistory.run(database: store.database, property: property.key, unit: unit))
                #expect(residents.isSubset(of: Set(history.tenants.map(\.residentID))), "\(property.key) unit \(unit)")
            }
        }
        #expect(statements > 100 && monthEnds > 500)
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
        // Listed again by the next sync, whose charges stay in unified.db (written by change): found on the index of
        // the charges of unknown codes, not by reading every charge of the property.
        let again = try #require(yardi.sync(runID: "20261121T000000Z-test").first)
        #expect(again.warnings.contains { $0.check == "charge_category" && $0.subject == "boatslip" })
        let plan = try yardi.rows("EXPLAIN QUERY PLAN " + Synchronizer.unknownCodes.replacingOccurrences(
            of: ":property", with: "'\(YardiFixture.property.key)'"))
        #expect(plan.contains { ($0.last?.textValue ?? "").contains("USING INDEX unified_charges_unknown_code") })
    }
}
