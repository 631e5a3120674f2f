import Foundation
import OwnerDashCore
import Testing
import XMLKit
@testable import SOAP

/// Tests/Fixtures/soap/<name>, as bytes.
func soapFixture(_ name: String) throws -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    return [UInt8](try Data(contentsOf: root.appendingPathComponent("Fixtures/soap/\(name)")))
}

@Suite struct SOAPEnvelopeTests {
    let login = YardiLogin(username: "owner<dash>", password: "p&ss\"w'rd\r\nx", serverName: "sql01", database: "voyager",
                           interfaceEntity: "OwnerDash", interfaceLicense: "LIC-123")

    @Test func yardiRequestGoesToTheOperationsInterfaceWithItsSOAPAction() throws {
        let request = YardiOperation.getResidentTransactions.request(
            baseURL: "https://www.yardiasp14.com/12345live/webservices/", interfaceName: "ItfResidentTransactions20",
            login: login, propertyCode: "prop01", asOfYear: 2026, asOfMonth: 11)
        #expect(request.url == "https://www.yardiasp14.com/12345live/webservices/ItfResidentTransactions20.asmx")
        #expect(request.soapAction == "http://tempuri.org/YSI.Interfaces.WebServices/ItfResidentTransactions20/GetResidentTransactions_Login")
        #expect(request.headers.contains { $0.name == "SOAPAction" && $0.value == "\"\(request.soapAction)\"" })
        #expect(request.headers.contains { $0.name == "Content-Type" && $0.value == "text/xml; charset=utf-8" })
    }

    @Test func everyValueIsEscapedAndTheBodyHasNoLineBreaks() throws {
        let request = YardiOperation.getUnitInformation.request(
            baseURL: "http://h/ws", interfaceName: "ItfResidentData", login: login, propertyCode: "a&b", asOfYear: 2026, asOfMonth: 1)
        let text = String(decoding: request.body, as: UTF8.self)
        #expect(!request.body.contains(0x0A) && !request.body.contains(0x0D))
        #expect(text.contains("<UserName>owner&lt;dash&gt;</UserName>"))
        #expect(text.contains("<Password>p&amp;ss&quot;w&apos;rd&#13;&#10;x</Password>"))
        #expect(text.contains("<YardiPropertyId>a&amp;b</YardiPropertyId>"))
        // The server reads back exactly what was sent.
        let document = try XMLDocument(bytes: request.body)
        let operation = try #require(document.root?.child(named: "Body")?.child(named: "GetUnitInformation"))
        #expect(operation.namespaceURI == "http://tempuri.org/YSI.Interfaces.WebServices/ItfResidentData")
        #expect(operation.child(named: "Password")?.text == "p&ss\"w'rd\r\nx")
        #expect(operation.children.map(\.localName) == ["UserName", "Password", "ServerName", "Database", "Platform",
                                                        "YardiPropertyId", "InterfaceEntity", "InterfaceLicense"])
        #expect(operation.child(named: "Platform")?.text == "SQL Server")
    }

    @Test func operationParametersFollowTheReference() throws {
        func parameters(_ operation: YardiOperation, month: Int) throws -> [String: String] {
            let request = operation.request(baseURL: "http://h", interfaceName: "I", login: login, propertyCode: "p",
                                            asOfYear: 2026, asOfMonth: month)
            let element = try #require(try XMLDocument(bytes: request.body).root?.child(named: "Body")?.children.first)
            return Dictionary(element.children.map { ($0.localName, $0.text) }, uniquingKeysWith: { a, _ in a })
        }
        #expect(try parameters(.getResidentLeaseCharges, month: 3)["PostMonth"] == "2026-03-01T00:00:00")
        #expect(try parameters(.getResidentsByStatus, month: 3)["Status"] == "Current^Notice^Eviction^Future^Past")
        #expect(try parameters(.availableUnits, month: 3)["ExcludePricing"] == "false")
        // GetPropertyConfigurations lists every licensed property: no YardiPropertyId.
        #expect(try parameters(.getPropertyConfigurations, month: 3)["YardiPropertyId"] == nil)
        #expect(YardiOperation.getYardiGuestActivity.interface == .ilsGuestCard)
        #expect(YardiOperation.getResidentLeaseCharges.interface == .residentTransactions)
        #expect(YardiOperation.getResidentsByStatus.interface == .residentData)
    }

    @Test func invoiceRegisterAsksForTheTwelvePostMonthsEndingWithTheAsOfMonthInWSDLOrder() throws {
        func operation(year: Int, month: Int) throws -> XMLElement {
            let request = YardiOperation.getInvoiceRegister.request(
                baseURL: "http://h/ws", interfaceName: "ItfVendorInvoicing", login: login, propertyCode: "rvwalk01",
                asOfYear: year, asOfMonth: month)
            #expect(request.url == "http://h/ws/ItfVendorInvoicing.asmx")
            #expect(request.soapAction == "http://tempuri.org/YSI.Interfaces.WebServices/ItfVendorInvoicing/GetInvoiceRegister")
            return try #require(try XMLDocument(bytes: request.body).root?.child(named: "Body")?.child(named: "GetInvoiceRegister"))
        }
        let november = try operation(year: 2026, month: 11)
        // The WSDL's order: the license block before YardiPropertyId, then the date ranges.
        #expect(november.children.map(\.localName) == [
            "UserName", "Password", "ServerName", "Database", "Platform", "InterfaceEntity", "InterfaceLicense",
            "YardiPropertyId", "InvoicePostMonthFrom", "InvoicePostMonthTo", "InvoiceFromDate", "InvoiceToDate",
            "InvoiceCreationFromDate", "InvoiceCreationToDate", "InvoiceLastModifiedFromDate", "InvoiceLastModifiedToDate",
        ])
        #expect(november.child(named: "InvoicePostMonthFrom")?.text == "12/01/2025")
        #expect(november.child(named: "InvoicePostMonthTo")?.text == "11/01/2026")
        #expect(november.child(named: "InvoiceFromDate")?.text == "")
        // Across a year boundary, and a December as-of month.
        let january = try operation(year: 2026, month: 1)
        #expect(january.child(named: "InvoicePostMonthFrom")?.text == "02/01/2025")
        #expect(january.child(named: "InvoicePostMonthTo")?.text == "01/01/2026")
        let december = try operation(year: 2026, month: 12)
        #expect(december.child(named: "InvoicePostMonthFrom")?.text == "01/01/2026")
        #expect(december.child(named: "InvoicePostMonthTo")?.text == "12/01/2026")
        #expect(YardiOperation.getInvoiceRegister.interface == .vendorInvoicing)
        #expect(YardiOperation.Interface.vendorInvoicing.defaultName == "ItfVendorInvoicing")
        #expect(YardiOperation.Interface.allCases.filter(\.isLicensedApart) == [.serviceRequests, .vendorInvoicing])
    }
}

@Suite struct RPXEnvelopeTests {
    @Test func authComesFirstAndTheActionIsLowerCase() throws {
        let auth = RPXAuth(pmcID: "4248314", siteID: "5472172", licenseKey: "key<&>", username: "u", password: "pw")
        let request = RPXOperation.getleaseinfo.request(url: "https://gateway.rpx.realpage.com/rpxgateway/partner/P/P.svc",
                                                        auth: auth, asOf: "2026-11-20")
        #expect(request.soapAction == "http://tempuri.org/IRPXService/getleaseinfo")
        let operation = try #require(try XMLDocument(bytes: request.body).root?.child(named: "Body")?.child(named: "getleaseinfo"))
        #expect(operation.namespaceURI == "http://tempuri.org/")
        #expect(operation.children.map(\.localName) == ["auth", "getleaseinfo"])
        let block = try #require(operation.child(named: "auth"))
        #expect(block.children.map(\.localName) == ["pmcid", "siteid", "licensekey", "system", "username", "password"])
        #expect(block.child(named: "licensekey")?.text == "key<&>")
        #expect(block.child(named: "licensekey")?.namespaceURI == "http://tempuri.org/")
        #expect(operation.child(named: "getleaseinfo")?.child(named: "residentstatus")?.text == "ALL")
        let items = RPXOperation.getrentableitems.request(url: "u", auth: auth, asOf: "2026-11-20")
        let text = String(decoding: items.body, as: UTF8.self)
        #expect(text.contains("<getrentableitemRequest><unitid>0</unitid><dateneeded>2026-11-20</dateneeded><leaseid>0</leaseid></getrentableitemRequest>"))
        // Every household's ledger over the 24 months ending with the as-of date (the year rolls back over January).
        let ledger = String(decoding: RPXOperation.getresidentledger.request(url: "u", auth: auth, asOf: "2026-11-20").body, as: UTF8.self)
        #expect(ledger.contains("<getresidentledger><reshid>0</reshid><startdate>2024-12-01</startdate><enddate>2026-11-20</enddate><allopen>false</allopen></getresidentledger>"))
        let january = String(decoding: RPXOperation.getresidentledger.request(url: "u", auth: auth, asOf: "2027-01-05").body, as: UTF8.self)
        #expect(january.contains("<startdate>2025-02-01</startdate>"))
        let schedule = String(decoding: RPXOperation.getscheduledcharges.request(url: "u", auth: auth, asOf: "2026-11-20").body, as: UTF8.self)
        #expect(schedule.contains("<getscheduledcharge><residentstatus>C</residentstatus><postmonth>112026</postmonth></getscheduledcharge>"))
    }
}
