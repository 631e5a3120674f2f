import CurlKit
import Foundation
import OwnerDashCore
@testable import Serve
import Testing

/// `/api/v2/openapi.json` and `/api/docs`: the document is valid OpenAPI 3.1 (the OpenAPI Initiative's JSON Schema,
/// checked by Debian's python3-jsonschema through scripts/openapi/validate.py), every operation in it answers on the
/// fixture with a documented status and a body valid against the documented schema, and the server answers nothing
/// the document lacks.
@Suite struct OpenAPITests {
    let fixture: ServeFixture
    let owner: DashboardServer

    init() throws {
        fixture = try ServeFixture()
        // An audit run, so the audit's routes have something to show and resolve.
        _ = try fixture.cli(["audit", "run", "--property", "yp", "--as-of", "2026-11-20", "--months", "2"])
        // A forecast model that passed its backtest, so the forecast's routes answer and the reports carry their
        // optional risk column (documented, not required).
        try fixture.storePassingForecastModel()
        // yp's ledger brought forward by nightly windows since a whole pull: the answers read from it carry their
        // optional `ledger_whole_as_of` table, which must be documented too.
        try fixture.database.execute("UPDATE unified_properties SET ledger_whole_as_of = '2026-11-16' WHERE unified_property_id = 'yp'")
        owner = try fixture.server(viewer: Viewer(email: "owner@example.com", role: .owner))
    }

    // MARK: - The document

    @Test func theDocumentIsValidOpenAPI31() throws {
        let response = try Client(port: owner.port).get("/api/v2/openapi.json")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json; charset=utf-8")
        let result = try Self.validate(document: response.body)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasPrefix("valid OpenAPI 3.1.0: 28 paths"), "\(result.output)")
    }

    @Test func infoSecurityAndSignIn() throws {
        let document = try Self.document(owner)
        #expect(document["openapi"] as? String == "3.1.0")
        let info = try #require(document["info"] as? [String: Any])
        #expect(info["title"] as? String == "OwnerDash")
        #expect(info["version"] as? String == ToolVersion.current)   // what `ownerdash --version` prints
        let schemes = try #require((document["components"] as? [String: Any])?["securitySchemes"] as? [String: [String: Any]])
        #expect(schemes["session"]?["in"] as? String == "cookie" && schemes["session"]?["name"] as? String == SignIn.sessionCookie)
        #expect(schemes["bearer"]?["type"] as? String == "http" && schemes["bearer"]?["scheme"] as? String == "bearer")
        // Each operation says who may call it: /healthz anyone, everything else (the document too) a signed-in user.
        for (path, method, operation) in Self.operations(document) {
            let security = try #require(operation["security"] as? [[String: [String]]], "\(method) \(path)")
            #expect(security.isEmpty == (path == "/healthz"), "\(method) \(path)")
            if !security.isEmpty { #expect(Set(security.flatMap(\.keys)) == ["session", "bearer"], "\(method) \(path)") }
        }
        let anonymous = try fixture.server(viewer: nil)
        #expect(try Client(port: anonymous.port).get("/api/v2/openapi.json").status == 401)
        #expect(try Client(port: anonymous.port).get("/api/docs").status == 401)
    }

    /// The document is the table's: the same operations, none added or dropped on the way.
    @Test func theDocumentHasExactlyTheRoutesServed() throws {
        let documented = Set(Self.operations(try Self.document(owner)).map { "\($0.method) \($0.path)" })
        let served = Set(APIRoutes.table.map { "\($0.method.rawValue) \($0.path)" })
        #expect(documented == served)
        #expect(Set(APIRoutes.table.map(\.operationID)).count == APIRoutes.table.count, "operationIds are unique")
        // No two templates of a method fit the same path (dispatch never depends on the table's order): a path
        // parameter's sample value is never one of the literals of another template.
        for route in APIRoutes.table {
            let path = route.segments.map { part -> String in
                if case .literal(let literal) = part { return literal }
                return "x"
            }
            #expect(APIRoutes.table.filter { $0.method == route.method && $0.match(path) != nil }.count == 1, "\(route.path)")
        }
    }

    // MARK: - Every route answers as documented

    @Test func everyRouteAnswersAsDocumented() throws {
        let document = try Self.document(owner)
        let manager = try fixture.server(viewer: Viewer(email: "manager@example.com", role: .manager, properties: ["yp"]))
        let anonymous = try fixture.server(viewer: nil)
        var answers: [Answer] = []
        func send(_ server: DashboardServer, _ method: String, _ template: String, _ url: String, body: String? = nil,
                  headers: [(name: String, value: String)] = []) throws -> CurlKit.HTTPResponse {
            let response = try HTTPClient().send(HTTPRequest(method: method, url: "http://127.0.0.1:\(server.port)\(url)",
                                                             headers: headers, body: body.map { Array($0.utf8) }))
            answers.append(Answer(method: method, path: template, status: response.status,
                                  content_type: response.headers["content-type"] ?? "", body: response.bodyText))
            return response
        }
        // A reopen after its resolve.
        for (template, method, operation) in Self.operations(document).sorted(by: { !$0.path.hasSuffix("/reopen") && $1.path.hasSuffix("/reopen") }) {
            let parameters = operation["parameters"] as? [[String: Any]] ?? []
            var path = template
            for parameter in parameters where parameter["in"] as? String == "path" {
                let name = try #require(parameter["name"] as? String)
                let value = try #require(Self.pathValue(name, template: template), "no sample value for {\(name)} of \(template): add one")
                path = path.replacingOccurrences(of: "{\(name)}", with: value)
            }
            let query = parameters.filter { $0["in"] as? String == "query" }
            let required = try query.filter { $0["required"] as? Bool == true }.map { parameter -> String in
                let name = parameter["name"] as? String ?? ""
                return "\(name)=\(try #require(Self.sample(parameter["schema"] as? [String: Any] ?? [:]), "\(template) \(name)"))"
            }
            let url = path + (required.isEmpty ? "" : "?" + required.joined(separator: "&"))
            let label = "\(method) \(url)"
            if method == "POST" {
                #expect(try send(anonymous, method, template, url).status == 401, "\(label)")
                if template.hasSuffix("/resolve") {
                    #expect(try send(owner, method, template, url, body: "action=charge").status == 400, "\(label)")
                    #expect(try send(owner, method, template, url, body: "fix=posted+the+water&action=charge").status == 200, "\(label)")
                    #expect(try send(owner, method, template, url.replacingOccurrences(of: "yp:L1:WATER:2026-11", with: "not-a-key"),
                                     body: "fix=x&action=charge").status == 400, "\(label)")
                } else {
                    #expect(try send(owner, method, template, url, body: "note=not+done").status == 200, "\(label)")
                    #expect(try send(owner, method, template, url, body: "note=twice").status == 409, "\(label)")   // not resolved
                }
                continue
            }
            let ok = try send(owner, method, template, url)
            #expect(ok.status == 200, "\(label): \(ok.bodyText.prefix(300))")
            if let tag = ok.headers["etag"] {
                #expect(try send(owner, method, template, url, headers: [("If-None-Match", tag)]).status == 304, "\(label)")
            }
            if template.contains("{property}") {
                let elsewhere = url.replacingOccurrences(of: "/properties/yp/", with: "/properties/nowhere/")
                #expect(try send(owner, method, template, elsewhere).status == 404, "\(label)")
                // rp: RealPage, no ledger; whatever it answers must be documented.
                _ = try send(owner, method, template, url.replacingOccurrences(of: "/properties/yp/", with: "/properties/rp/"))
            }
            let anonymousStatus = try send(anonymous, method, template, url).status
            #expect(anonymousStatus == ((operation["security"] as? [Any])?.isEmpty == true ? 200 : 401), "\(label)")
            _ = try send(manager, method, template, url)
            guard (operation["security"] as? [Any])?.isEmpty == false else { continue }
            let unknown = try send(owner, method, template, url + (required.isEmpty ? "?" : "&") + "not_a_parameter=1")
            #expect(unknown.status == 400, "\(label)")
            // Every documented query parameter is taken (a 400, if any, is about its value, never "unknown").
            for parameter in query where parameter["required"] as? Bool != true {
                let name = parameter["name"] as? String ?? ""
                let value = try #require(Self.sample(parameter["schema"] as? [String: Any] ?? [:]), "\(template) \(name)")
                let answer = try send(owner, method, template, url + (required.isEmpty ? "?" : "&") + "\(name)=\(value)")
                #expect(!answer.bodyText.contains("unknown parameter"), "\(label) \(name)=\(value): \(answer.bodyText)")
            }
        }
        // Each operation answered 200 at least once; every answer's status documented and body valid (the script).
        let answered = Set(answers.filter { $0.status == 200 }.map { "\($0.method) \($0.path)" })
        // The answers summed from yp's ledger named it (and were validated with the table, below).
        for route in ["debtors", "rental-tracker", "delinquency", "summary", "lease-status"] {
            #expect(answers.contains { $0.status == 200 && $0.path.hasSuffix("/\(route)") && $0.body.contains("\"ledger_whole_as_of\"") },
                    "\(route)")
        }
        #expect(answered == Set(Self.operations(document).map { "\($0.method) \($0.path)" }))
        let result = try Self.validate(document: try JSONSerialization.data(withJSONObject: document), answers: answers)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("\(answers.count) answers as documented"), "\(result.output)")
    }

    /// Nothing is served beside the table: a documented path with a segment more, less or changed is not an endpoint
    /// (404, or 400/405), and every URL the API has answered (APIAnswersTests') fits a documented template.
    @Test func theServerAnswersNothingTheDocumentLacks() throws {
        let client = Client(port: owner.port)
        for route in APIRoutes.table where route.method == .get && route.callers != .anyone {
            let path = route.path.replacingOccurrences(of: "{property}", with: "yp").replacingOccurrences(of: "{resident}", with: "t1")
                .replacingOccurrences(of: "{unit}", with: "101").replacingOccurrences(of: "{run}", with: "latest")
            for variant in [path + "/more", String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) + "/other", path + "x"] {
                guard !Self.documented("GET", variant) else { continue }
                let response = try client.get(variant)
                #expect(response.status == 404, "\(variant): \(response.status) \(response.bodyText.prefix(200))")
            }
        }
        for url in ["/healthz", "/api/v2/openapi.json", "/api/v2/properties", "/api/v2/portfolio/summary", "/api/v2/properties/yp/occupancy",
                    "/api/v2/properties/rp/exposure", "/api/v2/properties/rp/pricing", "/api/v2/properties/rp/delinquency",
                    "/api/v2/properties/rp/leasing-funnel", "/api/v2/properties/rp/activity", "/api/v2/properties/yp/summary",
                    "/api/v2/properties/yp/units/raw", "/api/v2/properties/yp/residents/raw", "/api/v2/properties/yp/lease-status",
                    "/api/v2/properties/yp/debtors", "/api/v2/properties/yp/rental-tracker", "/api/v2/properties/yp/residents/t1/statement",
                    "/api/v2/properties/yp/units/101/history", "/api/v2/properties/yp/maintenance", "/api/v2/properties/yp/expenses",
                    "/api/v2/runs", "/api/v2/runs/20261120T020000Z-ab12", "/api/v2/audit/runs", "/api/v2/audit/runs/latest",
                    "/api/v2/audit/runs/1"] {
            #expect(Self.documented("GET", url), "\(url)")
        }
        #expect(Self.documented("POST", "/api/v2/audit/exceptions/yp:L1:WATER:2026-11/resolve"))
        #expect(Self.documented("POST", "/api/v2/audit/exceptions/yp:L1:WATER:2026-11/reopen"))
    }

    /// The validator rejects what is wrong (so a pass means something): a 3.0 document, an undocumented status, a body
    /// off its schema, a date that is not one.
    @Test func theValidatorRejectsWhatIsWrong() throws {
        var document = try Self.document(owner)
        document["openapi"] = "3.0.3"
        let old = try Self.validate(document: try JSONSerialization.data(withJSONObject: document))
        #expect(old.status == 1 && old.output.contains("openapi"), "\(old.output)")
        document["openapi"] = "3.1.0"
        let data = try JSONSerialization.data(withJSONObject: document)
        let health = Answer(method: "GET", path: "/healthz", status: 200, content_type: "application/json", body: "{\"status\": \"ok\"}")
        #expect(try Self.validate(document: data, answers: [health]).status == 0)
        for wrong in [Answer(method: "GET", path: "/healthz", status: 418, content_type: "application/json", body: "{}"),
                      Answer(method: "GET", path: "/healthz", status: 200, content_type: "application/json", body: "{\"status\": \"ok\", \"more\": 1}"),
                      Answer(method: "GET", path: "/api/v2/properties", status: 200, content_type: "application/json",
                             body: "{\"metric\": \"properties\", \"parameters\": {}, \"rows\": [{\"property\": \"yp\", \"name\": \"Y\", \"pms\": \"yardi\", \"total_units\": 2, \"as_of\": \"2026-13-45\"}], \"total\": null}"),
                      Answer(method: "GET", path: "/api/v2/properties", status: 404, content_type: "application/problem+json", body: "{\"title\": \"x\"}")] {
            let result = try Self.validate(document: data, answers: [wrong])
            #expect(result.status == 1, "\(wrong.status) \(wrong.body): \(result.output)")
        }
    }

    // MARK: - The page

    @Test func theDocsPageShowsEveryOperationAndFetchesNothing() throws {
        let document = try Self.document(owner)
        let page = try Client(port: owner.port).get("/api/docs")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)
        let html = page.bodyText
        #expect(html.contains("<h1>OwnerDash API \(ToolVersion.current)</h1>"))
        #expect(html.contains("href=\"/api/v2/openapi.json\""))
        for (path, method, operation) in Self.operations(document) {
            let id = try #require(operation["operationId"] as? String)
            #expect(html.contains("id=\"op-\(id)\""), "\(id)")
            #expect(html.contains("<span class=\"method \(method)\">\(method)</span> <code>\(path)</code>"), "\(method) \(path)")
            for parameter in operation["parameters"] as? [[String: Any]] ?? [] {
                #expect(html.contains("<code>\(parameter["name"] as? String ?? "")</code>"), "\(path)")
            }
        }
        #expect(html.contains("<code>months_behind</code>"))   // a schema's members are on the page
        // Self-contained: no script, style sheet, image or frame from anywhere.
        for needle in ["<script", "<link", "src=", "<iframe", "@import", "url("] { #expect(!html.contains(needle), "\(needle)") }
        #expect(!html.contains("http://") && !html.contains("https://"))
    }

    // MARK: - Helpers

    /// One answer the server gave, as scripts/openapi/validate.py reads it.
    struct Answer: Encodable {
        var method: String
        var path: String
        var status: Int
        var content_type: String
        var body: String
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The served document, parsed.
    static func document(_ server: DashboardServer) throws -> [String: Any] {
        let response = try Client(port: server.port).get("/api/v2/openapi.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    /// (path template, method, operation) in the document's order.
    static func operations(_ document: [String: Any]) -> [(path: String, method: String, operation: [String: Any])] {
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        return paths.keys.sorted().flatMap { path in
            (paths[path] ?? [:]).keys.sorted().compactMap { method in
                (paths[path]?[method] as? [String: Any]).map { (path, method.uppercased(), $0) }
            }
        }
    }

    /// Whether a documented template fits the path.
    static func documented(_ method: String, _ path: String) -> Bool {
        let segments = path.split(separator: "/").map(String.init)
        return APIRoutes.table.contains { $0.method.rawValue == method && $0.match(segments) != nil }
    }

    /// The fixture's value for a path parameter (`run` is a run id under /runs, an audit run under /audit).
    static func pathValue(_ name: String, template: String) -> String? {
        switch name {
        case "property": "yp"
        case "resident": "t1"
        case "unit": "101"
        case "run": template.hasPrefix("/api/v2/audit/") ? "latest" : "20261120T020000Z-ab12"
        case "key": "yp:L1:WATER:2026-11"
        default: nil
        }
    }

    /// A valid value of a query parameter's schema, other than its default.
    static func sample(_ schema: [String: Any]) -> String? {
        if let words = schema["enum"] as? [String] { return words.last { $0 != schema["default"] as? String } }
        switch schema["type"] as? String {
        case "string":
            if schema["format"] as? String == "date" { return "2026-11-20" }
            if schema["pattern"] as? String == APIParameter.monthPattern { return "2026-10" }
            return nil
        case "integer":
            let low = schema["minimum"] as? Int ?? 0, high = schema["maximum"] as? Int ?? low
            return String(low != schema["default"] as? Int ? low : high)
        case "boolean": return "true"
        case "number": return "0"
        default: return nil
        }
    }

    /// Runs scripts/openapi/validate.py (Debian's python3 and python3-jsonschema) over the document and answers.
    static func validate(document: some DataProtocol, answers: [Answer]? = nil) throws -> (status: Int32, output: String) {
        try #require(FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/jsonschema"),
                     "needs Debian's python3-jsonschema (scripts/test.sh installs it)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let documentFile = directory.appendingPathComponent("openapi.json")
        try Data(document).write(to: documentFile)
        var arguments = [root.appendingPathComponent("scripts/openapi/validate.py").path,
                         root.appendingPathComponent("Tests/Fixtures/openapi/openapi-3.1-schema.json").path, documentFile.path]
        if let answers {
            let answersFile = directory.appendingPathComponent("answers.json")
            try JSONEncoder().encode(answers).write(to: answersFile)
            arguments.append(answersFile.path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")   // Debian's, which has python3-jsonschema
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
