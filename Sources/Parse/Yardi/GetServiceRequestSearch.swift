import OwnerDashCore
import SOAP

/// One `ServiceRequest` of GetServiceRequest_Search (ItfServiceRequests): a resident request or a unit turn.
public struct YardiServiceRequest: Sendable, Equatable {
    /// 1-based position of the `ServiceRequest` element in the payload.
    public var sourceIndex: Int
    public var serviceRequestID: String
    public var unitCode: String?
    public var tenantCode: String?
    /// `Category` (Plumbing, HVAC, Make Ready, ...).
    public var category: String?
    public var briefDescription: String?
    public var fullDescription: String?
    /// `CurrentStatus` as Voyager prints it (Open, In Progress, On Hold, Completed, ...).
    public var currentStatus: String?
    /// `ServiceRequestDate` as `YYYY-MM-DDTHH:MM:SS`.
    public var requestedAt: String?
    /// `UpdateDate` as `YYYY-MM-DDTHH:MM:SS`: when the request last changed.
    public var updatedAt: String?
    /// The `TimeStamp` of the last `StatusHistory/Status` whose `Type` is Completed (or Complete, Closed).
    public var completedAt: String?
    /// `StatusHistory/Status` in document order, `Type@TimeStamp` joined by `; ` (kept as printed).
    public var statusHistory: String?
}

/// Decodes GetServiceRequest_Search (`ServiceRequests/ServiceRequest`; errors as `ErrorMessages/Error`, which
/// `SOAPResponse` turns into a `SOAPError`).
public enum GetServiceRequestSearch {
    /// The operation whose response this reads.
    public static let operation = YardiOperation.getServiceRequests

    /// Status types that mean the work was done (compared case-insensitively).
    public static let completedTypes: Set<String> = ["completed", "complete", "closed"]

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [YardiServiceRequest] {
        try SOAPResponse.yardiRecords(bytes, operation, named: "ServiceRequest") { element, position in
            let f = SOAPFields(element, operation: operation.name, record: "ServiceRequest \(position)")
            var history: [String] = []
            var completedAt: String?
            for status in element.child(named: "StatusHistory")?.children(named: "Status") ?? [] {
                let s = SOAPFields(status, operation: operation.name, record: "ServiceRequest \(position) Status")
                let type = s.attribute("Type") ?? ""
                let stamp: String?
                do {
                    stamp = try SOAPValue.dateTime(s.attribute("TimeStamp") ?? "")
                } catch {
                    throw s.invalid("TimeStamp: \(error)")
                }
                history.append("\(type)@\(stamp ?? "")")
                if completedTypes.contains(type.lowercased()), let stamp { completedAt = stamp }
            }
            return YardiServiceRequest(
                sourceIndex: position, serviceRequestID: try f.required("ServiceRequestId"), unitCode: f.text("UnitCode"),
                tenantCode: f.text("TenantCode"), category: f.text("Category"),
                briefDescription: f.text("ServiceRequestBriefDescription"),
                fullDescription: f.text("ServiceRequestFullDescription"), currentStatus: f.text("CurrentStatus"),
                requestedAt: try f.dateTime("ServiceRequestDate"), updatedAt: try f.dateTime("UpdateDate"),
                completedAt: completedAt, statusHistory: history.isEmpty ? nil : history.joined(separator: "; "))
        }
    }
}
