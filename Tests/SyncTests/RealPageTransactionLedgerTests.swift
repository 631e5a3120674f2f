import Foundation
import Ledger
import OwnerDashCore
import RawStore
import SQLiteKit
@testable import Sync
import SimulatorSupport
import Testing

/// The tenant ledger of a RealPage site without RPX getresidentledger, read from Transaction Detail by Code (4028):
/// charges, credits and payments of the fiscal period by household, a balance forward from the Delinquent and Prepaid
/// report, amount paid and balance per charge, and the reconciliation with the report's own Summary and the Charge and
/// Adjustment Journal.
@Suite struct RealPageTransactionLedgerTests {
    /// One Detail-sheet row as the loader stores it (the real file's shape: codes `C-CA-RENT`, periods `MMYYYY`,
    /// a split transaction printing its whole amount on each G/L row with its share as the debit amount).
    static func detail(_ realpage: RealPageFixture, unit: String, name: String, code: String, amount: Double,
                       debit: Double? = nil, date: String, ledgerDate: String? = nil, period: String = "112026",
                       source: String = "A = Scheduled billing", document: String? = nil, description: String = "Rent",
                       debitGL: String = "1200-0002", creditGL: String = "5100-0001", tadid: String? = nil,
                       asOf: String = RealPageFixture.asOf) throws {
        try realpage.insert("realpage_transaction_detail", [
            "unit_number": .text(unit), "resident_name": .text(name), "subjournal": .text("none"),
            "description": .text(description), "transaction_code": .text(code), "ledger_date": .text(ledgerDate ?? date),
            "system_date": .text(date), "accounting_date": .text(date), "fiscal_period": .text(period),
            "amount": .real(amount), "debit_gl_account": .text(debitGL), "debit_amount": .real(debit ?? abs(amount)),
            "credit_gl_account": .text(creditGL), "credit_amount": .real(-(debit ?? abs(amount))),
            "document_number": SQLValue(document), "source": .text(source), "transaction_ids": SQLValue(tadid),
        ], asOf: asOf)
    }

    /// Two households on RPX (no ledger licence): H1 (Ann Lee, 101) and H2 (Ken Ito, 102); the November 2026 Detail
    /// sheet, its Summary rows, and Delinquent and Prepaid reports before the period and at the property date.
    static func site(balanceForward: Bool = true) throws -> RealPageFixture {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.unit("102", .occupied)
        try realpage.resident(household: "H1", unit: "101", status: "Current", lease: "L1", first: "Ann", last: "Lee",
                              moveIn: "2025-03-01")
        try realpage.resident(household: "H2", unit: "102", status: "Current", lease: "L2", first: "Ken", last: "Ito",
                              moveIn: "2026-02-01")
        try realpage.lease("L1", household: "H1", unit: "101", begin: "2026-03-01", end: "2027-02-28", rent: 1400)
        try realpage.lease("L2", household: "H2", unit: "102", begin: "2026-02-01", end: "2027-01-31", rent: 1500)
        try realpage.loaded("transaction_detail")

        // H1: rent, water, two pet rents alike (two pets), a late fee waived, one payment split A/R / prepaid.
        try detail(realpage, unit: "101", name: "Ann   Lee", code: "C-CA-RENT", amount: 1400, date: "2026-11-01", tadid: "11")
        try detail(realpage, unit: "101", name: "Ann   Lee", code: "C-CJ-WATER", amount: 40, date: "2026-11-01",
                   description: "Water Reimbursement", creditGL: "5300-0001", tadid: "12")
        for _ in 0..<2 {
            try detail(realpage, unit: "101", name: "Ann   Lee", code: "C-CI-PETRENT", amount: 25, date: "2026-11-01",
                       description: "Pet Rent - Cat", creditGL: "5200-0120")
        }
        try detail(realpage, unit: "101", name: "Ann   Lee", code: "C-CB-LATEFEE", amount: 50, date: "2026-11-06",
                   source: "S = System", description: "Late Fees", creditGL: "5200-0090", tadid: "13")
        try detail(realpage, unit: "101", name: "Ann   Lee", code: "C-CB-LATEFEE", amount: -50, date: "2026-11-07",
                   ledgerDate: "2026-11-06", source: "C = Change transactions", description: "1st waived fee",
                   debitGL: "5200-0090", creditGL: "1200-0002", tadid: "14")
        for (share, credit) in [(600.0, "1200-0002"), (400.0, "2200-0001")] {
            try detail(realpage, unit: "101", name: "Ann   Lee", code: "P-PZ-PMTOPACH", amount: 1000, debit: share,
                       date: "2026-11-03", source: "Z = RealPage Payments", document: "ACH1",
                       description: "WelcomeHome ACH payment", debitGL: "1110-0002", creditGL: credit, tadid: "15")
        }
        // H2: rent, a one-time concession, a card payment and its NSF reversal; an October payment re-classed in
        // November (printed again, original period 102026: not a November posting).
        try detail(realpage, unit: "102", name: "Ken  Ito", code: "C-CA-RENT", amount: 1500, date: "2026-11-01", tadid: "21")
        try detail(realpage, unit: "102", name: "Ken  Ito", code: "P-PW-CONC/ONE-TIME", amount: 100, date: "2026-11-01",
                   description: "One-Time Concession", debitGL: "5100-0202", creditGL: "1200-0002", tadid: "22")
        try detail(realpage, unit: "102", name: "Ken  Ito", code: "P-PZ-PMTOPCARD", amount: 1500, date: "2026-11-02",
                   source: "Z = RealPage Payments", document: "CARD1", description: "OSP Credit Card Payment",
                   debitGL: "1110-0002", creditGL: "1200-0002", tadid: "23")
        try detail(realpage, unit: "102", name: "Ken  Ito", code: "P-PZ-PMTOPCARD", amount: -1500, date: "2026-11-09",
                   source: "N = NSF", document: "CARD1", description: "OSP Credit Card Payment",
                   debitGL: "1200-0002", creditGL: "1110-0002", tadid: "24")
        for (debitGL, creditGL) in [("1110-0002", "1200-0002"), ("2200-0001", "1110-0002")] {
            try detail(realpage, unit: "102", name: "Ken  Ito", code: "P-PZ-PMTOPACH", amount: 700, date: "2026-10-20",
                       period: "102026", source: "Z = RealPage Payments", document: "ACH0",
                       description: "WelcomeHome ACH payment", debitGL: debitGL, creditGL: creditGL, tadid: "9")
        }
        // An applicant's online fee payment and its reversal: no unit.
        try detail(realpage, unit: "-", name: "Online application fees  Online application fees", code: "P-PZ-PMTOPACH", amount: 99,
                   date: "2026-11-04", source: "Z = RealPage Payments", document: "APP1", description: "Online Payment Fee",
                   debitGL: "1110-0002", creditGL: "2200-0001")
        try detail(realpage, unit: "-", name: "Online application fees  Online application fees", code: "P-PZ-PMTOPACH", amount: -99,
                   date: "2026-11-04", source: "C = Change transactions", document: "APP1", description: "Online Payment Fee",
                   debitGL: "2200-0001", creditGL: "1110-0002")

        // The Summary sheet as printed: debit and credit per code and G/L account (the October re-class included).
        for (code, gl, debit, credit) in [
            ("C-CA-RENT", "1200-0002", 2900.0, 0.0), ("C-CA-RENT", "5100-0001", 0, 2900),
            ("C-CJ-WATER", "1200-0002", 40, 0), ("C-CJ-WATER", "5300-0001", 0, 40),
            ("C-CI-PETRENT", "1200-0002", 50, 0), ("C-CI-PETRENT", "5200-0120", 0, 50),
            ("C-CB-LATEFEE", "1200-0002", 50, 50), ("C-CB-LATEFEE", "5200-0090", 50, 50),
            ("P-PW-CONC/ONE-TIME", "1200-0002", 0, 100), ("P-PW-CONC/ONE-TIME", "5100-0202", 100, 0),
            ("P-PZ-PMTOPACH", "1110-0002", 1099 + 700, 99 + 700), ("P-PZ-PMTOPACH", "1200-0002", 0, 600 + 700),
            ("P-PZ-PMTOPACH", "2200-0001", 99 + 700, 400 + 99),
            ("P-PZ-PMTOPCARD", "1110-0002", 1500, 1500), ("P-PZ-PMTOPCARD", "1200-0002", 1500, 1500),
        ] as [(String, String, Double, Double)] {
            try realpage.insert("realpage_transaction_detail_summary", [
                "transaction_code": .text(code), "gl_account": .text(gl), "gl_account_name": .text(gl),
                "debit": .real(debit), "credit": .real(credit),
            ])
        }
        if balanceForward {
            // Delinquent and Prepaid the day before the period's first posting: H1 owes 200, H2 is 100 in credit.
            try realpage.delinquency("101", residentID: "H1", name: "Lee, Ann", balance: 200, aging: [0, 200, 0, 0],
                                     asOf: "2026-10-31")
            try realpage.delinquency("102", residentID: "H2", name: "Ito, Ken", balance: -100, prepaid: 100,
                                     asOf: "2026-10-31")
        }
        // ... and at the property date: 200 + 1400 + 40 + 50 + 50 − 50 − 1000 = 690; −100 + 1500 − 100 − 0 = 1300.
        try realpage.delinquency("101", residentID: "H1", name: "Lee, Ann", balance: 690, aging: [690, 0, 0, 0])
        try realpage.delinquency("102", residentID: "H2", name: "Ito, Ken", balance: 1300, aging: [1300, 0, 0, 0])
        return realpage
    }

    /// The balance check sums each household's open charges from the partial index of the charges still open
    /// (realpage_raw migration 51), not from 24 months of transactions: its cost follows what is owed, not the ledger.
    /// Each household's balance-forward line is one lookup by its key, not the property's lines read for each.
    @Test func theBalanceCheckReadsOnlyTheOpenCharges() throws {
        let fixture = try RealPageFixture()
        let database = try Database(path: fixture.directory.appendingPathComponent("plan.db").path)
        try database.attach(path: fixture.raw.database.path, as: "realpage_raw")
        try database.attach(path: fixture.store.database.path, as: "unified")
        let plan = try database.query("EXPLAIN QUERY PLAN " + RealPageLedger.balanceCheck).compactMap { $0.last?.textValue }
        #expect(plan.contains { $0.contains("realpage_ledger USING INDEX realpage_ledger_open_charges") }, "\(plan)")
        #expect(plan.contains { $0.contains("unified_charges_1 (unified_property_id=? AND charge_id=?)") }, "\(plan)")
    }

    @Test func chargesCreditsAndPaymentsOfThePeriodByHouseholdWithABalanceForward() throws {
        let realpage = try Self.site()
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        let property = try #require(try realpage.rows("SELECT ledger_source, ledger_coverage, ledger_note FROM unified_properties").first)
        #expect(property[0] == .text(RealPageTransactionLedger.source))
        #expect(property[1] == .text("full"))
        let note = property[2].textValue ?? ""
        #expect(note.contains("fiscal period 2026-11") && note.contains("Delinquent and Prepaid as of 2026-10-31"), "\(note)")

        let charges = try realpage.rows("""
            SELECT resident_id, charge_code, category, period, charge_date, due_date, amount, amount_paid, balance, lease_id
            FROM unified_charges ORDER BY resident_id, charge_date, charge_code, amount
            """)
        let byHousehold = Dictionary(grouping: charges) { $0[0].textValue ?? "" }
        // H1: balance forward, rent, water, two pet rents, the late fee and its waiver.
        #expect(byHousehold["H1"]?.map { $0[1].textValue ?? "" }
                    == ["BALFWD", "PETRENT", "PETRENT", "RENT", "WATER", "LATEFEE", "LATEFEE"])
        #expect(byHousehold["H1"]?.allSatisfy { $0[3].textValue == ($0[1] == .text("BALFWD") ? "2026-10" : "2026-11") } == true)
        #expect(byHousehold["H1"]?.first?[6] == .real(200), "what was owed before the period")
        #expect(byHousehold["H1"]?.last?[4...6] == [.text("2026-11-07"), .text("2026-11-06"), .real(-50)],
                "the waiver: posted the 7th, due on the fee's date")
        #expect(byHousehold["H1"]?.dropLast().last?[4...6] == [.text("2026-11-06"), .text("2026-11-06"), .real(50)])
        #expect(byHousehold["H1"]?.allSatisfy { $0[9] == .text("L1") } == true)
        // H2: balance forward (a credit), rent, the concession as a credit; the October re-class is not a posting.
        #expect(byHousehold["H2"]?.map { [$0[1], $0[2], $0[6]] } == [
            [.text("BALFWD"), .text("OTHER"), .real(-100)], [.text("CONC/ONE-TIME"), .text("OTHER"), .real(-100)],
            [.text("RENT"), .text("RENT"), .real(1500)],
        ])
        #expect(Set(byHousehold.keys) == ["H1", "H2"])

        // No roster match: the unit and the name as printed, its doubled blanks made one.
        let applicant = "-/Online application fees Online application fees"
        let payments = try realpage.rows("""
            SELECT resident_id, unit_number, payment_date, period, amount, reference, payment_type FROM unified_payments
            ORDER BY resident_id, payment_date, amount
            """)
        #expect(payments.map { [$0[0], $0[4]] } == [
            [.text(applicant), .real(-99)], [.text(applicant), .real(99)],
            [.text("H1"), .real(1000)], [.text("H2"), .real(1500)], [.text("H2"), .real(-1500)],
        ], "one ACH payment of 1,000 (split over two G/L rows), the card payment and its NSF reversal")
        #expect(payments[2][1...6] == [.text("101"), .text("2026-11-03"), .text("2026-11"), .real(1000), .text("ACH1"),
                                       .text("PMTOPACH")])
        #expect(payments[0][1] == .null, "unit '-' is no unit")

        // Open balances: H1 owes 690, on its newest charges (the late fee of the 6th first); H2 owes 1,300 of its rent.
        func open(_ household: String) throws -> [[SQLValue]] {
            try realpage.rows("""
                SELECT round(sum(balance), 2), round(sum(amount_paid), 2), round(sum(amount), 2),
                       sum(abs(round((amount_paid + balance - amount) * 100)) > 0)
                FROM unified_charges WHERE resident_id = '\(household)'
                """)
        }
        #expect(try open("H1") == [[.real(690), .real(1000), .real(1690), .integer(0)]])
        #expect(try open("H2") == [[.real(1300), .real(0), .real(1300), .integer(0)]])
        #expect(try realpage.rows("""
            SELECT balance FROM unified_charges WHERE resident_id = 'H1' AND charge_code IN ('BALFWD', 'LATEFEE') AND amount > 0
            ORDER BY charge_code
            """) == [[.real(0)], [.real(50)]], "payments settle the oldest first: the balance forward is paid")
        #expect(try realpage.rows("SELECT balance, amount_paid FROM unified_charges WHERE resident_id = 'H2' AND charge_code = 'RENT'")
                    == [[.real(1300), .real(200)]])

        // The reconciliation: every period figure passes; the open balance is held against the later report.
        let checks = try realpage.keyed("""
            SELECT check_name || ' ' || measure, status, expected, actual, detail FROM sync_checks
            WHERE check_name IN ('transaction_detail_totals', 'ledger_open_balance')
            """)
        #expect(checks["transaction_detail_totals charges 2026-11"]?[0...2] == [.text("passed"), .real(2990), .real(2990)])
        #expect(checks["transaction_detail_totals credits 2026-11"]?[0...2] == [.text("passed"), .real(100), .real(100)])
        #expect(checks["transaction_detail_totals payments 2026-11"]?[0...2] == [.text("passed"), .real(1000), .real(1000)])
        #expect(checks["transaction_detail_totals journal 2026-11"]?[0] == .text("skipped"))
        #expect(checks["ledger_open_balance net balance"]?[0...2] == [.text("passed"), .real(1990), .real(1990)],
                "\(checks["ledger_open_balance net balance"] ?? [])")
    }

    @Test func theLedgerReportsAnswerFromSuchAProperty() throws {
        let realpage = try Self.site()
        _ = realpage.sync()
        let database = realpage.store.database
        let key = RealPageFixture.property.key
        let debtors = try Debtors.run(database: database, properties: [key], asOf: nil, minDebt: nil)
        #expect(debtors.partialLedger.isEmpty && debtors.noLedger.isEmpty)
        let units = debtors.people.flatMap(\.units)
        #expect(Dictionary(units.map { ($0.residentID, $0.balanceCents) }, uniquingKeysWith: +) == ["H1": 69_000, "H2": 130_000])
        #expect(units.first { $0.residentID == "H2" }?.months.map(\.period) == ["2026-11"])

        let tracker = try RentalTracker.run(database: database, properties: [key], asOf: nil, minBalance: nil,
                                            minMonthsBehind: 1, sort: .balance)
        #expect(tracker.partialLedger.isEmpty)
        #expect(tracker.residents.map(\.residentID) == ["H2", "H1"])
        #expect(tracker.residents.first?.balanceCents == 130_000)
        #expect(tracker.residents.first { $0.residentID == "H1" }?.balanceCents == 69_000)

        let grid = try LeasePaymentStatusReport.run(database: database, properties: [key], start: "2026-10", months: 2,
                                                    asOf: nil, includeInactive: true)
        #expect(grid.partialLedger.isEmpty)
        let rent = Dictionary(grid.lines.map { ($0.residentID, $0.rent["2026-11"]) }) { first, _ in first }
        #expect(rent["H2"]??.billedCents == 150_000 && rent["H2"]??.balanceCents == 130_000)
        #expect(rent["H1"]??.billedCents == 140_000)
    }

    @Test func aBalanceForwardFromThePropertyDateReportIsNotHeldAgainstItself() throws {
        let realpage = try Self.site(balanceForward: false)
        _ = realpage.sync()
        // The property-date report is on or after the period's start: it is the balance forward's, so the open-balance
        // check cannot be independent and says so.
        let note = try realpage.texts("SELECT ledger_note FROM unified_properties").first ?? nil
        #expect(note?.contains("Delinquent and Prepaid as of 2026-11-20") == true, "\(note ?? "")")
        #expect(try realpage.rows("SELECT status FROM sync_checks WHERE check_name = 'ledger_open_balance'")
                    == [[.text("skipped")]])
        #expect(try realpage.rows("SELECT round(sum(balance), 2) FROM unified_household_balances") == [[.real(1990)]])
    }

    @Test func aSiteWithTheRPXLedgerIgnoresTheReportAndOneWithoutItKeepsThePartialLedger() throws {
        let withRPX = try Self.site()
        try withRPX.loaded("getresidentledger")
        _ = withRPX.sync()
        #expect(try withRPX.rows("SELECT ledger_source FROM unified_properties") == [[.text(RealPageLedger.source)]])
        #expect(try withRPX.rows("SELECT count(*) FROM unified_charges") == [[.integer(0)]])
        #expect(try withRPX.rows("SELECT DISTINCT status FROM sync_checks WHERE check_name = 'transaction_detail_totals'")
                    == [[.text("skipped")]])

        let partial = try RealPagePartialLedgerTests.site()
        _ = partial.sync()
        #expect(try partial.rows("SELECT ledger_coverage FROM unified_properties") == [[.text("partial")]])
        #expect(try partial.rows("SELECT count(*) FROM sync_checks WHERE check_name = 'transaction_detail_totals'")
                    == [[.integer(0)]])
    }

    @Test func twoPeriodsAreBothCoveredAndAJournalWithoutItsDetailIsNotReadButNamed() throws {
        let realpage = try Self.site()
        // October's report (as of the 25th): H1's rent and its payment.
        try Self.detail(realpage, unit: "101", name: "Ann   Lee", code: "C-CA-RENT", amount: 1400, date: "2026-10-01",
                        period: "102026", tadid: "1", asOf: "2026-10-25")
        try Self.detail(realpage, unit: "101", name: "Ann   Lee", code: "P-PZ-PMTOPACH", amount: 1400, date: "2026-10-02",
                        period: "102026", source: "Z = RealPage Payments", document: "ACH9", debitGL: "1110-0002",
                        creditGL: "1200-0002", tadid: "2", asOf: "2026-10-25")
        // A September journal line, with no Transaction Detail of September.
        try realpage.insert("realpage_charge_journal", [
            "unit_number": .text("101"), "resident_name": .text("Lee, Ann"), "date_posted": .text("2026-09-12"),
            "rent": .real(0), "code": .text("ADMIN"), "other": .real(150), "fiscal_period": .text("2026-09"),
        ], asOf: "2026-09-20")
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")

        let note = try realpage.texts("SELECT ledger_note FROM unified_properties").first ?? nil
        #expect(note?.contains("fiscal periods 2026-10, 2026-11") == true, "\(note ?? "")")
        #expect(try realpage.rows("""
            SELECT period, round(sum(amount), 2) FROM unified_charges WHERE resident_id = 'H1' GROUP BY period ORDER BY period
            """) == [[.text("2026-09"), .real(200)], [.text("2026-10"), .real(1400)], [.text("2026-11"), .real(1490)]],
                "the balance forward before October, then each period's charges")
        #expect(try realpage.rows("SELECT charge_date FROM unified_charges WHERE charge_code = 'BALFWD' AND resident_id = 'H1'")
                    == [[.text("2026-09-30")]])
        #expect(try realpage.rows("SELECT status FROM sync_checks WHERE check_name = 'ledger_open_balance'") == [[.text("passed")]])
        #expect(outcome.warnings.filter { $0.check == "charge_journal_only" }.map(\.subject) == ["2026-09"])
        #expect(try realpage.rows("SELECT count(*) FROM unified_charges WHERE charge_code = 'ADMIN'") == [[.integer(0)]],
                "the journal is not read as postings")
    }

    @Test func aRowTheRulesCannotReadIsLeftOutAndNamedNeverCountedAsZero() throws {
        let realpage = try Self.site()
        // A row whose code lost its group and category (a damaged export), and one without a fiscal period.
        try Self.detail(realpage, unit: "101", name: "Ann   Lee", code: "RENT", amount: 1400, date: "2026-11-02")
        try Self.detail(realpage, unit: "101", name: "Ann   Lee", code: "C-CA-RENT", amount: 99, date: "2026-11-02", period: "")
        let outcome = try #require(realpage.sync().first)
        let unread = outcome.warnings.filter { $0.check == "transaction_detail_rows" }
        #expect(unread.map(\.subject) == ["2026-11-20: no MMYYYY Original Transaction Fiscal Period",
                                          "2026-11-20: no code in the Group-Category-Code form"])
        #expect(unread.allSatisfy { $0.message.hasPrefix("1 Transaction Detail by Code row(s) of the 2026-11-20 snapshot") },
                "\(unread.map(\.message))")
        #expect(try realpage.rows("SELECT round(sum(amount), 2) FROM unified_charges WHERE charge_code = 'RENT'") == [[.real(2900)]],
                "the readable rent charges only")
    }

    @Test func theAuditJudgesOnlyTheMonthsTheReportCovers() throws {
        let realpage = try Self.site()
        // The schedule: each lease bills its rent every month (rent-roll lines, as the partial ledger reads them).
        for (unit, row, rent) in [("101", 1, 1400.0), ("102", 2, 1500.0)] {
            try realpage.insert("realpage_rent_roll", ["unit_number": .text(unit), "status": .text("Occupied"),
                                                       "lease_start": .text("2026-01-01"), "lease_end": .text("2027-01-31")])
            try realpage.insert("realpage_rent_roll_charges", [
                "unit_number": .text(unit), "unit_row": .integer(Int64(row)), "code": .text("RENT"),
                "lease_rent": .real(rent), "amount": .real(rent),
            ])
        }
        _ = realpage.sync()
        let run = try ChargeAudit.run(database: realpage.store.database, properties: [RealPageFixture.property.key],
                                      asOf: LocalDate(iso: RealPageFixture.asOf), months: 3, workers: 0, now: { "2026-11-20T00:00:00Z" })
        #expect(run.months == ["2026-09", "2026-10", "2026-11"])
        // September and October have no Transaction Detail: nothing is missing there; November's rents match.
        #expect(try realpage.rows("SELECT month, kind FROM audit_results WHERE charge_code = 'RENT'") == [])
        #expect(try realpage.rows("""
            SELECT sum(months), sum(matched) FROM audit_lease_charges WHERE charge_code = 'RENT'
            """) == [[.integer(2), .integer(2)]])
    }

    /// The real 4028 and 4039 of Nexus East (fiscal period 022026), loaded as a user loads them, then synced.
    @Test func theRealReportsLoadedThenSyncedSumToTheirPrintedTotals() throws {
        let realpage = try RealPageFixture()
        let configuration = try Configuration.load(path: repositoryRoot.appendingPathComponent("report_definitions.json").path)
        let property = try #require(configuration.property(key: "nexus_east"))
        let loader = ReportFileLoader(store: realpage.raw, configuration: configuration, runID: RunID("real"))
        let directory = repositoryRoot.appendingPathComponent("Tests/Fixtures/real-onesite")
        _ = try loader.load(path: directory.appendingPathComponent("Report_4028_Nexus_East.xls").path)
        _ = try loader.load(path: directory.appendingPathComponent("Report_4039_Nexus_East.xls").path,
                            hints: ReportFileHints(asOf: LocalDate(iso: "2026-02-14")))
        let outcome = try #require(realpage.sync([property]).first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        #expect(outcome.failedChecks.isEmpty, "\(outcome.failedChecks)")
        #expect(!outcome.warnings.contains { $0.check == "transaction_detail_rows" || $0.check == "charge_journal_only" },
                "every Detail row read; the journal's period covered")

        func figure(_ sql: String) throws -> SQLValue { try realpage.rows(sql).first?.first ?? .null }
        // The Summary sheet's printed figures on A/R and prepaid: charges 589,343.90; credits (concessions,
        // write-off, deposit applied, referral) 37,818.68; payments 546,209.19 (the cash its four payment codes bring).
        #expect(try figure("SELECT round(sum(amount), 2) FROM unified_charges WHERE charge_id LIKE 'tdc:2026-02:%'") == .real(589_343.90))
        #expect(try figure("SELECT round(sum(amount), 2) FROM unified_charges WHERE charge_id LIKE 'tdr:2026-02:%'") == .real(-37_818.68))
        #expect(try figure("SELECT round(sum(amount), 2) FROM unified_payments WHERE period = '2026-02'") == .real(546_209.19))
        // Rent charged, as the Lost Rent Summary of the same period prints it: 527,837.
        #expect(try figure("SELECT round(sum(amount), 2) FROM unified_charges WHERE charge_code = 'RENT'") == .real(527_837))
        // The journal's lines are the ledger's manual and change charges: Totals rent −858 + other −4,394.91.
        let checks = try realpage.keyed("""
            SELECT measure, status, expected, actual FROM sync_checks WHERE check_name = 'transaction_detail_totals'
            """)
        #expect(checks["journal 2026-02"] == [.text("passed"), .real(-5_252.91), .real(-5_252.91)])
        #expect(checks.keys.sorted() == ["charges 2026-02", "credits 2026-02", "journal 2026-02", "payments 2026-02"])
        #expect(checks.values.allSatisfy { $0[0] == .text("passed") }, "\(checks)")
        // 5,032 charge transactions of the period, one of them printed twice: two pet rents.
        #expect(try figure("SELECT count(*) FROM unified_charges WHERE charge_id LIKE 'tdc:%'") == .integer(5_033))
        #expect(try figure("SELECT count(*) FROM unified_charges WHERE charge_id LIKE 'balance-forward:%'") == .integer(0),
                "no Delinquent and Prepaid for Nexus East: no balance forward")
        #expect(try realpage.texts("SELECT ledger_note FROM unified_properties").first??.contains("unknown") == true)
        // Its delinquency is unknown, not zero: no totals row for the night (the sync once wrote zeros, which the
        // summary answered as 0.00 owed), and the warning the metrics read to say why.
        #expect(try figure("SELECT count(*) FROM unified_delinquency_metrics") == .integer(0))
        #expect(try realpage.rows("""
            SELECT actual FROM unified_sync_warnings WHERE check_name = 'snapshot' AND subject = 'delinquency'
            """) == [[.text("none")]])
    }
}
