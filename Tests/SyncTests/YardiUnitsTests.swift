import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// unified_units from GetUnitInformation, with GetResidentsByStatus and AvailableUnits filling in.
@Suite struct YardiUnitsTests {
    /// The date `days` before the fixture's property date.
    static func daysAgo(_ days: Int) -> String { LocalDate(iso: YardiFixture.asOf)!.adding(days: -days).iso }

    @Test func everyStatusTextMapsToOneUnifiedStatusAndReadyFlag() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        let texts: [(unit: String, text: String?, economic: String)] = [
            ("101", "Occupied No Notice", "residential"), ("102", "Notice Unrented", "residential"),
            ("103", "Notice Rented", "residential"), ("104", "Vacant Unrented Ready", "residential"),
            ("105", "Vacant Unrented Not Ready", "residential"), ("106", "  vacant RENTED ready ", "residential"),
            ("107", "Vacant Rented Not Ready", "residential"), ("108", "Model", "model"), ("109", "Admin", "admin"),
            ("110", "Down", "down"), ("111", nil, "down"), ("112", "Excluded", "residential"),
            ("113", "Waitlist", "residential"),
        ]
        for (unit, text, economic) in texts { try yardi.unit(unit, text, economic: economic) }
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil)

        let units = try yardi.keyed("SELECT unit_number, status, is_ready, pms_status FROM unified_units ORDER BY unit_number")
        let expected: [String: (String, Int64?)] = [
            "101": ("occupied", nil), "102": ("occupied_notice", nil), "103": ("occupied_notice_leased", nil),
            "104": ("vacant", 1), "105": ("vacant", 0), "106": ("vacant_leased", 1), "107": ("vacant_leased", 0),
            "108": ("model", nil), "109": ("model", nil), "110": ("down", nil), "111": ("down", nil),
        ]
        #expect(units.keys.sorted() == expected.keys.sorted(), "Excluded and Waitlist are not units")
        for (unit, (status, ready)) in expected {
            #expect(units[unit]?[0].textValue == status, "unit \(unit)")
            #expect(units[unit]?[1].integerValue == ready, "unit \(unit)")
        }
        #expect(units["106"]?[2].textValue == "  vacant RENTED ready ", "pms_status keeps Yardi's text")
        #expect(units["111"]?[2].textValue == "down", "no description: the economic status is the text")

        // The snapshot counts the mapped statuses like any other PMS.
        let metrics = try #require(try yardi.rows("""
            SELECT total_units, occupied_units, on_notice, notice_leased, vacant_leased, vacant_not_leased,
                   vacant_ready, vacant_not_ready, model_units, down_units, leased_units
            FROM unified_occupancy_metrics WHERE unified_property_id = 'yp_test' AND as_of_date = '2026-11-20'
            """).first)
        #expect(metrics.map { $0.integerValue ?? -1 } == [11, 3, 2, 1, 2, 2, 2, 2, 2, 2, 4])
    }

    @Test func unknownStatusTextFailsThePropertyAndKeepsItsPreviousRows() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything(asOf: "2026-11-19")
        try yardi.unit("201", "Occupied No Notice", asOf: "2026-11-19")
        try #require(yardi.sync().first?.error == nil)

        try yardi.loadedEverything()
        try yardi.unit("201", "Occupied No Notice")
        try yardi.unit("202", "Vacant Unrented Pending")
        try yardi.unit("203", "Occupied Eviction")
        let outcome = try #require(yardi.sync().first)
        let error = try #require(outcome.error)
        #expect(error.contains("unit 202 'Vacant Unrented Pending'"))
        #expect(error.contains("unit 203 'Occupied Eviction'"))
        #expect(error.contains("YardiUnits.statusVocabulary"))

        #expect(try yardi.rows("SELECT unit_number FROM unified_units").map { $0[0].textValue } == ["201"])
        #expect(try yardi.rows("SELECT as_of_date FROM unified_properties").first?.first?.textValue == "2026-11-19")
        #expect(try yardi.rows("SELECT as_of_date FROM unified_occupancy_metrics").map { $0[0].textValue } == ["2026-11-19"])
    }

    @Test func aUnitListedTwiceFailsTheProperty() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.unit("301", "Occupied No Notice")
        try yardi.unit("301", "Vacant Unrented Ready")
        let error = try #require(yardi.sync().first?.error)
        #expect(error.contains("301 (2 rows)"))
    }

    @Test func rentDatesAndHistoryComeFromResidentsAndAvailableUnits() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        // Occupied: PersonID names the household.
        try yardi.unit("401", "Occupied No Notice", tenant: "t401")
        try yardi.resident("t401", "Current", unit: "401", rent: 1450, leaseID: "L401", moveIn: "2025-03-01")
        // On notice without a PersonID: the unit's Notice household, not its past one.
        try yardi.unit("402", "Notice Unrented")
        try yardi.resident("t402a", "Past", unit: "402", rent: 1100, moveIn: "2023-01-01", moveOut: "2024-12-31")
        try yardi.resident("t402", "Notice", unit: "402", rent: 1300, leaseID: "L402", moveIn: "2025-01-10",
                           moveOut: "2026-12-15", notice: "2026-11-01")
        // Vacant: since the latest move-out on or before the property date (91 days: aged), a future lease ignored.
        try yardi.unit("403", "Vacant Rented Ready")
        try yardi.resident("t403a", "Past", unit: "403", moveIn: "2022-01-01", moveOut: Self.daysAgo(400))
        try yardi.resident("t403b", "Past", unit: "403", moveIn: "2024-01-01", moveOut: Self.daysAgo(91))
        try yardi.resident("t403c", "Future", unit: "403", moveIn: "2026-12-01")
        try yardi.available("403", "Vacant Rented Ready", vacate: Self.daysAgo(91), madeReady: Self.daysAgo(80))
        // Vacant exactly 90 days: not aged.
        try yardi.unit("404", "Vacant Unrented Not Ready")
        try yardi.resident("t404", "Past", unit: "404", moveIn: "2024-01-01", moveOut: Self.daysAgo(90))
        // No resident history: AvailableUnits' VacateDate.
        try yardi.unit("405", "Vacant Unrented Not Ready")
        try yardi.available("405", "Vacant Unrented Not Ready", vacate: Self.daysAgo(10))
        // On notice, the household without a move-out date: AvailableUnits' VacateDate.
        try yardi.unit("406", "Notice Rented", tenant: "t406")
        try yardi.resident("t406", "Notice", unit: "406", rent: 1600, moveIn: "2024-05-01")
        try yardi.available("406", "Notice Rented", vacate: "2027-01-10")
        #expect(yardi.sync().first?.error == nil)

        let units = try yardi.keyed("""
            SELECT unit_number, actual_rent, resident_id, lease_id, notice_for_date, vacant_since, made_ready_date
            FROM unified_units
            """)
        func row(_ unit: String) -> [String?] { units[unit]?.map { $0.textValue } ?? [] }
        #expect(row("401") == ["1450.0", "t401", "L401", nil, nil, nil])
        #expect(row("402") == ["1300.0", "t402", "L402", "2026-12-15", nil, nil])
        #expect(row("403") == [nil, nil, nil, nil, Self.daysAgo(91), Self.daysAgo(80)])
        #expect(row("404") == [nil, nil, nil, nil, Self.daysAgo(90), nil])
        #expect(row("405") == [nil, nil, nil, nil, Self.daysAgo(10), nil])
        #expect(row("406") == ["1600.0", "t406", nil, "2027-01-10", nil, nil])

        let aged = try yardi.rows("SELECT aged_vacant_90 FROM unified_occupancy_metrics").first?.first?.integerValue
        #expect(aged == 1)
    }

    @Test func floorplanSizeAndMarketRentComeFromTheUnit() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.unit("501", "Vacant Unrented Ready", type: "b2", market: 2141.5, sqft: 977, available: "2026-11-25")
        #expect(yardi.sync().first?.error == nil)
        let row = try #require(try yardi.rows("""
            SELECT pms_unit_id, building, floorplan, floorplan_name, bedrooms, bathrooms, sqft, market_rent, available_date
            FROM unified_units
            """).first)
        #expect(row == [.text("u501"), .text("Building 01"), .text("b2"), .text("One Bedroom"), .integer(1), .real(1),
                        .integer(977), .real(2141.5), .text("2026-11-25")])
    }
}
