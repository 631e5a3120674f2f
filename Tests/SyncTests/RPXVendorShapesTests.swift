import Foundation
import Metrics
import OwnerDashCore
import SOAP
import SQLiteKit
@testable import Sync
import Testing

/// RPX shapes the vendor sends that a naive reading gets wrong (scripts/pms_sim/README.md, quirk catalogue), each
/// from a SOAP fixture in the vendor's shape loaded by the production loader, synced, and read back as a user reads it.
@Suite struct RPXVendorShapesTests {
    /// unitlist with 4 units (3 occupied, 1 vacant) and two non-dwelling areas ("Non Dwelling Areas",
    /// FpReportUnitOccupancy=false: a leasing office Vacant=F and a clubhouse Vacant=T): the Box Score's 4 units.
    @Test func nonDwellingAreasAreNotUnits() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.loadSOAP("rpx_unitlist_non_dwelling.xml", .unitlist)
        // The raw table keeps every row as sent.
        #expect(try realpage.rows("SELECT count(*) FROM realpage_raw.realpage_units").first?.first == .integer(6))
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil)

        let database = realpage.store.database
        let occupancy = try #require(try Metrics.occupancy(database: database, properties: ["rp_test"]).first)
        #expect(occupancy.totalUnits == 4 && occupancy.occupied == 3 && occupancy.vacant == 1)
        #expect(occupancy.occupancyPct == 75 && occupancy.vacantNotReady == 1)
        let exposure = try #require(try Metrics.exposure(database: database, properties: ["rp_test"]).first)
        #expect(exposure.totalUnits == 4 && exposure.vacantNotLeased == 1)
        let floorplans = try Metrics.pricing(database: database, properties: ["rp_test"]).floorplans
        #expect(floorplans.map(\.units).reduce(0, +) == 4)
        #expect(!floorplans.contains { $0.floorplanName == "Non Dwelling Areas" || $0.floorplan == "Non Dwelling Areas" })
        #expect(try realpage.texts("SELECT unit_number FROM unified_units WHERE unit_number IN ('OFFICE', 'CLUB')").isEmpty)
    }

    /// getresidentlistinfo with a guarantor row whose unitid and unitnumber are empty: not a resident.
    @Test func placeholderRowsWithoutAUnitAreNotResidents() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("1101", .occupied)
        try realpage.unit("1103", .occupied)
        try realpage.loadSOAP("rpx_getresidentlistinfo_guarantor.xml", .getresidentlistinfo)
        #expect(try realpage.rows("SELECT count(*) FROM realpage_raw.realpage_residents").first?.first == .integer(3))
        #expect(realpage.sync().first?.error == nil)

        let residents = try realpage.texts("SELECT name FROM unified_residents ORDER BY name")
        #expect(residents == ["Lewis, Luis", "Roberts, Aiden"])
        #expect(try realpage.rows("""
            SELECT count(*) FROM unified_residents WHERE status IN ('current', 'notice')
            """).first?.first == .integer(2))
    }
}
