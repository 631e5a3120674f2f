import OwnerDashCore
import SOAP

/// One `Properties/Property` of GetPropertyConfigurations: a property the interface entity is licensed for.
public struct YardiProperty: Sendable, Equatable {
    /// 1-based position of the `Property` element in the payload.
    public var sourceIndex: Int
    /// The property code, the `YardiPropertyId` of every other call.
    public var code: String
    public var marketingName: String?
    public var addressLine1: String?
    public var addressLine2: String?
    public var city: String?
    public var state: String?
    public var postalCode: String?
    /// Open AR period, `YYYY-MM` (sent as `MM/YYYY`).
    public var accountsReceivable: String?
    /// Open AP period, `YYYY-MM`.
    public var accountsPayable: String?
}

/// Decodes GetPropertyConfigurations (`Properties/Property`; docs/yardi-soap.md, "GetPropertyConfigurations").
public enum GetPropertyConfigurations {
    /// The operation whose response this reads.
    public static let operation = YardiOperation.getPropertyConfigurations

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [YardiProperty] {
        let response = try SOAPResponse.yardi(bytes, operation)
        return try response.payload.children(named: "Property").enumerated().map { offset, element in
            let f = SOAPFields(element, operation: operation.name, record: "Property \(offset + 1)")
            return YardiProperty(sourceIndex: offset + 1, code: try f.required("Code"), marketingName: f.text("MarketingName"),
                                 addressLine1: f.text("AddressLine1"), addressLine2: f.text("AddressLine2"), city: f.text("City"),
                                 state: f.text("State"), postalCode: f.text("PostalCode"),
                                 accountsReceivable: try f.month("AccountsReceivable"), accountsPayable: try f.month("AccountsPayable"))
        }
    }
}
