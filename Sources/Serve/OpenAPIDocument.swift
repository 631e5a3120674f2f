import Foundation
import OwnerDashCore

/// `GET /api/v2/openapi.json`: the HTTP API as an OpenAPI 3.1 document, built from `APIRoutes.table` (the routes the
/// server dispatches on, with their parameters and answer schemas) and from the server's own rules for what every
/// route of a kind may answer (sign-in, scope, problems, caching), so it describes what is served.
enum OpenAPIDocument {
    /// The OpenAPI version written.
    static let version = "3.1.0"

    /// The document for the routes the server has.
    static let document: JSONValue = build(APIRoutes.table)
    /// The document as served.
    static let text: String = document.pretty

    static func build(_ routes: [APIRoute]) -> JSONValue {
        var paths: [JSONValue.Member] = []
        var schemas: [JSONValue.Member] = [.init("Problem", ResponseSchema.problem)]
        for route in routes {
            let operation = JSONValue.Member(route.method.rawValue.lowercased(), self.operation(route))
            if let index = paths.firstIndex(where: { $0.key == route.path }) {
                paths[index].value = paths[index].value.setting(operation.key, operation.value)
            } else {
                paths.append(.init(route.path, .object([operation])))
            }
            if let kept = schemas.first(where: { $0.key == route.response.name }) {
                precondition(kept.value == route.response.schema, "two schemas named \(route.response.name)")
            } else {
                schemas.append(.init(route.response.name, route.response.schema))
            }
        }
        return [
            "openapi": .string(version),
            "info": [
                "title": "OwnerDash",
                "version": .string(ToolVersion.current),
                "summary": "The read-only HTTP API of ownerdash serve over the unified property data.",
                "description": .string(description),
            ],
            "security": [["session": []], ["bearer": []]],
            "tags": .array(tags.map { ["name": .string($0.name), "description": .string($0.description)] }),
            "paths": .object(paths),
            "components": [
                "schemas": .object(schemas),
                "responses": .object(sharedProblems.map { .init($0.name, problemResponse($0.status, $0.when, shared: false)) }),
                "securitySchemes": [
                    "session": [
                        "type": "apiKey", "in": "cookie", "name": .string(SignIn.sessionCookie),
                        "description": "The browser's session after signing in at /auth/signin (OpenID Connect). A POST with it must also carry the session's CSRF token (X-CSRF-Token header or csrf form field).",
                    ],
                    "bearer": [
                        "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                        "description": "The OpenID provider's ID token (not an access token), verified as a browser's sign-in is (issuer, audience, expiry, signature by the provider's keys); its email claim must name a user in users.db. No CSRF token is needed.",
                    ],
                ],
            ],
        ]
    }

    static let description = """
        Every body is byte for byte the JSON of the CLI command asking the same question with `--format json`; query \
        parameters are the CLI options with underscores. Users see only their properties: a property they may not see \
        is answered as unknown (404). Errors are RFC 9457 problem details (`application/problem+json`). Answers over \
        synced data carry an `ETag` (the last finished run and the user) and answer `If-None-Match` with 304 until the \
        next sync. HEAD is answered as GET; any other method is 405 (`Allow: GET, HEAD`), except POST on the audit's \
        resolve and reopen. The page /api/docs shows this document.
        """

    static let tags: [(name: String, description: String)] = [
        ("Service", "The server itself."),
        ("Properties", "The properties and the portfolio."),
        ("Metrics", "A property's metrics (ownerdash query METRIC --property KEY)."),
        ("Reports", "A property's reports (ownerdash report ... --property KEY) and raw rows."),
        ("Forecast", "Who is likely to be behind next month (ownerdash forecast delinquency): only while the portfolio's model passed its backtest."),
        ("Runs", "The recorded ingest and sync runs (owners only)."),
        ("Audit", "The lease-charge audit: its runs (owners only) and resolving its exceptions."),
    ]

    /// The problems routes of a kind share, under `components.responses` by name.
    static let sharedProblems: [(name: String, status: Int, when: String)] = [
        ("BadRequest", 400, "A query parameter is unknown, repeated or malformed (invalid_params names it), or the path has an empty, . or .. segment."),
        ("Unauthorized", 401, "Not signed in, or the session or bearer token was refused."),
        ("NotAUser", 403, "The e-mail signed in with is not a user."),
        ("OwnersOnly", 403, "The e-mail signed in with is not a user, or the user is a manager (runs and audits span every property: owners only)."),
        ("NoProperty", 404, "No such property, or one the user may not see (answered alike, so keys cannot be probed)."),
        ("ServerError", 500, "The server failed (see its log)."),
        ("NoData", 503, "unified.db cannot be read yet (run ownerdash ingest)."),
    ]

    private static func shared(_ name: String) -> (status: Int, when: String) {
        guard let problem = sharedProblems.first(where: { $0.name == name }) else { preconditionFailure(name) }
        return (problem.status, problem.when)
    }

    /// The problem statuses the route may answer, each with when: those of every route of its kind, then its own
    /// (added to the shared text of the same status).
    static func problems(_ route: APIRoute) -> [(status: Int, when: String)] {
        guard route.callers != .anyone else { return [] }
        var common = [shared("Unauthorized"), shared(route.callers == .owners ? "OwnersOnly" : "NotAUser"), shared("ServerError")]
        if route.method == .get {
            common.append(shared("BadRequest"))
            if case .read = route.answer { common.append(shared("NoData")) }
        }
        // The dispatcher checks the property's scope before the handler runs.
        if route.method == .get, route.parameters.contains(where: { $0.name == "property" && $0.location == .path }) {
            common.append(shared("NoProperty"))
        }
        var merged: [Int: String] = [:]
        for (status, when) in common + route.problems {
            merged[status] = merged[status].map { "\($0) Or: \(when)" } ?? when
        }
        return merged.keys.sorted().map { ($0, merged[$0] ?? "") }
    }

    /// A problem answer: a reference to the shared one when it is that (and `shared`), else its own.
    private static func problemResponse(_ status: Int, _ when: String, shared: Bool = true) -> JSONValue {
        if shared, let name = sharedProblems.first(where: { $0.status == status && $0.when == when })?.name {
            return ["$ref": .string("#/components/responses/\(name)")]
        }
        var response: JSONValue = ["description": .string(when),
                                   "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]]]
        if status == 401 {
            response = response.setting("headers", ["WWW-Authenticate": ["description": "Bearer realm=\"ownerdash\"", "schema": ["type": "string"]]])
        }
        return response
    }

    /// Whether the route's answers carry an `ETag` and answer `If-None-Match` with 304.
    static func versioned(_ route: APIRoute) -> Bool {
        guard case .read = route.answer, route.path.hasPrefix("/api/v2/") else { return false }
        return APIRoutes.versionedByRun(route.path.split(separator: "/").dropFirst(2).map(String.init))
    }

    private static func operation(_ route: APIRoute) -> JSONValue {
        var parameters: [JSONValue] = route.parameters.filter { $0.location != .form }.map { parameter in
            var object: JSONValue = ["name": .string(parameter.name), "in": .string(parameter.location.rawValue),
                                     "description": .string(parameter.description)]
            if parameter.required { object = object.setting("required", true) }
            return object.setting("schema", parameter.schema)
        }
        if versioned(route) {
            parameters.append(["name": "If-None-Match", "in": "header", "description": "An ETag this answer carried: 304 while it is current.",
                               "schema": ["type": "string"]])
        }
        var operation: JSONValue = [
            "tags": [.string(route.tag)],
            "summary": .string(route.summary),
            "description": .string(route.description + (route.callers == .owners ? " Owners only." : "")),
            "operationId": .string(route.operationID),
            "security": route.callers == .anyone ? [] : [["session": []], ["bearer": []]],
        ]
        if !parameters.isEmpty { operation = operation.setting("parameters", .array(parameters)) }
        let form = route.parameters.filter { $0.location == .form }
        if !form.isEmpty {
            operation = operation.setting("requestBody", [
                "required": .bool(form.contains(where: \.required)),
                "content": ["application/x-www-form-urlencoded": ["schema": [
                    "type": "object",
                    "properties": .object(form.map { .init($0.name, $0.schema.setting("description", .string($0.description))) }),
                    "required": .array(form.filter(\.required).map { .string($0.name) }),
                ]]],
            ])
        }
        var ok: JSONValue = [
            "description": .string(route.response.description),
            "content": .object([.init(mediaType(route.response.contentType), ["schema": ["$ref": .string("#/components/schemas/\(route.response.name)")]])]),
        ]
        if versioned(route) {
            ok = ok.setting("headers", ["ETag": ["description": "The last finished run and the user.", "schema": ["type": "string"]]])
        }
        var responses: [JSONValue.Member] = [.init("200", ok)]
        if versioned(route) {
            responses.append(.init("304", ["description": "Not Modified: If-None-Match names the current ETag (no body)."]))
        }
        for (status, when) in problems(route) {
            responses.append(.init(String(status), problemResponse(status, when)))
        }
        return operation.setting("responses", .object(responses))
    }

    /// `application/json` of `application/json; charset=utf-8`.
    static func mediaType(_ contentType: String) -> String {
        String(contentType.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces)
    }
}
