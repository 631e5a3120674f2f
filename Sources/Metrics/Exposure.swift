import OwnerDashCore
import SQLiteKit

/// Exposure now, in 30 and in 60 days, from the same `unified_occupancy_metrics` snapshots as occupancy.
///
/// Formulas (RealPage Net Exposure; docs/metrics.md, "Exposure"):
/// - exposure now = vacant not leased + on notice not leased (model and down units are not for rent: not exposure);
/// - exposure 30 / 60 = vacant not leased + on notice not leased whose move-out date is within 30 / 60 days of the
///   snapshot date;
/// - each % = exposure units ÷ total units × 100.
/// Roll-up: units summed, percentages recomputed from the sums.
public struct ExposureRow: MetricRow, Equatable {
    /// The registry key, or `portfolio` for a roll-up.
    public var property: String
    /// The snapshot date (a roll-up of several dates: nil).
    public var asOf: LocalDate?
    /// Properties summed (1 for a property's own row).
    public var properties: Int
    public var totalUnits: Int
    public var vacantNotLeased: Int
    public var noticeNotLeased: Int
    public var exposureNow: Int
    public var exposure30: Int
    public var exposure60: Int
    public var exposureNowPct: Double?
    public var exposure30Pct: Double?
    public var exposure60Pct: Double?

    public static let columns: [MetricResult.Column] = [
        .init("property", .text), .init("as_of", .date), .init("units", .count), .init("vacant_not_leased", .count),
        .init("notice_not_leased", .count), .init("exposure_now", .count), .init("exposure_now_pct", .percent),
        .init("exposure_30", .count), .init("exposure_30_pct", .percent), .init("exposure_60", .count),
        .init("exposure_60_pct", .percent),
    ]

    public var values: [SQLValue] {
        [.text(property), SQLValue(asOf), SQLValue(totalUnits), SQLValue(vacantNotLeased), SQLValue(noticeNotLeased),
         SQLValue(exposureNow), SQLValue(exposureNowPct), SQLValue(exposure30), SQLValue(exposure30Pct),
         SQLValue(exposure60), SQLValue(exposure60Pct)]
    }

    /// A row of these counts, percentages computed from them.
    init(property: String, asOf: LocalDate?, properties: Int, totalUnits: Int, vacantNotLeased: Int, noticeNotLeased: Int,
         exposureNow: Int, exposure30: Int, exposure60: Int) {
        self.property = property; self.asOf = asOf; self.properties = properties; self.totalUnits = totalUnits
        self.vacantNotLeased = vacantNotLeased; self.noticeNotLeased = noticeNotLeased
        self.exposureNow = exposureNow; self.exposure30 = exposure30; self.exposure60 = exposure60
        exposureNowPct = Ratio.percent(exposureNow, of: totalUnits)
        exposure30Pct = Ratio.percent(exposure30, of: totalUnits)
        exposure60Pct = Ratio.percent(exposure60, of: totalUnits)
    }

    /// The sum of `rows` under `label`, percentages recomputed from the summed units; nil for no rows.
    public static func rollUp(_ rows: [ExposureRow], label: String = "portfolio") -> ExposureRow? {
        guard !rows.isEmpty else { return nil }
        func sum(_ field: KeyPath<ExposureRow, Int>) -> Int { rows.reduce(0) { $0 + $1[keyPath: field] } }
        return ExposureRow(property: label, asOf: Set(rows.map(\.asOf)).count == 1 ? rows[0].asOf : nil,
                           properties: sum(\.properties), totalUnits: sum(\.totalUnits),
                           vacantNotLeased: sum(\.vacantNotLeased), noticeNotLeased: sum(\.noticeNotLeased),
                           exposureNow: sum(\.exposureNow), exposure30: sum(\.exposure30), exposure60: sum(\.exposure60))
    }

    /// One roll-up per snapshot date (a portfolio trend), oldest first.
    public static func rollUpByDate(_ rows: [ExposureRow], label: String = "portfolio") -> [ExposureRow] {
        Dictionary(grouping: rows, by: { $0.asOf?.iso ?? "" }).sorted { $0.key < $1.key }.compactMap { rollUp($0.value, label: label) }
    }
}

extension Metrics {
    /// Exposure of each property at its snapshot (latest on or before `asOf`), in the order of `properties`.
    public static func exposure(database: Database, properties: [String], asOf: LocalDate? = nil) throws -> [ExposureRow] {
        try database.rows(ExposureQuery.sql, OccupancyQuery.parameters(properties, asOf: asOf, trend: nil), ExposureQuery.decode)
    }

    /// The exposure series: every snapshot dated `from`...`to` (nil: open-ended), by property then date.
    public static func exposureTrend(database: Database, properties: [String], from: LocalDate?, to: LocalDate?) throws -> [ExposureRow] {
        try database.rows(ExposureQuery.sql, OccupancyQuery.parameters(properties, asOf: nil, trend: (from, to)), ExposureQuery.decode)
    }
}

/// The exposure query: one snapshot per property, or the series between two dates (bindings of `OccupancyQuery`).
enum ExposureQuery {
    static let sql = """
        WITH \(SnapshotSQL.latest),
        dates (property, position, as_of) AS (
            SELECT property, position, as_of FROM snapshot WHERE NOT :trend
            UNION ALL
            SELECT s.property, s.position, m.as_of_date
            FROM selected s
            JOIN unified_occupancy_metrics m
              ON m.unified_property_id = s.property AND m.as_of_date BETWEEN :trend_from AND :trend_to
            WHERE :trend
        )
        SELECT d.property, d.as_of, m.total_units, m.vacant_not_leased, m.notice_not_leased,
               m.exposure_now, m.exposure_30, m.exposure_60
        FROM dates d
        JOIN unified_occupancy_metrics m ON m.unified_property_id = d.property AND m.as_of_date = d.as_of
        ORDER BY d.position, d.as_of
        """

    static func decode(_ row: SQLRow) -> ExposureRow {
        ExposureRow(property: row.text("property") ?? "", asOf: row.date("as_of"), properties: 1,
                    totalUnits: row.count("total_units"), vacantNotLeased: row.count("vacant_not_leased"),
                    noticeNotLeased: row.count("notice_not_leased"), exposureNow: row.count("exposure_now"),
                    exposure30: row.count("exposure_30"), exposure60: row.count("exposure_60"))
    }
}
