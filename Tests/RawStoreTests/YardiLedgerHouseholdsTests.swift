import Foundation
import OwnerDashCore
import SOAP
import SQLiteKit
import Testing
@testable import RawStore

/// The weekly whole GetResidentTransactions_Login pull decoded by customer (LedgerHouseholds over `RT_Customer`): what
/// it holds as stored must leave the merged ledger and its change log exactly as decoding the whole answer does.
@Suite struct YardiLedgerHouseholdsTests {
    /// One transaction: its id (nil: none), the customer its Detail names (nil: none, the RT_Customer's), date
    /// YYYY-MM-DD, amount and balance due; a negative amount is a payment.
    struct Posting {
        var id: String?
        var customer: String? = nil
        var date: String
        var amount: String
        var due = "0.00"
    }

    /// One customer of an answer (`RT_Customer`): its tenant code and postings.
    struct Customer {
        var code: String
        var postings: [Posting]
    }

    private static func answer(_ customers: [Customer], operation: YardiOperation) -> String {
        let records = customers.map { customer in
            let rows = customer.postings.map { p in
                let payment = p.amount.hasPrefix("-")
                let detail = (p.id.map { "<TransactionID>\($0)</TransactionID>" } ?? "")
                    + (p.customer.map { "<CustomerID>\($0)</CustomerID>" } ?? "")
                    + "<TransactionDate>\(p.date)</TransactionDate>"
                    + (payment ? "" : "<ChargeCode>rent</ChargeCode>")
                    + "<Amount>\(payment ? String(p.amount.dropFirst()) : p.amount)</Amount>"
                    + (payment ? "" : "<BalanceDue>\(p.due)</BalanceDue>")
                return payment ? "<Transactions><Payment Type=\"Check\"><Detail>\(detail)</Detail></Payment></Transactions>"
                    : "<Transactions><Charge><Detail>\(detail)</Detail></Charge></Transactions>"
            }.joined()
            return "<RT_Customer><CustomerID>\(customer.code)</CustomerID><RT_Unit><UnitID>1\(customer.code)</UnitID>"
                + "</RT_Unit><RTServiceTransactions>\(rows)</RTServiceTransactions></RT_Customer>"
        }.joined()
        let name = operation.name
        return """
            <?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">\
            <soap:Body><\(name)Response xmlns="http://tempuri.org/YSI.Interfaces.WebServices/ItfResidentTransactions20">\
            <\(name)Result><ResidentTransactions xmlns="http://yardi.com/ResidentTransactions20"><Property>\(records)\
            </Property></ResidentTransactions></\(name)Result></\(name)Response></soap:Body></soap:Envelope>
            """
    }

    /// The same answers loaded into two yardi_raw.db: one by customer (a build named), one whole (no build).
    final class Pair {
        let byCustomer = try! YardiFixture()
        let whole = try! YardiFixture()
        var build = "build-1"

        /// Loads `customers` as the answer of `asOf` into both; returns the by-customer load's note.
        @discardableResult
        func load(_ run: String, _ asOf: String, window: (String, String)? = nil, _ customers: [Customer]) throws -> String {
            let operation: YardiOperation = window == nil ? .getResidentTransactions : .getResidentTransactionsByChargeDate
            let answer: LedgerAnswer? = window.map { .dated(from: $0.0, to: $0.1) }
            let path = byCustomer.directory.appendingPathComponent("\(run).xml").path
            try Data(YardiLedgerHouseholdsTests.answer(customers, operation: operation).utf8).write(to: URL(fileURLWithPath: path))
            let date = LocalDate(iso: asOf)!
            _ = try YardiArtifactLoader(store: whole.store, runID: RunID(run), build: nil).load(
                path: path, operation: operation, property: whole.property, asOf: date, answer: answer)
            return try YardiArtifactLoader(store: byCustomer.store, runID: RunID(run), build: build).load(
                path: path, operation: operation, property: byCustomer.property, asOf: date, answer: answer).note ?? ""
        }

        /// Each table the merge writes, row for row in both (row ids and lineage ids included).
        func expectSame(_ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
            for table in ["yardi_transactions", "yardi_transaction_changes", "raw_lineage", "ledger_removals", "ledger_removed_rows"] {
                let sql = "SELECT * FROM \(table) ORDER BY 1, 2"
                #expect(try byCustomer.store.database.query(sql) == whole.store.database.query(sql),
                        "\(table)\(comment.map { ": \($0)" } ?? "")", sourceLocation: sourceLocation)
            }
        }

        func records() throws -> [[SQLValue]] {
            try byCustomer.store.database.query("SELECT tenant_code, transactions FROM yardi_ledger_records ORDER BY tenant_code")
        }
    }

    static let a = Customer(code: "t100", postings: [Posting(id: "A1", date: "2026-10-01", amount: "900.00"),
                                                     Posting(id: "A2", date: "2026-10-03", amount: "-900.00")])
    static let b = Customer(code: "t200", postings: [Posting(id: "B1", date: "2026-11-01", amount: "1000.00", due: "1000.00")])
    /// Nine customers whose ledgers do not move (a pull is read by customer only where three quarters of its records
    /// repeat).
    static let quiet = (1...9).map { n in Customer(code: "t90\(n)", postings: [Posting(id: "Q\(n)", date: "2026-10-01", amount: "700.00")]) }

    @Test func aWeeklyPullDecodesOnlyTheCustomersThatChangedAndEndsAsAWholeDecode() throws {
        let pair = Pair()
        let (a, b, quiet) = (Self.a, Self.b, Self.quiet)
        try pair.load("night-1", "2026-11-01", [a, b] + quiet)
        #expect(try pair.records().prefix(2) == [[.text("t100"), .integer(2)], [.text("t200"), .integer(1)]])
        // A window pays B's charge: B's merged rows are newer than its record.
        let paid = Customer(code: "t200", postings: [Posting(id: "B1", date: "2026-11-01", amount: "1000.00"),
                                                     Posting(id: "B2", date: "2026-11-04", amount: "-1000.00")])
        try pair.load("night-2", "2026-11-05", window: ("2026-10-29", "2026-11-05"), [paid])
        // The weekly pull: A and the quiet ones as a week ago, B paid, D new.
        let d = Customer(code: "t400", postings: [Posting(id: "D1", date: "2026-11-07", amount: "50.00", due: "50.00")])
        let week = try pair.load("night-3", "2026-11-08", [a, paid] + quiet + [d])
        #expect(week.hasSuffix("10 household(s) as stored, not decoded"), "A and the quiet ones held: \(week)")
        try pair.expectSame()
        // A week on, nothing changed: every customer held.
        let still = try pair.load("night-4", "2026-11-15", [a, paid] + quiet + [d])
        #expect(still == "0 new, 0 updated, 0 removed, 14 unchanged, 12 household(s) as stored, not decoded", "\(still)")
        try pair.expectSame()
        // B leaves the answer: its rows are removed, its record forgotten.
        let gone = try pair.load("night-5", "2026-11-22", [a] + quiet + [d])
        #expect(gone.hasPrefix("0 new, 0 updated, 2 removed, 12 unchanged"), "\(gone)")
        try pair.expectSame()
        #expect(try pair.records().map { $0[0] } == [.text("t100"), .text("t400")] + quiet.map { .text($0.code) })
    }

    /// A customer whose record lists another customer's posting (a Detail naming a roommate), or a posting without
    /// a TransactionID (replaced by every whole answer), is decoded every week, never held; and a customer without
    /// postings between held ones leaves every later row numbered as a whole decode numbers it.
    @Test func mixedOrUnkeyedCustomersAreAlwaysDecodedAndEmptyOnesKeepThePlaces() throws {
        let pair = Pair()
        let mixed = Customer(code: "t300", postings: [Posting(id: "M1", date: "2026-10-01", amount: "800.00"),
                                                      Posting(id: "M2", customer: "t301", date: "2026-10-01", amount: "40.00")])
        let unkeyed = Customer(code: "t500", postings: [Posting(id: nil, date: "2026-10-05", amount: "25.00")])
        let empty = Customer(code: "t600", postings: [])
        let answer = [Self.a] + Self.quiet.prefix(5) + [mixed] + Self.quiet.suffix(4) + [empty, unkeyed, Self.b]
        try pair.load("night-1", "2026-11-01", answer)
        #expect(try !pair.records().contains { $0[0] == .text("t300") || $0[0] == .text("t500") || $0[0] == .text("t600") })
        let week = try pair.load("night-2", "2026-11-08", answer)
        #expect(week.hasSuffix("11 household(s) as stored, not decoded"), "all but the three: \(week)")
        try pair.expectSame()
        #expect(try pair.byCustomer.store.database.query("""
            SELECT source_row FROM yardi_transactions WHERE transaction_id IS NULL
            """) == [[.integer(14)]], "the unkeyed posting keeps its place after the held ones and the empty customer")
    }

    @Test func aTransactionThatMovesOutOfAHeldCustomerDecodesTheAnswerWhole() throws {
        let pair = Pair()
        try pair.load("night-1", "2026-11-01", [Self.a, Self.b] + Self.quiet)
        // B's record now lists A's payment A2 too, while A's record repeats byte for byte.
        let claimed = Customer(code: "t200", postings: Self.b.postings + [Posting(id: "A2", date: "2026-10-03", amount: "-900.00")])
        let note = try pair.load("night-2", "2026-11-08", [Self.a, claimed] + Self.quiet)
        #expect(!note.contains("as stored"), "\(note)")
        try pair.expectSame()
    }

    @Test func aBadValueIsNamedWhereTheWholeAnswerHasIt() throws {
        let pair = Pair()
        try pair.load("night-1", "2026-11-01", [Self.a, Self.b] + Self.quiet)
        let bad = Customer(code: "t700", postings: [Posting(id: "E1", date: "2026-11-05", amount: "lots")])
        let path = pair.byCustomer.directory.appendingPathComponent("night-2.xml").path
        try Data(Self.answer([Self.a, Self.b] + Self.quiet + [bad], operation: .getResidentTransactions).utf8)
            .write(to: URL(fileURLWithPath: path))
        func message(_ fixture: YardiFixture, build: String?) -> String {
            do {
                _ = try YardiArtifactLoader(store: fixture.store, runID: RunID("night-2"), build: build).load(
                    path: path, operation: .getResidentTransactions, property: fixture.property, asOf: LocalDate(iso: "2026-11-08")!)
                return "loaded"
            } catch {
                return "\(error)"
            }
        }
        let whole = message(pair.whole, build: nil)
        #expect(whole.hasSuffix("Transactions 13: Amount: \"lots\" is not an amount"), "\(whole)")
        #expect(message(pair.byCustomer, build: pair.build) == whole)
        try pair.expectSame("nothing of the bad answer kept")
    }
}
