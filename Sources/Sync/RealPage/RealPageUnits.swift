/// unified_units from RealPage: one row per RPX `unitlist` `Unit` (realpage_units) of the latest snapshot, or, when
/// no unitlist snapshot holds units, one row per unit of the Rent Roll (realpage_rent_roll).
///
/// Which source wins:
/// - RPX unitlist wins for which units exist, status, building, size, market rent, notice, availability and
///   make-ready dates. Not units (kept in realpage_units as sent, left out here): `UnitDeleted` units, and
///   non-dwelling areas, the rows whose floor plan OneSite does not report in occupancy (`FpReportUnitOccupancy`
///   false: a leasing office, a clubhouse, the "Non Dwelling Areas" floor plan). The Box Score counts neither, so
///   total units, occupancy, leased %, vacant ready / not ready, exposure and floor plans agree with it. A missing
///   flag counts as a unit (older unitlist answers do not send it).
/// - The Rent Roll gives the floorplan code (`floorplan`: RPX has only `FloorplanID` and `FloorplanName`; each
///   FloorplanID takes the code most of its units carry in the Rent Roll, else the FloorplanName) and `pms_status`,
///   OneSite's own status text (else the RPX flags the status was read from).
/// - RPX getresidentlistinfo gives the household in possession (a Current household on the unit, the latest move-in
///   if several): `resident_id` (its ReshID), `lease_id`; RPX getleaseinfo that lease's `Rent` as `actual_rent`
///   (occupied units only; the Rent Roll's Lease Rent when the lease is not listed), and the unit's history:
///   `vacant_since` = the latest `moveoutdate` on or before the property date (the simulator's `vacant_since`: days
///   vacant = property date − last move-out), for units not occupied.
/// - The Box Score floor plan group (`1x1`, `2x2`, `Studio`) gives bedrooms and bathrooms.
/// - RPX getunitlist (realpage_unit_objects, where the license key may call it) gives `floor`: its
///   `UnitDetails/FloorNumber`, matched on `UnitID` (else on the unit number, for the Rent Roll fallback). No other
///   RealPage data names a floor (unitlist, the Rent Roll and the Box Score carry none, and a unit number is not read
///   as one: nothing documents that `2105` is on floor 2); without getunitlist the floor stays NULL and
///   `UnitFloors` says why.
///
/// Status from unitlist (the simulator's scripts/pms_sim/rpx.py encodes each status the same way):
///
/// | Vacant | OnNoticeForDate | UnitReserved or UnitExpectedMoveinDate | ReasonNotAvailable / UnitDesignation | status |
/// | --- | --- | --- | --- | --- |
/// | F | none | any | any | occupied |
/// | F | a date | no | any | occupied_notice |
/// | F | a date | yes | any | occupied_notice_leased |
/// | T | — | any | mentions model, admin, office or employee | model |
/// | T | — | any | any other reason (`Down unit`, `Under rehab`, ...) | down |
/// | T | — | yes | none | vacant_leased |
/// | T | — | no | none | vacant |
///
/// `is_ready` (vacant and vacant_leased units only): 1 when `UnitMadeReadyDate` is on or before the property date and
/// not before the last move-out (a make-ready of an earlier turn does not count), else 0.
///
/// Unit numbers: `UnitNumber`, or `BuildingNumber-UnitNumber` when the same UnitNumber is in two buildings.
///
/// Rent Roll fallback (`Unit/Lease Status`, case, hyphens and blanks ignored -> status): `Occupied`, `Occupied no
/// NTV` -> occupied; `Occupied NTV` -> occupied_notice; `Occupied NTV Leased`, `Occupied NTVL` ->
/// occupied_notice_leased; `Vacant`, `Vacant not Leased` -> vacant; `Vacant Leased` -> vacant_leased; `Model`,
/// `Admin`, `Model/Admin`, `Vacant Model`, `Vacant Admin` -> model; `Down`, `Vacant Down` -> down. Another text fails
/// the property (a guessed status would silently move occupancy). The Rent Roll has no make-ready dates (`is_ready`
/// NULL, counted not ready), no FloorplanName and no unit ids; `resident_id` is its Resh ID (else `unit/name`, as in
/// RealPageResidents), `notice_for_date` its Notice For Date (else its Move-Out date) of on-notice units, `actual_rent`
/// its lease rent (`rentRollLeaseRent`). Both Rent Roll layouts spell statuses their own way (`Occupied NTV Leased`,
/// `Occupied-NTVL`): the vocabulary reads hyphens as blanks, so they map alike.
enum RealPageUnits {
    /// Written to unified_occupancy_metrics.source.
    static let unitListSource = "realpage_units (RPX unitlist) + realpage_residents + realpage_leases + realpage_rent_roll"
    /// Written to unified_occupancy_metrics.source when no unitlist snapshot holds units.
    static let rentRollSource = "realpage_rent_roll (Rent Roll report)"

    /// `rpx_unit` (RealPageScratch): the unitlist snapshot's units with their unified unit number (`unified_unit`).
    static let rpxUnit = """
        SELECT u.*,
               CASE WHEN count(*) OVER (PARTITION BY u.unit_number) > 1 AND u.building_number IS NOT NULL
                    THEN u.building_number || '-' || u.unit_number ELSE u.unit_number END AS unified_unit
        FROM realpage_raw.realpage_units u
        WHERE u.property_id = :property AND u.as_of_date = :units_snapshot AND coalesce(u.unit_deleted, 0) = 0
          AND coalesce(u.fp_report_unit_occupancy, 1) = 1
        """

    /// OneSite Rent Roll `Unit/Lease Status` texts (normalized: lower case, hyphens as blanks) -> unified status.
    static let rentRollStatuses = SQLVocabulary(table: "realpage_rent_roll_status", textColumn: "status_text",
                                                valueColumn: "status", values: [
        ("occupied", "occupied"),
        ("occupied no ntv", "occupied"),
        ("occupied ntv", "occupied_notice"),
        ("occupied ntv not leased", "occupied_notice"),
        ("occupied ntv leased", "occupied_notice_leased"),
        ("occupied ntvl", "occupied_notice_leased"),
        ("vacant", "vacant"),
        ("vacant not leased", "vacant"),
        ("vacant leased", "vacant_leased"),
        ("model", "model"),
        ("admin", "model"),
        ("model/admin", "model"),
        ("vacant model", "model"),
        ("vacant admin", "model"),
        ("down", "down"),
        ("vacant down", "down"),
    ])

    /// The Rent Roll status text as the vocabulary spells it.
    static func normalizedRentRollStatus(_ column: String) -> String {
        "lower(trim(replace(replace(\(column), '-', ' '), '  ', ' ')))"
    }

    /// Per unit row of the Rent Roll snapshot printed with one column per charge code, what its codes of the configured
    /// rent category (temp.charge_category, report_definitions.json `charge_categories`) bill a month. Those charge
    /// rows carry neither Lease Rent nor Other Charges/Credits, only their code's own amount.
    static let rentRollCodeRent = """
        rent_roll_code_rent AS MATERIALIZED (
            SELECT c.unit_row, round(sum(c.amount), 2) AS rent
            FROM realpage_raw.realpage_rent_roll_charges c
            JOIN temp.charge_category k ON k.code = upper(trim(c.code)) AND k.category = 'RENT'
            WHERE c.property_id = :property AND c.as_of_date = :rent_roll_snapshot
              AND c.lease_rent IS NULL AND c.other_charges IS NULL
            GROUP BY c.unit_row
        )
        """

    /// A Rent Roll row's lease rent: its Lease Rent as printed, else, in the layout with one column per charge code
    /// (which prints Total Charges and no Lease Rent), its rent-category codes (`rent_roll_code_rent`; 0.00 when it
    /// bills none, as the Trans Code layout prints a vacant unit's Lease Rent).
    static func rentRollLeaseRent(_ row: String) -> String {
        """
        coalesce(\(row).actual_rent, CASE WHEN \(row).total_charges IS NOT NULL
            THEN coalesce((SELECT x.rent FROM rent_roll_code_rent x WHERE x.unit_row = \(row).source_row), 0) END)
        """
    }

    /// The Rent Roll snapshot's first row per unit (a unit's later rows are its other residents), with its
    /// `lease_rent` (`rentRollLeaseRent`): `rent_roll_unit`, made once per property (RealPageScratch) for the units
    /// rules and the Rent Roll status check, which look its rows up by unit number and by id.
    static let rentRollUnit = """
        \(rentRollCodeRent),
        -- Each unit's first row, chosen on the two columns that decide it (`min()` gives the id of the row it picks);
        -- its every column carried through a sort, and its status looked up by a join, took twice as long.
        rent_roll_first_row AS MATERIALIZED (
            SELECT id, min(source_row)
            FROM realpage_raw.realpage_rent_roll
            WHERE property_id = :property AND as_of_date = :rent_roll_snapshot
            GROUP BY unit_number
        ),
        rent_roll_unit AS MATERIALIZED (
            SELECT r.*, \(rentRollStatuses.value(of: normalizedRentRollStatus("r.status"))) AS unified_status,
                   \(rentRollLeaseRent("r")) AS lease_rent
            FROM rent_roll_first_row f
            JOIN realpage_raw.realpage_rent_roll r ON r.id = f.id
        )
        """

    /// Bedrooms and bathrooms per floorplan code from the Box Score group (`2x1`: 2 bedrooms, 1 bath; `Studio`: 0).
    static let boxScoreRooms = """
        box_score_rooms AS MATERIALIZED (
            SELECT floorplan,
                   CASE WHEN lower(floorplan_group) LIKE 'studio%' THEN 0
                        WHEN floorplan_group GLOB '[0-9]*x[0-9]*'
                        THEN CAST(substr(floorplan_group, 1, instr(floorplan_group, 'x') - 1) AS INTEGER) END AS bedrooms,
                   CASE WHEN floorplan_group GLOB '[0-9]*x[0-9]*'
                        THEN CAST(substr(floorplan_group, instr(floorplan_group, 'x') + 1) AS REAL) END AS bathrooms
            FROM realpage_raw.realpage_box_score
            WHERE property_id = :property AND as_of_date = :box_score_snapshot
            GROUP BY floorplan
        )
        """

    /// Rent Roll units whose status text the vocabulary lacks (first 5), checked only when the Rent Roll is the source.
    static let unknownRentRollStatuses = """
        SELECT unit_number, coalesce(status, '') FROM rent_roll_unit
        WHERE unified_status IS NULL
        ORDER BY source_row
        LIMIT 5
        """

    /// Unit ids listed twice in the unitlist snapshot (first 5).
    static let duplicateUnits = """
        SELECT unified_unit, count(*) FROM rpx_unit
        GROUP BY unified_unit HAVING count(*) > 1
        ORDER BY unified_unit
        LIMIT 5
        """

    /// Fails the property on a Rent Roll status text no rule maps (when it is the unit source) or a unit listed twice.
    static func requireKnownStatuses(_ realpage: RealPageSync) throws {
        if realpage.hasUnitList {
            let duplicates = try realpage.rows(duplicateUnits)
            if !duplicates.isEmpty {
                let units = duplicates.map { "\($0[0].textValue ?? "?") (\($0[1].integerValue ?? 0) rows)" }.joined(separator: ", ")
                throw RealPageRuleError("unitlist (as of \(realpage.snapshots.dates["unitlist"] ?? "?")) lists a unit more than once: \(units)")
            }
            return
        }
        let unknown = try realpage.rows(unknownRentRollStatuses)
        if !unknown.isEmpty {
            let units = unknown.map { "unit \($0[0].textValue ?? "?") '\($0[1].textValue ?? "")'" }.joined(separator: ", ")
            throw RealPageRuleError("""
                Rent Roll (as of \(realpage.snapshots.dates["rent_roll"] ?? "none")) is the unit source (no unitlist \
                snapshot) and has a unit status no RealPage rule maps: \(units); known: Occupied, Occupied no NTV, \
                Occupied NTV, Occupied NTV Leased, Vacant, Vacant Leased, Model, Admin, Down \
                (add it to RealPageUnits.rentRollStatuses)
                """)
        }
    }

    /// The latest move-out on or before the property date per RPX unit id (`last_move_out`) and per unit number
    /// (`last_move_out_by_number`, for the Rent Roll fallback).
    static let lastMoveOut = """
        last_move_out AS MATERIALIZED (
            SELECT unit_id, max(move_out_date) AS move_out_date
            FROM realpage_raw.realpage_residents
            WHERE property_id = :property AND as_of_date = :residents_snapshot AND move_out_date <= :as_of
            GROUP BY unit_id
        ),
        last_move_out_by_number AS MATERIALIZED (
            SELECT unit_number, max(move_out_date) AS move_out_date
            FROM realpage_raw.realpage_residents
            WHERE property_id = :property AND as_of_date = :residents_snapshot AND move_out_date <= :as_of
            GROUP BY unit_number
        )
        """

    /// Households in possession: Current households (on notice or not), the latest move-in per unit; the household's
    /// row id only, which the units rule reads the row by (its every column carried through the sort was a third of
    /// the rule).
    static let inPossession = """
        in_possession AS MATERIALIZED (
            SELECT id, unit_id FROM (
                SELECT h.id, h.unit_id, row_number() OVER (PARTITION BY h.unit_id ORDER BY h.move_in_date DESC, h.source_row) AS k
                FROM rpx_household h WHERE h.unified_status IN ('current', 'notice')
            ) WHERE k = 1
        )
        """

    /// getunitlist's units of the latest snapshot with a floor (one per unit id; the first row wins).
    static let unitObjectSQL = """
        SELECT unit_id, min(unit_number) AS unit_number, trim(floor_number) AS floor_number
        FROM realpage_raw.realpage_unit_objects
        WHERE property_id = :property AND as_of_date = :unit_objects_snapshot AND trim(coalesce(floor_number, '')) <> ''
        GROUP BY unit_id
        """

    static let insertFromUnitList = """
        WITH \(boxScoreRooms), \(inPossession), \(lastMoveOut),
        lease AS MATERIALIZED (
            SELECT lease_id, rent FROM realpage_raw.realpage_leases
            WHERE property_id = :property AND as_of_date = :leases_snapshot
        ),
        unit_status AS MATERIALIZED (
            SELECT u.*,
                   CASE
                       WHEN coalesce(u.vacant, 0) = 0 THEN
                           CASE WHEN u.on_notice_for_date IS NULL THEN 'occupied'
                                WHEN u.unit_reserved = 1 OR u.expected_move_in_date IS NOT NULL THEN 'occupied_notice_leased'
                                ELSE 'occupied_notice' END
                       WHEN u.reason GLOB '*model*' OR u.reason GLOB '*admin*' OR u.reason GLOB '*office*'
                            OR u.reason GLOB '*employee*' OR u.designation IN ('model', 'admin', 'model/admin') THEN 'model'
                       WHEN u.reason <> '' OR u.designation = 'down' THEN 'down'
                       WHEN u.unit_reserved = 1 OR u.expected_move_in_date IS NOT NULL THEN 'vacant_leased'
                       ELSE 'vacant'
                   END AS status,
                   printf('unitlist: Vacant=%s Available=%s Reserved=%s%s%s',
                          CASE u.vacant WHEN 1 THEN 'T' ELSE 'F' END, CASE u.available WHEN 1 THEN 'T' ELSE 'F' END,
                          CASE u.unit_reserved WHEN 1 THEN 'T' ELSE 'F' END,
                          CASE WHEN u.on_notice_for_date IS NOT NULL THEN ' OnNoticeFor=' || u.on_notice_for_date ELSE '' END,
                          CASE WHEN u.reason <> '' THEN ' ReasonNotAvailable=' || u.reason_not_available ELSE '' END) AS rpx_flags,
                   -- The Rent Roll names a unit `1101` or `01-1101` (Bldg/Unit).
                   coalesce((SELECT id FROM rent_roll_unit WHERE unit_number = u.unified_unit),
                            (SELECT id FROM rent_roll_unit WHERE unit_number = u.building_number || '-' || u.unit_number))
                       AS rent_roll_id
            FROM (SELECT *, lower(trim(coalesce(reason_not_available, ''))) AS reason,
                            lower(trim(coalesce(unit_designation, ''))) AS designation
                  FROM rpx_unit) u
        ),
        unit_rent_roll AS MATERIALIZED (
            SELECT u.*, r.status AS rent_roll_status, r.floorplan AS rent_roll_floorplan, r.building AS rent_roll_building,
                   r.sqft AS rent_roll_sqft, r.market_rent AS rent_roll_market_rent,
                   (SELECT x.lease_rent FROM rent_roll_unit x WHERE x.id = u.rent_roll_id) AS rent_roll_actual_rent,
                   coalesce(r.notice_for_date, r.move_out_date) AS rent_roll_move_out
            FROM unit_status u
            LEFT JOIN realpage_raw.realpage_rent_roll r ON r.id = u.rent_roll_id
        ),
        -- Each FloorplanID takes the Rent Roll floorplan code most of its units carry.
        floorplan_code AS MATERIALIZED (
            SELECT floorplan_id, floorplan FROM (
                SELECT floorplan_id, rent_roll_floorplan AS floorplan,
                       row_number() OVER (PARTITION BY floorplan_id ORDER BY count(*) DESC, rent_roll_floorplan) AS n
                FROM unit_rent_roll
                WHERE rent_roll_floorplan IS NOT NULL
                GROUP BY floorplan_id, rent_roll_floorplan
            ) WHERE n = 1
        ),
        unit_object AS MATERIALIZED (\(unitObjectSQL)),
        -- Lookups are scalar subqueries: SQLite builds an automatic index for them, not for a LEFT JOIN on a CTE.
        unit_row AS MATERIALIZED (
            SELECT u.*,
                   coalesce((SELECT floorplan FROM floorplan_code f WHERE f.floorplan_id = u.floorplan_id),
                            u.floorplan_name, u.floorplan_id) AS unified_floorplan,
                   CASE WHEN u.status IN ('vacant', 'vacant_leased', 'model', 'down')
                        THEN (SELECT move_out_date FROM last_move_out m WHERE m.unit_id = u.unit_id) END AS vacant_since,
                   CASE WHEN u.status LIKE 'occupied%'
                        THEN (SELECT id FROM in_possession h WHERE h.unit_id = u.unit_id) END AS household_row_id
            FROM unit_rent_roll u
        )
        INSERT INTO unified_units (
            unified_property_id, unit_number, pms_unit_id, building, floor, floorplan, floorplan_name, bedrooms, bathrooms,
            sqft, status, pms_status, is_ready, market_rent, actual_rent, resident_id, lease_id, notice_for_date,
            available_date, made_ready_date, vacant_since, \(UnitFlags.columns))
        SELECT :property, u.unified_unit, u.unit_id, coalesce(u.building_number, u.building_name, u.rent_roll_building),
               (SELECT floor_number FROM unit_object o WHERE o.unit_id = u.unit_id), u.unified_floorplan, u.floorplan_name,
               rooms.bedrooms, rooms.bathrooms,
               coalesce(u.rentable_sqft, u.gross_sqft, u.rent_roll_sqft),
               u.status, coalesce(u.rent_roll_status, u.rpx_flags),
               CASE WHEN u.status IN ('vacant', 'vacant_leased')
                    THEN coalesce(u.made_ready_date <= :as_of AND u.made_ready_date >= coalesce(u.vacant_since, ''), 0) END,
               coalesce(u.market_rent, u.rent_roll_market_rent),
               CASE WHEN u.status LIKE 'occupied%'
                    THEN coalesce((SELECT rent FROM lease WHERE lease.lease_id = h.lease_id), u.rent_roll_actual_rent) END,
               h.household_id, h.lease_id,
               CASE WHEN u.status IN ('occupied_notice', 'occupied_notice_leased')
                    THEN coalesce(u.on_notice_for_date, h.notice_for_date, u.rent_roll_move_out) END,
               u.available_date, u.made_ready_date, u.vacant_since,
               \(UnitFlags.values(status: "u.status"))
        FROM unit_row u
        LEFT JOIN realpage_raw.realpage_residents h ON h.id = u.household_row_id
        LEFT JOIN box_score_rooms rooms ON rooms.floorplan = u.unified_floorplan
        ORDER BY u.source_row
        """

    static let insertFromRentRoll = """
        WITH \(boxScoreRooms), \(lastMoveOut),
        unit_object AS MATERIALIZED (\(unitObjectSQL))
        INSERT INTO unified_units (
            unified_property_id, unit_number, pms_unit_id, building, floor, floorplan, floorplan_name, bedrooms, bathrooms,
            sqft, status, pms_status, is_ready, market_rent, actual_rent, resident_id, lease_id, notice_for_date,
            available_date, made_ready_date, vacant_since, \(UnitFlags.columns))
        SELECT :property, r.unit_number, NULL, r.building,
               (SELECT floor_number FROM unit_object o WHERE o.unit_number = r.unit_number), r.floorplan, NULL,
               rooms.bedrooms, rooms.bathrooms,
               r.sqft, r.unified_status, r.status, NULL, r.market_rent,
               CASE WHEN r.unified_status LIKE 'occupied%' THEN r.lease_rent END,
               CASE WHEN r.unified_status LIKE 'occupied%' AND r.resident_name IS NOT NULL
                    THEN \(RealPageResidents.rentRollResidentID("r")) END,
               NULL,
               CASE WHEN r.unified_status IN ('occupied_notice', 'occupied_notice_leased')
                    THEN coalesce(r.notice_for_date, r.move_out_date) END,
               NULL, NULL,
               CASE WHEN r.unified_status IN ('vacant', 'vacant_leased', 'model', 'down')
                    THEN m.move_out_date END,
               \(UnitFlags.values(status: "r.unified_status"))
        FROM rent_roll_unit r
        LEFT JOIN box_score_rooms rooms ON rooms.floorplan = r.floorplan
        LEFT JOIN last_move_out_by_number m ON m.unit_number = r.unit_number
        ORDER BY r.source_row
        """
}
