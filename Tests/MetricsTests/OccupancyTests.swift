import OwnerDashCore
import SQLiteKit
@testable import Metrics
import Testing

/// Occupancy and exposure per property, their portfolio roll-up weighted by units, the as-of rule and the trends.
///
/// Two properties, counts chosen so the weighted and the averaged percentages differ:
/// alpha: 10 units, 9 occupied (2 on notice, 1 of them pre-leased), 1 vacant leased; Net Leased = 1 vacant leased
///        + 7 occupied without notice + 1 notice leased = 9. Occupancy 9/10 = 90%, leased 90%.
///        Exposure now = 0 vacant not leased + 1 notice not leased = 1 (10%); within 30 days 0, within 60 days 1.
/// beta:  30 units, 24 occupied (3 on notice, none pre-leased), 6 vacant = 2 leased + 1 model + 1 down + 2 not leased,
///        3 of the 4 rentable vacant made ready, 1 aged > 90 days costing $1,234.56; Net Leased = 2 + 21 + 0 = 23.
///        Occupancy 24/30 = 80%, leased 23/30 = 76.67%; exposure now 2 + 3 = 5 (16.67%), 30 days 3 (10%), 60 days 4 (13.33%).
/// Portfolio: 33/40 = 82.50% occupied (the mean of 90% and 80% would be 85%), 32/40 = 80% leased,
///            exposure now 6/40 = 15%, 30 days 3/40 = 7.5%, 60 days 5/40 = 12.5%.
@Suite struct OccupancyTests {
    static func portfolio() throws -> UnifiedFixture {
        let fixture = try UnifiedFixture()
        try fixture.property("alpha")
        try fixture.property("beta", pms: "yardi")
        try fixture.occupancy("alpha", "2026-11-20", total: 10, occupied: 9, leased: 9, vacantLeased: 1, onNotice: 2,
                              noticeLeased: 1, exposure30: 0, exposure60: 1)
        try fixture.occupancy("beta", "2026-11-20", total: 30, occupied: 24, leased: 23, vacantLeased: 2, vacantReady: 3,
                              aged: 1, agedCost: 1234.56, onNotice: 3, model: 1, down: 1, exposure30: 3, exposure60: 4)
        return fixture
    }

    @Test func eachPropertyAndThePortfolioWeightedByUnits() throws {
        let fixture = try Self.portfolio()
        let rows = try Metrics.occupancy(database: try fixture.reader(), properties: ["alpha", "beta"])
        #expect(rows.map(\.property) == ["alpha", "beta"])
        let alpha = rows[0], beta = rows[1]
        #expect(alpha.asOf == day("2026-11-20"))
        #expect((alpha.totalUnits, alpha.occupied, alpha.leased, alpha.onNotice, alpha.noticeLeased, alpha.preLeased) == (10, 9, 9, 2, 1, 2))
        #expect(alpha.occupancyPct == 90 && alpha.leasedPct == 90)
        #expect((beta.vacant, beta.vacantLeased, beta.vacantReady, beta.vacantNotReady, beta.model, beta.down) == (6, 2, 3, 1, 1, 1))
        #expect(beta.agedVacant90 == 1 && beta.agedVacancyCost == Money(cents: 123_456))
        #expect(beta.occupancyPct == 80 && beta.leasedPct == 76.67)

        let portfolio = try #require(OccupancyRow.rollUp(rows))
        #expect(portfolio.property == "portfolio" && portfolio.properties == 2 && portfolio.asOf == day("2026-11-20"))
        #expect(portfolio.totalUnits == 40 && portfolio.occupied == 33 && portfolio.leased == 32)
        #expect(portfolio.occupancyPct == 82.5)   // not (90 + 80) / 2
        #expect(portfolio.leasedPct == 80)
        #expect(portfolio.vacantReady == 3 && portfolio.agedVacancyCost == Money(cents: 123_456))
    }

    @Test func exposureNow30And60DaysWeightedByUnits() throws {
        let fixture = try Self.portfolio()
        let rows = try Metrics.exposure(database: try fixture.reader(), properties: ["alpha", "beta"])
        #expect(rows.map { [$0.exposureNow, $0.exposure30, $0.exposure60] } == [[1, 0, 1], [5, 3, 4]])
        #expect(rows.map { [$0.exposureNowPct, $0.exposure30Pct, $0.exposure60Pct] } == [[10, 0, 10], [16.67, 10, 13.33]])
        #expect(rows[1].vacantNotLeased == 2 && rows[1].noticeNotLeased == 3)
        let portfolio = try #require(ExposureRow.rollUp(rows))
        #expect([portfolio.exposureNow, portfolio.exposure30, portfolio.exposure60] == [6, 3, 5])
        #expect([portfolio.exposureNowPct, portfolio.exposure30Pct, portfolio.exposure60Pct] == [15, 7.5, 12.5])
    }

    /// alpha has snapshots on 2026-10-01 (8 occupied), 2026-11-01 (9) and 2026-11-20 (7); beta only on 2026-11-20.
    static func history() throws -> UnifiedFixture {
        let fixture = try UnifiedFixture()
        try fixture.property("alpha")
        try fixture.property("beta")
        try fixture.occupancy("alpha", "2026-10-01", total: 10, occupied: 8, leased: 8)
        try fixture.occupancy("alpha", "2026-11-01", total: 10, occupied: 9, leased: 9)
        try fixture.occupancy("alpha", "2026-11-20", total: 10, occupied: 7, leased: 8)
        try fixture.occupancy("beta", "2026-11-01", total: 30, occupied: 24, leased: 24)
        try fixture.occupancy("beta", "2026-11-20", total: 30, occupied: 27, leased: 27)
        return fixture
    }

    @Test func asOfReadsEachPropertysLatestSnapshotOnOrBeforeTheDate() throws {
        let fixture = try Self.history()
        let database = try fixture.reader()
        let latest = try Metrics.occupancy(database: database, properties: ["alpha", "beta"])
        #expect(latest.map(\.asOf) == [day("2026-11-20"), day("2026-11-20")] && latest.map(\.occupied) == [7, 27])
        let between = try Metrics.occupancy(database: database, properties: ["alpha", "beta"], asOf: day("2026-11-19"))
        #expect(between.map(\.asOf) == [day("2026-11-01"), day("2026-11-01")] && between.map(\.occupied) == [9, 24])
        let exact = try Metrics.occupancy(database: database, properties: ["alpha"], asOf: day("2026-10-01"))
        #expect(exact.map(\.occupied) == [8])
        // Before beta's first snapshot: beta has no row; the caller decides (see QueryTests).
        let early = try Metrics.occupancy(database: database, properties: ["alpha", "beta"], asOf: day("2026-10-15"))
        #expect(early.map(\.property) == ["alpha"] && early.map(\.asOf) == [day("2026-10-01")])
        #expect(try Metrics.snapshotDates(database: database, properties: ["alpha", "beta"], asOf: day("2026-10-15"))
                == ["alpha": day("2026-10-01")])
    }

    @Test func trendReadsTheSeriesOfSnapshotsInTheRange() throws {
        let fixture = try Self.history()
        let database = try fixture.reader()
        let series = try Metrics.occupancyTrend(database: database, properties: ["beta", "alpha"],
                                                from: day("2026-10-15"), to: day("2026-11-30"))
        #expect(series.map { "\($0.property) \($0.asOf?.iso ?? "")" }
                == ["beta 2026-11-01", "beta 2026-11-20", "alpha 2026-11-01", "alpha 2026-11-20"])
        // Portfolio trend: one roll-up per date, from the summed units.
        let portfolio = OccupancyRow.rollUpByDate(series)
        #expect(portfolio.map(\.asOf) == [day("2026-11-01"), day("2026-11-20")])
        #expect(portfolio.map(\.occupancyPct) == [82.5, 85])   // 33/40, 34/40
        // Open start: everything up to the end date; alpha alone on 2026-10-01.
        let early = try Metrics.occupancyTrend(database: database, properties: ["alpha", "beta"], from: nil, to: day("2026-11-05"))
        #expect(OccupancyRow.rollUpByDate(early).map { [$0.properties, $0.totalUnits, $0.occupied] } == [[1, 10, 8], [2, 40, 33]])
        let exposure = try Metrics.exposureTrend(database: database, properties: ["alpha"], from: day("2026-11-01"), to: nil)
        #expect(exposure.map(\.asOf) == [day("2026-11-01"), day("2026-11-20")])
        #expect(exposure.map(\.exposureNow) == [1, 3])   // 10 − 9 vacant not leased, 10 − 7
    }

    @Test func percentagesAreRoundedHalfAwayFromZeroFromExactIntegers() {
        #expect(Ratio.percent(1, of: 3) == 33.33 && Ratio.percent(2, of: 3) == 66.67)
        #expect(Ratio.percent(1, of: 32) == 3.13)   // 3.125 exactly: a tie, rounded up
        #expect(Ratio.percent(Int64(-1), of: 32) == -3.13)
        #expect(Ratio.percent(5, of: 0) == nil)
        #expect(Ratio.average(Money(cents: 1_000), count: 3) == Money(cents: 333))
        #expect(Ratio.average(Money(cents: 1_001), count: 2) == Money(cents: 501))   // 500.5 -> 501
    }
}
