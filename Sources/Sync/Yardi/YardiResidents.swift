/// unified_residents from Yardi: one row per GetResidentsByStatus `Resident` (yardi_residents) of the snapshot read.
///
/// Which source wins: GetResidentsByStatus is the only Yardi source of people (status, dates, rent, contact);
/// `balance` is the household's ledger balance from GetResidentTransactions_Login (yardi_transactions: charges −
/// payments, the same figure as unified_delinquency.current_balance; 0 when the ledger nets to zero, NULL when the
/// household has no ledger rows, e.g. future residents).
///
/// `resident_id` is the Yardi tenant code (`t0001234`, the `tCode` attribute), the key every other Yardi payload uses.
/// `name` is `Last, First`, as both PMSs print it.
///
/// Status (`Status`, case and surrounding blanks ignored) -> unified status:
///
/// | Yardi | unified |
/// | --- | --- |
/// | Current | current |
/// | Notice | notice |
/// | Eviction | current (still in possession; `pms_status` keeps `Eviction`) |
/// | Future | future |
/// | Past, Former | former |
/// | Applicant, Approved, Waitlist | applicant |
/// | Denied, Canceled, Cancelled | not a resident: skipped |
///
/// Any other status, or a tenant code listed twice, fails the property naming the residents (`requireKnownStatuses`).
enum YardiResidents {
    /// Yardi `Status` (lowercased, trimmed) -> unified status (NULL: known, not a resident). The rules read a row's
    /// status by `CASE` (`residentStatus`); the check names the texts its table (`cte`) lacks, and a
    /// property with one fails before any rule runs, so no rule meets a status it does not know.
    static let residentStatuses = SQLVocabulary(table: "yardi_resident_status", textColumn: "status_text",
                                                valueColumn: "status", values: [
        ("current",   "current"),
        ("notice",    "notice"),
        ("eviction",  "current"),
        ("future",    "future"),
        ("past",      "former"),
        ("former",    "former"),
        ("applicant", "applicant"),
        ("approved",  "applicant"),
        ("waitlist",  "applicant"),
        ("denied",    nil),
        ("canceled",  nil),
        ("cancelled", nil),
    ])

    /// The unified status of the yardi_residents row aliased `alias` (NULL: not a resident).
    static func residentStatus(_ alias: String) -> String {
        residentStatuses.value(of: "lower(trim(\(alias).status))")
    }

    static let unknownStatuses = """
        WITH \(residentStatuses.cte)
        SELECT tenant_code, coalesce(status, '')
        FROM yardi_raw.yardi_residents
        WHERE property_id = :property AND as_of_date = :residents_snapshot
          AND coalesce(lower(trim(status)), '') NOT IN (SELECT status_text FROM yardi_resident_status)
        ORDER BY source_row
        LIMIT 5
        """

    /// Fails the property on a resident status the vocabulary lacks or a tenant code listed twice, naming them.
    static func requireKnownStatuses(_ yardi: YardiSync) throws {
        let unknown = try yardi.rows(unknownStatuses)
        if !unknown.isEmpty {
            let residents = unknown.map { "\($0[0].textValue ?? "?") '\($0[1].textValue ?? "")'" }.joined(separator: ", ")
            throw YardiRuleError("""
                GetResidentsByStatus (as of \(yardi.snapshots.dates["GetResidentsByStatus"] ?? "?")) has a resident \
                status no Yardi rule maps: \(residents); known: Current, Notice, Eviction, Future, Past, Former, \
                Applicant, Approved, Waitlist, Denied, Canceled (add it to YardiResidents.residentStatuses)
                """)
        }
        try yardi.requireListedOnce("tenant_code", in: "yardi_residents", snapshot: ":residents_snapshot",
                                    "GetResidentsByStatus lists a tenant code")
    }

    /// The balance is the household's window balance (charges − payments, in cents) as `yardi_household`
    /// (YardiHouseholds) summed it: a second pass over the whole merged ledger here grew with it.
    static let insert = """
        INSERT INTO unified_residents (
            unified_property_id, resident_id, unit_number, lease_id, name, first_name, last_name, email, phone,
            status, pms_status, move_in_date, notice_date, move_out_date, current_rent, balance)
        SELECT :property, r.tenant_code, r.unit_code, r.lease_id,
               CASE WHEN r.first_name IS NULL THEN r.last_name
                    WHEN r.last_name IS NULL THEN r.first_name
                    ELSE r.last_name || ', ' || r.first_name END,
               r.first_name, r.last_name, r.email, r.phone,
               \(residentStatus("r")), r.status, r.move_in_date, r.notice_date, r.move_out_date, r.rent,
               ledger.window_cents / 100.0
        FROM yardi_raw.yardi_residents r
        LEFT JOIN yardi_household ledger ON ledger.tenant_code = r.tenant_code
        WHERE r.property_id = :property AND r.as_of_date = :residents_snapshot
          AND \(residentStatus("r")) IS NOT NULL
        ORDER BY r.source_row
        """
}
