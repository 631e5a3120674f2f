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

    /// Units whose status text is not in the vocabulary, and unit codes listed twice (first 5 of each).
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

    static let duplicateUnits = """
        SELECT unit_code, count(*) FROM yardi_raw.yardi_units
        WHERE property_id = :property AND as_of_date = :units_snapshot
        GROUP BY unit_code HAVING count(*) > 1
        ORDER BY unit_code
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
        let duplicates = try yardi.rows(duplicateUnits)
        if !duplicates.isEmpty {
            let units = duplicates.map { "\($0[0].textValue ?? "?") (\($0[1].integerValue ?? 0) rows)" }.joined(separator: ", ")
            throw YardiRuleError("GetUnitInformation lists a unit more than once: \(units)")
        }
    }

    static let insert = """
        WITH \(statusVocabulary),
        unit AS (
            SELECT u.*, s.status, s.is_ready
            FROM yardi_raw.yardi_units u
            JOIN yardi_unit_status s ON s.status_text = lower(trim(coalesce(u.economic_status_description, u.economic_status)))
            WHERE u.property_id = :property AND u.as_of_date = :units_snapshot
              AND s.status IS NOT NULL
        ),
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
