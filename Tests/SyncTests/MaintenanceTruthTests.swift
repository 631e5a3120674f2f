import Foundation
import Metrics
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// Work orders and expenses fetched from the PMSs themselves (RealPage Make Ready / Closed Make Ready / Income
/// Statement reports, Yardi GetServiceRequest_Search and GetInvoiceRegister), synced, and read back through `report maintenance` and
/// `report expenses`, against the simulator's truth (`work_orders`, `expenses` of truth.json).
@Suite struct MaintenanceTruthTests {
    /// Syncs every simulated property of `pms` into a fresh copy of the loaded raw databases.
    static func synced(_ pms: PMS) throws -> (SimulatedPortfolio, UnifiedStore, [Property], [PropertySyncOutcome], String) {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        let store = try UnifiedStore(dataDirectory: data)
        let properties = portfolio.properties.filter { $0.pms == pms }
        let outcomes = Synchronizer(store: store, runID: "maintenance").sync(properties, log: Diagnostics(sink: { _ in }))
        return (portfolio, store, properties, outcomes, data.root)
    }

    @Test(arguments: [PMS.realpage, PMS.yardi])
    func workOrderCountsAndDaysToCompleteMatchTheSimulator(pms: PMS) throws {
        let (portfolio, store, properties, outcomes, root) = try Self.synced(pms)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try #require(!properties.isEmpty)
        #expect(outcomes.allSatisfy { $0.error == nil }, "\(outcomes.map { ($0.property, $0.error) })")
        let database = store.database
        for property in properties {
            let truth = try #require(try portfolio.truth(property.key)["work_orders"] as? [String: Any],
                                     "truth.json has no work_orders for \(property.key)")
            let key: [String: SQLValue] = [":p": .text(property.key)]
            #expect(try database.scalar("SELECT work_order_source FROM unified_properties WHERE unified_property_id = :p", key)?
                        .textValue == (pms == .yardi ? YardiMaintenance.source : RealPageMaintenance.source))

            // Every work order, one by one: id, state, dates and days to complete.
            let orders = try #require(truth["orders"] as? [[String: Any]])
            func line(_ id: String?, _ status: String?, _ opened: String?, _ completed: String?, _ days: Int?) -> String {
                "\(id ?? "-") \(status ?? "-") \(opened ?? "-") \(completed ?? "-") \(days.map(String.init) ?? "-")"
            }
            let expected = orders.map { o in
                line(o["id"] as? String, o["status"] as? String, o["opened"] as? String, o["completed"] as? String,
                     o["days_to_complete"] as? Int)
            }.sorted()
            let actual = try database.query("""
                SELECT work_order_id, status, opened_date, completed_date, days_to_complete FROM unified_work_orders
                WHERE unified_property_id = :p
                """, key).map { row in
                line(row[0].textValue, row[1].textValue, row[2].textValue, row[3].textValue, row[4].integerValue.map { Int($0) })
            }.sorted()
            #expect(actual.count == expected.count, "\(property.key): \(actual.count) work orders, the simulator has \(expected.count)")
            #expect(Set(actual).symmetricDifference(expected).sorted().prefix(6) == [], "\(property.key)")

            // What `report maintenance` prints: open, closed, closed in the window, and the days behind median/average.
            let months = try #require(truth["window_months"] as? Int)
            let report = try MaintenanceReport.run(database: database, properties: [property.key], asOf: nil,
                                                   months: months, olderThanDays: 30)
            let counts = try #require(report.properties.first)
            #expect(report.asOf[property.key] == SimulatedPortfolio.asOf)
            #expect(counts.open == truth["open"] as? Int, "\(property.key) open")
            #expect(counts.closed == truth["closed"] as? Int, "\(property.key) closed")
            #expect(counts.closedInWindow == truth["closed_in_window"] as? Int, "\(property.key) closed in \(months) months")
            #expect(counts.days.sorted() == truth["days_to_complete_in_window"] as? [Int], "\(property.key) days to complete")
            #expect(counts.open > 0 && counts.closedInWindow > 0, "\(property.key): the simulator should have both")
        }
    }

    @Test func realPageExpensesMatchTheIncomeStatementTruthToTheCent() throws {
        let (portfolio, store, realpage, outcomes, root) = try Self.synced(.realpage)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(outcomes.allSatisfy { $0.error == nil && !$0.warnings.contains { $0.check == "gl_category" } },
                "\(outcomes.map { ($0.property, $0.error, $0.warnings.map(\.message)) })")
        let yardi = portfolio.properties.filter { $0.pms == .yardi }
        _ = Synchronizer(store: store, runID: "maintenance-yardi").sync(yardi, log: Diagnostics(sink: { _ in }))
        let month = String(SimulatedPortfolio.asOf.prefix(7))
        let report = try ExpenseReport.run(database: store.database, properties: (realpage + yardi).map(\.key),
                                           start: month, months: 1)
        #expect(report.noSource == [], "every property has an expense source: RealPage's statements, Yardi's register")
        for property in realpage {
            let expenses = try #require(try portfolio.truth(property.key)["expenses"] as? [String: [String: Double]])
            let truth = try #require(expenses[month], "truth.json has no \(month) expenses for \(property.key)")
            let expected = truth.mapValues { Int64(($0 * 100).rounded()) }
            var actual: [String: Int64] = [:]
            for line in report.accounts where line.property == property.key {
                #expect(line.month == month)
                actual[line.account, default: 0] += line.cents
            }
            #expect(actual == expected, "\(property.key) expenses by GL account")
            #expect(report.covered[property.key] == [month])
            let total = report.lines.first { $0.property == property.key && $0.category == nil }
            #expect(total?.cents[month] == expected.values.reduce(0, +), "\(property.key) total")
        }
    }

    @Test func yardiExpensesMatchTheInvoiceRegisterTruthToTheCentForEveryPostMonth() throws {
        let (portfolio, store, yardi, outcomes, root) = try Self.synced(.yardi)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try #require(!yardi.isEmpty)
        #expect(outcomes.allSatisfy { $0.error == nil && !$0.warnings.contains { $0.check == "gl_category" } },
                "\(outcomes.map { ($0.property, $0.error, $0.warnings.map(\.message)) })")
        let months = 12
        let asOf = SimulatedPortfolio.asOf
        let year = Int(asOf.prefix(4)) ?? 0, month = Int(asOf.dropFirst(5).prefix(2)) ?? 0
        let first = year * 12 + month - 1 - (months - 1)
        let start = String(format: "%04d-%02d", first / 12, first % 12 + 1)
        let report = try ExpenseReport.run(database: store.database, properties: yardi.map(\.key), start: start,
                                           months: months)
        #expect(report.noSource == [])
        for property in yardi {
            #expect(try store.database.scalar("SELECT expense_source FROM unified_properties WHERE unified_property_id = :p",
                                              [":p": .text(property.key)])?.textValue == YardiExpenses.source)
            let truth = try #require(try portfolio.truth(property.key)["expenses"] as? [String: [String: Double]],
                                     "truth.json has no expenses for \(property.key)")
            #expect(truth.keys.sorted() == report.months, "\(property.key): the simulator's post months are the report's")
            // Every (post month, GL account) the simulator invoiced, to the cent, and nothing else.
            var expected: [String: Int64] = [:]
            for (month, accounts) in truth {
                for (account, dollars) in accounts { expected["\(month) \(account)"] = Int64((dollars * 100).rounded()) }
            }
            var actual: [String: Int64] = [:]
            for line in report.accounts where line.property == property.key {
                actual["\(line.month) \(line.account)", default: 0] += line.cents
            }
            #expect(actual == expected, "\(property.key) expenses by post month and GL account")
            #expect(report.covered[property.key] == Set(report.months))
            // The all-categories line of each month is the month's invoice lines, summed.
            let total = report.lines.first { $0.property == property.key && $0.category == nil }
            for (month, accounts) in truth {
                #expect(total?.cents[month] == accounts.values.map { Int64(($0 * 100).rounded()) }.reduce(0, +),
                        "\(property.key) \(month) total")
            }
            // The categories are the registry's: repairs, utilities, taxes ... all named, none Other.
            let categories = Set(report.accounts.filter { $0.property == property.key }.map(\.category))
            #expect(categories.isSuperset(of: ["Repairs & Maintenance", "Utilities", "Taxes", "Insurance"]))
            #expect(!categories.contains(GLCategories.other))
        }
    }
}
