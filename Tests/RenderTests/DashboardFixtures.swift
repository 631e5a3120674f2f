import Foundation
import OwnerDashCore
import Testing
import XMLKit
@testable import Render

/// A small fixed portfolio for the dashboard tests: a full RealPage property, a Yardi property with a hostile
/// name and one snapshot, and a property that was never synced.
enum DashboardFixtures {
    static func date(_ iso: String) -> LocalDate {
        guard let date = LocalDate(iso: iso) else { fatalError("bad test date \(iso)") }
        return date
    }

    static let hostileName = "Harbor <script>alert(\"x\")</script> & Sons"

    static let nexus = PropertyDashboard(
        key: "nexus_east", name: "Nexus East", pms: "realpage",
        summary: PropertySummary(units: 300, occupancyPct: 94.33, leasedPct: 96.0, exposure30Pct: 4.67,
                                 exposure60Pct: 6.33, delinquent: Money(cents: 1_842_050), netDelinquent: Money(cents: 1_611_025),
                                 leads: 48, leases: 9),
        trend: [
            OccupancyPoint(date: date("2026-08-20"), occupancyPct: 92.0, leasedPct: 94.67),
            OccupancyPoint(date: date("2026-09-20"), occupancyPct: 93.33, leasedPct: 95.0),
            OccupancyPoint(date: date("2026-10-20"), occupancyPct: 93.67, leasedPct: 95.33),
            // A missed month: the last point is twice as far from its neighbour as the others.
            OccupancyPoint(date: date("2026-12-20"), occupancyPct: 94.33, leasedPct: 96.0),
        ],
        aging: DelinquencyAging(balance0to30: Money(cents: 1_200_000), balance31to60: Money(cents: 400_000),
                                balance61to90: Money(cents: 142_050), balanceOver90: Money(cents: 100_000),
                                prepaid: Money(cents: 231_025), net: Money(cents: 1_611_025)),
        funnel: LeasingFunnel(leads: 48, tours: 24, applications: 12, leases: 9, leadToTour: 50.0,
                              tourToApplication: 50.0, applicationToLease: 75.0, leadToLease: 18.75),
        pricing: [
            FloorplanPricing(floorplan: "A1", floorplanName: "One Bedroom", units: 120, avgSqft: 650,
                             inPlaceRent: Money(cents: 145_000), inPlacePsf: 2.23, askingRent: Money(cents: 152_500),
                             askingPsf: 2.35, lossToLease: Money(cents: 850_000), tradeOutPct: 2.46, tradeOutLeases: 4),
            FloorplanPricing(floorplan: "B2", units: 180, avgSqft: 1_050, inPlaceRent: Money(cents: 198_050),
                             inPlacePsf: 1.89, askingRent: Money(cents: 205_000), askingPsf: 1.95,
                             lossToLease: Money(cents: 1_200_000), tradeOutPct: -1.04, tradeOutLeases: 2),
        ],
        pricingTotal: FloorplanPricing(floorplan: "all", units: 300, avgSqft: 890, inPlaceRent: Money(cents: 176_830),
                                       inPlacePsf: 1.99, askingRent: Money(cents: 184_000), askingPsf: 2.07,
                                       lossToLease: Money(cents: 2_050_000), tradeOutPct: 1.3, tradeOutLeases: 6))

    static let harbor = PropertyDashboard(
        key: "harbor_sons", name: hostileName, pms: "yardi",
        summary: PropertySummary(units: 120, occupancyPct: 90.0, leasedPct: 91.67, exposure30Pct: 9.17,
                                 exposure60Pct: 10.0, delinquent: Money(cents: 250_000), netDelinquent: Money(cents: 250_000),
                                 leads: 0, leases: 0),
        trend: [OccupancyPoint(date: date("2026-12-20"), occupancyPct: 90.0, leasedPct: 91.67)],
        aging: DelinquencyAging(balance0to30: Money(cents: 250_000), balance31to60: .zero, balance61to90: .zero,
                                balanceOver90: .zero, prepaid: .zero, net: Money(cents: 250_000)),
        funnel: LeasingFunnel(leads: 0, tours: 0, applications: 0, leases: 0, leadToTour: nil,
                              tourToApplication: nil, applicationToLease: nil, leadToLease: nil),
        pricing: [
            FloorplanPricing(floorplan: "2BR <b>", units: 120, avgSqft: 900, inPlaceRent: Money(cents: 160_000),
                             inPlacePsf: 1.78, askingRent: nil, askingPsf: nil, lossToLease: nil),
        ])

    /// Synced, but without delinquency, leasing activity or pricing.
    static let stoneRow = PropertyDashboard(
        key: "stone_row", name: "Stone Row", pms: "realpage", asOf: date("2026-12-20"),
        summary: PropertySummary(units: 0, occupancyPct: nil, leasedPct: nil),
        trend: [OccupancyPoint(date: date("2026-12-20"), occupancyPct: 88.5, leasedPct: 90.0)])

    static let quarry = PropertyDashboard(key: "quarry_flats", name: "Quarry Flats", pms: "realpage",
                                          summary: PropertySummary())

    static let dashboard = Dashboard(
        portfolioName: "Kairoi & Co", asOf: date("2026-12-20"), generatedAt: "2026-12-21 04:05 UTC",
        funnelWindow: DateRange(from: date("2026-11-21"), to: date("2026-12-20")),
        properties: [nexus, harbor, stoneRow, quarry],
        portfolio: PropertySummary(units: 420, occupancyPct: 93.1, leasedPct: 94.76, exposure30Pct: 5.96,
                                   exposure60Pct: 7.38, delinquent: Money(cents: 2_092_050),
                                   netDelinquent: Money(cents: 1_861_025), leads: 48, leases: 9),
        tradeOutWindow: DateRange(from: date("2026-09-22"), to: date("2026-12-20")))

    /// The page parsed as XML: stricter than an HTML parser, so an unescaped `<` or `&` fails here.
    static func parse(_ html: String) throws -> XMLElement {
        let document = try XMLDocument(bytes: Array(html.utf8))
        guard let root = document.root else { throw XMLError(message: "no root element") }
        return root
    }
}

extension XMLElement {
    /// Descendants with this name whose `class` attribute lists `className`.
    func descendants(named name: String, classed className: String) -> [XMLElement] {
        descendants(named: name).filter { ($0.attribute("class") ?? "").split(separator: " ").contains(Substring(className)) }
    }

    /// The first descendant with this `id`.
    func element(id: String) -> XMLElement? {
        if attribute("id") == id { return self }
        for child in children {
            if let found = child.element(id: id) { return found }
        }
        return nil
    }

    /// A numeric attribute.
    func number(_ name: String) -> Double? {
        attribute(name).flatMap(Double.init)
    }
}
