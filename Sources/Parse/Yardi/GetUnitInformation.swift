import OwnerDashCore
import SOAP

/// One `UnitInfo` of GetUnitInformation: a unit, its type, rent and economic status.
public struct UnitInfo: Sendable, Equatable {
    /// 1-based position of the `UnitInfo` element.
    public var sourceIndex: Int
    /// The unit code as people use it (`UnitID` text, e.g. `506`).
    public var unitCode: String
    /// Yardi's internal id (`UnitID@UniqueID`).
    public var unitUniqueID: String?
    /// The current resident's tenant code (`PersonID`); nil for a vacant unit.
    public var tenantCode: String?
    public var unitType: String?
    public var bedrooms: Int?
    public var bathrooms: Double?
    public var minSquareFeet: Int?
    public var maxSquareFeet: Int?
    public var marketRent: Money?
    /// `residential`, `model`, `down`, ...
    public var economicStatus: String?
    /// `Occupied No Notice`, `Notice Rented`, `Vacant Unrented Not Ready`, ...
    public var economicStatusDescription: String?
    public var floorplanName: String?
    public var buildingName: String?
    public var dateAvailable: LocalDate?
    public var addressLine1: String?
}

/// Decodes GetUnitInformation (`UnitInformation/Property/Units/UnitInfo`; docs/yardi-soap.md).
public enum GetUnitInformation {
    /// The operation whose response this reads.
    public static let operation = YardiOperation.getUnitInformation

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [UnitInfo] {
        try SOAPResponse.yardiRecords(bytes, operation, named: "UnitInfo") { element, position in
            let f = SOAPFields(element, operation: operation.name, record: "UnitInfo \(position)")
            let unitID = element.child(named: "UnitID")
            guard let code = f.text("UnitID") else { throw f.invalid("UnitID is missing") }
            let unit = f.nested("Unit") ?? SOAPFields(element, operation: operation.name, record: f.record)
            return UnitInfo(sourceIndex: position, unitCode: code, unitUniqueID: unitID?.attribute("UniqueID"),
                            tenantCode: f.text("PersonID"), unitType: unit.text("UnitType"),
                            bedrooms: try unit.integer("UnitBedrooms"), bathrooms: try unit.decimal("UnitBathrooms"),
                            minSquareFeet: try unit.integer("MinSquareFeet"), maxSquareFeet: try unit.integer("MaxSquareFeet"),
                            marketRent: try unit.money("MarketRent"), economicStatus: unit.text("UnitEconomicStatus"),
                            economicStatusDescription: unit.text("UnitEconomicStatusDescription"),
                            floorplanName: unit.text("FloorplanName"), buildingName: unit.text("BuildingName"),
                            dateAvailable: try unit.date("DateAvailable"),
                            addressLine1: unit.nested("Address")?.text("AddressLine1"))
        }
    }
}
