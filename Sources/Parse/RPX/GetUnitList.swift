import OwnerDashCore
import SOAP

/// One `UnitObject` of getunitlist: a unit with the details unitlist lacks, above all the floor it is on.
public struct RPXUnitObject: Sendable, Equatable {
    public var sourceIndex: Int
    /// `Address/UnitID`: the same internal id as unitlist's `UnitID`.
    public var unitID: String
    public var unitNumber: String?
    public var buildingID: String?
    public var floorPlanCode: String?
    public var floorPlanName: String?
    public var bedrooms: Int?
    public var bathrooms: Double?
    public var grossSqft: Int?
    /// `UnitDetails/FloorNumber` as sent (`3`, `B1`): the only floor any RealPage unit data carries.
    public var floorNumber: String?
    public var available: Bool?
    public var madeReadyDate: LocalDate?
}

/// Decodes getunitlist (`GetUnitList/UnitObjects/UnitObject`): nested, not flat like unitlist: `Address{UnitID,
/// UnitNumber, BuildingID, ...}`, `FloorPlan{FloorPlanID, FloorPlanCode, FloorPlanName}`, `UnitDetails{Bedrooms,
/// Bathrooms, GrossSqFtCount, FloorNumber}`, `Availability{AvailableBit, MadeReadyDate MM/DD/YYYY}`.
public enum GetUnitList {
    /// The operation whose response this reads.
    public static let operation = RPXOperation.getunitlist

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [RPXUnitObject] {
        try SOAPResponse.rpxRecords(bytes, operation, named: operation.wholeStateRecord!) { element, position in
            let f = SOAPFields(element, operation: operation.name, record: "UnitObject \(position)")
            guard let address = f.nested("Address") else { throw f.invalid("Address is missing") }
            let plan = f.nested("FloorPlan"), details = f.nested("UnitDetails"), availability = f.nested("Availability")
            return RPXUnitObject(
                sourceIndex: position, unitID: try address.required("UnitID"), unitNumber: address.text("UnitNumber"),
                buildingID: address.text("BuildingID"), floorPlanCode: plan?.text("FloorPlanCode"),
                floorPlanName: plan?.text("FloorPlanName"), bedrooms: try details?.integer("Bedrooms"),
                bathrooms: try details?.decimal("Bathrooms"), grossSqft: try details?.integer("GrossSqFtCount"),
                floorNumber: details?.text("FloorNumber"), available: try availability?.flag("AvailableBit"),
                madeReadyDate: try availability?.date("MadeReadyDate"))
        }
    }
}
