import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// RealPage's postings per household by change (RealPagePostings): the balance-forward rule weighs a rewritten
/// household's stated Balance against its kept sum plus what the night rewrote, not its whole history summed again;
/// a full sync sums every household and names what differs.
@Suite struct RealPagePostingsTests {
    static let kept = "SELECT resident_id, postings, cents, open_cents FROM sync_realpage_postings ORDER BY 1"
    static let lines = "SELECT resident_id, amount FROM unified_charges WHERE charge_id LIKE 'balance-forward:%' ORDER BY 1"

    /// RealPageLedgerWindowTests' three households, then 9300002 pays $400 and its Balance becomes $1,000.
    static func nightWithAPayment() throws -> String {
        let payment = """
            <Transaction><TransactionID>9300002902</TransactionID><TransactionType>Payment</TransactionType>
              <TransactionDate>11/15/2026</TransactionDate><PostMonth>112026</PostMonth><TransactionCode>PAYMENT</TransactionCode>
              <Description>Payment - ACH</Description><LeaseID>9400102</LeaseID><Amount>-400.00</Amount>
              <AmountPaid>0.00</AmountPaid><OpenAmount>0.00</OpenAmount><Reference>EP2902</Reference></Transaction>
            """
        var night = RealPageLedgerWindowTests.windowPassed
            .replacingOccurrences(of: "<Balance>1,400.00</Balance>", with: "<Balance>1,000.00</Balance>")
        let charged = try #require(night.range(of: "9300002901"))
        let chargeEnd = try #require(night.range(of: "</Transaction>", range: charged.upperBound ..< night.endIndex))
        night.replaceSubrange(chargeEnd, with: "</Transaction>" + payment)
        return night
    }

    @Test func aNightAddsToTheKeptSumsWhatItRewrote() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try RealPageLedgerWindowTests.load(RealPageLedgerWindowTests.windowPassed, into: realpage, run: "run1")
        #expect(realpage.sync().first?.error == nil)
        #expect(try realpage.rows(Self.kept) == [
            [.text("9300001"), .integer(1), .integer(-63000), .integer(0)],
            [.text("9300002"), .integer(1), .integer(100000), .integer(100000)],
            [.text("9300003"), .integer(2), .integer(0), .integer(0)]])
        #expect(try realpage.rows(Self.lines) == [[.text("9300001"), .real(630)], [.text("9300002"), .real(400)]])

        // 9300002's kept sum altered behind the sync's back: a night that rewrites its postings adds to it.
        try realpage.store.database.execute("UPDATE sync_realpage_postings SET cents = cents + 10000 WHERE resident_id = '9300002'")
        try RealPageLedgerWindowTests.load(try Self.nightWithAPayment(), into: realpage, run: "run2")
        #expect(realpage.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try realpage.rows(Self.lines) == [[.text("9300001"), .real(630)], [.text("9300002"), .real(300)]],
                "Balance 1,000 less the kept 1,100 and the new payment")
        #expect(try realpage.rows(Self.kept)[1] == [.text("9300002"), .integer(2), .integer(70000), .integer(100000)])

        // The full sync sums every household, and names the line the kept sum had left wrong.
        let drift = try RealPageLedgerWindowTests.fullSyncDrift(realpage, run: "20261122T000000Z-test")
        #expect(drift.contains { $0.hasPrefix("unified_charges") && $0.contains("9300002") }, "\(drift)")
        #expect(try realpage.rows(Self.lines) == [[.text("9300001"), .real(630)], [.text("9300002"), .real(400)]])
        #expect(try realpage.rows(Self.kept)[1] == [.text("9300002"), .integer(2), .integer(60000), .integer(100000)])
    }

    @Test func aPostingGoneComesOffItsHouseholdsKeptSum() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try RealPageLedgerWindowTests.load(try Self.nightWithAPayment(), into: realpage, run: "run1")
        #expect(realpage.sync().first?.error == nil)
        // The first answer: the payment is gone (the merge deletes it), the Balance back to 1,400.
        try RealPageLedgerWindowTests.load(RealPageLedgerWindowTests.windowPassed, into: realpage, run: "run2")
        #expect(realpage.sync(runID: "20261121T000000Z-test").first?.error == nil)
        #expect(try realpage.rows(Self.kept)[1] == [.text("9300002"), .integer(1), .integer(100000), .integer(100000)])
        #expect(try RealPageLedgerWindowTests.fullSyncDrift(realpage, run: "20261122T000000Z-test") == [])
    }
}
