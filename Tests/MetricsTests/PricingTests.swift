import OwnerDashCore
import SQLiteKit
@testable import Metrics
import Testing

/// Pricing by floorplan, its all-floorplan line, and trade-out over the leases that started in the period.
@Suite struct PricingTests {
    /// alpha at 2026-11-20: A1 (1 bedroom) 10 units, 8 occupied, 700 sq ft, asking $1,000, in place $950, loss $400;
    /// B2 (2 bedrooms) 30 units, 20 occupied, 1,000 sq ft, asking $2,000, in place $1,900, loss $2,000.
    /// An older snapshot (2026-10-01) that must not be read.
    ///
    /// Leases (the period is the 90 days ending 2026-11-20: 2026-08-23 ... 2026-11-20):
    /// - 101 (A1): L1 resident r1 $900 (2025-09-01), then L2 new lease r2 $990 starting 2026-10-01: new, prior $900;
    /// - 102 (A1): L3 r3 $1,000, renewed by L4 (prior_lease_id L3) $1,030 from 2026-11-01: renewal, prior $1,000;
    /// - 201 (B2): L5 r5 $2,000, renewed by L6 $2,100 from 2026-09-01 without prior_lease_id: the same resident's
    ///   previous lease of the unit, prior $2,000;
    /// - 202 (B2): L7 new lease, nothing before it on the unit: prior unknown, left out;
    /// - 203 (B2): L9 renewal by r9 whose only earlier lease on the unit is another resident's (L8): left out;
    /// - 104 (A1): L10 a new lease starting 2026-05-01 after L0 ($800): before the period, left out.
    /// new: 1 lease, $900 -> $990, +$90, +10%; renewal: 2 leases, $3,000 -> $3,130, +$65 avg, 130/3000 = +4.33%;
    /// all: 3 leases, $3,900 -> $4,120, avg prior $1,300, avg new $1,373.33, avg change $73.33, 220/3900 = +5.64%.
    /// A1: L2 + L4, 1,900 -> 2,020, 120/1900 = +6.32%; B2: L6, +5%.
    static func fixture() throws -> UnifiedFixture {
        let fixture = try UnifiedFixture()
        try fixture.property("alpha")
        try fixture.occupancy("alpha", "2026-10-01", total: 40, occupied: 20, leased: 20)
        try fixture.occupancy("alpha", "2026-11-20", total: 40, occupied: 28, leased: 28)
        try fixture.pricing("alpha", "2026-10-01", floorplan: "A1", bedrooms: 1, units: 10, occupied: 5, sqft: 700,
                            inPlace: 1, asking: 1, lossToLease: 0)
        try fixture.pricing("alpha", "2026-11-20", floorplan: "B2", bedrooms: 2, units: 30, occupied: 20, sqft: 1000,
                            inPlace: 1900, asking: 2000, lossToLease: 2000)
        try fixture.pricing("alpha", "2026-11-20", floorplan: "A1", bedrooms: 1, units: 10, occupied: 8, sqft: 700,
                            inPlace: 950, asking: 1000, lossToLease: 400)
        for (unit, floorplan) in [("101", "A1"), ("102", "A1"), ("104", "A1"), ("201", "B2"), ("202", "B2"), ("203", "B2")] {
            try fixture.unit("alpha", unit, floorplan: floorplan)
        }
        try fixture.lease("alpha", "L1", unit: "101", resident: "r1", start: "2025-09-01", end: "2026-08-31", rent: 900, status: "past")
        try fixture.lease("alpha", "L0", unit: "104", resident: "r0", start: "2025-05-01", end: "2026-04-30", rent: 800, status: "past")
        try fixture.lease("alpha", "L10", unit: "104", resident: "r10", start: "2026-05-01", end: "2027-04-30", rent: 5000)
        try fixture.lease("alpha", "L2", unit: "101", resident: "r2", start: "2026-10-01", end: "2027-09-30", rent: 990)
        try fixture.lease("alpha", "L3", unit: "102", resident: "r3", start: "2025-11-01", end: "2026-10-31", rent: 1000, status: "past")
        try fixture.lease("alpha", "L4", unit: "102", resident: "r3", start: "2026-11-01", end: "2027-10-31", rent: 1030,
                          renewal: true, prior: "L3")
        try fixture.lease("alpha", "L5", unit: "201", resident: "r5", start: "2025-09-01", end: "2026-08-31", rent: 2000, status: "past")
        try fixture.lease("alpha", "L6", unit: "201", resident: "r5", start: "2026-09-01", end: "2027-08-31", rent: 2100, renewal: true)
        try fixture.lease("alpha", "L7", unit: "202", resident: "r7", start: "2026-10-15", end: "2027-10-14", rent: 1950)
        try fixture.lease("alpha", "L8", unit: "203", resident: "r8", start: "2024-01-01", end: "2024-12-31", rent: 1500, status: "past")
        try fixture.lease("alpha", "L9", unit: "203", resident: "r9", start: "2026-10-01", end: "2027-09-30", rent: 2050, renewal: true)
        return fixture
    }

    @Test func floorplansAtTheSnapshotWithTheirTradeOut() throws {
        let fixture = try Self.fixture()
        let report = try Metrics.pricing(database: try fixture.reader(), properties: ["alpha"])
        #expect(report.floorplans.map(\.floorplan) == ["A1", "B2"])   // by bedrooms
        let a1 = report.floorplans[0], b2 = report.floorplans[1]
        #expect(a1.asOf == day("2026-11-20") && a1.units == 10 && a1.occupied == 8 && a1.avgSqft == 700)
        #expect(a1.inPlaceRent == Money(cents: 95_000) && a1.askingRent == Money(cents: 100_000))
        #expect(a1.inPlacePsf == 1.3571 && a1.askingPsf == 1.4286)   // 950 / 700, 1000 / 700
        #expect(a1.lossToLease == Money(cents: 40_000))
        #expect(a1.tradeOut == TradeOutSums(leases: 2, priorRent: Money(cents: 190_000), newRent: Money(cents: 202_000)))
        #expect(a1.tradeOut.changePct == 6.32)
        #expect(b2.tradeOut.leases == 1 && b2.tradeOut.changePct == 5)
        #expect(report.tradeOutPeriod == Period(from: day("2026-08-23"), to: day("2026-11-20")))

        let rows = report.tradeOut.map { [$0.kind] + $0.values.dropFirst().map { $0.doubleValue.map { String($0) } ?? "null" } }
        #expect(rows == [
            ["new", "1.0", "900.0", "990.0", "90.0", "10.0"],
            ["renewal", "2.0", "1500.0", "1565.0", "65.0", "4.33"],
            ["all", "3.0", "1300.0", "1373.33", "73.33", "5.64"],
        ])
    }

    /// All floorplans: 40 units, 28 occupied; sq ft (10 x 700 + 30 x 1000) / 40 = 925; asking weighted by units
    /// (10 x 1000 + 30 x 2000) / 40 = $1,750; in place weighted by occupied units (8 x 950 + 20 x 1900) / 28 = $1,628.57;
    /// per sq ft 1750 / 925 = 1.8919, 1628.57 / 925 = 1.7606; loss-to-lease $2,400.
    @Test func allFloorplansLineIsWeightedByUnitsAndOccupiedUnits() throws {
        let fixture = try Self.fixture()
        let report = try Metrics.pricing(database: try fixture.reader(), properties: ["alpha"])
        let total = try #require(PricingRow.rollUp(report.floorplans))
        #expect(total.property == "alpha" && total.floorplan == "all")
        #expect(total.units == 40 && total.occupied == 28 && total.avgSqft == 925)
        #expect(total.askingRent == Money(cents: 175_000) && total.inPlaceRent == Money(cents: 162_857))
        #expect(total.askingPsf == 1.8919 && total.inPlacePsf == 1.7606)
        #expect(total.lossToLease == Money(cents: 240_000))
        #expect(total.tradeOut.leases == 3 && total.tradeOut.changePct == 5.64)
    }

    @Test func tradeOutPeriodCanBeGiven() throws {
        let fixture = try Self.fixture()
        // Only L2 and L9/L7 start in October; of those only L2 has a known prior rent.
        let october = try Metrics.pricing(database: try fixture.reader(), properties: ["alpha"],
                                          from: day("2026-10-01"), to: day("2026-10-31"))
        #expect(october.tradeOut.map(\.sums.leases) == [1, 0, 1])
        #expect(october.tradeOut[1].sums.changePct == nil)
        // As of an earlier date: the older snapshot, and the 90 days ending then (2026-07-04 ... 2026-10-01): L6 and L2.
        let september = try Metrics.pricing(database: try fixture.reader(), properties: ["alpha"], asOf: day("2026-10-01"))
        #expect(september.floorplans.map(\.floorplan) == ["A1"] && september.floorplans[0].occupied == 5)
        #expect(september.tradeOut.map(\.sums.leases) == [1, 1, 2])
        #expect(september.tradeOutPeriod == Period(from: day("2026-07-04"), to: day("2026-10-01")))
    }
}
