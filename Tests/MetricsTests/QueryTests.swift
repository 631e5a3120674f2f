import OwnerDashCore
import SQLiteKit
@testable import Metrics
import Testing

/// `Metrics.run`: the property selection, the as-of errors and warnings, the option checks, and the result tables.
@Suite struct QueryTests {
    @Test func portfolioByDefaultWithRollUpRowAndParameters() throws {
        let fixture = try OccupancyTests.portfolio()
        let result = try Metrics.run(MetricQuery(metric: .occupancy), database: try fixture.reader())
        #expect(result.metric == "occupancy")
        #expect(result.parameters.map(\.name) == ["properties", "portfolio", "pms", "as_of", "from", "to"])
        #expect(result.parameters[0].value == .list(["alpha", "beta"]) && result.parameters[1].value == .bool(true))
        let table = try #require(result.tables.first)
        #expect(table.name == "rows" && table.rows.map { $0[0] } == [.text("alpha"), .text("beta")])
        let units = try #require(table.columns.firstIndex { $0.name == "units" })
        let occupancy = try #require(table.columns.firstIndex { $0.name == "occupancy_pct" })
        #expect(table.total?[0] == .text("portfolio") && table.total?[units] == .integer(40) && table.total?[occupancy] == .real(82.5))
        #expect(result.warnings.isEmpty)
    }

    @Test func namedPropertiesInTheOrderGivenAndOnlyOneHasNoTotal() throws {
        let fixture = try OccupancyTests.portfolio()
        let database = try fixture.reader()
        let two = try Metrics.run(MetricQuery(metric: .summary, properties: ["beta", "alpha", "beta"]), database: database)
        #expect(two.tables[0].rows.map { $0[0] } == [.text("beta"), .text("alpha")])
        #expect(two.tables[0].total?[0] == .text("all"))
        let one = try Metrics.run(MetricQuery(metric: .exposure, properties: ["alpha"]), database: database)
        #expect(one.tables[0].rows.count == 1 && one.tables[0].total == nil)
        let yardi = try Metrics.run(MetricQuery(metric: .summary, pms: "yardi"), database: database)
        #expect(yardi.tables[0].rows.map { $0[0] } == [.text("beta")])
    }

    @Test func unknownPropertyAndEmptyDatabaseAreErrors() throws {
        let fixture = try OccupancyTests.portfolio()
        let database = try fixture.reader()
        #expect(throws: MetricsError.unknownProperty("gamma", synced: ["alpha", "beta"])) {
            try Metrics.run(MetricQuery(metric: .summary, properties: ["alpha", "gamma"]), database: database)
        }
        #expect(throws: MetricsError.wrongPMS("alpha", pms: "realpage")) {
            try Metrics.run(MetricQuery(metric: .summary, properties: ["alpha"], pms: "yardi"), database: database)
        }
        #expect("\(MetricsError.unknownProperty("x", synced: (1...10).map { "p\($0)" }))"
                == "unknown property \"x\" (not in unified.db; synced: p1, p2, p3, p4, p5, p6, p7, p8, ... (10 in all))")
        let empty = try UnifiedFixture()
        #expect(throws: MetricsError.nothingSynced(pms: nil)) {
            try Metrics.run(MetricQuery(metric: .summary), database: try empty.reader())
        }
    }

    @Test func aDateBeforeEverySnapshotIsAnErrorAndPortfolioGapsAreWarnings() throws {
        let fixture = try OccupancyTests.history()   // alpha from 2026-10-01, beta from 2026-11-01
        let database = try fixture.reader()
        let named = MetricQuery(metric: .occupancy, properties: ["beta"], asOf: day("2026-10-15"))
        #expect(throws: MetricsError.noSnapshot(["beta"], asOf: day("2026-10-15"), earliest: day("2026-11-01"))) {
            try Metrics.run(named, database: database)
        }
        #expect("\(MetricsError.noSnapshot(["beta"], asOf: day("2026-10-15"), earliest: day("2026-11-01")))"
                == "beta: no snapshot on or before 2026-10-15 (earliest 2026-11-01)")
        // The portfolio leaves beta out, says so, and answers for alpha.
        let portfolio = try Metrics.run(MetricQuery(metric: .summary, asOf: day("2026-10-15")), database: database)
        #expect(portfolio.tables[0].rows.map { $0[0] } == [.text("alpha")])
        #expect(portfolio.warnings == ["left out: beta: no snapshot on or before 2026-10-15 (earliest 2026-11-01)"])
        #expect(portfolio.parameters[0].value == .list(["alpha"]))
        #expect(throws: MetricsError.self) {
            try Metrics.run(MetricQuery(metric: .summary, asOf: day("2026-01-01")), database: database)
        }
        #expect(throws: MetricsError.noSnapshotBetween(from: day("2027-01-01"), to: nil)) {
            try Metrics.run(MetricQuery(metric: .occupancy, from: day("2027-01-01")), database: database)
        }
    }

    @Test func trendsRollUpPerDate() throws {
        let fixture = try OccupancyTests.history()
        let result = try Metrics.run(MetricQuery(metric: .occupancy, from: day("2026-10-01"), to: day("2026-11-30")),
                                     database: try fixture.reader())
        let table = result.tables[0]
        #expect(table.rows.map { $0[1] } == [.text("2026-10-01"), .text("2026-11-01"), .text("2026-11-20")])
        #expect(table.rows.allSatisfy { $0[0] == .text("portfolio") } && table.total == nil)
        let perProperty = try Metrics.run(MetricQuery(metric: .exposure, properties: ["alpha", "beta"], to: day("2026-11-01")),
                                          database: try fixture.reader())
        #expect(perProperty.tables[0].rows.map { "\($0[0].textValue ?? "") \($0[1].textValue ?? "")" }
                == ["alpha 2026-10-01", "alpha 2026-11-01", "beta 2026-11-01"])
    }

    @Test func optionsAMetricDoesNotTakeAreRefused() {
        let refused: [MetricQuery] = [
            MetricQuery(metric: .summary, from: day("2026-01-01")),
            MetricQuery(metric: .delinquency, to: day("2026-01-01")),
            MetricQuery(metric: .occupancy, asOf: day("2026-11-01"), from: day("2026-01-01")),
            MetricQuery(metric: .funnel, from: day("2026-02-01"), to: day("2026-01-01")),
            MetricQuery(metric: .funnel, top: 3),
            MetricQuery(metric: .summary, properties: ["alpha"], portfolio: true),
        ]
        for query in refused {
            #expect(throws: MetricsError.self, "\(query)") { try query.validate() }
        }
        #expect(throws: Never.self) { try MetricQuery(metric: .delinquency, top: 0).validate() }
        #expect(throws: Never.self) { try MetricQuery(metric: .pricing, from: day("2026-01-01")).validate() }
    }

    @Test func extraTablesOfDelinquencyFunnelAndPricing() throws {
        let fixture = try DelinquencyTests.fixture()
        let database = try fixture.reader()
        let delinquency = try Metrics.run(MetricQuery(metric: .delinquency, top: 1), database: database)
        #expect(delinquency.tables.map(\.name) == ["rows", "top_residents"])
        #expect(delinquency.tables[1].rows.count == 1 && delinquency.parameters.last == .init("top", .integer(1)))
        let noResidents = try Metrics.run(MetricQuery(metric: .delinquency, top: 0), database: database)
        #expect(noResidents.tables.map(\.name) == ["rows"])
        #expect(try Metrics.run(MetricQuery(metric: .funnel), database: database).tables.map(\.name) == ["rows", "leads_by_source"])
        #expect(try Metrics.run(MetricQuery(metric: .pricing), database: database).tables.map(\.name) == ["rows", "trade_out"])
        #expect(try Metrics.run(MetricQuery(metric: .activity), database: database).tables.map(\.name) == ["rows"])
    }
}
