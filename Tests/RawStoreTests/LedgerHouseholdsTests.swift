import Foundation
import OwnerDashCore
import SQLiteKit
import Testing
@testable import RawStore

/// The weekly whole getresidentledger pull decoded by household (LedgerHouseholds): what it holds as stored must leave
/// the merged ledger, its change log and the household balances exactly as decoding the whole answer does.
@Suite struct LedgerHouseholdsTests {
    /// One household of an answer: its id, balance and transactions (id, date MM/DD/YYYY, amount, open amount; a
    /// negative amount is a payment).
    struct Household {
        var reshID: String
        var balance = "0.00"
        var transactions: [(String, String, String, String)]
    }

    private static func answer(_ households: [Household]) -> String {
        let residents = households.map { household in
            let rows = household.transactions.map { t in
                "<Transaction><TransactionID>\(t.0)</TransactionID><TransactionType>"
                    + "\(t.2.hasPrefix("-") ? "Payment" : "Charge")</TransactionType><TransactionDate>\(t.1)"
                    + "</TransactionDate><TransactionCode>RENT</TransactionCode><Amount>\(t.2)</Amount>"
                    + "<OpenAmount>\(t.3)</OpenAmount></Transaction>"
            }.joined()
            return "<Resident><ReshID>\(household.reshID)</ReshID><UnitNumber>1\(household.reshID)</UnitNumber>"
                + "<Balance>\(household.balance)</Balance><Prepaid>0.00</Prepaid><Transactions>\(rows)</Transactions></Resident>"
        }.joined()
        return """
            <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><getresidentledgerResponse \
            xmlns="http://tempuri.org/"><getresidentledgerResult><ResidentLedger xmlns="">\(residents)</ResidentLedger>\
            </getresidentledgerResult></getresidentledgerResponse></s:Body></s:Envelope>
            """
    }

    /// The same answers loaded into two raw databases: one by household (a build named), one whole (no build).
    final class Pair {
        let byHousehold = try! LoaderFixture()
        let whole = try! LoaderFixture()
        let property = Property(key: "nexus_east", name: "Nexus East", pms: .realpage, siteID: "5472172")
        var build = "build-1"

        /// Loads `households` as the answer of `asOf` into both; returns the by-household load's note.
        @discardableResult
        func load(_ run: String, _ asOf: String, answer: LedgerAnswer? = nil, _ households: [Household]) throws -> String {
            let path = byHousehold.directory.appendingPathComponent("\(run).xml").path
            try Data(LedgerHouseholdsTests.answer(households).utf8).write(to: URL(fileURLWithPath: path))
            _ = try RPXArtifactLoader(store: whole.store, runID: RunID(run), build: nil).load(
                path: path, operation: .getresidentledger, property: property, asOf: LocalDate(iso: asOf)!, answer: answer)
            return try RPXArtifactLoader(store: byHousehold.store, runID: RunID(run), build: build).load(
                path: path, operation: .getresidentledger, property: property, asOf: LocalDate(iso: asOf)!,
                answer: answer).note ?? ""
        }

        /// Each table the merge writes, row for row in both (row ids and lineage ids included).
        func expectSame(_ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
            for table in ["realpage_ledger", "realpage_ledger_changes", "realpage_ledger_households", "raw_lineage",
                          "ledger_removals", "ledger_removed_rows"] {
                let sql = "SELECT * FROM \(table) ORDER BY 1, 2"
                #expect(try byHousehold.store.database.query(sql) == whole.store.database.query(sql),
                        "\(table)\(comment.map { ": \($0)" } ?? "")", sourceLocation: sourceLocation)
            }
        }

        func records() throws -> [[SQLValue]] {
            try byHousehold.store.database.query("SELECT resh_id, transactions FROM realpage_ledger_records ORDER BY resh_id")
        }
    }

    static let a = Household(reshID: "100", transactions: [("A1", "10/01/2026", "900.00", "0.00"),
                                                          ("A2", "10/03/2026", "-900.00", "0.00")])
    static let b = Household(reshID: "200", balance: "1000.00", transactions: [("B1", "11/01/2026", "1000.00", "1000.00")])
    static let c = Household(reshID: "300", transactions: [("C1", "10/01/2026", "800.00", "0.00"),
                                                          ("C2", "10/02/2026", "-800.00", "0.00")])
    /// Nine households whose ledgers do not move, as most of a property's do from one week to the next (a pull is
    /// read by household only where at least three quarters of its records repeat).
    static let quiet = (1...9).map { n in
        Household(reshID: "90\(n)", transactions: [("Q\(n)", "10/01/2026", "700.00", "0.00")])
    }

    @Test func aWeeklyPullDecodesOnlyTheHouseholdsThatChangedAndEndsAsAWholeDecode() throws {
        let pair = Pair()
        let (a, b, c) = (Self.a, Self.b, Self.c)
        let quiet = Self.quiet
        try pair.load("night-1", "2026-11-01", [a, b, c] + quiet)
        #expect(try pair.records().prefix(3)
                == [[.text("100"), .integer(2)], [.text("200"), .integer(1)], [.text("300"), .integer(2)]])
        // A window pays B's charge; another writes C's payment wrongly (the vendor's whole answer still has it right).
        try pair.load("night-2", "2026-11-05", answer: .dated(from: "2026-10-29", to: "2026-11-05"),
                      [Household(reshID: "200", transactions: [("B2", "11/04/2026", "-1000.00", "0.00")])])
        try pair.load("night-3", "2026-11-06", answer: .dated(from: "2026-10-02", to: "2026-10-02"),
                      [Household(reshID: "300", transactions: [("C2", "10/02/2026", "-80.00", "0.00")])])
        // The weekly pull: A as a week ago, B paid (its record changed), C as a week ago, D new.
        let paidB = Household(reshID: "200", transactions: [("B1", "11/01/2026", "1000.00", "0.00"),
                                                            ("B2", "11/04/2026", "-1000.00", "0.00")])
        let d = Household(reshID: "400", balance: "50.00", transactions: [("D1", "11/07/2026", "50.00", "50.00")])
        let week = try pair.load("night-4", "2026-11-08", [a, paidB, c] + quiet + [d])
        #expect(week.hasSuffix("10 household(s) as stored, not decoded"), "A and the quiet ones held: \(week)")
        try pair.expectSame()
        #expect(try pair.byHousehold.store.database.query("""
            SELECT transaction_id, change, found_by FROM realpage_ledger_changes WHERE found_by = 'full_refresh' ORDER BY id
            """) == [[.text("B1"), .text("applied"), .text("full_refresh")],
                     [.text("C2"), .text("corrected"), .text("full_refresh")],
                     [.text("D1"), .text("added"), .text("full_refresh")]],
                "C's wrong payment is caught although its record repeats")
        // A week on, nothing changed: every household held, the ledger as a whole decode leaves it.
        let still = try pair.load("night-5", "2026-11-15", [a, paidB, c] + quiet + [d])
        #expect(still == "0 new, 0 updated, 0 removed, 16 unchanged, 13 household(s) as stored, not decoded")
        try pair.expectSame()
        // B moves out of the answer: its rows are removed, its record forgotten.
        let gone = try pair.load("night-6", "2026-11-22", [a, c] + quiet + [d])
        #expect(gone.hasPrefix("0 new, 0 updated, 2 removed, 14 unchanged"), "\(gone)")
        try pair.expectSame()
        #expect(try pair.records().map { $0[0] } == [.text("100"), .text("300"), .text("400")] + quiet.map { .text($0.reshID) })
    }

    /// A household listed without transactions, decoded between held ones: the transactions after it keep the places a
    /// whole decode gives them (the held ones before it are counted although it hands the merge no row).
    @Test func aHouseholdWithoutTransactionsLeavesTheLaterRowsInPlace() throws {
        let pair = Pair()
        let empty = Household(reshID: "600", transactions: [])
        try pair.load("night-1", "2026-11-01", [Self.a] + Self.quiet)
        let e = Household(reshID: "700", transactions: [("E1", "11/02/2026", "60.00", "60.00")])
        let note = try pair.load("night-2", "2026-11-08", [Self.a] + Self.quiet.prefix(5) + [empty] + Self.quiet.suffix(4) + [e])
        #expect(note.hasSuffix("10 household(s) as stored, not decoded"), "\(note)")
        try pair.expectSame()
        #expect(try pair.byHousehold.store.database.query("SELECT source_row FROM realpage_ledger WHERE transaction_id = 'E1'")
                == [[.integer(12)]])
    }

    @Test func aTransactionThatMovesOutOfAHeldHouseholdDecodesTheAnswerWhole() throws {
        let pair = Pair()
        let (a, b) = (Self.a, Self.b)
        try pair.load("night-1", "2026-11-01", [a, b] + Self.quiet)
        // B's record now lists A's payment A2 too (a vendor's repeated key) while A's record repeats byte for byte.
        let claimed = Household(reshID: "200", balance: "1000.00",
                                transactions: b.transactions + [("A2", "10/03/2026", "-900.00", "0.00")])
        let note = try pair.load("night-2", "2026-11-08", [a, claimed] + Self.quiet)
        #expect(!note.contains("as stored"), "\(note)")
        try pair.expectSame()
        #expect(try pair.byHousehold.store.database.query("SELECT resh_id FROM realpage_ledger WHERE transaction_id = 'A2'")
                == [[.text("200")]], "the last household listing it has it, as in a whole decode")
    }

    /// A bad value in a household decoded beside held ones is named at its place in the whole answer, as a whole
    /// decode names it, and nothing of the answer is kept.
    @Test func aBadValueIsNamedWhereTheWholeAnswerHasIt() throws {
        let pair = Pair()
        try pair.load("night-1", "2026-11-01", [Self.a, Self.b] + Self.quiet)
        let bad = Household(reshID: "500", transactions: [("E1", "11/05/2026", "lots", "0.00")])
        let path = pair.byHousehold.directory.appendingPathComponent("night-2.xml").path
        try Data(Self.answer([Self.a, Self.b] + Self.quiet + [bad]).utf8).write(to: URL(fileURLWithPath: path))
        func message(_ store: RealPageRawStore, build: String?) -> String {
            do {
                _ = try RPXArtifactLoader(store: store, runID: RunID("night-2"), build: build).load(
                    path: path, operation: .getresidentledger, property: pair.property, asOf: LocalDate(iso: "2026-11-08")!)
                return "loaded"
            } catch {
                return "\(error)"
            }
        }
        let whole = message(pair.whole.store, build: nil)
        #expect(whole.hasSuffix("Resident 500 Transaction 13: Amount: \"lots\" is not an amount"), "\(whole)")
        #expect(message(pair.byHousehold.store, build: pair.build) == whole)
        try pair.expectSame("nothing of the bad answer kept")
    }

    @Test func recordsOfAnotherBuildOrOfALaterAnswerOrAFewRepeatsAreNotHeld() throws {
        let pair = Pair()
        let (a, b) = (Self.a, Self.b)
        try pair.load("night-1", "2026-11-08", [a, b] + Self.quiet)
        pair.build = "build-2"
        let rebuilt = try pair.load("night-2", "2026-11-15", [a, b] + Self.quiet)
        #expect(!rebuilt.contains("as stored"), "another build decodes every household once: \(rebuilt)")
        // A whole answer older than one merged already (a replayed night) decodes whole and records nothing.
        let before = try pair.records()
        let late = try pair.load("night-3", "2026-11-12", [a, b] + Self.quiet)
        #expect(!late.contains("as stored"), "\(late)")
        #expect(try pair.records() == before)
        // Rent posted to most households (the week of the first): the few repeats are parsed too, not copied around.
        let posted = Self.quiet.map { household in
            Household(reshID: household.reshID, transactions: household.transactions + [
                ("R" + household.reshID, "11/20/2026", "700.00", "700.00")])
        }
        let rent = try pair.load("night-4", "2026-11-20", [a, b] + posted)
        #expect(rent.hasPrefix("9 new, 0 updated") && !rent.contains("as stored"), "\(rent)")
        try pair.expectSame()
    }

    // MARK: - The nightly window and open items

    /// A household as a window or the open items list it when none of its transactions falls in them.
    static func listedEmpty(_ household: Household) -> Household {
        Household(reshID: household.reshID, balance: household.balance, transactions: [])
    }

    /// The window and the open items list every household, most of them as the night before: those are held, and the
    /// merged ledger, its change log and the balances end as decoding each answer whole leaves them.
    @Test func nightlyWindowsAndOpenItemsHoldTheHouseholdsTheyRepeat() throws {
        let pair = Pair()
        let (a, b, c) = (Self.a, Self.b, Self.c)
        let quiet = Self.quiet.map(Self.listedEmpty)
        try pair.load("night-1", "2026-11-02", [a, b, c] + Self.quiet)
        // B's rent in the window, the rest listed without transactions: the first window is decoded whole.
        let first = try pair.load("night-2", "2026-11-03", answer: .dated(from: "2026-10-26", to: "2026-11-03"),
                                  [Self.listedEmpty(a), b, Self.listedEmpty(c)] + quiet)
        #expect(!first.contains("as stored"), "\(first)")
        try pair.expectSame()
        // The same records a night later: every household held, nothing decoded.
        let repeated = try pair.load("night-3", "2026-11-04", answer: .dated(from: "2026-10-27", to: "2026-11-04"),
                                     [Self.listedEmpty(a), b, Self.listedEmpty(c)] + quiet)
        #expect(repeated == "0 new, 0 updated, 0 removed, 1 unchanged, 12 household(s) as stored, not decoded")
        try pair.expectSame()
        // B pays: its record is decoded, the others held.
        let paidB = Household(reshID: "200", transactions: [("B1", "11/01/2026", "1000.00", "0.00"),
                                                            ("B2", "11/04/2026", "-1000.00", "0.00")])
        let paid = try pair.load("night-4", "2026-11-05", answer: .dated(from: "2026-10-28", to: "2026-11-05"),
                                 [Self.listedEmpty(a), paidB, Self.listedEmpty(c)] + quiet)
        #expect(paid.hasPrefix("1 new, 1 updated, 0 removed") && paid.hasSuffix("11 household(s) as stored, not decoded"),
                "\(paid)")
        try pair.expectSame()
        // The open items: B's charge is paid, C owes a fee. Then the same open items again: held, nothing settled.
        let fee = Household(reshID: "300", balance: "75.00", transactions: [("C3", "11/05/2026", "75.00", "75.00")])
        try pair.load("night-5", "2026-11-06", answer: .dated(from: "2026-10-29", to: "2026-11-06"),
                      [Self.listedEmpty(a), paidB, fee] + quiet)
        try pair.load("night-5", "2026-11-06", answer: .openItems, [Self.listedEmpty(a), Self.listedEmpty(b), fee] + quiet)
        let open = try pair.load("night-6", "2026-11-07", answer: .openItems,
                                 [Self.listedEmpty(a), Self.listedEmpty(b), fee] + quiet)
        #expect(open == "0 new, 0 updated, 0 removed, 1 unchanged, 12 household(s) as stored, not decoded")
        try pair.expectSame()
        // C pays its fee outside any window the night sees: the open items no longer list it, so it is settled.
        let settled = try pair.load("night-7", "2026-11-08", answer: .openItems,
                                    [Self.listedEmpty(a), Self.listedEmpty(b), Self.listedEmpty(c)] + quiet)
        #expect(settled.hasPrefix("0 new, 1 updated"), "\(settled)")
        try pair.expectSame()
        #expect(try pair.byHousehold.store.database.query(
            "SELECT open_amount FROM realpage_ledger WHERE transaction_id = 'C3'") == [[.real(0)]])
    }

    /// A record repeated byte for byte is decoded where holding it could differ from decoding it: a transaction it
    /// lists lies before tonight's window, another household's record now lists one of its transactions, or a
    /// transaction it left in the window is stored no more.
    @Test func aRepeatedWindowRecordIsDecodedWhereHoldingItCouldDiffer() throws {
        let pair = Pair()
        let quiet = Self.quiet.map(Self.listedEmpty)
        let e = Household(reshID: "700", balance: "60.00", transactions: [("E1", "11/02/2026", "60.00", "60.00")])
        try pair.load("night-1", "2026-11-02", [Self.a, Self.b] + Self.quiet + [e])
        try pair.load("night-2", "2026-11-03", answer: .dated(from: "2026-10-27", to: "2026-11-03"),
                      [Self.listedEmpty(Self.a), Self.b] + quiet + [e])
        // The vendor repeats B's November 1 rent in a window starting November 2: B is decoded, not held.
        let outside = try pair.load("night-3", "2026-11-04", answer: .dated(from: "2026-11-02", to: "2026-11-04"),
                                    [Self.listedEmpty(Self.a), Self.b] + quiet + [e])
        #expect(outside.hasSuffix("11 household(s) as stored, not decoded"), "\(outside)")
        try pair.expectSame()
        // E's record repeats, but B's now lists E's charge: the window is decoded whole, as the whole decode reads it.
        let claimed = Household(reshID: "200", balance: "1000.00", transactions: Self.b.transactions + e.transactions)
        let moved = try pair.load("night-4", "2026-11-05", answer: .dated(from: "2026-10-29", to: "2026-11-05"),
                                  [Self.listedEmpty(Self.a), claimed] + quiet + [e])
        #expect(!moved.contains("as stored"), "\(moved)")
        try pair.expectSame()
        // A whole pull drops E's charge; the window still repeats E's record: E is decoded and its charge comes back.
        try pair.load("night-5", "2026-11-06", [Self.a, Self.b] + Self.quiet + [Self.listedEmpty(e)])
        try pair.load("night-6", "2026-11-06", answer: .dated(from: "2026-10-30", to: "2026-11-06"),
                      [Self.listedEmpty(Self.a), Self.b] + quiet + [e])
        try pair.expectSame()
        #expect(try pair.byHousehold.store.database.query(
            "SELECT resh_id FROM realpage_ledger WHERE transaction_id = 'E1'") == [[.text("700")]])
    }
}
