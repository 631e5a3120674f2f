import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// unified_units from RPX unitlist (residents, leases and the reports filling in), and from the Rent Roll without RPX.
@Suite struct RealPageUnitsTests {
    static func daysAgo(_ days: Int) -> String { RealPageFixture.daysAgo(days) }

    @Test func everyUnitListEncodingMapsToOneUnifiedStatus() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.unit("102", .notice("2026-12-10"))
        try realpage.unit("103", .noticeLeased("2026-12-20"))
        try realpage.unit("104", .vacant)
        try realpage.unit("105", .vacantLeased("2026-12-01"))
        try realpage.unit("106", .model)
        try realpage.unit("107", .down)
        try realpage.unit("108", .vacant, reason: "Under rehab")
        try realpage.unit("109", .vacant, reason: "Leasing office", designation: "Conventional")
        try realpage.unit("110", .vacant, reason: "", designation: "Admin")
        // Reserved through the expected move-in date alone.
        try realpage.insert("realpage_units", [
            "unit_id": .text("u111"), "unit_number": .text("111"), "vacant": .integer(1), "unit_reserved": .integer(0),
            "expected_move_in_date": .text("2026-12-05"), "market_rent": .real(1500),
        ])
        // Deleted units are not units.
        try realpage.insert("realpage_units", ["unit_id": .text("u199"), "unit_number": .text("199"), "vacant": .integer(1),
                                               "unit_deleted": .integer(1)])
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil)

        let units = try realpage.keyed("SELECT unit_number, status, notice_for_date FROM unified_units")
        let expected: [String: (String, String?)] = [
            "101": ("occupied", nil), "102": ("occupied_notice", "2026-12-10"),
            "103": ("occupied_notice_leased", "2026-12-20"), "104": ("vacant", nil), "105": ("vacant_leased", nil),
            "106": ("model", nil), "107": ("down", nil), "108": ("down", nil), "109": ("model", nil),
            "110": ("model", nil), "111": ("vacant_leased", nil),
        ]
        #expect(units.keys.sorted() == expected.keys.sorted(), "UnitDeleted units are skipped")
        for (unit, (status, noticeFor)) in expected {
            #expect(units[unit]?[0].textValue == status, "unit \(unit)")
            #expect(units[unit]?[1].textValue == noticeFor, "unit \(unit)")
        }
        let metrics = try #require(try realpage.rows("""
            SELECT total_units, occupied_units, on_notice, notice_leased, vacant_leased, vacant_not_leased,
                   model_units, down_units, leased_units, exposure_now
            FROM unified_occupancy_metrics WHERE unified_property_id = 'rp_test' AND as_of_date = '2026-11-20'
            """).first)
        #expect(metrics.map { $0.integerValue ?? -1 } == [11, 3, 2, 1, 2, 1, 3, 2, 4, 2])
        #expect(try realpage.texts("SELECT source FROM unified_occupancy_metrics") == ["realpage: \(RealPageUnits.unitListSource)"])
    }

    @Test func theRentRollGivesFloorplanCodesStatusTextAndTheBoxScoreRooms() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied, floorplanID: "fp-a", floorplanName: "One Bedroom")
        try realpage.unit("102", .vacant, floorplanID: "fp-a", floorplanName: "One Bedroom")
        try realpage.unit("103", .vacant, floorplanID: "fp-a", floorplanName: "One Bedroom")
        try realpage.unit("201", .occupied, floorplanID: "fp-b", floorplanName: "Two Bedroom", building: "02")
        try realpage.unit("301", .occupied, floorplanID: "fp-s", floorplanName: "Studio", building: "03")
        try realpage.unit("401", .vacant, floorplanID: "fp-x", floorplanName: "Penthouse", building: "04")
        try realpage.rentRoll("101", "Occupied no NTV", floorplan: "A1")
        try realpage.rentRoll("102", "Vacant", floorplan: "A1")
        try realpage.rentRoll("103", "Vacant", floorplan: "A1-typo")   // the floorplan's majority code wins
        try realpage.rentRoll("02-201", "Occupied", floorplan: "B2")   // Bldg/Unit form
        try realpage.rentRoll("301", "Occupied no NTV", floorplan: "S1")
        try realpage.boxScore("A1", group: "1x1", occupied: 1, vacant: 2)
        try realpage.boxScore("B2", group: "2x1", occupied: 1)
        try realpage.boxScore("S1", group: "Studio", occupied: 1)
        #expect(realpage.sync().first?.error == nil)

        let units = try realpage.keyed("""
            SELECT unit_number, floorplan, floorplan_name, bedrooms, bathrooms, pms_status FROM unified_units
            """)
        #expect(units["101"] == [.text("A1"), .text("One Bedroom"), .integer(1), .real(1), .text("Occupied no NTV")])
        #expect(units["103"]?[0] == .text("A1"))
        #expect(units["201"] == [.text("B2"), .text("Two Bedroom"), .integer(2), .real(1), .text("Occupied")])
        #expect(units["301"]?[0...2] == [.text("S1"), .text("Studio"), .integer(0)])
        // No Rent Roll row: the FloorplanName, and the RPX flags as the status text.
        #expect(units["401"]?[0] == .text("Penthouse"))
        #expect(units["401"]?[4] == .text("unitlist: Vacant=T Available=F Reserved=F"))
    }

    @Test func residentRentHistoryAndMakeReadyComeFromRPXResidentsAndLeases() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        // Occupied: the Current household and its current lease's rent (not the Rent Roll's).
        try realpage.unit("101", .occupied)
        try realpage.rentRoll("101", "Occupied no NTV", actual: 9999)
        try realpage.resident(household: "h101old", unit: "101", status: "Former", lease: "L101old",
                              moveIn: "2022-01-01", moveOut: "2024-12-31")
        try realpage.resident(household: "h101", unit: "101", status: "Current", lease: "L101b", type: "Renewal",
                              moveIn: "2025-01-10")
        try realpage.lease("L101a", household: "h101", unit: "101", status: "Current - Past", begin: "2025-01-10",
                           end: "2026-01-09", rent: 1300)
        try realpage.lease("L101b", household: "h101", unit: "101", status: "Current", type: "Renewal", prior: "L101a",
                           begin: "2026-01-10", end: "2027-01-09", rent: 1450)
        // On notice: the household's move-out when unitlist has no OnNoticeForDate... unitlist has it here.
        try realpage.unit("102", .notice("2026-12-15"))
        try realpage.resident(household: "h102", unit: "102", status: "Current", lease: "L102",
                              type: "Notice given - move out", moveIn: "2025-02-01", moveOut: "2026-12-15",
                              noticeGiven: "2026-11-01", noticeFor: "2026-12-15")
        // Occupied without a lease in getleaseinfo: the Rent Roll's Lease Rent.
        try realpage.unit("103", .occupied)
        try realpage.rentRoll("103", "Occupied no NTV", actual: 1375)
        try realpage.resident(household: "h103", unit: "103", status: "Current", lease: "L103", moveIn: "2024-06-01")
        // Vacant 91 days, made ready after the move-out: ready and aged; a future household ignored.
        try realpage.unit("104", .vacantLeased("2026-12-01"), madeReady: Self.daysAgo(85))
        try realpage.resident(household: "h104a", unit: "104", status: "Former", moveIn: "2022-01-01", moveOut: Self.daysAgo(400))
        try realpage.resident(household: "h104b", unit: "104", status: "Former", moveIn: "2024-01-01", moveOut: Self.daysAgo(91))
        try realpage.resident(household: "h104c", unit: "104", status: "Applicant - Lease Signed", moveIn: "2026-12-01")
        // Vacant 90 days (not aged); its make-ready is of the turn before the last move-out: not ready.
        try realpage.unit("105", .vacant, madeReady: Self.daysAgo(200))
        try realpage.resident(household: "h105", unit: "105", status: "Former", moveIn: "2024-01-01", moveOut: Self.daysAgo(90))
        // Vacant, no make-ready date: not ready; no history: no vacant_since.
        try realpage.unit("106", .vacant)
        #expect(realpage.sync().first?.error == nil)

        let units = try realpage.keyed("""
            SELECT unit_number, actual_rent, resident_id, lease_id, notice_for_date, vacant_since, is_ready FROM unified_units
            """)
        #expect(units["101"] == [.real(1450), .text("h101"), .text("L101b"), .null, .null, .null])
        #expect(units["102"] == [.null, .text("h102"), .text("L102"), .text("2026-12-15"), .null, .null])
        #expect(units["103"] == [.real(1375), .text("h103"), .text("L103"), .null, .null, .null])
        #expect(units["104"] == [.null, .null, .null, .null, .text(Self.daysAgo(91)), .integer(1)])
        #expect(units["105"] == [.null, .null, .null, .null, .text(Self.daysAgo(90)), .integer(0)])
        #expect(units["106"] == [.null, .null, .null, .null, .null, .integer(0)])

        let row = try #require(try realpage.rows("""
            SELECT aged_vacant_90, vacant_ready, vacant_not_ready FROM unified_occupancy_metrics
            """).first)
        #expect(row == [.integer(1), .integer(1), .integer(2)])
    }

    @Test func withoutUnitListTheRentRollIsTheUnitSourceForEveryStatusText() throws {
        let realpage = try RealPageFixture()
        try realpage.loaded("rent_roll")
        let texts: [(unit: String, text: String, status: String)] = [
            ("101", "Occupied", "occupied"), ("102", "Occupied no NTV", "occupied"),
            ("103", "Occupied NTV", "occupied_notice"), ("104", "Occupied NTV Not Leased", "occupied_notice"),
            ("105", "Occupied NTV Leased", "occupied_notice_leased"), ("106", "Occupied-NTVL", "occupied_notice_leased"),
            ("107", "Vacant", "vacant"), ("108", "Vacant Not Leased", "vacant"), ("109", "Vacant-Leased", "vacant_leased"),
            ("110", "Model", "model"), ("111", "Admin", "model"), ("112", "Model/Admin", "model"),
            ("113", "Vacant Model", "model"), ("114", "Vacant Admin", "model"), ("115", "Down", "down"),
            ("116", "  vacant DOWN ", "down"),
        ]
        for (unit, text, status) in texts {
            let occupied = status.hasPrefix("occupied")
            try realpage.rentRoll(unit, text, name: occupied ? "Lee, Ann \(unit)" : nil, actual: occupied ? 1400 : nil,
                                  moveOut: status.hasPrefix("occupied_notice") ? "2026-12-31" : nil)
        }
        // The unit's later rows are its other residents (a future applicant), not units.
        try realpage.rentRoll("109", "Applicant - Lease Signed", name: "Diaz, Pat")
        try realpage.boxScore("A1", group: "1x1")
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil)

        let units = try realpage.keyed("""
            SELECT unit_number, status, pms_status, is_ready, actual_rent, resident_id, notice_for_date, bedrooms
            FROM unified_units
            """)
        #expect(units.count == texts.count)
        for (unit, text, status) in texts {
            #expect(units[unit]?[0].textValue == status, "unit \(unit) '\(text)'")
            #expect(units[unit]?[1].textValue == text)
            #expect(units[unit]?[2] == .null, "the Rent Roll has no make-ready dates")
            #expect(units[unit]?[6] == .integer(1))
        }
        #expect(units["103"]?[3...5] == [.real(1400), .text("103/Lee, Ann 103"), .text("2026-12-31")])
        #expect(units["107"]?[3...5] == [.null, .null, .null])
        #expect(try realpage.texts("SELECT source FROM unified_occupancy_metrics") == ["realpage: \(RealPageUnits.rentRollSource)"])
        let warnings = try realpage.texts("SELECT subject FROM unified_sync_warnings WHERE check_name = 'snapshot' ORDER BY subject")
        #expect(warnings.contains("unitlist") && warnings.contains("getresidentlistinfo"))
    }

    @Test func anUnknownRentRollStatusFailsTheFallbackAndKeepsThePreviousRows() throws {
        let realpage = try RealPageFixture()
        try realpage.rentRoll("101", "Occupied", asOf: "2026-11-19")
        try #require(realpage.sync().first?.error == nil)

        try realpage.rentRoll("101", "Occupied")
        try realpage.rentRoll("102", "Vacant Pending")
        try realpage.rentRoll("103", "Occupied Eviction")
        let error = try #require(realpage.sync().first?.error)
        #expect(error.contains("unit 102 'Vacant Pending'"))
        #expect(error.contains("unit 103 'Occupied Eviction'"))
        #expect(error.contains("RealPageUnits.rentRollStatuses"))
        #expect(try realpage.texts("SELECT as_of_date FROM unified_properties") == ["2026-11-19"])
        #expect(try realpage.texts("SELECT as_of_date FROM unified_occupancy_metrics") == ["2026-11-19"])
    }

    @Test func aUnitNumberInTwoBuildingsIsNamedWithItsBuilding() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied, building: "01")
        try realpage.insert("realpage_units", [
            "unit_id": .text("u101-b2"), "unit_number": .text("101"), "building_number": .text("02"), "vacant": .integer(1),
        ])
        try realpage.unit("102", .occupied, building: "01")
        #expect(realpage.sync().first?.error == nil)
        #expect(try realpage.texts("SELECT unit_number FROM unified_units ORDER BY unit_number") == ["01-101", "02-101", "102"])
    }

    @Test func aUnitListedTwiceFailsTheProperty() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.unit("101", .vacant)
        let error = try #require(realpage.sync().first?.error)
        #expect(error.contains("01-101 (2 rows)"))
    }
}
