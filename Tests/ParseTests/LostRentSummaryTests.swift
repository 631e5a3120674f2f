import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Expected values are worked out by hand from LOST_RENT_UNITS and LOST_RENT_FLOORPLANS in
// scripts/fixtures/make_report_fixtures.py (total lost rent = loss - gain + vacancy + concessions + other).

@Suite("Lost Rent Summary")
struct LostRentSummaryTests {
    @Test("lost_rent_summary: the Excel export, a row per unit with every amount stored as text")
    func byUnit() throws {
        let result = try parseFixture("lost_rent_summary.xlsx")
        #expect(result.metadata?.reportType == .lostRent && result.metadata?.asOf == ymd("2026-01-31"))
        #expect(result.metadata?.propertyName == "Nexus East")
        let rows = result.lostRent
        #expect(rows.map(\.unitNumber) == ["1101", "1102", "1105", "2204", "2201"])
        let first = rows[0]
        #expect(first.residentName == "Garcia, Ana" && first.moveInDate == ymd("2024-12-06") && first.daysOccupied == 31)
        #expect(first.marketRent == usd(1_450) && first.leaseRent == usd(1_400) && first.rentCharged == usd(1_400))
        #expect(first.lossToLease == usd(50) && first.gainToLease == usd(0) && first.totalLostRent == usd(50))
        #expect(rows[1].residentName == nil && rows[1].moveOutDate == ymd("2025-12-20"))
        #expect(rows[1].vacancyLoss == usd(1_450) && rows[1].totalLostRent == usd(1_450))
        #expect(rows[2].gainToLease == usd(75) && rows[2].totalLostRent == usd(-75))
        #expect(rows[3].concessions == usd(100) && rows[4].otherLosses == usd(2_150))
        #expect(rows.compactMap(\.totalLostRent).reduce(.zero, +) == usd(3_675))
        #expect(rows.allSatisfy { $0.floorplan == nil })
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("lost_rent_by_floorplan: a Crystal report summarized by floor plan")
    func byFloorplan() throws {
        let result = try parseFixture("lost_rent_by_floorplan.xlsx")
        let rows = result.lostRent
        #expect(rows.map(\.floorplan) == ["A1", "A2", "B1", "B2"] && rows.allSatisfy { $0.unitNumber == nil })
        #expect(rows[1].marketRent == usd(122_840) && rows[1].lossToLease == usd(2_105, 50))
        #expect(rows[1].vacancyLoss == usd(1_535, 50) && rows[1].concessions == usd(250))
        #expect(rows[1].totalLostRent == usd(3_891), "2,105.50 + 1,535.50 + 250.00")
        #expect(rows[3].otherLosses == usd(2_150) && rows[3].totalLostRent == usd(3_500))
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("lost_rent_totals_mismatch: Totals prints vacancy loss $100 over the floor plans")
    func mismatch() throws {
        #expect(try parseFixture("lost_rent_totals_mismatch.xlsx").summary.warnings
            == ["lost rent summary: data rows sum to 9675.50 vacancy loss but \"Totals\" (row 13) says 9775.50"])
    }

    @Test("Loss to Lease missing is the one-line error naming it")
    func missingColumn() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "LOST RENT SUMMARY")
        sheet.add("Bldg-Unit", "Market Rent", "Lease Rent", "Vacancy Current")
        sheet.add("1101", "1450", "1400", "0")
        let error = parseError(nil, sheet)
        #expect(error?.kind == .missingColumn)
        #expect(error?.description == "lost rent summary: missing required column \"Loss to Lease\" (found: Bldg-Unit, "
            + "Market Rent, Lease Rent, Vacancy Current) in the header at row 7 of sheet \"Report\"")
    }
}
