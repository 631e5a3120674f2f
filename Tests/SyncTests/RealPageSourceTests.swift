import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// The RealPage property date, the snapshots read, the cross-checks, re-sync and rollback.
@Suite struct RealPageSourceTests {
    @Test func thePropertyDateIsTheSiteSysDateNotTheDayRPXWasFetched() throws {
        // As in /tmp/simrun/data: RPX fetched on the 22nd while OneSite's date (SysDate) is the 20th; reports of the
        // 20th, plus a Rent Roll of the 22nd that must not be read (it is after the property date).
        let realpage = try RealPageFixture()
        try realpage.site(sysDate: "2026-11-20", asOf: "2026-11-22")
        try realpage.unit("101", .occupied, asOf: "2026-11-22")
        try realpage.unit("102", .vacant, asOf: "2026-11-22")
        try realpage.rentRoll("101", "Occupied", floorplan: "A1", asOf: "2026-11-20")
        try realpage.rentRoll("102", "Vacant", floorplan: "A1", asOf: "2026-11-20")
        try realpage.rentRoll("101", "Occupied", floorplan: "Z9", asOf: "2026-11-22")
        try realpage.boxScore("A1", group: "1x1", occupied: 1, vacant: 1, asOf: "2026-11-20")
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil)
        #expect(outcome.asOf?.iso == "2026-11-20")
        #expect(try realpage.texts("SELECT as_of_date FROM unified_properties") == ["2026-11-20"])
        #expect(try realpage.texts("SELECT as_of_date FROM unified_occupancy_metrics") == ["2026-11-20"])
        #expect(try realpage.texts("SELECT DISTINCT floorplan FROM unified_units") == ["A1"], "the Rent Roll of the 20th")
        #expect(outcome.warnings.filter { $0.check == "box_score" }.isEmpty)
    }

    @Test func withoutASiteThePropertyDateIsTheLatestRentRollOrBoxScore() throws {
        let realpage = try RealPageFixture()
        try realpage.rentRoll("101", "Occupied", asOf: "2026-11-18")
        try realpage.boxScore("A1", group: "1x1", occupied: 1, asOf: "2026-11-19")
        try realpage.delinquency("101", residentID: "1", name: "Lee, Ann", balance: 5, asOf: "2026-11-21")
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.asOf?.iso == "2026-11-19")
        // Every report's latest on or before that date; the Delinquency has none, so its latest.
        let snapshots = try RealPageSnapshots(SyncContext(database: realpage.store.database, property: RealPageFixture.property,
                                                          runID: "r"), asOf: LocalDate(iso: "2026-11-19")!)
        #expect(snapshots.dates == ["rent_roll": "2026-11-18", "box_score": "2026-11-19", "delinquency": "2026-11-21"])

        // A site row without a SysDate does not decide.
        try realpage.site(sysDate: nil, asOf: "2026-11-22")
        #expect(realpage.sync().first?.asOf?.iso == "2026-11-19")
    }

    @Test func nothingLoadedFailsThePropertyWithTheReason() throws {
        let realpage = try RealPageFixture()
        let error = try #require(realpage.sync().first?.error)
        #expect(error.contains("rp_test") && error.contains("nothing loaded"))
    }

    @Test func boxScoreTotalsAreCheckedExactly() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.unit("102", .notice("2026-12-10"))
        try realpage.unit("103", .noticeLeased("2026-12-10"))
        try realpage.unit("104", .vacant)
        try realpage.unit("105", .vacantLeased("2026-12-01"))
        try realpage.unit("106", .model)
        try realpage.unit("107", .down)
        // Box Score agrees on everything but one unit it counts occupied and the unified units count vacant.
        try realpage.boxScore("A1", group: "1x1", occupied: 1, notice: 1, noticeLeased: 1, vacantLeased: 1, model: 1)
        try realpage.boxScore("B1", group: "2x2", occupied: 1, down: 1)
        let outcome = try #require(realpage.sync().first)
        let boxScore = outcome.warnings.filter { $0.check == "box_score" }
        #expect(boxScore.map(\.subject).sorted() == ["occupied_units", "vacant_units"])
        let occupied = try #require(boxScore.first { $0.subject == "occupied_units" })
        #expect(occupied.expected == "4" && occupied.actual == "3")
        #expect(occupied.message == "rp_test box_score occupied_units: Box Score (as of 2026-11-20) says 4, the unified units (RPX unitlist) count 3 (tolerance 0)")
        #expect(try realpage.texts("SELECT subject FROM unified_sync_warnings WHERE check_name = 'box_score' ORDER BY subject")
                    == ["occupied_units", "vacant_units"])
    }

    @Test func theRentRollStatusOfEachUnitIsCheckedAgainstUnitList() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.unit("102", .notice("2026-12-10"))
        try realpage.unit("103", .vacant)
        try realpage.rentRoll("101", "Occupied no NTV")
        try realpage.rentRoll("102", "Occupied no NTV")   // disagrees
        try realpage.rentRoll("104", "Vacant")            // not in unitlist; 103 not in the Rent Roll
        try realpage.rentRoll("101", "Vacant")            // a second row of 101: its first row is the one compared
        let warnings = try #require(realpage.sync().first).warnings.filter { $0.check == "unit_status_rent_roll" }
        #expect(warnings.map(\.subject) == ["102", "103", "104"])
        #expect(warnings[0].expected == "occupied" && warnings[0].actual == "occupied_notice")
        #expect(warnings[0].message.contains("'Occupied no NTV'") && warnings[0].message.contains("unitlist wins"))
    }

    @Test func theDelinquencyTotalIsCheckedAgainstRPXBalancesToTheCent() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.resident(household: "h1", unit: "101", status: "Current", balance: 100.25)
        try realpage.resident(household: "h2", unit: "102", status: "Former", balance: 50)
        try realpage.resident(household: "h3", unit: "103", status: "Applicant - Lease Signed", balance: 500)
        try realpage.delinquency("101", residentID: "h1", name: "Lee, Ann", balance: 100.25)
        try realpage.delinquency("102", residentID: "h2", name: "Lee, Bo", status: "Former resident", balance: 50)
        #expect(try #require(realpage.sync().first).warnings.filter { $0.check == "delinquency_total" }.isEmpty,
                "a future household's balance is not delinquency")

        try realpage.delinquency("102", residentID: "h2", name: "Lee, Bo", status: "Former resident", balance: 50.01,
                                 asOf: "2026-11-20")
        let warning = try #require(realpage.sync().first?.warnings.first { $0.check == "delinquency_total" })
        #expect(warning.expected == "200.26" && warning.actual == "150.25")
        #expect(warning.message.contains("1 of 2 accounts differ"))
    }

    @Test func theMonthlySummaryIsCheckedAgainstTheResidentEvents() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.resident(household: "h1", unit: "101", status: "Current", moveIn: "2026-11-03")
        try realpage.resident(household: "h2", unit: "102", status: "Former", moveIn: "2024-01-01", moveOut: "2026-11-02",
                              noticeGiven: "2026-10-01")
        try realpage.resident(household: "h3", unit: "103", status: "Former", moveIn: "2024-01-01", moveOut: "2026-10-31")
        try realpage.monthlySummary("2026-11", moveIns: 1, moveOuts: 2, renewals: 0, notices: nil)
        let warnings = try #require(realpage.sync().first).warnings.filter { $0.check == "monthly_summary" }
        #expect(warnings.map(\.subject) == ["2026-11 move_outs"])
        #expect(warnings.first?.message.contains("says 2") == true && warnings.first?.message.contains("count 1") == true)
    }

    @Test func onNoticeWithoutAMoveOutAndOccupiedWithoutAHouseholdAreWarned() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.unit("102", .notice("2026-12-10"))
        try realpage.resident(household: "h2", unit: "102", status: "Current", moveIn: "2025-01-01")
        // The Rent Roll says on notice but has no move-out date either (units from the Rent Roll).
        let warnings = try #require(realpage.sync().first).warnings
        #expect(warnings.filter { $0.check == "current_resident" }.map(\.subject) == ["101"])
        #expect(warnings.filter { $0.check == "notice_move_out" }.isEmpty)

        let fallback = try RealPageFixture()
        try fallback.rentRoll("201", "Occupied NTV", name: "Lee, Ann")
        let noticeWarnings = try #require(fallback.sync().first).warnings.filter { $0.check == "notice_move_out" }
        #expect(noticeWarnings.map(\.subject) == ["201"])
    }

    @Test func reSyncingGivesIdenticalRows() throws {
        let realpage = try RealPageFixture()
        try Self.smallProperty(realpage)
        try #require(realpage.sync().first?.error == nil)
        let first = try Self.everyRow(realpage)
        try #require(realpage.sync(runID: "20261120T000000Z-test").first?.error == nil)
        let second = try Self.everyRow(realpage)
        #expect(first == second)
        #expect(first.values.allSatisfy { !$0.isEmpty }, "every table has rows")
    }

    @Test func aFailingPropertyRollsBackAloneAndTheOthersSync() throws {
        let realpage = try RealPageFixture()
        try Self.smallProperty(realpage)
        let other = Property(key: "rp_other", name: "Other", pms: .realpage, siteID: "5000002")
        try realpage.rentRoll("901", "Occupied", property: "rp_other")
        try #require(realpage.sync([RealPageFixture.property, other]).allSatisfy { $0.error == nil })
        let before = try Self.everyRow(realpage)

        // Next day: the test property's RPX lists a lease status no rule maps; the other property moves on.
        try realpage.site(sysDate: "2026-11-21", asOf: "2026-11-21")
        try realpage.unit("101", .vacant, asOf: "2026-11-21")
        try realpage.insert("realpage_residents", ["household_id": .text("h9"), "lease_status": .text("Skipped")],
                            asOf: "2026-11-21")
        try realpage.rentRoll("901", "Vacant", asOf: "2026-11-21", property: "rp_other")
        let outcomes = realpage.sync([RealPageFixture.property, other])
        #expect(outcomes[0].error?.contains("'Skipped'") == true)
        #expect(outcomes[1].error == nil)
        let after = try Self.everyRow(realpage)
        for table in before.keys {
            #expect(after[table]?.filter { $0.first == .text("rp_test") } == before[table]?.filter { $0.first == .text("rp_test") },
                    "\(table) of rp_test unchanged")
        }
        #expect(try realpage.texts("SELECT status FROM unified_units WHERE unified_property_id = 'rp_other'") == ["vacant"])
    }

    /// One of everything: units, residents, leases, activity, delinquency, a Box Score.
    static func smallProperty(_ realpage: RealPageFixture) throws {
        try realpage.loadedEverything()
        try realpage.site(sysDate: "2026-11-20")
        try realpage.unit("101", .occupied)
        try realpage.unit("102", .vacant, madeReady: "2026-11-10")
        try realpage.resident(household: "h1", unit: "101", status: "Current", lease: "L1", moveIn: "2025-01-01")
        try realpage.resident(household: "h1", member: "h1-co", unit: "101", status: "Current", lease: "L1", head: false)
        try realpage.resident(household: "h0", unit: "102", status: "Former", lease: "L0", moveIn: "2024-01-01",
                              moveOut: "2026-11-01")
        try realpage.lease("L1", household: "h1", unit: "101", signed: "2024-12-15", begin: "2025-01-01", end: "2025-12-31")
        try realpage.rentRoll("101", "Occupied", actual: 1400)
        try realpage.rentRoll("102", "Vacant")
        try realpage.boxScore("A1", group: "1x1", occupied: 1, vacant: 1)
        try realpage.delinquency("101", residentID: "h1", name: "Lee, Ann", balance: 12.5, aging: [12.5, 0, 0, 0])
        try realpage.activity("2026-11-19", "E-mail")
        try realpage.activity("2026-11-19", "Visit")
    }

    /// Every unified table's rows (activity without its row id, warnings without the run), in key order.
    static func everyRow(_ realpage: RealPageFixture) throws -> [String: [[SQLValue]]] {
        let queries = [
            "unified_properties": "SELECT unified_property_id, name, pms_source, pms_property_id, total_units, as_of_date FROM unified_properties ORDER BY 1",
            "unified_units": "SELECT * FROM unified_units ORDER BY 1, 2",
            "unified_residents": "SELECT * FROM unified_residents ORDER BY 1, 2",
            "unified_leases": "SELECT * FROM unified_leases ORDER BY 1, 2",
            "unified_lease_residents": "SELECT * FROM unified_lease_residents ORDER BY 1, 2, 3",
            "unified_activity": "SELECT unified_property_id, event_date, event_type, pms_event_type, unit_number, party_name, party_id, source, agent FROM unified_activity ORDER BY id",
            "unified_delinquency": "SELECT * FROM unified_delinquency ORDER BY 1, 2, 3",
            "unified_occupancy_metrics": "SELECT * FROM unified_occupancy_metrics ORDER BY 1, 2",
            "unified_pricing_metrics": "SELECT * FROM unified_pricing_metrics ORDER BY 1, 2, 3",
            "unified_sync_warnings": "SELECT unified_property_id, as_of_date, check_name, subject, expected, actual, message FROM unified_sync_warnings ORDER BY 1, 3, 4",
        ]
        return try queries.mapValues { try realpage.rows($0) }
    }
}
