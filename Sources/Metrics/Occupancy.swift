import OwnerDashCore
import SQLiteKit

/// Occupancy of each property at its snapshot (or every snapshot of a trend), from `unified_occupancy_metrics`.
///
/// Formulas (computed by sync from the unit statuses; docs/metrics.md, "Occupancy" ... "Vacant ready and aged
/// vacancy"; RealPage Box Score):
/// - occupancy % = occupied units ÷ total units × 100 (model and down units count as vacant, as Box Score does);
/// - leased % (RealPage Net Leased) = (vacant leased + occupied without notice + on notice pre-leased) ÷ total units × 100;
/// - vacant ready / not ready = rentable vacant units (vacant, vacant leased) with / without a make-ready;
/// - aged vacant = rentable vacant units vacant more than 90 days; vacancy cost = Σ market rent ÷ 30.42 × days vacant;
/// - on notice = occupied units with a notice to vacate; pre-leased = vacant leased + on notice leased.
/// Roll-up: every count and the vacancy cost are summed; occupancy % and leased % are recomputed from the sums.
public struct OccupancyRow: MetricRow, Equatable {
    /// The registry key, or `portfolio` for a roll-up.
    public var property: String
    /// The snapshot date (a roll-up of several dates: nil).
    public var asOf: LocalDate?
    /// Properties summed (1 for a property's own row).
    public var properties: Int
    public var totalUnits: Int
    public var occupied: Int
    public var leased: Int
    public var vacant: Int
    public var vacantLeased: Int
    public var vacantNotLeased: Int
    public var vacantReady: Int
    public var vacantNotReady: Int
    public var agedVacant90: Int
    /// Market rent ÷ 30.42 × days vacant, over the aged vacant units.
    public var agedVacancyCost: Money
    public var onNotice: Int
    public var noticeLeased: Int
    public var preLeased: Int
    public var model: Int
    public var down: Int
    /// Occupied ÷ total units, percent.
    public var occupancyPct: Double?
    /// RealPage Net Leased ÷ total units, percent.
    public var leasedPct: Double?

    public static let columns: [MetricResult.Column] = [
        .init("property", .text), .init("as_of", .date), .init("units", .count), .init("occupied", .count),
        .init("occupancy_pct", .percent), .init("leased", .count), .init("leased_pct", .percent),
        .init("vacant", .count), .init("vacant_leased", .count), .init("vacant_ready", .count),
        .init("vacant_not_ready", .count), .init("aged_vacant_90", .count), .init("aged_vacancy_cost", .money),
        .init("on_notice", .count), .init("notice_leased", .count), .init("pre_leased", .count),
        .init("model", .count), .init("down", .count),
    ]

    public var values: [SQLValue] {
        [.text(property), SQLValue(asOf), SQLValue(totalUnits), SQLValue(occupied), SQLValue(occupancyPct),
         SQLValue(leased), SQLValue(leasedPct), SQLValue(vacant), SQLValue(vacantLeased), SQLValue(vacantReady),
         SQLValue(vacantNotReady), SQLValue(agedVacant90), SQLValue(agedVacancyCost), SQLValue(onNotice),
         SQLValue(noticeLeased), SQLValue(preLeased), SQLValue(model), SQLValue(down)]
    }

    /// The sum of `rows` under `label`, percentages recomputed from the summed counts; nil for no rows.
    public static func rollUp(_ rows: [OccupancyRow], label: String = "portfolio") -> OccupancyRow? {
        guard !rows.isEmpty else { return nil }
        func sum(_ field: KeyPath<OccupancyRow, Int>) -> Int { rows.reduce(0) { $0 + $1[keyPath: field] } }
        let dates = Set(rows.map(\.asOf))
        return OccupancyRow(
            property: label, asOf: dates.count == 1 ? rows[0].asOf : nil, properties: sum(\.properties),
            totalUnits: sum(\.totalUnits), occupied: sum(\.occupied), leased: sum(\.leased), vacant: sum(\.vacant),
            vacantLeased: sum(\.vacantLeased), vacantNotLeased: sum(\.vacantNotLeased), vacantReady: sum(\.vacantReady),
            vacantNotReady: sum(\.vacantNotReady), agedVacant90: sum(\.agedVacant90),
            agedVacancyCost: rows.reduce(Money.zero) { $0 + $1.agedVacancyCost }, onNotice: sum(\.onNotice),
            noticeLeased: sum(\.noticeLeased), preLeased: sum(\.preLeased), model: sum(\.model), down: sum(\.down),
            occupancyPct: Ratio.percent(sum(\.occupied), of: sum(\.totalUnits)),
            leasedPct: Ratio.percent(sum(\.leased), of: sum(\.totalUnits)))
    }

    /// One roll-up per snapshot date (a portfolio trend), oldest first; `properties` says how many were summed.
    public static func rollUpByDate(_ rows: [OccupancyRow], label: String = "portfolio") -> [OccupancyRow] {
        Dictionary(grouping: rows, by: { $0.asOf?.iso ?? "" }).sorted { $0.key < $1.key }.compactMap { rollUp($0.value, label: label) }
    }
}

extension Metrics {
    /// Occupancy of each property at its snapshot (latest on or before `asOf`), in the order of `properties`.
    public static func occupancy(database: Database, properties: [String], asOf: LocalDate? = nil) throws -> [OccupancyRow] {
        try database.rows(OccupancyQuery.sql, OccupancyQuery.parameters(properties, asOf: asOf, trend: nil),
                          OccupancyQuery.decode)
    }

    /// The occupancy series: every snapshot of each property dated `from`...`to` (nil: open-ended), by property
    /// in the order of `properties`, then by date.
    public static func occupancyTrend(database: Database, properties: [String], from: LocalDate?, to: LocalDate?) throws -> [OccupancyRow] {
        try database.rows(OccupancyQuery.sql, OccupancyQuery.parameters(properties, asOf: nil, trend: (from, to)),
                          OccupancyQuery.decode)
    }

    /// The backfilled month ends (`ownerdash backfill`: occupancy rebuilt from resident history) of each property
    /// dated before its first synced snapshot and on or before `to` (nil: open-ended), by property then date.
    /// Physical occupancy and leased % only: the history tells nothing of make-ready or aging.
    public static func backfilledOccupancy(database: Database, properties: [String],
                                           to: LocalDate?) throws -> [BackfilledOccupancy] {
        return try database.rows("""
            SELECT h.unified_property_id, h.as_of_date, h.physical_occupancy, h.leased_pct
            FROM unified_occupancy_history h
            WHERE h.unified_property_id IN (SELECT value FROM json_each(:properties)) AND h.as_of_date <= :to
              AND h.as_of_date < coalesce((SELECT min(m.as_of_date) FROM unified_occupancy_metrics m
                                           WHERE m.unified_property_id = h.unified_property_id), '9999-12-31')
            ORDER BY h.unified_property_id, h.as_of_date
            """, [":properties": .jsonArray(properties), ":to": .text(to?.iso ?? "9999-12-31")]) { row -> BackfilledOccupancy? in
            guard let property = row.text("unified_property_id"), let date = row.date("as_of_date"),
                  let occupancy = row.double("physical_occupancy"), let leased = row.double("leased_pct") else { return nil }
            return BackfilledOccupancy(property: property, asOf: date, occupancyPct: occupancy, leasedPct: leased)
        }.compactMap { $0 }
    }
}

/// One backfilled month end of the occupancy trend (unified_occupancy_history).
public struct BackfilledOccupancy: Sendable, Equatable {
    public var property: String
    public var asOf: LocalDate
    public var occupancyPct: Double
    public var leasedPct: Double
}

/// The occupancy query: one snapshot per property, or the series between two dates.
enum OccupancyQuery {
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
        SELECT d.property, d.as_of, m.total_units, m.occupied_units, m.leased_units, m.vacant_units, m.vacant_leased,
               m.vacant_not_leased, m.vacant_ready, m.vacant_not_ready, m.aged_vacant_90,
               CAST(round(m.aged_vacancy_cost * 100) AS INTEGER) AS aged_vacancy_cost_cents,
               m.on_notice, m.notice_leased, m.pre_leased, m.model_units, m.down_units
        FROM dates d
        JOIN unified_occupancy_metrics m ON m.unified_property_id = d.property AND m.as_of_date = d.as_of
        ORDER BY d.position, d.as_of
        """

    /// `trend` nil: one snapshot per property (as-of rule); else every snapshot from...to (nil ends: open).
    static func parameters(_ properties: [String], asOf: LocalDate?, trend: (from: LocalDate?, to: LocalDate?)?) -> [String: SQLValue] {
        SnapshotSQL.parameters(properties, asOf: asOf).merging([
            ":trend": .integer(trend == nil ? 0 : 1),
            ":trend_from": .text(trend?.from?.iso ?? "0000-01-01"), ":trend_to": .text(trend?.to?.iso ?? "9999-12-31"),
        ]) { $1 }
    }

    static func decode(_ row: SQLRow) -> OccupancyRow {
        let total = row.count("total_units"), occupied = row.count("occupied_units"), leased = row.count("leased_units")
        return OccupancyRow(
            property: row.text("property") ?? "", asOf: row.date("as_of"), properties: 1, totalUnits: total,
            occupied: occupied, leased: leased, vacant: row.count("vacant_units"), vacantLeased: row.count("vacant_leased"),
            vacantNotLeased: row.count("vacant_not_leased"), vacantReady: row.count("vacant_ready"),
            vacantNotReady: row.count("vacant_not_ready"), agedVacant90: row.count("aged_vacant_90"),
            agedVacancyCost: row.cents("aged_vacancy_cost_cents") ?? .zero, onNotice: row.count("on_notice"),
            noticeLeased: row.count("notice_leased"), preLeased: row.count("pre_leased"), model: row.count("model_units"),
            down: row.count("down_units"),
            // Recomputed from the counts, exactly as a roll-up is, so a one-property roll-up equals the property.
            occupancyPct: Ratio.percent(occupied, of: total), leasedPct: Ratio.percent(leased, of: total))
    }
}
