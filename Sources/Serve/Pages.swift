import Forecast
import Foundation
import HTTPServer
import Ledger
import Metrics
import OwnerDashCore
import Render
import RunRecords
import SQLiteKit

/// The dashboard, live: the portfolio page (the table, a page of rows at a time), a page per property, and the pages
/// `report ... --format html` writes (Render's), built per request for what the viewer may see, with a bar on top:
/// the pages, who is signed in, sign-out, how fresh the data is, and a banner when the last run failed or a
/// property's data is older than the rest. No JavaScript needed; filters are GET forms, so a view's URL can be shared
/// and printed.
final class Pages: Sendable {
    let readers: ReaderPool
    let log: Diagnostics
    let portfolios = PortfolioCache()
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
            return try readers.withReader { reader in
                let database = reader.database
                // The data's version: the portfolio table is kept until the next run, not while one is writing.
                let run = try reader.latestRun().flatMap { $0.finished ? $0.runID : nil }
                let synced = try Metrics.properties(database: database)
                let visible = synced.filter { viewer.sees($0.key) }
                let body: String
                switch segments {
                case []:
                    body = try portfolio(database, request: request, synced: synced, visible: visible, run: run)
                case let path where path.count == 2 && path[0] == "property":
                    body = try property(database, request: request, key: path[1], properties: visible)
                case ["data-dates"]:
                    _ = try Parameters(request, allowed: [])
                    let portfolio = try portfolio(database, synced: synced, visible: visible, asOf: nil, run: run)
                    body = ReportPage.render(PortfolioPage.dataDates(portfolio), title: "Data dates",
                                             generatedAt: Timestamp.minute()) { _, row in
                        row.first?.textValue.map(Self.propertyLink)
                    }
                case ["lease-status"]:
                    body = try leaseStatus(database, request: request, properties: visible)
                case ["debtors"]:
                    let parameters = try Parameters(request, allowed: ["property"])
                    let keys = try chosen(parameters, visible)
                    let report = try Debtors.run(database: database, properties: keys, asOf: nil, minDebt: nil)
                    // The risk column only where the forecast is shown (RiskNextMonth.read is nil otherwise).
                    let listed = Dictionary(grouping: report.people.flatMap(\.units), by: \.property).mapValues { $0.map(\.residentID) }
                    let risk = try RiskNextMonth.read(database: database, households: listed, asOf: nil)
                    body = DebtorsPage.render(report, propertyNames: Dictionary(visible.map { ($0.key, $0.name) }) { a, _ in a },
                                              generatedAt: Timestamp.minute(), risk: risk)
                case ["maintenance"]:
                    body = try maintenance(database, request: request, properties: visible)
                case ["expenses"]:
                    body = try expenses(database, request: request, properties: visible)
                case ["runs"]:
                    try Self.ownersOnly(viewer)
                    body = try Self.runs(database, request: request)
                case let path where path.count == 2 && path[0] == "runs":
                    try Self.ownersOnly(viewer)
                    body = try Self.run(database, request: request, runID: path[1])
                case ["audit"]:
                    guard viewer.role == .owner else {
                        throw Problem(status: 403, title: "Forbidden", detail: "the audit spans every property: owners only")
                    }
                    _ = try Parameters(request, allowed: [])
                    do {
                        body = AuditPage.render(try AuditReport.load(database: database, runID: nil), exceptionsOnly: true,
                                                generatedAt: Timestamp.minute(), actions: csrf.map { token in { Self.auditForm($0, csrf: token) } })
                    } catch let error as AuditError {
                        throw Problem.notFound(error.description)
                    }
                case ["api", "docs"]:
                    _ = try Parameters(request, allowed: [])
                    body = APIDocsPage.render(OpenAPIDocument.document)
                default:
                    throw Problem.notFound("no page at \(Parameters.clip(request.path))")
                }
                let bar = try Self.bar(database, viewer: viewer, csrf: csrf, properties: visible, path: request.path)
                let styled = Self.inserting("<style>\n" + NavigationBar.css + "\n</style>", into: body, after: "<head>")
                return ServerResponse(status: 200, contentType: "text/html; charset=utf-8",
                                      text: Self.inserting(bar, into: styled), headers: headers)
            }
        } catch let problem as Problem {
            return problem.response
        } catch {
            log.error(nil, "serve: \(request.path): \(error)")
            return Problem(status: 500, title: "Internal Server Error", detail: "the page could not be built; see the server log").response
        }
    }

    // MARK: - Pages

    /// The portfolio table: the viewer's properties searched, filtered, sorted and cut into pages by the query
    /// (`?q=&pms=&ledger=&work_orders=&expenses=&data_date=&sort=&order=&page=&per_page=&as_of=`). Only the summary
    /// query runs, whatever the page; a page past the last is 404.
    private func portfolio(_ database: Database, request: ServerRequest, synced: [SyncedProperty], visible: [SyncedProperty],
                           run: String?) throws -> String {
        let filterNames = PortfolioFilter.all.map(\.parameter)
        let parameters = try Parameters(request, allowed: Set(["as_of", "q", "sort", "order", "page", "per_page"] + filterNames))
        let asOf = try parameters.date("as_of")
        var view = PortfolioView()
        if let search = parameters.text("q")?.trimmingCharacters(in: .whitespaces), !search.isEmpty {
            guard search.count <= 100 else { throw Problem.badParameter("q", "at most 100 characters") }
            view.search = search
        }
        for filter in PortfolioFilter.all {
            // An empty value is the form's "Any".
            guard parameters.text(filter.parameter)?.isEmpty == false else { continue }
            view.filters[filter.parameter] = try parameters.choice(filter.parameter, filter.choices.map(\.value))
        }
        if parameters.text("sort")?.isEmpty == false {
            let sort = try parameters.choice("sort", PortfolioView.sortColumns)
            view.sort = sort
            view.descending = try parameters.choice("order", ["asc", "desc"]).map { $0 == "desc" }
                ?? sort.map(PortfolioView.startsDescending) ?? false
        } else {
            _ = try parameters.choice("order", ["asc", "desc"])
        }
        view.page = try parameters.integer("page", in: 1...1_000_000, default: 1)
        view.perPage = try parameters.integer("per_page", in: 1...500, default: PortfolioView.defaultPerPage)
        let portfolio = try portfolio(database, synced: synced, visible: visible, asOf: asOf, run: run)
        let selection: PortfolioSelection
        do {
            selection = try portfolio.select(view)
        } catch {
            throw Problem.notFound(error.description)
        }
        let asOfQuery = asOf.map { "as_of=\($0.iso)" }
        return PortfolioPage.render(portfolio, view: view, selection: selection, links: PortfolioLinks(
            property: { line in Self.propertyLink(line.key) + (asOfQuery.map { "?" + $0 } ?? "") },
            view: { Self.portfolioLink($0, asOf: asOf) },
            dataDates: "/data-dates"))
    }

    /// The viewer's properties as the portfolio table reads them. Every synced property's lines are read once per run
    /// and as-of date and kept (`run` nil: read, not kept); a viewer's portfolio is their properties' lines among
    /// them (a property's summary does not depend on the others, and the totals are summed from the lines shown).
    private func portfolio(_ database: Database, synced: [SyncedProperty], visible: [SyncedProperty], asOf: LocalDate?,
                           run: String?) throws -> Portfolio {
        // Each property's data date is in the key too: a sync recorded without a run still shows.
        let key = (asOf?.iso ?? "latest") + "\n" + synced.map { "\($0.key)\t\($0.name)\t\($0.pms)\t\($0.lastSyncedAsOf?.iso ?? "")" }
            .joined(separator: "\n")
        var everything: Portfolio
        if let run, let kept = portfolios.portfolio(run: run, key: key) {
            everything = kept
        } else {
            everything = try Portfolio.load(database: database, properties: synced.map { DashboardProperty(key: $0.key, name: $0.name, pms: $0.pms) },
                                            asOf: asOf, portfolioName: "Portfolio", generatedAt: "")
            if let run { portfolios.keep(everything, run: run, key: key) }
        }
        let shown = Set(visible.map(\.key))
        everything.lines.removeAll { !shown.contains($0.key) }
        everything.generatedAt = Timestamp.minute()
        return everything
    }

    /// `/property/KEY`.
    static func propertyLink(_ key: String) -> String { "/property/" + FormEncoding.encode(key) }

    /// The portfolio page showing `view`: only what differs from the default is in the query, so a view's URL is short.
    static func portfolioLink(_ view: PortfolioView, asOf: LocalDate?) -> String {
        var items: [(String, String)] = []
        if let search = view.search, !search.isEmpty { items.append(("q", search)) }
        for filter in PortfolioFilter.all {
            if let value = view.filters[filter.parameter] { items.append((filter.parameter, value)) }
        }
        if let sort = view.sort { items += [("sort", sort), ("order", view.descending ? "desc" : "asc")] }
        if view.page != 1 { items.append(("page", String(view.page))) }
        if view.perPage != PortfolioView.defaultPerPage { items.append(("per_page", String(view.perPage))) }
        if let asOf { items.append(("as_of", asOf.iso)) }
        guard !items.isEmpty else { return "/" }
        return "/?" + items.map { "\($0.0)=\(FormEncoding.encode($0.1))" }.joined(separator: "&")
    }

    /// A property's own page: what its section of the one-file dashboard shows, read for that property alone. A key
    /// the viewer does not see is 404, as in the API (never told apart from one that does not exist).
    private func property(_ database: Database, request: ServerRequest, key: String, properties: [SyncedProperty]) throws -> String {
        let parameters = try Parameters(request, allowed: ["as_of"])
        let asOf = try parameters.date("as_of")
        guard let property = properties.first(where: { $0.key == key }) else {
            throw Problem.notFound("no property \(Parameters.clip(key))")
        }
        var dashboard = try Dashboard.load(
            database: database, properties: [DashboardProperty(key: property.key, name: property.name, pms: property.pms)],
            asOf: asOf, portfolioName: "Portfolio", generatedAt: Timestamp.minute())
        let hasLedger = try database.namedRows("SELECT 1 AS ledger FROM unified_properties WHERE unified_property_id = :property AND ledger_source IS NOT NULL",
                                               [":property": .text(property.key)]).isEmpty == false
        if hasLedger {
            let encoded = FormEncoding.encode(property.key)
            dashboard.properties[0].ledgerViews = LedgerViews(leaseStatus: "/lease-status?property=\(encoded)",
                                                              debtors: "/debtors?property=\(encoded)")
        }
        return PropertyPage.render(dashboard.properties[0], of: dashboard, portfolio: asOf.map { "/?as_of=\($0.iso)" } ?? "/")
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
        return Self.inserting(form, into: LeaseStatusPage.render(report, generatedAt: Timestamp.minute()), after: "</h1>")
    }

    /// `report maintenance --format html` for the chosen properties, with its filter (property, the window of closed
    /// work orders in months, the age past which an open one is listed) as a GET form.
    private func maintenance(_ database: Database, request: ServerRequest, properties: [SyncedProperty]) throws -> String {
        let parameters = try Parameters(request, allowed: ["property", "months", "older_than"])
        let keys = try chosen(parameters, properties)
        let months = try parameters.integer("months", in: 1...24, default: 3)
        let olderThan = try parameters.integer("older_than", in: 0...36500, default: 30)
        let result = try ReportAnswers.maintenance(database: database, properties: keys, asOf: nil, months: months,
                                                   olderThanDays: olderThan)
        let form = Self.reportForm(action: "/maintenance", properties: properties, chosen: parameters.text("property"), fields:
            "<label>Closed in the last <select name=\"months\">\(Self.options(1...24, selected: months))</select> months</label> "
            + "<label>Open longer than <input type=\"number\" name=\"older_than\" min=\"0\" max=\"36500\" value=\"\(olderThan)\" style=\"width:5em\"> days</label> ")
        return Self.inserting(form, into: ReportPage.render(result, title: "Maintenance", generatedAt: Timestamp.minute()), after: "</h1>")
    }

    /// `report expenses --format html` for the chosen properties, with its filter (property, first month, months).
    private func expenses(_ database: Database, request: ServerRequest, properties: [SyncedProperty]) throws -> String {
        let parameters = try Parameters(request, allowed: ["property", "start", "months"])
        let keys = try chosen(parameters, properties)
        let months = try parameters.integer("months", in: 1...24, default: 3)
        let start = try parameters.month("start")
        let result = try ReportAnswers.expenses(database: database, properties: keys, start: start, months: months)
        let shownStart = start ?? result.parameters.first { $0.name == "start" }.flatMap { parameter -> String? in
            if case .text(let month) = parameter.value { return month }
            return nil
        } ?? ""
        let form = Self.reportForm(action: "/expenses", properties: properties, chosen: parameters.text("property"), fields:
            "<label>Start <input type=\"month\" name=\"start\" value=\"\(Self.escape(shownStart))\" pattern=\"[0-9]{4}-[0-9]{2}\"></label> "
            + "<label>Months <select name=\"months\">\(Self.options(1...24, selected: months))</select></label> ")
        return Self.inserting(form, into: ReportPage.render(result, title: "Operating expenses", generatedAt: Timestamp.minute()),
                              after: "</h1>")
    }

    /// `runs list` as a page: the newest runs (`limit`, default 20), each linked to its own page.
    static func runs(_ database: Database, request: ServerRequest) throws -> String {
        let parameters = try Parameters(request, allowed: ["limit"])
        let runs = try RunHistory(database: database).list(limit: try parameters.integer("limit", in: 1...1000, default: 20))
        let result = MetricResult(metric: "runs", parameters: [], tables: [
            MetricTable(name: "rows", title: "The newest \(runs.count) run\(runs.count == 1 ? "" : "s") (what each ingest or sync did)",
                        columns: runColumns, rows: runs.map(runRow)),
        ])
        return ReportPage.render(result, title: "Runs", generatedAt: Timestamp.minute()) { _, row in
            row.first?.textValue.map { "/runs/" + FormEncoding.encode($0) }
        }
    }

    /// `runs show` as a page: the run, its items by stage (failures first) and its reconciliations.
    static func run(_ database: Database, request: ServerRequest, runID: String) throws -> String {
        _ = try Parameters(request, allowed: [])
        let history = RunHistory(database: database)
        guard let run = try history.run(runID) else { throw Problem.notFound("no run \(Parameters.clip(runID))") }
        let items = try history.items(of: runID)
        let checks = try history.checks(of: runID)
        let failed = items.filter { $0.status == .failed }.count
        let result = MetricResult(metric: "run", parameters: [], tables: [
            MetricTable(name: "rows", title: "Run \(run.runID): \(run.status)", columns: runColumns, rows: [runRow(run)]),
            MetricTable(name: "items", title: "\(items.count) item\(items.count == 1 ? "" : "s"), \(failed) failed",
                        columns: [.init("stage", .text), .init("status", .text), .init("property", .text), .init("artifact", .text),
                                  .init("rows", .count), .init("ms", .count), .init("error", .text)],
                        rows: items.map { item in
                            [.text(item.stage.rawValue), .text(item.status.rawValue), SQLValue(item.property), SQLValue(item.artifact),
                             item.rows.map { .integer(Int64($0)) } ?? .null,
                             item.durationMilliseconds.map { .integer(Int64($0)) } ?? .null, SQLValue(item.error)]
                        }),
            MetricTable(name: "checks", title: "Reconciliations with the vendors' own totals",
                        columns: [.init("property", .text), .init("as_of", .date), .init("check", .text), .init("measure", .text),
                                  .init("status", .text), .init("expected", .decimal(2)), .init("actual", .decimal(2)),
                                  .init("detail", .text)],
                        rows: checks.map { check in
                            [.text(check.property), .text(check.asOf), .text(check.check), .text(check.measure), .text(check.status),
                             check.expected.map { .real($0) } ?? .null, check.actual.map { .real($0) } ?? .null, .text(check.detail)]
                        }),
        ])
        let back = "<p><a href=\"/runs\">All runs</a></p>"
        return inserting(back, into: ReportPage.render(result, title: "Run \(run.runID)", generatedAt: Timestamp.minute()), after: "</h1>")
    }

    static let runColumns: [MetricResult.Column] = [
        .init("run", .text), .init("trigger", .text), .init("status", .text), .init("started_at", .text),
        .init("finished_at", .text), .init("duration_seconds", .count), .init("properties", .count),
        .init("artifacts_fetched", .count), .init("artifacts_failed", .count), .init("rows_loaded", .count),
        .init("properties_synced", .count), .init("failures", .count), .init("warnings", .count),
    ]

    static func runRow(_ run: RunRecord) -> [SQLValue] {
        func count(_ value: Int) -> SQLValue { .integer(Int64(value)) }
        return [.text(run.runID), .text(run.trigger), .text(run.status), .text(run.startedAt), SQLValue(run.finishedAt),
                run.durationSeconds.map(count) ?? .null, count(run.properties), count(run.artifactsFetched),
                count(run.artifactsFailed), count(run.rowsLoaded), count(run.propertiesSynced), count(run.failures),
                count(run.warnings)]
    }

    /// Runs span every property: owners only (as in the API).
    static func ownersOnly(_ viewer: Viewer) throws {
        guard viewer.role == .owner else {
            throw Problem(status: 403, title: "Forbidden", detail: "runs span every property: owners only")
        }
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

    /// A report's GET filter form: the property (or all the viewer sees), then `fields`, then the button.
    static func reportForm(action: String, properties: [SyncedProperty], chosen: String?, fields: String) -> String {
        var html = "<form method=\"get\" action=\"\(action)\" id=\"filter\" style=\"margin:0.5em 0 1em\">"
        html += "<label>Property <select name=\"property\"><option value=\"\">All</option>"
        for property in properties {
            html += "<option value=\"\(escape(property.key))\"\(property.key == chosen ? " selected" : "")>\(escape(property.name))</option>"
        }
        html += "</select></label> " + fields + "<button type=\"submit\">Show</button></form>"
        return html
    }

    /// `<option>`s of a number select, `selected` marked.
    static func options(_ range: ClosedRange<Int>, selected: Int) -> String {
        range.map { "<option\($0 == selected ? " selected" : "")>\($0)</option>" }.joined()
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

    /// The bar: the pages (runs and the audit for owners), who is signed in, sign-out, one line of data freshness
    /// (except on the portfolio page, which has its own), and a banner when the last run failed or partly failed, or
    /// when properties' data is older than the rest (the first few named, the rest counted).
    static func bar(_ database: Database, viewer: Viewer, csrf: String?, properties: [SyncedProperty], path: String) throws -> String {
        var links = [NavigationBar.Link("Dashboard", "/"), .init("Lease status", "/lease-status"), .init("Debtors", "/debtors"),
                     .init("Maintenance", "/maintenance"), .init("Expenses", "/expenses")]
        if viewer.role == .owner { links += [.init("Audit", "/audit"), .init("Runs", "/runs")] }
        links.append(.init("API", "/api/docs"))
        let details = NavigationBar.Link("each property's data date", "/data-dates")
        let dates = properties.compactMap(\.lastSyncedAsOf)
        var freshness: (oldest: LocalDate, newest: LocalDate, details: NavigationBar.Link)?
        if path != "/", let oldest = dates.min(), let newest = dates.max() { freshness = (oldest, newest, details) }
        var warnings: [NavigationBar.Warning] = []
        if let last = try database.namedRows("SELECT run_id, status FROM etl_runs WHERE finished_at IS NOT NULL ORDER BY finished_at DESC LIMIT 1").first,
           let status = last["status"]?.textValue, status == "failed" || status == "partial" {
            warnings.append(.init("The last run (\(last["run_id"]?.textValue ?? "")) \(status == "failed" ? "failed" : "partly failed"): some data may be stale."))
        }
        if let newest = dates.max() {
            let behind = properties.filter { ($0.lastSyncedAsOf ?? newest) < newest }
            if !behind.isEmpty {
                // A few names read as a sentence; hundreds would be the wall of text the page is not to have.
                let named = behind.prefix(Self.namedBehind).map { "\($0.name) (\($0.lastSyncedAsOf?.iso ?? ""))" }
                let more = behind.count - named.count
                warnings.append(.init("Older than the rest (\(newest.iso)): " + named.joined(separator: ", ")
                                      + (more > 0 ? " and \(more) more." : "."),
                                      link: more > 0 ? NavigationBar.Link("All data dates", "/data-dates") : nil))
            }
        }
        let current = path == "/" || path.hasPrefix("/property/") ? "/" : links.first { $0.href != "/" && path.hasPrefix($0.href) }?.href
        return NavigationBar(links: links, current: current, user: viewer.email, signOutToken: csrf, freshness: freshness,
                             warnings: warnings).render()
    }

    /// How many properties the stale-data banner names before it counts the rest.
    static let namedBehind = 5

    /// `fragment` right after the first `marker` of `page` (the `<body>` tag by default).
    static func inserting(_ fragment: String, into page: String, after marker: String = "<body>") -> String {
        guard let range = page.range(of: marker) else { return fragment + page }
        return page.replacingCharacters(in: range, with: marker + fragment)
    }

}
