import Testing
@testable import SOAP

/// Every error shape of docs/yardi-soap.md and docs/rpx-soap.md, from recorded (or, where the simulator has no such
/// answer, hand-written) bodies.
@Suite struct SOAPErrorTests {
    func error(_ fixture: String, status: Int = 200, operation: String = "GetUnitInformation",
               root: String = "UnitInformation") throws -> SOAPError {
        let bytes = try soapFixture(fixture)
        do {
            _ = try SOAPResponse(bytes: bytes, status: status, operation: operation, expectedRoot: root, property: "yp_riverwalk")
        } catch let error as SOAPError {
            return error
        }
        Issue.record("\(fixture) was accepted")
        return SOAPError(operation: operation, kind: .notXML("accepted"))
    }

    @Test func aSOAPFaultNamesItsCodeAndMessage() throws {
        let fault = try error("yardi_soap_fault.xml", status: 500, operation: "GetResidentLeaseCharges_Login", root: "ResidentTransactions")
        #expect(fault.kind == .fault(code: "soap:Client",
                                     message: "Server was unable to read request. ---> There is an error in XML document. ---> The string '' is not a valid AllXsd value.",
                                     detail: nil))
        #expect(fault.description.hasPrefix("GetResidentLeaseCharges_Login for yp_riverwalk: SOAP Fault soap:Client: Server was unable"))
    }

    @Test func rpxFaultsCarryTheirApplicationFaultDetail() throws {
        let invalid = try error("rpx_inv_param_fault.xml", status: 500, operation: "unitlist", root: "UnitList")
        #expect(invalid.kind == .fault(code: "s:inv_Param", message: "LicenseKey is not valid.",
                                       detail: "A validation error occurred. Please make sure you have provided the correct Auth information"))
        let unsupported = try error("rpx_action_not_supported_fault.xml", status: 500, operation: "getunitlist", root: "UnitObjects")
        guard case .fault(let code, let message, _) = unsupported.kind else { Issue.record("\(unsupported)"); return }
        #expect(code == "a:ActionNotSupported")
        #expect(message.contains("ContractFilter mismatch"))
    }

    @Test func errorMessagesInsideA200AreErrors() throws {
        let login = try error("yardi_messages_error.xml")
        #expect(login.kind == .loginFailed("Login failed. Invalid username or password."))
        let property = try error("yardi_invalid_property.xml")
        guard case .errorMessage(let text) = property.kind else { Issue.record("\(property)"); return }
        #expect(text.hasPrefix("Invalid Yardi Property Id: nosuch01."))
        let nested = try error("yardi_error_messages.xml")
        #expect(nested.kind == .errorMessage("Interface Entity has no access to the Yardi property"))
    }

    @Test func plainTextLoginFailedIsAnError() throws {
        let failure = try error("yardi_login_failed.txt")
        #expect(failure.kind == .loginFailed("Login failed."))
        #expect(failure.description.contains("check YARDI_USERNAME"))
    }

    @Test func aNegativeResultCodeSaysWhatItMeans() throws {
        let failure = try error("yardi_negative_result_code.xml", operation: "GetResidentTransactions_Login", root: "ResidentTransactions")
        #expect(failure.kind == .resultCode(-4))
        #expect(failure.reason == "the server answered with result code -4 (login failed)")
    }

    @Test func anEmptyResultOrTheWrongPayloadIsMissingPayload() throws {
        #expect(try error("yardi_empty_result.xml").kind == .missingPayload(expected: "UnitInformation", found: nil))
        // A response for another operation: its Result element is not the one asked for.
        #expect(try error("yardi_get_property_configurations.xml").kind
                == .missingPayload(expected: "GetUnitInformationResult", found: "<GetPropertyConfigurationsResponse>"))
        #expect(try error("yardi_get_property_configurations.xml", operation: "GetPropertyConfigurations", root: "UnitInformation").kind
                == .missingPayload(expected: "UnitInformation", found: "<Properties>"))
    }

    @Test func httpErrorsAndBrokenBodies() throws {
        let html = Array("<html><body><h1>503 Service Unavailable</h1></body></html>".utf8)
        do {
            _ = try SOAPResponse(bytes: html, status: 503, operation: "unitlist", expectedRoot: "UnitList")
            Issue.record("accepted")
        } catch let error as SOAPError {
            #expect(error.kind == .http(status: 503, excerpt: "503 Service Unavailable"))
        }
        let cut = Array(try soapFixture("yardi_get_unit_information.xml").prefix(700))
        do {
            _ = try SOAPResponse(bytes: cut, operation: "GetUnitInformation", expectedRoot: "UnitInformation")
            Issue.record("accepted")
        } catch let error as SOAPError {
            guard case .notXML = error.kind else { Issue.record("\(error)"); return }
        }
    }

    @Test func aGoodResponseGivesItsPayload() throws {
        let response = try SOAPResponse(bytes: try soapFixture("yardi_get_unit_information.xml"), operation: "GetUnitInformation",
                                         expectedRoot: "UnitInformation")
        #expect(response.payload.descendants(named: "UnitInfo").count == 4)
    }

    /// Yardi serves SOAP 1.2 too (envelope namespace http://www.w3.org/2003/05/soap-envelope): an answer in a 1.2
    /// envelope gives its payload, and a 1.2 Fault (Code/Value, Reason/Text) is named like a 1.1 one.
    @Test func soap12EnvelopesAndFaultsReadLikeSOAP11Ones() throws {
        let bytes = try soapFixture("yardi_soap12_get_unit_information.xml")
        let response = try SOAPResponse(bytes: bytes, operation: "GetUnitInformation", expectedRoot: "UnitInformation")
        #expect(response.document.root?.namespaceURI == "http://www.w3.org/2003/05/soap-envelope")
        #expect(response.payload.descendants(named: "UnitInfo").map { $0.child(named: "UnitID")?.text } == ["1101", "1102"])
        try SOAPResponse.check(bytes: bytes, operation: "GetUnitInformation", expectedRoot: "UnitInformation")

        let fault = try error("yardi_soap12_fault.xml", status: 500, operation: "GetInvoiceRegister", root: "InvoiceRegister")
        let message = "Server did not recognize the value of HTTP Header SOAPAction: "
            + "http://tempuri.org/YSI.Interfaces.WebServices/ItfResidentData/GetInvoiceRegister."
        #expect(fault.kind == .fault(code: "soap:Sender", message: message, detail: nil))
        #expect(fault.description == "GetInvoiceRegister for yp_riverwalk: SOAP Fault soap:Sender: " + message)
    }
}
