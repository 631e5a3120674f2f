import OwnerDashCore
import SOAP

/// One `Building` of getbuildings.
public struct RPXBuilding: Sendable, Equatable {
    public var sourceIndex: Int
    public var buildingID: String
    public var buildingNumber: String?
    public var addressLine1: String?
    public var city: String?
    public var state: String?
    public var zip: String?
}

/// Decodes getbuildings (`BuildingList/Building`).
public enum GetBuildings {
    /// The operation whose response this reads.
    public static let operation = RPXOperation.getbuildings

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [RPXBuilding] {
        let response = try SOAPResponse.rpx(bytes, operation)
        return try response.payload.children(named: "Building").enumerated().map { offset, element in
            let f = SOAPFields(element, operation: operation.name, record: "Building \(offset + 1)")
            return RPXBuilding(sourceIndex: offset + 1, buildingID: try f.required("BuildingID"), buildingNumber: f.text("BuildingNumber"),
                               addressLine1: f.text("AddressLine1"), city: f.text("City"), state: f.text("State"), zip: f.text("Zip"))
        }
    }
}
