import Foundation
import Testing
@testable import Serve

/// The maintenance, expenses and runs pages, and a manager's portfolio: what the viewer may see only.
@Suite struct ReportPagesTests {
    /// From the first table section to the end of the body: the part of a report page that is the report (the bar,
    /// the filter form and the "Written" time differ between the live page and the CLI's file).
    private func tables(_ html: String) -> String {
        guard let start = html.range(of: "<section"), let end = html.range(of: "</body>", options: .backwards) else { return "" }
        return String(html[start.lowerBound..<end.lowerBound])
    }

    @Test func maintenanceAndExpensesAreTheCLIsPagesForWhatTheViewerSees() throws {
        let signed = try SignedInServer()
        let owner = [("Authorization", "Bearer \(try signed.provider.token("valid"))")]
        let manager = [("Authorization", "Bearer \(try signed.provider.token("valid", email: "manager@example.com"))")]

        let maintenance = try signed.get("/maintenance", headers: owner)
        #expect(maintenance.status == 200)
        #expect(maintenance.body.contains("<h1>Maintenance</h1>"))
        #expect(maintenance.body.contains("leak under sink") && maintenance.body.contains("sparking outlet"))
        #expect(maintenance.body.contains("<p id=\"freshness\" class=\"bar-line\">Data as of <time datetime=\"2026-11-20\">Nov 20, 2026</time>"))
        let cli = try signed.fixture.cli(["report", "maintenance", "--format", "html"])
        #expect(!tables(cli).isEmpty)
        #expect(tables(maintenance.body) == tables(cli))

        let theirs = try signed.get("/maintenance", headers: manager)
        #expect(theirs.status == 200)
        #expect(theirs.body.contains("leak under sink") && !theirs.body.contains("sparking outlet"))
        #expect(!theirs.body.contains("RealPage Place"))   // not in the freshness line or the property filter either
        #expect(try signed.get("/maintenance?property=rp", headers: manager).status == 404)

        let filtered = try signed.get("/maintenance?property=yp&months=6&older_than=90", headers: owner)
        #expect(filtered.status == 200)
        #expect(filtered.body.contains("<option value=\"yp\" selected>Yardi Place</option>"))
        #expect(filtered.body.contains("name=\"older_than\" min=\"0\" max=\"36500\" value=\"90\""))
        #expect(!filtered.body.contains("leak under sink"))   // open 80 days, under 90
        #expect(tables(filtered.body)
            == tables(try signed.fixture.cli(["report", "maintenance", "--property", "yp", "--months", "6", "--older-than", "90", "--format", "html"])))
        let bad = try signed.get("/maintenance?older_than=soon", headers: owner)
        #expect(bad.status == 400 && bad.body.contains("\"name\": \"older_than\""))

        let expenses = try signed.get("/expenses?start=2026-10&months=2", headers: owner)
        #expect(expenses.status == 200)
        #expect(expenses.body.contains("<h1>Operating expenses</h1>"))
        #expect(expenses.body.contains("<input type=\"month\" name=\"start\" value=\"2026-10\""))
        #expect(expenses.body.contains("812.50") && expenses.body.contains("300.00"))
        #expect(tables(expenses.body)
            == tables(try signed.fixture.cli(["report", "expenses", "--start", "2026-10", "--months", "2", "--format", "html"])))
        let theirExpenses = try signed.get("/expenses?start=2026-10&months=2", headers: manager)
        #expect(theirExpenses.body.contains("812.50") && !theirExpenses.body.contains("300.00"))
        // Without start, the form shows the first month the report chose (the latest months synced).
        #expect(try signed.get("/expenses", headers: owner).body.contains("name=\"start\" value=\"2026-09\""))
    }

    @Test func runsPagesAreForOwnersAndLinkEachRun() throws {
        let signed = try SignedInServer()
        let owner = [("Authorization", "Bearer \(try signed.provider.token("valid"))")]
        let manager = [("Authorization", "Bearer \(try signed.provider.token("valid", email: "manager@example.com"))")]
        let home = try signed.get("/", headers: owner)
        for link in ["/maintenance", "/expenses", "/runs", "/audit"] { #expect(home.body.contains("<a href=\"\(link)\">"), "\(link)") }
        let managerHome = try signed.get("/", headers: manager)
        #expect(managerHome.body.contains("<a href=\"/maintenance\">") && !managerHome.body.contains("<a href=\"/runs\">"))

        let runs = try signed.get("/runs", headers: owner)
        #expect(runs.status == 200)
        #expect(runs.body.contains("<a href=\"/runs/20261120T020000Z-ab12\">20261120T020000Z-ab12</a>"))
        #expect(runs.body.contains("succeeded"))
        let run = try signed.get("/runs/20261120T020000Z-ab12", headers: owner)
        #expect(run.status == 200)
        #expect(run.body.contains("<h1>Run 20261120T020000Z-ab12</h1>"))
        #expect(run.body.contains("2 items, 0 failed"))
        #expect(run.body.contains("<td class=\"num\">240</td>"))   // duration_seconds: 02:00:00 to 02:04:00
        #expect(try signed.get("/runs/nope", headers: owner).status == 404)
        #expect(try signed.get("/runs?limit=0", headers: owner).status == 400)
        #expect(try signed.get("/runs", headers: manager).status == 403)
        #expect(try signed.get("/runs/20261120T020000Z-ab12", headers: manager).status == 403)
    }

    @Test func aManagersPortfolioTotalsOnlyTheirProperties() throws {
        let signed = try SignedInServer()
        // A third property, zp: 4 units, 2 occupied. The manager "two" sees yp (2 of 2 occupied) and zp, not rp (10).
        try signed.fixture.database.execute("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source, total_units, as_of_date)
            VALUES ('zp', 'Zed Place', 'realpage', 4, '2026-11-20');
            INSERT INTO unified_occupancy_metrics (
                unified_property_id, as_of_date, total_units, occupied_units, vacant_units, vacant_leased,
                vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90, aged_vacancy_cost, on_notice,
                notice_leased, notice_not_leased, pre_leased, model_units, down_units, leased_units,
                physical_occupancy, leased_pct, exposure_now, exposure_30, exposure_60,
                exposure_now_pct, exposure_30_pct, exposure_60_pct, source)
            VALUES ('zp', '2026-11-20', 4, 2, 2, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 50, 50, 2, 2, 2, 50, 50, 50, 'test');
            """)
        try UserStore(dataDirectory: signed.fixture.dataDirectory, create: true)
            .add(email: "two@example.com", role: .manager, properties: ["yp", "zp"], at: "2026-11-22T00:00:00Z")
        let two = [("Authorization", "Bearer \(try signed.provider.token("valid", email: "two@example.com"))")]
        let owner = [("Authorization", "Bearer \(try signed.provider.token("valid"))")]

        func total(_ headers: [(String, String)]) throws -> [String: Any] {
            let response = try signed.get("/api/v2/portfolio/summary", headers: headers)
            #expect(response.status == 200, "\(response.body)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any])
            #expect((object["parameters"] as? [String: Any])?["portfolio"] as? Bool == true)
            return try #require(object["total"] as? [String: Any])
        }
        let theirs = try total(two)
        #expect(theirs["property"] as? String == "portfolio")
        #expect(theirs["units"] as? Int == 6)
        #expect(abs((theirs["occupancy_pct"] as? Double ?? 0) - 66.67) < 0.01)   // 4 of 6, not 13 of 16
        let everyone = try total(owner)
        #expect(everyone["units"] as? Int == 16)
        #expect(abs((everyone["occupancy_pct"] as? Double ?? 0) - 81.25) < 0.01)
        // A manager of one property still gets the portfolio row (their one property), not a bare list.
        let one = try total([("Authorization", "Bearer \(try signed.provider.token("valid", email: "manager@example.com"))")])
        #expect(one["property"] as? String == "portfolio" && one["units"] as? Int == 2)

        // The dashboard page: the header's count and the table's Portfolio row are theirs too.
        let page = try signed.get("/", headers: two)
        #expect(page.status == 200)
        #expect(page.body.contains("2 properties, 6 units"))
        #expect(!page.body.contains("RealPage Place"))
        let footer = try #require(page.body.components(separatedBy: "<tfoot>").dropFirst().first?.components(separatedBy: "</tfoot>").first)
        #expect(footer.contains(">6</td>"), "\(footer)")
        #expect(footer.contains("66.7"), "\(footer)")
        #expect(try signed.get("/", headers: owner).body.contains("3 properties, 16 units"))
    }
}
