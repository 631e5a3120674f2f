import Foundation
import OwnerDashCore
import SQLiteKit
import Sync
import Testing
import XMLKit
@testable import Render

/// The portfolio page (the table alone, a page of lines at a time) and a property's own page.
@Suite struct PortfolioPageTests {
    /// `count` properties `Property 0001`..., every other one on Yardi, every third with a full ledger, the first half
    /// synced on Nov 20 and the rest on Nov 12.
    static func portfolio(_ count: Int) -> Portfolio {
        Portfolio(name: "Kairoi", asOf: nil, generatedAt: "2026-11-21 04:05 UTC", lines: (1...count).map { n in
            PortfolioLine(key: String(format: "p_%04d", n), name: String(format: "Property %04d", n), pms: n % 2 == 0 ? "yardi" : "realpage",
                          address: n == 7 ? "12 Larimer St, Denver, CO" : nil,
                          dataDate: DashboardFixtures.date(n <= count / 2 ? "2026-11-20" : "2026-11-12"),
                          ledger: n % 3 == 0 ? "full" : nil)
        })
    }

    static let served = PortfolioLinks(property: { "/property/\($0.key)" },
                                       view: { view in "/?sort=\(view.sort ?? "")&page=\(view.page)&per_page=\(view.perPage)" },
                                       dataDates: "/data-dates")

    static func page(_ portfolio: Portfolio, _ view: PortfolioView = PortfolioView(), links: PortfolioLinks = served) throws -> String {
        PortfolioPage.render(portfolio, view: view, selection: try portfolio.select(view), links: links)
    }

    static func rows(_ html: String) throws -> [XMLElement] {
        try #require(try DashboardFixtures.parse(html).element(id: "portfolio-table")?.child(named: "tbody")).children(named: "tr")
    }

    @Test func aPageHoldsOnePageOfLinesHoweverLargeThePortfolio() throws {
        let small = try Self.page(Self.portfolio(60))
        let large = try Self.page(Self.portfolio(600))
        #expect(try Self.rows(small).count == PortfolioView.defaultPerPage)
        #expect(try Self.rows(large).count == PortfolioView.defaultPerPage)
        // Ten times the properties, the same page: only the counts in the header, the line and the pager differ.
        #expect(large.utf8.count - small.utf8.count < 200, "\(small.utf8.count) bytes at 60 properties, \(large.utf8.count) at 600")
        #expect(large.contains("Page 1 of 12") && large.contains("Showing 1\u{2013}50 of 600 properties"))
        // One line of freshness, however many dates there are.
        let freshness = try #require(try DashboardFixtures.parse(large).element(id: "freshness"))
        #expect(freshness.text == "Data dates: oldest Nov 12, 2026, newest Nov 20, 2026 (300 properties older than the newest) \u{B7} each property's data date")
        #expect(freshness.descendants(named: "a").first?.attribute("href") == "/data-dates")
        // The file the dashboard command writes has no server to ask for the next page: every line, sorted in the browser.
        let file = PortfolioLinks(property: { "properties/\($0.key).html" }, view: nil, dataDates: "data-dates.html")
        let everything = try Self.page(Self.portfolio(60), PortfolioView(perPage: 60), links: file)
        #expect(try Self.rows(everything).count == 60)
        #expect(everything.contains("class=\"sortable\"") && !everything.contains("portfolio-filter"))
    }

    @Test func searchAndFiltersNarrowTheTableAndItsTotal() throws {
        let portfolio = Self.portfolio(12)
        func keys(_ view: PortfolioView) throws -> [String] { try portfolio.select(view).lines.map(\.key) }
        #expect(try keys(PortfolioView(search: "property 001")) == ["p_0010", "p_0011", "p_0012"])
        #expect(try keys(PortfolioView(search: "P_0002")) == ["p_0002"])          // the key, any case
        #expect(try keys(PortfolioView(search: "larimer")) == ["p_0007"])         // the address
        #expect(try keys(PortfolioView(filters: ["pms": "yardi", "ledger": "full"])) == ["p_0006", "p_0012"])
        #expect(try keys(PortfolioView(filters: ["data_date": "older"])) == ["p_0007", "p_0008", "p_0009", "p_0010", "p_0011", "p_0012"])
        #expect(try keys(PortfolioView(search: "nowhere")).isEmpty)
        let none = try Self.page(portfolio, PortfolioView(search: "nowhere"))
        #expect(try Self.rows(none).first?.text == "No property matches the search and filters.")
        // The form keeps what was asked, and offers a way back to everything.
        let narrowed = try Self.page(portfolio, PortfolioView(search: "Property", filters: ["pms": "yardi"]))
        let form = try #require(try DashboardFixtures.parse(narrowed).element(id: "portfolio-filter"))
        #expect(form.descendants(named: "input").first { $0.attribute("name") == "q" }?.attribute("value") == "Property")
        #expect(form.descendants(named: "option").filter { $0.attribute("selected") != nil }.map(\.text) == ["Yardi", "50"])
        #expect(form.descendants(named: "a").first?.text == "Clear")
        #expect(narrowed.contains("All 6 matching"))
    }

    @Test func pagesArePagesAndAPagePastTheLastIsAnError() throws {
        let portfolio = Self.portfolio(120)
        let third = try portfolio.select(PortfolioView(page: 3))
        #expect(third.lines.map(\.key).first == "p_0101" && third.lines.count == 20 && third.pages == 3 && third.offset == 100)
        #expect(throws: PortfolioPageError(page: 4, pages: 3)) { try portfolio.select(PortfolioView(page: 4)) }
        #expect(PortfolioPageError(page: 4, pages: 3).description == "no page 4: the table has 3 pages")
        // An empty selection is one empty page, not an error.
        #expect(try portfolio.select(PortfolioView(search: "nowhere")).pages == 1)
        let root = try DashboardFixtures.parse(try Self.page(portfolio, PortfolioView(page: 2)))
        let pager = try #require(root.descendants(named: "nav", classed: "pager").first)
        #expect(pager.descendants(named: "a").map { $0.attribute("rel") ?? "" } == ["first", "prev", "next", "last"])
        #expect(pager.descendants(named: "a").first { $0.attribute("rel") == "next" }?.attribute("href") == "/?sort=&page=3&per_page=50")
    }

    @Test func sortingByAFigurePutsPropertiesWithoutItLast() throws {
        let fixture = try UnifiedFixture()
        let database = try UnifiedStore.openForReading(dataDirectory: fixture.dataDirectory)
        let portfolio = try Portfolio.load(database: database, properties: UnifiedFixture.properties, asOf: nil,
                                           portfolioName: "Kairoi", generatedAt: "2026-11-21 04:05 UTC")
        func keys(_ sort: String, descending: Bool) throws -> [String] {
            try portfolio.select(PortfolioView(sort: sort, descending: descending)).lines.map(\.key)
        }
        // Units: Nexus East 300, Riverwalk 200, Kalaco never synced.
        #expect(try keys("units", descending: false) == ["yp_riverwalk", "nexus_east", "kalaco"])
        #expect(try keys("units", descending: true) == ["nexus_east", "yp_riverwalk", "kalaco"])
        #expect(try keys("property", descending: true) == ["yp_riverwalk", "nexus_east", "kalaco"])
        // Both synced properties are at 95.0 %: registry order breaks the tie.
        #expect(try keys("occupancy", descending: true) == ["nexus_east", "yp_riverwalk", "kalaco"])
        // The heading of the sorted column says so, and links to the reverse order.
        let root = try DashboardFixtures.parse(try Self.page(portfolio, PortfolioView(sort: "units", descending: true)))
        let units = try #require(root.descendants(named: "th").first { $0.text == "Units" })
        #expect(units.attribute("aria-sort") == "descending")
        // The total is the summary metric's roll-up of the properties shown: 475 of 500 units occupied.
        #expect(root.descendants(named: "tfoot").first?.descendants(named: "td").prefix(2).map(\.text) == ["500", "95.0%"])
    }

    @Test func aPropertyPageHoldsItsSectionAndLinksBack() throws {
        let html = PropertyPage.render(DashboardFixtures.nexus, of: DashboardFixtures.dashboard, portfolio: "/")
        let root = try DashboardFixtures.parse(html)
        #expect(root.descendants(named: "h1").map(\.text) == ["Nexus East"])
        #expect(root.element(id: "p-nexus_east-trend") != nil && root.element(id: "p-nexus_east-aging") != nil)
        #expect(root.element(id: "portfolio-table") == nil)
        #expect(root.descendants(named: "a").filter { $0.attribute("href") == "/" }.count == 2)   // the crumb and the last line
        #expect(!html.contains("Harbor"))
        #expect(root.descendants(named: "script").isEmpty)
    }
}
