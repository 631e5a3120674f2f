import Foundation
import OwnerDashCore
import RawStore
import SimulatorSupport
import SQLiteKit
@testable import Sync
import Testing

/// unified_activity: prospect events from the Activity report, resident events from RPX (one source per event type).
@Suite struct RealPageActivityTests {
    /// event_type counts of the property's unified_activity.
    static func counts(_ realpage: RealPageFixture, where condition: String = "1") throws -> [String: Int64] {
        Dictionary(uniqueKeysWithValues: try realpage.rows("""
            SELECT event_type, count(*) FROM unified_activity WHERE \(condition) GROUP BY event_type
            """).map { ($0[0].textValue ?? "", $0[1].integerValue ?? 0) })
    }

    @Test func everyActivityTypeMapsToOneEventTypeAndAVisitIsALeadAndATour() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.site(sysDate: "2026-11-20")
        try realpage.unit("1401", .occupied)
        let types: [(String, [String])] = [
            ("E-mail", ["lead"]), ("Phone call", ["lead"]), ("Internet", ["lead"]), ("Text message", ["lead"]),
            ("Text Conversation", ["lead"]), ("Fax/Letter", ["lead"]), ("Visit", ["lead", "tour"]),
            ("Visit (return)", ["tour"]), ("Videotelephony - Tour", ["tour"]), ("Self-guided - Tour", ["tour"]),
            ("Pre-recorded - Tour", ["tour"]), ("Online Leasing Agreement", ["application"]),
            ("Application Approved", ["approval"]), ("Application Denied", ["denial"]),
            ("Application Canceled", ["cancellation"]), ("Application Cancelled", ["cancellation"]),
            ("Notes", ["other"]), ("Signature", ["other"]),
            // RPX residents are loaded: the report's resident events are kept, as other.
            ("Leased", ["other"]), ("Move-In", ["other"]), ("Move-Out", ["other"]), ("Notice to Vacate", ["other"]),
            ("Renewal Signed", ["other"]),
            ("Carrier Pigeon", ["other"]),
        ]
        for (offset, (type, _)) in types.enumerated() {
            try realpage.activity(RealPageFixture.daysAgo(offset), type, unit: "01-1401", name: "Diaz, Pat \(offset)")
        }
        // A resident row makes RPX the resident-event source.
        try realpage.resident(household: "h1", unit: "1401", status: "Current", moveIn: "2020-01-01")
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil)

        for (offset, (type, expected)) in types.enumerated() {
            let got = try realpage.texts("""
                SELECT event_type FROM unified_activity WHERE party_name = 'Diaz, Pat \(offset)' ORDER BY id
                """)
            #expect(got == expected.map { Optional($0) }, "\(type)")
        }
        let visit = try #require(try realpage.rows("""
            SELECT event_date, pms_event_type, unit_number, source, agent, party_id FROM unified_activity
            WHERE party_name = 'Diaz, Pat 6' AND event_type = 'tour'
            """).first)
        #expect(visit == [.text(RealPageFixture.daysAgo(6)), .text("Visit"), .text("1401"), .text("Zillow"),
                          .text("Alex Rivera"), .null])
        let unknown = try #require(outcome.warnings.first { $0.check == "activity_type" })
        #expect(unknown.subject == "Carrier Pigeon")
        #expect(unknown.message.contains("rp_test") && unknown.message.contains("Carrier Pigeon"))
    }

    @Test func residentEventsComeFromRPXHistoryNotTheReport() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.unit("102", .notice("2026-12-20"))
        // A household that came and went two years ago, one that moved in this month, one on notice, one future.
        try realpage.resident(household: "h0", unit: "101", status: "Former", lease: "L0", moveIn: "2023-02-01",
                              moveOut: "2024-12-15", noticeGiven: "2024-11-01", noticeFor: "2024-12-15",
                              begin: "2024-02-01", end: "2025-01-31", signed: "2024-01-05")
        try realpage.resident(household: "h1", unit: "101", status: "Current", lease: "L1", moveIn: "2026-11-03")
        try realpage.resident(household: "h1", member: "h1-co", unit: "101", status: "Current", lease: "L1", head: false)
        try realpage.resident(household: "h2", unit: "102", status: "Current", lease: "L2b", type: "Notice given - move out",
                              moveIn: "2025-06-01", moveOut: "2026-12-20", noticeGiven: "2026-11-05", noticeFor: "2026-12-20")
        try realpage.resident(household: "h3", unit: "101", status: "Applicant - Lease Signed", lease: "L3",
                              moveIn: "2026-12-21")
        try realpage.lease("L1", household: "h1", unit: "101", signed: "2026-10-20", begin: "2026-11-03", end: "2027-11-02")
        try realpage.lease("L2a", household: "h2", unit: "102", status: "Current - Past", signed: "2025-05-20",
                           begin: "2025-06-01", end: "2026-05-31")
        try realpage.lease("L2b", household: "h2", unit: "102", type: "Notice given - move out", prior: "L2a",
                           signed: "2026-04-15", begin: "2026-06-01", end: "2027-05-31")
        try realpage.lease("L3", household: "h3", unit: "101", status: "Applicant", signed: "2026-11-12",
                           begin: "2026-12-21", end: "2027-12-20")
        try realpage.lease("L9", household: "h9", unit: "109", status: "Applicant", signed: "2026-11-25")  // after the date
        // The report's rows for the same events are not counted again.
        try realpage.activity("2026-11-03", "Move-In", unit: "01-101")
        try realpage.activity("2026-11-05", "Notice to Vacate", unit: "01-102")
        try realpage.activity("2026-11-12", "Leased", unit: "01-101")
        #expect(realpage.sync().first?.error == nil)

        let events = try realpage.rows("""
            SELECT event_date, event_type, pms_event_type, unit_number, party_id FROM unified_activity
            WHERE event_type <> 'other' ORDER BY event_date, event_type
            """).map { $0.map { $0.textValue ?? "-" }.joined(separator: " ") }
        #expect(events == [
            "2023-02-01 move_in moveindate 101 h0",
            "2024-01-05 renewal leasesigneddate 101 h0",
            "2024-11-01 notice noticegivendate 101 h0",
            "2024-12-15 move_out moveoutdate 101 h0",
            "2025-05-20 lease_signed LeaseSignedDate 102 h2",
            "2025-06-01 move_in moveindate 102 h2",
            "2026-04-15 renewal LeaseSignedDate 102 h2",
            "2026-10-20 lease_signed LeaseSignedDate 101 h1",
            "2026-11-03 move_in moveindate 101 h1",
            "2026-11-05 notice noticegivendate 102 h2",
            "2026-11-12 lease_signed LeaseSignedDate 101 h3",
        ])
        #expect(try Self.counts(realpage, where: "event_type = 'other'") == ["other": 3])
    }

    @Test func withoutRPXResidentsTheReportGivesTheResidentEvents() throws {
        let realpage = try RealPageFixture()
        try realpage.loaded("rent_roll")
        try realpage.loaded("activity")
        try realpage.rentRoll("101", "Occupied")
        try realpage.activity("2026-11-03", "Move-In", unit: "101")
        try realpage.activity("2026-11-04", "Move-Out", unit: "101")
        try realpage.activity("2026-11-05", "Notice to Vacate", unit: "101")
        try realpage.activity("2026-11-06", "Renewal Signed", unit: "101")
        try realpage.activity("2026-11-07", "Leased", unit: "101")
        #expect(realpage.sync().first?.error == nil)
        #expect(try Self.counts(realpage) == ["move_in": 1, "move_out": 1, "notice": 1, "renewal": 1, "lease_signed": 1])
    }

    /// A type the vocabulary lacks is `other` on every day, also on a day a Leasing Activity Detail covers without RPX
    /// residents, where the report's contact rows give way to the detail's (the vocabulary read through a join once
    /// lost such a row there: its type matched nothing, and NULL failed the day's test).
    @Test func anUnknownTypeIsOtherAlsoOnADayTheLeasingActivityDetailCovers() throws {
        let realpage = try RealPageFixture()
        try realpage.loaded("rent_roll")
        try realpage.loaded("activity")
        try realpage.loaded("leasing_activity_detail")
        try realpage.rentRoll("101", "Occupied")
        try realpage.activity("2026-11-10", "Chat", name: "A")
        try realpage.activity("2026-11-10", "E-mail", name: "B")
        try realpage.insert("realpage_leasing_activity_detail", [
            "contact_date": .text("2026-11-10"), "contact_type": .text("E-mail"), "prospect_name": .text("B"),
            "initial_contact_type": .text("E-mail"), "leases": .integer(0),
        ])
        #expect(realpage.sync().first?.error == nil)
        #expect(try realpage.texts("""
            SELECT event_type || ' ' || pms_event_type || ' ' || party_name FROM unified_activity ORDER BY party_name
            """) == ["other Chat A", "lead E-mail B"])
        #expect(try realpage.texts("SELECT subject FROM unified_sync_warnings WHERE check_name = 'activity_type'") == ["Chat"])
    }

    @Test func overlappingActivitySnapshotsReadEachDayFromTheNewestThatCoversIt() throws {
        let realpage = try RealPageFixture()
        try realpage.rentRoll("101", "Occupied")
        // Loaded on the 18th: 30 days to the 18th (two e-mails on the 17th, one on the 18th).
        try realpage.activity("2026-10-20", "E-mail", name: "A", asOf: "2026-11-18")
        try realpage.activity("2026-11-17", "E-mail", name: "B", asOf: "2026-11-18")
        try realpage.activity("2026-11-17", "E-mail", name: "C", asOf: "2026-11-18")
        try realpage.activity("2026-11-18", "E-mail", name: "D", asOf: "2026-11-18")
        // Loaded on the 20th: its first activity is on the 17th (one e-mail since deleted in OneSite).
        try realpage.activity("2026-11-17", "E-mail", name: "B", asOf: "2026-11-20")
        try realpage.activity("2026-11-18", "E-mail", name: "D", asOf: "2026-11-20")
        try realpage.activity("2026-11-20", "E-mail", name: "E", asOf: "2026-11-20")
        // Loaded on the 21st, after the property date: not read.
        try realpage.activity("2026-11-21", "E-mail", name: "F", asOf: "2026-11-21")
        try realpage.site(sysDate: "2026-11-20")
        #expect(realpage.sync().first?.error == nil)
        #expect(try realpage.texts("SELECT party_name FROM unified_activity ORDER BY event_date, party_name")
                    == ["A", "B", "D", "E"])
    }

    /// The real Leasing Activity Detail of The Northern (01/12-02/12/2026), synced with no RPX and no Activity report:
    /// its rows counting a lease are the signed leases (its Totals for Property print Leases 13), its Cancelled/Denied
    /// marks are not; with RPX residents the leases would be RPX's and these rows `other`.
    @Test func theRealLeasingActivityDetailsLeasesAreTheSignedLeasesWithoutRPX() throws {
        let realpage = try RealPageFixture()
        let outcome = try #require(try realpage.syncRealNorthern(["Leasing_Activity_Detail_Report.xls"]))
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        #expect(try Self.counts(realpage)["lease_signed"] == 13)
        // Neither RPX unitlist nor a Rent Roll: no units, said once for the metrics to repeat (as Yardi's).
        #expect(try realpage.texts("SELECT message FROM unified_sync_warnings WHERE check_name = 'units_missing'")
                    == [RealPageCrossChecks.unitsMissing])
        #expect(try realpage.rows("""
            SELECT count(*) FROM unified_activity WHERE event_type = 'other' AND pms_event_type = 'Cancelled/Denied'
            """) == [[.integer(2)]])
    }
}

/// Prune drops the Activity rows no sync reads (days a newer snapshot covers) from the snapshots it does not keep
/// whole: the answers stay the same.
@Suite struct WindowedActivityPruneTests {
    @Test func pruningCoveredDaysOfOldSnapshotsLeavesTheUnifiedActivityAsItWas() throws {
        let realpage = try RealPageFixture()
        try realpage.rentRoll("101", "Occupied")
        // Twenty nightly snapshots, each with its 30 days (a prospect a day; "Q" e-mailed on the 1st and again on the
        // 25th of October, so the lead dates from an early snapshot alone) and the property date on the last.
        for night in 1...20 {
            let asOf = LocalDate(iso: "2026-11-01")!.adding(days: night - 1)
            for back in 0..<30 {
                let day = asOf.adding(days: -back)
                try realpage.activity(day.iso, back % 3 == 0 ? "Visit" : "E-mail", name: "P \(day.iso)", asOf: asOf.iso)
            }
            if asOf.iso <= "2026-10-31" || night == 1 {
                try realpage.activity("2026-10-03", "E-mail", name: "Q", asOf: asOf.iso)
            }
            try realpage.activity("2026-10-25", "Phone call", name: "Q", asOf: asOf.iso)
            // The report's printed totals of each night: the checks read the newest snapshot's only.
            try realpage.raw.database.prepare("""
                INSERT INTO loaded_report_totals (report_type, property_id, as_of_date, run_id, artifact_sha256, source_row,
                                                  label, measure, printed, computed)
                VALUES ('activity', 'rp_test', :as_of, 'run', 'sha', 999, 'Total', 'contacts', 31, 31)
                """).execute([":as_of": .text(asOf.iso)])
        }
        try realpage.site(sysDate: "2026-11-20")
        #expect(realpage.sync().first?.error == nil)
        let events = "SELECT event_date, event_type, party_name FROM unified_activity ORDER BY event_date, party_name, event_type"
        let before = try realpage.rows(events)
        let rowsBefore = try realpage.rows("SELECT count(*) FROM realpage_raw.realpage_activity").first?.first?.integerValue ?? 0

        let result = try RawRetention.prune(path: realpage.raw.database.path, keyColumn: "report_type",
                                            policy: RawSnapshotPolicy(keepDays: 3, keepMonthly: 1), dryRun: false)
        let rowsAfter = try realpage.rows("SELECT count(*) FROM realpage_raw.realpage_activity").first?.first?.integerValue ?? 0
        #expect(rowsBefore - rowsAfter + 17 == Int64(result.rows) && result.rows > 400,
                "the 17 snapshots not kept lose the days the next one covers: \(rowsBefore) -> \(rowsAfter)")
        #expect(try realpage.rows("SELECT as_of_date FROM realpage_raw.loaded_report_totals ORDER BY 1")
                    == ["2026-11-18", "2026-11-19", "2026-11-20"].map { [.text($0)] },
                "the 17 snapshots not kept lose their printed totals (row counted); the 3 kept keep theirs")
        #expect(realpage.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try realpage.rows(events) == before)
        #expect(try realpage.rows("SELECT event_type FROM unified_activity WHERE party_name = 'Q' ORDER BY event_date")
                    == [[.text("lead")], [.text("other")]], "Q's first contact is still the 3rd of October")
    }

    /// Each Activity report snapshot is read from its first day to the first day a newer one holds, a range of
    /// realpage_activity_by_day (raw migration 56), not every row it kept (the newest two weeks stay whole); and each
    /// snapshot's first day off that index alone.
    @Test func eachSnapshotsDaysAreReadByARangeOfTheDayIndex() throws {
        let realpage = try RealPageFixture()
        let plan = try realpage.rows("""
            EXPLAIN QUERY PLAN WITH \(RealPageActivity.activityRows) SELECT * FROM activity
            """).compactMap { $0[3].textValue }
        #expect(plan.contains { $0.contains("realpage_activity_by_day") && $0.contains("activity_date<?") }, "\(plan)")
        #expect(plan.contains { $0.contains("COVERING INDEX realpage_activity_by_day") }, "\(plan)")
        #expect(plan.contains { $0.contains("COVERING INDEX realpage_leasing_activity_detail_by_day") }, "\(plan)")
    }
}
