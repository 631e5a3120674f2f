import OwnerDashCore
import SQLiteKit

/// Move-ins, move-outs, net absorption, notices, renewals and renewal % of each property per calendar month of a
/// range, from `unified_activity` (events) and `unified_leases` (lease terms).
///
/// Formulas (docs/metrics.md, "Move-ins, move-outs and renewals"; RealPage Lease Renewal Trend for renewal %):
/// - move-ins, move-outs, notices, renewals = events of that type dated in the month (renewals: the renewal lease's
///   signing, or its start where the PMS gives no signing date);
/// - net absorption = move-ins − move-outs (RealPage's property-level "net change");
/// - leases expiring = lease terms ending in the month: every `unified_leases` end date, plus the term each renewal
///   lease replaced (its prior lease's end, else the day before the renewal starts), one per unit and end date;
/// - renewed = those expiring terms a renewal lease replaced (counted in the month the old term ends);
/// - renewal % = renewed ÷ leases expiring × 100 (null without expirations).
/// The range is `from`...`to` (the first and last months clipped to it), by default the 12 calendar months ending
/// with the as-of date (else the property's snapshot date). Roll-up: every count summed, renewal % recomputed.
public struct ActivityRow: MetricRow, Equatable {
    /// The registry key, or `portfolio` for a roll-up.
    public var property: String
    /// `YYYY-MM`; nil for a roll-up over several months.
    public var month: String?
    /// The days of the month inside the range.
    public var period: Period
    public var moveIns: Int
    public var moveOuts: Int
    public var notices: Int
    public var renewals: Int
    public var leasesExpiring: Int
    public var renewed: Int

    /// Move-ins − move-outs.
    public var netAbsorption: Int { moveIns - moveOuts }
    /// Renewed ÷ leases expiring, percent.
    public var renewalPct: Double? { Ratio.percent(renewed, of: leasesExpiring) }

    public static let columns: [MetricResult.Column] = [
        .init("property", .text), .init("month", .month), .init("move_ins", .count), .init("move_outs", .count),
        .init("net_absorption", .count), .init("notices", .count), .init("renewals", .count),
        .init("leases_expiring", .count), .init("renewed", .count), .init("renewal_pct", .percent),
    ]

    public var values: [SQLValue] {
        [.text(property), SQLValue(month), SQLValue(moveIns), SQLValue(moveOuts), SQLValue(netAbsorption),
         SQLValue(notices), SQLValue(renewals), SQLValue(leasesExpiring), SQLValue(renewed), SQLValue(renewalPct)]
    }

    /// The sum of `rows` under `label` (its month when they share one); nil for no rows.
    public static func rollUp(_ rows: [ActivityRow], label: String = "portfolio") -> ActivityRow? {
        guard let first = rows.first, let period = Period(spanning: rows.map(\.period)) else { return nil }
        func sum(_ field: KeyPath<ActivityRow, Int>) -> Int { rows.reduce(0) { $0 + $1[keyPath: field] } }
        return ActivityRow(property: label, month: Set(rows.map(\.month)).count == 1 ? first.month : nil, period: period,
                           moveIns: sum(\.moveIns), moveOuts: sum(\.moveOuts), notices: sum(\.notices),
                           renewals: sum(\.renewals), leasesExpiring: sum(\.leasesExpiring), renewed: sum(\.renewed))
    }

    /// One roll-up per month (the portfolio's months), oldest first.
    public static func rollUpByMonth(_ rows: [ActivityRow], label: String = "portfolio") -> [ActivityRow] {
        Dictionary(grouping: rows, by: { $0.month ?? "" }).sorted { $0.key < $1.key }.compactMap { rollUp($0.value, label: label) }
    }
}

extension Metrics {
    /// Activity of each property per month of `from`...`to` (defaults: see `ActivityRow`), by property in the
    /// order asked, then month; every month of the range has a row, zero when nothing happened.
    public static func activity(database: Database, properties: [String], asOf: LocalDate? = nil,
                                from: LocalDate? = nil, to: LocalDate? = nil) throws -> [ActivityRow] {
        let parameters = FunnelQuery.parameters(properties, asOf: asOf, from: from, to: to)
        return try database.rows(ActivityQuery.sql, parameters) { row in
            ActivityRow(property: row.text("property") ?? "", month: row.text("month"),
                        period: Period(from: row.date("period_from") ?? .init(daysSinceEpoch: 0),
                                       to: row.date("period_to") ?? .init(daysSinceEpoch: 0)),
                        moveIns: row.count("move_ins"), moveOuts: row.count("move_outs"), notices: row.count("notices"),
                        renewals: row.count("renewals"), leasesExpiring: row.count("leases_expiring"),
                        renewed: row.count("renewed"))
        }
    }
}

/// The activity query (bindings of `FunnelQuery`: properties, as-of, from, to).
enum ActivityQuery {
    static let sql = """
        WITH \(SnapshotSQL.latestDelinquency),
        period (property, position, range_from, range_to) AS (
            SELECT property, position,
                   coalesce(:from, date(coalesce(:to, :as_of, as_of), 'start of month', '-11 months')),
                   coalesce(:to, :as_of, as_of)
            FROM snapshot
        ),
        month (property, position, month_start, range_from, range_to) AS (
            SELECT property, position, date(range_from, 'start of month'), range_from, range_to
            FROM period WHERE range_from <= range_to
            UNION ALL
            SELECT property, position, date(month_start, '+1 month'), range_from, range_to
            FROM month WHERE date(month_start, '+1 month') <= range_to
        ),
        event (property, month, move_ins, move_outs, notices, renewals) AS (
            SELECT p.property, substr(a.event_date, 1, 7),
                   count(CASE WHEN a.event_type = 'move_in' THEN 1 END),
                   count(CASE WHEN a.event_type = 'move_out' THEN 1 END),
                   count(CASE WHEN a.event_type = 'notice' THEN 1 END),
                   count(CASE WHEN a.event_type = 'renewal' THEN 1 END)
            FROM period p
            JOIN unified_activity a
              ON a.unified_property_id = p.property AND a.event_date BETWEEN p.range_from AND p.range_to
            GROUP BY p.property, substr(a.event_date, 1, 7)
        ),
        -- Lease terms ending in the range, keyed by unit and end date: the leases' own end dates, and the term each
        -- renewal replaced (a PMS that lists one lease per household has no row for it).
        term_end (property, term, end_date, renewed) AS (
            SELECT p.property, coalesce(l.unit_number, l.lease_id), l.end_date, 0
            FROM period p
            JOIN unified_leases l ON l.unified_property_id = p.property
            WHERE l.end_date BETWEEN p.range_from AND p.range_to
            UNION ALL
            SELECT p.property, coalesce(l.unit_number, prior.lease_id, l.lease_id),
                   coalesce(prior.end_date, date(l.start_date, '-1 day')), 1
            FROM period p
            JOIN unified_leases l ON l.unified_property_id = p.property AND l.is_renewal = 1
            LEFT JOIN unified_leases prior
              ON prior.unified_property_id = l.unified_property_id AND prior.lease_id = l.prior_lease_id
            WHERE coalesce(prior.end_date, date(l.start_date, '-1 day')) BETWEEN p.range_from AND p.range_to
        ),
        expiration (property, month, leases_expiring, renewed) AS (
            SELECT property, substr(end_date, 1, 7), count(*), sum(renewed)
            FROM (SELECT property, term, end_date, max(renewed) AS renewed
                  FROM term_end GROUP BY property, term, end_date)
            GROUP BY property, substr(end_date, 1, 7)
        )
        SELECT cal.property, substr(cal.month_start, 1, 7) AS month,
               max(cal.month_start, cal.range_from) AS period_from,
               min(date(cal.month_start, '+1 month', '-1 day'), cal.range_to) AS period_to,
               e.move_ins, e.move_outs, e.notices, e.renewals, x.leases_expiring, x.renewed
        FROM month cal
        LEFT JOIN event e ON e.property = cal.property AND e.month = substr(cal.month_start, 1, 7)
        LEFT JOIN expiration x ON x.property = cal.property AND x.month = substr(cal.month_start, 1, 7)
        ORDER BY cal.position, cal.month_start
        """
}
