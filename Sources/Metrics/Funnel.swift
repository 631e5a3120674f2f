import OwnerDashCore
import SQLiteKit

/// The leasing funnel of each property over a date range, from `unified_activity`.
///
/// Formulas (Dyverse, DoorLoop; docs/metrics.md, "Leasing funnel"), every event dated within the range counted
/// once by its type: leads, tours, applications, approvals, leases (signed).
/// A lead is one definition for both PMSs: a prospect's first contact, one per prospect (Yardi: the earliest
/// `FirstContact` event of a prospect id; RealPage: the earliest contact row of a Name on the Activity report, its
/// only prospect key); a prospect's later contacts are follow-ups, not leads (the sync writes them as `other`);
/// lead→tour = tours ÷ leads, tour→app = applications ÷ tours, app→lease = leases ÷ applications,
/// lead→lease = leases ÷ leads, each × 100 (period ratios, not cohorts; null when the denominator is zero).
/// The range is `from`...`to`, by default the 30 days ending at the as-of date inclusive (else at the property's
/// snapshot date). Roll-up: counts summed, conversions recomputed from the sums.
public struct FunnelRow: MetricRow, Equatable {
    /// The registry key, or `portfolio` for a roll-up.
    public var property: String
    /// The range counted (a roll-up of different ranges: the span of them).
    public var period: Period
    public var leads: Int
    public var tours: Int
    /// nil: no synced source counts them (a RealPage funnel from the Leasing Activity Detail without the Activity
    /// report, `Metrics.uncountedSteps`), not none made.
    public var applications: Int?
    /// nil: as `applications`.
    public var approvals: Int?
    public var leases: Int

    public var leadToTourPct: Double? { Ratio.percent(tours, of: leads) }
    public var tourToApplicationPct: Double? { applications.flatMap { Ratio.percent($0, of: tours) } }
    public var applicationToLeasePct: Double? { applications.flatMap { Ratio.percent(leases, of: $0) } }
    public var leadToLeasePct: Double? { Ratio.percent(leases, of: leads) }

    public static let columns: [MetricResult.Column] = [
        .init("property", .text), .init("from", .date), .init("to", .date), .init("leads", .count),
        .init("tours", .count), .init("applications", .count), .init("approvals", .count), .init("leases", .count),
        .init("lead_to_tour_pct", .percent), .init("tour_to_app_pct", .percent), .init("app_to_lease_pct", .percent),
        .init("lead_to_lease_pct", .percent),
    ]

    public var values: [SQLValue] {
        [.text(property), SQLValue(period.from), SQLValue(period.to), SQLValue(leads), SQLValue(tours),
         SQLValue(applications), SQLValue(approvals), SQLValue(leases), SQLValue(leadToTourPct),
         SQLValue(tourToApplicationPct), SQLValue(applicationToLeasePct), SQLValue(leadToLeasePct)]
    }

    /// The sum of `rows` under `label`; nil for no rows. A step unknown at one property is unknown in the sum (its
    /// conversions too): a partial sum beside every property's tours would understate them.
    public static func rollUp(_ rows: [FunnelRow], label: String = "portfolio") -> FunnelRow? {
        guard let period = Period(spanning: rows.map(\.period)) else { return nil }
        func sum(_ field: KeyPath<FunnelRow, Int>) -> Int { rows.reduce(0) { $0 + $1[keyPath: field] } }
        func sum(_ field: KeyPath<FunnelRow, Int?>) -> Int? {
            rows.reduce(Int?.some(0)) { total, row in total.flatMap { total in row[keyPath: field].map { total + $0 } } }
        }
        return FunnelRow(property: label, period: period, leads: sum(\.leads), tours: sum(\.tours),
                         applications: sum(\.applications), approvals: sum(\.approvals), leases: sum(\.leases))
    }
}

extension FunnelRow {
    /// The steps converting above 100 % and why that is no error (`app→lease 140% (7 of 5): ...`); nil when none
    /// does. The conversions compare the events of one window, not a cohort: a lease signed in the window may follow
    /// an application made before it, so a reader seeing 140 % is told so instead of guessing at a fault.
    public static func aboveHundredNote(leads: Int, tours: Int, applications: Int?, leases: Int) -> String? {
        let steps: [(String, Int?, Int?)] = [("lead→tour", tours, leads), ("tour→app", applications, tours),
                                             ("app→lease", leases, applications)]
        let above = steps.compactMap { name, later, earlier -> String? in
            guard let later, let earlier, earlier > 0, later > earlier, let pct = Ratio.percent(later, of: earlier) else { return nil }
            return "\(name) \(Int(pct.rounded()))% (\(later) of \(earlier))"
        }
        guard !above.isEmpty else { return nil }
        return above.joined(separator: ", ") + ": the funnel's conversions compare the events of one window (period "
            + "ratios, not cohorts), so a step counts events whose earlier step came before the window"
    }

    /// `aboveHundredNote` of this row, with the property and window named.
    public var aboveHundredNote: String? {
        Self.aboveHundredNote(leads: leads, tours: tours, applications: applications, leases: leases).map {
            "\(property) \(period.from.iso)...\(period.to.iso): \($0)"
        }
    }
}

/// The funnel per property and the leads by source.
public struct FunnelReport: Sendable, Equatable {
    /// One row per property, in the order asked.
    public var properties: [FunnelRow]
    /// Leads by ad source over every property asked, most leads first.
    public var leadsBySource: [LeadSourceRow]
    /// The properties whose leads the vendor's own count contradicts (`Metrics.leadCountNotes`), one line each.
    public var leadCountNotes: [String] = []
    /// The properties whose applications and approvals no synced source counts (`Metrics.uncountedSteps`), one line
    /// each.
    public var uncountedStepNotes: [String] = []
}

extension Metrics {
    /// The funnel of each property over `from`...`to` (defaults: see `FunnelRow`), and its leads by source.
    public static func funnel(database: Database, properties: [String], asOf: LocalDate? = nil,
                              from: LocalDate? = nil, to: LocalDate? = nil) throws -> FunnelReport {
        let parameters = FunnelQuery.parameters(properties, asOf: asOf, from: from, to: to)
        let uncounted = try uncountedSteps(database: database, properties: properties)
        let rows = try database.rows(FunnelQuery.sql, parameters) { row in
            let property = row.text("property") ?? ""
            let counted = !uncounted.contains(property)
            return FunnelRow(property: property,
                             period: Period(from: row.date("window_from") ?? .init(daysSinceEpoch: 0),
                                            to: row.date("window_to") ?? .init(daysSinceEpoch: 0)),
                             leads: row.count("leads"), tours: row.count("tours"),
                             applications: counted ? row.count("applications") : nil,
                             approvals: counted ? row.count("approvals") : nil, leases: row.count("leases"))
        }
        let notes = rows.map(\.property).filter(uncounted.contains).map {
            "\($0): applications and approvals not counted: no Activity report synced (leads, tours and leases come from "
                + "the Leasing Activity Detail); they are unknown, not none"
        }
        return FunnelReport(properties: rows, leadsBySource: try leadsBySource(database: database, parameters: parameters),
                            leadCountNotes: try leadCountNotes(database: database, properties: properties, asOf: asOf),
                            uncountedStepNotes: notes)
    }

    /// The RealPage properties whose funnel comes from the Leasing Activity Detail without the Activity report:
    /// applications and approvals come only from the Activity report (`RealPageActivity`; the detail's Online Leasing
    /// contacts are not one per application), so they are unknown there, never a 0 that reads as none made.
    static func uncountedSteps(database: Database, properties: [String]) throws -> Set<String> {
        let absent = try absentSources(database: database, properties: properties)
        return Set(properties.filter { property in
            guard let sources = absent[property] else { return false }
            return sources.pms == "realpage" && sources.subjects.contains(Source.activityReport.subject)
                && !sources.subjects.contains(Source.leasingActivityDetail.subject)
        })
    }

    /// One line per property whose last sync found its leads contradicted by the Leasing Activity Detail's printed
    /// New Prospects (sync_checks `leasing_activity_totals`, measure `new prospects`, failed, at the latest checked
    /// night on or before `asOf`). A lead is a prospect's first contact in the rows read, and the report's rows do not say
    /// which guest cards began before its window: on the first report loaded, every prospect followed up in it counts
    /// as a lead (the real report of The Northern: 290 against its printed 100). The leads, and the conversions
    /// from them, overstate until the loaded history covers those prospects' first contacts; said, not hidden.
    static func leadCountNotes(database: Database, properties: [String], asOf: LocalDate?) throws -> [String] {
        guard try database.tableExists("sync_checks") else { return [] }
        return try database.rows(LeadCountQuery.sql, SnapshotSQL.parameters(properties, asOf: asOf)) { row in
            let property = row.text("property") ?? ""
            return "\(property): leads overstated: \(row.count("actual")) counted as first contacts in the Leasing "
                + "Activity Detail of \(row.text("as_of") ?? "?") and the nights before it, where the report prints "
                + "\(row.count("expected")) New Prospects; prospects whose guest card began before the first report "
                + "loaded count as leads until the loaded history covers them (sync check leasing_activity_totals)"
        }
    }
}

/// The failed `new prospects` reconciliation of each property's latest checked night on or before the limit (the
/// night its last sync recorded sync_checks, `SnapshotSQL.latest`).
enum LeadCountQuery {
    static let sql = """
        WITH \(SnapshotSQL.latest(in: ["sync_checks"]))
        SELECT s.property, s.as_of, CAST(c.expected AS INTEGER) AS expected, CAST(c.actual AS INTEGER) AS actual
        FROM snapshot s
        JOIN sync_checks c ON c.unified_property_id = s.property AND c.as_of_date = s.as_of
                          AND c.check_name = 'leasing_activity_totals' AND c.measure = 'new prospects'
        WHERE c.status = 'failed'
        ORDER BY s.position
        """
}

/// The funnel query, and the window rule it shares with the leads by source.
enum FunnelQuery {
    /// `funnel_window(property, position, window_from, window_to)`: each property's range (NULL ends: no snapshot).
    static let window = """
        \(SnapshotSQL.latestDelinquency),
        funnel_window (property, position, window_from, window_to) AS (
            SELECT property, position,
                   coalesce(:from, date(coalesce(:to, :as_of, as_of), '-29 days')),
                   coalesce(:to, :as_of, as_of)
            FROM snapshot
        )
        """

    static let sql = """
        WITH \(window)
        SELECT w.property, w.window_from, w.window_to,
               count(CASE WHEN a.event_type = 'lead' THEN 1 END)         AS leads,
               count(CASE WHEN a.event_type = 'tour' THEN 1 END)         AS tours,
               count(CASE WHEN a.event_type = 'application' THEN 1 END)  AS applications,
               count(CASE WHEN a.event_type = 'approval' THEN 1 END)     AS approvals,
               count(CASE WHEN a.event_type = 'lease_signed' THEN 1 END) AS leases
        FROM funnel_window w
        LEFT JOIN unified_activity a
          ON a.unified_property_id = w.property AND a.event_date BETWEEN w.window_from AND w.window_to
        WHERE w.window_to IS NOT NULL
        GROUP BY w.position, w.property, w.window_from, w.window_to
        ORDER BY w.position
        """

    static func parameters(_ properties: [String], asOf: LocalDate?, from: LocalDate?, to: LocalDate?) -> [String: SQLValue] {
        SnapshotSQL.parameters(properties, asOf: asOf).merging([
            ":as_of": SQLValue(asOf), ":from": SQLValue(from), ":to": SQLValue(to),
        ]) { $1 }
    }
}
