import OwnerDashCore
import SQLiteKit

/// Leads by ad source over the funnel's range (same window rule as `FunnelRow`), from `unified_activity`.
///
/// Formula: leads of a source = lead events (first contacts) in the range whose `source` is that text (blank or
/// missing: `(none)`), summed over the properties asked; share = leads of the source ÷ all leads × 100.
public struct LeadSourceRow: MetricRow, Equatable {
    public var source: String
    public var leads: Int
    /// Share of all the leads counted, percent.
    public var sharePct: Double?

    public static let columns: [MetricResult.Column] = [
        .init("source", .text), .init("leads", .count), .init("share_pct", .percent),
    ]

    public var values: [SQLValue] { [.text(source), SQLValue(leads), SQLValue(sharePct)] }
}

extension Metrics {
    /// Leads by source within each property's funnel window (bindings of `FunnelQuery`), most leads first.
    static func leadsBySource(database: Database, parameters: [String: SQLValue]) throws -> [LeadSourceRow] {
        let counts = try database.rows(LeadSourcesQuery.sql, parameters) { row in
            (source: row.text("source") ?? "(none)", leads: row.count("leads"))
        }
        let total = counts.reduce(0) { $0 + $1.leads }
        return counts.map { LeadSourceRow(source: $0.source, leads: $0.leads, sharePct: Ratio.percent($0.leads, of: total)) }
    }
}

/// The leads-by-source query.
enum LeadSourcesQuery {
    static let sql = """
        WITH \(FunnelQuery.window)
        SELECT coalesce(nullif(trim(a.source), ''), '(none)') AS source, count(*) AS leads
        FROM funnel_window w
        JOIN unified_activity a
          ON a.unified_property_id = w.property AND a.event_date BETWEEN w.window_from AND w.window_to
             AND a.event_type = 'lead'
        GROUP BY 1
        ORDER BY leads DESC, source
        """
}
