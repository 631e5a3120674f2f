import CurlKit
import Foundation
import HTTPTestSupport
@testable import Serve
import Testing

/// Every endpoint against the CLI asking the same question with `--format json`, byte for byte.
@Suite struct APIAnswersTests {
    let fixture: ServeFixture
    let server: DashboardServer
    let client: Client

    init() throws {
        fixture = try ServeFixture()
        server = try fixture.server(viewer: Viewer(email: "owner@example.com", role: .owner))
        client = Client(port: server.port)
    }

    @Test(arguments: [
        ("/api/v2/properties/yp/occupancy", ["query", "occupancy", "--property", "yp", "--format", "json"]),
        ("/api/v2/properties/rp/occupancy?from=2026-10-01&to=2026-11-30",
         ["query", "occupancy", "--property", "rp", "--from", "2026-10-01", "--to", "2026-11-30", "--format", "json"]),
        ("/api/v2/properties/rp/exposure?as_of=2026-10-31", ["query", "exposure", "--property", "rp", "--as-of", "2026-10-31", "--format", "json"]),
        ("/api/v2/properties/rp/pricing", ["query", "pricing", "--property", "rp", "--format", "json"]),
        ("/api/v2/properties/rp/delinquency?top=3", ["query", "delinquency", "--property", "rp", "--top", "3", "--format", "json"]),
        ("/api/v2/properties/rp/leasing-funnel", ["query", "funnel", "--property", "rp", "--format", "json"]),
        ("/api/v2/properties/yp/summary", ["query", "summary", "--property", "yp", "--format", "json"]),
        ("/api/v2/portfolio/summary", ["query", "summary", "--format", "json"]),
        ("/api/v2/properties/yp/lease-status?start=2026-10&months=2&include_inactive=true",
         ["report", "lease-status", "--property", "yp", "--start", "2026-10", "--months", "2", "--include-inactive", "--format", "json"]),
        ("/api/v2/properties/yp/debtors", ["report", "debtors", "--property", "yp", "--format", "json"]),
        ("/api/v2/properties/yp/rental-tracker?sort=name", ["report", "rental-tracker", "--property", "yp", "--sort", "name", "--format", "json"]),
        ("/api/v2/properties/yp/residents/t1/statement", ["report", "statement", "--property", "yp", "--resident", "t1", "--format", "json"]),
        ("/api/v2/properties/yp/units/101/history", ["report", "tenant-history", "--property", "yp", "--unit", "101", "--format", "json"]),
        ("/api/v2/properties/yp/maintenance?months=6", ["report", "maintenance", "--property", "yp", "--months", "6", "--format", "json"]),
        ("/api/v2/properties/yp/expenses", ["report", "expenses", "--property", "yp", "--format", "json"]),
        ("/api/v2/runs", ["runs", "list", "--format", "json"]),
        ("/api/v2/runs/20261120T020000Z-ab12", ["runs", "show", "20261120T020000Z-ab12", "--format", "json"]),
    ])
    func bodyIsTheCLIJSON(path: String, command: [String]) throws {
        let response = try client.get(path)
        #expect(response.status == 200, "\(path): \(response.bodyText)")
        #expect(response.headers["content-type"] == "application/json; charset=utf-8")
        let cli = try fixture.cli(command)
        #expect(!cli.isEmpty)
        #expect(response.bodyText == cli, "\(path)")
    }

    @Test func propertiesAndRawRows() throws {
        let list = try client.get("/api/v2/properties")
        #expect(list.status == 200)
        #expect(list.bodyText.contains("{\"property\": \"rp\", \"name\": \"RealPage Place\", \"pms\": \"realpage\", \"total_units\": 10, \"as_of\": \"2026-11-20\"}"))
        #expect(list.bodyText.contains("\"property\": \"yp\""))
        let residents = try client.get("/api/v2/properties/yp/residents/raw")
        #expect(residents.status == 200)
        #expect(residents.bodyText.contains("\"resident_id\": \"t1\""))
        #expect(residents.bodyText.contains("\"email\": \"ann@example.com\""))
        #expect(!residents.bodyText.contains("r9"))   // rp's resident
        let units = try client.get("/api/v2/properties/yp/units/raw")
        #expect(units.bodyText.components(separatedBy: "\"unit_number\"").count == 3)
        #expect(units.bodyText.contains("\"market_rent\": 1400"))
    }

    @Test func healthzNeedsNobody() throws {
        let anonymous = try fixture.server(viewer: nil)
        let health = try Client(port: anonymous.port).get("/healthz")
        #expect(health.status == 200)
        #expect(health.bodyText == "{\"status\": \"ok\"}\n")
        let api = try Client(port: anonymous.port).get("/api/v2/properties")
        #expect(api.status == 401)
        #expect(api.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        #expect(api.headers["content-type"] == "application/problem+json")
    }
}

/// Status codes and problem details: bad parameters, unknown things, caching, hostile input.
@Suite struct APIProblemTests {
    let fixture: ServeFixture
    let server: DashboardServer
    let client: Client

    init() throws {
        fixture = try ServeFixture()
        server = try fixture.server(viewer: Viewer(email: "owner@example.com", role: .owner))
        client = Client(port: server.port)
    }

    /// The problem body's `invalid_params` name, or nil.
    private func problem(_ response: CurlKit.HTTPResponse) throws -> (status: Int, detail: String, parameter: String?) {
        #expect(response.headers["content-type"] == "application/problem+json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let parameter = (object["invalid_params"] as? [[String: Any]])?.first?["name"] as? String
        return (object["status"] as? Int ?? 0, object["detail"] as? String ?? "", parameter)
    }

    @Test(arguments: [
        ("/api/v2/properties/yp/occupancy?as_of=2026-13-01", "as_of"),
        ("/api/v2/properties/yp/occupancy?as_of=2026-11-20%27%20OR%201=1--", "as_of"),
        ("/api/v2/properties/yp/occupancy?from=2026-11-01&to=2026-10-01", "from"),
        ("/api/v2/properties/yp/occupancy?propertyy=yp", "propertyy"),
        ("/api/v2/properties/yp/occupancy?as_of=2026-11-20&as_of=2026-11-19", "as_of"),
        ("/api/v2/properties/yp/lease-status", "start"),
        ("/api/v2/properties/yp/lease-status?start=2026-10&months=13", "months"),
        ("/api/v2/properties/yp/lease-status?start=2026-10;DROP%20TABLE%20unified_charges", "start"),
        ("/api/v2/properties/yp/lease-status?start=2026-10&include_inactive=yes", "include_inactive"),
        ("/api/v2/properties/yp/debtors?min_debt=1e400", "min_debt"),
        ("/api/v2/properties/yp/rental-tracker?sort=balance%20DESC", "sort"),
        ("/api/v2/properties/yp/delinquency?top=-1", "top"),
        ("/api/v2/runs?limit=0", "limit"),
        ("/api/v2/audit/runs/1%20OR%201=1", "run"),
    ])
    func badParameterIs400NamingIt(path: String, parameter: String) throws {
        let response = try client.get(path)
        #expect(response.status == 400, "\(path)")
        let details = try problem(response)
        #expect(details.status == 400)
        #expect(details.parameter == parameter, "\(path): \(details.detail)")
        #expect(details.detail.hasPrefix(parameter + ":"))
        // unified.db is untouched by anything SQL-looking.
        #expect(try fixture.database.scalar("SELECT count(*) FROM unified_charges")?.integerValue == 5)
    }

    @Test(arguments: [
        "/api/v2/properties/nowhere/occupancy", "/api/v2/properties/yp%27%20OR%20%271%27=%271/summary",
        "/api/v2/properties/yp/residents/t99/statement", "/api/v2/properties/yp/units/999/history",
        "/api/v2/runs/nope", "/api/v2/properties/yp/nothing", "/api/v2/unknown", "/index.php",
    ])
    func unknownIs404(path: String) throws {
        let response = try client.get(path)
        #expect(response.status == 404, "\(path)")
        #expect(try problem(response).status == 404)
    }

    @Test func pathTraversalIs400() throws {
        // curl would normalize dot segments, so these go over a raw connection as written.
        for path in ["/api/v2/properties/../../../etc/passwd", "/api/v2/properties/yp/%2e%2e/%2e%2e/summary",
                     "/api/v2/properties/yp/..%2f..%2fsummary", "/api/v2//properties"] {
            let raw = try RawConnection(port: server.port)
            raw.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let answer = raw.readAll()
            #expect(RawConnection.status(of: answer) == 400, "\(path): \(answer.prefix(200))")
            #expect(answer.contains("\"name\": \"path\""))
        }
    }

    @Test func noSnapshotAtThatDateIs404() throws {
        let response = try client.get("/api/v2/properties/rp/occupancy?as_of=2020-01-01")
        #expect(response.status == 404)
        #expect(try problem(response).detail.contains("rp"))
    }

    @Test func writesAreRefused() throws {
        let response = try HTTPClient().send(HTTPRequest(method: "DELETE", url: "http://127.0.0.1:\(server.port)/api/v2/properties/yp/summary"))
        #expect(response.status == 405)
        #expect(response.headers["allow"] == "GET, HEAD")
    }

    @Test func entityTagFromTheLastRunAnd304() throws {
        let first = try client.get("/api/v2/properties/yp/summary")
        let tag = try #require(first.headers["etag"])
        #expect(tag.hasPrefix("\"20261120T020000Z-ab12-"))
        #expect(first.headers["cache-control"] == "private, no-cache")
        let again = try client.get("/api/v2/properties/yp/summary", headers: [("If-None-Match", tag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(try client.get("/api/v2/properties/yp/summary", headers: [("If-None-Match", "\"other\"")]).status == 200)
        // A new sync: the old tag no longer matches.
        try fixture.database.execute("""
            INSERT INTO etl_runs (run_id, trigger, started_at, finished_at, status) VALUES
            ('20261121T020000Z-cd34', 'ingest', '2026-11-21T02:00:00Z', '2026-11-21T02:03:00Z', 'succeeded')
            """)
        let after = try client.get("/api/v2/properties/yp/summary", headers: [("If-None-Match", tag)])
        #expect(after.status == 200)
        #expect(after.headers["etag"]?.hasPrefix("\"20261121T020000Z-cd34-") == true)
    }

    @Test func keptAnswersLastUntilTheNextRun() throws {
        let before = try client.get("/api/v2/properties/rp/summary")
        #expect(before.bodyText.contains("\"units\": 10"))
        // A sync starts and rewrites rp: while it runs nothing is tagged or kept, so the new rows show at once.
        try fixture.database.execute("""
            INSERT INTO etl_runs (run_id, trigger, started_at, status) VALUES ('20261121T020000Z-aa00', 'sync', '2026-11-21T02:00:00Z', 'running');
            UPDATE unified_occupancy_metrics SET total_units = 12 WHERE unified_property_id = 'rp' AND as_of_date = '2026-11-20';
            """)
        let during = try client.get("/api/v2/properties/rp/summary")
        #expect(during.headers["etag"] == nil)
        #expect(during.bodyText.contains("\"units\": 12"))
        try fixture.database.execute("""
            UPDATE etl_runs SET status = 'succeeded', finished_at = '2026-11-21T02:01:00Z' WHERE run_id = '20261121T020000Z-aa00';
            UPDATE unified_occupancy_metrics SET total_units = 14 WHERE unified_property_id = 'rp' AND as_of_date = '2026-11-20';
            """)
        let after = try client.get("/api/v2/properties/rp/summary")
        #expect(after.headers["etag"]?.hasPrefix("\"20261121T020000Z-aa00-") == true)
        #expect(after.bodyText.contains("\"units\": 14"))
        #expect(after.bodyText == (try fixture.cli(["query", "summary", "--property", "rp", "--format", "json"])))
    }

    @Test func oversizedHeadersAndBodies() throws {
        let big = try client.get("/api/v2/properties", headers: [("X-Padding", String(repeating: "p", count: 10_000))])
        #expect(big.status == 431)
        let body = try HTTPClient().send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(server.port)/api/v2/properties",
                                                     body: [UInt8](repeating: 1, count: 200_000)))
        #expect(body.status == 413)
    }

    @Test func answersWhileAnIngestWrites() throws {
        // A sync records its run first (running), then writes in a transaction; that open write transaction does not
        // block a read-only reader (WAL), which sees the last committed state.
        try fixture.database.execute("""
            INSERT INTO etl_runs (run_id, trigger, started_at, status) VALUES ('20261121T020000Z-bb00', 'sync', '2026-11-21T02:00:00Z', 'running')
            """)
        try fixture.database.execute("BEGIN IMMEDIATE")
        try fixture.database.execute("UPDATE unified_properties SET name = 'Renamed' WHERE unified_property_id = 'yp'")
        let started = Date()
        let response = try client.get("/api/v2/properties")
        #expect(response.status == 200)
        #expect(response.bodyText.contains("Yardi Place"))   // the last committed state
        #expect(Date().timeIntervalSince(started) < 2)
        try fixture.database.execute("COMMIT")
        #expect(try client.get("/api/v2/properties").bodyText.contains("Renamed"))
    }
}
