import OwnerDashCore
import SOAP

/// One `ScheduledCharge` of getscheduledcharges: a recurring charge of a current resident's current lease.
public struct RPXScheduledCharge: Sendable, Equatable {
    public var sourceIndex: Int
    public var reshID: String?
    public var leaseID: String
    public var unitID: String?
    public var unitNumber: String?
    public var transactionCode: String
    public var description: String?
    public var amount: Money
    /// `Monthly` on every recurring charge seen; kept as sent.
    public var frequency: String?
    public var startDate: LocalDate?
    public var endDate: LocalDate?
}

/// Decodes getscheduledcharges (`ScheduledCharges/ScheduledCharge*`). RPX returns only current residents' current
/// charges, whatever `postmonth` asks (docs/rpx-soap.md).
public enum GetScheduledCharges {
    /// The operation whose response this reads.
    public static let operation = RPXOperation.getscheduledcharges

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [RPXScheduledCharge] {
        try SOAPResponse.rpxRecords(bytes, operation, named: operation.wholeStateRecord!) { element, position in
            let f = SOAPFields(element, operation: operation.name, record: "ScheduledCharge \(position)")
            return RPXScheduledCharge(sourceIndex: position, reshID: f.text("ReshID"), leaseID: try f.required("LeaseID"),
                                      unitID: f.text("UnitID"), unitNumber: f.text("UnitNumber"),
                                      transactionCode: try f.required("TransactionCode"), description: f.text("Description"),
                                      amount: try f.requiredMoney("Amount"), frequency: f.text("Frequency"),
                                      startDate: try f.date("StartDate"), endDate: try f.date("EndDate"))
        }
    }
}
