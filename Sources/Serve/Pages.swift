import Foundation
import HTTPServer
import Ledger
import Metrics
import OwnerDashCore
import Render
import SQLiteKit

/// The dashboard, live: the same pages `ownerdash dashboard` and `report ... --format html` write (Render's), built
/// per request for what the viewer may see, with a bar on top: who is signed in, sign-out, each property's as-of
/// date, and a banner when the last run failed or a property's data is older than the rest. No JavaScript needed;
/// filters are GET forms, so a view's URL can be shared and printed.
final class Pages: Sendable {
    let readers: ReaderPool
    let log: Diagnostics
    let headers: [(name: String, value: String)]

    /// `signOutTarget`: where sign-out sends the browser (the provider's end-session endpoint), which the pages'
    /// Content-Security-Policy must allow as a form target (browsers apply form-action to the redirect too).
    init(readers: ReaderPool, log: Diagnostics, signOutTarget: String?) {
        self.readers = readers
        self.log = log
        var formAction = "'self'"
        if let target = signOutTarget.flatMap(URLComponents.init(string:)), let scheme = target.scheme, let host = target.host {
            formAction += " \(scheme)://\(host)\(target.port.map { ":\($0)" } ?? "")"
        }
        headers = [
            ("Cache-Control", "private, no-store"), ("X-Frame-Options", "DENY"), ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; form-action \(formAction); frame-ancestors 'none'"),
        ]
    }

    func respond(_ request: ServerRequest, segments: [String], viewer: Viewer, csrf: String?) -> ServerResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return Problem(status: 405, title: "Method Not Allowed", detail: "pages are read-only", headers: ["Allow": "GET, HEAD"]).response
        }
        do {
            return try readers.with { database in
                let visible = try Metrics.properties(database: database).filter { viewer.sees($0.key) }
                let body: String
                switch segments {
                case []:
                    body = try dashboard(database, request: request, properties: visible)
                case ["lease-status"]:
                    body = try leaseStatus(database, request: request, properties: visible)
                case ["debtors"]:
                    let parameters = try Parameters(request, allowed: ["property"])
                    let keys = try chosen(parameters, visible)
                    let report = try Debtors.run(database: database, properties: keys, asOf: nil, minDebt: nil)
                    body = DebtorsPage.render(report, propertyNames: Dictionary(visible.map { ($0.key, $0.name) }) { a, _ in a },
                                              generatedAt: Self.timestamp())
                case ["audit"]:
                    guard viewer.role == .owner else {
                        throw Problem(status: 403, title: "Forbidden", detail: "the audit spans every property: owners only")
                    }
                    _ = try Parameters(request, allowed: [])
                    do {
                        body = AuditPage.render(try AuditReport.load(database: database, runID: nil), exceptionsOnly: true,
                                                generatedAt: Self.timestamp(), actions: csrf.map { token in { Self.auditForm($0, csrf: token) } })
                    } catch let error as AuditError {
                        throw Problem.notFound(error.description)
                    }
                default:
                    throw Problem.notFound("no page at \(Parameters.clip(request.path))")
                }
                let bar = try Self.bar(database, viewer: viewer, csrf: csrf, properties: visible)
                return ServerResponse(status: 200, contentType: "text/html; charset=utf-8",
                                      text: Self.inserting(bar, into: body), headers: headers)
            }
        } catch let problem as Problem {
            return problem.response
        } catch {
            log.error(nil, "serve: \(request.path): \(error)")
            return Problem(status: 500, title: "Internal Server Error", detail: "the page could not be built; see the server log").response
        }
    }

    // MARK: - Pages

    private func dashboard(_ database: Database, request: ServerRequest, properties: [SyncedProperty]) throws -> String {
        let parameters = try Parameters(request, allowed: ["as_of"])
        var dashboard = try Dashboard.load(
            database: database, properties: properties.map { DashboardProperty(key: $0.key, name: $0.name, pms: $0.pms) },
            asOf: try parameters.date("as_of"), portfolioName: "Portfolio", generatedAt: Self.timestamp())
        let withLedger = Set(try database.namedRows("SELECT unified_property_id FROM unified_properties WHERE ledger_source IS NOT NULL")
            .compactMap { $0["unified_property_id"]?.textValue })
        for index in dashboard.properties.indices where withLedger.contains(dashboard.properties[index].key) {
            let key = FormEncoding.encode(dashboard.properties[index].key)
            dashboard.properties[index].ledgerViews = LedgerViews(leaseStatus: "/lease-status?property=\(key)", debtors: "/debtors?property=\(key)")
        }
        return DashboardPage.render(dashboard)
    }

    private func leaseStatus(_ database: Database, request: ServerRequest, properties: [SyncedProperty]) throws -> String {
        let parameters = try Parameters(request, allowed: ["property", "start", "months", "include_inactive"])
        let keys = try chosen(parameters, properties)
        let months = try parameters.integer("months", in: 1...12, default: 6)
        let latest = properties.filter { keys.contains($0.key) }.compactMap(\.lastSyncedAsOf).max()
        let start = try parameters.month("start") ?? latest.map { date in
            let index = date.year * 12 + date.month - 1 - (months - 1)
            return String(format: "%04d-%02d", index / 12, index % 12 + 1)
        } ?? "2026-01"
        let includeInactive = try parameters.flag("include_inactive")
        let report = try LeasePaymentStatusReport.run(database: database, properties: keys, start: start, months: months,
                                                      asOf: nil, includeInactive: includeInactive)
        let form = Self.filterForm(properties: properties, chosen: parameters.text("property"), start: start, months: months,
                                   includeInactive: includeInactive)
        return Self.inserting(form, into: LeaseStatusPage.render(report, generatedAt: Self.timestamp()), after: "</h1>")
    }

    /// `property=KEY` (one the viewer sees; 404 otherwise, as for the API), or every visible property.
    private func chosen(_ parameters: Parameters, _ visible: [SyncedProperty]) throws -> [String] {
        guard let key = parameters.text("property"), !key.isEmpty else {
            guard !visible.isEmpty else { throw Problem.notFound("no synced property to show") }
            return visible.map(\.key)
        }
        guard visible.contains(where: { $0.key == key }) else { throw Problem.notFound("no property \(Parameters.clip(key))") }
        return [key]
    }

    // MARK: - Pieces

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The lease-status filter of the spec: start month, 1-12 months, property, show inactive; a GET form, so the URL
    /// is the view.
    static func filterForm(properties: [SyncedProperty], chosen: String?, start: String, months: Int, includeInactive: Bool) -> String {
        var html = "<form method=\"get\" action=\"/lease-status\" id=\"filter\" style=\"margin:0.5em 0 1em\">"
        html += "<label>Start <input type=\"month\" name=\"start\" value=\"\(escape(start))\" pattern=\"[0-9]{4}-[0-9]{2}\"></label> "
        html += "<label>Months <select name=\"months\">"
        for count in 1...12 { html += "<option\(count == months ? " selected" : "")>\(count)</option>" }
        html += "</select></label> <label>Property <select name=\"property\"><option value=\"\">All</option>"
        for property in properties {
            html += "<option value=\"\(escape(property.key))\"\(property.key == chosen ? " selected" : "")>\(escape(property.name))</option>"
        }
        html += "</select></label> <label><input type=\"checkbox\" name=\"include_inactive\" value=\"true\"\(includeInactive ? " checked" : "")> Show inactive</label> "
        html += "<button type=\"submit\">Show</button></form>"
        return html
    }

    /// Resolve (an open exception: what was done, the action, a note) or reopen (a resolved one), posted to
    /// `/audit/exceptions/{key}/resolve|reopen` with the CSRF token; the server records it and sends the browser back.
    static func auditForm(_ exception: AuditReport.Exception, csrf: String) -> String {
        let key = escape(FormEncoding.encode(exception.key.description))
        let token = "<input type=\"hidden\" name=\"csrf\" value=\"\(escape(csrf))\">"
        guard exception.status == .resolved else {
            let options = AuditResolutions.Action.allCases.map { "<option>\($0.rawValue)</option>" }.joined()
            return "<form method=\"post\" action=\"/audit/exceptions/\(key)/resolve\" class=\"resolve\">\(token)"
                + "<input name=\"fix\" required placeholder=\"what was done\" aria-label=\"what was done\"> "
                + "<select name=\"action\" aria-label=\"action\">\(options)</select> "
                + "<input name=\"note\" placeholder=\"note\" aria-label=\"note\"> <button type=\"submit\">Resolve</button></form>"
        }
        return "<form method=\"post\" action=\"/audit/exceptions/\(key)/reopen\" class=\"reopen\">\(token)"
            + "<input name=\"note\" placeholder=\"why\" aria-label=\"why\"> <button type=\"submit\">Reopen</button></form>"
    }

    /// Who is signed in, the pages, sign-out, and how fresh the data is.
    static func bar(_ database: Database, viewer: Viewer, csrf: String?, properties: [SyncedProperty]) throws -> String {
        var html = "<nav id=\"serve-bar\" style=\"font:14px system-ui,sans-serif;padding:6px 12px;background:#f2f2f2;border-bottom:1px solid #ccc\">"
        html += "<a href=\"/\">Dashboard</a> · <a href=\"/lease-status\">Lease status</a> · <a href=\"/debtors\">Debtors</a>"
        if viewer.role == .owner { html += " · <a href=\"/audit\">Audit</a> · <a href=\"/api/v2/runs\">Runs</a>" }
        html += " · <span id=\"user\">\(escape(viewer.email))</span>"
        if let csrf {
            html += " <form method=\"post\" action=\"/auth/signout\" style=\"display:inline\"><input type=\"hidden\" name=\"csrf\" value=\"\(escape(csrf))\"><button type=\"submit\" id=\"signout\">Sign out</button></form>"
        }
        let dates = properties.map { "\(escape($0.name)): \($0.lastSyncedAsOf?.iso ?? "never synced")" }
        html += "<div id=\"freshness\">Data as of — \(dates.joined(separator: "; "))</div>"
        var warnings: [String] = []
        if let last = try database.namedRows("SELECT run_id, status FROM etl_runs WHERE finished_at IS NOT NULL ORDER BY finished_at DESC LIMIT 1").first,
           let status = last["status"]?.textValue, status == "failed" || status == "partial" {
            warnings.append("The last run (\(escape(last["run_id"]?.textValue ?? ""))) \(status == "failed" ? "failed" : "partly failed"): some data may be stale.")
        }
        if let newest = properties.compactMap(\.lastSyncedAsOf).max() {
            let behind = properties.filter { ($0.lastSyncedAsOf ?? newest) < newest }
            if !behind.isEmpty {
                warnings.append("Older than the rest (\(newest.iso)): " + behind.map { "\(escape($0.name)) (\($0.lastSyncedAsOf?.iso ?? ""))" }.joined(separator: ", ") + ".")
            }
        }
        if !warnings.isEmpty {
            html += "<div id=\"stale\" role=\"alert\" style=\"background:#fff3cd;border:1px solid #e0b000;padding:4px 8px;margin-top:4px\">"
                + warnings.joined(separator: " ") + "</div>"
        }
        return html + "</nav>"
    }

    /// `fragment` right after the first `marker` of `page` (the `<body>` tag by default).
    static func inserting(_ fragment: String, into page: String, after marker: String = "<body>") -> String {
        guard let range = page.range(of: marker) else { return fragment + page }
        return page.replacingCharacters(in: range, with: marker + fragment)
    }

    static func timestamp() -> String {
        let seconds = Int(Date().timeIntervalSince1970)
        let day = LocalDate(daysSinceEpoch: seconds / 86_400)
        let second = seconds % 86_400
        return day.iso + String(format: " %02d:%02d UTC", second / 3600, second % 3600 / 60)
    }
}
