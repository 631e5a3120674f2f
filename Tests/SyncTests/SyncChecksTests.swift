import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// sync_checks: the unified figures held against the vendor's printed totals, passed, failed or skipped, per sync.
@Suite struct SyncChecksTests {
    /// What the Box Score loader keeps of its `Property Totals` row (and a group total above it, which is not it).
    private func printedBoxScore(_ realpage: RealPageFixture, units: Int, occupied: Int, vacant: Int,
                                 vacantLeased: Int) throws {
        let insert = try realpage.raw.database.prepare("""
            INSERT INTO loaded_report_totals (report_type, property_id, as_of_date, run_id, artifact_sha256, source_row,
                                                label, measure, printed, computed)
            VALUES ('box_score', 'rp_test', '2026-11-20', 'run', 'sha', :row, :label, :measure, :printed, :printed)
            """)
        for (measure, value) in [("units", units), ("occupied units", occupied), ("vacant units", vacant),
                                 ("vacant leased units", vacantLeased)] {
            try insert.execute([":row": .integer(9), ":label": .text("Total 1x1"), ":measure": .text(measure),
                                ":printed": .real(1)])
            try insert.execute([":row": .integer(20), ":label": .text("Property Totals"), ":measure": .text(measure),
                                ":printed": .real(Double(value))])
        }
    }

    private func checks(_ realpage: RealPageFixture) throws -> [String: [SQLValue]] {
        try realpage.keyed("""
            SELECT check_name || ' ' || measure, status, expected, actual, difference, detail, run_id FROM sync_checks
            """)
    }

    @Test func boxScorePropertyTotalsPassWhenTheUnifiedUnitsAgree() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.unit("102", .vacantLeased("2026-12-01"))
        try realpage.unit("103", .vacant)
        try realpage.rentRoll("101", "Occupied")
        try realpage.rentRoll("102", "Vacant-Leased")
        try realpage.rentRoll("103", "Vacant")
        try realpage.boxScore("A1", group: "1x1", occupied: 1, vacant: 1, vacantLeased: 1)
        try printedBoxScore(realpage, units: 3, occupied: 1, vacant: 2, vacantLeased: 1)
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.failedChecks.isEmpty)
        #expect(try checks(realpage)["rent_roll_units units"]?[0] == .text("passed"))
        let rows = try checks(realpage)
        #expect(rows["box_score units"]?[0] == .text("passed"))
        #expect(rows["box_score units"]?[1] == .real(3) && rows["box_score units"]?[2] == .real(3))
        #expect(rows["box_score vacant leased units"]?[0] == .text("passed"))
        #expect(rows["box_score units"]?[5] == .text("20261120T000000Z-test"))
    }

    @Test func aDifferenceFromThePrintedTotalFailsNamingBothFigures() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.unit("102", .occupied)
        try realpage.unit("103", .vacant)
        try realpage.boxScore("A1", group: "1x1", occupied: 2, vacant: 1)
        // RealPage printed 2 units: e.g. a leasing office the unified units wrongly count.
        try printedBoxScore(realpage, units: 2, occupied: 2, vacant: 0, vacantLeased: 0)
        let outcome = try #require(realpage.sync().first)
        let units = try #require(try checks(realpage)["box_score units"])
        #expect(units[0] == .text("failed") && units[3] == .real(1))
        #expect(units[4] == .text("Box Score Property Totals says 2, unified_units 3 (difference 1, tolerance 0)"))
        #expect(outcome.failedChecks.contains(
            "rp_test box_score units: Box Score Property Totals says 2, unified_units 3 (difference 1, tolerance 0)"))
        #expect(try checks(realpage)["box_score occupied units"]?[0] == .text("passed"))
    }

    @Test func aCheckWithoutItsReportIsSkippedWithTheReasonNotPassed() throws {
        let realpage = try RealPageFixture()
        try realpage.site(sysDate: "2026-11-20")
        try realpage.unit("101", .occupied)
        // A Box Score of an earlier day only: nothing to hold the 20th's units against.
        try realpage.boxScore("A1", group: "1x1", occupied: 1, asOf: "2026-11-13")
        realpage.sync()
        let rows = try checks(realpage)
        #expect(rows["box_score units"]?[0] == .text("skipped"))
        #expect(rows["box_score units"]?[4] == .text("no Box Score loaded as of 2026-11-20 (latest 2026-11-13)"))
        #expect(rows["delinquency_totals net balance"]?[0] == .text("skipped"))
        #expect(rows["ledger_open_balance net balance"]?[4] == .text("no tenant ledger"))
    }

    @Test func delinquencyGrandTotalsAreHeldAgainstTheUnifiedBalances() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.delinquency("101", residentID: "1", name: "Lee, Ann", balance: 250.5, aging: [250.5, 0, 0, 0])
        try realpage.delinquency("102", residentID: "2", name: "Diaz, Pat", balance: -100, prepaid: 100)
        let insert = try realpage.raw.database.prepare("""
            INSERT INTO loaded_report_totals (report_type, property_id, as_of_date, run_id, artifact_sha256, source_row,
                                                label, measure, printed, computed)
            VALUES ('delinquency', 'rp_test', '2026-11-20', 'run', 'sha', 40, 'Grand Totals:', :measure, :printed, 0)
            """)
        try insert.execute([":measure": .text("net balance"), ":printed": .real(150.5)])
        try insert.execute([":measure": .text("prepaid"), ":printed": .real(90)])
        realpage.sync()
        let rows = try checks(realpage)
        #expect(rows["delinquency_totals net balance"]?[0] == .text("passed"))
        #expect(rows["delinquency_totals prepaid"]?[0] == .text("failed"))
        #expect(rows["delinquency_totals prepaid"]?[4]
                    == .text("Delinquent and Prepaid Grand Totals says 90, unified_delinquency 100 (difference 10, tolerance 0)"))
    }

    @Test func yardiUnitCountsAreHeldAgainstGetUnitInformation() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.unit("101", "Occupied No Notice", tenant: "t1")
        try yardi.unit("102", "Vacant Unrented Ready")
        try yardi.resident("t1", "Current", unit: "101")
        _ = yardi.sync()
        let rows = try yardi.store.database.query("""
            SELECT status, expected, actual FROM sync_checks WHERE check_name = 'unit_information'
            """)
        #expect(rows == [[.text("passed"), .real(2), .real(2)]])
    }
}
