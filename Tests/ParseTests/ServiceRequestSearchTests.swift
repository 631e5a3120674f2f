import Foundation
import OwnerDashCore
import Parse
import SOAP
import Testing

/// A GetServiceRequest_Search response as pms_sim serves it (ItfServiceRequests), `payload` inside the Result.
private func response(_ payload: String) -> [UInt8] {
    Array("""
        <?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">\
        <soap:Body><GetServiceRequest_SearchResponse xmlns="http://tempuri.org/YSI.Interfaces.WebServices/ItfServiceRequests">\
        <GetServiceRequest_SearchResult>\(payload)</GetServiceRequest_SearchResult></GetServiceRequest_SearchResponse>\
        </soap:Body></soap:Envelope>
        """.utf8)
}

private let twoRequests = """
    <ServiceRequests xmlns=""><ServiceRequest><ServiceRequestId>101900007</ServiceRequestId><PropertyCode>rvwalk01</PropertyCode>\
    <UnitCode>3320</UnitCode><TenantCode>t0101234</TenantCode><Category>Plumbing</Category>\
    <ServiceRequestBriefDescription>Leaking faucet</ServiceRequestBriefDescription>\
    <ServiceRequestFullDescription>Kitchen faucet drips constantly</ServiceRequestFullDescription>\
    <CurrentStatus>Completed</CurrentStatus><ServiceRequestDate>2025-11-23T09:12:00</ServiceRequestDate>\
    <UpdateDate>2025-12-05T14:30:00</UpdateDate><StatusHistory><Status Type="Open" TimeStamp="2025-11-23T09:12:00" />\
    <Status Type="In Progress" TimeStamp="2025-11-23T11:12:00" /><Status Type="Completed" TimeStamp="2025-12-05T14:30:00" />\
    </StatusHistory></ServiceRequest><ServiceRequest><ServiceRequestId>101950002</ServiceRequestId><UnitCode>1110</UnitCode>\
    <TenantCode /><Category>Make Ready</Category><ServiceRequestBriefDescription>Make ready</ServiceRequestBriefDescription>\
    <CurrentStatus>In Progress</CurrentStatus><ServiceRequestDate>2026-11-09T10:40:53</ServiceRequestDate>\
    <UpdateDate>2026-11-10T08:00:00</UpdateDate><StatusHistory><Status Type="Open" TimeStamp="2026-11-09T10:40:53" />\
    </StatusHistory></ServiceRequest></ServiceRequests>
    """

@Suite struct ServiceRequestSearchTests {
    @Test func readsEveryRequestWithItsCompletionFromTheStatusHistory() throws {
        let requests = try GetServiceRequestSearch.decode(response(twoRequests))
        #expect(requests.count == 2)
        let done = try #require(requests.first)
        #expect(done.serviceRequestID == "101900007" && done.unitCode == "3320" && done.tenantCode == "t0101234")
        #expect(done.category == "Plumbing" && done.briefDescription == "Leaking faucet" && done.currentStatus == "Completed")
        #expect(done.requestedAt == "2025-11-23T09:12:00" && done.completedAt == "2025-12-05T14:30:00")
        #expect(done.statusHistory == "Open@2025-11-23T09:12:00; In Progress@2025-11-23T11:12:00; Completed@2025-12-05T14:30:00")
        let open = requests[1]
        #expect(open.sourceIndex == 2 && open.tenantCode == nil && open.completedAt == nil && open.category == "Make Ready")
    }

    @Test func errorMessagesAreAnErrorNotAnEmptyList() throws {
        let refused = response(#"<ErrorMessages xmlns=""><Error>Invalid Yardi Property Id: nosuch01.</Error></ErrorMessages>"#)
        do {
            _ = try GetServiceRequestSearch.decode(refused)
            Issue.record("accepted")
        } catch let error as SOAPError {
            #expect(error.description.contains("Invalid Yardi Property Id: nosuch01."))
        }
        #expect(try GetServiceRequestSearch.decode(response(#"<ServiceRequests xmlns="" />"#)).isEmpty)
    }

    @Test func aBadTimestampNamesTheRequestAndField() throws {
        let broken = twoRequests.replacingOccurrences(of: "<ServiceRequestDate>2026-11-09T10:40:53</ServiceRequestDate>",
                                                      with: "<ServiceRequestDate>soon</ServiceRequestDate>")
        do {
            _ = try GetServiceRequestSearch.decode(response(broken))
            Issue.record("accepted")
        } catch let error as SOAPError {
            #expect(error.description.hasPrefix("GetServiceRequest_Search: ServiceRequest 2: ServiceRequestDate:"))
        }
    }
}
