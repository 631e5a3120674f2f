/// unified_residents from RealPage: one row per household member of RPX `getresidentlistinfo` (realpage_residents,
/// status ALL: current, future, former households and applicants), or, without that snapshot, one row per named
/// resident of the Rent Roll.
///
/// Which source wins: getresidentlistinfo is the RealPage source of people (status, dates, household balance);
/// getleaseinfo (realpage_leases) gives `current_rent`, the rent of the member's lease. The Rent Roll stands in only
/// when no getresidentlistinfo snapshot holds residents.
///
/// `resident_id`: the household's ReshID (`residenthouseholdid`) for the head of household — the id the Rent Roll,
/// the Delinquent and Prepaid report, getleaseinfo and unified_units use — and `ReshID-ResidentMemberID` for every
/// other member (`25200003-25600004`). The head is the member with `hohbit` TRUE (else the household's first member
/// listed). `balance` is the household's balance, on the head's row only (RPX sends it there; the other members'
/// rows are NULL, so sums over residents are household sums). `name` is `Last, First`, as OneSite prints it.
/// `email` and `phone` are the member's own (`email`; `cellphone`, else `homephone`, else `workphone`), as sent,
/// trimmed, like Yardi's: OneSite fills them for the head of household, so they are what the debtors report joins a
/// person's units by. The Rent Roll fallback has them where its layout prints them (the one column per charge code
/// layout: Phone Number, Email).
/// RPX lists a member once per lease row; when a member is listed twice, the row of the most current status wins
/// (Current, Future Lease, Applicant - Lease Signed, Applicant, Former).
/// Rows without a unit (`unitid` empty: placeholders such as a guarantor listed on the household) are not residents
/// of the property and are skipped; the raw row stays in realpage_residents as sent.
///
/// Status (`leasestatus`, case and surrounding blanks ignored) -> unified status:
///
/// | RPX | unified |
/// | --- | --- |
/// | Current | current, or notice when `noticefordate`/`noticegivendate` is set or `leasetype` is `Notice given - move out` (RPX has no Notice status) |
/// | Future Lease | current (a current household whose next lease is signed) |
/// | Applicant - Lease Signed | future |
/// | Applicant | applicant |
/// | Former | former |
/// | Former Applicant | not a resident: skipped |
///
/// Any other status fails the property naming the residents (`requireKnownStatuses`).
///
/// Rent Roll fallback: one row per named Rent Roll row. `resident_id` is its Resh ID, else `unit/name`
/// (`1101/Ramirez, Laura`: stable while the same household holds the unit, never equal to a numeric ReshID); status:
/// a resident status text as above (`Applicant - Lease Signed` -> future), else notice on an `Occupied NTV*` unit,
/// future on a vacant unit, current otherwise; `current_rent` its lease rent (RealPageUnits.rentRollLeaseRent),
/// `balance` its Balance, `move_out_date` its Move-Out (else its Notice For Date).
enum RealPageResidents {
    /// RPX `leasestatus` (lowercased, trimmed) -> unified status (Former Applicant: not a resident), in the order that
    /// picks a member's row when it is listed twice (its `priority`, `rank(of:)`).
    static let residentStatuses = SQLVocabulary(table: "realpage_resident_status", textColumn: "status_text",
                                                valueColumn: "status", values: [
        ("current", "current"),
        ("future lease", "current"),
        ("applicant - lease signed", "future"),
        ("applicant", "applicant"),
        ("former", "former"),
        ("former applicant", nil),
    ])

    /// `rpx_member` (RealPageScratch): one row per household member of the residents snapshot, status mapped, the
    /// household's head marked (`is_head`).
    ///
    /// The member's row (its best status, then its first row: `min()` gives the columns of the row it picks) and the
    /// household's head are chosen on the few columns that order them, and the member's row is read again by its id:
    /// ranked with every column of the snapshot carried through both sorts, the statement cost a third more; with
    /// the member's row ranked by a window and each status looked up by joining the vocabulary, a fifth more.
    static let rpxMember = """
        WITH member AS (
            SELECT r.id, r.household_id, coalesce(r.resident_member_id, 'row' || r.source_row) AS member_key,
                   \(residentStatuses.rank(of: "lower(trim(r.lease_status))")) AS priority,
                   \(residentStatuses.value(of: "lower(trim(r.lease_status))")) AS status, r.source_row,
                   coalesce(r.head_of_household, 0) AS head
            FROM realpage_raw.realpage_residents r
            WHERE r.property_id = :property AND r.as_of_date = :residents_snapshot
              AND r.household_id IS NOT NULL AND trim(coalesce(r.unit_id, '')) <> ''
        ),
        ranked AS (
            SELECT *, row_number() OVER (PARTITION BY household_id ORDER BY head DESC, priority, source_row) = 1 AS is_head
            FROM (SELECT id, household_id, member_key, priority, status, source_row, head,
                         min(priority * 4294967296 + source_row)
                  FROM member
                  WHERE status IS NOT NULL
                  GROUP BY household_id, member_key)
        )
        SELECT r.*, k.priority,
               CASE WHEN k.status = 'current' AND (r.notice_for_date IS NOT NULL OR r.notice_given_date IS NOT NULL
                                                   OR lower(trim(r.lease_type)) LIKE 'notice given%')
                    THEN 'notice' ELSE k.status END AS unified_status,
               k.member_key,
               CASE WHEN r.first_name IS NULL THEN r.last_name
                    WHEN r.last_name IS NULL THEN r.first_name
                    ELSE r.last_name || ', ' || r.first_name END AS name,
               k.is_head
        FROM ranked k
        JOIN realpage_raw.realpage_residents r ON r.id = k.id
        """

    /// `rpx_household` (RealPageScratch): the household's head row per ReshID.
    static let rpxHousehold = "SELECT * FROM rpx_member WHERE is_head"

    /// The unified resident_id of a member row of `rpx_member` aliased `alias`.
    static func residentID(_ alias: String) -> String {
        "CASE WHEN \(alias).is_head THEN \(alias).household_id ELSE \(alias).household_id || '-' || \(alias).member_key END"
    }

    /// The unified resident_id of a Rent Roll row aliased `alias` (no RPX): its Resh ID, else `unit/name`.
    static func rentRollResidentID(_ alias: String) -> String {
        "coalesce(nullif(trim(\(alias).resident_id), ''), \(alias).unit_number || '/' || \(alias).resident_name)"
    }

    static let unknownStatuses = """
        WITH \(residentStatuses.cte)
        SELECT coalesce(household_id, '?') || '/' || coalesce(resident_member_id, '?'), coalesce(lease_status, '')
        FROM realpage_raw.realpage_residents
        WHERE property_id = :property AND as_of_date = :residents_snapshot
          AND coalesce(lower(trim(lease_status)), '') NOT IN (SELECT status_text FROM realpage_resident_status)
        ORDER BY source_row
        LIMIT 5
        """

    /// Fails the property on a resident status the vocabulary lacks, naming the residents (household/member).
    static func requireKnownStatuses(_ realpage: RealPageSync) throws {
        let unknown = try realpage.rows(unknownStatuses)
        guard !unknown.isEmpty else { return }
        let residents = unknown.map { "\($0[0].textValue ?? "?") '\($0[1].textValue ?? "")'" }.joined(separator: ", ")
        throw RealPageRuleError("""
            getresidentlistinfo (as of \(realpage.snapshots.dates["getresidentlistinfo"] ?? "?")) has a lease status \
            no RealPage rule maps: \(residents); known: Current, Future Lease, Applicant - Lease Signed, Applicant, \
            Former, Former Applicant (add it to RealPageResidents.residentStatuses)
            """)
    }

    /// Every member's row, or (`byHousehold`) those of the households in `temp.event_households` alone
    /// (RealPageEventHouseholds; main keeps the others' rows: `householdScope`).
    static func insert(byHousehold: Bool) -> String {
        let members = RealPageEventHouseholds.rows(of: "rpx_member", byHousehold: byHousehold)
        return """
        WITH lease AS MATERIALIZED (
            SELECT lease_id, max(rent) AS rent FROM realpage_raw.realpage_leases
            WHERE property_id = :property AND as_of_date = :leases_snapshot
              \(byHousehold ? "AND lease_id IN (SELECT lease_id FROM \(members))" : "")
            GROUP BY lease_id
        )
        INSERT INTO unified_residents (
            unified_property_id, resident_id, unit_number, lease_id, name, first_name, last_name, email, phone,
            status, pms_status, move_in_date, notice_date, move_out_date, current_rent, balance)
        SELECT :property, \(residentID("m")),
               coalesce((SELECT unified_unit FROM rpx_unit u WHERE u.unit_id = m.unit_id), m.unit_number), m.lease_id,
               m.name, m.first_name, m.last_name, m.email, m.phone,
               m.unified_status, m.lease_status, m.move_in_date, m.notice_given_date, m.move_out_date,
               (SELECT rent FROM lease WHERE lease.lease_id = m.lease_id), CASE WHEN m.is_head THEN m.balance END
        FROM \(members) m
        ORDER BY m.source_row
        """
    }

    /// Main's rows the twin stands for when the residents were computed by household (`insert(byHousehold:)`): the
    /// head's (its resident_id is the household's) and the members' (`household-member`, each household's a range of
    /// the key from `household-` to `household.`, `.` following `-`) of those households. Exact only while no
    /// household id holds a `-` (RealPageEventHouseholds.undashed). Each condition is a lookup by key, in key order:
    /// the household read off the resident_id with `instr` and `substr` read every resident of the property to keep a
    /// few, a scan that grew with every former household the vendor keeps listing.
    static let householdScope = CurrentStateDiff.Scope(conditions: [
        " AND resident_id IN (SELECT household_id FROM temp.event_households)",
        """
         AND resident_id IN (SELECT r.resident_id FROM temp.event_households x
                             JOIN main.unified_residents r
                               ON r.unified_property_id = :property
                              AND r.resident_id >= x.household_id || '-' AND r.resident_id < x.household_id || '.')
        """,
    ], parameters: [:])

    static let insertFromRentRoll = """
        WITH \(RealPageUnits.rentRollCodeRent),
        rent_roll AS (
            SELECT r.*,
                   \(RealPageUnits.rentRollStatuses.value(of: RealPageUnits.normalizedRentRollStatus("r.status"))) AS unit_status,
                   \(RealPageUnits.rentRollLeaseRent("r")) AS lease_rent,
                   \(residentStatuses.value(of: "lower(trim(r.status))")) AS resident_status,
                   row_number() OVER (PARTITION BY \(rentRollResidentID("r")) ORDER BY r.source_row) AS n
            FROM realpage_raw.realpage_rent_roll r
            WHERE r.property_id = :property AND r.as_of_date = :rent_roll_snapshot AND r.resident_name IS NOT NULL
        )
        INSERT INTO unified_residents (
            unified_property_id, resident_id, unit_number, lease_id, name, first_name, last_name, email, phone,
            status, pms_status, move_in_date, notice_date, move_out_date, current_rent, balance)
        SELECT :property, \(rentRollResidentID("r")), r.unit_number, NULL, r.resident_name, NULL, NULL, r.email, r.phone,
               CASE WHEN r.resident_status IS NOT NULL THEN r.resident_status
                    WHEN r.unit_status IN ('occupied_notice', 'occupied_notice_leased') THEN 'notice'
                    WHEN r.unit_status IN ('vacant', 'vacant_leased') THEN 'future'
                    ELSE 'current' END,
               r.status, r.move_in_date, NULL, coalesce(r.move_out_date, r.notice_for_date), r.lease_rent, r.balance
        FROM rent_roll r
        WHERE r.n = 1
        ORDER BY r.source_row
        """
}
