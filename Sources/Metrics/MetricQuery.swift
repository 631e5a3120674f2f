import OwnerDashCore
import SQLiteKit

/// One `ownerdash query` question: which metric, for which properties, at which date or over which range.
public struct MetricQuery: Sendable, Equatable {
    /// The metrics `ownerdash query` answers.
    public enum Metric: String, Sendable, CaseIterable {
        case occupancy, exposure, pricing, delinquency, funnel, activity, summary
    }

    public var metric: Metric
    /// Registry keys asked for; empty: every synced property (the portfolio).
    public var properties: [String]
    /// Add the portfolio roll-up (also the default when no property is named).
    public var portfolio: Bool
    /// Only properties on this PMS (`realpage`, `yardi`) when none is named.
    public var pms: String?
    public var asOf: LocalDate?
    /// A trend (occupancy, exposure), the funnel's range, the activity months, or the trade-out period (pricing).
    public var from: LocalDate?
    public var to: LocalDate?
    /// How many delinquent residents to list (delinquency; default 10).
    public var top: Int?
    /// The properties the asker may see (a manager of `ownerdash serve`); nil: every one. With no property named,
    /// the portfolio and its roll-up are these only, never totals over properties the asker may not see.
    public var within: Set<String>?

    /// A question; see `validate()` for the combinations each metric takes.
    public init(metric: Metric, properties: [String] = [], portfolio: Bool = false, pms: String? = nil,
                asOf: LocalDate? = nil, from: LocalDate? = nil, to: LocalDate? = nil, top: Int? = nil) {
        self.metric = metric; self.properties = properties; self.portfolio = portfolio; self.pms = pms
        self.asOf = asOf; self.from = from; self.to = to; self.top = top
    }

    /// Whether the answer is rolled up to the portfolio: `--portfolio`, or no property named.
    public var rollsUp: Bool { portfolio || properties.isEmpty }

    /// Whether occupancy or exposure is asked as a series (`--from`/`--to`).
    public var isTrend: Bool { (metric == .occupancy || metric == .exposure) && (from != nil || to != nil) }

    /// Throws `MetricsError.invalidQuery` for options the metric does not take.
    public func validate() throws {
        let name = "query \(metric.rawValue)"
        if portfolio && !properties.isEmpty {
            throw MetricsError.invalidQuery("\(name): --portfolio and --property exclude each other")
        }
        if let from, let to, from > to {
            throw MetricsError.invalidQuery("\(name): --from \(from.iso) is after --to \(to.iso)")
        }
        if let top, top < 0 { throw MetricsError.invalidQuery("\(name): --top must be 0 or more") }
        if top != nil && metric != .delinquency {
            throw MetricsError.invalidQuery("\(name): --top applies to delinquency only")
        }
        switch metric {
        case .delinquency, .summary:
            if from != nil || to != nil {
                throw MetricsError.invalidQuery("\(name): takes --as-of, not --from/--to (it reads one snapshot)")
            }
        case .occupancy, .exposure:
            if isTrend && asOf != nil {
                throw MetricsError.invalidQuery("\(name): --as-of reads one snapshot, --from/--to a series; give one or the other")
            }
        case .pricing, .funnel, .activity:
            break
        }
    }
}

extension Metrics {
    /// Answers a query as a `MetricResult` for the output formats: the rows per property (or per date / month), the
    /// portfolio roll-up when asked, and the metric's extra tables.
    ///
    /// Throws `MetricsError` for an unknown property, nothing synced, or a named property with no snapshot on or
    /// before `asOf`; portfolio properties without one are left out and named in `warnings`.
    public static func run(_ query: MetricQuery, database: Database) throws -> MetricResult {
        try query.validate()
        var selected = try resolve(database: database, keys: query.properties, pms: query.pms).map(\.key)
        if let within = query.within {
            selected = selected.filter(within.contains)
            guard !selected.isEmpty else { throw MetricsError.nothingSynced(pms: query.pms) }
        }
        var warnings: [String] = []
        var keys = selected
        if !query.isTrend {
            keys = try withSnapshots(selected, query: query, database: database, warnings: &warnings)
        }
        if metricSources[query.metric] != nil {
            keys = try withSource(keys, query: query, database: database, warnings: &warnings)
        }
        var result = try answer(query, keys: keys, database: database)
        if query.isTrend {
            let present = Set(result.tables.first?.rows.compactMap { $0.first?.textValue } ?? [])
            if present.isEmpty { throw MetricsError.noSnapshotBetween(from: query.from, to: query.to) }
            if !query.rollsUp {
                let absent = keys.filter { !present.contains($0) }
                if !absent.isEmpty { warnings.append("\(MetricsError.list(absent)): no snapshot in the range") }
            }
        }
        result.parameters = parameters(of: query, keys: keys)
        result.warnings = warnings + result.warnings
        return result
    }

    /// The keys that have a snapshot under the as-of rule; the others are an error when named, a warning otherwise.
    private static func withSnapshots(_ keys: [String], query: MetricQuery, database: Database,
                                      warnings: inout [String]) throws -> [String] {
        // The funnel and activity need a snapshot only to date their default window.
        if (query.metric == .funnel || query.metric == .activity) && (query.asOf != nil || query.to != nil) { return keys }
        let dates = try snapshotDates(database: database, properties: keys, asOf: query.asOf,
                                      delinquency: query.metric != .occupancy && query.metric != .exposure && query.metric != .pricing)
        let missing = keys.filter { dates[$0] == nil }
        guard !missing.isEmpty else { return keys }
        // A property synced without units (its unit source failed) has no snapshot: say why, not just that; a metric
        // whose own sources were not synced either says that too (no Delinquent and Prepaid report: no night of
        // delinquency), and a funnel or activity without a night says what its events cover and how to ask for them.
        var reasons = try unitsMissing(database: database, properties: missing)
        var sourceMissing = Set<String>()
        for (key, byMetric) in try missingMetrics(database: database, properties: missing) {
            guard let reason = byMetric[query.metric] else { continue }
            reasons[key] = reasons[key].map { "\($0); \(reason)" } ?? reason
            sourceMissing.insert(key)
        }
        if query.metric == .funnel || query.metric == .activity {
            for (key, range) in try activityRanges(database: database, properties: missing) where !sourceMissing.contains(key) {
                reasons[key] = (reasons[key].map { $0 + "; " } ?? "no night synced to end the default window; ")
                    + "its activity runs \(range.from) to \(range.to): ask with --from and --to"
            }
        }
        if missing.count == 1, let reason = reasons[missing[0]], !query.properties.isEmpty || keys.count == 1 {
            throw MetricsError.noUnitData(missing[0], reason: reason)
        }
        let earliest = missing.count == 1 ? try earliestSnapshot(database: database, property: missing[0]) : nil
        let error = MetricsError.noSnapshot(missing, asOf: query.asOf, earliest: earliest)
        if !query.properties.isEmpty || missing.count == keys.count {
            for key in missing { if let reason = reasons[key] { warnings.append("\(key): \(reason)") } }
            throw error
        }
        // Left out of the portfolio: each with its reason, and those without one in one line.
        for key in missing { if let reason = reasons[key] { warnings.append("\(key): \(reason) (left out)") } }
        let unexplained = missing.filter { reasons[$0] == nil }
        if !unexplained.isEmpty {
            let earliest = unexplained.count == 1 ? try earliestSnapshot(database: database, property: unexplained[0]) : nil
            warnings.append("left out: \(MetricsError.noSnapshot(unexplained, asOf: query.asOf, earliest: earliest))")
        }
        return keys.filter { dates[$0] != nil }
    }

    /// One source a metric can be computed from: the subject its property's sync names in a `snapshot` warning whose
    /// `actual` is `none` when it had no snapshot of it, and how a reader knows it.
    public struct Source: Sendable, Equatable {
        /// The warning's subject: a Yardi operation, a OneSite report type or an RPX operation.
        public var subject: String
        public var name: String

        static let rpxResidents = Source(subject: "getresidentlistinfo", name: "RPX getresidentlistinfo snapshot")
        static let activityReport = Source(subject: "activity", name: "Activity report")
        static let leasingActivityDetail = Source(subject: "leasing_activity_detail", name: "Leasing Activity Detail")
    }

    /// What each metric is computed from besides the units, per PMS (`unified_properties.pms_source`): a property
    /// whose last sync had none of its PMS's sources for the metric would otherwise count nothing there (no ledger or
    /// Delinquent and Prepaid report: no one owes; no guest cards or activity reports: no leads; no residents: no
    /// move-ins). Such a property is left out and named, never a zero. RealPage's funnel has two sources (the Activity
    /// report, the Leasing Activity Detail), its resident events two (RPX getresidentlistinfo, the Activity report).
    public static let metricSources: [MetricQuery.Metric: [String: [Source]]] = [
        .delinquency: ["yardi": [Source(subject: "GetResidentTransactions_Login", name: "GetResidentTransactions_Login snapshot")],
                       "realpage": [Source(subject: "delinquency", name: "Delinquent and Prepaid report")]],
        .funnel: ["yardi": [Source(subject: "GetYardiGuestActivity_Login", name: "GetYardiGuestActivity_Login snapshot")],
                  "realpage": [.activityReport, .leasingActivityDetail]],
        .activity: ["yardi": [Source(subject: "GetResidentsByStatus", name: "GetResidentsByStatus snapshot")],
                    "realpage": [.rpxResidents, .activityReport]],
    ]

    /// The sources one property's last sync had no snapshot of (the `snapshot` warnings with no date the
    /// cross-checks record), and its PMS.
    public struct AbsentSources: Sendable {
        public var pms: String
        public var subjects: Set<String>

        /// Why `metric` is missing when every one of `sources` is absent; nil when one of them was synced (or there
        /// are none to say).
        public func reason(_ sources: [Source], metric: String) -> String? {
            guard !sources.isEmpty, sources.allSatisfy({ subjects.contains($0.subject) }) else { return nil }
            let why = pms == "yardi" ? "the call failed or was not fetched" : "not fetched or not loaded"
            return "no \(sources.map(\.name).joined(separator: " nor ")) synced (\(why)): \(metric) is missing, not zero"
        }
    }

    /// Property -> the sources its last sync had none of, for the properties given; a property missing nothing is
    /// absent.
    public static func absentSources(database: Database, properties: [String]) throws -> [String: AbsentSources] {
        var absent: [String: AbsentSources] = [:]
        try database.prepare("""
            SELECT w.unified_property_id, p.pms_source, w.subject
            FROM unified_sync_warnings w JOIN unified_properties p USING (unified_property_id)
            WHERE w.check_name = 'snapshot' AND w.actual = 'none'
              AND w.unified_property_id IN (SELECT value FROM json_each(:properties))
            """).forEachRow([":properties": .jsonArray(properties)]) { row in
            if let key = row.text("unified_property_id"), let subject = row.text("subject") {
                absent[key, default: AbsentSources(pms: row.text("pms_source") ?? "", subjects: [])].subjects.insert(subject)
            }
        }
        return absent
    }

    /// Property -> metric -> why it is missing, for the properties given whose last sync had none of their PMS's
    /// sources of the metric (`metricSources`); a property missing nothing is absent.
    public static func missingMetrics(database: Database, properties: [String]) throws -> [String: [MetricQuery.Metric: String]] {
        var missing: [String: [MetricQuery.Metric: String]] = [:]
        for (key, property) in try absentSources(database: database, properties: properties) {
            for (metric, byPMS) in metricSources {
                if let reason = property.reason(byPMS[property.pms] ?? [], metric: metric.rawValue) {
                    missing[key, default: [:]][metric] = reason
                }
            }
        }
        return missing
    }

    /// The keys whose source for the metric was synced; the others named: an error when a property was asked for by
    /// name or none is left (as a missing snapshot is), else a warning each and left out of the portfolio.
    private static func withSource(_ keys: [String], query: MetricQuery, database: Database,
                                   warnings: inout [String]) throws -> [String] {
        let reasons = try missingMetrics(database: database, properties: keys).compactMapValues { $0[query.metric] }
        let missing = keys.filter { reasons[$0] != nil }.sorted()
        guard let first = missing.first, let reason = reasons[first] else { return keys }
        let left = keys.filter { reasons[$0] == nil }
        if left.isEmpty || !query.properties.isEmpty {
            // One reason for all when they share it (the usual case), else each property with its own (a Yardi and a
            // RealPage property asked together): missing data either way, never a bad query (the API's 404, not 400).
            if missing.allSatisfy({ reasons[$0] == reason }) {
                throw MetricsError.noUnitData(MetricsError.list(missing), reason: reason)
            }
            throw MetricsError.noUnitData(first, reason: ([reason] + missing.dropFirst().map { "\($0): \(reasons[$0] ?? reason)" })
                .joined(separator: "; "))
        }
        for key in missing { warnings.append("\(key): \(reasons[key] ?? reason) (left out)") }
        return left
    }

    /// Property -> the first and last dates of its unified_activity events, for the properties given that have any.
    static func activityRanges(database: Database, properties: [String]) throws -> [String: (from: String, to: String)] {
        var ranges: [String: (from: String, to: String)] = [:]
        try database.prepare("""
            SELECT unified_property_id, min(event_date) AS first, max(event_date) AS last FROM unified_activity
            WHERE unified_property_id IN (SELECT value FROM json_each(:properties))
            GROUP BY unified_property_id
            """).forEachRow([":properties": .jsonArray(properties)]) { row in
            if let key = row.text("unified_property_id"), let first = row.text("first"), let last = row.text("last") {
                ranges[key] = (first, last)
            }
        }
        return ranges
    }

    /// Property -> the sync's `units_missing` warning (synced without any unit data), for the properties given.
    static func unitsMissing(database: Database, properties: [String]) throws -> [String: String] {
        var reasons: [String: String] = [:]
        try database.prepare("""
            SELECT unified_property_id, message FROM unified_sync_warnings
            WHERE check_name = 'units_missing' AND unified_property_id IN (SELECT value FROM json_each(:properties))
            """).forEachRow([":properties": .jsonArray(properties)]) { row in
            if let key = row.text(at: 0), let message = row.text(at: 1) { reasons[key] = message }
        }
        return reasons
    }

    private static func parameters(of query: MetricQuery, keys: [String]) -> [MetricResult.Parameter] {
        var parameters: [MetricResult.Parameter] = [
            .init("properties", .list(keys)), .init("portfolio", .bool(query.rollsUp)),
            .init("pms", query.pms.map { .text($0) } ?? .null), .init("as_of", date(query.asOf)),
        ]
        switch query.metric {
        case .occupancy, .exposure, .pricing, .funnel, .activity:
            parameters += [.init("from", date(query.from)), .init("to", date(query.to))]
        case .delinquency:
            parameters.append(.init("top", .integer(query.top ?? 10)))
        case .summary:
            break
        }
        return parameters
    }

    private static func date(_ date: LocalDate?) -> MetricResult.Parameter.Value { date.map { .text($0.iso) } ?? .null }

    // MARK: - One answer per metric

    private static func answer(_ query: MetricQuery, keys: [String], database: Database) throws -> MetricResult {
        let scope = scopeText(query, keys: keys)
        let at = query.asOf.map { "at the snapshot on or before \($0.iso)" } ?? "at the latest snapshot"
        let range = "\(query.from?.iso ?? "the first") to \(query.to?.iso ?? "the last")"
        func result(_ tables: [MetricTable]) -> MetricResult {
            MetricResult(metric: query.metric.rawValue, parameters: [], tables: tables)
        }
        switch query.metric {
        case .occupancy where query.isTrend:
            let rows = try occupancyTrend(database: database, properties: keys, from: query.from, to: query.to)
            return result([MetricTable(name: "rows", title: "Occupancy trend, \(range) — \(scope)",
                                       rows: query.rollsUp ? OccupancyRow.rollUpByDate(rows) : rows)])
        case .occupancy:
            let rows = try occupancy(database: database, properties: keys, asOf: query.asOf)
            return result([MetricTable(name: "rows", title: "Occupancy \(at) — \(scope)", rows: rows,
                                       total: rollUp(query, rows, OccupancyRow.rollUp))])
        case .exposure where query.isTrend:
            let rows = try exposureTrend(database: database, properties: keys, from: query.from, to: query.to)
            return result([MetricTable(name: "rows", title: "Exposure trend, \(range) — \(scope)",
                                       rows: query.rollsUp ? ExposureRow.rollUpByDate(rows) : rows)])
        case .exposure:
            let rows = try exposure(database: database, properties: keys, asOf: query.asOf)
            return result([MetricTable(name: "rows", title: "Exposure \(at) — \(scope)", rows: rows,
                                       total: rollUp(query, rows, ExposureRow.rollUp))])
        case .pricing:
            let report = try pricing(database: database, properties: keys, asOf: query.asOf, from: query.from, to: query.to)
            let period = report.tradeOutPeriod.map { "leases starting \($0.from.iso) to \($0.to.iso)" } ?? "no leases with a known prior rent"
            return result([
                MetricTable(name: "rows", title: "Pricing by floorplan \(at) — \(scope)", rows: report.floorplans,
                            total: PricingRow.rollUp(report.floorplans, label: query.rollsUp ? "portfolio" : nil)),
                MetricTable(name: "trade_out", title: "Trade-out, \(period)", rows: report.tradeOut),
            ])
        case .delinquency:
            let top = query.top ?? 10
            let report = try delinquency(database: database, properties: keys, asOf: query.asOf, top: top)
            var tables = [MetricTable(name: "rows", title: "Delinquency \(at) — \(scope)", rows: report.properties,
                                      total: rollUp(query, report.properties, DelinquencyRow.rollUp))]
            if top > 0 {
                tables.append(MetricTable(name: "top_residents", title: "Top \(top) delinquent residents by balance owed",
                                          rows: report.topResidents))
            }
            let lags = try delinquencyLags(database: database, shown: report.properties.map { ($0.property, $0.asOf) })
            if let lagging = LedgerWholeAsOf.table(lags) { tables.append(lagging) }
            var answered = result(tables)
            answered.warnings += report.residentsPruned.map(\.reason)
            return answered
        case .funnel:
            let report = try funnel(database: database, properties: keys, asOf: query.asOf, from: query.from, to: query.to)
            var answered = result([
                MetricTable(name: "rows", title: "Leasing funnel — \(scope)", rows: report.properties,
                            total: rollUp(query, report.properties, FunnelRow.rollUp)),
                MetricTable(name: "leads_by_source", title: "Leads by source", rows: report.leadsBySource),
            ])
            answered.warnings += report.properties.compactMap(\.aboveHundredNote) + report.leadCountNotes
                + report.uncountedStepNotes
            return answered
        case .activity:
            let rows = try activity(database: database, properties: keys, asOf: query.asOf, from: query.from, to: query.to)
            let shown = query.rollsUp ? ActivityRow.rollUpByMonth(rows) : rows
            let label = query.rollsUp ? "portfolio" : keys.count == 1 ? keys[0] : "all"
            return result([MetricTable(name: "rows", title: "Activity by month — \(scope)", rows: shown,
                                       total: ActivityRow.rollUp(rows, label: label))])
        case .summary:
            let rows = try summary(database: database, properties: keys, asOf: query.asOf)
            var tables = [MetricTable(name: "rows", title: "Summary \(at) — \(scope)", rows: rows,
                                      total: rollUp(query, rows, SummaryRow.rollUp))]
            // Its delinquent and net_delinquent are the delinquency metric's, with the same lag named.
            let lags = try delinquencyLags(database: database, shown: rows.map { ($0.property, $0.asOf) })
            if let lagging = LedgerWholeAsOf.table(lags) { tables.append(lagging) }
            var answered = result(tables)
            answered.warnings = rows.flatMap(\.missingFigures)
                + (try leadCountNotes(database: database, properties: keys, asOf: query.asOf))
            return answered
        }
    }

    /// The roll-up row of a snapshot metric: for the portfolio, or across several named properties.
    private static func rollUp<Row>(_ query: MetricQuery, _ rows: [Row], _ sum: ([Row], String) -> Row?) -> Row? {
        if query.rollsUp { return sum(rows, "portfolio") }
        return rows.count > 1 ? sum(rows, "all") : nil
    }

    private static func scopeText(_ query: MetricQuery, keys: [String]) -> String {
        if query.rollsUp {
            return "portfolio\(query.pms.map { " (\($0))" } ?? ""), \(keys.count) propert\(keys.count == 1 ? "y" : "ies")"
        }
        return keys.joined(separator: ", ")
    }
}
