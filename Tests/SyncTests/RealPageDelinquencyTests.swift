import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// unified_delinquency: the Delinquent and Prepaid report's own aging, one row per resident account.
@Suite struct RealPageDelinquencyTests {
    @Test func eachAccountIsCopiedWithItsAgingAndAStableResidentID() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("1230", .occupied)
        try realpage.resident(household: "25200110", unit: "1230", status: "Current", first: "Diego", last: "Anderson",
                              moveIn: "2025-01-01")
        try realpage.resident(household: "25200112", unit: "1230", status: "Former", first: "Brian", last: "Hall",
                              moveIn: "2022-01-01", moveOut: "2024-12-31")
        try realpage.delinquency("1101", residentID: "25200001", name: "Ramirez, Laura", balance: 6117.81,
                                 aging: [2626, 2626, 865.81, 0])
        try realpage.delinquency("1120", residentID: "25200039", name: "Hernandez, Donna", balance: -70, prepaid: 70)
        try realpage.delinquency("1230", residentID: "25200110", name: "Anderson, Diego", status: "Notice",
                                 balance: -50, prepaid: -50)
        // No Resh ID: the RPX household on the unit with that name, else unit/name.
        try realpage.delinquency("1230", residentID: nil, name: "Hall,  Brian", status: "Former resident",
                                 balance: 2831.84, aging: [0, 0, 0, 2831.84])
        try realpage.delinquency("1305", residentID: " ", name: "Hill, Betty", status: "Former resident",
                                 balance: 140, aging: [140, 0, 0, 0])
        // One household printed twice: added up.
        try realpage.delinquency("1305", residentID: " ", name: "Hill, Betty", status: "Former resident",
                                 balance: 10.01, aging: [10.01, 0, 0, 0])
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil)

        let rows = try realpage.keyed("""
            SELECT resident_id, as_of_date, unit_number, name, resident_status, current_balance, balance_0_30,
                   balance_31_60, balance_61_90, balance_over_90, prepaid, source
            FROM unified_delinquency
            """)
        #expect(rows.keys.sorted() == ["1305/Hill, Betty", "25200001", "25200039", "25200110", "25200112"])
        #expect(rows["25200001"] == [.text("2026-11-20"), .text("1101"), .text("Ramirez, Laura"), .text("current"),
                                     .real(6117.81), .real(2626), .real(2626), .real(865.81), .real(0), .real(0),
                                     .text(RealPageDelinquency.source)])
        #expect(rows["25200039"]?[4...9] == [.real(-70), .real(0), .real(0), .real(0), .real(0), .real(70)])
        #expect(rows["25200110"]?[3] == .text("notice"))
        #expect(rows["25200110"]?[9] == .real(50), "prepaid is a positive amount")
        #expect(rows["25200112"]?[3...4] == [.text("former"), .real(2831.84)])
        #expect(rows["1305/Hill, Betty"]?[4...5] == [.real(150.01), .real(150.01)])
        let total = try realpage.rows("SELECT round(sum(current_balance), 2) FROM unified_delinquency").first?.first?.doubleValue
        #expect(total == 8979.66)
    }

    @Test func theReportIsReadAtTheLatestSnapshotOnOrBeforeThePropertyDate() throws {
        let realpage = try RealPageFixture()
        try realpage.site(sysDate: "2026-11-20")
        try realpage.rentRoll("101", "Occupied")
        try realpage.delinquency("101", residentID: "1", name: "Lee, Ann", balance: 100, aging: [100, 0, 0, 0], asOf: "2026-11-19")
        try realpage.delinquency("101", residentID: "1", name: "Lee, Ann", balance: 200, aging: [200, 0, 0, 0], asOf: "2026-11-22")
        #expect(realpage.sync().first?.error == nil)
        #expect(try realpage.rows("SELECT as_of_date, current_balance FROM unified_delinquency")
                    == [[.text("2026-11-20"), .real(100)]])
        let warning = try #require(try realpage.texts("""
            SELECT message FROM unified_sync_warnings WHERE check_name = 'snapshot' AND subject = 'delinquency'
            """).first ?? nil)
        #expect(warning.contains("2026-11-19") && warning.contains("2026-11-20"))
    }
}
