import OwnerDashCore
import SOAP

/// One `ILS_Unit` of AvailableUnits_Login: a vacant, on-notice or model unit offered for lease.
public struct ILSUnit: Sendable, Equatable {
    /// 1-based position of the `ILS_Unit` element.
    public var sourceIndex: Int
    /// The `Identification` with `OrganizationName="Unit"`, else `ILS_Unit@IDValue`.
    public var unitCode: String
    public var unitUniqueID: String?
    public var unitType: String?
    public var floorplanName: String?
    public var bedrooms: Int?
    public var bathrooms: Double?
    public var minSquareFeet: Int?
    public var maxSquareFeet: Int?
    public var marketRent: Money?
    public var effectiveRent: Money?
    /// `occupied` / `vacant`.
    public var occupancyStatus: String?
    /// `available`, `leased`, `on notice`.
    public var leasedStatus: String?
    /// `residential`, `model`.
    public var economicStatus: String?
    public var economicStatusDescription: String?
    /// `Availability/VacateDate` (a MITS date group of attributes).
    public var vacateDate: LocalDate?
    public var madeReadyDate: LocalDate?
    /// `Unoccupied` / `Occupied`.
    public var vacancyClass: String?
    /// The unit count the property declares (`Property/Information/UnitCount`), the same on every unit of the answer;
    /// nil when the feed declares none. A feed that lists about as many units as it declares is a unit list, not an
    /// availability list (YardiUnits).
    public var declaredUnitCount: Int? = nil
}

/// Decodes AvailableUnits_Login (`PhysicalProperty/Property/ILS_Unit`, MITS PropertyMarketingILS).
public enum AvailableUnits {
    /// The operation whose response this reads.
    public static let operation = YardiOperation.availableUnits

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [ILSUnit] {
        let response = try SOAPResponse.yardi(bytes, operation)
        let declared = try response.payload.descendants(named: "Property").first?.child(named: "Information").map {
            try SOAPFields($0, operation: operation.name, record: "Property/Information").integer("UnitCount")
        } ?? nil
        return try response.payload.descendants(named: "ILS_Unit").enumerated().map { offset, element in
            let record = "ILS_Unit \(offset + 1)"
            let f = SOAPFields(element, operation: operation.name, record: record)
            let unitElement = element.child(named: "Units")?.child(named: "Unit")
            let unit = unitElement.map { SOAPFields($0, operation: operation.name, record: record) } ?? f
            let identifications = unitElement?.children(named: "Identification") ?? []
            let code = identifications.first { $0.attribute("OrganizationName") == "Unit" }?.attribute("IDValue")
                ?? f.attribute("IDValue")
            guard let code, !code.isEmpty else { throw f.invalid("no unit Identification and no IDValue") }
            let uniqueID = identifications.first { $0.attribute("IDType") == "UnitUniqueID" }?.attribute("IDValue")
            let availability = f.nested("Availability")
            return ILSUnit(sourceIndex: offset + 1, unitCode: code, unitUniqueID: uniqueID, unitType: unit.text("UnitType"),
                           floorplanName: unit.text("FloorplanName"), bedrooms: try unit.integer("UnitBedrooms"),
                           bathrooms: try unit.decimal("UnitBathrooms"), minSquareFeet: try unit.integer("MinSquareFeet"),
                           maxSquareFeet: try unit.integer("MaxSquareFeet"), marketRent: try unit.money("MarketRent"),
                           effectiveRent: try f.money("EffectiveRent"), occupancyStatus: unit.text("UnitOccupancyStatus"),
                           leasedStatus: unit.text("UnitLeasedStatus"), economicStatus: unit.text("UnitEconomicStatus"),
                           economicStatusDescription: unit.text("UnitEconomicStatusDescription"),
                           vacateDate: try availability?.mitsDate("VacateDate"),
                           madeReadyDate: try availability?.mitsDate("MadeReadyDate"),
                           vacancyClass: availability?.text("VacancyClass"), declaredUnitCount: declared)
        }
    }
}
