import OwnerDashCore
import SOAP

/// One guest-card `Event` of GetYardiGuestActivity_Login, with its prospect's identity and preferences.
public struct GuestEvent: Sendable, Equatable {
    /// 1-based position of the `Event` element in the payload.
    public var sourceIndex: Int
    /// 1-based position of its `Prospect`.
    public var prospectIndex: Int
    /// `Identification@IDType="ProspectID"` (`p0007725`).
    public var prospectID: String?
    /// `Identification@IDType="TenantID"` once the prospect became a resident.
    public var tenantCode: String?
    /// `Customer@Type`: prospect, approved_applicant, current_resident, ...
    public var customerType: String?
    public var firstName: String?
    public var lastName: String?
    public var email: String?
    public var desiredFloorplan: String?
    public var targetMoveInDate: LocalDate?
    public var eventID: String?
    /// `Event@EventType`: Email, CallFromProspect, Show, Application, Approve, LeaseSign, ...
    public var eventType: String
    /// `Event@EventDate` as `YYYY-MM-DDTHH:MM:SS` (a trailing `.0` dropped).
    public var eventAt: String
    public var eventDate: LocalDate
    public var agentName: String?
    public var firstContact: Bool?
    /// Marketing source (`TransactionSource`).
    public var transactionSource: String?
    public var comments: String?
}

/// Decodes GetYardiGuestActivity_Login (`LeadManagement/Prospects/Prospect/Events/Event`).
public enum GetYardiGuestActivity {
    /// The operation whose response this reads.
    public static let operation = YardiOperation.getYardiGuestActivity

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [GuestEvent] {
        let response = try SOAPResponse.yardi(bytes, operation)
        var result: [GuestEvent] = []
        for (prospectOffset, prospect) in response.payload.descendants(named: "Prospect").enumerated() {
            // Single-child collapse (docs/yardi-soap.md): Customer, Identification and Event may appear once or many
            // times.
            let customer = prospect.child(named: "Customers")?.children(named: "Customer").first
            let ids = customer?.children(named: "Identification") ?? []
            func id(_ type: String) -> String? { ids.first { $0.attribute("IDType") == type }?.attribute("IDValue") }
            let c = customer.map { SOAPFields($0, operation: operation.name, record: "Prospect \(prospectOffset + 1)") }
            let preferences = SOAPFields(prospect, operation: operation.name, record: "Prospect \(prospectOffset + 1)").nested("CustomerPreferences")
            for event in prospect.child(named: "Events")?.children(named: "Event") ?? [] {
                let index = result.count + 1
                let f = SOAPFields(event, operation: operation.name, record: "Event \(index)")
                guard let type = f.attribute("EventType") else { throw f.invalid("EventType is missing") }
                let at: String?
                do {
                    at = try SOAPValue.dateTime(f.attribute("EventDate") ?? "")
                } catch {
                    throw f.invalid("EventDate: \(error)")
                }
                guard let at, let day = LocalDate(iso: at.prefix(10)) else { throw f.invalid("EventDate is missing") }
                let agent = f.nested("Agent", "AgentName")
                let agentName = [agent?.text("FirstName"), agent?.text("LastName")].compactMap { $0 }.joined(separator: " ")
                result.append(GuestEvent(
                    sourceIndex: index, prospectIndex: prospectOffset + 1, prospectID: id("ProspectID"), tenantCode: id("TenantID"),
                    customerType: c?.attribute("Type"), firstName: c?.nested("Name")?.text("FirstName"),
                    lastName: c?.nested("Name")?.text("LastName"), email: c?.text("Email"),
                    desiredFloorplan: preferences?.text("DesiredFloorplan"),
                    targetMoveInDate: try preferences?.date("TargetMoveInDate"),
                    eventID: event.child(named: "EventID")?.attribute("IDValue"), eventType: type, eventAt: at, eventDate: day,
                    agentName: agentName.isEmpty ? nil : agentName, firstContact: try f.flag("FirstContact"),
                    transactionSource: f.text("TransactionSource"), comments: f.text("Comments")))
            }
        }
        return result
    }
}
