import Foundation
import OwnerDashCore
import Metrics
import RawStore
import SimulatorSupport
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
    /// An account printed without code rows whose columns add up to its net balance (credit netted into them, as the
    /// real report does per code) cannot be aged from its codes: kept as printed, and said.
    @Test func anAccountWhoseAgingIsNetOfItsCreditWithoutCodeRowsIsWarnedAbout() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.delinquency("516", residentID: "25200516", name: "Lee, Ann", balance: 30.75,
                                 aging: [13, 17.75, 0, 0], prepaid: 6.95)
        try realpage.delinquency("1101", residentID: "25200001", name: "Ramirez, Laura", balance: 100,
                                 aging: [100, 0, 0, 0])
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil)
        let aging = outcome.warnings.filter { $0.check == "delinquency_aging" }
        #expect(aging.map(\.subject) == ["unit 516 row 1"])
        #expect(aging.first?.message.contains("unit 516 (Lee, Ann, row 1): the aging buckets add up to 30.75, what the "
            + "account owes (Net Balance + Total Prepaid) is 37.70; its buckets are kept as printed (no code rows)") == true,
                "\(aging)")
        #expect(try realpage.rows("SELECT balance_0_30, balance_31_60 FROM unified_delinquency WHERE unit_number = '516'")
            == [[.real(13), .real(17.75)]])
    }

    /// A former account the Collections Report lists is marked as it is (In Coll.) and named from it when the
    /// Delinquent and Prepaid report hides the name: matched by unit and standing, then by name or, hidden, by balance;
    /// the latest report listing the account wins; an account no report lists, or two alike, stays unknown.
    @Test func formerAccountsTakeTheCollectionsReportsMarkAndName() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        func collection(_ unit: String, _ name: String, status: String = "Former Resident", ending: Double,
                        inCollections: Int64, asOf: String = RealPageFixture.asOf) throws {
            try realpage.loaded("collections", asOf: asOf)
            try realpage.insert("realpage_collections", [
                "unit_number": .text(unit), "resident_name": .text(name), "status": .text(status),
                "ending_balance": .real(ending), "in_collections": .integer(inCollections),
                "under_payment_agreement": .integer(0),
            ], asOf: asOf)
        }
        // Name hidden: matched by unit, standing and balance (a current account of the unit is not the former one).
        try realpage.delinquency("101", residentID: nil, name: "", status: "Former resident", balance: 900,
                                 aging: [0, 0, 0, 900])
        try realpage.delinquency("101", residentID: nil, name: "", balance: 50, aging: [50, 0, 0, 0])
        try collection("101", "Lee, Ann", ending: 900, inCollections: 1)
        // Name printed: matched by name (case and blanks ignored), whatever the balance; the later listing wins.
        try realpage.delinquency("102", residentID: nil, name: "Ito, Ken", status: "Former applicant", balance: 342)
        try collection("102", "ITO,  Ken", status: "Former Applicant", ending: 400, inCollections: 1,
                       asOf: RealPageFixture.daysAgo(40))
        try collection("102", "ito, ken", status: "Former Applicant", ending: 342, inCollections: 0)
        // Two former accounts of one unit with the same balance: which is which is not known.
        try realpage.delinquency("103", residentID: nil, name: "", status: "Former resident", balance: 75)
        try collection("103", "Diaz, Pat", ending: 75, inCollections: 1)
        try collection("103", "Diaz, Sam", ending: 75, inCollections: 0)
        // A listing dated after the delinquency's is not read.
        try realpage.delinquency("104", residentID: nil, name: "", status: "Former resident", balance: 60)
        try collection("104", "Hall, Brian", ending: 60, inCollections: 1, asOf: "2026-11-25")
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        let marked = try realpage.rows("""
            SELECT unit_number, resident_status, name, in_collections FROM unified_delinquency
            ORDER BY unit_number, current_balance
            """)
        #expect(marked == [
                [.text("101"), .text("current"), .null, .null],
                [.text("101"), .text("former"), .text("Lee, Ann"), .integer(1)],
                [.text("102"), .text("Former applicant"), .text("Ito, Ken"), .integer(0)],
                [.text("103"), .text("former"), .null, .null],
                [.text("104"), .text("former"), .null, .null],
            ], "\(marked)")
    }

    /// The real Collections Report of The Northern beside its Delinquent and Prepaid report (names hidden there): the
    /// three accounts it marks In Coll. are marked and named, the two it lists as not are 0, every other account NULL.
    @Test func theRealCollectionsReportMarksThreeOfTheNorthernsFormerAccounts() throws {
        let realpage = try RealPageFixture()
        let outcome = try #require(try realpage.syncRealNorthern([
            "Delinquent_and_Prepaid_Report__3_.xls", "Collections_Report__3_.xls"]))
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        #expect(try realpage.rows("""
            SELECT unit_number, name, current_balance, in_collections FROM unified_delinquency
            WHERE in_collections IS NOT NULL ORDER BY unit_number
            """) == [
                [.text("1012"), .text("Fry, Haynes"), .real(14834.46), .integer(1)],
                [.text("1431"), .text("Hicks, Miles"), .real(1093.85), .integer(0)],
                [.text("1610"), .text("Valenzuela, Katrina"), .real(342), .integer(1)],
                [.text("632"), .text("Hurley, Tammy"), .real(140.04), .integer(1)],
                [.text("826"), .text("Fitzpatrick, Kristi"), .real(342), .integer(0)],
            ])
    }

    /// The real Delinquent and Prepaid report of The Northern (Tests/Fixtures/real-onesite), loaded as a user loads
    /// it and synced: its aging columns are net of credits (they add up to each account's Net Balance), and the
    /// delinquency the query answers is the report's printed Grand Totals, not the prepaid taken off twice.
    @Test func theRealReportAnswersItsPrintedGrandTotals() throws {
        let realpage = try RealPageFixture()
        let outcome = try #require(try realpage.syncRealNorthern(["Delinquent_and_Prepaid_Report__3_.xls"]))
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        #expect(!outcome.warnings.contains { $0.check == "delinquency_aging" },
                "every account's owed aging adds up to Net Balance + prepaid")

        let report = try Metrics.delinquency(database: realpage.store.database, properties: ["the_northern"], top: 1)
        let row = try #require(report.properties.first)
        // Grand Totals: Total Delinquent 104,579.35, Total Prepaid -200,846.88, Net Balance -96,267.53;
        // Resident Count: delinquent 164.
        #expect(row.delinquent == Money(cents: 10_457_935))
        #expect(row.prepaid == Money(cents: 20_084_688))
        #expect(row.net == Money(cents: -9_626_753))
        #expect(row.residentsDelinquent == 164)
        // Unit 609: PARKING 94.98 owed in Current, SEWER and WATER -64.23 of credit in 30 Days.
        #expect(try realpage.rows("""
            SELECT current_balance, balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid
            FROM unified_delinquency WHERE unit_number = '609'
            """) == [[.real(30.75), .real(94.98), .real(0), .real(0), .real(0), .real(64.23)]])
        // The legend's `*` alone in the name column (four former residents): marked under eviction, nobody named `*`.
        #expect(try realpage.rows("""
            SELECT unit_number, name FROM unified_delinquency WHERE under_eviction = 1 ORDER BY unit_number
            """) == [["1234", "1429", "905", "934"].map { [.text($0), .null] }].flatMap { $0 })
        #expect(try realpage.rows("SELECT count(*) FROM unified_delinquency WHERE name LIKE '%*%'") == [[.integer(0)]])
        // Without the Collections Report nothing says whether an account is with an agency.
        #expect(try realpage.rows("SELECT count(*) FROM unified_delinquency WHERE in_collections IS NOT NULL")
                    == [[.integer(0)]])
        // No account's buckets below zero: they age what is owed.
        #expect(try realpage.rows("""
            SELECT count(*) FROM unified_delinquency
            WHERE min(balance_0_30, balance_31_60, balance_61_90, balance_over_90) < 0
            """) == [[.integer(0)]])
    }
}
