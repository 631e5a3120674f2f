import Foundation
import Metrics
import OwnerDashCore
import SQLiteKit
import Sync
import Testing
import XMLKit
@testable import Render

/// A unified.db written by hand in a temporary data directory: two registry properties with snapshots
/// (nexus_east on two dates, yp_riverwalk on one) and kalaco, in the registry but never synced.
final class UnifiedFixture {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("ownerdash-dashboard-\(UUID().uuidString)")
    var dataDirectory: DataDirectory { DataDirectory(root: root.path) }

    static let properties = [
        DashboardProperty(key: "nexus_east", name: "Nexus East", pms: "realpage"),
        DashboardProperty(key: "yp_riverwalk", name: "Riverwalk Commons", pms: "yardi"),
        DashboardProperty(key: "kalaco", name: "Kalaco", pms: "realpage"),
    ]

    init() throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let store = try UnifiedStore(dataDirectory: dataDirectory)
        let database = store.database
        try database.withTransaction {
            try database.execute("""
                INSERT INTO unified_properties (unified_property_id, name, pms_source, total_units, as_of_date)
                VALUES ('nexus_east', 'Nexus East', 'realpage', 300, '2026-11-20'),
                       ('yp_riverwalk', 'Riverwalk Commons', 'yardi', 200, '2026-11-20');
                """)
            // nexus_east: 280 then 285 of 300 occupied; yp_riverwalk: 190 of 200.
            try snapshot(database, "nexus_east", "2026-10-20", total: 300, occupied: 280, leased: 284, exposure30: 18, exposure60: 24)
            try snapshot(database, "nexus_east", "2026-11-20", total: 300, occupied: 285, leased: 291, exposure30: 12, exposure60: 21)
            try snapshot(database, "yp_riverwalk", "2026-11-20", total: 200, occupied: 190, leased: 192, exposure30: 9, exposure60: 11)
            try database.execute("""
                INSERT INTO unified_delinquency (unified_property_id, as_of_date, resident_id, current_balance,
                    balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, source)
                VALUES ('nexus_east', '2026-11-20', 'r1', 1500.25, 1000.25, 500, 0, 0, 0, 'test'),
                       ('nexus_east', '2026-11-20', 'r2', 2400, 0, 0, 400, 2000, 0, 'test'),
                       ('nexus_east', '2026-11-20', 'r3', -350.5, 0, 0, 0, 0, 350.5, 'test'),
                       ('nexus_east', '2026-10-20', 'r1', 99, 99, 0, 0, 0, 0, 'test'),
                       ('yp_riverwalk', '2026-11-20', 'y1', 800, 800, 0, 0, 0, 0, 'test');
                INSERT INTO unified_pricing_metrics (unified_property_id, as_of_date, floorplan, floorplan_name, units,
                    occupied_units, avg_sqft, in_place_rent, in_place_psf, asking_rent, asking_psf, loss_to_lease)
                VALUES ('nexus_east', '2026-11-20', 'A1', 'One Bedroom', 200, 190, 650, 1450, 2.2308, 1525, 2.3462, 14250),
                       ('nexus_east', '2026-11-20', 'B2', 'B2', 100, 95, 1050, 1980.5, 1.8862, 2050, 1.9524, 6602.5);
                """)
            try DelinquencySnapshot.recount(database)   // the nights' totals, as the sync writes them
            // In nexus_east's 30 days (Oct 22 - Nov 20): 10 leads, 6 tours, 4 applications, 3 leases; one lead
            // before the window that must not count.
            var events: [(String, String)] = [("2026-10-21", "lead")]
            events += (1...10).map { ("2026-11-\(String(format: "%02d", $0))", "lead") }
            events += (1...6).map { ("2026-11-\(String(format: "%02d", $0 + 10))", "tour") }
            events += (1...4).map { ("2026-11-\(String(format: "%02d", $0 + 14))", "application") }
            events += (1...3).map { ("2026-11-\(String(format: "%02d", $0 + 17))", "lease_signed") }
            for (date, type) in events {
                try database.execute("""
                    INSERT INTO unified_activity (unified_property_id, event_date, event_type)
                    VALUES ('nexus_east', '\(date)', '\(type)')
                    """)
            }
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private func snapshot(_ database: Database, _ property: String, _ date: String, total: Int, occupied: Int,
                          leased: Int, exposure30: Int, exposure60: Int) throws {
        let vacant = total - occupied
        try database.execute("""
            INSERT INTO unified_occupancy_metrics (unified_property_id, as_of_date, total_units, occupied_units,
                vacant_units, vacant_leased, vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90,
                aged_vacancy_cost, on_notice, notice_leased, notice_not_leased, pre_leased, model_units, down_units,
                leased_units, physical_occupancy, leased_pct, exposure_now, exposure_30, exposure_60,
                exposure_now_pct, exposure_30_pct, exposure_60_pct, source)
            VALUES ('\(property)', '\(date)', \(total), \(occupied), \(vacant), 0, \(vacant), 0, \(vacant), 0,
                0, 0, 0, 0, 0, 0, 0, \(leased), 0, 0, \(exposure30), \(exposure30), \(exposure60), 0, 0, 0, 'test')
            """)
    }
}

@Suite struct DashboardQueryTests {
    private func load(_ fixture: UnifiedFixture, asOf: LocalDate? = nil) throws -> Dashboard {
        let database = try UnifiedStore.openForReading(dataDirectory: fixture.dataDirectory)
        return try Dashboard.load(database: database, properties: UnifiedFixture.properties, asOf: asOf,
                                  portfolioName: "Kairoi", generatedAt: "2026-11-21 04:05 UTC")
    }

    @Test func tableShowsWhatTheMetricsAnswerForEachPropertyAndThePortfolio() throws {
        let fixture = try UnifiedFixture()
        let dashboard = try load(fixture)
        #expect(dashboard.asOf == LocalDate(iso: "2026-11-20"))
        #expect(dashboard.properties.map(\.key) == ["nexus_east", "yp_riverwalk", "kalaco"])

        // The figures the fixture implies: 285/300 occupied, 291/300 leased, 12 and 21 exposed, $1,000.25 + $500
        // + $400 + $2,000 delinquent less $350.50 prepaid, 10 leads and 3 leases in the 30 days.
        let nexus = dashboard.properties[0].summary
        #expect(nexus.units == 300)
        #expect(nexus.occupancyPct == 95.0)
        #expect(nexus.leasedPct == 97.0)
        #expect(nexus.exposure30Pct == 4.0)
        #expect(nexus.exposure60Pct == 7.0)
        #expect(nexus.delinquent == Money(cents: 390_025))
        #expect(nexus.netDelinquent == Money(cents: 354_975))
        #expect(nexus.leads == 10 && nexus.leases == 3)

        // The total row is the metrics' unit-weighted roll-up: (285 + 190) / 500, not the mean of 95% and 95%.
        let portfolio = try #require(dashboard.portfolio)
        #expect(portfolio.units == 500)
        #expect(portfolio.occupancyPct == 95.0)
        #expect(portfolio.leasedPct == 96.6)
        #expect(portfolio.exposure30Pct == 4.2)
        #expect(portfolio.delinquent == Money(cents: 470_025))

        // And nothing differs from what `ownerdash query summary` reads.
        let database = try UnifiedStore.openForReading(dataDirectory: fixture.dataDirectory)
        let summaries = try Metrics.summary(database: database, properties: ["nexus_east", "yp_riverwalk"])
        #expect(dashboard.properties.prefix(2).map(\.summary) == summaries.map(PropertySummary.init))
        #expect(dashboard.portfolio == SummaryRow.rollUp(summaries).map(PropertySummary.init))
    }

    @Test func chartsGetTheSeriesTheBucketsTheFunnelAndThePricing() throws {
        let fixture = try UnifiedFixture()
        let nexus = try load(fixture).properties[0]
        #expect(nexus.trend.map(\.date.iso) == ["2026-10-20", "2026-11-20"])
        let occupancy: [Double] = nexus.trend.map(\.occupancyPct)
        #expect(occupancy == [93.33, 95.0])
        #expect(nexus.aging == DelinquencyAging(balance0to30: Money(cents: 100_025), balance31to60: Money(cents: 50_000),
                                                balance61to90: Money(cents: 40_000), balanceOver90: Money(cents: 200_000),
                                                prepaid: Money(cents: 35_050), net: Money(cents: 354_975)))
        let funnel = try #require(nexus.funnel)
        let stages: [Int?] = [funnel.leads, funnel.tours, funnel.applications, funnel.leases]
        #expect(stages == [10, 6, 4, 3])
        let conversions: [Double?] = [funnel.leadToTour, funnel.tourToApplication, funnel.applicationToLease, funnel.leadToLease]
        #expect(conversions == [60, 66.67, 75, 30])
        #expect(funnel.period == DateRange(from: try #require(LocalDate(iso: "2026-10-22")), to: try #require(LocalDate(iso: "2026-11-20"))))
        #expect(nexus.pricing.map(\.floorplan) == ["A1", "B2"])
        #expect(nexus.pricing.map(\.floorplanName) == ["One Bedroom", nil])
        #expect(nexus.pricing.first?.lossToLease == Money(cents: 1_425_000))
        #expect(nexus.pricingTotal?.units == 300)
        #expect(nexus.pricingTotal?.lossToLease == Money(cents: 2_085_250))
    }

    @Test func propertyNeverSyncedHasNoNumbersAtAll() throws {
        let fixture = try UnifiedFixture()
        let kalaco = try load(fixture).properties[2]
        #expect(!kalaco.hasData)
        #expect(kalaco.summary == PropertySummary())
        #expect(kalaco.trend.isEmpty && kalaco.aging == nil && kalaco.funnel == nil && kalaco.pricing.isEmpty)
    }

    @Test func asOfReadsTheEarlierSnapshotAndCutsTheTrend() throws {
        let fixture = try UnifiedFixture()
        let dashboard = try load(fixture, asOf: LocalDate(iso: "2026-11-01"))
        #expect(dashboard.asOf == LocalDate(iso: "2026-11-01"))
        let nexus = dashboard.properties[0]
        #expect(nexus.asOf == LocalDate(iso: "2026-10-20"))
        #expect(nexus.summary.occupancyPct == 93.33)
        #expect(nexus.trend.map(\.date.iso) == ["2026-10-20"])
        #expect(nexus.aging?.balance0to30 == Money(cents: 9_900))
        // Riverwalk's only snapshot is after the date: no data rather than its November numbers.
        #expect(!dashboard.properties[1].hasData)
        #expect(dashboard.portfolio?.units == 300)
    }

    @Test func pageOfTheDatabaseIsWellFormedAndShowsItsNumbers() throws {
        let fixture = try UnifiedFixture()
        let html = DashboardPage.render(try load(fixture))
        let root = try DashboardFixtures.parse(html)
        let rows = try #require(root.element(id: "portfolio-table")?.child(named: "tbody")).children(named: "tr")
        #expect(rows.map { $0.children[2].text } == ["95.0%", "95.0%", "no data"])
        #expect(root.element(id: "p-nexus_east-aging")?.descendants(named: "rect", classed: "bar").map { $0.attribute("data-cents") }
                == ["100025", "50000", "40000", "200000", "35050"])
    }

    /// r2 (owing $2,400.00, all of it delinquent) is under eviction at Nexus East's night, r1 is not; r3's PMS said
    /// nothing: the panel says who the eviction will settle with. r1 ($1,500.25) is with a collection agency, r2 is
    /// not: said beside it. Riverwalk's PMS marks nobody either way: unknown, not "none", so its panel says nothing.
    @Test func theDelinquencyPanelSaysWhatIsOwedUnderEvictionAndInCollections() throws {
        let fixture = try UnifiedFixture()
        let store = try UnifiedStore(dataDirectory: fixture.dataDirectory)
        try store.database.execute("""
            UPDATE unified_delinquency SET under_eviction = CASE resident_id WHEN 'r2' THEN 1 WHEN 'r1' THEN 0 END,
                                           in_collections = CASE resident_id WHEN 'r1' THEN 1 WHEN 'r2' THEN 0 END
            WHERE unified_property_id = 'nexus_east'
            """)
        let dashboard = try load(fixture)
        let eviction = try #require(dashboard.properties[0].aging?.underEviction)
        #expect(eviction.households == 1 && eviction.delinquent == Money(cents: 240_000))
        let collections = try #require(dashboard.properties[0].aging?.inCollections)
        #expect(collections.households == 1 && collections.delinquent == Money(cents: 150_025))
        #expect(dashboard.properties[1].aging != nil && dashboard.properties[1].aging?.underEviction == nil
                && dashboard.properties[1].aging?.inCollections == nil)
        let root = try DashboardFixtures.parse(DashboardPage.render(dashboard))
        #expect(root.descendants(named: "p", classed: "eviction").map(\.text)
                == ["Under eviction: 1 household owing $2,400.00 of the delinquent"])
        #expect(root.descendants(named: "p", classed: "collections").map(\.text)
                == ["With a collection agency: 1 household owing $1,500.25 of the delinquent"])
    }

    /// Riverwalk's delinquency is its Yardi ledger's, which the nightly windows have brought forward since its last
    /// whole pull: a credit dated back before them reaches its balances at the next whole pull, and the panel says
    /// so. Nexus East's is the Delinquent and Prepaid report, whole every night: no such note, whatever its ledger.
    @Test func theDelinquencyPanelNamesTheLastWholePullOfTheLedgerItIsSummedFrom() throws {
        let fixture = try UnifiedFixture()
        let store = try UnifiedStore(dataDirectory: fixture.dataDirectory)
        try store.database.execute("UPDATE unified_properties SET ledger_whole_as_of = '2026-11-16'")
        let dashboard = try load(fixture)
        #expect(dashboard.properties.map { $0.aging?.ledgerWholeAsOf } == [nil, "2026-11-16", nil])
        let root = try DashboardFixtures.parse(DashboardPage.render(dashboard))
        let notes = { (id: String) in
            (root.element(id: id)?.descendants(named: "p", classed: "note").map(\.text) ?? []).filter { $0.contains("pulled whole") }
        }
        #expect(notes("p-yp_riverwalk") == ["Summed from the tenant ledger as last pulled whole on 2026-11-16 and the "
                                            + "nightly windows since: \(LedgerWholeAsOf.consequence)."])
        #expect(notes("p-nexus_east").isEmpty)
    }
}

@Suite struct DashboardCommandTests {
    /// The `ownerdash` executable built beside this test bundle (`swift build --build-tests` builds it).
    static var binary: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("ownerdash")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundle.appendingPathComponent("ownerdash")
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func ownerdash(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments + ["--config", Self.repository.appendingPathComponent("report_definitions.json").path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test func writesThePageIntoTheDataDirectoryAndPrintsItsPath() throws {
        let fixture = try UnifiedFixture()
        let result = try ownerdash(["dashboard", "--data-dir", fixture.root.path,
                                    "--property", "nexus_east", "--property", "yp_riverwalk", "--property", "kalaco"])
        #expect(result.status == 0, "\(result.stderr)")
        let path = fixture.root.appendingPathComponent("dashboard.html").path
        #expect(result.stdout == path + "\n")
        #expect(result.stderr.contains("kalaco"))
        let root = try DashboardFixtures.parse(try String(contentsOfFile: path, encoding: .utf8))
        #expect(root.descendants(named: "h1").first?.text == "Kairoi")
        #expect(root.element(id: "portfolio-table")?.child(named: "tbody")?.children(named: "tr").count == 3)
    }

    @Test func outAndAsOfAreHonoured() throws {
        let fixture = try UnifiedFixture()
        let out = fixture.root.appendingPathComponent("october.html").path
        let result = try ownerdash(["dashboard", "--data-dir", fixture.root.path, "--property", "nexus_east",
                                    "--as-of", "2026-10-31", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == out + "\n")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.contains("<time datetime=\"2026-10-31\">Oct 31, 2026</time>"))
        #expect(html.contains(">93.3%<"))
        #expect(!FileManager.default.fileExists(atPath: fixture.root.appendingPathComponent("dashboard.html").path))
    }

    @Test func pagesLayoutWritesThePortfolioTableAndAPagePerProperty() throws {
        let fixture = try UnifiedFixture()
        let result = try ownerdash(["dashboard", "--data-dir", fixture.root.path, "--layout", "pages",
                                    "--property", "nexus_east", "--property", "yp_riverwalk", "--property", "kalaco"])
        #expect(result.status == 0, "\(result.stderr)")
        let portfolio = try DashboardFixtures.parse(try String(contentsOf: fixture.root.appendingPathComponent("dashboard.html"), encoding: .utf8))
        let rows = try #require(portfolio.element(id: "portfolio-table")?.child(named: "tbody")).children(named: "tr")
        let links = rows.compactMap { $0.descendants(named: "a").first?.attribute("href") }
        #expect(links == ["properties/nexus_east.html", "properties/yp_riverwalk.html", "properties/kalaco.html"])
        #expect(portfolio.descendants(named: "svg").isEmpty, "the charts are on the property pages")
        #expect(portfolio.element(id: "freshness")?.descendants(named: "a").first?.attribute("href") == "data-dates.html")
        let nexus = try DashboardFixtures.parse(try String(contentsOf: fixture.root.appendingPathComponent("properties/nexus_east.html"), encoding: .utf8))
        #expect(nexus.descendants(named: "h1").first?.text == "Nexus East")
        #expect(nexus.element(id: "p-nexus_east-aging") != nil)
        #expect(nexus.descendants(named: "a").contains { $0.attribute("href") == "../dashboard.html" })
        let dates = try String(contentsOf: fixture.root.appendingPathComponent("data-dates.html"), encoding: .utf8)
        #expect(dates.contains("<a href=\"properties/kalaco.html\">kalaco</a>") && dates.contains("2026-11-20"))
        let bad = try ownerdash(["dashboard", "--data-dir", fixture.root.path, "--layout", "folders"])
        #expect(bad.status == 1 && bad.stderr.contains("--layout must be one-file or pages"))
    }

    @Test func refusesWhatItCannotDo() throws {
        let fixture = try UnifiedFixture()
        let unknown = try ownerdash(["dashboard", "--data-dir", fixture.root.path, "--property", "nowhere"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("unknown property \"nowhere\""))
        let badDate = try ownerdash(["dashboard", "--data-dir", fixture.root.path, "--as-of", "20261120"])
        #expect(badDate.status == 1)
        #expect(badDate.stderr.contains("--as-of must be a date YYYY-MM-DD"))
        let nowhere = fixture.root.appendingPathComponent("missing/dir/page.html").path
        let unwritable = try ownerdash(["dashboard", "--data-dir", fixture.root.path, "--out", nowhere])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr.contains("\(nowhere): cannot write the dashboard"))
        #expect(unwritable.stdout.isEmpty)
        let empty = fixture.root.appendingPathComponent("empty").path
        let noDatabase = try ownerdash(["dashboard", "--data-dir", empty])
        #expect(noDatabase.status == 1)
        #expect(noDatabase.stderr.contains("no unified database yet"))
        #expect(noDatabase.stdout.isEmpty)
    }
}
