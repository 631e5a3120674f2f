import OwnerDashCore
import SOAP

/// One `RentableItem` of getrentableitems: a garage, storage or parking space and who rents it.
public struct RPXRentableItem: Sendable, Equatable {
    public var sourceIndex: Int
    public var ridID: String
    public var itemName: String?
    public var itemType: String?
    public var billingAmount: Money?
    /// `M` monthly, `O` one-time.
    public var frequency: String?
    public var transactionCode: String?
    public var inService: Bool?
    public var status: String?
    public var unitID: String?
    public var leaseID: String?
    public var reshID: String?
    public var startDate: LocalDate?
    public var endDate: LocalDate?
}

/// Decodes getrentableitems (`GetRentableItemsResponse/Response/RentableItem`).
public enum GetRentableItems {
    /// The operation whose response this reads.
    public static let operation = RPXOperation.getrentableitems

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [RPXRentableItem] {
        let response = try SOAPResponse.rpx(bytes, operation)
        return try response.payload.descendants(named: "RentableItem").enumerated().map { offset, element in
            let f = SOAPFields(element, operation: operation.name, record: "RentableItem \(offset + 1)")
            return RPXRentableItem(sourceIndex: offset + 1, ridID: try f.required("RidID"), itemName: f.text("ItemName"),
                                   itemType: f.text("ItemType"), billingAmount: try f.money("BillingAmount"),
                                   frequency: f.text("Frequency"), transactionCode: f.text("TransactionCodeID"),
                                   inService: try f.flag("InService"), status: f.text("Status"), unitID: f.text("UnitID"),
                                   leaseID: f.text("LeaseID"), reshID: f.text("ReshID"), startDate: try f.date("StartDate"),
                                   endDate: try f.date("EndDate"))
        }
    }
}
