import Foundation
import OwnerDashCore
import Parse
import SOAP
import SQLiteKit
import Testing
@testable import RawStore

/// Writes a getresidentledger response of `households` households with `perHousehold` charges each, a household at a
/// time; its size in bytes.
private func writeRPXLedger(to path: String, households: Int, perHousehold: Int) throws -> Int {
    try writeDocument(to: path) { write in
        try write("""
            <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><getresidentledgerResponse \
            xmlns="http://tempuri.org/"><getresidentledgerResult><ResidentLedger xmlns="">
            """)
        for household in 0..<households {
            var text = "<Resident><ReshID>\(9_000_000 + household)</ReshID><UnitNumber>\(1000 + household % 400)</UnitNumber>"
                + "<Balance>0.00</Balance><Prepaid>0.00</Prepaid><Transactions>"
            for charge in 0..<perHousehold {
                text += "<Transaction><TransactionID>\(household * perHousehold + charge)</TransactionID>"
                    + "<TransactionType>Charge</TransactionType><TransactionDate>10/01/2026</TransactionDate>"
                    + "<PostMonth>102026</PostMonth><TransactionCode>RENT</TransactionCode><LeaseID>L\(household)</LeaseID>"
                    + "<Amount>\(1000 + charge).25</Amount><AmountPaid>0.00</AmountPaid><OpenAmount>0.00</OpenAmount></Transaction>"
            }
            try write(text + "</Transactions></Resident>")
        }
        try write("</ResidentLedger></getresidentledgerResult></getresidentledgerResponse></s:Body></s:Envelope>")
    }
}

/// getresidentledger, the one large RPX response, is streamed into realpage_raw.db as Yardi's ledger is: rows go in
/// as they are decoded, and the artifact is still one transaction.
@Suite(.serialized) struct RPXLedgerStreamingTests {
    let nexus = Property(key: "nexus_east", name: "Nexus East", pms: .realpage, siteID: "5472172")
    let asOf = LocalDate(year: 2026, month: 11, day: 20)!

    @Test func aBadValueHalfWayRollsTheWholeLedgerBack() throws {
        let fixture = try LoaderFixture()
        let loader = RPXArtifactLoader(store: fixture.store, runID: RunID("run-1"))
        _ = try loader.load(path: try fixture.soapCopy("rpx_getresidentledger.xml", as: "good.xml"), operation: .getresidentledger, property: nexus, asOf: asOf)
        let database = fixture.store.database
        let before = try database.query("SELECT * FROM realpage_ledger ORDER BY source_row")
        #expect(before.count == 22)
        // The last transaction's amount is bad: 21 rows were already inserted when the decoder meets it.
        let bad = try fixture.soapCopy("rpx_getresidentledger.xml", as: "bad.xml") { text in
            guard let range = text.range(of: "<Amount>", options: .backwards),
                  let end = text.range(of: "</Amount>", range: range.upperBound..<text.endIndex) else { return text }
            return text.replacingCharacters(in: range.upperBound..<end.lowerBound, with: "lots")
        }
        #expect {
            try loader.load(path: bad, operation: .getresidentledger, property: nexus, asOf: asOf)
        } throws: { "\($0)".hasPrefix("getresidentledger for nexus_east: Resident ") && "\($0)".hasSuffix("Transaction 22: Amount: \"lots\" is not an amount") }
        // A document cut short after some households: not XML, nothing kept.
        let cut = try fixture.soapCopy("rpx_getresidentledger.xml", as: "cut.xml") { String($0.prefix($0.count - 300)) }
        #expect {
            try loader.load(path: cut, operation: .getresidentledger, property: nexus, asOf: asOf)
        } throws: { "\($0)".hasPrefix("getresidentledger for nexus_east: the response is not XML:") }
        #expect(try database.query("SELECT * FROM realpage_ledger ORDER BY source_row") == before)
        #expect(try database.scalar("SELECT count(*) FROM loaded_artifacts WHERE report_type = 'getresidentledger'") == .integer(1))
    }

    /// The proof that the ledger streams, independent of what else this process allocates meanwhile (a resident-set
    /// bound is not: the suites run in parallel in one process): the transactions of a document cut before its end
    /// are handed out before the cut is met. A decoder that parses the whole tree first hands out none.
    @Test func transactionsAreHandedOutBeforeTheEndOfTheDocumentIsRead() throws {
        let fixture = try LoaderFixture()
        let path = fixture.directory.appendingPathComponent("getresidentledger.xml").path
        _ = try writeRPXLedger(to: path, households: 50, perHousehold: 12)
        let handedOut = try recordsHandedOut(path) { bytes, each in try GetResidentLedger.decode(bytes) { _ in each() } }
        #expect(handedOut.whole == 600)
        #expect(handedOut.cutError is SOAPError, "\(String(describing: handedOut.cutError))")
        #expect(handedOut.beforeCut >= 48 * 12, "\(handedOut.beforeCut) transactions handed out before the cut")
    }

    @Test func aLargeLedgerLoadsWhole() throws {
        let fixture = try LoaderFixture()
        let path = fixture.directory.appendingPathComponent("getresidentledger.xml").path
        let size = try writeRPXLedger(to: path, households: 2_000, perHousehold: 12)
        #expect(size > 7_000_000)
        let outcome = try RPXArtifactLoader(store: fixture.store, runID: RunID("run-1"))
            .load(path: path, operation: .getresidentledger, property: nexus, asOf: asOf)
        #expect(outcome.rows == 24_000 + 2_000, "every transaction and each household's balance")
        #expect(try fixture.store.database.query("SELECT count(*), sum(amount), count(DISTINCT resh_id) FROM realpage_ledger")
                == [[.integer(24_000), .real(Double(2_000 * (12 * 1000 + 66)) + 24_000 * 0.25), .integer(2_000)]])
    }
}
