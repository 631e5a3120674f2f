import Foundation
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

    /// What fetch does: the body is saved first and checked from the file. Every fixture, good or bad, as a 200 and as a
    /// 500, must get the very same verdict from the file as from its bytes (excerpts included).
    @Test func aSavedBodyGetsTheVerdictItsBytesGet() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("soap-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func verdict(_ check: () throws -> Void) -> String {
            do { try check(); return "accepted" } catch { return "\(error)" }
        }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/soap")
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
        var accepted = 0
        for name in names {
            let bytes = try soapFixture(name)
            let path = directory.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            for (operation, root) in [("GetUnitInformation", "UnitInformation"), ("unitlist", "UnitList"),
                                      ("GetResidentTransactions_Login", "ResidentTransactions")] {
                for status in [200, 500] {
                    let fromBytes = verdict { try SOAPResponse.check(bytes: bytes, status: status, operation: operation, expectedRoot: root) }
                    let fromFile = verdict { try SOAPResponse.check(path: path, status: status, operation: operation, expectedRoot: root) }
                    #expect(fromFile == fromBytes, "\(name) as \(operation), HTTP \(status)")
                    if fromFile == "accepted" { accepted += 1 }
                }
            }
        }
        // One good fixture per operation asked, unitlist's non-dwelling one, GetUnitInformation's indented and
        // pseudo-unit ones and its SOAP 1.2 envelope, the ledger with Services blocks (the simulator's quirks), and
        // the Voyager ledger whose AmountPaid reaches beyond the window.
        #expect(accepted == 9)
        let empty = directory.appendingPathComponent("empty.xml").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        for path in [empty, directory.appendingPathComponent("missing.xml").path] {
            do {
                try SOAPResponse.check(path: path, operation: "unitlist", expectedRoot: "UnitList")
                Issue.record("\(path) was accepted")
            } catch let error as SOAPError {
                guard case .notXML = error.kind else { Issue.record("\(path): \(error)"); continue }
            }
        }
    }
}
