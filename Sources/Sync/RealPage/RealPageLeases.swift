/// unified_leases and unified_lease_residents from RealPage: RPX `getleaseinfo` (realpage_leases: every lease of the
/// current and future households, and of former households gone up to 365 days) and RPX `getresidentlistinfo`
/// (realpage_residents) for the leases getleaseinfo does not hold.
///
/// Which source wins: getleaseinfo, one row per `Lease`. getresidentlistinfo carries one lease per household (the
/// current lease, a future household's first lease, a former household's last lease); those not in getleaseinfo —
/// the last leases of households gone longer than getleaseinfo keeps them — are added from it (no rent, deposit or
/// prior lease there). Without any RPX resident or lease snapshot there are no lease rows (the Rent Roll names no
/// lease id).
///
/// - resident_id: the household's ReshID (the head's unified resident_id); unit_number through `UnitID` (unitlist).
/// - status (`LeaseStatusText`): Current -> current; Current - Future, Applicant, Applicant - Lease Signed, Future
///   Lease -> future; Current - Past, Former -> past. Another text fails the property. Leases added from
///   getresidentlistinfo take the household's status (current/notice -> current, future -> future, former -> past;
///   an applicant's unsigned lease is not added).
/// - is_renewal: 1 when the lease has a `PriorLeaseID` (the household's previous lease) or `TypeText` Renewal; for a
///   lease from getresidentlistinfo, when it begins after the household's move-in (a first lease begins on move-in).
/// - is_month_to_month: `MonthToMonthDate` on or before the property date, or a current lease whose end date has
///   passed.
/// - signed_date `LeaseSignedDate`, move_in_date `MoveInDate`, rent_amount `Rent`, security_deposit
///   `SecurityDeposit`, prior_lease_id `PriorLeaseID` (RPX's `0` is NULL), pms_status `LeaseStatusText`.
/// - unified_lease_residents: RPX lists members per household, not per lease, so every lease of a household gets the
///   household's members: the head `head`; a relationship naming a guarantor or co-signer `guarantor`; an occupant,
///   child, minor or dependent `occupant`; anyone else (Co-Head, spouse, roommate) `co_resident`.
enum RealPageLeases {
    /// RPX `LeaseStatusText` (lowercased, trimmed) -> unified lease status.
    static let leaseStatuses = SQLVocabulary(table: "realpage_lease_status", textColumn: "status_text", valueColumn: "status",
                                             values: [
        ("current", "current"),
        ("current - future", "future"),
        ("future lease", "future"),
        ("applicant", "future"),
        ("applicant - lease signed", "future"),
        ("current - past", "past"),
        ("former", "past"),
    ])

    static let leaseStatusVocabulary = leaseStatuses.cte

    /// `rpx_lease` (RealPageScratch): every lease the rules know, one row per lease id (getleaseinfo first, then
    /// getresidentlistinfo's).
    ///
    /// Which row stands for a lease id is chosen on the few columns that order them (`chosen`: getleaseinfo's before
    /// the household's, then the first listed; SQLite's `min()` gives the other columns of the row it picks), and only
    /// that row's columns are read: ranked with every column carried through the sort, and each lease's status looked
    /// up by joining the vocabulary, the statement took 2.4 times as long (park_17: 8.5 -> 3.5 ms).
    static let rpxLease = """
        WITH \(leaseStatusVocabulary),
        candidate AS (
            SELECT l.id AS row_id, l.lease_id, l.source_row, 0 AS from_residents
            FROM realpage_raw.realpage_leases l
            WHERE l.property_id = :property AND l.as_of_date = :leases_snapshot
              AND lower(trim(l.lease_status_text)) IN (SELECT status_text FROM realpage_lease_status)
            UNION ALL
            SELECT h.id, h.lease_id, h.source_row, 1
            FROM rpx_household h
            WHERE h.lease_id IS NOT NULL AND h.unified_status <> 'applicant'
        ),
        chosen AS MATERIALIZED (
            SELECT row_id, from_residents, min(from_residents * 4294967296 + source_row)
            FROM candidate
            GROUP BY lease_id
        )
        SELECT l.lease_id, l.resh_id AS household_id, l.unit_id, l.lease_begin_date AS start_date,
               l.lease_end_date AS end_date, l.lease_signed_date AS signed_date, l.move_in_date,
               l.rent AS rent_amount, l.security_deposit, l.status, l.lease_status_text AS pms_status,
               (l.prior_lease_id IS NOT NULL OR lower(trim(l.type_text)) LIKE 'renewal%') AS is_renewal,
               (l.month_to_month_date <= :as_of OR (l.status = 'current' AND l.lease_end_date < :as_of)) IS 1
                   AS is_month_to_month,
               l.prior_lease_id, l.head_of_household_name, l.source_row, 0 AS from_residents
        FROM (SELECT l.*, \(leaseStatuses.value(of: "lower(trim(l.lease_status_text))")) AS status
              FROM chosen c
              JOIN realpage_raw.realpage_leases l ON l.id = c.row_id
              WHERE c.from_residents = 0) l
        UNION ALL
        SELECT h.lease_id, h.household_id, h.unit_id, h.begin_date, h.end_date, h.lease_signed_date,
               h.move_in_date, NULL, NULL,
               CASE h.unified_status WHEN 'former' THEN 'past' WHEN 'future' THEN 'future' ELSE 'current' END,
               h.lease_status, coalesce(h.begin_date > h.move_in_date, 0),
               (h.unified_status IN ('current', 'notice') AND h.end_date < :as_of) IS 1,
               NULL, NULL, h.source_row, 1
        FROM chosen c
        JOIN rpx_household h ON h.id = c.row_id
        WHERE c.from_residents = 1
        """

    static let unknownStatuses = """
        WITH \(leaseStatusVocabulary)
        SELECT lease_id, coalesce(lease_status_text, '')
        FROM realpage_raw.realpage_leases
        WHERE property_id = :property AND as_of_date = :leases_snapshot
          AND coalesce(lower(trim(lease_status_text)), '') NOT IN (SELECT status_text FROM realpage_lease_status)
        ORDER BY source_row
        LIMIT 5
        """

    /// Fails the property on a lease status the vocabulary lacks, naming the leases.
    static func requireKnownStatuses(_ realpage: RealPageSync) throws {
        let unknown = try realpage.rows(unknownStatuses)
        guard !unknown.isEmpty else { return }
        let leases = unknown.map { "lease \($0[0].textValue ?? "?") '\($0[1].textValue ?? "")'" }.joined(separator: ", ")
        throw RealPageRuleError("""
            getleaseinfo (as of \(realpage.snapshots.dates["getleaseinfo"] ?? "?")) has a lease status no RealPage rule \
            maps: \(leases); known: Current, Current - Future, Current - Past, Applicant, Applicant - Lease Signed, \
            Future Lease, Former (add it to RealPageLeases.leaseStatuses)
            """)
    }

    /// Every lease's row, or (`byHousehold`) those of the households in `temp.event_households` alone and the leases
    /// that name no household (RealPageEventHouseholds; main keeps the others' rows: `householdScopes`).
    static func insert(byHousehold: Bool) -> String {
        let leases = byHousehold ? """
            (SELECT l.* FROM rpx_lease l
             WHERE l.household_id IS NULL OR l.household_id IN (SELECT household_id FROM temp.event_households))
            """ : "rpx_lease"
        return """
        INSERT INTO unified_leases (
            unified_property_id, lease_id, unit_number, resident_id, start_date, end_date, signed_date, move_in_date,
            rent_amount, security_deposit, status, pms_status, is_renewal, is_month_to_month, prior_lease_id)
        SELECT :property, l.lease_id,
               coalesce((SELECT unified_unit FROM rpx_unit u WHERE u.unit_id = l.unit_id),
                        (SELECT unit_number FROM rpx_household h WHERE h.household_id = l.household_id)),
               l.household_id, l.start_date, l.end_date, l.signed_date, l.move_in_date, l.rent_amount,
               l.security_deposit, l.status, l.pms_status, l.is_renewal, l.is_month_to_month, l.prior_lease_id
        FROM \(leases) l
        ORDER BY l.from_residents, l.source_row
        """
    }

    /// Every member of a household on each of its leases: rpx_lease is looked up on its household index (RealPageScratch),
    /// each household's leases in their order in rpx_lease (getleaseinfo's first, then getresidentlistinfo's).
    /// `byHousehold`: the members of the households in `temp.event_households` alone, as `insert`.
    static func insertLeaseResidents(byHousehold: Bool) -> String {
        let members = RealPageEventHouseholds.rows(of: "rpx_member", byHousehold: byHousehold)
        return """
        INSERT INTO unified_lease_residents (unified_property_id, lease_id, resident_id, role)
        SELECT :property, l.lease_id, \(RealPageResidents.residentID("m")),
               CASE WHEN m.is_head THEN 'head'
                    WHEN lower(m.relationship) GLOB '*guarant*' OR lower(m.relationship) GLOB '*co-sign*'
                         OR lower(m.relationship) GLOB '*cosign*' THEN 'guarantor'
                    WHEN lower(m.relationship) GLOB '*occupant*' OR lower(m.relationship) GLOB '*child*'
                         OR lower(m.relationship) GLOB '*minor*' OR lower(m.relationship) GLOB '*dependent*' THEN 'occupant'
                    ELSE 'co_resident' END
        FROM \(members) m
        JOIN rpx_lease l ON l.household_id = m.household_id
        ORDER BY m.source_row, l.from_residents, l.source_row
        """
    }

    /// Main's rows the twins stand for when the leases were computed by household (`insert(byHousehold:)`): the leases
    /// of those households and those naming none, and the members on the leases of those households. A lease of
    /// another household is as the last sync wrote it: its rows, its household's and the property date's crossings of
    /// its dates are what RealPageEventHouseholds follows. A lease that passed from one household to another brings
    /// both in (its rows moved), so main's household of a lease decides which of its member rows are compared. Each
    /// condition looks its leases up by household (`unified_leases_by_resident`, unified migration 68) and reads them
    /// by key, in key order: one condition with an `OR` read every lease of the property to keep a few.
    static let householdScopes: [String: CurrentStateDiff.Scope] = [
        "unified_leases": CurrentStateDiff.Scope(conditions: [
            mainLeases(household: "resident_id IS NULL"), mainLeases(household: ofEventHouseholds),
        ], parameters: [:]),
        "unified_lease_residents": CurrentStateDiff.Scope(conditions: [mainLeases(household: ofEventHouseholds)],
                                                          parameters: [:]),
    ]

    /// A scope condition: the rows whose lease is one of main's leases of the property with `household` true of its
    /// resident_id (looked up through `unified_leases_by_resident`).
    private static func mainLeases(household: String) -> String {
        """
         AND lease_id IN (SELECT lease_id FROM main.unified_leases
                          WHERE unified_property_id = :property AND \(household))
        """
    }

    /// A lease of a household computed tonight (RealPageEventHouseholds).
    private static let ofEventHouseholds = "resident_id IN (SELECT household_id FROM temp.event_households)"
}
