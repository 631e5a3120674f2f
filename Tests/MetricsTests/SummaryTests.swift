import OwnerDashCore
import SQLiteKit
@testable import Metrics
import Testing

/// The summary line per property combines occupancy, exposure, delinquency, the 30-day funnel and the month's
/// move-ins and move-outs; the portfolio line is weighted by units.
///
/// alpha (snapshot 2026-11-20, the same counts as OccupancyTests): 10 units, 90% occupied, 90% leased,
///   exposure 30 = 0 (0%), 60 = 1 (10%), 0 ready, 0 aged; delinquency 100 (0-30) + 400 (90+), prepaid 25:
///   delinquent 500, net 475; leads 2026-10-21 (outside), 2026-10-22, 2026-11-20 = 2; a lease signed 2026-11-01;
///   move-ins 2026-10-31 (last month) and 2026-11-01, 2026-11-20 = 2; a move-out 2026-11-05.
/// beta (snapshot 2026-11-20): 30 units, 80% occupied, 76.67% leased, exposure 30 = 3 (10%), 60 = 4 (13.33%),
///   3 ready, 1 aged; no delinquency rows (owes nothing); 1 lead.
/// Portfolio: 40 units, 82.5%, 80%, exposure 30 3/40 = 7.5%, 60 5/40 = 12.5%, ready 3, aged 1, delinquent 500,
///   net 475, 3 leads, 1 lease, 2 move-ins, 1 move-out.
@Suite struct SummaryTests {
    static func fixture() throws -> UnifiedFixture {
        let fixture = try OccupancyTests.portfolio()
        try fixture.occupancy("alpha", "2026-11-01", total: 10, occupied: 5, leased: 5)
        try fixture.delinquency("alpha", "2026-11-20", resident: "r1", unit: "101", name: "Ames", 100, 0, 0, 400, prepaid: 25)
        try fixture.event("alpha", "2026-10-21", "lead")
        try fixture.event("alpha", "2026-10-22", "lead")
        try fixture.event("alpha", "2026-11-20", "lead")
        try fixture.event("alpha", "2026-11-01", "lease_signed")
        try fixture.event("alpha", "2026-10-31", "move_in")
        try fixture.event("alpha", "2026-11-01", "move_in")
        try fixture.event("alpha", "2026-11-20", "move_in")
        try fixture.event("alpha", "2026-11-05", "move_out")
        try fixture.event("beta", "2026-11-11", "lead")
        return fixture
    }

    @Test func headlineNumbersPerPropertyAndPortfolio() throws {
        let fixture = try Self.fixture()
        let rows = try Metrics.summary(database: try fixture.reader(), properties: ["alpha", "beta"])
        #expect(rows.map(\.property) == ["alpha", "beta"] && rows.map(\.name) == ["Alpha", "Beta"] && rows.map(\.pms) == ["realpage", "yardi"])
        let alpha = rows[0], beta = rows[1]
        #expect(alpha.asOf == day("2026-11-20") && alpha.units == 10)
        #expect([alpha.occupancyPct, alpha.leasedPct, alpha.exposure30Pct, alpha.exposure60Pct] == [90, 90, 0, 10])
        #expect(alpha.delinquent?.cents == 50_000 && alpha.netDelinquent?.cents == 47_500)
        #expect([alpha.leads30Days, alpha.leases30Days, alpha.moveInsMonthToDate, alpha.moveOutsMonthToDate] == [2, 1, 2, 1])
        #expect([beta.occupancyPct, beta.leasedPct, beta.exposure30Pct, beta.exposure60Pct] == [80, 76.67, 10, 13.33])
        #expect(beta.vacantReady == 3 && beta.agedVacant90 == 1 && beta.delinquent == .zero && beta.leads30Days == 1)

        let portfolio = try #require(SummaryRow.rollUp(rows))
        #expect(portfolio.units == 40 && portfolio.properties == 2)
        #expect([portfolio.occupancyPct, portfolio.leasedPct, portfolio.exposure30Pct, portfolio.exposure60Pct] == [82.5, 80, 7.5, 12.5])
        #expect(portfolio.vacantReady == 3 && portfolio.agedVacant90 == 1)
        #expect(portfolio.delinquent?.cents == 50_000 && portfolio.netDelinquent?.cents == 47_500)
        #expect([portfolio.leads30Days, portfolio.leases30Days, portfolio.moveInsMonthToDate, portfolio.moveOutsMonthToDate] == [3, 1, 2, 1])
    }

    /// As of 2026-11-10: alpha's 2026-11-01 snapshot (5 of 10 occupied), no delinquency rows at that date, the
    /// window 2026-10-12 ... 2026-11-10 (2 leads, 1 lease) and the month 2026-11-01 ... 2026-11-10 (1 move-in,
    /// 1 move-out); beta has no snapshot by then.
    @Test func asOfPicksTheSnapshotAndEndsTheWindowsThere() throws {
        let fixture = try Self.fixture()
        let rows = try Metrics.summary(database: try fixture.reader(), properties: ["alpha", "beta"], asOf: day("2026-11-10"))
        #expect(rows.map(\.property) == ["alpha"])
        let alpha = rows[0]
        #expect(alpha.asOf == day("2026-11-01") && alpha.occupancyPct == 50 && alpha.delinquent == .zero)
        #expect([alpha.leads30Days, alpha.leases30Days, alpha.moveInsMonthToDate, alpha.moveOutsMonthToDate] == [2, 1, 1, 1])
    }

    /// alpha is a RealPage property synced without a Delinquent and Prepaid report (its zero row is what a sync of an
    /// earlier build wrote), without RPX residents and without an Activity report, but with a Leasing Activity Detail
    /// (the real The Northern's files, less the D&P): delinquency, move-ins and move-outs are blank with the reason,
    /// its leads and signed leases (the detail's Lease marks) stay; `query delinquency` names it instead of answering
    /// zeros.
    @Test func realPageFiguresWithoutTheirReportsAreBlankAndSayWhy() throws {
        let fixture = try Self.fixture()
        for subject in ["delinquency", "activity", "getresidentlistinfo"] {
            try fixture.missingSnapshot("alpha", "2026-11-20", operation: subject)
        }
        let rows = try Metrics.summary(database: try fixture.reader(), properties: ["alpha", "beta"])
        let alpha = try #require(rows.first)
        #expect(alpha.delinquent == nil && alpha.moveInsMonthToDate == nil && alpha.moveOutsMonthToDate == nil)
        #expect(alpha.leads30Days == 2 && alpha.leases30Days == 1 && alpha.occupancyPct == 90,
                "leads and leases come from the Leasing Activity Detail")
        #expect(alpha.missingFigures == [
            "alpha: delinquent and net_delinquent left empty: no Delinquent and Prepaid report synced (not fetched or not loaded): delinquency is missing, not zero",
            "alpha: move_ins_mtd and move_outs_mtd left empty: no RPX getresidentlistinfo snapshot nor Activity report synced (not fetched or not loaded): activity is missing, not zero",
        ])
        #expect(throws: MetricsError.self) {
            try Metrics.run(MetricQuery(metric: .delinquency, properties: ["alpha"]), database: try fixture.reader())
        }
        let portfolio = try Metrics.run(MetricQuery(metric: .delinquency, portfolio: true), database: try fixture.reader())
        #expect(portfolio.warnings.contains("alpha: no Delinquent and Prepaid report synced (not fetched or not loaded): delinquency is missing, not zero (left out)"))
        #expect(portfolio.tables[0].rows.map { $0[0] } == [.text("beta")])

        // Asked by name beside beta, whose ledger call failed: each is named with its own reason, as missing data
        // (the API's 404), not as a bad query.
        try fixture.missingSnapshot("beta", "2026-11-20", operation: "GetResidentTransactions_Login")
        #expect(throws: MetricsError.noUnitData("alpha", reason: "no Delinquent and Prepaid report synced (not fetched or "
            + "not loaded): delinquency is missing, not zero; beta: no GetResidentTransactions_Login snapshot synced (the "
            + "call failed or was not fetched): delinquency is missing, not zero")) {
            try Metrics.run(MetricQuery(metric: .delinquency, properties: ["alpha", "beta"]), database: try fixture.reader())
        }

        // Neither funnel report either: the leads go too, and the signed leases, which RPX does not give either.
        try fixture.missingSnapshot("alpha", "2026-11-20", operation: "leasing_activity_detail")
        let without = try #require(try Metrics.summary(database: try fixture.reader(), properties: ["alpha"]).first)
        #expect(without.leads30Days == nil && without.leases30Days == nil)
        #expect(without.missingFigures.contains("alpha: leads_30d left empty: no Activity report nor Leasing Activity Detail synced (not fetched or not loaded): funnel is missing, not zero"))
        #expect(without.missingFigures.contains("alpha: leases_30d left empty: no Activity report nor Leasing Activity Detail nor RPX getresidentlistinfo snapshot synced (not fetched or not loaded): funnel is missing, not zero"))
    }

    /// beta is a Yardi property whose ledger and guest-activity calls failed at its last sync: its delinquency and
    /// funnel figures are blank with the reason, not the zeros its empty tables would give; the portfolio sums alpha's.
    @Test func figuresWhoseYardiCallFailedAreBlankAndSayWhy() throws {
        let fixture = try Self.fixture()
        try fixture.missingSnapshot("beta", "2026-11-20", operation: "GetResidentTransactions_Login")
        try fixture.missingSnapshot("beta", "2026-11-20", operation: "GetYardiGuestActivity_Login")
        let rows = try Metrics.summary(database: try fixture.reader(), properties: ["alpha", "beta"])
        let beta = try #require(rows.last)
        #expect(beta.delinquent == nil && beta.netDelinquent == nil && beta.leads30Days == nil && beta.leases30Days == nil)
        #expect(beta.moveInsMonthToDate == 0 && beta.occupancyPct == 80, "the figures from synced sources stay")
        #expect(beta.missingFigures == [
            "beta: delinquent and net_delinquent left empty: no GetResidentTransactions_Login snapshot synced (the call failed or was not fetched): delinquency is missing, not zero",
            "beta: leads_30d and leases_30d left empty: no GetYardiGuestActivity_Login snapshot synced (the call failed or was not fetched): funnel is missing, not zero",
        ])
        #expect(rows[0].missingFigures.isEmpty)
        let portfolio = try #require(SummaryRow.rollUp(rows))
        #expect(portfolio.delinquent?.cents == 50_000 && portfolio.leads30Days == 2 && portfolio.units == 40)

        let answer = try Metrics.run(MetricQuery(metric: .summary, portfolio: true), database: try fixture.reader())
        #expect(answer.warnings == beta.missingFigures)
        let table = answer.tables[0]
        let betaLine = try #require(table.rows.last)
        for column in ["delinquent", "net_delinquent", "leads_30d", "leases_30d"] {
            let index = try #require(table.columns.firstIndex { $0.name == column })
            #expect(betaLine[index] == .null, "\(column) is null in every output format")
        }
    }
}
