import Testing
import XMLKit
@testable import SOAP

/// The streamed check hands out the payload's records one at a time, and reads no payload an earlier error decides.
@Suite struct SOAPStreamTests {
    @Test func recordsComeOutAsTheTreeHasThem() throws {
        let bytes = try soapFixture("yardi_get_resident_transactions.xml")
        let tree = try SOAPResponse(bytes: bytes, operation: "GetResidentTransactions_Login", expectedRoot: "ResidentTransactions")
        var streamed: [String] = []
        try SOAPResponse.stream(bytes: bytes, operation: "GetResidentTransactions_Login", expectedRoot: "ResidentTransactions",
                                records: ["RT_Customer"]) { streamed.append($0.child(named: "CustomerID")?.text ?? "?") }
        #expect(streamed == tree.payload.descendants(named: "RT_Customer").map { $0.child(named: "CustomerID")?.text ?? "?" })
        #expect(streamed.count >= 2)
    }

    @Test func anErrorMessageBeforeThePayloadKeepsItUnread() throws {
        let good = String(decoding: try soapFixture("yardi_get_resident_transactions.xml"), as: UTF8.self)
        let bytes = Array(good.replacingOccurrences(of: "<GetResidentTransactions_LoginResult>", with: """
            <GetResidentTransactions_LoginResult><Messages xmlns=""><Message messageType="Error">No access</Message></Messages>
            """).utf8)
        var seen = 0
        #expect(throws: SOAPError(operation: "GetResidentTransactions_Login", kind: .errorMessage("No access"))) {
            try SOAPResponse.stream(bytes: bytes, operation: "GetResidentTransactions_Login", expectedRoot: "ResidentTransactions",
                                    records: ["RT_Customer"]) { _ in seen += 1 }
        }
        #expect(seen == 0)
    }

    @Test func theCheckAloneAcceptsEveryRecordedPayload() throws {
        for (file, operation, root) in [("yardi_get_resident_transactions.xml", "GetResidentTransactions_Login", "ResidentTransactions"),
                                        ("yardi_get_resident_lease_charges.xml", "GetResidentLeaseCharges_Login", "ResidentTransactions"),
                                        ("rpx_unitlist.xml", "unitlist", "UnitList")] {
            try SOAPResponse.check(bytes: try soapFixture(file), operation: operation, expectedRoot: root)
        }
    }
}
