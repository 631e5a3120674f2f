import OwnerDashCore

/// unified_properties.floor_note: why some or all of a property's units have no `floor`, in words a reader of the
/// lease-status page can act on (NULL when every unit has one). The floor is whatever the PMS itself sends:
/// - RealPage: RPX getunitlist `UnitDetails/FloorNumber` (RealPageUnits). unitlist, the Rent Roll and the Box Score
///   carry no floor, and getunitlist is licensed per partner contract, so a key may be refused it.
/// - Yardi: none. GetUnitInformation's `Unit` names the unit type, floorplan, building and address; AvailableUnits,
///   GetResidentsByStatus and the transaction payloads name no floor either.
/// A unit number is never read as a floor: no vendor document says that unit `2105` is on floor 2.
enum UnitFloors {
    /// The rule for a property's PMS; run after its units are written, inside its sync transaction.
    static func note(_ pms: PMS) -> String {
        switch pms {
        case .realpage: realpage
        case .yardi: yardi
        }
    }

    /// Units without a floor, and all units, of the property.
    static let counts = """
        (SELECT count(*) AS total, coalesce(sum(floor IS NULL OR trim(floor) = ''), 0) AS missing
         FROM unified_units WHERE unified_property_id = :property)
        """

    static let realpage = """
        UPDATE unified_properties SET floor_note = (
            SELECT CASE
                WHEN c.missing = 0 THEN NULL
                WHEN o.objects = 0 THEN 'RealPage sends a unit''s floor only in RPX getunitlist (UnitDetails/FloorNumber), '
                    || 'and no getunitlist answer was loaded for this property (it is licensed per partner contract: '
                    || 'the license key may be refused it); unitlist and the OneSite reports carry no floor'
                ELSE 'getunitlist sent no FloorNumber for ' || c.missing || ' of ' || c.total || ' units'
            END
            FROM \(counts) c,
                 (SELECT count(*) AS objects FROM realpage_raw.realpage_unit_objects
                  WHERE property_id = :property
                    AND as_of_date = (SELECT max(as_of_date) FROM realpage_raw.realpage_unit_objects
                                      WHERE property_id = :property)) o)
        WHERE unified_property_id = :property
        """

    static let yardi = """
        UPDATE unified_properties SET floor_note = (
            SELECT CASE WHEN c.missing = 0 THEN NULL
                        ELSE 'Yardi sends no floor: GetUnitInformation names the unit type, floorplan, building and '
                            || 'address, and no other Yardi answer names a floor' END
            FROM \(counts) c)
        WHERE unified_property_id = :property
        """
}
