import OwnerDashCore
import SQLiteKit
import Sync
@testable import Metrics
import Testing

/// Delinquency totals, aging buckets, prepaid and net, summed exactly in cents, and the top residents.
///
/// alpha at 2026-11-20 (0-30 / 31-60 / 61-90 / 90+, prepaid):
///   r1 101 Ames  100 / 50 / 0 / 0            -> delinquent 150, net 150 (with a collection agency)
///   r2 102 Baker 0 / 0 / 0 / 400             -> 400, net 400 (under eviction, not with a collection agency)
///   r3 103 Cole  nothing owed, prepaid 75    -> net −75
///   r4 104 Diaz  20 / 0 / 0 / 0, prepaid 20  -> delinquent 20, net 0
///   Totals: 120 / 50 / 0 / 400, delinquent 570, prepaid 95, net 475, 3 residents delinquent (r1, r2, r4).
/// beta at 2026-11-20: r9 201 Evans 300.10 / 200.20 / 100.30 / 0.40 -> delinquent 601.00 (binary fractions that a
///   float sum would get wrong).
/// An older alpha snapshot (2026-11-01) that must not be counted.
/// Portfolio: 420.10 / 250.20 / 100.30 / 400.40, delinquent 1,171.00, prepaid 95, net 1,076.00, 4 residents.
@Suite struct DelinquencyTests {
    static func fixture() throws -> UnifiedFixture {
        let fixture = try UnifiedFixture()
        try fixture.property("alpha")
        try fixture.property("beta")
        for key in ["alpha", "beta"] {
            try fixture.occupancy(key, "2026-11-20", total: 10, occupied: 9, leased: 9)
        }
        try fixture.occupancy("alpha", "2026-11-01", total: 10, occupied: 9, leased: 9)
        try fixture.delinquency("alpha", "2026-11-01", resident: "old", unit: "109", name: "Old", 9999, 0, 0, 0)
        try fixture.delinquency("alpha", "2026-11-20", resident: "r1", unit: "101", name: "Ames", 100, 50, 0, 0,
                               underEviction: false, inCollections: true)
        try fixture.delinquency("alpha", "2026-11-20", resident: "r2", unit: "102", name: "Baker", 0, 0, 0, 400,
                               underEviction: true, inCollections: false)
        try fixture.delinquency("alpha", "2026-11-20", resident: "r3", unit: "103", name: "Cole", 0, 0, 0, 0, prepaid: 75)
        try fixture.delinquency("alpha", "2026-11-20", resident: "r4", unit: "104", name: "Diaz", 20, 0, 0, 0, prepaid: 20)
        try fixture.delinquency("beta", "2026-11-20", resident: "r9", unit: "201", name: "Evans", 300.10, 200.20, 100.30, 0.40)
        return fixture
    }

    @Test func totalsAndAgingPerPropertyAndForThePortfolio() throws {
        let fixture = try Self.fixture()
        let report = try Metrics.delinquency(database: try fixture.reader(), properties: ["alpha", "beta"], top: 0)
        #expect(report.topResidents.isEmpty)
        let alpha = report.properties[0], beta = report.properties[1]
        #expect(alpha.property == "alpha" && alpha.asOf == day("2026-11-20") && alpha.residentsDelinquent == 3)
        #expect([alpha.balance0to30, alpha.balance31to60, alpha.balance61to90, alpha.balanceOver90].map(\.cents)
                == [12_000, 5_000, 0, 40_000])
        #expect(alpha.delinquent.cents == 57_000 && alpha.prepaid.cents == 9_500 && alpha.net.cents == 47_500)
        #expect(beta.delinquent.cents == 60_100 && beta.net.cents == 60_100)

        let portfolio = try #require(DelinquencyRow.rollUp(report.properties))
        #expect([portfolio.balance0to30, portfolio.balance31to60, portfolio.balance61to90, portfolio.balanceOver90].map(\.cents)
                == [42_010, 25_020, 10_030, 40_040])
        #expect(portfolio.delinquent.cents == 117_100 && portfolio.prepaid.cents == 9_500 && portfolio.net.cents == 107_600)
        #expect(portfolio.residentsDelinquent == 4)
    }

    @Test func topResidentsByNetBalanceOwed() throws {
        let fixture = try Self.fixture()
        let database = try fixture.reader()
        let top2 = try Metrics.delinquency(database: database, properties: ["alpha", "beta"], top: 2).topResidents
        #expect(top2.map { "\($0.rank) \($0.property) \($0.residentID) \($0.balance)" } == ["1 beta r9 601.00", "2 alpha r2 400.00"])
        #expect(top2[0].delinquent.cents == 60_100 && top2[0].unit == "201" && top2[0].name == "Evans")
        // The eviction mark as the PMS gave it: Baker under eviction, Ames not, Evans's source said nothing.
        #expect(top2.map(\.underEviction) == [nil, true])
        let table = MetricTable(name: "top_residents", title: "", rows: top2)
        let mark = try #require(table.columns.firstIndex { $0.name == "under_eviction" })
        #expect(table.rows.map { $0[mark] } == [.null, .text("yes")])
        // Everyone who owes something: Diaz (net 0) and Cole (in credit) are not delinquent residents.
        let all = try Metrics.delinquentResidents(database: database, properties: ["alpha", "beta"], top: 10)
        #expect(all.map(\.residentID) == ["r9", "r2", "r1"])
        #expect(all.map(\.underEviction) == [nil, true, false])
        // The agency's mark the same way: Ames with one, Baker not, Evans's source said nothing.
        #expect(all.map(\.inCollections) == [nil, false, true])
        let listed = MetricTable(name: "top_residents", title: "", rows: all)
        let agency = try #require(listed.columns.firstIndex { $0.name == "in_collections" })
        #expect(listed.rows.map { $0[agency] } == [.null, .text("no"), .text("yes")])
        // The older snapshot is read when asked for.
        let older = try Metrics.delinquency(database: database, properties: ["alpha"], asOf: day("2026-11-10"))
        #expect(older.topResidents.map(\.residentID) == ["old"] && older.properties[0].balance0to30.cents == 999_900)
    }

    /// Prune removes the households of alpha's 2026-11-01 night (its policy keeps the newest night only here): the
    /// night's totals stay the same, its top list is empty and a warning says why; the newest night is untouched.
    @Test func aPrunedNightKeepsItsTotalsAndSaysWhyItsHouseholdsAreGone() throws {
        let fixture = try Self.fixture()
        let query = MetricQuery(metric: .delinquency, properties: ["alpha"], asOf: day("2026-11-10"))
        let before = try Metrics.run(query, database: try fixture.reader())
        let result = try UnifiedRetention.pruneResidentDelinquency(path: fixture.dataDirectory.unifiedDatabase, dryRun: false) {
            Set($0.filter { $0 == day("2026-11-20") })
        }
        #expect(result == UnifiedRetention.Result(nights: 1, rows: 1, properties: ["alpha"]))
        let after = try Metrics.run(query, database: try fixture.reader())
        #expect(after.tables[0].rows == before.tables[0].rows, "the night's totals")
        #expect(before.tables[1].rows.count == 1 && after.tables[1].rows.isEmpty)
        #expect(after.warnings == ["alpha: the households of 2026-11-01 were removed by ownerdash prune (its retention "
                                   + "policy keeps them for the last days and month ends); the night's totals are kept and shown"])
        let latest = try Metrics.delinquency(database: try fixture.reader(), properties: ["alpha"], top: 10)
        #expect(latest.topResidents.map(\.residentID) == ["r2", "r1"] && latest.residentsPruned.isEmpty)
    }

    @Test func aSnapshotWithoutDelinquencyRowsOwesNothing() throws {
        let fixture = try UnifiedFixture()
        try fixture.property("gamma")
        try fixture.occupancy("gamma", "2026-11-20", total: 5, occupied: 5, leased: 5)
        let report = try Metrics.delinquency(database: try fixture.reader(), properties: ["gamma"])
        #expect(report.properties.count == 1 && report.properties[0].delinquent == .zero && report.properties[0].residentsDelinquent == 0)
        #expect(report.topResidents.isEmpty)
    }

    /// Yardi's delinquency is its tenant ledger's open charges, and a ledger the nightly windows brought forward since
    /// its last whole pull misses a posting dated back before them (a credit to a four-month-old rent leaves the
    /// household in credit) until the next whole pull: `query delinquency` and `query summary` name such a property
    /// and that pull's date, as the ledger reports do. Not a RealPage property (its delinquency is the Delinquent and
    /// Prepaid report, whole every night). An earlier night is named by the lag its sync kept with its totals
    /// (`unified_delinquency_metrics.ledger_whole_as_of`), not by the latest night's.
    @Test func aYardiLedgerBroughtForwardByWindowsIsNamedWithItsLastWholePull() throws {
        let fixture = try Self.fixture()
        try fixture.property("gamma", pms: "yardi", asOf: "2026-11-20")
        for night in ["2026-11-01", "2026-11-20"] {
            try fixture.occupancy("gamma", night, total: 10, occupied: 9, leased: 9)
            try fixture.delinquency("gamma", night, resident: "t1", unit: "301", name: "Ford", 50, 0, 0, 0)
        }
        try fixture.database.prepare("""
            UPDATE unified_properties SET ledger_whole_as_of = '2026-11-17', as_of_date = '2026-11-20'
            WHERE unified_property_id IN ('alpha', 'gamma')
            """).execute()
        let database = try fixture.reader()
        for metric in [MetricQuery.Metric.delinquency, .summary] {
            let latest = try Metrics.run(MetricQuery(metric: metric), database: database)
            let table = try #require(latest.tables.first { $0.name == "ledger_whole_as_of" }, "\(metric)")
            #expect(table.rows == [[.text("gamma"), .text("2026-11-20"), .text("2026-11-17")]], "\(metric)")
            #expect(table.title.contains("next whole ledger pull"))
            let older = try Metrics.run(MetricQuery(metric: metric, properties: ["gamma"], asOf: day("2026-11-10")),
                                        database: database)
            #expect(!older.tables.contains { $0.name == "ledger_whole_as_of" }, "\(metric) of an older night pulled whole")
        }
        // The night of 2026-11-01 was summed from a ledger last pulled whole on 2026-10-28.
        try fixture.database.prepare("""
            UPDATE unified_delinquency_metrics SET ledger_whole_as_of = '2026-10-28'
            WHERE unified_property_id = 'gamma' AND as_of_date = '2026-11-01'
            """).execute()
        for metric in [MetricQuery.Metric.delinquency, .summary] {
            let older = try Metrics.run(MetricQuery(metric: metric, properties: ["gamma"], asOf: day("2026-11-10")),
                                        database: try fixture.reader())
            let table = try #require(older.tables.first { $0.name == "ledger_whole_as_of" }, "\(metric) of an older night")
            #expect(table.rows == [[.text("gamma"), .text("2026-11-01"), .text("2026-10-28")]], "\(metric)")
        }
        try fixture.database.prepare("UPDATE unified_properties SET ledger_whole_as_of = NULL").execute()
        let whole = try Metrics.run(MetricQuery(metric: .delinquency), database: try fixture.reader())
        #expect(!whole.tables.contains { $0.name == "ledger_whole_as_of" }, "a ledger pulled whole tonight")
    }
}
