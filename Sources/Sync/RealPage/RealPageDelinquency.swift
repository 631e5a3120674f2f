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
/// - name: as printed, else (hidden) the matched household's `Last, First`.
/// - current_balance: Net Balance (delinquent − prepaid, dollars; negative = in credit); balance_0_30, balance_31_60,
///   balance_61_90, balance_over_90: the report's aging columns (Current/30/60/90+ Days); prepaid: Total Prepaid as a
///   positive amount (0 when the report prints none). Sums in integer cents, stored as dollars rounded to cents.
/// - resident_status (`Status`): Current resident -> current, Notice -> notice, Former resident -> former, Future
///   resident / Applicant -> future / applicant; other texts are kept as printed.
/// - as_of_date is the property date (the report is read from its latest snapshot on or before it).
enum RealPageDelinquency {
    static let source = "realpage: realpage_delinquency (Delinquent and Prepaid report)"

    /// The report's accounts at the property date, each with its `resident_key` (the resident_id rule above) and its
    /// unified status; RealPageReportLedger keys the per-code rows by the same `resident_key`.
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
        -- Each household under every unit number a report row may print for it (its own unitnumber and the unified
        -- unit, building-qualified where numbers repeat) and its name as compared (case and blanks ignored): the
        -- rows below look a household up by unit instead of scanning them all per report row (2.9 s for one
        -- property's report of rows without a Resh ID).
        household_unit AS MATERIALIZED (
            SELECT h.household_id, h.unit_number AS unit_key, lower(replace(h.name, ' ', '')) AS name_key,
                   h.move_in_date, h.unified_status, h.balance
            FROM rpx_household h
            UNION
            SELECT h.household_id, u.unified_unit, lower(replace(h.name, ' ', '')), h.move_in_date, h.unified_status,
                   h.balance
            FROM rpx_household h JOIN rpx_unit u ON u.unit_id = h.unit_id
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
        account AS (
            SELECT d.*,
                   coalesce(d.household_key,
                            d.unit_number || '/' || coalesce(d.printed_name, 'row ' || d.source_row)) AS resident_key,
                   coalesce(d.printed_name,
                            (SELECT h.name FROM rpx_household h WHERE h.household_id = d.household_key)) AS account_name
            FROM matched d
        )
        """

    static let insert = """
        WITH \(accounts)
        INSERT INTO unified_delinquency (
            unified_property_id, as_of_date, resident_id, unit_number, name, resident_status, current_balance,
            balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, source, run_id)
        SELECT :property, :as_of, resident_key, min(unit_number), min(account_name), min(unified_status),
               sum(CAST(round(current_balance * 100) AS INTEGER)) / 100.0,
               sum(CAST(round(balance_0_30 * 100) AS INTEGER)) / 100.0,
               sum(CAST(round(balance_31_60 * 100) AS INTEGER)) / 100.0,
               sum(CAST(round(balance_61_90 * 100) AS INTEGER)) / 100.0,
               sum(CAST(round(balance_over_90 * 100) AS INTEGER)) / 100.0,
               sum(CAST(round(abs(coalesce(prepaid, 0)) * 100) AS INTEGER)) / 100.0,
               :source, :run_id
        FROM account
        GROUP BY resident_key
        ORDER BY min(source_row)
        """
}
