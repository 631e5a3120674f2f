import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// RealPage's report events by day (RealPageActivityDays): an incremental sync computes only the days on or after the
/// first day of a snapshot that changed, and gives what a full sync gives.
@Suite struct RealPageActivityDaysTests {
    static let firstNight = "2026-11-10", secondNight = "2026-11-20"

    /// The first night: a unit, a household, and an Activity report of 11-06 .. 11-09 (Lee's first contact, an
    /// unknown type, Kim's lead and tour), synced.
    static func firstNight(building: String = "01") throws -> RealPageFixture {
        let realpage = try RealPageFixture()
        try night(realpage, firstNight, building: building)
        try realpage.activity("2026-11-06", "E-mail", unit: "01-1401", name: "Lee, Ann", asOf: firstNight)
        try realpage.activity("2026-11-07", "Carrier Pigeon", unit: "01-1401", name: "Stone, Bo", asOf: firstNight)
        try realpage.activity("2026-11-08", "Phone call", unit: "01-1401", name: "Kim, Jo", asOf: firstNight)
        try realpage.activity("2026-11-09", "Visit (return)", unit: "01-1401", name: "Kim, Jo", asOf: firstNight)
        #expect(try sync(realpage, run: "20261110T000000Z-test").error == nil)
        return realpage
    }

    /// Everything loaded for `asOf`: the site's date, unit 1401 in `building`, household h1 on it.
    static func night(_ realpage: RealPageFixture, _ asOf: String, building: String = "01",
                      noticeGiven: String? = nil) throws {
        try realpage.loadedEverything(asOf: asOf)
        try realpage.site(sysDate: asOf, asOf: asOf)
        try realpage.unit("1401", .occupied, building: building, asOf: asOf)
        try realpage.resident(household: "h1", unit: "1401", status: "Current", moveIn: "2024-03-01",
                              noticeGiven: noticeGiven, asOf: asOf)
    }

    /// The second night's Activity report: 11-12 .. 11-14 (Lee's follow-up, the unknown type again, Ng's lead).
    static func secondReport(_ realpage: RealPageFixture) throws {
        try realpage.activity("2026-11-12", "Phone call", unit: "01-1401", name: "Lee, Ann", asOf: secondNight)
        try realpage.activity("2026-11-13", "Carrier Pigeon", unit: "01-1401", name: "Stone, Bo", asOf: secondNight)
        try realpage.activity("2026-11-14", "E-mail", unit: "01-1401", name: "Ng, Al", asOf: secondNight)
    }

    static func sync(_ realpage: RealPageFixture, run: String) throws -> PropertySyncOutcome {
        try #require(realpage.sync(runID: run).first)
    }

    /// The property's events, one line each, in date order.
    static func events(_ realpage: RealPageFixture) throws -> [String] {
        try realpage.rows("""
            SELECT event_date, event_type, pms_event_type, unit_number, party_name FROM unified_activity
            ORDER BY event_date, event_type, party_name
            """).map { $0.map { $0.textValue ?? "-" }.joined(separator: " ") }
    }

    /// The second night computes 11-11 on (the day after the last sync's date; the new snapshot starts 11-12): the
    /// days before stay as stored (a row altered there stays altered), Lee's follow-up is no lead (her first contact,
    /// on a day not computed, is remembered), the unknown type's warning counts both nights' rows, the household's
    /// notice dated before those days is there (resident events are computed whole). A full sync of the same raw
    /// data gives the same rows but for the altered one, which it names and rewrites.
    @Test func aNightComputesOnlyTheDaysASnapshotChanged() throws {
        let realpage = try Self.firstNight()
        try Self.night(realpage, Self.secondNight, noticeGiven: "2026-11-01")
        try Self.secondReport(realpage)
        _ = try realpage.rows("UPDATE unified_activity SET agent = 'altered' WHERE event_date = '2026-11-08'")
        let outcome = try Self.sync(realpage, run: "20261120T000000Z-test")
        #expect(outcome.error == nil)

        #expect(try Self.events(realpage) == [
            "2024-03-01 move_in moveindate 1401 Lee, Ann",
            "2026-11-01 notice noticegivendate 1401 Lee, Ann",
            "2026-11-06 lead E-mail 1401 Lee, Ann",
            "2026-11-07 other Carrier Pigeon 1401 Stone, Bo",
            "2026-11-08 lead Phone call 1401 Kim, Jo",
            "2026-11-09 tour Visit (return) 1401 Kim, Jo",
            "2026-11-12 other Phone call 1401 Lee, Ann",
            "2026-11-13 other Carrier Pigeon 1401 Stone, Bo",
            "2026-11-14 lead E-mail 1401 Ng, Al",
        ])
        #expect(try realpage.texts("SELECT agent FROM unified_activity WHERE event_date = '2026-11-08'") == ["altered"])
        let unknown = try #require(outcome.warnings.first { $0.check == "activity_type" })
        #expect(unknown.actual == "2 rows", "\(unknown.message)")

        let stored = try Self.events(realpage)
        #expect(try RealPageLedgerWindowTests.fullSyncDrift(realpage, run: "20261120T010000Z-test")
                == ["unified_activity (no key)"])
        #expect(try Self.events(realpage) == stored)
        #expect(try realpage.texts("SELECT agent FROM unified_activity WHERE event_date = '2026-11-08'") == ["Alex Rivera"])
        #expect(try RealPageLedgerWindowTests.fullSyncDrift(realpage, run: "20261120T020000Z-test") == [])
    }

    /// The second night's residents and leases as a load by record leaves them: the first night's rows copied, each
    /// dated by the snapshot that decoded it (`changed_on`), but those of `decoded` (household -> its new move-out
    /// date), whose residents row is decoded anew, and of `gone`, whose rows left both lists; the rows of the first
    /// night not copied are noted with the count of each snapshot (`list_rows_dropped`, `rows_dropped`).
    static func copyLists(_ realpage: RealPageFixture, decoded: [String: String], gone: [String]) throws {
        let database = realpage.raw.database
        for (table, report, household) in [("realpage_residents", "getresidentlistinfo", "household_id"),
                                           ("realpage_leases", "getleaseinfo", "resh_id")] {
            let columns = try database.query("SELECT name FROM pragma_table_info(:t)", [":t": .text(table)])
                .compactMap { $0[0].textValue }
                .filter { !["id", "as_of_date", "changed_on"].contains($0) }.joined(separator: ", ")
            let leaving = gone.map { "'\($0)'" }.joined(separator: ", ")
            try database.execute("""
                INSERT INTO \(table) (as_of_date, changed_on, \(columns))
                SELECT '\(secondNight)', coalesce(changed_on, as_of_date), \(columns) FROM \(table)
                WHERE as_of_date = '\(firstNight)' AND \(household) NOT IN (\(leaving))
                """)
            let replaced = table == "realpage_residents" ? Array(decoded.keys) : []
            let dropped = (replaced + gone).map { "'\($0)'" }.joined(separator: ", ")
            try database.execute("""
                INSERT INTO list_rows_dropped (list, property_id, as_of_date, household_id, lease_id)
                SELECT '\(table)', property_id, '\(secondNight)', \(household), lease_id FROM \(table)
                WHERE as_of_date = '\(firstNight)' AND \(household) IN (\(dropped))
                """)
            try realpage.loaded(report, asOf: secondNight)
            try database.execute("""
                UPDATE loaded_artifacts SET rows_dropped = (
                    SELECT count(*) FROM list_rows_dropped WHERE list = '\(table)' AND as_of_date = '\(secondNight)')
                WHERE report_type = '\(report)' AND as_of_date = '\(secondNight)'
                """)
        }
        for (household, moveOut) in decoded {
            try database.execute("""
                UPDATE realpage_residents SET changed_on = NULL, move_out_date = '\(moveOut)', lease_status = 'Former'
                WHERE as_of_date = '\(secondNight)' AND household_id = '\(household)'
                """)
        }
    }

    /// A night whose report events go by day computes the resident events of the households whose rows moved since
    /// the lists the last sync read (h2 moved out, h4 left both lists) and of those with an event dated since its
    /// property date (h3 moves in on 11-15), and no other household's: h1's row altered in unified.db stays altered.
    /// A full sync of the same raw data gives the same rows but the altered one, which it names.
    @Test func aNightComputesTheResidentEventsOfTheHouseholdsThatMoved() throws {
        let realpage = try Self.householdNights()
        _ = try realpage.rows("UPDATE unified_activity SET agent = 'altered' WHERE party_id = 'h1' AND event_type = 'move_in'")
        #expect(try Self.sync(realpage, run: "20261120T000000Z-test").error == nil)
        #expect(try realpage.texts("SELECT household_id FROM event_households ORDER BY 1") == ["h2", "h3", "h4"])
        #expect(try Self.residentEvents(realpage) == Self.secondNightEvents(h1MoveIn: "altered"))
        #expect(try RealPageLedgerWindowTests.fullSyncDrift(realpage, run: "20261120T010000Z-test")
                == ["unified_activity (no key)"])
        #expect(try realpage.texts("SELECT agent FROM unified_activity WHERE party_id = 'h1' AND event_type = 'move_in'") == [nil])
        #expect(try RealPageLedgerWindowTests.fullSyncDrift(realpage, run: "20261120T020000Z-test") == [])
    }

    /// The same night computes the residents, leases and lease members of those households alone (the RPX ledger is
    /// read, so no rule reads those twins whole), and of a household none of whose rows moved but whose lease the
    /// property date made month-to-month (h5's ends on 11-15): h1's altered rows stay altered, h2's move-out and h4's
    /// leaving are written; a full sync of the same raw data gives the same rows but h1's three, which it names.
    @Test func aNightComputesThePeopleOfTheHouseholdsThatMoved() throws {
        let realpage = try Self.householdNights(endingLease: "2026-11-15")
        try Self.alterH1(realpage)
        #expect(try realpage.texts("SELECT lease_id FROM unified_leases WHERE is_month_to_month = 1") == [])
        #expect(try Self.sync(realpage, run: "20261120T000000Z-test").error == nil)
        #expect(try realpage.texts("SELECT household_id FROM event_households ORDER BY 1") == ["h2", "h3", "h4", "h5"])
        #expect(try realpage.texts("SELECT lease_id FROM unified_leases WHERE is_month_to_month = 1") == ["lh5"])
        #expect(try realpage.texts("SELECT lease_id FROM unified_leases ORDER BY 1") == ["lh1", "lh2", "lh3", "lh5"])
        #expect(try realpage.texts("SELECT resident_id || ' ' || status FROM unified_residents ORDER BY 1")
                == ["h1 current", "h2 former", "h3 current", "h5 current"])
        #expect(try realpage.texts("SELECT role FROM unified_lease_residents WHERE lease_id = 'lh1'") == ["occupant"])
        #expect(try realpage.texts("SELECT email FROM unified_residents WHERE resident_id = 'h1'") == ["altered"])
        #expect(try RealPageLedgerWindowTests.fullSyncDrift(realpage, run: "20261120T010000Z-test")
                == ["unified_lease_residents lease_id='lh1' resident_id='h1'", "unified_leases lease_id='lh1'",
                    "unified_residents resident_id='h1'"])
        #expect(try realpage.texts("SELECT role FROM unified_lease_residents WHERE lease_id = 'lh1'") == ["head"])
        #expect(try RealPageLedgerWindowTests.fullSyncDrift(realpage, run: "20261120T020000Z-test") == [])
    }

    /// A household id with a `-` in the marked residents snapshot (h4's, gone tonight) could be read off a member's
    /// resident_id (`household-member`) wrongly: the residents are computed whole that night (h1's altered row is
    /// written again), the leases still by household.
    @Test func aDashedHouseholdComputesEveryResident() throws {
        let realpage = try Self.householdNights(endingLease: "2026-11-15")
        try realpage.raw.database.execute("""
            UPDATE realpage_residents SET household_id = 'h-4' WHERE household_id = 'h4' AND as_of_date = '\(Self.firstNight)'
            """)
        try Self.alterH1(realpage)
        #expect(try Self.sync(realpage, run: "20261120T000000Z-test").error == nil)
        #expect(try realpage.texts("SELECT email FROM unified_residents WHERE resident_id = 'h1'") == [nil])
        #expect(try realpage.texts("SELECT role FROM unified_lease_residents WHERE lease_id = 'lh1'") == ["occupant"])
    }

    /// A member RPX sends without a ResidentMemberID is keyed by its place in the list (`h1-row3`): when the household
    /// listed before it leaves, a load by record copies its rows unchanged one place up, and its resident_id becomes
    /// `h1-row2`. The night computes h1 although none of its rows moved, and its rows are a full sync's.
    @Test func aMemberKeyedByItsPlaceComputesItsHousehold() throws {
        let realpage = try RealPageFixture()
        func night(_ asOf: String) throws {
            try realpage.loadedEverything(asOf: asOf)
            try realpage.site(sysDate: asOf, asOf: asOf)
            try realpage.loaded("getresidentledger", asOf: asOf)
            for unit in ["1400", "1401"] { try realpage.unit(unit, .occupied, asOf: asOf) }
        }
        let first = Self.firstNight
        try night(first)
        try realpage.resident(household: "h0", unit: "1400", status: "Current", lease: "lh0", last: "Roe",
                              moveIn: "2025-01-01", asOf: first)
        try realpage.resident(household: "h1", unit: "1401", status: "Current", lease: "lh1", last: "Lee",
                              moveIn: "2024-03-01", asOf: first)
        try realpage.resident(household: "h1", member: "unnamed", unit: "1401", status: "Current", lease: "lh1",
                              head: false, first: "Bo", last: "Lee", moveIn: "2024-03-01", asOf: first)
        try realpage.raw.database.execute("UPDATE realpage_residents SET resident_member_id = NULL WHERE resident_member_id = 'unnamed'")
        try realpage.lease("lh0", household: "h0", unit: "1400", signed: "2024-12-01", asOf: first)
        try realpage.lease("lh1", household: "h1", unit: "1401", signed: "2024-02-01", asOf: first)
        #expect(try Self.sync(realpage, run: "20261110T000000Z-test").error == nil)
        #expect(try realpage.texts("SELECT resident_id FROM unified_residents ORDER BY 1") == ["h0", "h1", "h1-row3"])

        try night(Self.secondNight)
        try Self.copyLists(realpage, decoded: [:], gone: ["h0"])
        for table in ["realpage_residents", "realpage_leases"] {
            try realpage.raw.database.execute("""
                UPDATE \(table) SET source_row = source_row - 1 WHERE as_of_date = '\(Self.secondNight)'
                """)
        }
        #expect(try Self.sync(realpage, run: "20261120T000000Z-test").error == nil)
        #expect(try realpage.texts("SELECT household_id FROM event_households ORDER BY 1") == ["h0", "h1"])
        #expect(try realpage.texts("SELECT resident_id FROM unified_residents ORDER BY 1") == ["h1", "h1-row2"])
        #expect(try RealPageLedgerWindowTests.fullSyncDrift(realpage, run: "20261120T010000Z-test") == [])
    }

    /// h1's lease, its member row and its resident row altered in unified.db.
    static func alterH1(_ realpage: RealPageFixture) throws {
        _ = try realpage.rows("UPDATE unified_leases SET rent_amount = 999 WHERE lease_id = 'lh1'")
        _ = try realpage.rows("UPDATE unified_lease_residents SET role = 'occupant' WHERE lease_id = 'lh1'")
        _ = try realpage.rows("UPDATE unified_residents SET email = 'altered' WHERE resident_id = 'h1'")
    }

    /// A leases snapshot written since without its dropped rows noted (decoded whole: another build, a reload) makes
    /// the night compute every household's events: h1's altered row is written again.
    @Test func aListDecodedWholeSinceComputesEveryHousehold() throws {
        let realpage = try Self.householdNights()
        try realpage.raw.database.execute("""
            UPDATE loaded_artifacts SET rows_dropped = NULL WHERE report_type = 'getleaseinfo' AND as_of_date = '\(Self.secondNight)'
            """)
        _ = try realpage.rows("UPDATE unified_activity SET agent = 'altered' WHERE party_id = 'h1' AND event_type = 'move_in'")
        #expect(try Self.sync(realpage, run: "20261120T000000Z-test").error == nil)
        #expect(try Self.residentEvents(realpage) == Self.secondNightEvents(h1MoveIn: "-"))
    }

    /// The property's resident events, one line each: household, date, type, agent ("-" for none).
    static func residentEvents(_ realpage: RealPageFixture) throws -> [String] {
        try realpage.rows("""
            SELECT party_id, event_date, event_type, coalesce(agent, '-') FROM unified_activity
            WHERE party_id IS NOT NULL ORDER BY 1, 2, 3
            """).map { $0.map { $0.textValue ?? "" }.joined(separator: " ") }
    }

    /// `householdNights`' events after its second night, h1's move-in with the agent `h1MoveIn`.
    static func secondNightEvents(h1MoveIn: String) -> [String] {
        ["h1 2024-02-01 lease_signed -", "h1 2024-03-01 move_in \(h1MoveIn)",
         "h2 2024-02-01 lease_signed -", "h2 2024-04-01 move_in -", "h2 2026-11-18 move_out -",
         "h3 2024-02-01 lease_signed -", "h3 2026-11-15 move_in -"]
    }

    /// Four households synced on the first night (h3 moving in on 11-15); the second night's lists as a load by
    /// record leaves them, h2 moved out and h4 gone (`copyLists`), not synced yet. `endingLease`: a fifth household,
    /// h5, whose lease ends that day, no row of it moving, and each night an RPX ledger loaded (empty).
    static func householdNights(endingLease: String? = nil) throws -> RealPageFixture {
        let realpage = try RealPageFixture()
        func household(_ id: String, _ unit: String, moveIn: String, name: String, end: String? = nil,
                       asOf: String) throws {
            try realpage.unit(unit, .occupied, asOf: asOf)
            try realpage.resident(household: id, unit: unit, status: "Current", lease: "l\(id)", last: name, moveIn: moveIn,
                                  asOf: asOf)
            try realpage.lease("l\(id)", household: id, unit: unit, signed: "2024-02-01", end: end, asOf: asOf)
        }
        for night in [Self.firstNight, Self.secondNight] {
            try realpage.loadedEverything(asOf: night)
            try realpage.site(sysDate: night, asOf: night)
            if endingLease != nil { try realpage.loaded("getresidentledger", asOf: night) }
            if night == Self.firstNight {
                try household("h1", "1401", moveIn: "2024-03-01", name: "Lee", asOf: night)
                try household("h2", "1402", moveIn: "2024-04-01", name: "Ng", asOf: night)
                try household("h3", "1403", moveIn: "2026-11-15", name: "Kim", asOf: night)
                try household("h4", "1404", moveIn: "2025-01-01", name: "Roe", asOf: night)
                if let endingLease {
                    try household("h5", "1405", moveIn: "2025-01-01", name: "Poe", end: endingLease, asOf: night)
                }
                #expect(try Self.sync(realpage, run: "20261110T000000Z-test").error == nil)
            } else {
                for unit in ["1401", "1402", "1403", "1404"] + (endingLease == nil ? [] : ["1405"]) {
                    try realpage.unit(unit, .occupied, asOf: night)
                }
                try Self.copyLists(realpage, decoded: ["h2": "2026-11-18"], gone: ["h4"])
            }
        }
        return realpage
    }

    /// What moves every day makes the night compute every day: the units the report's Bldg/Unit is matched to (unit
    /// 1401 moves to building 02, so `01-1401` of the first night's rows matches no unit any more). And a snapshot
    /// pruned (its rows gone) moves the days it held. Either way the rows are a full sync's.
    @Test func aChangeOfUnitsOrAPrunedSnapshotComputesTheDaysItMoves() throws {
        let moved = try Self.firstNight()
        try Self.night(moved, Self.secondNight, building: "02")
        try Self.secondReport(moved)
        #expect(try Self.sync(moved, run: "20261120T000000Z-test").error == nil)
        #expect(try moved.texts("SELECT DISTINCT unit_number FROM unified_activity WHERE party_id IS NULL") == ["01-1401"])
        #expect(try RealPageLedgerWindowTests.fullSyncDrift(moved, run: "20261120T010000Z-test") == [])

        let pruned = try Self.firstNight()
        try Self.night(pruned, Self.secondNight)
        try Self.secondReport(pruned)
        try pruned.raw.database.execute("""
            DELETE FROM realpage_activity WHERE as_of_date = '\(Self.firstNight)' AND activity_date = '2026-11-09'
            """)
        #expect(try Self.sync(pruned, run: "20261120T000000Z-test").error == nil)
        #expect(try pruned.texts("SELECT event_type FROM unified_activity WHERE party_name = 'Kim, Jo'") == ["lead"])
        #expect(try RealPageLedgerWindowTests.fullSyncDrift(pruned, run: "20261120T010000Z-test") == [])
    }
}
