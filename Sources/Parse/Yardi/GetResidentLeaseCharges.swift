import OwnerDashCore
import SOAP

/// One scheduled (recurring) charge of a lease from GetResidentLeaseCharges_Login.
public struct YardiLeaseCharge: Sendable, Equatable {
    /// 1-based position of the `Charge/Detail` in the payload.
    public var sourceIndex: Int
    /// `Detail/CustomerID` (the sample's RT_Customer carries none; docs/yardi-soap.md).
    public var tenantCode: String?
    public var unitCode: String?
    public var leaseID: String?
    public var chargeCode: String
    public var description: String?
    public var glAccount: String?
    public var amount: Money
    public var serviceFromDate: LocalDate?
    public var serviceToDate: LocalDate?
    public var comment: String?
}

/// Decodes GetResidentLeaseCharges_Login (`ResidentTransactions/Property/RT_Customer/.../Charge/Detail`).
public enum GetResidentLeaseCharges {
    /// The operation whose response this reads.
    public static let operation = YardiOperation.getResidentLeaseCharges

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [YardiLeaseCharge] {
        var result: [YardiLeaseCharge] = []
        try decode(bytes) { result.append($0) }
        return result
    }

    /// Streams the response one `RT_Customer` at a time, handing each record to `each` as it is read.
    /// Throws a `SOAPError` for every error shape, possibly after records were handed out.
    public static func decode(_ bytes: [UInt8], each: (YardiLeaseCharge) throws -> Void) throws {
        var count = 0
        try SOAPResponse.yardiStream(bytes, operation, records: ["RT_Customer"]) { customer in
            let household = customer.child(named: "CustomerID").map { String($0.text.trimmingWhitespace) }
            for charge in customer.descendants(named: "Charge") {
                guard let detail = charge.child(named: "Detail") else { continue }
                count += 1
                let f = SOAPFields(detail, operation: operation.name, record: "Charge \(count)")
                try each(YardiLeaseCharge(
                    sourceIndex: count, tenantCode: f.text("CustomerID") ?? household, unitCode: f.text("UnitID"),
                    leaseID: f.text("LeaseID"), chargeCode: try f.required("ChargeCode"), description: f.text("Description"),
                    glAccount: f.text("GLAccountNumber"), amount: try f.requiredMoney("Amount"),
                    serviceFromDate: try f.date("ServiceFromDate"), serviceToDate: try f.date("ServiceToDate"),
                    comment: f.text("Comment")))
            }
        }
    }
}
