/// unified_activity from Yardi: leasing events from GetYardiGuestActivity_Login (yardi_guest_activity) and resident
/// events from GetResidentsByStatus (yardi_residents), every event dated on or before the property date.
///
/// Which source wins — one source per event type, so nothing is counted twice:
///
/// | event_type | source | rule |
/// | --- | --- | --- |
/// | lead | guest activity | the prospect's first contact (its earliest event with `FirstContact` true; one per prospect id), whatever its `EventType` (Email, CallFromProspect, WalkIn, Webservice, Other = text message, ...) |
/// | tour | guest activity | `Show` |
/// | application | guest activity | `Application` |
/// | approval | guest activity | `Approve` |
/// | denial | guest activity | `ApplicationDenied` |
/// | cancellation | guest activity | `CancelApplication` |
/// | lease_signed | guest activity | `LeaseSign` |
/// | other | guest activity | every other event type: follow-up contacts, Appointment, ReturnVisit, Cancel (closes the guest card), Hold, ReActivate, ReApply, Transfer; and MoveIn, MoveOut, Notice, CancelNotice, Renew, MonthToMonth, which are counted from the residents instead |
/// | move_in | residents | `MoveInDate` of each household (head of household, `isRoommate` false) |
/// | move_out | residents | `MoveOutDate` |
/// | notice | residents | `NoticeDate` (Yardi sends it with a move-out date only) |
/// | renewal | residents | `LeaseFromDate` when the household's lease starts after its move-in (see YardiLeases.is_renewal) |
///
/// `pms_event_type` keeps Yardi's `EventType`, or for resident events the field the date came from (`MoveInDate`,
/// `MoveOutDate`, `NoticeDate`, `LeaseFromDate`). Guest events: `party_name` is the prospect (`Last, First`),
/// `party_id` the prospect id (p…), else the tenant code; `unit_number` is the unit the prospect leased when the
/// guest card names a tenant code GetResidentsByStatus knows; `source` is the `TransactionSource` (ad source);
/// `agent` the agent's name. An event type not in `eventTypes` is kept as `other` and warned about by
/// `YardiCrossChecks` (counts would otherwise drift without notice).
///
/// Limits (documented tolerances): GetResidentsByStatus carries one lease per household and no signing dates, so
/// renewals are the current lease's start (not the signing day) and earlier renewals of the household are not seen;
/// lease_signed counts only what the guest-card history holds (the simulator serves 210 days of it).
enum YardiActivity {
    /// Yardi guest-card event types (lower case, trimmed) -> unified event_type, for events that are not a first
    /// contact; the rule reads an event's by `value(of:)`, a CASE (joined as a table, each event was compared with
    /// every type), the check names the types it lacks from its table (`cte`).
    static let eventTypes = SQLVocabulary(table: "yardi_guest_event", textColumn: "event_text", valueColumn: "event_type",
                                          values: [
        ("show",                "tour"),
        ("application",         "application"),
        ("approve",             "approval"),
        ("applicationdenied",   "denial"),
        ("cancelapplication",   "cancellation"),
        ("leasesign",           "lease_signed"),
        ("email",               "other"),
        ("callfromprospect",    "other"),
        ("calltoprospect",      "other"),
        ("walkin",              "other"),
        ("webservice",          "other"),
        ("other",               "other"),
        ("appointment",         "other"),
        ("returnvisit",         "other"),
        ("cancel",              "other"),
        ("hold",                "other"),
        ("reactivate",          "other"),
        ("reapply",             "other"),
        ("transfer",            "other"),
        ("movein",              "other"),
        ("moveout",             "other"),
        ("notice",              "other"),
        ("cancelnotice",        "other"),
        ("renew",               "other"),
        ("monthtomonth",        "other"),
    ])

    static let insertGuestEvents = """
        WITH resident AS (
            SELECT tenant_code, unit_code FROM yardi_raw.yardi_residents
            WHERE property_id = :property AND as_of_date = :residents_snapshot
        )
        INSERT INTO unified_activity (
            unified_property_id, event_date, event_type, pms_event_type, unit_number, party_name, party_id, source, agent)
        SELECT :property, g.event_date,
               CASE WHEN g.first_contact = 1 AND g.contact_rank = 1 THEN 'lead' ELSE coalesce(\(eventTypes.value(of: "g.type_key")), 'other') END,
               g.event_type, resident.unit_code,
               CASE WHEN g.first_name IS NULL THEN g.last_name
                    WHEN g.last_name IS NULL THEN g.first_name
                    ELSE g.last_name || ', ' || g.first_name END,
               coalesce(g.prospect_id, g.tenant_code), nullif(g.transaction_source, ''), g.agent_name
        FROM (SELECT a.*,
                     -- The type `eventTypes`' CASE reads, once per event: joined on the expression, the vocabulary
                     -- was scanned for each event and the expression computed for each entry.
                     lower(trim(a.event_type)) AS type_key,
                     -- One lead per prospect (Metrics.funnel's definition): its earliest first-contact event.
                     row_number() OVER (PARTITION BY a.first_contact = 1,
                                                     coalesce(a.prospect_id, a.tenant_code, 'row' || a.source_row)
                                        ORDER BY a.event_date, a.source_row) AS contact_rank
              FROM yardi_raw.yardi_guest_activity a
              WHERE a.property_id = :property AND a.as_of_date = :guest_snapshot AND a.event_date <= :as_of) g
        LEFT JOIN resident ON resident.tenant_code = g.tenant_code
        ORDER BY g.event_date, g.source_row
        """

    static let insertResidentEvents = """
        WITH household AS (
            SELECT r.*,
                   CASE WHEN r.first_name IS NULL THEN r.last_name
                        WHEN r.last_name IS NULL THEN r.first_name
                        ELSE r.last_name || ', ' || r.first_name END AS name
            FROM yardi_raw.yardi_residents r
            WHERE r.property_id = :property AND r.as_of_date = :residents_snapshot
              AND \(YardiResidents.residentStatus("r")) IN ('current', 'notice', 'future', 'former')
              AND coalesce(r.is_roommate, 0) = 0
        ),
        event (event_date, event_type, pms_event_type, unit_code, name, tenant_code, source_row) AS (
            SELECT move_in_date, 'move_in', 'MoveInDate', unit_code, name, tenant_code, source_row FROM household
            UNION ALL
            SELECT move_out_date, 'move_out', 'MoveOutDate', unit_code, name, tenant_code, source_row FROM household
            UNION ALL
            SELECT notice_date, 'notice', 'NoticeDate', unit_code, name, tenant_code, source_row FROM household
            UNION ALL
            SELECT lease_from_date, 'renewal', 'LeaseFromDate', unit_code, name, tenant_code, source_row FROM household
            WHERE lease_from_date > move_in_date
        )
        INSERT INTO unified_activity (
            unified_property_id, event_date, event_type, pms_event_type, unit_number, party_name, party_id, source, agent)
        SELECT :property, event_date, event_type, pms_event_type, unit_code, name, tenant_code, NULL, NULL
        FROM event
        WHERE event_date IS NOT NULL AND event_date <= :as_of
        ORDER BY event_date, source_row, event_type
        """
}
