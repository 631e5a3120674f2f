import Foundation
import HTTPServer
import Ledger
import LibCryptoKit
import Metrics
import OwnerDashCore
import Render
import RunRecords
import SQLiteKit
import Sync

/// The read-only JSON API under `/api/v2`: each endpoint answers with the same JSON as the CLI command asking the same
/// question with `--format json` (the same report builders and the same encoder), scoped to what the viewer may see.
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

    /// What a path under `/api/v2/properties/{id}/` asks, beside the metric endpoints.
    static let propertyMetrics: [String: MetricQuery.Metric] = [
        "occupancy": .occupancy, "exposure": .exposure, "pricing": .pricing, "delinquency": .delinquency,
        "leasing-funnel": .funnel, "activity": .activity, "summary": .summary,
    ]

    /// Answers one API request (`segments`: the path's parts after `api/v2`).
    func respond(_ request: ServerRequest, segments: [String], viewer: Viewer) -> ServerResponse {
        do {
            guard request.method == "GET" || request.method == "HEAD" else {
                throw Problem(status: 405, title: "Method Not Allowed", detail: "\(request.method) is not allowed here; the API is read-only",
                              headers: ["Allow": "GET, HEAD"])
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
                    body = try answer(database, segments: segments, request: request, viewer: viewer)
                    if let run { cache.keep(body, run: run, key: key) }
                }
                var response = ServerResponse(status: 200, contentType: "application/json; charset=utf-8", text: body)
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

    // MARK: - The state-changing requests

    /// `POST /api/v2/audit/exceptions/{key}/resolve` (form fields `fix`, `action`, `note`) and `.../reopen` (`note`):
    /// recorded as the signed-in user. A session must send its CSRF token; a bearer token needs none.
    func change(_ request: ServerRequest, segments: [String], viewer: Viewer, csrf: String?) -> ServerResponse {
        do {
            guard segments.count == 4, segments[0] == "audit", segments[1] == "exceptions",
                  segments[3] == "resolve" || segments[3] == "reopen" else {
                throw Problem(status: 405, title: "Method Not Allowed", detail: "POST is allowed only on audit exceptions' resolve and reopen",
                              headers: ["Allow": "GET, HEAD"])
            }
            if let csrf, !SignIn.carriesToken(request, csrf) {
                throw Problem(status: 403, title: "Forbidden", detail: "missing or wrong CSRF token (X-CSRF-Token header or csrf field)")
            }
            let key: AuditKey
            do {
                key = try AuditKey(parsing: segments[2])
            } catch {
                throw Problem.badParameter("key", "\"\(Parameters.clip(segments[2]))\" is not property:lease:charge code:YYYY-MM")
            }
            guard viewer.sees(key.property) else { throw Problem.notFound("no audit exception \(Parameters.clip(segments[2]))") }
            let fields = request.formFields
            let note = fields["note"].flatMap { $0.isEmpty ? nil : $0 }
            // Read from the server's mirror (--database-url), the audit's resolutions are not kept on the server yet: a
            // resolution written here would be lost at the next refresh.
            guard dataDirectory.readerUnifiedDatabase == nil else {
                throw Problem(status: 409, title: "Conflict", detail: "audit resolutions are recorded with ownerdash audit resolve on the host that runs the audit; this server reads the unified data from PostgreSQL")
            }
            let database = try Database(path: dataDirectory.unifiedDatabase)
            let at = Timestamp.iso()
            let run: Int64
            do {
                if segments[3] == "resolve" {
                    guard let fix = fields["fix"], !fix.trimmingCharacters(in: .whitespaces).isEmpty else {
                        throw Problem.badParameter("fix", "required (what was done)")
                    }
                    guard let action = fields["action"].flatMap(AuditResolutions.Action.init(rawValue:)) else {
                        throw Problem.badParameter("action", "must be one of \(AuditResolutions.Action.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    run = try AuditResolutions.resolve(database: database, key: key, fix: fix, action: action, by: viewer.email,
                                                       note: note, at: at)
                } else {
                    run = try AuditResolutions.reopen(database: database, key: key, by: viewer.email, note: note, at: at)
                }
            } catch let error as AuditError {
                throw Problem(status: 409, title: "Conflict", detail: error.description)
            }
            log.info(nil, "serve: \(key) \(segments[3] == "resolve" ? "resolved" : "reopened") by \(viewer.email)")
            let body = "{\"key\": \(JSONFormat.string(key.description)), \"status\": \"\(segments[3] == "resolve" ? "resolved" : "reopened")\", "
                + "\"by\": \(JSONFormat.string(viewer.email)), \"at\": \(JSONFormat.string(at)), \"audit_run\": \(run)}\n"
            return ServerResponse(status: 200, contentType: "application/json; charset=utf-8", text: body,
                                  headers: [("Cache-Control", "no-store")])
        } catch let problem as Problem {
            return problem.response
        } catch {
            log.error(nil, "serve: \(request.method) \(request.path): \(error)")
            return Problem(status: 500, title: "Internal Server Error", detail: "the change could not be recorded; see the server log").response
        }
    }

    // MARK: - Routing

    private func answer(_ database: Database, segments: [String], request: ServerRequest, viewer: Viewer) throws -> String {
        switch segments {
        case ["properties"]:
            _ = try Parameters(request, allowed: [])
            return MetricOutput.render(try propertyList(database, viewer: viewer), as: .json)
        case ["portfolio", "summary"]:
            let parameters = try Parameters(request, allowed: ["as_of"])
            let visible = viewer.visible(try Metrics.properties(database: database).map(\.key))
            guard !visible.isEmpty else { throw Problem.notFound("no synced property to summarize") }
            // An owner's portfolio is every property (the CLI's `query summary`); a manager's is theirs, rolled up
            // as a portfolio too (the `portfolio` total row over their properties only, none left out for lack of a
            // snapshot at as_of while another has one).
            var query = MetricQuery(metric: .summary, asOf: try parameters.date("as_of"))
            if viewer.role != .owner { query.within = Set(visible) }
            return try answer(query, database: database)
        case ["runs"]:
            try ownersOnly(viewer)
            let parameters = try Parameters(request, allowed: ["limit"])
            let limit = try parameters.integer("limit", in: 1...1000, default: 20)
            return try RunJSON.render(try RunHistory(database: database).list(limit: limit))
        case let path where path.count == 2 && path[0] == "runs":
            try ownersOnly(viewer)
            _ = try Parameters(request, allowed: [])
            let history = RunHistory(database: database)
            guard let run = try history.run(path[1]) else { throw Problem.notFound("no run \(Parameters.clip(path[1]))") }
            return try RunJSON.render(RunDetail(run: run, items: try history.items(of: path[1]),
                                                checks: try history.checks(of: path[1])))
        case ["audit", "runs"]:
            try ownersOnly(viewer)
            _ = try Parameters(request, allowed: [])
            return MetricOutput.render(try AuditRunList.result(database), as: .json)
        case let path where path.count == 3 && path[0] == "audit" && path[1] == "runs":
            try ownersOnly(viewer)
            let parameters = try Parameters(request, allowed: ["exceptions_only"])
            let runID: Int64?
            if path[2] == "latest" {
                runID = nil
            } else {
                guard let id = Int64(path[2]), id > 0 else { throw Problem.badParameter("run", "\"\(Parameters.clip(path[2]))\" is not an audit run id (a number, or latest)") }
                runID = id
            }
            do {
                return MetricOutput.render(try ReportAnswers.audit(database: database, runID: runID,
                                                                   exceptionsOnly: try parameters.flag("exceptions_only")).result, as: .json)
            } catch let error as AuditError {
                throw Problem.notFound(error.description)
            }
        case let path where path.count >= 3 && path[0] == "properties":
            let property = path[1]
            try requireProperty(property, database: database, viewer: viewer)
            return try propertyAnswer(database, property: property, rest: Array(path.dropFirst(2)), request: request)
        default:
            throw Problem.notFound("no API endpoint at \(Parameters.clip(request.path))")
        }
    }

    private func propertyAnswer(_ database: Database, property: String, rest: [String], request: ServerRequest) throws -> String {
        if rest.count == 1, let metric = Self.propertyMetrics[rest[0]] {
            var allowed: Set<String> = ["as_of", "from", "to"]
            if metric == .delinquency { allowed.insert("top") }
            if metric == .summary { allowed = ["as_of"] }
            let parameters = try Parameters(request, allowed: allowed)
            let from = try parameters.date("from"), to = try parameters.date("to")
            if let from, let to, from > to { throw Problem.badParameter("from", "\(from.iso) is after to \(to.iso)") }
            let query = MetricQuery(metric: metric, properties: [property], asOf: try parameters.date("as_of"), from: from, to: to,
                                    top: metric == .delinquency ? try parameters.integer("top", in: 0...1000, default: 10) : nil)
            do {
                try query.validate()
            } catch MetricsError.invalidQuery(let message) {
                throw Problem.badParameter(["as_of", "from", "to"].first { parameters.text($0) != nil } ?? "query",
                                           message.replacingOccurrences(of: "--", with: "").replacingOccurrences(of: "as-of", with: "as_of"))
            }
            return try answer(query, database: database)
        }
        switch rest {
        case ["units", "raw"]:
            _ = try Parameters(request, allowed: [])
            return MetricOutput.render(try RawRows.result(database, table: .units, property: property), as: .json)
        case ["residents", "raw"]:
            _ = try Parameters(request, allowed: [])
            return MetricOutput.render(try RawRows.result(database, table: .residents, property: property), as: .json)
        case ["lease-status"]:
            let parameters = try Parameters(request, allowed: ["start", "months", "include_inactive", "as_of"])
            guard let start = try parameters.month("start") else { throw Problem.badParameter("start", "required (YYYY-MM)") }
            return MetricOutput.render(try ReportAnswers.leaseStatus(
                database: database, properties: [property], start: start,
                months: try parameters.integer("months", in: 1...12, default: 3), asOf: try parameters.date("as_of"),
                includeInactive: try parameters.flag("include_inactive"), detailed: true).result, as: .json)
        case ["debtors"]:
            let parameters = try Parameters(request, allowed: ["as_of", "min_debt"])
            return MetricOutput.render(try ReportAnswers.debtors(
                database: database, properties: [property], asOf: try parameters.date("as_of"),
                minDebt: try parameters.amount("min_debt")).result, as: .json)
        case ["rental-tracker"]:
            let parameters = try Parameters(request, allowed: ["as_of", "min_balance", "min_months_behind", "sort"])
            let sort = try parameters.choice("sort", RentalTracker.Sort.allCases.map(\.rawValue)).flatMap(RentalTracker.Sort.init(rawValue:)) ?? .balance
            return MetricOutput.render(try ReportAnswers.rentalTracker(
                database: database, properties: [property], asOf: try parameters.date("as_of"),
                minBalance: try parameters.amount("min_balance"),
                minMonthsBehind: try parameters.integer("min_months_behind", in: 0...120, default: 1), sort: sort).result, as: .json)
        case ["maintenance"]:
            let parameters = try Parameters(request, allowed: ["as_of", "months", "older_than"])
            return MetricOutput.render(try ReportAnswers.maintenance(
                database: database, properties: [property], asOf: try parameters.date("as_of"),
                months: try parameters.integer("months", in: 1...24, default: 3),
                olderThanDays: try parameters.integer("older_than", in: 0...36500, default: 30)), as: .json)
        case ["expenses"]:
            let parameters = try Parameters(request, allowed: ["start", "months"])
            return MetricOutput.render(try ReportAnswers.expenses(
                database: database, properties: [property], start: try parameters.month("start"),
                months: try parameters.integer("months", in: 1...24, default: 3)), as: .json)
        case let path where path.count == 3 && path[0] == "residents" && path[2] == "statement":
            let parameters = try Parameters(request, allowed: ["from", "as_of"])
            switch try ReportAnswers.statement(database: database, residentID: path[1], properties: [property],
                                               from: try parameters.month("from"), asOf: try parameters.date("as_of")) {
            case .success(let answer): return MetricOutput.render(answer.result, as: .json)
            case .failure(.noResident), .failure(.ambiguous):
                throw Problem.notFound("no resident \(Parameters.clip(path[1])) in \(property)")
            case .failure(.partialLedger):
                throw Problem.notFound("\(property) has a partial ledger (balances only), so no statement")
            case .failure(.noLedger):
                throw Problem.notFound("\(property) has no tenant ledger, so no statement")
            }
        case let path where path.count == 3 && path[0] == "units" && path[2] == "history":
            _ = try Parameters(request, allowed: [])
            guard let result = try ReportAnswers.tenantHistory(database: database, property: property, unit: path[1]) else {
                throw Problem.notFound("\(property) has no unit \(Parameters.clip(path[1]))")
            }
            return MetricOutput.render(result, as: .json)
        default:
            throw Problem.notFound("no API endpoint at \(Parameters.clip(request.path))")
        }
    }

    private func answer(_ query: MetricQuery, database: Database) throws -> String {
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

    // MARK: - Scope

    /// 404 for a property unified.db does not hold and for one the viewer may not see: the two are not told apart.
    private func requireProperty(_ property: String, database: Database, viewer: Viewer) throws {
        let known = try database.scalar("SELECT 1 FROM unified_properties WHERE unified_property_id = :p", [":p": .text(property)]) != nil
        guard known, viewer.sees(property) else { throw Problem.notFound("no property \(Parameters.clip(property))") }
    }

    /// Runs and audits span every property: owners only.
    private func ownersOnly(_ viewer: Viewer) throws {
        guard viewer.role == .owner else {
            throw Problem(status: 403, title: "Forbidden", detail: "runs and audits span every property: owners only")
        }
    }

    private func propertyList(_ database: Database, viewer: Viewer) throws -> MetricResult {
        let rows: [[SQLValue]] = try Metrics.properties(database: database).filter { viewer.sees($0.key) }.map {
            [.text($0.key), .text($0.name), .text($0.pms), SQLValue($0.totalUnits), $0.lastSyncedAsOf.map { .text($0.iso) } ?? .null]
        }
        return MetricResult(metric: "properties", parameters: [], tables: [
            MetricTable(name: "rows", title: "Properties", columns: [
                .init("property", .text), .init("name", .text), .init("pms", .text), .init("total_units", .count),
                .init("as_of", .date),
            ], rows: rows),
        ])
    }

    // MARK: - Caching

    /// The latest run, which versions every answer over synced data (unified.db changes only through runs: ingest and
    /// sync each record one). nil — no tag, nothing cached — while that run is still writing (or died writing), for
    /// runs and audits, which change between syncs, and when no run is recorded.
    private func lastRun(_ reader: ReaderPool.Reader, segments: [String]) throws -> String? {
        guard let first = segments.first, first == "properties" || first == "portfolio" else { return nil }
        guard let latest = try reader.latestRun(), latest.finished else { return nil }
        return latest.runID
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
