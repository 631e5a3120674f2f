import Foundation
import Testing
@testable import Serve

/// The served dashboard at portfolio scale: the portfolio page is one page of the table (searched, filtered, sorted
/// and paged by its URL), each property has its own page, and the bar is the same on every page.
@Suite struct PortfolioPagesTests {
    /// Adds RealPage properties `scale_0001`... (`range`), each with a snapshot of 100 units on Nov 20.
    static func addProperties(_ signed: SignedInServer, _ range: ClosedRange<Int>) throws {
        var sql = "BEGIN;\n"
        for n in range {
            let key = String(format: "scale_%04d", n)
            let occupied = 80 + n % 20
            sql += """
                INSERT INTO unified_properties (unified_property_id, name, pms_source, total_units, as_of_date)
                VALUES ('\(key)', 'Scale Property \(String(format: "%04d", n))', 'realpage', 100, '2026-11-20');
                INSERT INTO unified_occupancy_metrics (unified_property_id, as_of_date, total_units, occupied_units,
                    vacant_units, vacant_leased, vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90,
                    aged_vacancy_cost, on_notice, notice_leased, notice_not_leased, pre_leased, model_units, down_units,
                    leased_units, physical_occupancy, leased_pct, exposure_now, exposure_30, exposure_60,
                    exposure_now_pct, exposure_30_pct, exposure_60_pct, source)
                VALUES ('\(key)', '2026-11-20', 100, \(occupied), \(100 - occupied), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    \(occupied), \(occupied), \(occupied), 0, 0, 0, 0, 0, 0, 'test');

                """
        }
        try signed.fixture.database.execute(sql + "COMMIT;")
    }

    /// The table's rows (`<tr data-key=...>`) of a page, by key.
    static func rowKeys(_ page: String) -> [String] {
        page.components(separatedBy: "<tr data-key=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func aPortfolioTenTimesLargerServesAPageNoLarger() throws {
        let signed = try SignedInServer()
        let bearer = [("Authorization", "Bearer \(try signed.provider.token("valid"))")]
        try Self.addProperties(signed, 1...48)
        let fifty = try signed.get("/", headers: bearer)
        #expect(fifty.status == 200)
        #expect(Self.rowKeys(fifty.body).count == 50)
        try Self.addProperties(signed, 49...548)
        let many = try signed.get("/", headers: bearer)
        #expect(many.status == 200)
        #expect(Self.rowKeys(many.body).count == 50, "one page of rows, not all 550")
        #expect(many.body.contains("Showing 1\u{2013}50 of 550 properties") && many.body.contains("Page 1 of 11"))
        // Ten times the properties: the page differs by its counts (and one row's name), not by 500 rows.
        #expect(abs(many.body.utf8.count - fifty.body.utf8.count) < 1_000, "\(fifty.body.utf8.count) then \(many.body.utf8.count) bytes")
        #expect(many.body.utf8.count < 100_000)

        let last = try signed.get("/?page=11", headers: bearer)
        #expect(Self.rowKeys(last.body).count == 50 && Self.rowKeys(last.body).last == "yp", "the 11th page: the last 50 by key")
        let bigger = try signed.get("/?per_page=200&page=3", headers: bearer)
        #expect(Self.rowKeys(bigger.body).count == 150)
        let past = try signed.get("/?page=12", headers: bearer)
        #expect(past.status == 404 && past.body.contains("no page 12: the table has 11 pages"), "\(past.body)")
        for bad in ["/?page=0", "/?page=two", "/?per_page=100000", "/?sort=rent", "/?pms=oracle", "/?order=up", "/?colour=red"] {
            let answer = try signed.get(bad, headers: bearer)
            #expect(answer.status == 400 && answer.header("Content-Type") == "application/problem+json", "\(bad): \(answer.status)")
        }
    }

    @Test func searchFilterAndSortAreTheURL() throws {
        let signed = try SignedInServer()
        let bearer = [("Authorization", "Bearer \(try signed.provider.token("valid"))")]
        #expect(Self.rowKeys(try signed.get("/?q=yardi", headers: bearer).body) == ["yp"])
        #expect(Self.rowKeys(try signed.get("/?q=RP", headers: bearer).body) == ["rp"])             // the key
        #expect(Self.rowKeys(try signed.get("/?pms=yardi", headers: bearer).body) == ["yp"])
        #expect(Self.rowKeys(try signed.get("/?ledger=full", headers: bearer).body) == ["yp"])
        #expect(Self.rowKeys(try signed.get("/?ledger=none&pms=", headers: bearer).body) == ["rp"])  // an empty field is "Any"
        // rp is 90 % occupied, yp 100 %.
        #expect(Self.rowKeys(try signed.get("/?sort=occupancy&order=asc", headers: bearer).body) == ["rp", "yp"])
        #expect(Self.rowKeys(try signed.get("/?sort=occupancy&order=desc", headers: bearer).body) == ["yp", "rp"])
        let page = try signed.get("/?sort=occupancy&order=asc", headers: bearer).body
        #expect(page.contains("<a href=\"/?sort=occupancy&amp;order=desc\" class=\"sort\">Occupancy</a>"), "the heading reverses it")
        #expect(page.contains("<input type=\"hidden\" name=\"sort\" value=\"occupancy\"/>"), "the form keeps the order")
        // An earlier date is kept by the form (a GET form drops its action's query) and by the links to the properties.
        let october = try signed.get("/?as_of=2026-10-31", headers: bearer).body
        #expect(october.contains("<input type=\"hidden\" name=\"as_of\" value=\"2026-10-31\"/>"))
        #expect(october.contains("<a href=\"/property/rp?as_of=2026-10-31\">RealPage Place</a>"))
        #expect(october.contains("<time datetime=\"2026-10-31\">Oct 31, 2026</time>"))
        try signed.fixture.database.execute("UPDATE unified_properties SET as_of_date = '2026-11-12' WHERE unified_property_id = 'rp'")
        #expect(Self.rowKeys(try signed.get("/?data_date=older", headers: bearer).body) == ["rp"])
        let none = try signed.get("/?q=nowhere", headers: bearer)
        #expect(none.status == 200 && none.body.contains("No property matches the search and filters."))
    }

    @Test func eachPropertyHasItsOwnPageForWhoMaySeeIt() throws {
        let signed = try SignedInServer()
        let bearer = [("Authorization", "Bearer \(try signed.provider.token("valid"))")]
        let portfolio = try signed.get("/", headers: bearer)
        #expect(portfolio.body.contains("<a href=\"/property/yp\">Yardi Place</a>"))
        #expect(!portfolio.body.contains("<svg"), "the charts are on the property pages")
        let yp = try signed.get("/property/yp", headers: bearer)
        #expect(yp.status == 200)
        #expect(yp.body.contains("<h1 id=\"p-yp-name\">Yardi Place</h1>"))
        #expect(yp.body.contains("id=\"p-yp-trend\""))
        #expect(yp.body.contains("href=\"/lease-status?property=yp\""))      // yp has a ledger, rp none
        #expect(yp.body.contains("Checked against Yardi&#39;s own totals"))
        let rp = try signed.get("/property/rp", headers: bearer)
        #expect(rp.status == 200 && !rp.body.contains("href=\"/lease-status?property=rp\""))
        #expect(rp.body.contains("Tenant ledger: none synced for this property."))
        let unknown = try signed.get("/property/nowhere", headers: bearer)
        #expect(unknown.status == 404 && unknown.body.contains("\"detail\": \"no property nowhere\""))
        #expect(try signed.get("/property/yp?as_of=2026-13-01", headers: bearer).status == 400)
        #expect(try signed.get("/property/yp?as_of=2026-11-20", headers: bearer).status == 200)
        // A manager sees their property's page and not another's, which is not told apart from one that does not exist.
        let manager = [("Authorization", "Bearer \(try signed.provider.token("valid", email: "manager@example.com"))")]
        #expect(try signed.get("/property/yp", headers: manager).status == 200)
        let theirs = try signed.get("/property/rp", headers: manager)
        #expect(theirs.status == 404 && theirs.body.contains("\"detail\": \"no property rp\""))
        // Their portfolio is theirs: its lines, its count and its total, after an owner's view was kept for the run.
        let managers = try signed.get("/", headers: manager).body
        #expect(Self.rowKeys(managers) == ["yp"] && !managers.contains("RealPage Place"))
        #expect(managers.contains("1 property, 2 units"))
        #expect(managers.contains("<th scope=\"row\">Portfolio</th><td data-value=\"2.0000\">2</td>"))
        #expect(!(try signed.get("/data-dates", headers: manager).body.contains(">rp<")))
    }

    @Test func theBarIsTheSameOnEveryPageWithOneLineOfFreshness() throws {
        let signed = try SignedInServer()
        let bearer = [("Authorization", "Bearer \(try signed.provider.token("valid"))")]
        try signed.fixture.database.execute("UPDATE unified_properties SET as_of_date = '2026-11-12' WHERE unified_property_id = 'rp'")
        for (path, current) in [("/", "Dashboard"), ("/property/yp", "Dashboard"), ("/maintenance", "Maintenance"),
                                ("/lease-status", "Lease status"), ("/debtors", "Debtors"), ("/expenses", "Expenses"),
                                ("/runs", "Runs"), ("/audit", "Audit"), ("/api/docs", "API"), ("/data-dates", nil)] {
            let page = try signed.get(path, headers: bearer)
            #expect(page.status == 200 || (path == "/audit" && page.status == 404), "\(path): \(page.status)")
            guard page.status == 200 else { continue }
            #expect(page.body.components(separatedBy: "<nav id=\"serve-bar\"").count == 2, "\(path): one bar")
            #expect(page.body.contains("#serve-bar {"), "\(path): the bar's style in the head")
            if let current {
                #expect(page.body.contains("aria-current=\"page\">\(current)</a>"), "\(path): \(current) marked")
            }
            // One freshness line per page: the portfolio page's own, the bar's elsewhere.
            #expect(page.body.components(separatedBy: "id=\"freshness\"").count == 2, "\(path)")
            #expect(page.body.contains("Data dates: oldest <time datetime=\"2026-11-12\">Nov 12, 2026</time>, newest <time datetime=\"2026-11-20\">Nov 20, 2026</time>"),
                    "\(path)")
        }
        let dates = try signed.get("/data-dates", headers: bearer)
        #expect(dates.body.contains("<a href=\"/property/rp\">rp</a>") && dates.body.contains("2026-11-12"))
        #expect(dates.body.range(of: ">rp<")!.lowerBound < dates.body.range(of: ">yp<")!.lowerBound, "oldest first")
    }
}
