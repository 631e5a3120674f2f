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
            for (operation, root, records) in [("GetUnitInformation", "UnitInformation", "Unit"), ("unitlist", "UnitList", "Unit"),
                                               ("GetResidentTransactions_Login", "ResidentTransactions", "RT_Customer")] {
                for status in [200, 500] {
                    let fromBytes = verdict { try SOAPResponse.check(bytes: bytes, status: status, operation: operation, expectedRoot: root) }
                    let fromFile = verdict { try SOAPResponse.check(path: path, status: status, operation: operation, expectedRoot: root) }
                    #expect(fromFile == fromBytes, "\(name) as \(operation), HTTP \(status)")
                    let framed = verdict {
                        try SOAPResponse.check(path: path, status: status, operation: operation, expectedRoot: root,
                                               records: records)
                    }
                    #expect(framed == fromBytes, "\(name) as \(operation) framed by \(records), HTTP \(status)")
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

    /// The fetch's check of a list answer parses only what lies around its records and holds the records to their
    /// frame: every fixture's verdict is the same as the whole answer's, an answer cut anywhere is not XML either way,
    /// and only a record garbled inside an intact frame passes, for the load to find (RecordLoadTests'
    /// `aChangedRecordThatFailsIsNamedByItsPlaceInTheAnswer`).
    @Test func aListAnswerIsCheckedAroundItsRecordsAndTheRecordsByTheirFrame() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("soap-frame-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func save(_ bytes: [UInt8], _ name: String) -> String {
            let path = directory.appendingPathComponent(name).path
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
            return path
        }
        func verdict(_ path: String, _ operation: RPXOperation, framed: Bool) -> String {
            do {
                try SOAPResponse.check(path: path, operation: operation.name, expectedRoot: operation.payloadRoot,
                                       records: framed ? operation.listedRecord : nil)
                return "accepted"
            } catch { return "\(error)" }
        }
        let operations: [RPXOperation] = [.unitlist, .getunitlist, .getresidentlistinfo, .getleaseinfo, .getresidentledger,
                                          .getscheduledcharges]
        for operation in operations {
            let bytes = try soapFixture("rpx_\(operation.name).xml")
            let path = save(bytes, "\(operation.name).xml")
            let around = try #require(SOAPResponse.around(operation.listedRecord!, inFile: path), "\(operation.name)")
            #expect(around.count < bytes.count / 2, "\(operation.name): \(around.count) of \(bytes.count) bytes parsed")
            #expect(verdict(path, operation, framed: true) == "accepted")
            for eighth in 1..<8 {
                let cut = save(Array(bytes[..<(bytes.count * eighth / 8)]), "\(operation.name)-cut\(eighth).xml")
                let framed = verdict(cut, operation, framed: true)
                #expect(framed == verdict(cut, operation, framed: false), "\(operation.name) cut at \(eighth)/8")
                #expect(framed.contains("not XML"), "\(operation.name) cut at \(eighth)/8: \(framed)")
            }
        }
        let leases = String(decoding: try soapFixture("rpx_getleaseinfo.xml"), as: UTF8.self)
        let trailing = save(Array(leases.replacingOccurrences(of: "</Leases>", with: "<broken & unclosed</Leases>").utf8),
                            "trailing.xml")
        #expect(verdict(trailing, .getleaseinfo, framed: true).contains("not XML"))
        let garbled = save(Array(leases.replacingOccurrences(of: "</Rent>", with: "</Ren>").utf8), "garbled.xml")
        #expect(verdict(garbled, .getleaseinfo, framed: false).contains("not XML"))
        #expect(verdict(garbled, .getleaseinfo, framed: true) == "accepted")
        for fault in ["rpx_inv_param_fault.xml", "rpx_not_authorized_fault.xml", "rpx_action_not_supported_fault.xml"] {
            let path = save(try soapFixture(fault), fault)
            #expect(verdict(path, .getleaseinfo, framed: true) == verdict(path, .getleaseinfo, framed: false))
            #expect(verdict(path, .getleaseinfo, framed: true) != "accepted")
        }
    }
}
