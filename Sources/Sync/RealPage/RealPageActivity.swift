/// unified_activity from RealPage: prospect events from the Activity report (realpage_activity) and the Leasing
/// Activity Detail (realpage_leasing_activity_detail), resident events from RPX getresidentlistinfo / getleaseinfo
/// (realpage_residents, realpage_leases), every event dated on or before the property date.
///
/// One report per day for the contacts (docs/metrics.md, "Leasing funnel"): on a day a Leasing Activity Detail covers,
/// the lead and tour rows come from it (its contact types, Initial Contact Type and guest card status) and the
/// Activity report's contact rows of that day are not read; every other event keeps the source below.
///
/// Which source wins — one source per event type, so nothing is counted twice:
///
/// | event_type | source | rule (Activity report `Type`, case and blanks ignored) |
/// | --- | --- | --- |
/// | lead | Leasing Activity Detail on the days it covers, else the Activity report | a prospect's first contact: the earliest row of a contact type (Activity report: E-mail, Phone call, Internet, Text message, Text Conversation, Fax/Letter, Visit; Leasing Activity Detail: any contact type but a tour, and only when of the prospect's Initial Contact Type) per prospect Name in the rows read; the prospect's later contacts are `other` (follow-ups, not new leads) |
/// | tour | Leasing Activity Detail on the days it covers, else the Activity report | Visit (return), Videotelephony - Tour, Self-guided - Tour, Pre-recorded - Tour, Tour; and Visit (a walk-in or an off-site prospect's visit: a Visit row gives a tour, and a lead too when it is the first contact) |
/// | application | Activity report | Online Leasing Agreement, Application |
/// | approval | Activity report | Application Approved |
/// | denial | Activity report | Application Denied |
/// | cancellation | Activity report | Application Canceled / Cancelled |
/// | move_in | RPX residents | `moveindate` of each household (its head's row) that is current, on notice or former |
/// | move_out | RPX residents | `moveoutdate` of those households |
/// | notice | RPX residents | `noticegivendate` of those households |
/// | renewal | RPX leases | `LeaseSignedDate` of each renewal lease (RealPageLeases.is_renewal) |
/// | lease_signed | RPX leases; without RPX residents the Leasing Activity Detail on the days it covers, else the Activity report | `LeaseSignedDate` of each household's first lease (is_renewal 0); the detail's rows counting a lease (`Lease`, Leases 1); Leased |
/// | other | Activity report, Leasing Activity Detail | every other type (Notes, Event, Signature, ...); Leased, Move-In, Move-Out, Notice to Vacate, Renewal Signed, which come from RPX instead; the Leasing Activity Detail's Lease marks when RPX gives the leases, its Waitlist / Cancelled/Denied marks |
///
/// Without an RPX getresidentlistinfo snapshot, the Activity report is the source of the resident events too:
/// Leased -> lease_signed, Move-In -> move_in, Move-Out -> move_out, Notice to Vacate -> notice, Renewal Signed ->
/// renewal (only its ~30-day window then).
///
/// Why RPX for resident events: it holds every household's history (getresidentlistinfo status ALL), so move-ins,
/// move-outs and notices per month cover the whole ledger window, not only the report's 30 days. Its one limit:
/// getleaseinfo keeps a former household's leases for 365 days, and getresidentlistinfo carries only its last lease,
/// so an older renewal or first lease of a household gone more than a year (not its last lease) has no signing date.
///
/// Activity report snapshots: the latest on or before the property date, plus the older ones for the days before the
/// first activity of every newer one (each day is read from the newest snapshot that covers it, so overlapping
/// 30-day windows of daily loads are not counted twice and the funnel keeps its history).
///
/// Columns: `pms_event_type` keeps the report's `Type`, or for resident events the RPX field the date came from;
/// report events: `party_name` the report's Name (`Last, First`), `unit_number` its Bldg/Unit matched to a
/// unified unit (`01-1401` -> `1401`), `source` the Ad Source, `agent` the Leasing Consultant; resident events:
/// `party_name` the head of household, `party_id` the household's ReshID. A report type not in `activityTypes`
/// is kept as `other` and warned about by RealPageCrossChecks.
enum RealPageActivity {
    /// Activity report types (lower case, trimmed) -> event_type, the vocabulary `activityRows` reads each row's type
    /// by (`SQLVocabulary.value(of:)`: a CASE over the row's type, where a join to a table of the types compared each
    /// row with every type, most of the statement that reads a year of the report's rows).
    static let activityTypes = SQLVocabulary(table: "realpage_activity_type", textColumn: "type_text",
                                             valueColumn: "event_type", values: [
        ("e-mail",                    "lead"),
        ("email",                     "lead"),
        ("phone call",                "lead"),
        ("internet",                  "lead"),
        ("text message",              "lead"),
        ("text conversation",         "lead"),
        ("fax/letter",                "lead"),
        ("visit",                     "lead"),
        ("visit (return)",            "tour"),
        ("videotelephony - tour",     "tour"),
        ("self-guided - tour",        "tour"),
        ("pre-recorded - tour",       "tour"),
        ("tour",                      "tour"),
        ("online leasing agreement",  "application"),
        ("application",               "application"),
        ("application approved",      "approval"),
        ("application denied",        "denial"),
        ("application canceled",      "cancellation"),
        ("application cancelled",     "cancellation"),
        ("leased",                    "lease_signed"),
        ("move-in",                   "move_in"),
        ("move-out",                  "move_out"),
        ("notice to vacate",          "notice"),
        ("renewal signed",            "renewal"),
        ("notes",                     "other"),
        ("event",                     "other"),
        ("signature",                 "other"),
    ])

    /// The types that are RPX's resident events when RPX residents are loaded (`resident_event`).
    static let residentEventTypes: Set<String> = ["leased", "move-in", "move-out", "notice to vacate", "renewal signed"]

    /// The types whose row gives a tour too (`also_tour`): a walk-in's Visit.
    static let alsoTourTypes: Set<String> = ["visit"]

    /// Report rows to read of the days the sync computes, `:activity_from` on (RealPageActivityDays; "" every day)
    /// (RealPageScratch's `report_activity`, which the rule and the unknown-type check both read: a
    /// year's snapshots made it the largest statement of a late night's sync, run twice): each day from the newest
    /// snapshot of its report (on or before the chosen one) that covers it; on a day a Leasing Activity Detail covers,
    /// the prospect contacts (lead and tour rows) come from it and the Activity report's contact rows of that day are
    /// not read (docs/metrics.md, "Leasing funnel").
    /// Leasing Activity Detail rows: a tour type is a tour, Visit a contact and a tour, any other contact type a
    /// contact (a lead when it is the prospect's first and of the guest card's Initial Contact Type, `may_be_first`),
    /// a row counting a lease (its Leases 1, the `Lease` mark) a signed lease unless RPX residents give the leases (then
    /// `other`, as the Activity report's Leased rows are; without RPX the Activity report's Leased rows of a day the
    /// detail covers are not read), its Waitlist / Cancelled/Denied marks `other` (applications and decisions come from
    /// the Activity report: the detail's Online Leasing contacts are not one per application).
    static let activityRows = """
        activity_snapshot AS (
            SELECT 'activity' AS report, as_of_date, min(activity_date) AS first_date
            FROM realpage_raw.realpage_activity
            WHERE property_id = :property AND as_of_date <= :activity_snapshot
            GROUP BY as_of_date
            UNION ALL
            SELECT 'leasing_activity_detail', as_of_date, min(contact_date)
            FROM realpage_raw.realpage_leasing_activity_detail
            WHERE property_id = :property AND as_of_date <= :lead_detail_snapshot
            GROUP BY as_of_date
        ),
        -- The first day of the snapshots newer than each (a window over the snapshots in date order, not a
        -- subquery per snapshot: a year of daily snapshots made that quadratic).
        activity_covered AS (
            SELECT s.report, s.as_of_date, s.first_date,
                   min(s.first_date) OVER (PARTITION BY s.report ORDER BY s.as_of_date DESC
                                           ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS newer_from
            FROM activity_snapshot s
        ),
        -- The Activity report rows read, with the type they are looked up by computed once per row: joined on
        -- `lower(trim(activity_type))` the planner scanned the vocabulary for each row and computed it for each
        -- entry (the largest statement of a late night's RealPage sync, 65 ms a property after a year of snapshots);
        -- `activityTypes`' CASEs read it below.
        activity_read AS MATERIALIZED (
            SELECT a.*, lower(trim(a.activity_type)) AS type_key
            FROM realpage_raw.realpage_activity a
            JOIN activity_covered c ON c.report = 'activity' AND c.as_of_date = a.as_of_date
            WHERE a.property_id = :property AND (c.newer_from IS NULL OR a.activity_date < c.newer_from)
              AND a.activity_date >= :activity_from AND a.activity_date <= :as_of
        ),
        activity AS (
            SELECT 'activity' AS report, 'a' || a.id AS row_key, a.as_of_date, a.source_row, a.activity_date,
                   a.activity_type, a.unit_number, a.party_name, a.source, a.agent,
                   \(activityTypes.value(of: "a.type_key")) AS mapped_type,
                   \(activityTypes.flag(of: "a.type_key", members: residentEventTypes)) AS resident_event,
                   \(activityTypes.flag(of: "a.type_key", members: alsoTourTypes)) AS also_tour, 1 AS may_be_first
            FROM activity_read a
            WHERE NOT ((a.type_key IN \(activityTypes.texts(valued: ["lead", "tour"]))
                        OR (a.type_key IN \(activityTypes.texts(valued: ["lease_signed"])) AND :residents_from_rpx = 0))
                       AND EXISTS (
                  SELECT 1 FROM activity_covered d WHERE d.report = 'leasing_activity_detail'
                    AND a.activity_date BETWEEN d.first_date AND d.as_of_date))
            UNION ALL
            SELECT 'leasing_activity_detail', 'l' || l.id, l.as_of_date, l.source_row, l.contact_date,
                   l.contact_type, NULL, l.prospect_name, l.ad_source, l.leasing_consultant,
                   CASE WHEN l.leases > 0 THEN 'lease_signed'
                        WHEN lower(trim(l.contact_type)) IN ('lease', 'waitlist', 'cancelled/denied', 'unknown')
                            THEN NULL
                        WHEN lower(trim(l.contact_type)) IN \(activityTypes.texts(valued: ["tour"])) THEN 'tour'
                        ELSE 'lead' END,
                   CASE WHEN l.leases > 0 THEN 1 ELSE 0 END,
                   CASE WHEN lower(trim(l.contact_type)) = 'visit' THEN 1 ELSE 0 END,
                   CASE WHEN l.initial_contact_type IS NULL
                          OR lower(trim(l.initial_contact_type)) = lower(trim(l.contact_type)) THEN 1 ELSE 0 END
            FROM realpage_raw.realpage_leasing_activity_detail l
            JOIN activity_covered c ON c.report = 'leasing_activity_detail' AND c.as_of_date = l.as_of_date
            WHERE l.property_id = :property AND (c.newer_from IS NULL OR l.contact_date < c.newer_from)
              AND l.contact_date >= :activity_from AND l.contact_date <= :as_of
        )
        """

    static let insertReportEvents = """
        WITH
        -- One lead per prospect (Metrics.funnel's definition): the report's only prospect key is its Name. Ranked on
        -- the contact rows alone, by their few columns (a window over every row read, each carried whole through its
        -- sort, was half of the statement and grew with the history kept). A prospect whose first contact falls on a
        -- day before those computed (RealPageActivityDays) ranks after it.
        lead_rank AS MATERIALIZED (
            SELECT r.row_key,
                   row_number() OVER (PARTITION BY coalesce(lower(trim(r.party_name)), r.row_key)
                                      ORDER BY r.activity_date, r.as_of_date, r.source_row)
                   + EXISTS (SELECT 1 FROM main.sync_activity_prospects p
                             WHERE p.unified_property_id = :property AND p.prospect_key = lower(trim(r.party_name))
                               AND p.first_date < :activity_from) AS contact_rank
            FROM report_activity r
            WHERE r.mapped_type = 'lead'
        ),
        contact AS (
            SELECT a.*, r.contact_rank
            FROM report_activity a
            LEFT JOIN lead_rank r ON r.row_key = a.row_key
        ),
        event AS (
            SELECT a.*, 0 AS k,
                   CASE WHEN a.mapped_type IS NULL THEN 'other'
                        WHEN a.resident_event = 1 AND :residents_from_rpx = 1 THEN 'other'
                        WHEN a.mapped_type = 'lead' AND (a.contact_rank > 1 OR a.may_be_first = 0) THEN 'other'
                        ELSE a.mapped_type END AS event_type
            FROM contact a
            UNION ALL
            SELECT a.*, 1, 'tour' FROM contact a WHERE a.also_tour = 1
        ),
        -- The report's Bldg/Unit (`01-1401`) or Unit, as unified_units numbers it.
        unit_alias AS MATERIALIZED (
            SELECT unit_number AS alias, unit_number FROM unified_units WHERE unified_property_id = :property
            UNION ALL
            SELECT building || '-' || unit_number, unit_number FROM unified_units
            WHERE unified_property_id = :property AND building IS NOT NULL
        )
        INSERT INTO unified_activity (
            unified_property_id, event_date, event_type, pms_event_type, unit_number, party_name, party_id, source, agent)
        SELECT :property, e.activity_date, e.event_type, e.activity_type,
               coalesce((SELECT min(u.unit_number) FROM unit_alias u WHERE u.alias = e.unit_number), e.unit_number),
               e.party_name, NULL, nullif(trim(e.source), ''), nullif(trim(e.agent), '')
        FROM event e
        ORDER BY e.activity_date, e.as_of_date, e.source_row, e.k
        """

    /// RPX's resident events: every household's, or (`byHousehold`) those of the households in
    /// `temp.event_households` alone (RealPageEventHouseholds), each looked up by its household.
    static func insertResidentEvents(byHousehold: Bool) -> String {
        let households = RealPageEventHouseholds.rows(of: "rpx_household", byHousehold: byHousehold)
        let leases = RealPageEventHouseholds.rows(of: "rpx_lease", byHousehold: byHousehold)
        return """
        WITH resident_event (event_date, event_type, pms_event_type, unit_id, unit_number, name, household_id, source_row) AS (
            SELECT move_in_date, 'move_in', 'moveindate', unit_id, unit_number, name, household_id, source_row
            FROM \(households) WHERE unified_status IN ('current', 'notice', 'former')
            UNION ALL
            SELECT move_out_date, 'move_out', 'moveoutdate', unit_id, unit_number, name, household_id, source_row
            FROM \(households) WHERE unified_status IN ('current', 'notice', 'former')
            UNION ALL
            SELECT notice_given_date, 'notice', 'noticegivendate', unit_id, unit_number, name, household_id, source_row
            FROM \(households) WHERE unified_status IN ('current', 'notice', 'former')
            UNION ALL
            SELECT l.signed_date, CASE WHEN l.is_renewal THEN 'renewal' ELSE 'lease_signed' END,
                   CASE WHEN l.from_residents = 1 THEN 'leasesigneddate' ELSE 'LeaseSignedDate' END,
                   l.unit_id, (SELECT unit_number FROM rpx_household h WHERE h.household_id = l.household_id),
                   coalesce((SELECT name FROM rpx_household h WHERE h.household_id = l.household_id),
                            l.head_of_household_name),
                   l.household_id, l.source_row
            FROM \(leases) l
            WHERE l.signed_date <= :as_of
        )
        INSERT INTO unified_activity (
            unified_property_id, event_date, event_type, pms_event_type, unit_number, party_name, party_id, source, agent)
        SELECT :property, e.event_date, e.event_type, e.pms_event_type,
               coalesce((SELECT unified_unit FROM rpx_unit u WHERE u.unit_id = e.unit_id), e.unit_number),
               e.name, e.household_id, NULL, NULL
        FROM resident_event e
        WHERE :residents_from_rpx = 1 AND e.event_date IS NOT NULL AND e.event_date <= :as_of
        ORDER BY e.event_date, e.event_type, e.household_id, e.source_row
        """
    }
}
