import OwnerDashCore
import SOAP

/// One `resident` of getresidentlistinfo: a household member on a lease (filter `hohbit` for one row per lease).
public struct RPXResident: Sendable, Equatable {
    public var sourceIndex: Int
    public var residentMemberID: String?
    public var residentHouseholdID: String?
    public var leaseID: String?
    public var unitID: String?
    public var unitNumber: String?
    public var firstName: String?
    public var lastName: String?
    /// `email`, trimmed as sent (case kept, as Yardi's `Email` is); nil when blank.
    public var email: String?
    /// `cellphone`, else `homephone`, else `workphone`, as sent; nil when all three are blank.
    public var phone: String?
    /// `Current`, `Future Lease`, `Applicant - Lease Signed`, `Former`, ... (no "Notice": see noticeGivenDate).
    public var leaseStatus: String?
    public var leaseType: String?
    public var residentRelationship: String?
    public var headOfHousehold: Bool?
    /// Money with thousands separators and a leading minus (`-5,675.60`) in the source.
    public var balance: Money?
    public var pendingBalance: Money?
    public var inEviction: Bool?
    public var beginDate: LocalDate?
    public var endDate: LocalDate?
    public var moveInDate: LocalDate?
    public var moveOutDate: LocalDate?
    public var noticeGivenDate: LocalDate?
    public var noticeForDate: LocalDate?
    public var leaseSignedDate: LocalDate?
}

/// Decodes getresidentlistinfo (`residentlist/resident`, lower-case names).
public enum GetResidentListInfo {
    /// The operation whose response this reads.
    public static let operation = RPXOperation.getresidentlistinfo

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [RPXResident] {
        try SOAPResponse.rpxRecords(bytes, operation, named: operation.wholeStateRecord!) { element, position in
            let f = SOAPFields(element, operation: operation.name, record: "resident \(position)")
            // One phone per resident, the number most likely to reach the person: the cell phone first, then home,
            // then work (an employer's switchboard reaches them least). The order is fixed, so a person listed on two
            // units with the same numbers gets the same phone on both, which the debtors identity rule relies on.
            let phone = f.text("cellphone") ?? f.text("homephone") ?? f.text("workphone")
            return RPXResident(sourceIndex: position, residentMemberID: f.text("residentmemberid"),
                               residentHouseholdID: f.text("residenthouseholdid"), leaseID: f.text("leaseid"),
                               unitID: f.text("unitid"), unitNumber: f.text("unitnumber"), firstName: f.text("firstname"),
                               lastName: f.text("lastname"), email: f.text("email"), phone: phone,
                               leaseStatus: f.text("leasestatus"), leaseType: f.text("leasetype"),
                               residentRelationship: f.text("residentrelationship"), headOfHousehold: try f.flag("hohbit"),
                               balance: try f.money("balance"), pendingBalance: try f.money("pendingbalance"),
                               inEviction: try f.flag("inevict"), beginDate: try f.date("begindate"), endDate: try f.date("enddate"),
                               moveInDate: try f.date("moveindate"), moveOutDate: try f.date("moveoutdate"),
                               noticeGivenDate: try f.date("noticegivendate"), noticeForDate: try f.date("noticefordate"),
                               leaseSignedDate: try f.date("leasesigneddate"))
        }
    }
}
