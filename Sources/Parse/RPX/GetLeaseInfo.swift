import OwnerDashCore
import SOAP

/// One `Lease` of getleaseinfo; its dates come in four formats within one record, all normalized here.
public struct RPXLease: Sendable, Equatable {
    public var sourceIndex: Int
    public var leaseID: String
    public var reshID: String?
    public var unitID: String?
    public var nextLeaseID: String?
    public var priorLeaseID: String?
    public var leaseSignedDate: LocalDate?
    public var leaseBeginDate: LocalDate?
    public var leaseEndDate: LocalDate?
    public var moveInDate: LocalDate?
    public var monthToMonthDate: LocalDate?
    public var initialLeaseDate: LocalDate?
    public var paymentDueDate: LocalDate?
    public var lastRenewalDate: LocalDate?
    public var noticeOnDate: LocalDate?
    public var noticeForDate: LocalDate?
    public var inactiveDate: LocalDate?
    public var leaseStatus: String?
    public var leaseStatusText: String?
    public var typeText: String?
    public var evict: Bool?
    public var rent: Money?
    public var currentBalance: Money?
    public var securityDeposit: Money?
    public var leaseTermDescription: String?
    public var headOfHouseholdName: String?
}

/// Decodes getleaseinfo (`GetLeaseInfo/Leases/Lease`).
public enum GetLeaseInfo {
    /// The operation whose response this reads.
    public static let operation = RPXOperation.getleaseinfo

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [RPXLease] {
        try SOAPResponse.rpxRecords(bytes, operation, named: operation.wholeStateRecord!) { element, position in
            let f = SOAPFields(element, operation: operation.name, record: "Lease \(position)")
            // "0" is RPX's "no lease" in the chain fields.
            func lease(_ name: String) -> String? { f.text(name).flatMap { $0 == "0" ? nil : $0 } }
            return RPXLease(sourceIndex: position, leaseID: try f.required("LeaseID"), reshID: f.text("ReshID"),
                            unitID: f.text("UnitID"), nextLeaseID: lease("NextLeaseID"), priorLeaseID: lease("PriorLeaseID"),
                            leaseSignedDate: try f.date("LeaseSignedDate"), leaseBeginDate: try f.date("LeaseBeginDate"),
                            leaseEndDate: try f.date("LeaseEndDate"), moveInDate: try f.date("MoveInDate"),
                            monthToMonthDate: try f.date("MonthToMonthDate"), initialLeaseDate: try f.date("InitialLeaseDate"),
                            paymentDueDate: try f.date("PaymentDueDate"), lastRenewalDate: try f.date("LastRenewalDate"),
                            noticeOnDate: try f.date("NoticeOnDate"), noticeForDate: try f.date("NoticeForDate"),
                            inactiveDate: try f.date("InactiveDate"), leaseStatus: f.text("LeaseStatus"),
                            leaseStatusText: f.text("LeaseStatusText"), typeText: f.text("TypeText"), evict: try f.flag("Evict"),
                            rent: try f.money("Rent"), currentBalance: try f.money("CurBal"),
                            securityDeposit: try f.money("SecurityDeposit"), leaseTermDescription: f.text("LeaseTermDesc"),
                            headOfHouseholdName: f.text("HeadofHouseholdName"))
        }
    }
}
