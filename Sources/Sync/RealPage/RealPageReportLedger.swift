/// The partial tenant ledger of a RealPage site whose RPX license refuses getresidentledger / getscheduledcharges,
/// from the OneSite reports fetched for every site: `ledger_source` 'realpage_onesite_reports', `ledger_coverage`
/// 'partial'. It never makes up a posted charge or a payment: unified_charges and unified_payments stay empty.
///
/// Rules (read only when the property has no getresidentledger snapshot):
/// - unified_ledger_balances from the Delinquent and Prepaid report's transaction-code rows
///   (realpage_delinquency_codes, the snapshot unified_delinquency reads): one row per household and code; the
///   household is its account's `resident_key` (the same resident_id unified_delinquency gives it); balance =
///   Total Delinquent − Total Prepaid; the aging columns and prepaid copied (RealPage's own aging, not recomputed).
///   Rows of one household and code (the account printed twice) are added up, in integer cents.
/// - unified_recurring_charges, only when no getscheduledcharges snapshot gave a schedule, from the Rent Roll's
///   transaction-code rows of each unit's current lease (realpage_rent_roll_charges): amount = Lease Rent + Other
///   Charges/Credits of the code (the amount under the code's own column, in the layout with one column per code);
///   from the unit's Lease Start (else the first of the property month) to its Lease End.
///   The lease is the unit's current lease in unified_leases (the household's, when the Rent Roll names it), else
///   `rent-roll:<unit>` (the Rent Roll names no lease id); the household is the lease's.
/// - Categories as for the RPX ledger: `temp.charge_category`, unknown codes OTHER with category_known 0 (listed).
enum RealPageReportLedger {
    static let source = "realpage_onesite_reports"
    static let balancesSource = "realpage: realpage_delinquency_codes (Delinquent and Prepaid report)"
    /// unified_properties.ledger_note of such a property.
    static let note = "partial: balances and aging per household and transaction code from the Delinquent and "
        + "Prepaid report as of the property date, recurring schedule from the Rent Roll; no posted charges or "
        + "payments (RPX getresidentledger refused), so nothing per month before the property date"

    /// The property has something to build a partial ledger from.
    static let hasSnapshots = """
        SELECT EXISTS (SELECT 1 FROM realpage_raw.realpage_delinquency_codes
                       WHERE property_id = :property AND as_of_date = :delinquency_snapshot)
            OR EXISTS (SELECT 1 FROM realpage_raw.realpage_rent_roll_charges
                       WHERE property_id = :property AND as_of_date = :rent_roll_snapshot)
        """

    static let insertBalances = """
        INSERT INTO unified_ledger_balances (
            unified_property_id, resident_id, unit_number, charge_code, description, category, category_known,
            as_of_date, balance, delinquent, balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid,
            source)
        SELECT :property, a.resident_key, min(a.unit_number), upper(trim(c.code)), min(c.description),
               coalesce(min(cat.category), 'OTHER'), min(cat.category) IS NOT NULL, :as_of,
               (sum(CAST(round(c.delinquent * 100) AS INTEGER)) - sum(CAST(round(abs(c.prepaid) * 100) AS INTEGER))) / 100.0,
               sum(CAST(round(c.delinquent * 100) AS INTEGER)) / 100.0,
               sum(CAST(round(c.balance_0_30 * 100) AS INTEGER)) / 100.0,
               sum(CAST(round(c.balance_31_60 * 100) AS INTEGER)) / 100.0,
               sum(CAST(round(c.balance_61_90 * 100) AS INTEGER)) / 100.0,
               sum(CAST(round(c.balance_over_90 * 100) AS INTEGER)) / 100.0,
               sum(CAST(round(abs(c.prepaid) * 100) AS INTEGER)) / 100.0,
               :source
        FROM realpage_raw.realpage_delinquency_codes c
        JOIN delinquency_account a ON a.source_row = c.account_row
        LEFT JOIN temp.charge_category cat ON cat.code = upper(trim(c.code))
        WHERE c.property_id = :property AND c.as_of_date = :delinquency_snapshot
        GROUP BY a.resident_key, upper(trim(c.code))
        ORDER BY min(c.source_row)
        """

    static let insertSchedule = """
        WITH code_line AS (
            SELECT c.unit_number, c.resident_id, upper(trim(c.code)) AS charge_code, c.amount,
                   coalesce(u.lease_start, date(:as_of, 'start of month')) AS start_date, u.lease_end,
                   (SELECT l.lease_id || char(31) || coalesce(l.resident_id, '')
                    FROM unified_leases l
                    WHERE l.unified_property_id = :property AND l.unit_number = c.unit_number AND l.status = 'current'
                      AND (c.resident_id IS NULL OR l.resident_id = c.resident_id)
                    ORDER BY l.start_date DESC LIMIT 1) AS lease
            FROM realpage_raw.realpage_rent_roll_charges c
            JOIN realpage_raw.realpage_rent_roll u
              ON u.property_id = c.property_id AND u.as_of_date = c.as_of_date AND u.source_row = c.unit_row
            WHERE c.property_id = :property AND c.as_of_date = :rent_roll_snapshot
        )
        INSERT INTO unified_recurring_charges (
            unified_property_id, lease_id, resident_id, unit_number, charge_code, description, category,
            category_known, amount, start_date, end_date)
        SELECT :property,
               coalesce(substr(lease, 1, instr(lease, char(31)) - 1), 'rent-roll:' || unit_number),
               coalesce(nullif(substr(min(lease), instr(min(lease), char(31)) + 1), ''), min(resident_id)),
               min(unit_number), charge_code, NULL, coalesce(min(cat.category), 'OTHER'), min(cat.category) IS NOT NULL,
               round(sum(amount), 2), start_date, max(lease_end)
        FROM code_line
        LEFT JOIN temp.charge_category cat ON cat.code = code_line.charge_code
        GROUP BY 2, charge_code, start_date
        """
}
