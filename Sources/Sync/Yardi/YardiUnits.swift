/// unified_units from Yardi: one row per GetUnitInformation `UnitInfo` (yardi_units) of the property-date snapshot.
///
/// Which source wins:
/// - GetUnitInformation (yardi_units) wins for which units exist, their status and make-ready state (the
///   `UnitEconomicStatusDescription` text, mapped by `statusVocabulary`), floorplan, size and market rent.
/// - GetResidentsByStatus (yardi_residents) gives the household in possession (GetUnitInformation's `PersonID`,
///   else the unit's Current/Notice/Eviction head of household): its rent is `actual_rent`, its move-out date
///   `notice_for_date`; and the unit's history: `vacant_since` = the latest move-out on or before the property date
///   (the simulator's `vacant_since`, so days vacant = property date - last move-out).
/// - AvailableUnits_Login (yardi_available_units) gives `made_ready_date`, and fills `notice_for_date` /
///   `vacant_since` from its VacateDate only where GetResidentsByStatus has no date. Where its status text disagrees
///   with GetUnitInformation's, GetUnitInformation wins and `YardiCrossChecks` warns.
///
/// `floor` is NULL: no Yardi answer names a unit's floor (UnitFloors records that on the property).
///
/// Status text (case and surrounding blanks ignored) -> unified status, is_ready:
///
/// | Yardi text | status | is_ready |
/// | --- | --- | --- |
/// | Occupied No Notice | occupied | |
/// | Notice Unrented | occupied_notice | |
/// | Notice Rented | occupied_notice_leased | |
/// | Vacant Unrented Ready / Not Ready | vacant | 1 / 0 |
/// | Vacant Rented Ready / Not Ready | vacant_leased | 1 / 0 |
/// | Model, Admin | model (Box Score's Model/Admin) | |
/// | Down | down | |
/// | Excluded, Waitlist | not a unit: skipped (Yardi's own pseudo-rows, excluded from its statistics) | |
///
/// Any other text fails the property (`requireKnownStatuses`) naming the units and the text: a guessed status would
/// silently move occupancy, and the fix is one line in `statusVocabulary`. A unit without a description is matched on
/// its `UnitEconomicStatus` (`model`, `down`); `residential` alone is not a status and fails too.
enum YardiUnits {
    /// Written to unified_occupancy_metrics.source.
    static let source = "yardi_units (GetUnitInformation) + yardi_residents + yardi_available_units"
    /// unified_occupancy_metrics.source when the units come from the marketing feed (`insertFromILS`).
    static let ilsSource = "yardi_available_units (AvailableUnits_Login ILS feed: GetUnitInformation listed no unit) + yardi_residents"

    /// The Yardi unit status vocabulary as a CTE (`yardi_unit_status`); `status` NULL = known, not a unit.
    static let statusVocabulary = """
        yardi_unit_status (status_text, status, is_ready) AS (VALUES
            ('occupied no notice',        'occupied',               NULL),
            ('notice unrented',           'occupied_notice',        NULL),
            ('notice rented',             'occupied_notice_leased', NULL),
            ('vacant unrented ready',     'vacant',                 1),
            ('vacant unrented not ready', 'vacant',                 0),
            ('vacant rented ready',       'vacant_leased',          1),
            ('vacant rented not ready',   'vacant_leased',          0),
            ('model',                     'model',                  NULL),
            ('admin',                     'model',                  NULL),
            ('down',                      'down',                   NULL),
            ('excluded',                  NULL,                     NULL),
            ('waitlist',                  NULL,                     NULL)
        )
        """

    /// The condition that a yardi_units row is a unit: not one of Yardi's pseudo-rows (a waiting list, excluded
    /// non-residential codes), whose texts the vocabulary knows without a status (Excluded, Waitlist).
    static let isUnitRow = """
        coalesce(lower(trim(coalesce(economic_status_description, economic_status))), '') NOT IN ('excluded', 'waitlist')
        """

    /// Units whose status text is not in the vocabulary (first 5).
    static let unknownStatuses = """
        WITH \(statusVocabulary)
        SELECT unit_code, coalesce(economic_status_description, economic_status)
        FROM yardi_raw.yardi_units
        WHERE property_id = :property AND as_of_date = :units_snapshot
          AND coalesce(lower(trim(coalesce(economic_status_description, economic_status))), '')
              NOT IN (SELECT status_text FROM yardi_unit_status)
        ORDER BY source_row
        LIMIT 5
        """

    /// Fails the property on a status text the vocabulary lacks or a unit listed twice, naming them.
    static func requireKnownStatuses(_ yardi: YardiSync) throws {
        let unknown = try yardi.rows(unknownStatuses)
        if !unknown.isEmpty {
            let units = unknown.map { "unit \($0[0].textValue ?? "?") '\($0[1].textValue ?? "")'" }.joined(separator: ", ")
            throw YardiRuleError("""
                GetUnitInformation (as of \(yardi.snapshots.dates["GetUnitInformation"] ?? "?")) has a unit status \
                text no Yardi rule maps: \(units); known texts: Occupied No Notice, Notice Unrented, Notice Rented, \
                Vacant Unrented/Rented Ready/Not Ready, Model, Admin, Down, Excluded, Waitlist \
                (add it to YardiUnits.statusVocabulary)
                """)
        }
        try yardi.requireListedOnce("unit_code", in: "yardi_units", snapshot: ":units_snapshot",
                                    "GetUnitInformation lists a unit")
    }

    /// The units from GetUnitInformation (the usual unit list).
    static let insert = insert(units: """
        unit AS (
            SELECT u.*, s.status, s.is_ready
            FROM yardi_raw.yardi_units u
            JOIN yardi_unit_status s ON s.status_text = lower(trim(coalesce(u.economic_status_description, u.economic_status)))
            WHERE u.property_id = :property AND u.as_of_date = :units_snapshot
              AND s.status IS NOT NULL
        )
        """)

    /// The units from the AvailableUnits_Login marketing feed, where it is the unit list (`unitList`): its
    /// `ILS_Unit` rows with the GetUnitInformation columns the rule reads (no building, no PersonID, no
    /// DateAvailable). The status is the status text where the feed sends one the vocabulary maps (as
    /// GetUnitInformation's), else `ilsStatus` from the MITS fields, a vacant unit ready when it has a MadeReadyDate
    /// (the `made_ready` cross-check's reading of the feed); Excluded and Waitlist rows are not units.
    static let insertFromILS = insert(units: """
        ils AS (
            SELECT a.*, \(ilsStatus) AS feed_status
            FROM yardi_raw.yardi_available_units a
            WHERE a.property_id = :property AND a.as_of_date = :available_snapshot
        ),
        unit AS (
            SELECT a.unit_code, a.unit_unique_id, NULL AS building_name, a.unit_type, a.floorplan_name, a.bedrooms,
                   a.bathrooms, a.min_sqft, a.max_sqft, a.market_rent, NULL AS tenant_code, NULL AS date_available,
                   a.source_row, a.economic_status,
                   coalesce(a.economic_status_description,
                            trim(a.occupancy_status) || ', ' || coalesce(trim(a.leased_status), '')) AS economic_status_description,
                   CASE WHEN s.status_text IS NOT NULL THEN s.status ELSE a.feed_status END AS status,
                   CASE WHEN s.status_text IS NOT NULL THEN s.is_ready
                        ELSE a.made_ready_date IS NOT NULL END AS is_ready
            FROM ils a
            LEFT JOIN yardi_unit_status s ON s.status_text = lower(trim(a.economic_status_description))
            WHERE CASE WHEN s.status_text IS NOT NULL THEN s.status ELSE a.feed_status END IS NOT NULL
        )
        """)

    /// An `ILS_Unit`'s unified status from its MITS fields (`a.`): `UnitEconomicStatus` model/admin/down first, then
    /// `UnitOccupancyStatus` and `UnitLeasedStatus`. An occupied unit that is `available` or `on notice` is on notice
    /// (an occupied unit is offered for lease only once its household gave notice); an occupied `leased` unit with a
    /// `VacateDate` is on notice and re-leased, without one it is occupied with no notice. NULL: neither occupied nor
    /// vacant (`unknownILSStatuses` fails the property on it).
    static let ilsStatus = """
        CASE
            WHEN lower(trim(a.economic_status)) IN ('model', 'admin') THEN 'model'
            WHEN lower(trim(a.economic_status)) = 'down' THEN 'down'
            WHEN lower(trim(a.occupancy_status)) = 'vacant'
                THEN CASE WHEN lower(trim(a.leased_status)) LIKE 'leased%' THEN 'vacant_leased' ELSE 'vacant' END
            WHEN lower(trim(a.occupancy_status)) = 'occupied'
                THEN CASE WHEN lower(trim(a.leased_status)) LIKE 'leased%'
                          THEN CASE WHEN a.vacate_date IS NULL THEN 'occupied' ELSE 'occupied_notice_leased' END
                          ELSE 'occupied_notice' END
        END
        """

    /// ILS units whose status neither the status text nor the MITS fields give (first 5).
    static let unknownILSStatuses = """
        WITH \(statusVocabulary)
        SELECT a.unit_code, coalesce(a.occupancy_status, 'no UnitOccupancyStatus'), coalesce(a.leased_status, 'no UnitLeasedStatus')
        FROM yardi_raw.yardi_available_units a
        LEFT JOIN yardi_unit_status s ON s.status_text = lower(trim(a.economic_status_description))
        WHERE a.property_id = :property AND a.as_of_date = :available_snapshot
          AND s.status_text IS NULL AND (\(ilsStatus)) IS NULL
        ORDER BY a.source_row
        LIMIT 5
        """

    /// The unit list of a property date: GetUnitInformation's rows when it has any, else the AvailableUnits_Login feed
    /// when it lists every unit (`ilsListsEveryUnit`), else none.
    enum UnitList: Equatable {
        case unitInformation
        /// The marketing feed: units listed, units the property declares.
        case ilsFeed(listed: Int, declared: Int)
        /// No unit list; why, for the `units_missing` warning.
        case none(reason: String)
    }

    /// A feed that lists at least this share of the units it declares is the property's unit list; an availability
    /// list (the vacant and on-notice units a marketing site shows) lists a small part of them. 90 %: a real feed
    /// declares 200 units and lists 203, and a property is rarely 10 % available.
    static let ilsListsEveryUnit = 0.9

    static let unitListCounts = """
        SELECT (SELECT count(*) FROM yardi_raw.yardi_units
                WHERE property_id = :property AND as_of_date = :units_snapshot
                  -- A list of Yardi's pseudo-rows alone lists no unit.
                  AND \(isUnitRow)) AS unit_information,
               (SELECT count(DISTINCT unit_code) FROM yardi_raw.yardi_available_units
                WHERE property_id = :property AND as_of_date = :available_snapshot) AS listed,
               (SELECT max(declared_unit_count) FROM yardi_raw.yardi_available_units
                WHERE property_id = :property AND as_of_date = :available_snapshot) AS declared
        """

    /// Which unit list the property date has (see `UnitList`).
    static func unitList(_ yardi: YardiSync) throws -> UnitList {
        let counts = try yardi.rows(unitListCounts).first ?? []
        func count(_ index: Int) -> Int? { counts.indices.contains(index) ? counts[index].integerValue.map(Int.init) : nil }
        if (count(0) ?? 0) > 0 { return .unitInformation }
        let listed = count(1) ?? 0
        let available = yardi.snapshots.dates["AvailableUnits_Login"]
        guard listed > 0, let available else {
            return .none(reason: available.map { "AvailableUnits_Login (\($0)) lists no unit either" }
                ?? "no AvailableUnits_Login snapshot to take them from either")
        }
        guard let declared = count(2) else {
            return .none(reason: """
                AvailableUnits_Login (\(available)) lists \(listed) units but declares no unit count \
                (Property/Information/UnitCount), so it cannot be told from a list of the units for lease
                """)
        }
        guard Double(listed) >= Double(declared) * ilsListsEveryUnit else {
            return .none(reason: """
                AvailableUnits_Login (\(available)) lists \(listed) of the \(declared) units the property declares: \
                the units for lease, not the unit list
                """)
        }
        return .ilsFeed(listed: listed, declared: declared)
    }

    /// Fails the property on an ILS unit listed twice or whose status cannot be told, naming them (as
    /// `requireKnownStatuses` does for GetUnitInformation).
    static func requireKnownILSStatuses(_ yardi: YardiSync) throws {
        try yardi.requireListedOnce("unit_code", in: "yardi_available_units", snapshot: ":available_snapshot",
                                    "AvailableUnits_Login (the unit list: GetUnitInformation lists no unit) lists a unit")
        let unknown = try yardi.rows(unknownILSStatuses)
        guard !unknown.isEmpty else { return }
        let units = unknown.map { "unit \($0[0].textValue ?? "?") ('\($0[1].textValue ?? "")', '\($0[2].textValue ?? "")')" }
        throw YardiRuleError("""
            AvailableUnits_Login (as of \(yardi.snapshots.dates["AvailableUnits_Login"] ?? "?"), the unit list: \
            GetUnitInformation lists no unit) has units that are neither occupied nor vacant: \
            \(units.joined(separator: ", ")); UnitOccupancyStatus must be occupied or vacant
            """)
    }

    /// The unit rule over `units`, SQL defining the CTE `unit` (and any it needs) after the status vocabulary.
    private static func insert(units: String) -> String {
        """
        WITH \(statusVocabulary),
        \(units),
        resident AS (
            SELECT * FROM yardi_raw.yardi_residents
            WHERE property_id = :property AND as_of_date = :residents_snapshot
        ),
        -- When GetUnitInformation names no PersonID: the unit's first listed head of household in possession
        -- (SQLite takes the bare tenant_code from the row holding min(source_row)).
        in_possession AS (
            SELECT unit_code, tenant_code, min(source_row)
            FROM resident
            WHERE lower(trim(status)) IN ('current', 'notice', 'eviction') AND coalesce(is_roommate, 0) = 0
            GROUP BY unit_code
        ),
        last_move_out AS (
            SELECT unit_code, max(move_out_date) AS move_out_date
            FROM resident WHERE move_out_date <= :as_of
            GROUP BY unit_code
        ),
        available AS (
            SELECT unit_code, min(vacate_date) AS vacate_date, min(made_ready_date) AS made_ready_date
            FROM yardi_raw.yardi_available_units
            WHERE property_id = :property AND as_of_date = :available_snapshot
            GROUP BY unit_code
        ),
        unit_resident AS (
            SELECT unit.*,
                   unit.status IN ('occupied', 'occupied_notice', 'occupied_notice_leased') AS occupied,
                   CASE WHEN unit.status IN ('occupied', 'occupied_notice', 'occupied_notice_leased')
                        THEN coalesce(unit.tenant_code, in_possession.tenant_code) END AS household
            FROM unit LEFT JOIN in_possession ON in_possession.unit_code = unit.unit_code
        )
        INSERT INTO unified_units (
            unified_property_id, unit_number, pms_unit_id, building, floor, floorplan, floorplan_name, bedrooms,
            bathrooms, sqft, status, pms_status, is_ready, market_rent, actual_rent, resident_id, lease_id,
            notice_for_date, available_date, made_ready_date, vacant_since, \(UnitFlags.columns))
        SELECT :property, u.unit_code, u.unit_unique_id, u.building_name, NULL, u.unit_type, u.floorplan_name,
               u.bedrooms, u.bathrooms, coalesce(u.max_sqft, u.min_sqft),
               u.status, coalesce(u.economic_status_description, u.economic_status),
               CASE WHEN u.status IN ('vacant', 'vacant_leased') THEN u.is_ready END,
               u.market_rent,
               current.rent,
               u.household,
               current.lease_id,
               CASE WHEN u.status IN ('occupied_notice', 'occupied_notice_leased')
                    THEN coalesce(current.move_out_date, available.vacate_date) END,
               u.date_available,
               available.made_ready_date,
               CASE WHEN NOT u.occupied THEN coalesce(last_move_out.move_out_date,
                                                       CASE WHEN available.vacate_date <= :as_of THEN available.vacate_date END) END,
               \(UnitFlags.values(status: "u.status"))
        FROM unit_resident u
        LEFT JOIN yardi_raw.yardi_residents current
          ON current.property_id = :property AND current.as_of_date = :residents_snapshot
         AND current.tenant_code = u.household
        LEFT JOIN last_move_out ON last_move_out.unit_code = u.unit_code
        LEFT JOIN available ON available.unit_code = u.unit_code
        ORDER BY u.source_row
        """
    }
}
