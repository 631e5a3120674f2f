import Foundation
import HTTPServer
import LibCryptoKit
import Metrics
import OwnerDashCore
import Render
import SQLiteKit

/// The JSON API under `/api/v2`: each endpoint answers with the same JSON as the CLI command asking the same question
/// with `--format json` (the same report builders and the same encoder), scoped to what the viewer may see. Requests are
/// dispatched on `APIRoutes.table` (APIRouteTable.swift), which `/api/v2/openapi.json` documents; this file is what
/// every route shares: the method, the scope, the query check, the caching and the problems.
public final class APIRoutes: Sendable {
    let readers: ReaderPool
    let dataDirectory: DataDirectory
    let log: Diagnostics
    let cache = AnswerCache()

    init(readers: ReaderPool, dataDirectory: DataDirectory, log: Diagnostics) {
        self.readers = readers
        self.dataDirectory = dataDirectory
        self.log = log
    }

    /// The route of `method` whose template fits a path under `/api/v2` (`segments`: the path's parts after it), and
    /// its path parameters' values; nil when none does.
    static func route(_ method: APIRoute.Method, _ segments: [String]) -> (route: APIRoute, values: [String: String])? {
        let path = ["api", "v2"] + segments
        for route in table where route.method == method {
            if let values = route.match(path) { return (route, values) }
        }
        return nil
    }

    /// The answer of a route open to anyone (`/healthz`) at the whole path `segments`, before any sign-in; nil for
    /// every other path. Any method is answered, as `/healthz` always was (a prober may send HEAD or POST).
    static func publicAnswer(_ segments: [String]) -> ServerResponse? {
        for route in table where route.callers == .anyone {
            guard route.match(segments) != nil, case .fixed(let body) = route.answer else { continue }
            return ServerResponse(status: 200, contentType: route.response.contentType, text: body())
        }
        return nil
    }

    /// Answers one API request (`segments`: the path's parts after `api/v2`).
    func respond(_ request: ServerRequest, segments: [String], viewer: Viewer) -> ServerResponse {
        do {
            guard request.method == "GET" || request.method == "HEAD" else {
                throw Problem(status: 405, title: "Method Not Allowed", detail: "\(request.method) is not allowed here; the API is read-only",
                              headers: ["Allow": "GET, HEAD"])
            }
            let found = Self.route(.get, segments)
            if let found, case .fixed(let body) = found.route.answer {
                // Made without unified.db (the document), so it answers before the first ingest.
                _ = try Parameters(request, allowed: found.route.queryNames)
                var response = ServerResponse(status: 200, contentType: found.route.response.contentType, text: body())
                response.headers += Self.cacheHeaders(nil)
                return response
            }
            return try readers.withReader { reader in
                let database = reader.database
                let run = try lastRun(reader, segments: segments)
                let tag = run.map { Self.entityTag(run: $0, viewer: viewer) }
                if let tag, Self.matches(request.header("If-None-Match"), tag) {
                    return ServerResponse(status: 304, headers: Self.cacheHeaders(tag))
                }
                // The query items in their order: the same URL, the same answer.
                let key = (tag ?? "") + "\n" + request.path + "?" + request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
                let body: String
                if let run, let kept = cache.answer(run: run, key: key) {
                    body = kept
                } else {
                    body = try Self.answer(database, found, segments: segments, request: request, viewer: viewer)
                    if let run { cache.keep(body, run: run, key: key) }
                }
                var response = ServerResponse(status: 200, contentType: found?.route.response.contentType ?? "application/json; charset=utf-8",
                                              text: body)
                response.headers += Self.cacheHeaders(tag)
                return response
            }
        } catch let problem as Problem {
            return problem.response
        } catch let error as ConfigurationError {
            log.error(nil, "serve: \(error.description)")
            return Problem(status: 503, title: "Service Unavailable", detail: "no readable unified.db yet (run ownerdash ingest)").response
        } catch {
            log.error(nil, "serve: \(request.method) \(request.path): \(error)")
            return Problem(status: 500, title: "Internal Server Error", detail: "the answer could not be computed; see the server log").response
        }
    }

    /// A read's answer: who may ask first (owners only, then the property's scope), then its query parameters, then
    /// its handler.
    private static func answer(_ database: Database, _ found: (route: APIRoute, values: [String: String])?, segments: [String],
                               request: ServerRequest, viewer: Viewer) throws -> String {
        guard let (route, values) = found, case .read(let handler) = route.answer else {
            // An unknown property is told as such before an unknown endpoint under it, as for a known endpoint.
            if segments.count >= 3, segments[0] == "properties" { try requireProperty(segments[1], database: database, viewer: viewer) }
            throw Problem.notFound("no API endpoint at \(Parameters.clip(request.path))")
        }
        if route.callers == .owners { try ownersOnly(viewer) }
        if let property = values["property"] { try requireProperty(property, database: database, viewer: viewer) }
        let query = try Parameters(request, allowed: route.queryNames)
        return try handler(APICall(request: request, route: route, viewer: viewer, database: database, pathValues: values, query: query))
    }

    // MARK: - The state-changing requests

    /// A POST route's change (`segments`: the path's parts after `api/v2`; the audit page's forms post to the same
    /// parts at the root), recorded as the signed-in user. A session must send its CSRF token; a bearer token needs none.
    func change(_ request: ServerRequest, segments: [String], viewer: Viewer, csrf: String?) -> ServerResponse {
        do {
            guard let (route, values) = Self.route(.post, segments), case .change(let handler) = route.answer else {
                throw Problem(status: 405, title: "Method Not Allowed", detail: "POST is allowed only on audit exceptions' resolve and reopen",
                              headers: ["Allow": "GET, HEAD"])
            }
            if let csrf, !SignIn.carriesToken(request, csrf) {
                throw Problem(status: 403, title: "Forbidden", detail: "missing or wrong CSRF token (X-CSRF-Token header or csrf field)")
            }
            let body = try handler(APIChange(request: request, route: route, viewer: viewer, dataDirectory: dataDirectory, log: log,
                                             pathValues: values))
            return ServerResponse(status: 200, contentType: route.response.contentType, text: body,
                                  headers: [("Cache-Control", "no-store")])
        } catch let problem as Problem {
            return problem.response
        } catch {
            log.error(nil, "serve: \(request.method) \(request.path): \(error)")
            return Problem(status: 500, title: "Internal Server Error", detail: "the change could not be recorded; see the server log").response
        }
    }

    // MARK: - Answers and scope

    /// A metric's answer; its refusals as problems.
    static func answer(_ query: MetricQuery, database: Database) throws -> String {
        do {
            return MetricOutput.render(try Metrics.run(query, database: database), as: .json)
        } catch let error as MetricsError {
            switch error {
            case .invalidQuery(let message): throw Problem(status: 400, title: "Bad Request", detail: message)
            case .unknownProperty, .wrongPMS, .nothingSynced, .noSnapshot, .noSnapshotBetween, .noUnitData:
                throw Problem.notFound("\(error)")
            }
        }
    }

    /// 404 for a property unified.db does not hold and for one the viewer may not see: the two are not told apart.
    private static func requireProperty(_ property: String, database: Database, viewer: Viewer) throws {
        let known = try database.scalar("SELECT 1 FROM unified_properties WHERE unified_property_id = :p", [":p": .text(property)]) != nil
        guard known, viewer.sees(property) else { throw Problem.notFound("no property \(Parameters.clip(property))") }
    }

    /// Runs and audits span every property: owners only.
    private static func ownersOnly(_ viewer: Viewer) throws {
        guard viewer.role == .owner else {
            throw Problem(status: 403, title: "Forbidden", detail: "runs and audits span every property: owners only")
        }
    }

    // MARK: - Caching

    /// The latest run, which versions every answer over synced data (unified.db changes only through runs: ingest and
    /// sync each record one). nil — no tag, nothing cached — while that run is still writing (or died writing), for
    /// runs and audits, which change between syncs, and when no run is recorded.
    private func lastRun(_ reader: ReaderPool.Reader, segments: [String]) throws -> String? {
        guard Self.versionedByRun(segments) else { return nil }
        guard let latest = try reader.latestRun(), latest.finished else { return nil }
        return latest.runID
    }

    /// Whether answers under these segments (after `api/v2`) are the synced data's, so versioned by the last run
    /// (`ETag`, 304): the properties' and the portfolio's, not the runs' and audits'.
    static func versionedByRun(_ segments: [String]) -> Bool {
        guard let first = segments.first else { return false }
        return first == "properties" || first == "portfolio"
    }

    /// The run and the viewer (two viewers of one URL see different answers).
    static func entityTag(run: String, viewer: Viewer) -> String {
        let hash = SHA256.hexDigest(of: "\(viewer.email)\n\(viewer.role.rawValue)\n\(viewer.properties.sorted().joined(separator: ","))")
        return "\"\(run)-\(hash.prefix(12))\""
    }

    static func matches(_ header: String?, _ tag: String) -> Bool {
        guard let header else { return false }
        if header.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return header.split(separator: ",").contains { candidate in
            var value = candidate.trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("W/") { value.removeFirst(2) }
            return value == tag
        }
    }

    static func cacheHeaders(_ tag: String?) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("Cache-Control", "private, no-cache"), ("Vary", "Cookie, Authorization")]
        if let tag { headers.append(("ETag", tag)) }
        return headers
    }
}
