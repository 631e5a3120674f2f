import HTTPServer
import OwnerDashCore
import SQLiteKit

/// One operation of the HTTP API as a value: what `DashboardServer` dispatches on and what `/api/v2/openapi.json`
/// and `/api/docs` describe, from the same descriptor, so what is served and what is documented cannot differ. The
/// query parameters it takes are the ones its requests are checked against (any other is a 400), and its handler reads
/// them only through their descriptors (`APICall.integer("months")` takes the range and default from here).
struct APIRoute: Sendable {
    /// The methods the API has: reads, and the audit's recorded changes.
    enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
    }

    /// Who may call it.
    enum Callers: Sendable, Equatable {
        /// Before sign-in too (`/healthz`).
        case anyone
        /// Any user in users.db, scoped to the properties they may see.
        case users
        /// Owners only: runs and audits span every property.
        case owners
    }

    /// How the answer is made.
    enum Answer: Sendable {
        /// Without unified.db: the health check and the document itself, which answer while no data is there yet.
        case fixed(@Sendable () -> String)
        /// A question over unified.db (versioned by the last run, cached, 503 while unified.db cannot be read).
        case read(@Sendable (APICall) throws -> String)
        /// A change recorded as the signed-in user, with the session's CSRF token.
        case change(@Sendable (APIChange) throws -> String)
    }

    /// The 200 answer: its media type and the JSON Schema of its body, named (the name is its schema's key under
    /// `components.schemas`, so a generated client gets a type of that name).
    struct Response: Sendable {
        var name: String
        var description: String
        var schema: JSONValue
        var contentType = "application/json; charset=utf-8"
    }

    /// A path segment of the template.
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    var method: Method
    /// The path template: literal segments and `{name}` path parameters, `/api/v2/properties/{property}/occupancy`.
    var path: String
    /// The OpenAPI `operationId`: a generated client's method name.
    var operationID: String
    /// The group the operation is listed under.
    var tag: String
    var summary: String
    var description: String
    var callers: Callers
    /// Path, query, header and form parameters in the order they are documented.
    var parameters: [APIParameter]
    var response: Response
    /// The problem statuses this route answers beyond those every route of its kind does (`OpenAPIDocument.problems`),
    /// each with when.
    var problems: [(status: Int, when: String)]
    var answer: Answer

    init(_ method: Method, _ path: String, operationID: String, tag: String, summary: String, description: String,
         callers: Callers = .users, parameters: [APIParameter] = [], response: Response,
         problems: [(status: Int, when: String)] = [], answer: Answer) {
        self.method = method; self.path = path; self.operationID = operationID; self.tag = tag; self.summary = summary
        self.description = description; self.callers = callers; self.parameters = parameters; self.response = response
        self.problems = problems; self.answer = answer
        precondition(Set(parameters.map(\.name)).count == parameters.count, "\(path): a parameter declared twice")
        precondition(Set(segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } })
                        == Set(parameters.filter { $0.location == .path }.map(\.name)),
                     "\(path): its {parameters} and its path parameters differ")
    }

    /// The template's segments.
    var segments: [Segment] {
        path.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
    }

    /// The path parameters' values when `segments` (a request path's) fit the template, else nil.
    func match(_ segments: [String]) -> [String: String]? {
        let template = self.segments
        guard template.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (part, segment) in zip(template, segments) {
            switch part {
            case .literal(let literal): guard literal == segment else { return nil }
            case .parameter(let name): values[name] = segment
            }
        }
        return values
    }

    /// The query parameters a request may carry.
    var queryNames: Set<String> { Set(parameters.filter { $0.location == .query }.map(\.name)) }

    /// The descriptor of a parameter the handler reads; reading one it does not declare is a programming error, so
    /// that every parameter a handler reads is in the document.
    func parameter(_ name: String, _ location: APIParameter.Location) -> APIParameter {
        guard let parameter = parameters.first(where: { $0.name == name && $0.location == location }) else {
            preconditionFailure("\(path) reads the \(location.rawValue) parameter \(name) without declaring it")
        }
        return parameter
    }
}

/// A parameter of a route: where it is sent, its type (which is both how it is checked and how it is documented), and
/// what it means.
struct APIParameter: Sendable {
    /// Where it is sent.
    enum Location: String, Sendable {
        case path, query, header
        /// A field of an `application/x-www-form-urlencoded` body.
        case form
    }

    /// Its type and constraints.
    enum Kind: Sendable {
        /// Any text (a property key, a resident id).
        case text
        /// Text matching the pattern (a JSON Schema / ECMA-262 regular expression).
        case pattern(String)
        /// `YYYY-MM-DD`.
        case date
        /// `YYYY-MM`.
        case month
        /// A whole number in the range; `fallback` when absent.
        case integer(ClosedRange<Int>, fallback: Int)
        /// `true` or `false` (absent: `false`).
        case flag
        /// Dollars, 0 or more.
        case amount
        /// One of the words; `fallback` (when given) when absent.
        case choice([String], fallback: String?)
    }

    var name: String
    var location: Location
    var kind: Kind
    var description: String
    var required = false

    /// A path parameter (always required).
    static func path(_ name: String, _ description: String, kind: Kind = .text) -> APIParameter {
        APIParameter(name: name, location: .path, kind: kind, description: description, required: true)
    }

    /// A query parameter.
    static func query(_ name: String, _ kind: Kind, _ description: String, required: Bool = false) -> APIParameter {
        APIParameter(name: name, location: .query, kind: kind, description: description, required: required)
    }

    /// The `YYYY-MM` pattern of `LocalDate.isMonth` (which also wants the year from 1900 on).
    static let monthPattern = "^[0-9]{4}-(0[1-9]|1[0-2])$"

    /// Its JSON Schema in the document.
    var schema: JSONValue {
        switch kind {
        case .text: return ["type": "string"]
        case .pattern(let pattern): return ["type": "string", "pattern": .string(pattern)]
        case .date: return ["type": "string", "format": "date"]
        case .month: return ["type": "string", "pattern": .string(Self.monthPattern)]
        case .integer(let range, let fallback):
            return ["type": "integer", "minimum": .integer(range.lowerBound), "maximum": .integer(range.upperBound),
                    "default": .integer(fallback)]
        case .flag: return ["type": "boolean", "default": false]
        case .amount: return ["type": "number", "minimum": 0]
        case .choice(let words, let fallback):
            let schema: JSONValue = ["type": "string", "enum": .array(words.map(JSONValue.string))]
            return fallback.map { schema.setting("default", .string($0)) } ?? schema
        }
    }
}

/// A read as its handler sees it: who asks, unified.db, the route's path parameters, and its query parameters read
/// through their descriptors.
struct APICall {
    let request: ServerRequest
    let route: APIRoute
    let viewer: Viewer
    let database: Database
    let pathValues: [String: String]
    /// Checked against the route's query parameters (unknown or repeated names are a 400 before the handler runs).
    let query: Parameters

    /// A path parameter's value.
    func path(_ name: String) -> String {
        _ = route.parameter(name, .path)
        return pathValues[name] ?? ""
    }

    /// `YYYY-MM-DD`, nil when absent.
    func date(_ name: String) throws(Problem) -> LocalDate? {
        guard case .date = route.parameter(name, .query).kind else { preconditionFailure("\(name) is not a date") }
        return try query.date(name)
    }

    /// `YYYY-MM`, nil when absent; a 400 naming it when it is required and absent.
    func month(_ name: String) throws(Problem) -> String? {
        let parameter = route.parameter(name, .query)
        guard case .month = parameter.kind else { preconditionFailure("\(name) is not a month") }
        let month = try query.month(name)
        if month == nil, parameter.required { throw Problem.badParameter(name, "required (YYYY-MM)") }
        return month
    }

    /// A whole number in the declared range, else the declared fallback.
    func integer(_ name: String) throws(Problem) -> Int {
        guard case .integer(let range, let fallback) = route.parameter(name, .query).kind else { preconditionFailure("\(name) is not an integer") }
        return try query.integer(name, in: range, default: fallback)
    }

    /// `true` or `false` (absent: `false`).
    func flag(_ name: String) throws(Problem) -> Bool {
        guard case .flag = route.parameter(name, .query).kind else { preconditionFailure("\(name) is not a flag") }
        return try query.flag(name)
    }

    /// Dollars, 0 or more; nil when absent.
    func amount(_ name: String) throws(Problem) -> Double? {
        guard case .amount = route.parameter(name, .query).kind else { preconditionFailure("\(name) is not an amount") }
        return try query.amount(name)
    }

    /// One of the declared words, else the declared fallback.
    func choice(_ name: String) throws(Problem) -> String? {
        guard case .choice(let words, let fallback) = route.parameter(name, .query).kind else { preconditionFailure("\(name) is not a choice") }
        return try query.choice(name, words) ?? fallback
    }
}

/// A change as its handler sees it: who asks, the route's path parameters and the posted form.
struct APIChange {
    let request: ServerRequest
    let route: APIRoute
    let viewer: Viewer
    let dataDirectory: DataDirectory
    let log: Diagnostics
    let pathValues: [String: String]

    /// A path parameter's value.
    func path(_ name: String) -> String {
        _ = route.parameter(name, .path)
        return pathValues[name] ?? ""
    }

    /// A form field's value, nil when absent or empty.
    func form(_ name: String) -> String? {
        _ = route.parameter(name, .form)
        return request.formFields[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
