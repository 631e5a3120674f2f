import OwnerDashCore
import SQLiteKit

/// The headline numbers of each property at its snapshot, one row per property: occupancy and exposure from
/// `unified_occupancy_metrics`, delinquency from `unified_delinquency` at the same date, the 30-day funnel and the
/// month's move-ins and move-outs from `unified_activity`.
///
/// Formulas (each as its own metric states it):
/// - occupancy % = occupied ÷ units; leased % = RealPage Net Leased ÷ units; exposure 30 / 60 % = exposure units ÷
///   units (all × 100); vacant ready and aged vacant (> 90 days) as counted by occupancy;
/// - delinquent = Σ 0-30 + 31-60 + 61-90 + 90+; net delinquent = delinquent − prepaid;
/// - leads and leases (signed) = events in the 30 days ending at the as-of date (else the snapshot date) inclusive;
/// - move-ins and move-outs = events from the first of that date's month to the date (month to date).
/// Roll-up: every count and amount summed, percentages recomputed from the summed units (weighted by units).
///
/// A property whose last sync had no source of a figure (`Metrics.metricSources`: Yardi's ledger or RealPage's
/// Delinquent and Prepaid report for delinquency, guest activity or the activity reports for leads and leases,
/// residents for move-ins and move-outs) has that figure nil, never 0, and `missingFigures` says why; the roll-up
/// sums the properties that have it. A property synced without a unit list (warning `units_missing`) keeps its line
/// with every unit figure nil, for the same reason.
public struct SummaryRow: MetricRow, Equatable {
    /// The registry key, or `portfolio` for a roll-up.
    public var property: String
    /// The property's name (`unified_properties.name`); the roll-up's label.
    public var name: String
    /// `realpage` or `yardi`; nil for a roll-up.
    public var pms: String?
    /// The snapshot date (a roll-up of several dates: nil).
    public var asOf: LocalDate?
    /// Properties summed (1 for a property's own row).
    public var properties: Int
    /// The unit figures: nil when the property was synced without a unit list.
    public var units: Int?
    public var occupied: Int?
    public var leased: Int?
    public var exposure30: Int?
    public var exposure60: Int?
    public var vacantReady: Int?
    public var agedVacant90: Int?
    /// 0-30 + 31-60 + 61-90 + 90+; nil when the ledger was not synced.
    public var delinquent: Money?
    public var prepaid: Money?
    /// Nil when the guest activity was not synced.
    public var leads30Days: Int?
    public var leases30Days: Int?
    /// Nil when the residents were not synced.
    public var moveInsMonthToDate: Int?
    public var moveOutsMonthToDate: Int?
    /// One line per figure group left nil, naming the property and the missing call (empty for a roll-up).
    public var missingFigures: [String] = []

    public var occupancyPct: Double? { percent(occupied) }
    public var leasedPct: Double? { percent(leased) }
    public var exposure30Pct: Double? { percent(exposure30) }
    public var exposure60Pct: Double? { percent(exposure60) }

    /// `count` of the units, nil when either is missing.
    private func percent(_ count: Int?) -> Double? {
        guard let count, let units else { return nil }
        return Ratio.percent(count, of: units)
    }
    /// Delinquent minus prepaid.
    public var netDelinquent: Money? { delinquent.flatMap { owed in prepaid.map { owed - $0 } } }

    public static let columns: [MetricResult.Column] = [
        .init("property", .text), .init("as_of", .date), .init("units", .count), .init("occupancy_pct", .percent),
        .init("leased_pct", .percent), .init("exposure_30_pct", .percent), .init("exposure_60_pct", .percent),
        .init("vacant_ready", .count), .init("aged_vacant_90", .count), .init("delinquent", .money),
        .init("net_delinquent", .money), .init("leads_30d", .count), .init("leases_30d", .count),
        .init("move_ins_mtd", .count), .init("move_outs_mtd", .count),
    ]

    public var values: [SQLValue] {
        [.text(property), SQLValue(asOf), SQLValue(units), SQLValue(occupancyPct), SQLValue(leasedPct),
         SQLValue(exposure30Pct), SQLValue(exposure60Pct), SQLValue(vacantReady), SQLValue(agedVacant90),
         SQLValue(delinquent), SQLValue(netDelinquent), SQLValue(leads30Days), SQLValue(leases30Days),
         SQLValue(moveInsMonthToDate), SQLValue(moveOutsMonthToDate)]
    }

    /// The sum of `rows` under `label` (weighted by units); nil for no rows. A figure missing at some properties is
    /// the sum of the others (their `missingFigures` say so); missing at all of them, it stays nil.
    public static func rollUp(_ rows: [SummaryRow], label: String = "portfolio") -> SummaryRow? {
        guard let first = rows.first else { return nil }
        func sum(_ field: KeyPath<SummaryRow, Int?>) -> Int? {
            let known = rows.compactMap { $0[keyPath: field] }
            return known.isEmpty ? nil : known.reduce(0, +)
        }
        func sum(_ field: KeyPath<SummaryRow, Money?>) -> Money? {
            let known = rows.compactMap { $0[keyPath: field] }
            return known.isEmpty ? nil : known.reduce(.zero, +)
        }
        return SummaryRow(
            property: label, name: label, pms: nil, asOf: Set(rows.map(\.asOf)).count == 1 ? first.asOf : nil,
            properties: rows.reduce(0) { $0 + $1.properties }, units: sum(\.units), occupied: sum(\.occupied), leased: sum(\.leased),
            exposure30: sum(\.exposure30), exposure60: sum(\.exposure60), vacantReady: sum(\.vacantReady),
            agedVacant90: sum(\.agedVacant90), delinquent: sum(\.delinquent),
            prepaid: sum(\.prepaid), leads30Days: sum(\.leads30Days),
            leases30Days: sum(\.leases30Days), moveInsMonthToDate: sum(\.moveInsMonthToDate),
            moveOutsMonthToDate: sum(\.moveOutsMonthToDate))
    }
}

extension Metrics {
    /// The summary of each property at its snapshot (latest on or before `asOf`), in the order of `properties`; the
    /// figures whose Yardi source was not synced are nil and named in `missingFigures`.
    public static func summary(database: Database, properties: [String], asOf: LocalDate? = nil) throws -> [SummaryRow] {
        var parameters = SnapshotSQL.parameters(properties, asOf: asOf)
        parameters[":as_of"] = SQLValue(asOf)
        let absent = try absentSources(database: database, properties: properties)
        let unitsMissing = try unitsMissing(database: database, properties: properties)
        return try database.rows(SummaryQuery.sql, parameters) { row in
            var summary = SummaryRow(property: row.text("property") ?? "", name: row.text("name") ?? "", pms: row.text("pms_source"),
                       asOf: row.date("as_of"), properties: 1, units: row.int("total_units"),
                       occupied: row.int("occupied_units"), leased: row.int("leased_units"),
                       exposure30: row.int("exposure_30"), exposure60: row.int("exposure_60"),
                       vacantReady: row.int("vacant_ready"), agedVacant90: row.int("aged_vacant_90"),
                       delinquent: row.cents("delinquent_cents") ?? .zero, prepaid: row.cents("prepaid_cents") ?? .zero,
                       leads30Days: row.count("leads"), leases30Days: row.count("leases"),
                       moveInsMonthToDate: row.count("move_ins"), moveOutsMonthToDate: row.count("move_outs"))
            if let sources = absent[summary.property] { summary.leaveOut(sources) }
            if summary.units == nil {
                summary.missingFigures.insert("\(summary.property): units, occupancy_pct, leased_pct, exposure_30_pct, "
                    + "exposure_60_pct, vacant_ready and aged_vacant_90 left empty: "
                    + (unitsMissing[summary.property] ?? "no unit snapshot of this night"), at: 0)
            }
            return summary
        }
    }
}

extension SummaryRow {
    /// The figure groups of the summary, the metric whose sources each comes from (`Metrics.metricSources`) and the
    /// sources it has besides them: RealPage's signed leases are resident events (RPX leases), or come from the Activity
    /// report or the Leasing Activity Detail, so they are missing only when all three are.
    private static let groups: [(metric: MetricQuery.Metric, also: [String: [Metrics.Source]], figures: [String],
                                 clear: @Sendable (inout SummaryRow) -> Void)] = [
        (.delinquency, [:], ["delinquent", "net_delinquent"], { $0.delinquent = nil; $0.prepaid = nil }),
        (.funnel, [:], ["leads_30d"], { $0.leads30Days = nil }),
        (.funnel, ["realpage": [.rpxResidents]], ["leases_30d"], { $0.leases30Days = nil }),
        (.activity, [:], ["move_ins_mtd", "move_outs_mtd"], { $0.moveInsMonthToDate = nil; $0.moveOutsMonthToDate = nil }),
    ]

    /// Clears the figures whose sources are all `absent` and records why, one line per reason.
    mutating func leaveOut(_ absent: Metrics.AbsentSources) {
        var figures: [(reason: String, names: [String])] = []
        for group in Self.groups {
            let sources = (Metrics.metricSources[group.metric]?[absent.pms] ?? []) + (group.also[absent.pms] ?? [])
            guard let reason = absent.reason(sources, metric: group.metric.rawValue) else { continue }
            group.clear(&self)
            if let index = figures.firstIndex(where: { $0.reason == reason }) {
                figures[index].names += group.figures
            } else {
                figures.append((reason, group.figures))
            }
        }
        for (reason, names) in figures {
            missingFigures.append("\(property): \(names.listedInProse) left empty: \(reason)")
        }
    }
}

/// The summary query: per property its snapshot row, and its delinquency and recent activity summed on their keys
/// (correlated subqueries: each reads only that property's rows, so the portfolio costs linear in properties). The
/// night is the delinquency's (`SnapshotSQL.latestDelinquency`): a property synced with a ledger but without units
/// has a line, its unit figures NULL.
enum SummaryQuery {
    static let sql = """
        WITH \(SnapshotSQL.latestDelinquency),
        summary_window (property, position, as_of, funnel_from, month_from, window_end) AS (
            SELECT property, position, as_of,
                   date(coalesce(:as_of, as_of), '-29 days'), date(coalesce(:as_of, as_of), 'start of month'),
                   coalesce(:as_of, as_of)
            FROM snapshot WHERE as_of IS NOT NULL
        )
        SELECT w.property, p.name, p.pms_source, w.as_of, m.total_units, m.occupied_units, m.leased_units,
               m.exposure_30, m.exposure_60, m.vacant_ready, m.aged_vacant_90,
               dm.balance_0_30_cents + dm.balance_31_60_cents + dm.balance_61_90_cents + dm.balance_over_90_cents
                   AS delinquent_cents,
               dm.prepaid_cents AS prepaid_cents,
               (SELECT count(*) FROM unified_activity a
                 WHERE a.unified_property_id = w.property AND a.event_date BETWEEN w.funnel_from AND w.window_end
                   AND a.event_type = 'lead') AS leads,
               (SELECT count(*) FROM unified_activity a
                 WHERE a.unified_property_id = w.property AND a.event_date BETWEEN w.funnel_from AND w.window_end
                   AND a.event_type = 'lease_signed') AS leases,
               (SELECT count(*) FROM unified_activity a
                 WHERE a.unified_property_id = w.property AND a.event_date BETWEEN w.month_from AND w.window_end
                   AND a.event_type = 'move_in') AS move_ins,
               (SELECT count(*) FROM unified_activity a
                 WHERE a.unified_property_id = w.property AND a.event_date BETWEEN w.month_from AND w.window_end
                   AND a.event_type = 'move_out') AS move_outs
        FROM summary_window w
        JOIN unified_properties p ON p.unified_property_id = w.property
        LEFT JOIN unified_occupancy_metrics m ON m.unified_property_id = w.property AND m.as_of_date = w.as_of
        LEFT JOIN unified_delinquency_metrics dm ON dm.unified_property_id = w.property AND dm.as_of_date = w.as_of
        ORDER BY w.position
        """
}
