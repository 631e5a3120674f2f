import Foundation
import Testing
@testable import Serve

/// The live pages: Render's pages for what the viewer sees, the filter in the URL, freshness, scope.
@Suite struct PagesTests {
    @Test func theDashboardIsRendersPageForTheViewersProperties() throws {
        let signed = try SignedInServer()
        let (owner, _, _, _) = try signed.signIn(email: "owner@example.com")
        let page = try signed.get("/", headers: [("Cookie", owner)])
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
        #expect(page.body.contains("id=\"portfolio-table\""))
        #expect(page.body.contains("Yardi Place") && page.body.contains("RealPage Place"))
        let property = try signed.get("/property/yp", headers: [("Cookie", owner)])
        #expect(property.body.contains("href=\"/lease-status?property=yp\""))   // yp has a ledger, rp none
        #expect(!(try signed.get("/property/rp", headers: [("Cookie", owner)]).body.contains("href=\"/lease-status?property=rp\"")))
        #expect(page.body.contains("<span id=\"user\">owner@example.com</span>"))
        #expect(page.body.contains("Data as of <time datetime=\"2026-11-20\">Nov 20, 2026</time> for every synced property"))

        let manager = [("Authorization", "Bearer \(try signed.provider.token("valid", email: "manager@example.com"))")]
        let theirs = try signed.get("/", headers: manager)
        #expect(theirs.status == 200)
        #expect(theirs.body.contains("Yardi Place") && !theirs.body.contains("RealPage Place"))
        #expect(try signed.get("/debtors?property=rp", headers: manager).status == 404)
        #expect(try signed.get("/lease-status?property=rp", headers: manager).status == 404)
        #expect(try signed.get("/audit", headers: manager).status == 403)
    }

    @Test func leaseStatusFilterIsTheURL() throws {
        let signed = try SignedInServer()
        let bearer = [("Authorization", "Bearer \(try signed.provider.token("valid"))")]
        let page = try signed.get("/lease-status?property=yp&start=2026-10&months=2&include_inactive=true", headers: bearer)
        #expect(page.status == 200)
        #expect(page.body.contains("<input type=\"month\" name=\"start\" value=\"2026-10\""))
        #expect(page.body.contains("<option selected>2</option>"))
        #expect(page.body.contains("<option value=\"yp\" selected>Yardi Place</option>"))
        #expect(page.body.contains("name=\"include_inactive\" value=\"true\" checked"))
        #expect(page.body.contains("Old, Tenant"))            // the former household, shown with include_inactive
        let active = try signed.get("/lease-status?property=yp&start=2026-10&months=2", headers: bearer)
        #expect(!active.body.contains("Old, Tenant") && active.body.contains("Lee, Ann"))
        let bad = try signed.get("/lease-status?start=2026-13", headers: bearer)
        #expect(bad.status == 400 && bad.body.contains("\"name\": \"start\""))
    }

    @Test func aFailedRunAndOlderDataShowABanner() throws {
        let signed = try SignedInServer()
        let bearer = [("Authorization", "Bearer \(try signed.provider.token("valid"))")]
        #expect(!(try signed.get("/", headers: bearer).body.contains("id=\"stale\"")))
        try signed.fixture.database.execute("""
            UPDATE unified_properties SET as_of_date = '2026-11-12' WHERE unified_property_id = 'rp';
            INSERT INTO etl_runs (run_id, trigger, started_at, finished_at, status)
            VALUES ('20261121T020000Z-ff00', 'schedule', '2026-11-21T02:00:00Z', '2026-11-21T02:05:00Z', 'failed');
            """)
        let page = try signed.get("/debtors", headers: bearer)
        #expect(page.status == 200)
        #expect(page.body.contains("The last run (20261121T020000Z-ff00) failed"))
        #expect(page.body.contains("Older than the rest (2026-11-20): RealPage Place (2026-11-12)"))
    }
}

/// Resolving and reopening an audit exception from the page, as the signed-in user.
@Suite struct AuditPageTests {
    @Test func resolveAndReopenFromThePage() throws {
        let signed = try SignedInServer()
        _ = try signed.fixture.cli(["audit", "run", "--property", "yp", "--as-of", "2026-11-20", "--months", "2"])
        let (session, _, _, _) = try signed.signIn(email: "owner@example.com")
        let page = try signed.get("/audit", headers: [("Cookie", session)])
        #expect(page.status == 200)
        let form = "action=\"/audit/exceptions/yp%3AL1%3AWATER%3A2026-11/resolve\""   // keys carry the code upper-cased
        #expect(page.body.contains(form), "\(page.body.prefix(3000))")
        let csrf = String(try #require(page.body.components(separatedBy: "name=\"csrf\" value=\"").dropFirst().first?.prefix { $0 != "\"" }))
        let path = "/audit/exceptions/yp%3AL1%3Awater%3A2026-11/resolve"
        #expect(try signed.post(path, headers: [("Cookie", session)], body: "fix=posted+water&action=charge").status == 403)
        let resolved = try signed.post(path, headers: [("Cookie", session)], body: "csrf=\(csrf)&fix=posted+water&action=charge&note=")
        #expect(resolved.status == 303)
        #expect(resolved.header("Location") == "/audit")
        let after = try signed.get("/audit", headers: [("Cookie", session)])
        #expect(after.body.contains("charge: posted water — owner@example.com"))
        #expect(after.body.contains("action=\"/audit/exceptions/yp%3AL1%3AWATER%3A2026-11/reopen\""))
        // The API and the CLI agree on it.
        let bearer = [("Authorization", "Bearer \(try signed.provider.token("valid"))")]
        let runs = try signed.get("/api/v2/audit/runs", headers: bearer)
        #expect(runs.status == 200)
        #expect(runs.body.contains("\"run\": 1, ") && runs.body.contains("\"missing\": 1, ") && runs.body.contains("\"undercharge_total\": 40.00"))
        let api = try signed.get("/api/v2/audit/runs/latest?exceptions_only=true", headers: bearer)
        #expect(api.status == 200)
        #expect(api.body == (try signed.fixture.cli(["audit", "show", "--exceptions-only", "--format", "json"])))
        #expect(api.body.contains("\"by\": \"owner@example.com\""))
        let reopened = try signed.post("/audit/exceptions/yp%3AL1%3Awater%3A2026-11/reopen", headers: [("Cookie", session)],
                                       body: "csrf=\(csrf)&note=not+posted+after+all")
        #expect(reopened.status == 303)
        #expect(try signed.get("/audit", headers: [("Cookie", session)]).body.contains("reopened — owner@example.com"))
    }
}
