import OwnerDashCore
import SOAP

/// One `Unit` of unitlist: the unit, its floor plan, rent, and vacancy flags (T/F) and dates (`1900-01-01` = none).
public struct RPXUnit: Sendable, Equatable {
    public var sourceIndex: Int
    public var unitID: String
    public var unitNumber: String
    public var buildingID: String?
    public var buildingNumber: String?
    public var buildingName: String?
    public var floorplanID: String?
    public var floorplanName: String?
    public var grossSqft: Int?
    public var rentableSqft: Int?
    public var vacant: Bool?
    public var available: Bool?
    public var availableDate: LocalDate?
    public var unitDeleted: Bool?
    public var unitDesignationName: String?
    public var marketRent: Money?
    public var reasonNotAvailable: String?
    public var unitMadeReadyDate: LocalDate?
    public var unitReserved: Bool?
    public var unitExpectedMoveinDate: LocalDate?
    public var onNoticeForDate: LocalDate?
    public var fpReportUnitOccupancy: Bool?
}

/// Decodes unitlist (`UnitList/Unit`, 45 fields; the ones used are kept).
public enum UnitList {
    /// The operation whose response this reads.
    public static let operation = RPXOperation.unitlist

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [RPXUnit] {
        try SOAPResponse.rpxRecords(bytes, operation, named: operation.wholeStateRecord!) { element, position in
            let f = SOAPFields(element, operation: operation.name, record: "Unit \(position)")
            return RPXUnit(sourceIndex: position, unitID: try f.required("UnitID"), unitNumber: try f.required("UnitNumber"),
                           buildingID: f.text("BuildingID"), buildingNumber: f.text("BuildingNumber"),
                           buildingName: f.text("BuildingName"), floorplanID: f.text("FloorplanID"),
                           floorplanName: f.text("FloorplanName"), grossSqft: try f.integer("GrossSqft"),
                           rentableSqft: try f.integer("RentableSqft"), vacant: try f.flag("Vacant"),
                           available: try f.flag("Available"), availableDate: try f.date("AvailableDate"),
                           unitDeleted: try f.flag("UnitDeleted"), unitDesignationName: f.text("UnitDesignationName"),
                           marketRent: try f.money("MarketRent"), reasonNotAvailable: f.text("ReasonNotAvailable"),
                           unitMadeReadyDate: try f.date("UnitMadeReadyDate"), unitReserved: try f.flag("UnitReserved"),
                           unitExpectedMoveinDate: try f.date("UnitExpectedMoveinDate"),
                           onNoticeForDate: try f.date("OnNoticeForDate"),
                           fpReportUnitOccupancy: try f.flag("FpReportUnitOccupancy"))
        }
    }
}
