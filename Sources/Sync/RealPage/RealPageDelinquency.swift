/// unified_delinquency from RealPage, at the property date: one row per resident account of the Delinquent and
/// Prepaid report (realpage_delinquency) — RealPage's own aging, copied, not recomputed.
///
/// Which source wins: the report (RPX has balances but no aging). RPX getresidentlistinfo only names the household of
/// a row that lacks a Resh ID; RealPageCrossChecks compares the report's total with the RPX household balances.
///
/// - resident_id: the row's Resh ID (the household id unified_residents, unified_units and unified_leases use). A row
///   without one takes the ReshID of the getresidentlistinfo household on the same unit whose head is named alike
///   (`Last, First`, case and blanks ignored; the latest move-in if several), else `unit/name` (`1230/Hall, Brian`),
///   When the report prints no name (`HidePIIData`), the ReshID of the one getresidentlistinfo household of the
///   unit in the same standing (in place: current or notice; or former) whose balance is the account's Net Balance;
///   with none or several such households, `unit/row N` (the account's report row), so that a current and a former
///   resident of one unit are never merged or netted: stable across syncs of the same report and never equal to a
///   numeric ReshID. Rows of the same resident_id (one household printed twice) are added up.
/// - name: as printed, else (hidden) the matched household's `Last, First`, else the name the Collections Report
///   prints for the account (below).
/// - in_collections: for a former resident's or applicant's account, the Collections Report's `In Coll.` mark (1 or 0)
///   from the latest snapshot on or before the delinquency's that lists an account of the same unit and standing
///   (Former Resident, Former Applicant) with the same name or, the name hidden, an Ending Ledger Balance equal to
///   the account's Net Balance; exactly one such account, else NULL. NULL for every other account: the report lists
///   only the accounts that moved out in its date range, so an account it does not list is not known either way.
/// - current_balance: Net Balance (delinquent − prepaid, dollars; negative = in credit); prepaid: Total Prepaid as a
///   positive amount (0 when the report prints none).
/// - balance_0_30, balance_31_60, balance_61_90, balance_over_90: what the account owes by age (`owedByAge`), so
///   that they add up to its Total Delinquent as Yardi's buckets do. RealPage prints its aging columns (Current, 30,
///   60, 90+ Days) net of credits: a transaction code in credit shows its credit, negative, in the column of its age,
///   and an account's columns add up to its Net Balance (the real report's unit 609: PARKING 94.98 in Current, SEWER
///   and WATER -64.23 in 30 Days; Subtotals Current 94.98, 30 Days -64.23). Summed as printed they would count the
///   prepaid twice against the delinquent amount. Each bucket is therefore the sum of the account's transaction-code
///   rows' owing amounts (the positive ones) in that column; a code row is either owing or in credit
///   (realpage_delinquency_codes). An account printed without code rows (the simple layout) keeps its printed columns,
///   and RealPageCrossChecks warns (`delinquency_aging`) when they do not add up to Net Balance + prepaid.
///   Sums in integer cents, stored as dollars rounded to cents.
/// - under_eviction: the legend's `*` beside the account's name (raw `under_eviction`: 1 or 0; NULL from a layout
///   without the legend or a row loaded before the mark was read).
/// - resident_status (`Status`): Current resident -> current, Notice -> notice, Former resident -> former, Future
///   resident / Applicant -> future / applicant; other texts are kept as printed.
/// - as_of_date is the property date (the report is read from its latest snapshot on or before it).
enum RealPageDelinquency {
    static let source = "realpage: realpage_delinquency (Delinquent and Prepaid report)"

    /// `household_unit` (RealPageScratch): each household under every unit number a report row may print for it (its
    /// own unitnumber and the unified unit, building-qualified where numbers repeat) and its name as compared (case and
    /// blanks ignored). The accounts below look a household up by unit on its index instead of scanning them all per
    /// report row (2.9 s for one property's report of rows without a Resh ID); as a common table expression the
    /// planner scanned it whole for each of the report's rows (5 ms a property, the report printing no Resh ID).
    static let householdUnit = """
        SELECT h.household_id, h.unit_number AS unit_key, lower(replace(h.name, ' ', '')) AS name_key,
               h.move_in_date, h.unified_status, h.balance
        FROM rpx_household h
        UNION
        SELECT h.household_id, u.unified_unit, lower(replace(h.name, ' ', '')), h.move_in_date, h.unified_status,
               h.balance
        FROM rpx_household h JOIN rpx_unit u ON u.unit_id = h.unit_id
        """

    /// The report's accounts at the property date, each with its `resident_key` (the resident_id rule above) and its
    /// unified status; RealPageReportLedger keys the per-code rows by the same `resident_key`. Made once per property
    /// as RealPageScratch's `delinquency_account`, which the rules below read (the delinquency rule and its check each
    /// computed them: 6 ms a property each time); RealPageTransactionLedger reads them from another snapshot. Both look
    /// households up in `household_unit`.
    static let accounts = """
        printed AS (
            SELECT d.*, nullif(trim(d.resident_name), '') AS printed_name,
                   CASE lower(trim(d.resident_status))
                       WHEN 'current resident' THEN 'current' WHEN 'current' THEN 'current'
                       WHEN 'notice' THEN 'notice' WHEN 'notice resident' THEN 'notice' WHEN 'on notice' THEN 'notice'
                       WHEN 'former resident' THEN 'former' WHEN 'former' THEN 'former'
                       WHEN 'future resident' THEN 'future' WHEN 'future' THEN 'future'
                       WHEN 'applicant' THEN 'applicant'
                       ELSE d.resident_status END AS unified_status
            FROM realpage_raw.realpage_delinquency d
            WHERE d.property_id = :property AND d.as_of_date = :delinquency_snapshot
        ),
        -- Materialized: the grouping below reads household_key in three expressions, and inlined the planner ran its
        -- lookups once for each, one of them scanning every household per report row.
        matched AS MATERIALIZED (
            SELECT d.*,
                   coalesce(nullif(trim(d.resident_id), ''),
                            (SELECT h.household_id FROM household_unit h
                             WHERE h.unit_key = d.unit_number AND h.name_key = lower(replace(d.printed_name, ' ', ''))
                             ORDER BY h.move_in_date DESC LIMIT 1),
                            -- No name printed (HidePIIData): the one household of the unit in the same standing
                            -- (in place or former) whose RPX balance is the account's net balance, if exactly one.
                            CASE WHEN d.printed_name IS NULL THEN
                                (SELECT min(h.household_id) FROM household_unit h
                                 WHERE h.unit_key = d.unit_number
                                   AND (h.unified_status IN ('current', 'notice')) = (d.unified_status IN ('current', 'notice'))
                                   AND h.unified_status IN ('current', 'notice', 'former')
                                   AND CAST(round(h.balance * 100) AS INTEGER) = CAST(round(d.current_balance * 100) AS INTEGER)
                                 HAVING count(*) = 1)
                            END) AS household_key
            FROM printed d
        ),
        -- The Collections Report's accounts (former residents and applicants who moved out in its range), each (unit,
        -- name compared without case and blanks) from the latest snapshot on or before the delinquency's listing it.
        collection AS MATERIALIZED (
            SELECT unit_number, standing, name, name_key, ending_cents, in_collections
            FROM (SELECT c.unit_number, lower(trim(c.status)) AS standing, nullif(trim(c.resident_name), '') AS name,
                         lower(replace(c.resident_name, ' ', '')) AS name_key,
                         CAST(round(c.ending_balance * 100) AS INTEGER) AS ending_cents, c.in_collections,
                         row_number() OVER (PARTITION BY c.unit_number, lower(replace(c.resident_name, ' ', ''))
                                            ORDER BY c.as_of_date DESC, c.source_row) AS newest
                  FROM realpage_raw.realpage_collections c
                  WHERE c.property_id = :property AND c.as_of_date <= :delinquency_snapshot)
            WHERE newest = 1
        ),
        -- A former account's Collections Report account: the one of the same unit and standing with the same name
        -- (case and blanks ignored) or, the name hidden, the same balance (Ending Ledger Balance = Net Balance).
        collected AS MATERIALIZED (
            SELECT d.source_row, min(c.name) AS name, min(c.in_collections) AS in_collections
            FROM printed d
            JOIN collection c ON c.unit_number = d.unit_number AND c.standing = lower(trim(d.resident_status))
            WHERE lower(trim(d.resident_status)) LIKE 'former%'
              AND CASE WHEN d.printed_name IS NOT NULL THEN c.name_key = lower(replace(d.printed_name, ' ', ''))
                       ELSE c.ending_cents = CAST(round(d.current_balance * 100) AS INTEGER) END
            GROUP BY d.source_row
            HAVING count(*) = 1
        ),
        account AS (
            SELECT d.*,
                   coalesce(d.household_key,
                            d.unit_number || '/' || coalesce(d.printed_name, 'row ' || d.source_row)) AS resident_key,
                   coalesce(d.printed_name,
                            (SELECT h.name FROM rpx_household h WHERE h.household_id = d.household_key),
                            k.name) AS account_name,
                   k.in_collections
            FROM matched d
            LEFT JOIN collected k ON k.source_row = d.source_row
        )
        """

    /// Each account of the snapshot (`account_row`, the account's report row) with what it owes by age, in cents:
    /// per aging column the sum of its transaction-code rows' positive amounts (the rule above: RealPage nets a code's
    /// credit into the column of its age). Accounts without code rows have no row here.
    static let owedByAge = """
        owed_by_age AS (
            SELECT c.account_row,
                   sum(max(CAST(round(c.balance_0_30 * 100) AS INTEGER), 0))    AS owed_0_30,
                   sum(max(CAST(round(c.balance_31_60 * 100) AS INTEGER), 0))   AS owed_31_60,
                   sum(max(CAST(round(c.balance_61_90 * 100) AS INTEGER), 0))   AS owed_61_90,
                   sum(max(CAST(round(c.balance_over_90 * 100) AS INTEGER), 0)) AS owed_over_90
            FROM realpage_raw.realpage_delinquency_codes c
            WHERE c.property_id = :property AND c.as_of_date = :delinquency_snapshot
            GROUP BY c.account_row
        )
        """

    static let insert = """
        WITH \(owedByAge)
        INSERT INTO unified_delinquency (
            unified_property_id, as_of_date, resident_id, unit_number, name, resident_status, current_balance,
            balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, under_eviction, in_collections, source,
            run_id)
        SELECT :property, :as_of, a.resident_key, min(a.unit_number), min(a.account_name), min(a.unified_status),
               sum(CAST(round(a.current_balance * 100) AS INTEGER)) / 100.0,
               sum(coalesce(o.owed_0_30, CAST(round(a.balance_0_30 * 100) AS INTEGER))) / 100.0,
               sum(coalesce(o.owed_31_60, CAST(round(a.balance_31_60 * 100) AS INTEGER))) / 100.0,
               sum(coalesce(o.owed_61_90, CAST(round(a.balance_61_90 * 100) AS INTEGER))) / 100.0,
               sum(coalesce(o.owed_over_90, CAST(round(a.balance_over_90 * 100) AS INTEGER))) / 100.0,
               sum(CAST(round(abs(coalesce(a.prepaid, 0)) * 100) AS INTEGER)) / 100.0,
               max(a.under_eviction), max(a.in_collections), :source, :run_id
        FROM delinquency_account a
        LEFT JOIN owed_by_age o ON o.account_row = a.source_row
        GROUP BY a.resident_key
        ORDER BY min(a.source_row)
        """

    /// The accounts whose aging (as the rule reads it) does not add up to what they owe, Net Balance + prepaid
    /// (RealPageCrossChecks `delinquency_aging`): a layout printing its columns net of credits without code rows, or
    /// a code row both owing and in credit within one column.
    static let agingCheck = """
        WITH \(owedByAge),
        aged AS (
            SELECT a.unit_number, coalesce(a.account_name, a.resident_key) AS name, a.source_row,
                   CASE WHEN o.account_row IS NULL THEN 'kept as printed (no code rows)'
                        ELSE 'the owing amounts of its code rows' END AS read_as,
                   coalesce(o.owed_0_30 + o.owed_31_60 + o.owed_61_90 + o.owed_over_90,
                            CAST(round(a.balance_0_30 * 100) AS INTEGER) + CAST(round(a.balance_31_60 * 100) AS INTEGER)
                            + CAST(round(a.balance_61_90 * 100) AS INTEGER)
                            + CAST(round(a.balance_over_90 * 100) AS INTEGER)) AS aged_cents,
                   CAST(round(a.current_balance * 100) AS INTEGER)
                       + CAST(round(abs(coalesce(a.prepaid, 0)) * 100) AS INTEGER) AS owed_cents
            FROM delinquency_account a
            LEFT JOIN owed_by_age o ON o.account_row = a.source_row
        )
        SELECT 'unit ' || unit_number || ' row ' || source_row, printf('%.2f', owed_cents / 100.0),
               printf('%.2f', aged_cents / 100.0),
               printf('%s delinquency_aging: the Delinquent and Prepaid report (as of %s), unit %s (%s, row %d): the aging buckets add up to %.2f, what the account owes (Net Balance + Total Prepaid) is %.2f; its buckets are %s',
                      :property, :delinquency_snapshot, unit_number, name, source_row, aged_cents / 100.0,
                      owed_cents / 100.0, read_as)
        FROM aged
        WHERE aged_cents <> owed_cents
        ORDER BY source_row
        """
}
