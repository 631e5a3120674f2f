import OwnerDashCore
import SQLiteKit

/// Trade-out: what the leases that started in a period pay compared with the lease before them, from
/// `unified_leases` (the floorplan from `unified_units`).
///
/// Formulas (RealPage Analytics; docs/metrics.md, "Trade-out"):
/// - the prior lease of a lease is `prior_lease_id` when sync knows it; otherwise, for a new lease, the unit's
///   previous lease by start date (the previous occupant), and for a renewal the same resident's previous lease of
///   the unit; a lease whose prior rent is unknown (or zero) is left out;
/// - new-lease trade-out % = Σ (new rent − prior occupant's rent) ÷ Σ prior rent × 100 over new leases
///   (`is_renewal` = 0); renewal trade-out % the same over renewals; blended (`all`) over both;
/// - avg change = Σ (new rent − prior rent) ÷ leases.
/// The period is the leases' start dates `from`...`to`, by default the 90 days ending at the as-of date (else the
/// property's snapshot date).
public struct TradeOutRow: MetricRow, Equatable {
    /// `new`, `renewal` or `all` (blended).
    public var kind: String
    public var sums: TradeOutSums

    public static let columns: [MetricResult.Column] = [
        .init("kind", .text), .init("leases", .count), .init("avg_prior_rent", .money), .init("avg_new_rent", .money),
        .init("avg_change", .money), .init("trade_out_pct", .percent),
    ]

    public var values: [SQLValue] {
        [.text(kind), SQLValue(sums.leases), SQLValue(Ratio.average(sums.priorRent, count: sums.leases)),
         SQLValue(Ratio.average(sums.newRent, count: sums.leases)),
         SQLValue(Ratio.average(sums.newRent - sums.priorRent, count: sums.leases)), SQLValue(sums.changePct)]
    }

    /// New leases, renewals and all, summed over every group (always three rows, zero leases when none).
    static func byKind(_ groups: [TradeOutGroup]) -> [TradeOutRow] {
        func sum(_ filter: (TradeOutGroup) -> Bool) -> TradeOutSums { groups.filter(filter).reduce(TradeOutSums()) { $0 + $1.sums } }
        return [TradeOutRow(kind: "new", sums: sum { !$0.isRenewal }),
                TradeOutRow(kind: "renewal", sums: sum { $0.isRenewal }),
                TradeOutRow(kind: "all", sums: sum { _ in true })]
    }
}

/// Leases with a known prior rent, and their new and prior rents summed (exact cents).
public struct TradeOutSums: Sendable, Equatable {
    public var leases = 0
    public var priorRent = Money.zero
    public var newRent = Money.zero

    /// No leases.
    public init() {}
    /// These sums.
    public init(leases: Int, priorRent: Money, newRent: Money) {
        self.leases = leases; self.priorRent = priorRent; self.newRent = newRent
    }

    /// Σ (new − prior) ÷ Σ prior × 100; nil without leases.
    public var changePct: Double? { Ratio.percent((newRent - priorRent).cents, of: priorRent.cents) }

    /// Both sums together.
    public static func + (lhs: TradeOutSums, rhs: TradeOutSums) -> TradeOutSums {
        TradeOutSums(leases: lhs.leases + rhs.leases, priorRent: lhs.priorRent + rhs.priorRent, newRent: lhs.newRent + rhs.newRent)
    }

    /// Adds another group's sums.
    public static func += (lhs: inout TradeOutSums, rhs: TradeOutSums) { lhs = lhs + rhs }
}

/// The trade-out sums of one (property, floorplan, new or renewal) over its period.
struct TradeOutGroup {
    var property: String
    var floorplan: String
    var isRenewal: Bool
    var window: Period
    var sums: TradeOutSums
}

extension Metrics {
    /// Trade-out sums by property, floorplan and lease kind for the leases starting in each property's period.
    static func tradeOutGroups(database: Database, properties: [String], asOf: LocalDate?,
                               from: LocalDate?, to: LocalDate?) throws -> [TradeOutGroup] {
        var parameters = SnapshotSQL.parameters(properties, asOf: asOf)
        parameters[":as_of"] = SQLValue(asOf)
        parameters[":from"] = SQLValue(from)
        parameters[":to"] = SQLValue(to)
        return try database.rows(TradeOutQuery.sql, parameters) { row in
            TradeOutGroup(property: row.text("property") ?? "", floorplan: row.text("floorplan") ?? "",
                          isRenewal: row.count("is_renewal") == 1,
                          window: Period(from: row.date("window_from") ?? .init(daysSinceEpoch: 0),
                                         to: row.date("window_to") ?? .init(daysSinceEpoch: 0)),
                          sums: TradeOutSums(leases: row.count("leases"), priorRent: row.cents("prior_cents") ?? .zero,
                                             newRent: row.cents("new_cents") ?? .zero))
        }
    }
}

/// The trade-out query: leases starting in each property's period, with their prior lease's rent.
enum TradeOutQuery {
    static let sql = """
        WITH \(SnapshotSQL.latest),
        period (property, window_from, window_to) AS (
            SELECT property,
                   coalesce(:from, date(coalesce(:to, :as_of, as_of), '-89 days')),
                   coalesce(:to, :as_of, as_of)
            FROM snapshot
        ),
        lease (property, window_from, window_to, floorplan, is_renewal, new_cents, prior_cents) AS (
            SELECT p.property, p.window_from, p.window_to, coalesce(u.floorplan, ''), l.is_renewal,
                   CAST(round(l.rent_amount * 100) AS INTEGER),
                   coalesce(
                       (SELECT CAST(round(prior.rent_amount * 100) AS INTEGER) FROM unified_leases prior
                         WHERE prior.unified_property_id = l.unified_property_id AND prior.lease_id = l.prior_lease_id),
                       (SELECT CAST(round(prior.rent_amount * 100) AS INTEGER) FROM unified_leases prior
                         WHERE prior.unified_property_id = l.unified_property_id AND prior.unit_number = l.unit_number
                           AND prior.start_date < l.start_date AND prior.lease_id <> l.lease_id
                           AND (l.is_renewal = 0 OR prior.resident_id = l.resident_id)
                         ORDER BY prior.start_date DESC LIMIT 1))
            FROM period p
            JOIN unified_leases l
              ON l.unified_property_id = p.property AND l.start_date BETWEEN p.window_from AND p.window_to
            LEFT JOIN unified_units u ON u.unified_property_id = l.unified_property_id AND u.unit_number = l.unit_number
            WHERE l.rent_amount > 0
        )
        SELECT property, floorplan, is_renewal, min(window_from) AS window_from, max(window_to) AS window_to,
               count(*) AS leases, sum(prior_cents) AS prior_cents, sum(new_cents) AS new_cents
        FROM lease
        WHERE prior_cents > 0
        GROUP BY property, floorplan, is_renewal
        """
}
