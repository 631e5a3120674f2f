/// unified_leases and unified_lease_residents from Yardi GetResidentsByStatus (yardi_residents).
///
/// Which source wins: GetResidentsByStatus is the only Yardi source of leases. Each `Resident` carries one lease
/// (`leaseId`, `LeaseFromDate`, `LeaseToDate`, `Rent`): the lease in effect for Current/Notice residents, the first
/// lease of a Future resident, the last one of a Past resident. Earlier leases of a household are not in the payload,
/// so unified_leases holds one lease per household, never the full chain (`prior_lease_id` NULL). Residents without
/// a `leaseId`, and the statuses YardiResidents skips, give no lease.
///
/// - One row per lease id: the household head (`isRoommate` false; else the first listed) gives unit, resident,
///   dates and rent.
/// - status: Current/Notice/Eviction -> current, Future/applicant statuses -> future, Past/Former -> past.
/// - is_renewal: 1 when the lease starts after the household moved in (`LeaseFromDate > MoveInDate`: a household's
///   first lease starts on its move-in day), else 0 (also when either date is missing).
/// - is_month_to_month: a current lease whose `LeaseToDate` is before the property date (the household stayed on
///   after the term without a new lease).
/// - signed_date and security_deposit: not in the payload, NULL.
/// - unified_lease_residents: every resident row with the lease id; role `head` unless `isRoommate` (`co_resident`).
///   Other occupants (`OtherOccupants`) are only counted by the payload, so they have no rows.
enum YardiLeases {
    static let insert = """
        WITH resident AS (
            SELECT r.*, \(YardiResidents.residentStatus("r")) AS resident_status
            FROM yardi_raw.yardi_residents r
            WHERE r.property_id = :property AND r.as_of_date = :residents_snapshot AND r.lease_id IS NOT NULL
        ),
        lease_row AS (
            SELECT r.*, row_number() OVER (PARTITION BY r.lease_id
                                           ORDER BY coalesce(r.is_roommate, 0), r.source_row) AS n
            FROM resident r
            WHERE r.resident_status IS NOT NULL
        )
        INSERT INTO unified_leases (
            unified_property_id, lease_id, unit_number, resident_id, start_date, end_date, signed_date, move_in_date,
            rent_amount, security_deposit, status, pms_status, is_renewal, is_month_to_month, prior_lease_id)
        SELECT :property, lease_id, unit_code, tenant_code, lease_from_date, lease_to_date, NULL, move_in_date,
               rent, NULL,
               CASE resident_status WHEN 'current' THEN 'current' WHEN 'notice' THEN 'current'
                                    WHEN 'former' THEN 'past' ELSE 'future' END,
               status,
               coalesce(lease_from_date > move_in_date, 0),
               resident_status IN ('current', 'notice') AND coalesce(lease_to_date < :as_of, 0),
               NULL
        FROM lease_row WHERE n = 1
        ORDER BY source_row
        """

    static let insertLeaseResidents = """
        INSERT INTO unified_lease_residents (unified_property_id, lease_id, resident_id, role)
        SELECT :property, r.lease_id, r.tenant_code,
               CASE WHEN coalesce(r.is_roommate, 0) = 1 THEN 'co_resident' ELSE 'head' END
        FROM yardi_raw.yardi_residents r
        WHERE r.property_id = :property AND r.as_of_date = :residents_snapshot
          AND r.lease_id IS NOT NULL AND \(YardiResidents.residentStatus("r")) IS NOT NULL
        ORDER BY r.source_row
        """
}
