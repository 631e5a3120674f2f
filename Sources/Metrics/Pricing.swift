import OwnerDashCore
import SQLiteKit

/// Pricing by floorplan at each property's snapshot, from `unified_pricing_metrics`, with the floorplan's trade-out
/// (see `TradeOutQuery`).
///
/// Formulas (computed by sync from the units at the snapshot date):
/// - asking rent = mean market rent of the floorplan's units; in-place rent = mean lease rent of its occupied units;
/// - avg sq ft over all its units; rent per sq ft = rent ÷ avg sq ft;
/// - loss-to-lease = Σ (market rent − in-place rent) over occupied units, dollars per month (positive is a loss);
/// - trade-out % = Σ (new rent − prior rent) ÷ Σ prior rent × 100 over the leases of the period with a known prior
///   rent (new leases and renewals together: blended).
/// Roll-up: units, occupied units, loss-to-lease and trade-out sums are summed; avg sq ft and asking rent are
/// weighted by units, in-place rent by occupied units; per sq ft recomputed from those.
public struct PricingRow: MetricRow, Equatable {
    /// The registry key, or `portfolio` for a roll-up of several properties.
    public var property: String
    /// The snapshot date (a roll-up of several dates: nil).
    public var asOf: LocalDate?
    /// The floorplan code, or `all` for a roll-up.
    public var floorplan: String
    public var floorplanName: String?
    public var bedrooms: Int?
    public var units: Int
    public var occupied: Int
    public var avgSqft: Double?
    public var inPlaceRent: Money?
    public var inPlacePsf: Double?
    public var askingRent: Money?
    public var askingPsf: Double?
    /// Market minus in-place over occupied units, dollars per month.
    public var lossToLease: Money?
    /// The period's leases of this floorplan with a known prior rent, and their rents summed.
    public var tradeOut: TradeOutSums

    public static let columns: [MetricResult.Column] = [
        .init("property", .text), .init("as_of", .date), .init("floorplan", .text), .init("bedrooms", .count),
        .init("units", .count), .init("occupied", .count), .init("avg_sqft", .decimal(0)),
        .init("in_place_rent", .money), .init("in_place_psf", .decimal(2)), .init("asking_rent", .money),
        .init("asking_psf", .decimal(2)), .init("loss_to_lease", .money), .init("trade_out_leases", .count),
        .init("trade_out_pct", .percent),
    ]

    public var values: [SQLValue] {
        [.text(property), SQLValue(asOf), .text(floorplan), SQLValue(bedrooms), SQLValue(units), SQLValue(occupied),
         SQLValue(avgSqft), SQLValue(inPlaceRent), SQLValue(inPlacePsf), SQLValue(askingRent), SQLValue(askingPsf),
         SQLValue(lossToLease), SQLValue(tradeOut.leases), SQLValue(tradeOut.changePct)]
    }

    /// All floorplans of `rows` as one line (floorplan `all`), weighted as the type's doc says; nil for no rows.
    public static func rollUp(_ rows: [PricingRow], label: String? = nil) -> PricingRow? {
        guard let first = rows.first else { return nil }
        let units = rows.reduce(0) { $0 + $1.units }, occupied = rows.reduce(0) { $0 + $1.occupied }
        // Weighted means of the stored per-floorplan means: exact up to their rounding to the cent / 0.01 sq ft.
        let sizedUnits = rows.filter { $0.avgSqft != nil }.reduce(0) { $0 + $1.units }
        let sqftTotal = rows.reduce(0.0) { $0 + ($1.avgSqft ?? 0) * Double($1.units) }
        let avgSqft = sizedUnits > 0 ? Ratio.rounded(sqftTotal / Double(sizedUnits), places: 2) : nil
        let askingUnits = rows.filter { $0.askingRent != nil }.reduce(0) { $0 + $1.units }
        let askingTotal = rows.reduce(Int64(0)) { $0 + ($1.askingRent?.cents ?? 0) * Int64($1.units) }
        let inPlaceUnits = rows.filter { $0.inPlaceRent != nil }.reduce(0) { $0 + $1.occupied }
        let inPlaceTotal = rows.reduce(Int64(0)) { $0 + ($1.inPlaceRent?.cents ?? 0) * Int64($1.occupied) }
        let asking = Ratio.divide(askingTotal, by: Int64(askingUnits)).map { Money(cents: $0) }
        let inPlace = Ratio.divide(inPlaceTotal, by: Int64(inPlaceUnits)).map { Money(cents: $0) }
        let losses = rows.compactMap(\.lossToLease)
        let property = label ?? (Set(rows.map(\.property)).count == 1 ? first.property : "portfolio")
        return PricingRow(
            property: property, asOf: Set(rows.map(\.asOf)).count == 1 ? first.asOf : nil, floorplan: "all",
            floorplanName: nil, bedrooms: nil, units: units, occupied: occupied, avgSqft: avgSqft,
            inPlaceRent: inPlace, inPlacePsf: PricingRow.perSquareFoot(inPlace, avgSqft),
            askingRent: asking, askingPsf: PricingRow.perSquareFoot(asking, avgSqft),
            lossToLease: losses.isEmpty ? nil : losses.reduce(.zero, +),
            tradeOut: rows.reduce(TradeOutSums()) { $0 + $1.tradeOut })
    }

    /// Rent ÷ sq ft to 4 decimals, as sync stores it.
    static func perSquareFoot(_ rent: Money?, _ sqft: Double?) -> Double? {
        guard let rent, let sqft, sqft > 0 else { return nil }
        return Ratio.rounded(rent.dollars / sqft, places: 4)
    }
}

/// Pricing by floorplan with the period's trade-out.
public struct PricingReport: Sendable, Equatable {
    /// One row per (property, floorplan), properties in the order asked, floorplans by bedrooms then code.
    public var floorplans: [PricingRow]
    /// New leases, renewals and both (blended), over every property asked.
    public var tradeOut: [TradeOutRow]
    /// The lease-start period the trade-out covers (the widest one when properties' snapshot dates differ).
    public var tradeOutPeriod: Period?
}

extension Metrics {
    /// Pricing by floorplan at each property's snapshot (latest on or before `asOf`), with trade-out over the
    /// leases starting `from`...`to` (default: the 90 days ending at `asOf`, else at the snapshot date).
    public static func pricing(database: Database, properties: [String], asOf: LocalDate? = nil,
                               from: LocalDate? = nil, to: LocalDate? = nil) throws -> PricingReport {
        let groups = try tradeOutGroups(database: database, properties: properties, asOf: asOf, from: from, to: to)
        var byFloorplan: [String: TradeOutSums] = [:]
        for group in groups { byFloorplan[group.property + "\u{0}" + group.floorplan, default: TradeOutSums()] += group.sums }
        let rows = try database.rows(PricingQuery.sql, SnapshotSQL.parameters(properties, asOf: asOf)) { row in
            var pricing = PricingQuery.decode(row)
            pricing.tradeOut = byFloorplan[pricing.property + "\u{0}" + pricing.floorplan] ?? TradeOutSums()
            return pricing
        }
        return PricingReport(floorplans: rows, tradeOut: TradeOutRow.byKind(groups), tradeOutPeriod: Period(spanning: groups.map(\.window)))
    }
}

/// The pricing query: the floorplans of each property's snapshot.
enum PricingQuery {
    static let sql = """
        WITH \(SnapshotSQL.latest)
        SELECT s.property, s.as_of, p.floorplan, p.floorplan_name, p.bedrooms, p.units, p.occupied_units, p.avg_sqft,
               CAST(round(p.in_place_rent * 100) AS INTEGER) AS in_place_cents, p.in_place_psf,
               CAST(round(p.asking_rent * 100) AS INTEGER) AS asking_cents, p.asking_psf,
               CAST(round(p.loss_to_lease * 100) AS INTEGER) AS loss_to_lease_cents
        FROM snapshot s
        JOIN unified_pricing_metrics p ON p.unified_property_id = s.property AND p.as_of_date = s.as_of
        ORDER BY s.position, p.bedrooms IS NULL, p.bedrooms, p.floorplan
        """

    static func decode(_ row: SQLRow) -> PricingRow {
        PricingRow(property: row.text("property") ?? "", asOf: row.date("as_of"), floorplan: row.text("floorplan") ?? "",
                   floorplanName: row.text("floorplan_name"), bedrooms: row.int("bedrooms"), units: row.count("units"),
                   occupied: row.count("occupied_units"), avgSqft: row.double("avg_sqft"),
                   inPlaceRent: row.cents("in_place_cents"), inPlacePsf: row.double("in_place_psf"),
                   askingRent: row.cents("asking_cents"), askingPsf: row.double("asking_psf"),
                   lossToLease: row.cents("loss_to_lease_cents"), tradeOut: TradeOutSums())
    }
}
