import OwnerDashCore
import SOAP

/// One `Resident` of GetResidentsByStatus: a household (tenant code), its status, lease dates and rent.
public struct YardiResident: Sendable, Equatable {
    /// 1-based position of the `Resident` element.
    public var sourceIndex: Int
    /// `Resident@tCode`, e.g. `t0005518`.
    public var tenantCode: String
    /// `Current`, `Notice`, `Future`, `Past`, ...
    public var status: String?
    public var firstName: String?
    public var lastName: String?
    public var email: String?
    public var phone: String?
    public var unitCode: String?
    public var rent: Money?
    public var leaseFromDate: LocalDate?
    public var leaseToDate: LocalDate?
    public var moveInDate: LocalDate?
    public var moveOutDate: LocalDate?
    public var noticeDate: LocalDate?
    public var paymentAccepted: Bool?
    public var leaseID: String?
    public var isRoommate: Bool?
    /// Number of `OtherOccupants/OtherOccupant`.
    public var otherOccupants: Int
}

/// Decodes GetResidentsByStatus (`MITS-ResidentData/PropertyResidents/Residents/Resident`; dates `MM/DD/YYYY`).
public enum GetResidentsByStatus {
    /// The operation whose response this reads.
    public static let operation = YardiOperation.getResidentsByStatus

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [YardiResident] {
        try SOAPResponse.yardiRecords(bytes, operation, named: "Resident") { element, position in
            let f = SOAPFields(element, operation: operation.name, record: "Resident \(position)")
            guard let code = f.attribute("tCode") else { throw f.invalid("the tCode attribute is missing") }
            return YardiResident(sourceIndex: position, tenantCode: code, status: f.text("Status"),
                                 firstName: f.text("FirstName"), lastName: f.text("LastName"), email: f.text("Email"),
                                 phone: f.nested("Phone")?.text("PhoneNumber"), unitCode: f.text("UnitCode"),
                                 rent: try f.money("Rent"), leaseFromDate: try f.date("LeaseFromDate"),
                                 leaseToDate: try f.date("LeaseToDate"), moveInDate: try f.date("MoveInDate"),
                                 moveOutDate: try f.date("MoveOutDate"), noticeDate: try f.date("NoticeDate"),
                                 paymentAccepted: try f.flag("paymentAccepted"), leaseID: f.text("leaseId"),
                                 isRoommate: try f.flag("isRoommate"),
                                 otherOccupants: element.child(named: "OtherOccupants")?.children(named: "OtherOccupant").count ?? 0)
        }
    }
}
