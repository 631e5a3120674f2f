import Ledger
import Metrics
import OwnerDashCore
import Render
import RunRecords
import SQLiteKit

/// Every operation of the HTTP API, each with its parameters, the schema of its answer, who may call it and its
/// handler: `DashboardServer` answers exactly these and `/api/v2/openapi.json` documents exactly these. A new
/// endpoint is a new entry here (and `OpenAPITests` then requests it and checks its answer against its schema).
extension APIRoutes {
    static let table: [APIRoute] = service + properties + propertyMetrics + reports + forecast + runs + audit

    // MARK: - Service

    private static let service: [APIRoute] = [
        APIRoute(.get, "/healthz", operationID: "health", tag: "Service", summary: "Whether the server is up",
                 description: "Answers before sign-in, without reading any data: for load balancers and monitors.",
                 callers: .anyone,
                 response: .init(name: "Health", description: "The server is up.",
                                 schema: ["type": "object", "properties": ["status": ["const": "ok"]], "required": ["status"],
                                          "additionalProperties": false],
                                 contentType: "application/json"),
                 answer: .fixed { "{\"status\": \"ok\"}\n" }),
        APIRoute(.get, "/api/v2/openapi.json", operationID: "openAPIDocument", tag: "Service",
                 summary: "This API as an OpenAPI 3.1 document",
                 description: "Generated from the route table the server dispatches on. Behind sign-in like the rest of "
                    + "the API: only /healthz answers before it, and a client that can call nothing without a token needs "
                    + "nothing before it.",
                 response: .init(name: "OpenAPIDocument", description: "The document (OpenAPI 3.1.0).",
                                 schema: ["type": "object", "properties": ["openapi": ["const": .string(OpenAPIDocument.version)]],
                                          "required": ["openapi", "info", "paths"]]),
                 answer: .fixed { OpenAPIDocument.text }),
    ]

    // MARK: - Properties and the portfolio

    private static let property = APIParameter.path("property", "A property's key, as GET /api/v2/properties lists them.")
    private static let asOf = APIParameter.query("as_of", .date, "The snapshot on or before this date (default: each property's latest).")

    /// The columns of `GET /api/v2/properties`.
    static let propertyColumns: [MetricResult.Column] = [
        .init("property", .text), .init("name", .text), .init("pms", .text), .init("total_units", .count), .init("as_of", .date),
    ]

    private static let properties: [APIRoute] = [
        APIRoute(.get, "/api/v2/properties", operationID: "listProperties", tag: "Properties",
                 summary: "The synced properties the user may see",
                 description: "Each property's key (the {property} of the other endpoints), name, PMS, units and latest as-of date.",
                 response: .init(name: "Properties", description: "The properties.", schema: ResponseSchema.report(
                    "properties", "The synced properties the user may see.", parameters: [],
                    tables: [.init(name: "rows", description: "One per property.", columns: propertyColumns)])),
                 answer: .read { call in
                     let rows: [[SQLValue]] = try Metrics.properties(database: call.database).filter { call.viewer.sees($0.key) }.map {
                         [.text($0.key), .text($0.name), .text($0.pms), SQLValue($0.totalUnits), $0.lastSyncedAsOf.map { .text($0.iso) } ?? .null]
                     }
                     return MetricOutput.render(MetricResult(metric: "properties", parameters: [], tables: [
                         MetricTable(name: "rows", title: "Properties", columns: propertyColumns, rows: rows),
                     ]), as: .json)
                 }),
        APIRoute(.get, "/api/v2/portfolio/summary", operationID: "portfolioSummary", tag: "Properties",
                 summary: "The portfolio's summary (query summary)",
                 description: "An owner's portfolio is every property; a manager's is theirs, rolled up as a portfolio too.",
                 parameters: [asOf],
                 response: .init(name: "PortfolioSummary", description: "One row per property and the portfolio's total.",
                                 schema: metricSchema(.summary, [.init(name: "rows", description: "One per property.",
                                                                        columns: SummaryRow.columns, total: true),
                                                                  ResponseSchema.ledgerWholeAsOf])),
                 problems: [(404, "No synced property the user may see, or none with a snapshot at as_of.")],
                 answer: .read { call in
                     let visible = call.viewer.visible(try Metrics.properties(database: call.database).map(\.key))
                     guard !visible.isEmpty else { throw Problem.notFound("no synced property to summarize") }
                     // An owner's portfolio is every property (the CLI's `query summary`); a manager's is theirs, rolled
                     // up as a portfolio too (the `portfolio` total row over their properties only, none left out for
                     // lack of a snapshot at as_of while another has one).
                     var query = MetricQuery(metric: .summary, asOf: try call.date("as_of"))
                     if call.viewer.role != .owner { query.within = Set(visible) }
                     return try answer(query, database: call.database)
                 }),
    ]

    // MARK: - A property's metrics (ownerdash query METRIC --property KEY)

    /// The path under `/api/v2/properties/{property}/`, the metric, and its tables.
    private static let metrics: [(path: String, metric: MetricQuery.Metric, name: String, summary: String, tables: [ResponseSchema.Table])] = [
        ("occupancy", .occupancy, "Occupancy", "Occupancy at a snapshot, or its trend between from and to", [
            .init(name: "rows", description: "One per snapshot.", columns: OccupancyRow.columns, total: true)]),
        ("exposure", .exposure, "Exposure", "Exposure (vacant and on notice, not leased) at a snapshot, or its trend", [
            .init(name: "rows", description: "One per snapshot.", columns: ExposureRow.columns, total: true)]),
        ("pricing", .pricing, "Pricing", "Rents by floorplan and the trade-out of new leases and renewals", [
            .init(name: "rows", description: "One per floorplan.", columns: PricingRow.columns, total: true),
            .init(name: "trade_out", description: "New leases, renewals and all: prior against new rent.", columns: TradeOutRow.columns)]),
        ("delinquency", .delinquency, "Delinquency", "Delinquency by age of balance, and the residents owing most", [
            .init(name: "rows", description: "The property at the snapshot.", columns: DelinquencyRow.columns, total: true),
            .init(name: "top_residents", description: "The residents owing most (left out with top=0).",
                  columns: DelinquentResident.columns, optional: true),
            ResponseSchema.ledgerWholeAsOf]),
        ("leasing-funnel", .funnel, "LeasingFunnel", "Leads, tours, applications and leases, and leads by source", [
            .init(name: "rows", description: "The property over the window.", columns: FunnelRow.columns, total: true),
            .init(name: "leads_by_source", description: "Leads by advertising source.", columns: LeadSourceRow.columns)]),
        ("activity", .activity, "Activity", "Move-ins, move-outs, notices and renewals by month", [
            .init(name: "rows", description: "One per month.", columns: ActivityRow.columns, total: true)]),
        ("summary", .summary, "PropertySummary", "The property's summary: occupancy, exposure, delinquency, leasing", [
            .init(name: "rows", description: "The property at the snapshot.", columns: SummaryRow.columns, total: true),
            ResponseSchema.ledgerWholeAsOf]),
    ]

    /// A metric answer's schema: the metric's parameters (`MetricQuery`'s) and its tables.
    private static func metricSchema(_ metric: MetricQuery.Metric, _ tables: [ResponseSchema.Table]) -> JSONValue {
        var parameters = ResponseSchema.metricParameters
        switch metric {
        case .occupancy, .exposure, .pricing, .funnel, .activity:
            parameters += [("from", ResponseSchema.nullable(ResponseSchema.date)), ("to", ResponseSchema.nullable(ResponseSchema.date))]
        case .delinquency: parameters.append(("top", ResponseSchema.integer))
        case .summary: break
        }
        return ResponseSchema.report(metric.rawValue, "The answer of ownerdash query \(metric.rawValue) --format json.",
                                     parameters: parameters, tables: tables)
    }

    private static let propertyMetrics: [APIRoute] = metrics.map { entry in
        var parameters = [property, asOf]
        switch entry.metric {
        case .summary: break
        case .delinquency:
            parameters += [
                .query("from", .date, "Refused (400): delinquency reads one snapshot; use as_of."),
                .query("to", .date, "Refused (400): delinquency reads one snapshot; use as_of."),
                .query("top", .integer(0...1000, fallback: 10), "How many of the residents owing most to list (0: none)."),
            ]
        case .occupancy, .exposure:
            parameters += [.query("from", .date, "The series' first date (with to: a trend; not with as_of)."),
                           .query("to", .date, "The series' last date.")]
        case .pricing, .funnel, .activity:
            parameters += [.query("from", .date, "The window's first date."), .query("to", .date, "The window's last date.")]
        }
        let metric = entry.metric
        return APIRoute(.get, "/api/v2/properties/{property}/\(entry.path)", operationID: "property" + entry.name, tag: "Metrics",
                        summary: entry.summary, description: "The answer of ownerdash query \(metric.rawValue) --property KEY --format json.",
                        parameters: parameters,
                        response: .init(name: entry.name, description: "The metric's answer.", schema: metricSchema(metric, entry.tables)),
                        problems: [(400, "from is after to, or as_of, from and to are given together where the metric takes one or the other."),
                                   (404, "No snapshot at the date.")],
                        answer: .read { call in
                            // The summary reads one snapshot and takes no window.
                            let from = metric == .summary ? nil : try call.date("from"), to = metric == .summary ? nil : try call.date("to")
                            if let from, let to, from > to { throw Problem.badParameter("from", "\(from.iso) is after to \(to.iso)") }
                            let query = MetricQuery(metric: metric, properties: [call.path("property")], asOf: try call.date("as_of"),
                                                    from: from, to: to, top: metric == .delinquency ? try call.integer("top") : nil)
                            do {
                                try query.validate()
                            } catch MetricsError.invalidQuery(let message) {
                                throw Problem.badParameter(["as_of", "from", "to"].first { call.query.text($0) != nil } ?? "query",
                                                           message.replacingOccurrences(of: "--", with: "").replacingOccurrences(of: "as-of", with: "as_of"))
                            }
                            return try answer(query, database: call.database)
                        })
    }

    // MARK: - A property's reports (ownerdash report ... --property KEY)

    /// `risk_next_month_pct`: the last column of the debtors' and the rental tracker's tables while the delinquency
    /// forecast is shown (`ForecastVisibility`); absent otherwise.
    private static let riskColumn = RiskColumn.column

    private static let reports: [APIRoute] = [
        APIRoute(.get, "/api/v2/properties/{property}/units/raw", operationID: "propertyUnitsRaw", tag: "Reports",
                 summary: "The property's unified_units rows as they are",
                 description: "Every column of unified_units (see the analysts' manual), by unit number.",
                 parameters: [property],
                 response: .init(name: "UnitsRaw", description: "The rows.", schema: rawSchema("units_raw", key: "unit_number")),
                 answer: .read { call in
                     MetricOutput.render(try RawRows.result(call.database, table: .units, property: call.path("property")), as: .json)
                 }),
        APIRoute(.get, "/api/v2/properties/{property}/residents/raw", operationID: "propertyResidentsRaw", tag: "Reports",
                 summary: "The property's unified_residents rows as they are",
                 description: "Every column of unified_residents (see the analysts' manual), by resident id.",
                 parameters: [property],
                 response: .init(name: "ResidentsRaw", description: "The rows.", schema: rawSchema("residents_raw", key: "resident_id")),
                 answer: .read { call in
                     MetricOutput.render(try RawRows.result(call.database, table: .residents, property: call.path("property")), as: .json)
                 }),
        APIRoute(.get, "/api/v2/properties/{property}/lease-status", operationID: "propertyLeaseStatus", tag: "Reports",
                 summary: "Lease payment status by month (report lease-status)",
                 description: "Per household and month, rent's and utilities' status, billed, paid, balance and due date.",
                 parameters: [property,
                              .query("start", .month, "The first month.", required: true),
                              .query("months", .integer(1...12, fallback: 3), "How many months from start."),
                              .query("include_inactive", .flag, "Also households no longer current."),
                              asOf],
                 response: .init(name: "LeaseStatus", description: "The grid.", schema: ResponseSchema.report(
                    "lease-status", "The answer of ownerdash report lease-status --format json.",
                    parameters: [("properties", ResponseSchema.propertyList), ("start", ResponseSchema.month),
                                 ("months", ResponseSchema.integer), ("as_of", ResponseSchema.nullable(ResponseSchema.date)),
                                 ("include_inactive", ResponseSchema.boolean)],
                    tables: [
                        .init(name: "rows", description: "One per household; five columns per month and kind (MONTH_rent_status, ..._billed, ..._paid, ..._balance, ..._due).",
                              columns: [.init("property", .text), .init("floor", .text), .init("unit", .text), .init("resident_id", .text),
                                        .init("leases", .text), .init("tenants", .text), .init("resident_status", .text)],
                              patternColumns: [("^[0-9]{4}-[0-9]{2}_(rent|utilities)_status$", .text),
                                               ("^[0-9]{4}-[0-9]{2}_(rent|utilities)_(billed|paid|balance)$", .money),
                                               ("^[0-9]{4}-[0-9]{2}_(rent|utilities)_due$", .date)]),
                        .init(name: "no_ledger", description: "Properties without a tenant ledger (not shown as zeros).",
                              columns: [.init("property", .text)], optional: true),
                        .init(name: "partial_ledger", description: "Properties with a partial ledger (balances only).",
                              columns: [.init("property", .text), .init("known_month", .month), .init("unknown_months", .text)], optional: true),
                        ResponseSchema.ledgerWholeAsOf,
                    ])),
                 problems: [(400, "start is missing.")],
                 answer: .read { call in
                     let start = try call.month("start") ?? ""
                     return MetricOutput.render(try ReportAnswers.leaseStatus(
                         database: call.database, properties: [call.path("property")], start: start,
                         months: try call.integer("months"), asOf: try call.date("as_of"),
                         includeInactive: try call.flag("include_inactive"), detailed: true).result, as: .json)
                 }),
        APIRoute(.get, "/api/v2/properties/{property}/debtors", operationID: "propertyDebtors", tag: "Reports",
                 summary: "Who owes what, by person (report debtors)",
                 description: "Debtors (one per person across units), their units and the months they owe.",
                 parameters: [property, asOf, .query("min_debt", .amount, "Only debtors owing at least this many dollars.")],
                 response: .init(name: "Debtors", description: "The debtors.", schema: ResponseSchema.report(
                    "debtors", "The answer of ownerdash report debtors --format json.",
                    parameters: [("properties", ResponseSchema.propertyList), ("as_of", ResponseSchema.nullable(ResponseSchema.date)),
                                 ("min_debt", ResponseSchema.amountText)],
                    tables: [
                        .init(name: "rows", description: "One per debtor; debtor joins the other tables.",
                              columns: Debtors.peopleColumns, optionalColumns: [riskColumn], total: true),
                        .init(name: "units", description: "One per debtor and unit.",
                              columns: Debtors.unitColumns, optionalColumns: [riskColumn]),
                        .init(name: "months", description: "One per debtor, unit and month owed.",
                              columns: Debtors.monthColumns),
                        ResponseSchema.ledgerWholeAsOf,
                    ])),
                 answer: .read { call in
                     MetricOutput.render(try ReportAnswers.debtors(
                         database: call.database, properties: [call.path("property")], asOf: try call.date("as_of"),
                         minDebt: try call.amount("min_debt")).result, as: .json)
                 }),
        APIRoute(.get, "/api/v2/properties/{property}/rental-tracker", operationID: "propertyRentalTracker", tag: "Reports",
                 summary: "Residents behind on rent (report rental-tracker)",
                 description: "Residents with a balance, how many months behind, what they owe and their last payments.",
                 parameters: [property, asOf,
                              .query("min_balance", .amount, "Only residents owing at least this many dollars."),
                              .query("min_months_behind", .integer(0...120, fallback: 1), "Only residents at least this many months behind."),
                              .query("sort", .choice(RentalTracker.Sort.allCases.map(\.rawValue), fallback: RentalTracker.Sort.balance.rawValue),
                                     "The residents' order.")],
                 response: .init(name: "RentalTracker", description: "The tracker.", schema: ResponseSchema.report(
                    "rental-tracker", "The answer of ownerdash report rental-tracker --format json.",
                    parameters: [("properties", ResponseSchema.propertyList), ("as_of", ResponseSchema.nullable(ResponseSchema.date)),
                                 ("min_balance", ResponseSchema.amountText), ("min_months_behind", ResponseSchema.integer),
                                 ("sort", ["enum": .array(RentalTracker.Sort.allCases.map { .string($0.rawValue) })])],
                    tables: [
                        .init(name: "rows", description: "One per resident.",
                              columns: RentalTracker.residentColumns, optionalColumns: [riskColumn], total: true),
                        .init(name: "owed", description: "The unpaid charges.", columns: RentalTracker.owedColumns),
                        .init(name: "paid", description: "The payments.", columns: RentalTracker.paidColumns),
                        ResponseSchema.ledgerWholeAsOf,
                    ])),
                 answer: .read { call in
                     let sort = try call.choice("sort").flatMap(RentalTracker.Sort.init(rawValue:)) ?? .balance
                     return MetricOutput.render(try ReportAnswers.rentalTracker(
                         database: call.database, properties: [call.path("property")], asOf: try call.date("as_of"),
                         minBalance: try call.amount("min_balance"), minMonthsBehind: try call.integer("min_months_behind"),
                         sort: sort).result, as: .json)
                 }),
        APIRoute(.get, "/api/v2/properties/{property}/maintenance", operationID: "propertyMaintenance", tag: "Reports",
                 summary: "Work orders and make-ready turns (report maintenance)",
                 description: "Open and closed work orders, by category, the aged open ones, and make-ready turns per month.",
                 parameters: [property, asOf,
                              .query("months", .integer(1...24, fallback: 3), "The window of closed work orders, in months."),
                              .query("older_than", .integer(0...36500, fallback: 30), "The age in days past which an open work order is listed.")],
                 response: .init(name: "Maintenance", description: "The report.", schema: ResponseSchema.report(
                    "maintenance", "The answer of ownerdash report maintenance --format json.",
                    parameters: [("properties", ResponseSchema.propertyList), ("as_of", ResponseSchema.nullable(ResponseSchema.date)),
                                 ("months", ResponseSchema.integer), ("older_than_days", ResponseSchema.integer)],
                    tables: [
                        .init(name: "rows", description: "One per property; open_over_{older_than}d and closed_{months}m are named by the parameters.",
                              columns: [.init("property", .text), .init("as_of", .date), .init("open", .count), .init("closed", .count),
                                        .init("median_days", .decimal(1)), .init("avg_days", .decimal(1))],
                              patternColumns: maintenanceWindows, total: true),
                        .init(name: "by_category", description: "One per property and category.",
                              columns: [.init("property", .text), .init("category", .text), .init("open", .count), .init("closed", .count),
                                        .init("median_days", .decimal(1)), .init("avg_days", .decimal(1))],
                              patternColumns: maintenanceWindows),
                        .init(name: "aged_open", description: "Open work orders older than older_than days.",
                              columns: [.init("property", .text), .init("work_order_id", .text), .init("unit", .text),
                                        .init("category", .text), .init("description", .text), .init("opened", .date),
                                        .init("days_open", .count), .init("due", .date), .init("pms_status", .text)]),
                        .init(name: "make_ready", description: "Make-ready turns per month.",
                              columns: [.init("property", .text), .init("month", .month), .init("turns_closed", .count),
                                        .init("avg_days", .decimal(1)), .init("work_orders", .count), .init("labor_hours", .decimal(1)),
                                        .init("amount_charged", .money), .init("units_made_ready", .count),
                                        .init("analysis_hours", .decimal(1)), .init("make_ready_cost", .money)]),
                        .init(name: "no_work_order_source", description: "Properties without a work-order source (not shown as zeros).",
                              columns: [.init("property", .text)]),
                    ])),
                 answer: .read { call in
                     MetricOutput.render(try ReportAnswers.maintenance(
                         database: call.database, properties: [call.path("property")], asOf: try call.date("as_of"),
                         months: try call.integer("months"), olderThanDays: try call.integer("older_than")), as: .json)
                 }),
        APIRoute(.get, "/api/v2/properties/{property}/expenses", operationID: "propertyExpenses", tag: "Reports",
                 summary: "Operating expenses by GL category and month (report expenses)",
                 description: "Expenses by GL category, one column per month, with the GL accounts, income and net operating income where known.",
                 parameters: [property,
                              .query("start", .month, "The first month (default: the months before the latest synced)."),
                              .query("months", .integer(1...24, fallback: 3), "How many months.")],
                 response: .init(name: "Expenses", description: "The report.", schema: ResponseSchema.report(
                    "expenses", "The answer of ownerdash report expenses --format json.",
                    parameters: [("properties", ResponseSchema.propertyList),
                                 ("start", ["type": "string", "description": "The first month shown (empty when none is synced)."]),
                                 ("months", ResponseSchema.integer)],
                    tables: [
                        .init(name: "rows", description: "One per GL category (and All categories); one column per month.",
                              columns: [.init("property", .text), .init("gl_category", .text), .init("total", .money)],
                              patternColumns: [("^[0-9]{4}-[0-9]{2}$", .money)], total: true),
                        .init(name: "accounts", description: "One per GL account and month.",
                              columns: [.init("property", .text), .init("month", .month), .init("gl_account", .text),
                                        .init("account_name", .text), .init("gl_category", .text), .init("amount", .money)]),
                        .init(name: "no_expense_source", description: "Properties without an expense source (not shown as zeros).",
                              columns: [.init("property", .text)]),
                        .init(name: "operating", description: "Income, expenses and net operating income per month.",
                              columns: [.init("property", .text), .init("line", .text), .init("total", .money)],
                              patternColumns: [("^[0-9]{4}-[0-9]{2}$", .money)]),
                        .init(name: "sources", description: "Where each month's figures came from.",
                              columns: [.init("property", .text), .init("month", .month), .init("expenses_from", .text),
                                        .init("income_from", .text)]),
                    ])),
                 answer: .read { call in
                     MetricOutput.render(try ReportAnswers.expenses(
                         database: call.database, properties: [call.path("property")], start: try call.month("start"),
                         months: try call.integer("months")), as: .json)
                 }),
        APIRoute(.get, "/api/v2/properties/{property}/residents/{resident}/statement", operationID: "residentStatement", tag: "Reports",
                 summary: "A household's statement (report statement)",
                 description: "Every charge and payment with the running balance.",
                 parameters: [property, .path("resident", "The resident id (unified_residents.resident_id)."),
                              .query("from", .month, "The first month listed (earlier ones make the opening balance)."), asOf],
                 response: .init(name: "Statement", description: "The statement.", schema: ResponseSchema.report(
                    "statement", "The answer of ownerdash report statement --format json.",
                    parameters: [("property", ResponseSchema.text), ("resident", ResponseSchema.text),
                                 ("from", ResponseSchema.nullable(ResponseSchema.month)), ("as_of", ResponseSchema.date)],
                    tables: [
                        .init(name: "household", description: "The household.",
                              columns: [.init("property", .text), .init("resident_id", .text), .init("unit", .text), .init("name", .text),
                                        .init("status", .text), .init("move_in", .date), .init("move_out", .date), .init("as_of", .date),
                                        .init("balance", .money)]),
                        .init(name: "lines", description: "The opening balance, then each charge and payment.",
                              columns: [.init("date", .date), .init("type", .text), .init("period", .month), .init("code", .text),
                                        .init("detail", .text), .init("charge", .money), .init("payment", .money), .init("balance", .money)],
                              total: true),
                        ResponseSchema.ledgerWholeAsOf,
                    ])),
                 problems: [(404, "No such resident, or the property's ledger is missing or partial (balances only).")],
                 answer: .read { call in
                     let property = call.path("property"), resident = call.path("resident")
                     switch try ReportAnswers.statement(database: call.database, residentID: resident, properties: [property],
                                                        from: try call.month("from"), asOf: try call.date("as_of")) {
                     case .success(let answer): return MetricOutput.render(answer.result, as: .json)
                     case .failure(.noResident), .failure(.ambiguous):
                         throw Problem.notFound("no resident \(Parameters.clip(resident)) in \(property)")
                     case .failure(.partialLedger):
                         throw Problem.notFound("\(property) has a partial ledger (balances only), so no statement")
                     case .failure(.noLedger):
                         throw Problem.notFound("\(property) has no tenant ledger, so no statement")
                     }
                 }),
        APIRoute(.get, "/api/v2/properties/{property}/units/{unit}/history", operationID: "unitHistory", tag: "Reports",
                 summary: "A unit's residents and leases (report tenant-history)",
                 description: "Everyone who lived in the unit, with their leases and balances.",
                 parameters: [property, .path("unit", "The unit number.")],
                 response: .init(name: "TenantHistory", description: "The history.", schema: ResponseSchema.report(
                    "tenant-history", "The answer of ownerdash report tenant-history --format json.",
                    parameters: [("property", ResponseSchema.text), ("unit", ResponseSchema.text)],
                    tables: [
                        .init(name: "rows", description: "One per household (its co-residents in `members`).",
                              columns: TenantHistory.householdColumns),
                        .init(name: "leases", description: "One per lease.", columns: TenantHistory.leaseColumns),
                    ])),
                 problems: [(404, "No such unit.")],
                 answer: .read { call in
                     let property = call.path("property"), unit = call.path("unit")
                     guard let result = try ReportAnswers.tenantHistory(database: call.database, property: property, unit: unit) else {
                         throw Problem.notFound("\(property) has no unit \(Parameters.clip(unit))")
                     }
                     return MetricOutput.render(result, as: .json)
                 }),
    ]

    /// The maintenance columns named by the request's windows.
    private static let maintenanceWindows: [(pattern: String, kind: MetricResult.Kind)] = [
        ("^open_over_[0-9]+d$", .count), ("^closed_[0-9]+m$", .count),
    ]

    /// `units/raw` and `residents/raw`: the table's own columns (text, whole numbers, other numbers or null), keyed
    /// by the property and `key`.
    private static func rawSchema(_ metric: String, key: String) -> JSONValue {
        var rows = ResponseSchema.row(.init(name: "rows", description: "", columns: [.init("unified_property_id", .text), .init(key, .text)]))
        rows = rows.setting("additionalProperties", ["type": ["string", "number", "null"]])
        let report = ResponseSchema.report(metric, "Every column of the table, as stored.", parameters: [("property", ResponseSchema.text)],
                                           tables: [.init(name: "rows", description: "One per row of the table.", columns: [])])
        let properties = report["properties"]?.setting("rows", ["type": "array", "items": rows]) ?? [:]
        return report.setting("properties", properties)
    }

    // MARK: - Runs (owners)

    /// One recorded run as `runs list --format json` prints it.
    private static let runSchema: JSONValue = [
        "type": "object",
        "properties": [
            "run_id": ["type": "string"], "trigger": ["type": "string"], "command": ["type": ["string", "null"]],
            "as_of_date": ["type": ["string", "null"]], "started_at": ["type": "string"], "finished_at": ["type": ["string", "null"]],
            "status": ["enum": .array(RunStatus.allCases.map { .string($0.rawValue) })],
            "pid": ["type": ["integer", "null"]], "host": ["type": ["string", "null"]], "properties": ["type": "integer"],
            "artifacts_fetched": ["type": "integer"], "artifacts_failed": ["type": "integer"], "rows_loaded": ["type": "integer"],
            "properties_synced": ["type": "integer"], "properties_failed": ["type": "integer"], "failures": ["type": "integer"],
            "warnings": ["type": "integer"], "detail": ["type": ["string", "null"]],
            "duration_seconds": ["type": ["integer", "null"], "description": "null while running or when abandoned"],
        ],
        "required": ["run_id", "trigger", "command", "as_of_date", "started_at", "finished_at", "status", "pid", "host", "properties",
                     "artifacts_fetched", "artifacts_failed", "rows_loaded", "properties_synced", "properties_failed", "failures",
                     "warnings", "detail", "duration_seconds"],
    ]

    private static let runs: [APIRoute] = [
        APIRoute(.get, "/api/v2/runs", operationID: "listRuns", tag: "Runs", summary: "The newest runs (runs list)",
                 description: "What each ingest or sync did, newest first.", callers: .owners,
                 parameters: [.query("limit", .integer(1...1000, fallback: 20), "How many runs.")],
                 response: .init(name: "Runs", description: "The runs.",
                                 schema: ["type": "array", "items": runSchema.setting("additionalProperties", false)]),
                 answer: .read { call in
                     try RunJSON.render(try RunHistory(database: call.database).list(limit: try call.integer("limit")))
                 }),
        APIRoute(.get, "/api/v2/runs/{run}", operationID: "showRun", tag: "Runs", summary: "One run, its items and checks (runs show)",
                 description: "The run, every item (stage, property, artifact, rows, duration, error) and its reconciliations with the vendors' totals.",
                 callers: .owners,
                 parameters: [.path("run", "The run id (20261120T020000Z-ab12), as GET /api/v2/runs lists them.")],
                 response: .init(name: "RunDetail", description: "The run.", schema: runDetailSchema),
                 problems: [(404, "No such run.")],
                 answer: .read { call in
                     let runID = call.path("run")
                     let history = RunHistory(database: call.database)
                     guard let run = try history.run(runID) else { throw Problem.notFound("no run \(Parameters.clip(runID))") }
                     return try RunJSON.render(RunDetail(run: run, items: try history.items(of: runID), checks: try history.checks(of: runID)))
                 }),
    ]

    private static let runDetailSchema: JSONValue = {
        let item: JSONValue = [
            "type": "object",
            "properties": [
                "stage": ["enum": .array(RunStage.allCases.map { .string($0.rawValue) })], "property": ["type": ["string", "null"]],
                "artifact": ["type": ["string", "null"]], "status": ["enum": ["succeeded", "failed", "skipped"]],
                "rows": ["type": ["integer", "null"]], "duration_ms": ["type": ["integer", "null"]], "error": ["type": ["string", "null"]],
            ],
            "required": ["stage", "property", "artifact", "status", "rows", "duration_ms", "error"],
            "additionalProperties": false,
        ]
        let check: JSONValue = [
            "type": "object",
            "properties": [
                "property": ["type": "string"], "as_of_date": ["type": "string"], "check": ["type": "string"],
                "measure": ["type": "string"], "status": ["type": "string"], "expected": ["type": ["number", "null"]],
                "actual": ["type": ["number", "null"]], "difference": ["type": ["number", "null"]], "detail": ["type": "string"],
            ],
            "required": ["property", "as_of_date", "check", "measure", "status", "detail"],
            "additionalProperties": false,
        ]
        let properties = (runSchema["properties"] ?? [:])
            .setting("items", ["type": "array", "items": item])
            .setting("checks", ["type": "array", "items": check])
        return runSchema.setting("properties", properties)
            .setting("required", .array((runSchema["required"]?.elements ?? []) + ["items", "checks"]))
            .setting("additionalProperties", false)
    }()

    // MARK: - The lease-charge audit

    private static let auditKey = APIParameter.path(
        "key", "The exception's key, property:lease:charge code:YYYY-MM, as GET /api/v2/audit/runs/{run} lists them.",
        kind: .pattern("^[^:]+:.+:[^:]+:[0-9]{4}-[0-9]{2}$"))
    private static let csrf: [APIParameter] = [
        APIParameter(name: "X-CSRF-Token", location: .header, kind: .text,
                     description: "With the session cookie: the session's CSRF token (or the csrf form field). Not needed with a bearer token."),
        APIParameter(name: "csrf", location: .form, kind: .text, description: "The session's CSRF token, instead of the X-CSRF-Token header."),
    ]

    private static let auditChange: JSONValue = [
        "type": "object",
        "properties": [
            "key": ["type": "string"], "status": ["enum": ["resolved", "reopened"]], "by": ["type": "string", "description": "The signed-in user."],
            "at": ["type": "string", "description": "When, UTC (ISO 8601)."], "audit_run": ["type": "integer", "description": "The audit run the change is recorded in."],
        ],
        "required": ["key", "status", "by", "at", "audit_run"],
        "additionalProperties": false,
    ]

    private static let changeProblems: [(status: Int, when: String)] = [
        (400, "The key is malformed, or a form field is missing or wrong."),
        (403, "The session's CSRF token is missing or wrong."),
        (404, "No such exception in a property the user may see."),
        (409, "The exception is not open (resolve) or not resolved (reopen), there is no audit run yet, or the server reads the unified data from PostgreSQL."),
    ]

    private static let audit: [APIRoute] = [
        APIRoute(.get, "/api/v2/audit/runs", operationID: "listAuditRuns", tag: "Audit", summary: "The lease-charge audit runs",
                 description: "The recorded audit runs, newest first, with their totals.", callers: .owners,
                 response: .init(name: "AuditRuns", description: "The runs.", schema: ResponseSchema.report(
                    "audit_runs", "The recorded audit runs.", parameters: [],
                    tables: [.init(name: "rows", description: "One per audit run.", columns: AuditRunList.columns)])),
                 answer: .read { call in MetricOutput.render(try AuditRunList.result(call.database), as: .json) }),
        APIRoute(.get, "/api/v2/audit/runs/{run}", operationID: "showAuditRun", tag: "Audit", summary: "One audit run (audit show)",
                 description: "Per property, per lease and charge code, and the exceptions with the keys to resolve them by.",
                 callers: .owners,
                 parameters: [.path("run", "The audit run's number, or latest.", kind: .pattern("^([0-9]+|latest)$")),
                              .query("exceptions_only", .flag, "Leave out the per-lease table.")],
                 response: .init(name: "AuditRun", description: "The audit run.", schema: ResponseSchema.report(
                    "audit", "The answer of ownerdash audit show --format json.",
                    parameters: [("run", ResponseSchema.integer), ("as_of", ResponseSchema.date), ("first_month", ResponseSchema.month),
                                 ("last_month", ResponseSchema.month), ("exceptions_only", ResponseSchema.boolean)],
                    tables: [
                        .init(name: "properties", description: "One per property audited.",
                              columns: [.init("property", .text), .init("as_of", .date), .init("leases", .count), .init("lines", .count),
                                        .init("matched", .count), .init("exceptions", .count), .init("missing", .count),
                                        .init("unexpected", .count), .init("undercharge", .count), .init("overcharge", .count),
                                        .init("undercharge_total", .money), .init("overcharge_total", .money),
                                        .init("not_audited_lines", .count), .init("not_audited_amount", .money)]),
                        .init(name: "not_audited", description: "Charges posted on leases without a schedule.",
                              columns: [.init("property", .text), .init("leases", .count), .init("lines", .count),
                                        .init("amount", .money), .init("reason", .text)], optional: true),
                        .init(name: "leases", description: "Per lease and charge code (left out with exceptions_only); expected_from: schedule, or lease rent for a lease without a schedule.",
                              columns: AuditReport.leaseColumns, optional: true),
                        .init(name: "exceptions", description: "The exceptions; key is what POST .../audit/exceptions/{key}/resolve takes; expected_from as in leases.",
                              columns: AuditReport.exceptionColumns),
                        .init(name: "no_ledger", description: "Properties without a tenant ledger (not audited).",
                              columns: [.init("property", .text)], optional: true),
                        .init(name: "partial_ledger", description: "Properties with a partial ledger (not audited).",
                              columns: [.init("property", .text), .init("reason", .text)], optional: true),
                        ResponseSchema.ledgerWholeAsOf,
                    ])),
                 problems: [(400, "The run is neither a number nor latest."), (404, "No such audit run, or none yet.")],
                 answer: .read { call in
                     let text = call.path("run")
                     let runID: Int64?
                     if text == "latest" {
                         runID = nil
                     } else {
                         guard let id = Int64(text), id > 0 else { throw Problem.badParameter("run", "\"\(Parameters.clip(text))\" is not an audit run id (a number, or latest)") }
                         runID = id
                     }
                     do {
                         return MetricOutput.render(try ReportAnswers.audit(database: call.database, runID: runID,
                                                                            exceptionsOnly: try call.flag("exceptions_only")).result, as: .json)
                     } catch let error as AuditError {
                         throw Problem.notFound(error.description)
                     }
                 }),
        APIRoute(.post, "/api/v2/audit/exceptions/{key}/resolve", operationID: "resolveAuditException", tag: "Audit",
                 summary: "Resolve an open exception (audit resolve)",
                 description: "Recorded as the signed-in user, as ownerdash audit resolve --by records it. The audit page's forms post the same to /audit/exceptions/{key}/resolve.",
                 parameters: [auditKey] + csrf + [
                    APIParameter(name: "fix", location: .form, kind: .text, description: "What was done.", required: true),
                    APIParameter(name: "action", location: .form, kind: .choice(AuditResolutions.Action.allCases.map(\.rawValue), fallback: nil),
                                 description: "The kind of fix.", required: true),
                    APIParameter(name: "note", location: .form, kind: .text, description: "A note."),
                 ],
                 response: .init(name: "AuditChange", description: "Recorded.", schema: auditChange),
                 problems: changeProblems,
                 answer: .change { change in try recordAudit(change, resolve: true) }),
        APIRoute(.post, "/api/v2/audit/exceptions/{key}/reopen", operationID: "reopenAuditException", tag: "Audit",
                 summary: "Reopen a resolved exception (audit reopen)",
                 description: "Recorded as the signed-in user, as ownerdash audit reopen --by records it.",
                 parameters: [auditKey] + csrf + [APIParameter(name: "note", location: .form, kind: .text, description: "Why.")],
                 response: .init(name: "AuditChange", description: "Recorded.", schema: auditChange),
                 problems: changeProblems,
                 answer: .change { change in try recordAudit(change, resolve: false) }),
    ]

    /// Resolves or reopens the exception `{key}` as the signed-in user.
    private static func recordAudit(_ change: APIChange, resolve: Bool) throws -> String {
        let text = change.path("key")
        let key: AuditKey
        do {
            key = try AuditKey(parsing: text)
        } catch {
            throw Problem.badParameter("key", "\"\(Parameters.clip(text))\" is not property:lease:charge code:YYYY-MM")
        }
        guard change.viewer.sees(key.property) else { throw Problem.notFound("no audit exception \(Parameters.clip(text))") }
        let note = change.form("note")
        // Read from the server's mirror (--database-url), the audit's resolutions are not kept on the server yet: a
        // resolution written here would be lost at the next refresh.
        guard change.dataDirectory.readerUnifiedDatabase == nil else {
            throw Problem(status: 409, title: "Conflict", detail: "audit resolutions are recorded with ownerdash audit resolve on the host that runs the audit; this server reads the unified data from PostgreSQL")
        }
        let database = try Database(path: change.dataDirectory.unifiedDatabase)
        let at = Timestamp.iso()
        let run: Int64
        do {
            if resolve {
                guard let fix = change.form("fix"), !fix.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw Problem.badParameter("fix", "required (what was done)")
                }
                guard let action = change.form("action").flatMap(AuditResolutions.Action.init(rawValue:)) else {
                    throw Problem.badParameter("action", "must be one of \(AuditResolutions.Action.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                run = try AuditResolutions.resolve(database: database, key: key, fix: fix, action: action, by: change.viewer.email,
                                                   note: note, at: at)
            } else {
                run = try AuditResolutions.reopen(database: database, key: key, by: change.viewer.email, note: note, at: at)
            }
        } catch let error as AuditError {
            throw Problem(status: 409, title: "Conflict", detail: error.description)
        }
        let status = resolve ? "resolved" : "reopened"
        change.log.info(nil, "serve: \(key) \(status) by \(change.viewer.email)")
        return "{\"key\": \(JSONFormat.string(key.description)), \"status\": \"\(status)\", "
            + "\"by\": \(JSONFormat.string(change.viewer.email)), \"at\": \(JSONFormat.string(at)), \"audit_run\": \(run)}\n"
    }
}
