import Foundation
import OwnerDashCore
import RawStore
import SOAP
import SQLiteKit
@testable import Sync
import Testing

/// The RPX ledger is fetched for a 24-month window: once the window has moved past a household's last charges, the
/// payments left in it no longer net to its balance. RealPage states each household's `Balance` beside its
/// transactions; the sync carries the difference as one balance-forward line, so balances, debtors and the
/// ledger_open_balance check read RealPage's figure (found by the year benchmark: from the first of the month after
/// the first pull, every RealPage property's check failed by its former households' false credits).
@Suite struct RealPageLedgerWindowTests {
    /// getresidentledger in the simulator's shape (docs/rpx-soap.md: no public capture exists), three households:
    /// 9300001 moved out in 2024, only its last payment ($630) left in the window, Balance 0; 9300002 owes $1,400
    /// with only a $1,000 charge in the window (an older $400 still open); 9300003's window adds up to its Balance.
    static let windowPassed = """
        <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>
        <getresidentledgerResponse xmlns="http://tempuri.org/"><getresidentledgerResult><ResidentLedger xmlns="">
          <Resident><ReshID>9300001</ReshID><UnitID>9001212</UnitID><UnitNumber>2212</UnitNumber>
            <Balance>0.00</Balance><Prepaid>0.00</Prepaid><Transactions>
              <Transaction><TransactionID>9300001901</TransactionID><TransactionType>Payment</TransactionType>
                <TransactionDate>01/09/2025</TransactionDate><PostMonth>012025</PostMonth><TransactionCode>PAYMENT</TransactionCode>
                <Description>Payment - Check</Description><LeaseID>9400101</LeaseID><Amount>-630.00</Amount>
                <AmountPaid>0.00</AmountPaid><OpenAmount>0.00</OpenAmount><Reference>CK1001</Reference></Transaction>
            </Transactions></Resident>
          <Resident><ReshID>9300002</ReshID><UnitID>9001107</UnitID><UnitNumber>1107</UnitNumber>
            <Balance>1,400.00</Balance><Prepaid>0.00</Prepaid><Transactions>
              <Transaction><TransactionID>9300002901</TransactionID><TransactionType>Charge</TransactionType>
                <TransactionDate>11/01/2026</TransactionDate><PostMonth>112026</PostMonth><TransactionCode>RENT</TransactionCode>
                <Description>Rent</Description><LeaseID>9400102</LeaseID><Amount>1,000.00</Amount>
                <AmountPaid>0.00</AmountPaid><OpenAmount>1,000.00</OpenAmount><Reference /></Transaction>
            </Transactions></Resident>
          <Resident><ReshID>9300003</ReshID><UnitID>9001108</UnitID><UnitNumber>1108</UnitNumber>
            <Balance>0.00</Balance><Prepaid>0.00</Prepaid><Transactions>
              <Transaction><TransactionID>9300003901</TransactionID><TransactionType>Charge</TransactionType>
                <TransactionDate>11/01/2026</TransactionDate><PostMonth>112026</PostMonth><TransactionCode>RENT</TransactionCode>
                <Description>Rent</Description><LeaseID>9400103</LeaseID><Amount>900.00</Amount>
                <AmountPaid>900.00</AmountPaid><OpenAmount>0.00</OpenAmount><Reference /></Transaction>
              <Transaction><TransactionID>9300003902</TransactionID><TransactionType>Payment</TransactionType>
                <TransactionDate>11/03/2026</TransactionDate><PostMonth>112026</PostMonth><TransactionCode>PAYMENT</TransactionCode>
                <Description>Payment - ACH</Description><LeaseID>9400103</LeaseID><Amount>-900.00</Amount>
                <AmountPaid>0.00</AmountPaid><OpenAmount>0.00</OpenAmount><Reference>EP3902</Reference></Transaction>
            </Transactions></Resident>
        </ResidentLedger></getresidentledgerResult></getresidentledgerResponse></s:Body></s:Envelope>
        """

    @Test func householdsWhoseHistoryStartsBeforeTheWindowKeepRealPagesBalance() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try Self.load(Self.windowPassed, into: realpage, run: "run")
        // The Delinquent and Prepaid report of the day: the one household owing.
        try realpage.delinquency("1107", residentID: "9300002", name: "Diaz, Pat", balance: 1400, aging: [1000, 400, 0, 0])
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")

        let balances = try realpage.keyed("SELECT resident_id, balance FROM unified_household_balances")
        #expect(balances["9300001"]?[0] == .real(0), "not a $630 credit: \(balances)")
        #expect(balances["9300002"]?[0] == .real(1400) && balances["9300003"]?[0] == .real(0), "\(balances)")

        // One line per household whose window does not add up, dated the day before the first stored posting.
        let forward = try realpage.keyed("""
            SELECT resident_id, charge_code, charge_date, period, amount, amount_paid, balance FROM unified_charges
            WHERE charge_id LIKE 'balance-forward:%'
            """)
        #expect(forward.keys.sorted() == ["9300001", "9300002"])
        #expect(forward["9300001"] == [.text("BALFWD"), .text("2025-01-08"), .text("2025-01"), .real(630), .real(630), .real(0)],
                "settled before the window: paid in full")
        #expect(forward["9300002"] == [.text("BALFWD"), .text("2025-01-08"), .text("2025-01"), .real(400), .real(0), .real(400)],
                "the $400 RealPage still counts as open")

        let check = try realpage.rows("""
            SELECT status, expected, actual FROM sync_checks WHERE check_name = 'ledger_open_balance'
            """)
        #expect(check == [[.text("passed"), .real(1400), .real(1400)]])

        // 9300002's Balance is its open charge in the window and the $400 its balance forward holds open: RealPage's
        // two statements of it agree.
        #expect(outcome.warnings.filter { $0.check == "ledger_balance" }.isEmpty, "\(outcome.warnings)")
    }

    /// Where RealPage's two statements of a household cannot both hold, its Balance against its open charges and what
    /// its balance forward carries open, the sync says so: more open in the window than the Balance, or a Balance
    /// beyond what the postings before the window can leave open.
    @Test func aBalanceItsOpenChargesCannotMakeIsNamed() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        func household(_ id: String, unit: String, balance: String, amount: String, open: String) -> String {
            """
            <Resident><ReshID>\(id)</ReshID><UnitID>900\(unit)</UnitID><UnitNumber>\(unit)</UnitNumber>
              <Balance>\(balance)</Balance><Prepaid>0.00</Prepaid><Transactions>
                <Transaction><TransactionID>\(id)901</TransactionID><TransactionType>Charge</TransactionType>
                  <TransactionDate>11/01/2026</TransactionDate><PostMonth>112026</PostMonth><TransactionCode>RENT</TransactionCode>
                  <Description>Rent</Description><Amount>\(amount)</Amount><OpenAmount>\(open)</OpenAmount></Transaction>
              </Transactions></Resident>
            """
        }
        // 9300005 owes 500 with 1,000 open; 9300006's 1,000 charge is paid, its Balance 1,400 leaves 400 to the forward.
        let added = household("9300005", unit: "1110", balance: "500.00", amount: "1,000.00", open: "1,000.00")
            + household("9300006", unit: "1111", balance: "1,400.00", amount: "1,000.00", open: "0.00")
        let end = try #require(Self.windowPassed.range(of: "</ResidentLedger>"))
        try Self.load(Self.windowPassed.replacingCharacters(in: end, with: added + "</ResidentLedger>"), into: realpage, run: "run")
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        let stated = outcome.warnings.filter { $0.check == "ledger_balance" }
        #expect(stated.map(\.message) == [
            "household 9300005: Balance 500.00 but its open charges 1000.00 less prepaid 0.00 make 1000.00",
            "household 9300006: Balance 1400.00 but its open charges 400.00 (400.00 of them before the ledger's window, its balance forward) less prepaid 0.00 make 400.00",
        ])
    }

    /// A household whose postings all lie before the window is still listed, with its Balance and no transaction (a
    /// former household that left owing): its debt is one balance-forward line, as when its last postings aged out of
    /// a ledger kept night by night. Stored only from a transaction, the Balance of such a household was lost by a
    /// fresh ingest (after two years of the simulator, 584 debtors and $1.75 million missing from `report debtors`).
    @Test func aHouseholdListedWithoutTransactionsKeepsItsDebt() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        let listed = """
            <Resident><ReshID>9300004</ReshID><UnitID>9001109</UnitID><UnitNumber>1109</UnitNumber>
              <Balance>3,027.03</Balance><Prepaid>0.00</Prepaid><Transactions></Transactions></Resident>
            """
        let end = try #require(Self.windowPassed.range(of: "</ResidentLedger>"))
        try Self.load(Self.windowPassed.replacingCharacters(in: end, with: listed + "</ResidentLedger>"), into: realpage, run: "run")
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        let line = try realpage.rows("""
            SELECT unit_number, amount, amount_paid, balance FROM unified_charges WHERE charge_id = 'balance-forward:9300004'
            """)
        #expect(line == [[.text("1109"), .real(3027.03), .real(0), .real(3027.03)]])
        let balance = try realpage.rows("SELECT balance FROM unified_household_balances WHERE resident_id = '9300004'")
        #expect(balance == [[.real(3027.03)]])
    }

    /// Transactions neither Charge nor Payment are left out of the ledger and listed, one warning per type and its
    /// count, whichever side of Charge and Payment the type's name sorts on.
    @Test func transactionsOfOtherTypesAreListed() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        func other(_ id: String, _ type: String) -> String {
            "<Transaction><TransactionID>\(id)</TransactionID><TransactionType>\(type)</TransactionType>"
                + "<TransactionDate>11/05/2026</TransactionDate><TransactionCode>MISC</TransactionCode><Amount>10.00</Amount></Transaction>"
        }
        let others = [other("9300003911", "Adjustment"), other("9300003912", "Adjustment"), other("9300003913", "Deposit"),
                      other("9300003914", "Refund")].joined()
        // Household 9300003's, after its own two.
        let last = try #require(Self.windowPassed.range(of: "</Transactions>", options: .backwards))
        try Self.load(Self.windowPassed.replacingCharacters(in: last, with: others + "</Transactions>"), into: realpage, run: "run")
        let outcome = try #require(realpage.sync().first)
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        let listed = outcome.warnings.filter { $0.check == "ledger_type" }.map { "\($0.subject): \($0.message)" }
        #expect(listed == ["Adjustment: 2 getresidentledger transaction(s) of type 'Adjustment' left out of the ledger",
                           "Deposit: 1 getresidentledger transaction(s) of type 'Deposit' left out of the ledger",
                           "Refund: 1 getresidentledger transaction(s) of type 'Refund' left out of the ledger"])
        #expect(try realpage.rows("SELECT count(*) FROM unified_charges WHERE charge_id LIKE '93000039__'") == [[.integer(1)]])
    }

    /// Loads `xml` as the fixture property's getresidentledger answer of run `run`, as of `asOf` (the fixture's date
    /// by default): merged into the ledger the loads before it left.
    static func load(_ xml: String, into realpage: RealPageFixture, run: String,
                     asOf: LocalDate = LocalDate(iso: RealPageFixture.asOf)!) throws {
        let path = realpage.directory.appendingPathComponent("getresidentledger-\(run).xml")
        try Data(xml.utf8).write(to: path)
        _ = try RPXArtifactLoader(store: realpage.raw, runID: RunID(run)).load(
            path: path.path, operation: .getresidentledger, property: RealPageFixture.property, asOf: asOf)
    }

    /// Syncs the fixture's property whole (`sync --full`, run `run`); returns the subjects of the differences it found
    /// from what the syncs before it left (`sync_drift`).
    static func fullSyncDrift(_ realpage: RealPageFixture, run: String) throws -> [String] {
        let outcome = try #require(Synchronizer(store: realpage.store, runID: run, mode: .full)
            .sync([RealPageFixture.property], log: Diagnostics(sink: { _ in })).first)
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        return outcome.warnings.filter { $0.check == "sync_drift" }.map(\.subject)
    }

    /// A night by change (LedgerDelta) sums again only the households whose line can have moved: those with a charge
    /// or payment rewritten (every household with a line among them) and those whose stated Balance was written
    /// since. 9300002 pays $400 (its line stays $400), 9300003's Balance becomes $50 (a line appears), 9300001 is
    /// as it was (its line stays); the rows are a full rebuild's. A household neither rewritten nor restated is not
    /// summed again: a stated balance changed behind the loader's back (no new lineage) shows only in `sync --full`,
    /// which names the line it adds.
    @Test func aNightByChangeSumsOnlyTheHouseholdsWhoseLineCanHaveMoved() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        func load(_ xml: String, run: String) throws { try Self.load(xml, into: realpage, run: run) }
        func forward() throws -> [String: [SQLValue]] {
            try realpage.keyed("SELECT resident_id, amount, amount_paid, balance FROM unified_charges WHERE charge_id LIKE 'balance-forward:%'")
        }
        func fullSync(_ run: String) throws -> [String] { try Self.fullSyncDrift(realpage, run: run) }
        try load(Self.windowPassed, run: "run1")
        #expect(realpage.sync().first?.error == nil)
        #expect(try forward().keys.sorted() == ["9300001", "9300002"])

        let payment = """
            <Transaction><TransactionID>9300002902</TransactionID><TransactionType>Payment</TransactionType>
              <TransactionDate>11/15/2026</TransactionDate><PostMonth>112026</PostMonth><TransactionCode>PAYMENT</TransactionCode>
              <Description>Payment - ACH</Description><LeaseID>9400102</LeaseID><Amount>-400.00</Amount>
              <AmountPaid>0.00</AmountPaid><OpenAmount>0.00</OpenAmount><Reference>EP2902</Reference></Transaction>
            """
        var night2 = Self.windowPassed.replacingOccurrences(of: "<Balance>1,400.00</Balance>", with: "<Balance>1,000.00</Balance>")
        let charged = try #require(night2.range(of: "9300002901"))
        let chargeEnd = try #require(night2.range(of: "</Transaction>", range: charged.upperBound ..< night2.endIndex))
        night2.replaceSubrange(chargeEnd, with: "</Transaction>" + payment)
        let third = try #require(night2.range(of: "<ReshID>9300003</ReshID>"))
        let balance = try #require(night2.range(of: "<Balance>0.00</Balance>", range: third.upperBound ..< night2.endIndex))
        night2.replaceSubrange(balance, with: "<Balance>50.00</Balance>")
        #expect(night2.contains("EP2902") && night2.contains("<Balance>50.00</Balance>"))
        try load(night2, run: "run2")
        #expect(realpage.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try realpage.rows("SELECT count(*) FROM ledger_sync_marks") == [[.integer(1)]], "the ledger went by change")
        let lines = try forward()
        #expect(lines.keys.sorted() == ["9300001", "9300002", "9300003"])
        #expect(lines["9300001"]?[0] == .real(630) && lines["9300002"]?[0] == .real(400) && lines["9300003"]?[0] == .real(50),
                "\(lines)")
        #expect(try fullSync("20261122T000000Z-test") == [], "the night's rows are a full rebuild's")

        // The first answer again: 9300003's Balance back to 0 (its line goes), the payment gone (9300002's line stays).
        try load(Self.windowPassed, run: "run3")
        #expect(realpage.sync(runID: "20261123T000000Z-test").first?.error == nil)
        #expect(try forward().keys.sorted() == ["9300001", "9300002"])
        #expect(try fullSync("20261124T000000Z-test") == [])

        // Behind the loader's back (with the first load's lineage, as if stated then), at a household with no line and
        // no posting rewritten: a night by change does not sum it again; the full sync does, and names the line it adds.
        try realpage.raw.database.execute("""
            UPDATE realpage_ledger_households SET balance = 75, lineage_id = (SELECT min(lineage_id) FROM realpage_ledger)
            WHERE resh_id = '9300003'
            """)
        #expect(realpage.sync(runID: "20261125T000000Z-test").first?.error == nil)
        #expect(try forward()["9300003"] == nil)
        #expect(try fullSync("20261126T000000Z-test").contains { $0.hasPrefix("unified_charges") && $0.contains("9300003") })
        #expect(try forward()["9300003"]?[0] == .real(75))
    }

    /// A balance-forward line is rewritten when its household's postings or stated Balance move, not because the
    /// merged ledger's date did: a night that brings the ledger to the next day and two postings of 9300003 (which has
    /// no line) leaves the lines of 9300001 and 9300002 as they were, neither written nor counted as changes (their
    /// description named the ledger's date, and every line of every household the window had passed was written again,
    /// and published, each night).
    @Test func theBalanceForwardLinesStayWhenOnlyTheLedgersDateMoves() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        let asOf = LocalDate(iso: RealPageFixture.asOf)!
        try Self.load(Self.windowPassed, into: realpage, run: "run1", asOf: asOf)
        #expect(realpage.sync().first?.error == nil)
        let lines = "SELECT resident_id, description, amount FROM unified_charges WHERE charge_id LIKE 'balance-forward:%'"
        let before = try realpage.keyed(lines)
        #expect(before.keys.sorted() == ["9300001", "9300002"])

        let postings = """
            <Transaction><TransactionID>9300003903</TransactionID><TransactionType>Charge</TransactionType>
              <TransactionDate>11/10/2026</TransactionDate><PostMonth>112026</PostMonth><TransactionCode>LATEFEE</TransactionCode>
              <Description>Late fee</Description><LeaseID>9400103</LeaseID><Amount>25.00</Amount>
              <AmountPaid>25.00</AmountPaid><OpenAmount>0.00</OpenAmount><Reference /></Transaction>
            <Transaction><TransactionID>9300003904</TransactionID><TransactionType>Payment</TransactionType>
              <TransactionDate>11/10/2026</TransactionDate><PostMonth>112026</PostMonth><TransactionCode>PAYMENT</TransactionCode>
              <Description>Payment - ACH</Description><LeaseID>9400103</LeaseID><Amount>-25.00</Amount>
              <AmountPaid>0.00</AmountPaid><OpenAmount>0.00</OpenAmount><Reference>EP3904</Reference></Transaction>
            """
        var night2 = Self.windowPassed
        let third = try #require(night2.range(of: "<TransactionID>9300003902</TransactionID>"))
        let end = try #require(night2.range(of: "</Transaction>", range: third.upperBound ..< night2.endIndex))
        night2.replaceSubrange(end, with: "</Transaction>" + postings)
        try Self.load(night2, into: realpage, run: "run2", asOf: asOf.adding(days: 1))
        let outcome = try #require(realpage.sync(runID: "20261121T000000Z-test").first)
        #expect(outcome.error == nil && outcome.unchangedSinceRun == nil, "\(String(describing: outcome.error))")
        #expect(try realpage.rows("SELECT count(*) FROM ledger_sync_marks") == [[.integer(1)]], "the ledger went by change")
        #expect(outcome.changes["unified_charges"] == RowChanges(deleted: 0, inserted: 1), "only the late fee: \(outcome.changes)")
        #expect(try realpage.keyed(lines) == before)
    }

    /// A night by change writes a balance-forward line again only when it can have moved (LedgerDelta
    /// .setAsideBalanceForward, RealPageLedger.listMovedForwardHouseholds): postings of a household without a line
    /// leave both lines as they were (not deleted and written again: the same rows); a renewed head's lease moves its
    /// household's line alone; a posting dated before every other moves every line's date. After each night the rows
    /// are a full rebuild's.
    @Test func aNightByChangeWritesAgainOnlyTheLinesThatCanHaveMoved() throws {
        let realpage = try RealPageFixture()
        let asOf = LocalDate(iso: RealPageFixture.asOf)!
        var ledger = Self.windowPassed
        func night(_ day: Int, lease: String) throws -> PropertySyncOutcome {
            let date = asOf.adding(days: day)
            try realpage.loadedEverything(asOf: date.iso)
            try realpage.resident(household: "9300002", unit: "1107", status: "Current", lease: lease, asOf: date.iso)
            try Self.load(ledger, into: realpage, run: "run\(day)", asOf: date)
            let outcome = try #require(realpage.sync(runID: "2026112\(day)T000000Z-test").first)
            #expect(outcome.error == nil, "\(String(describing: outcome.error))")
            return outcome
        }
        func lines() throws -> [String: [SQLValue]] {
            try realpage.keyed("""
                SELECT resident_id, rowid, lease_id, charge_date, amount FROM unified_charges
                WHERE charge_id LIKE 'balance-forward:%'
                """)
        }
        func after(_ transaction: String, add postings: String) throws {
            let found = try #require(ledger.range(of: "<TransactionID>\(transaction)</TransactionID>"))
            let end = try #require(ledger.range(of: "</Transaction>", range: found.upperBound ..< ledger.endIndex))
            ledger.replaceSubrange(end, with: "</Transaction>" + postings)
        }
        func pair(_ id: String, _ date: String, _ amount: String) -> String {
            """
            <Transaction><TransactionID>\(id)1</TransactionID><TransactionType>Charge</TransactionType>
              <TransactionDate>\(date)</TransactionDate><TransactionCode>LATEFEE</TransactionCode><Description>Late fee</Description>
              <LeaseID>9400103</LeaseID><Amount>\(amount)</Amount><AmountPaid>\(amount)</AmountPaid><OpenAmount>0.00</OpenAmount></Transaction>
            <Transaction><TransactionID>\(id)2</TransactionID><TransactionType>Payment</TransactionType>
              <TransactionDate>\(date)</TransactionDate><TransactionCode>PAYMENT</TransactionCode><Description>Payment - ACH</Description>
              <LeaseID>9400103</LeaseID><Amount>-\(amount)</Amount><AmountPaid>0.00</AmountPaid><OpenAmount>0.00</OpenAmount></Transaction>
            """
        }
        _ = try night(0, lease: "9400102")
        let first = try lines()
        #expect(first.keys.sorted() == ["9300001", "9300002"])
        #expect(first["9300002"]?[1] == .text("9400102") && first["9300002"]?[2] == .text("2025-01-08"), "\(first)")

        // 9300003 (no line) is charged and pays a late fee.
        try after("9300003902", add: pair("930000393", "11/10/2026", "25.00"))
        let quiet = try night(1, lease: "9400102")
        #expect(try realpage.rows("SELECT count(*) FROM ledger_sync_marks") == [[.integer(1)]], "the ledger went by change")
        #expect(quiet.changes["unified_charges"] == RowChanges(deleted: 0, inserted: 1), "\(quiet.changes)")
        #expect(try lines() == first, "neither line written again")
        #expect(try Self.fullSyncDrift(realpage, run: "20261201T000000Z-test") == [])

        // 9300002's head renews: its line takes the new lease; 9300001's stays as it was.
        _ = try night(2, lease: "9400202")
        let renewed = try lines()
        #expect(renewed["9300002"]?[1] == .text("9400202") && renewed["9300001"] == first["9300001"], "\(renewed)")
        #expect(try Self.fullSyncDrift(realpage, run: "20261202T000000Z-test") == [])

        // A late fee of 9300003 posted and paid in December 2024, before every stored posting: every line's date moves.
        try after("9300003902", add: pair("930000394", "12/15/2024", "10.00"))
        _ = try night(3, lease: "9400202")
        let earlier = try lines()
        #expect(earlier.mapValues { $0[2] } == ["9300001": .text("2024-12-14"), "9300002": .text("2024-12-14")], "\(earlier)")
        #expect(earlier.mapValues { $0[3] } == ["9300001": .real(630), "9300002": .real(400)])
        #expect(try Self.fullSyncDrift(realpage, run: "20261203T000000Z-test") == [])
    }
}
