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

    /// unitlist (units 1101, 1104, 2301; no floor anywhere in it) with getunitlist (UnitDetails/FloorNumber of 1101 and
    /// of two units unitlist does not list): 1101 is on floor 1; the two others have no floor, and the property says
    /// why. A site whose contract leaves getunitlist out (no answer loaded) says that instead.
    @Test func theFloorComesFromGetUnitListAndWhereItIsMissingThePropertySaysWhy() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.loadSOAP("rpx_unitlist.xml", .unitlist)
        try realpage.loadSOAP("rpx_getunitlist.xml", .getunitlist)
        #expect(realpage.sync().first?.error == nil)
        let floors = try realpage.keyed("SELECT unit_number, floor FROM unified_units")
        #expect(floors.keys.sorted() == ["1101", "1104", "2301"])
        #expect(floors["1101"]?[0] == .text("1"))
        #expect(floors["1104"]?[0] == .null && floors["2301"]?[0] == .null, "not read off the unit number")
        #expect(try realpage.texts("SELECT floor_note FROM unified_properties") == ["getunitlist sent no FloorNumber for 2 of 3 units"])

        let refused = try RealPageFixture()
        try refused.loadedEverything()
        try refused.loadSOAP("rpx_unitlist.xml", .unitlist)
        #expect(refused.sync().first?.error == nil)
        #expect(try refused.texts("SELECT DISTINCT floor FROM unified_units") == [nil])
        let note = try #require(try refused.texts("SELECT floor_note FROM unified_properties").first ?? nil)
        #expect(note.contains("only in RPX getunitlist") && note.contains("no getunitlist answer was loaded"))
    }

    /// getresidentlistinfo listing a current household whose renewal is signed as "Future Lease" (beside a "Current"
    /// one and a pre-leased "Applicant - Lease Signed"): it is the household in place, counted as current.
    @Test func aFutureLeaseHouseholdIsTheCurrentHouseholdInPlace() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        for (id, number, vacant, moveIn) in [("9001000", "1101", 0, nil), ("9001001", "1102", 0, nil),
                                             ("9001003", "1104", 1, "2026-12-20")] as [(String, String, Int64, String?)] {
            try realpage.insert("realpage_units", [
                "unit_id": .text(id), "unit_number": .text(number), "vacant": .integer(vacant), "market_rent": .real(1500),
                "unit_reserved": .integer(moveIn == nil ? 0 : 1), "expected_move_in_date": SQLValue(moveIn),
                "fp_report_unit_occupancy": .integer(1), "unit_deleted": .integer(0),
            ])
        }
        try realpage.loadSOAP("rpx_getresidentlistinfo_future_lease.xml", .getresidentlistinfo)
        #expect(realpage.sync().first?.error == nil)
        let residents = try realpage.keyed("SELECT name, status, unit_number FROM unified_residents")
        #expect(residents["Thompson, Patricia"] == [.text("current"), .text("1102")], "Future Lease: in place")
        #expect(residents["White, Daniel"]?[0] == .text("current") && residents["Jones, William"]?[0] == .text("future"))
        let units = try realpage.keyed("SELECT unit_number, status, resident_id FROM unified_units")
        #expect(units["1102"] == [.text("occupied"), .text("9200002")])
        #expect(units["1104"]?[0] == .text("vacant_leased"))
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

/// Aged vacancy, one definition for both PMSs: a never-occupied (lease-up) unit is vacant since its make-ready date,
/// else its available date.
@Suite struct LeaseUpVacancyTests {
    @Test func realPageLeaseUpUnitsAreAgedFromTheirMakeReadyOrAvailableDate() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.unit("102", .vacant, madeReady: RealPageFixture.daysAgo(120))   // never occupied, ready 120 days
        try realpage.unit("103", .vacant, available: RealPageFixture.daysAgo(100))   // never occupied, available 100 days
        try realpage.unit("104", .vacant, madeReady: RealPageFixture.daysAgo(30))    // never occupied, ready 30 days
        #expect(realpage.sync().first?.error == nil)
        let occupancy = try #require(try Metrics.occupancy(database: realpage.store.database, properties: ["rp_test"]).first)
        #expect(occupancy.agedVacant90 == 2)
        // 1500 / 30.42 x (120 + 100) days.
        #expect(occupancy.agedVacancyCost == Money(dollars: ((1500 / 30.42 * 120 + 1500 / 30.42 * 100) * 100).rounded() / 100))
    }

    @Test func yardiLeaseUpUnitsAreAgedTheSameWay() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.unit("201", "Vacant Unrented Ready")
        try yardi.available("201", "Vacant Unrented Ready", madeReady: RealPageFixture.daysAgo(120))
        try yardi.unit("202", "Vacant Unrented Not Ready", available: RealPageFixture.daysAgo(95))
        try yardi.unit("203", "Vacant Unrented Ready")
        try yardi.available("203", "Vacant Unrented Ready", madeReady: RealPageFixture.daysAgo(10))
        #expect(yardi.sync().first?.error == nil)
        let occupancy = try #require(try Metrics.occupancy(database: yardi.store.database, properties: ["yp_test"]).first)
        #expect(occupancy.agedVacant90 == 2)
    }
}

/// Leads, one definition for both PMSs: a prospect's first contact, one per prospect; later contacts are follow-ups.
@Suite struct LeadDefinitionTests {
    @Test func aRealPageProspectContactingTwiceIsOneLead() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.activity(RealPageFixture.daysAgo(10), "E-mail", name: "Diaz, Pat")
        try realpage.activity(RealPageFixture.daysAgo(8), "E-mail", name: "Diaz, Pat")        // follow-up
        try realpage.activity(RealPageFixture.daysAgo(6), "Phone call", name: "Diaz, Pat")    // follow-up
        try realpage.activity(RealPageFixture.daysAgo(5), "Visit", name: "Diaz, Pat")         // a tour, not a new lead
        try realpage.activity(RealPageFixture.daysAgo(4), "Text message", name: "Kim, Lee")
        #expect(realpage.sync().first?.error == nil)
        let funnel = try #require(try Metrics.funnel(database: realpage.store.database, properties: ["rp_test"]).properties.first)
        #expect(funnel.leads == 2 && funnel.tours == 1)
    }

    @Test func aYardiProspectWithTwoFirstContactEventsIsOneLead() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.unit("101", "Occupied No Notice")
        try yardi.guestEvent("p1", "Email", RealPageFixture.daysAgo(10), firstContact: true)
        try yardi.guestEvent("p1", "CallFromProspect", RealPageFixture.daysAgo(7), firstContact: true)
        try yardi.guestEvent("p1", "Show", RealPageFixture.daysAgo(6))
        try yardi.guestEvent("p2", "Webservice", RealPageFixture.daysAgo(3), firstContact: true)
        #expect(yardi.sync().first?.error == nil)
        let funnel = try #require(try Metrics.funnel(database: yardi.store.database, properties: ["yp_test"]).properties.first)
        #expect(funnel.leads == 2 && funnel.tours == 1)
    }
}
