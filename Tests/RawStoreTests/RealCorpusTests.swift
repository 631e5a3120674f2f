import Foundation
import OwnerDashCore
import Parse
import SQLiteKit
import Testing
@testable import RawStore

/// Real OneSite downloads (Tests/Fixtures/real-onesite), loaded through the same path as `ownerdash load`: the
/// report each is, the property and date it prints, every detail row stored, and its printed totals reconciled.
@Suite struct RealCorpusTests {
    /// The repository registry plus the corpus properties it does not list, placed by their OneSite site numbers.
    static func configuration() throws -> Configuration {
        var configuration = try Configuration.load(
            path: LoaderFixture.repository.appendingPathComponent("report_definitions.json").path)
        let extra = [
            Property(key: "the_northern", name: "The Northern", pms: .realpage, siteID: "5375283"),
            Property(key: "izzy", name: "Izzy", pms: .realpage, siteID: "5618432"),
            Property(key: "the_avant", name: "The Avant", pms: .realpage, siteID: "5480255"),
        ]
        for property in extra where configuration.property(key: property.key) == nil {
            configuration.properties.append(property)
        }
        return configuration
    }

    /// One corpus file loaded into a fresh realpage_raw.db.
    struct Loaded {
        let fixture: LoaderFixture
        let outcome: ReportLoadOutcome

        init(_ name: String) throws {
            fixture = try LoaderFixture()
            let path = LoaderFixture.repository.appendingPathComponent("Tests/Fixtures/real-onesite/\(name)").path
            let loader = ReportFileLoader(store: fixture.store, configuration: try RealCorpusTests.configuration(),
                                          runID: RunID("real-corpus"))
            outcome = try loader.load(path: path)
        }

        /// `SELECT <expression> FROM <table>` (a sum or count) as cents-exact dollars.
        func value(_ expression: String, from table: String, where condition: String = "1") throws -> Double {
            let value = try fixture.store.database.scalar("SELECT round(\(expression), 2) FROM \(table) WHERE \(condition)")
            return value?.doubleValue ?? value.flatMap { $0.integerValue.map(Double.init) } ?? .nan
        }

        func rows(_ table: String, where condition: String = "1") throws -> Int {
            Int(try value("count(*)", from: table, where: condition))
        }
    }

    @Test("Lost Rent Summary (an xlsx named .xls): 348 units, Total: row reconciled, its open fiscal period as of its run")
    func lostRentSummary() throws {
        let loaded = try Loaded("Lost_Rent_Summary_Nexus_East.xls")
        #expect(loaded.outcome.report == .lostRent)
        #expect(loaded.outcome.propertyKey == "nexus_east")
        // Fiscal period 022026, run 2026-02-15T09:50:08: the period's postings up to the run, not its 28th.
        #expect(loaded.outcome.asOf.iso == "2026-02-15")
        #expect(loaded.outcome.rows == 348)
        #expect(loaded.outcome.warnings.isEmpty, "\(loaded.outcome.warnings)")
        #expect(try loaded.rows("realpage_lost_rent") == 348)
        #expect(try loaded.value("sum(market_rent)", from: "realpage_lost_rent") == 565_361)
        #expect(try loaded.value("sum(lease_rent)", from: "realpage_lost_rent") == 545_936)
        #expect(try loaded.value("sum(rent_charged)", from: "realpage_lost_rent") == 527_837)
        #expect(try loaded.value("sum(total_lost_rent)", from: "realpage_lost_rent") == 37_524)
        // The occupied span 01/21/2026-02/19/2026 printed under Days Occupied: 30 days.
        #expect(try loaded.value("max(days_occupied)", from: "realpage_lost_rent") == 30)
    }

    @Test("Monthly Transaction Summary: 46 code rows up to the 935 batch, each section Total: reconciled")
    func monthlyTransactionSummary() throws {
        let loaded = try Loaded("sample_monthly_transaction_summary.xls")
        #expect(loaded.outcome.report == .monthlyTransactionSummary)
        #expect(loaded.outcome.propertyKey == "the_avant")
        #expect(loaded.outcome.asOf.iso == "2026-02-15")
        #expect(loaded.outcome.rows == 46)
        #expect(loaded.outcome.warnings.isEmpty, "\(loaded.outcome.warnings)")
        let table = "realpage_monthly_transactions"
        #expect(try loaded.value("sum(period_amount)", from: table, where: "transaction_group LIKE 'C%'") == 290_516.35)
        #expect(try loaded.value("sum(ytd_amount)", from: table, where: "transaction_group LIKE 'P%'") == 1_218_165.54)
        #expect(try loaded.value("sum(ytd_prior_amount)", from: table, where: "transaction_group LIKE 'O%'") == 900)
        #expect(try loaded.value("count(DISTINCT fiscal_period)", from: table, where: "fiscal_period = '2026-02'") == 1)
    }
}

extension RealCorpusTests {
    @Test("Lease Expiration Detail (Crystal): 61 leases, every month's count and amounts reconciled over page breaks")
    func leaseExpirationDetail() throws {
        let loaded = try Loaded("test_lease_exp_8880905.xls")
        #expect(loaded.outcome.report == .leaseExpiration)
        #expect(loaded.outcome.propertyKey == "kalaco")
        // Only the run timestamp (2/8/2026 7:57:40AM) dates this report.
        #expect(loaded.outcome.asOf.iso == "2026-02-08")
        #expect(loaded.outcome.rows == 61)
        #expect(loaded.outcome.warnings.isEmpty, "\(loaded.outcome.warnings)")
        let table = "realpage_lease_expirations"
        // Market + Addl. and Lease Rent as the Total leases: 61 row prints them.
        #expect(try loaded.value("sum(market_rent)", from: table) == 119_149)
        #expect(try loaded.value("sum(current_rent)", from: table) == 118_653)
        // The Webdings check glyph in every row is no mark; the one lease marked `x` is Do Not Renew.
        #expect(try loaded.rows(table, where: "renewal_status = 'Do Not Renew'") == 1)
        // Phone and e-mail split out of their shared cell (a few leases print only one, or none).
        #expect(try loaded.rows(table, where: "phone GLOB '*[0-9][0-9][0-9][0-9]' AND email LIKE '%@%'") == 54)
        #expect(try loaded.rows(table, where: "phone LIKE '%@%' OR email NOT LIKE '%@%'") == 0)
    }

    @Test("Lease Expiration/Renewal Detail 4156 (6 sheets): 103 leases, N/A dates null, Totals: reconciled")
    func leaseExpirationRenewalDetail() throws {
        let loaded = try Loaded("4156_5472172_Nexus_East.xls")
        #expect(loaded.outcome.report == .renewalDetail)
        #expect(loaded.outcome.propertyKey == "nexus_east")
        #expect(loaded.outcome.asOf.iso == "2026-02-14")
        #expect(loaded.outcome.rows == 103)
        #expect(loaded.outcome.all.flatMap(\.warnings).isEmpty, "\(loaded.outcome.all.flatMap(\.warnings))")
        let table = "realpage_renewal_detail"
        #expect(try loaded.rows(table) == 103)
        #expect(try loaded.value("sum(actual_rent)", from: table) == 156_642)
        #expect(try loaded.value("sum(other_billings)", from: table) == 9_282.60)
        #expect(try loaded.value("sum(last_increase_amount)", from: table) == 3_338)
        #expect(try loaded.value("sum(market_rent)", from: table) == 168_990)
        #expect(try loaded.value("sum(new_rent)", from: table) == 39_605)
        #expect(try loaded.value("sum(new_other_billings)", from: table) == 3_287)
        // The renewed leases (the Renewal Detail sheet's 26) and the N/A dates stored as nulls.
        #expect(try loaded.rows(table, where: "decision = 'Renewed'") == 26)
        #expect(try loaded.rows(table, where: "last_increase_date IS NULL") > 0)
        // The Summary by Floorplan sheet, each of its 12 rows' 8 figures held against the stored leases and
        // recorded with the snapshot's printed totals: Total possible 94 (the 103 leases less 9 moved out), renewed
        // 26, vacating 29, unknown 37, month to month 2, the averages 8.27 / 1,028.87 / 1,757.81.
        let totals = "loaded_report_totals"
        let summary = "report_type = 'renewal_detail' AND label IN ('Total', 'A1', 'A1A', 'A2', 'A3', 'A3B', 'A4', "
            + "'A4A', 'B1', 'B2', 'B2A', 'S1')"
        #expect(try loaded.rows(totals, where: summary) == 96)
        #expect(try loaded.rows(totals, where: summary + " AND printed = computed") == 96)
        // The detail's Totals: prints each amount a column off its header (New Rent between Move in Date and Lease
        // end Date): all six read in printed order and reconciled.
        let detailTotals = "report_type = 'renewal_detail' AND label = 'Totals:'"
        #expect(try loaded.rows(totals, where: detailTotals + " AND printed = computed") == 6)
        for (measure, printed) in [("last increase amount", 3_338.0), ("new rent", 39_605)] {
            #expect(try loaded.value("printed", from: totals, where: detailTotals + " AND measure = '\(measure)'")
                    == printed, "\(measure)")
        }
        // The Renewal Detail sheet lists the renewed (and transferring) leases again with Totals: of its own, each
        // held against those stored: 26 leases, actual rent 38,224, other billings 1,724.60, last increase 1,381,
        // market rent 42,479, new rent 39,605, new other billings 3,287.
        let renewalSheet = "report_type = 'renewal_detail' AND label LIKE 'Renewal Detail%'"
        #expect(try loaded.rows(totals, where: renewalSheet) == 7)
        #expect(try loaded.rows(totals, where: renewalSheet + " AND printed = computed") == 7)
        for (measure, printed) in [("renewed and transferring leases", 26.0), ("actual rent", 38_224),
                                   ("other billings", 1_724.60), ("last increase amount", 1_381),
                                   ("market rent", 42_479), ("new rent", 39_605), ("new other billings", 3_287)] {
            #expect(try loaded.value("printed", from: totals, where: renewalSheet + " AND measure = '\(measure)'")
                    == printed, "\(measure)")
        }
        for (measure, printed) in [("total possible", 94.0), ("renewed", 26), ("vacating", 29), ("unknown", 37),
                                   ("month to month", 2), ("avg term renewed leases", 8.27), ("avg new rent", 1_028.87),
                                   ("avg market rent", 1_757.81)] {
            #expect(try loaded.value("printed", from: totals, where: "label = 'Total' AND measure = '\(measure)'")
                    == printed, "\(measure)")
        }
    }
}

extension RealCorpusTests {
    /// The next night's identical leases are recorded unchanged (not stored again); its Summary by Floorplan sheet is
    /// then held against the stored leases. Read at its own date, it found none, and every night printed some thirty
    /// "prints 17.0 total possible but the leases give 0.0" per property (the 30-property year benchmark: 651 a night).
    @Test("Lease Expiration/Renewal Detail 4156 loaded again the next day: unchanged, its summary reconciled")
    func leaseExpirationRenewalDetailUnchangedNextDay() throws {
        let fixture = try LoaderFixture()
        let path = LoaderFixture.repository.appendingPathComponent("Tests/Fixtures/real-onesite/4156_5472172_Nexus_East.xls").path
        var outcomes: [ReportLoadOutcome] = []
        for (run, day) in [("night-1", "2026-02-14"), ("night-2", "2026-02-15")] {
            let loader = ReportFileLoader(store: fixture.store, configuration: try RealCorpusTests.configuration(),
                                          runID: RunID(run))
            outcomes.append(try loader.load(path: path, hints: ReportFileHints(asOf: LocalDate(iso: day))))
        }
        let second = try #require(outcomes.last)
        #expect(second.report == .renewalDetail && second.unchangedSinceRun == "night-1")
        #expect(second.all.flatMap(\.warnings).isEmpty, "\(second.all.flatMap(\.warnings).prefix(3))")
        // The printed totals stay the stored snapshot's, all reconciled: none recorded for the unchanged night. 109:
        // the detail's Totals: (6), the Summary by Floorplan (96), the Renewal Detail sheet's count and Totals: (7).
        let totals = try fixture.store.database.query("""
            SELECT as_of_date, count(*), sum(printed = computed) FROM loaded_report_totals
            WHERE report_type = 'renewal_detail' GROUP BY as_of_date
            """)
        #expect(totals == [[.text("2026-02-14"), .integer(109), .integer(109)]])
    }

    /// Stored Leasing Activity Detail rows by contact type.
    static func types(_ loaded: Loaded) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try loaded.fixture.store.database.query(
            "SELECT contact_type, count(*) FROM realpage_leasing_activity_detail GROUP BY contact_type") {
            counts[row[0].textValue ?? ""] = Int(row[1].integerValue ?? 0)
        }
        return counts
    }

    @Test("Leasing Activity Detail, data-only two-sheet export: 1307 rows, Sheet2's Totals for Property reconciled")
    func leasingActivityDetailDataOnly() throws {
        let loaded = try Loaded("Leasing_Activity_Detail_Report.xls")
        #expect(loaded.outcome.report == .leasingActivityDetail)
        // `Kairoi Management, LLC - 4248314 - The Northern - 5375283`: placed by its site number.
        #expect(loaded.outcome.propertyKey == "the_northern")
        // The Parameters cell's Scheduling Period (01/12/2026 to 02/12/2026).
        #expect(loaded.outcome.asOf.iso == "2026-02-12")
        #expect(loaded.outcome.rows == 1307)
        #expect(loaded.outcome.all.flatMap(\.warnings).isEmpty, "\(loaded.outcome.all.flatMap(\.warnings))")
        let types = try Self.types(loaded)
        #expect(types["Phone call"] == 244)
        #expect(types["E-mail"] == 843)
        #expect(types["Text message"] == 126)
        #expect(types["Visit"] == 35)
        // Lease and cancel rows print no contact type: typed from their Leases / Cancelled columns.
        #expect(types["Lease"] == 13)
        #expect(types["Cancelled/Denied"] == 2)
    }

    @Test("Leasing Activity Detail, Crystal page-image export: 379 rows, consultant and property total blocks reconciled")
    func leasingActivityDetailCrystal() throws {
        let loaded = try Loaded("realpage_report.xlsx")
        #expect(loaded.outcome.report == .leasingActivityDetail)
        #expect(loaded.outcome.propertyKey == "ridian")
        // 1/1/2026 through 1/31/2026, run 01/28/2026 (its last contact 01/27): as of the run.
        #expect(loaded.outcome.asOf.iso == "2026-01-28")
        #expect(loaded.outcome.rows == 379)
        #expect(loaded.outcome.warnings.isEmpty, "\(loaded.outcome.warnings)")
        let types = try Self.types(loaded)
        #expect(types["Phone call"] == 75)
        #expect(types["E-mail"] == 221)
        #expect(types["Text message"] == 48)
        #expect(types["Visit"] == 16)
        #expect(types["Lease"] == 5)
        #expect(types["Videotelephony - Tour"] == 1)
        // The consultant each `Leasing Consultant:` label names is the agent of its rows.
        #expect(try loaded.rows("realpage_leasing_activity_detail", where: "leasing_consultant = 'HOUSE'") > 0)
    }
}

extension RealCorpusTests {
    @Test("Delinquent and Prepaid: 241 accounts with their code lines, Grand Totals, Resident Count and Net rows reconciled")
    func delinquentAndPrepaid() throws {
        let loaded = try Loaded("Delinquent_and_Prepaid_Report__3_.xls")
        #expect(loaded.outcome.report == .delinquency)
        #expect(loaded.outcome.propertyKey == "the_northern")
        #expect(loaded.outcome.asOf.iso == "2026-01-29")
        #expect(loaded.outcome.warnings.isEmpty, "\(loaded.outcome.warnings)")
        // `Detail - 241 Account(s)`: 239 residents and the two Misc. Income blocks (unit NONE); the footnote under
        // the Grand Totals (`** These subtotals consist of ...`, in the Unit column) is no account.
        #expect(try loaded.rows("realpage_delinquency") == 241)
        #expect(try loaded.rows("realpage_delinquency", where: "unit_number LIKE '*%'") == 0)
        #expect(try loaded.value("printed", from: "loaded_report_totals",
                                 where: "report_type = 'delinquency' AND measure = 'accounts'") == 241)
        #expect(try loaded.value("computed", from: "loaded_report_totals",
                                 where: "report_type = 'delinquency' AND measure = 'accounts'") == 241)
        #expect(try loaded.rows("realpage_delinquency", where: "unit_number = 'NONE'") == 2)
        let table = "realpage_delinquency"
        #expect(try loaded.value("sum(prepaid)", from: table) == 200_846.88)
        #expect(try loaded.value("sum(current_balance)", from: table) == -96_267.53)
        #expect(try loaded.value("sum(balance_0_30)", from: table) == -9_263.55)
        #expect(try loaded.value("sum(balance_31_60)", from: table) == -102_858.80)
        #expect(try loaded.value("sum(balance_61_90)", from: table) == -35_961.73)
        #expect(try loaded.value("sum(balance_over_90)", from: table) == 51_816.55)
        #expect(try loaded.value("sum(current_balance)", from: table, where: "current_balance > 0") == 100_197.95)
        #expect(try loaded.value("sum(current_balance)", from: table, where: "current_balance < 0") == -196_465.48)
        // Summary by General Ledger Account: Grand Totals ending -96,267.53 = the detail's net balance.
        let glSummary = "report_type = 'delinquency' AND label LIKE '%Summary by General Ledger Account%'"
        #expect(try loaded.rows("loaded_report_totals", where: glSummary) == 4)
        #expect(try loaded.rows("loaded_report_totals", where: glSummary + " AND printed = computed") == 4)
        // Current and former residents of one unit stay separate accounts.
        #expect(try loaded.rows(table, where: "unit_number = '1125'") == 2)
        // The legend's `*` (resident under eviction) alone in the name column of four former residents (names
        // hidden): a mark, not a resident called `*`; every other account unmarked.
        #expect(try loaded.rows(table, where: "resident_name LIKE '%*%'") == 0)
        #expect(try loaded.fixture.store.database.query("""
            SELECT unit_number FROM realpage_delinquency WHERE under_eviction = 1 ORDER BY source_row
            """).map { $0[0].textValue ?? "" } == ["905", "934", "1234", "1429"])
        #expect(try loaded.rows(table, where: "under_eviction = 0") == 241 - 4)
        #expect(loaded.outcome.rows == 241 + (try loaded.rows("realpage_delinquency_codes")))
    }
}

extension RealCorpusTests {
    @Test("Monthly Activity Summary: Floor plan header two rows under the others; 60 floor plans kept; Totals reconciled")
    func monthlyActivitySummary() throws {
        let loaded = try Loaded("test_activity_8880904.xls")
        #expect(loaded.outcome.report == .monthlySummary)
        #expect(loaded.outcome.propertyKey == "kalaco")
        #expect(loaded.outcome.asOf.iso == "2026-02-07")
        #expect(loaded.outcome.warnings.isEmpty, "\(loaded.outcome.warnings)")
        let table = "realpage_monthly_summary"
        #expect(try loaded.rows(table) == 1)
        // The Accounting Totals row (move ins 14, move outs 7, renewals 1) and the detail's 4 move-out notices.
        #expect(try loaded.value("move_ins", from: table) == 14)
        #expect(try loaded.value("move_outs", from: table) == 7)
        #expect(try loaded.value("renewals", from: table) == 1)
        #expect(try loaded.value("notices", from: table) == 4)
        // The occupancy section's 60 floor plans, summing to its Totals row.
        let plans = "realpage_monthly_summary_floorplans"
        #expect(try loaded.rows(plans) == 60)
        #expect(loaded.outcome.rows == 61)
        #expect(try loaded.value("sum(market_rent)", from: plans) == 562_428.67)
        #expect(try loaded.value("sum(total_base_rent)", from: plans) == 559_790)
        #expect(try loaded.value("sum(total_sqft)", from: plans) == 210_531)
        #expect(try loaded.value("sum(total_units)", from: plans) == 280)
        #expect(try loaded.value("sum(occupied_no_notice)", from: plans) == 160)
        #expect(try loaded.value("sum(vacant_not_leased)", from: plans) == 102)
        #expect(try loaded.value("sum(vacant_leased)", from: plans) == 9)
        #expect(try loaded.value("sum(notice_not_leased)", from: plans) == 8)
        #expect(try loaded.value("sum(vacant_administrative)", from: plans) == 1)
    }
}

extension RealCorpusTests {
    @Test("Primary Advertising Source: 35 sources, leases / net leases / visits under their own headers, Totals: reconciled")
    func primaryAdvertisingSource() throws {
        let loaded = try Loaded("Primary_Advertising_Source_NexusEast.xls")
        #expect(loaded.outcome.report == .advertisingSource)
        #expect(loaded.outcome.propertyKey == "nexus_east")
        #expect(loaded.outcome.asOf.iso == "2026-02-15")
        #expect(loaded.outcome.rows == 35)
        #expect(loaded.outcome.warnings.isEmpty, "\(loaded.outcome.warnings)")
        let table = "realpage_advertising_source"
        #expect(try loaded.value("sum(new_prospects)", from: table) == 193)
        #expect(try loaded.value("sum(phone_calls)", from: table) == 54)
        #expect(try loaded.value("sum(first_visits)", from: table) == 0)
        #expect(try loaded.value("sum(visits)", from: table) == 33)
        #expect(try loaded.value("sum(return_visits)", from: table) == 1)
        #expect(try loaded.value("sum(applications)", from: table) == 15)
        #expect(try loaded.value("sum(cancelled_denied)", from: table) == 1)
        #expect(try loaded.value("sum(net_leases)", from: table) == 14)
        #expect(try loaded.rows(table, where: "prospect_conversion_pct IS NOT NULL") == 35)
    }
}

extension RealCorpusTests {
    @Test("Closed Make Ready: 5 units and their 25 closed work orders, Totals (units, work orders, amount) reconciled")
    func closedMakeReady() throws {
        let loaded = try Loaded("Closed_Make_Ready_Nexus_East.xls")
        #expect(loaded.outcome.report == .closedMakeReady)
        #expect(loaded.outcome.propertyKey == "nexus_east")
        // `Report created on calendar date: 02/15/2026 and property date: 02/14/2026`.
        #expect(loaded.outcome.asOf.iso == "2026-02-14")
        #expect(loaded.outcome.warnings.isEmpty, "\(loaded.outcome.warnings)")
        #expect(try loaded.rows("realpage_closed_make_ready") == 5)
        #expect(try loaded.value("sum(work_orders)", from: "realpage_closed_make_ready") == 25)
        let orders = "realpage_closed_make_ready_work_orders"
        #expect(try loaded.rows(orders) == 25)
        #expect(try loaded.rows(orders, where: "closed_date IS NOT NULL") == 25)
        #expect(try loaded.value("coalesce(sum(amount_charged), 0)", from: orders) == 0)
        #expect(try loaded.rows(orders, where: "unit_number = '1258' AND worker IS NOT NULL AND minutes_worked = 1") == 5)
        #expect(loaded.outcome.rows == 30)
    }
}

extension RealCorpusTests {
    @Test("Make Ready Summary: 34 units whose work orders add up to the printed Total of 170")
    func makeReadySummary() throws {
        let loaded = try Loaded("Make_Ready_Summary_NexusEast.xls")
        #expect(loaded.outcome.report == .makeReady)
        #expect(loaded.outcome.propertyKey == "nexus_east")
        #expect(loaded.outcome.asOf.iso == "2026-02-15")
        #expect(loaded.outcome.warnings.isEmpty, "\(loaded.outcome.warnings)")
        #expect(try loaded.rows("realpage_make_ready") == 34)
        #expect(try loaded.value("sum(work_orders)", from: "realpage_make_ready") == 170)
    }
}
