/// unified_delinquency from Yardi, at the property date: one row per household (tenant code) of the
/// GetResidentTransactions_Login ledger (yardi_transactions) whose balance is not zero.
///
/// Which source wins: the ledger is the only Yardi source of balances (GetResidentsByStatus has none); names, units
/// and statuses come from GetResidentsByStatus (yardi_residents), the unit from the ledger when the resident is not
/// listed there.
///
/// Definitions (the simulator's truth.py `delinquency_rows`, and Yardi's Aged Receivables):
/// - current_balance = Σ charge `Amount` − Σ payment `Amount` (dollars; negative = the household is in credit).
/// - Aging: every charge still open (`BalanceDue` > 0; Yardi applies payments to the oldest charges first) is aged by
///   the days from its `TransactionDate` (the charge date, not the service period) to the property date:
///   0-30 days -> balance_0_30, 31-60 -> balance_31_60, 61-90 -> balance_61_90, over 90 -> balance_over_90
///   (a charge dated after the property date counts as 0-30).
/// - prepaid = Σ open charges − current_balance when positive, else 0: the credit (payments not applied to any
///   charge) that nets against the delinquent amount, so current_balance = delinquent − prepaid. A ledger where the
///   open charges are less than the balance (BalanceDue out of step with Amount/AmountPaid) is warned about by
///   `YardiCrossChecks`, never patched.
/// - Sums are in integer cents, stored as dollars rounded to cents.
enum YardiDelinquency {
    static let source = "yardi: yardi_transactions (GetResidentTransactions_Login)"

    static let insert = """
        WITH \(YardiResidents.statusVocabulary),
        posting AS (
            SELECT tenant_code, unit_code, kind,
                   CAST(round(amount * 100) AS INTEGER) AS amount_cents,
                   CASE WHEN kind = 'charge' AND balance_due > 0
                        THEN CAST(round(balance_due * 100) AS INTEGER) ELSE 0 END AS open_cents,
                   CAST(julianday(:as_of) - julianday(coalesce(transaction_date, service_from_date)) AS INTEGER) AS days_old
            FROM yardi_raw.yardi_transactions
            WHERE property_id = :property AND tenant_code IS NOT NULL
        ),
        household AS (
            SELECT tenant_code, max(unit_code) AS unit_code,
                   sum(CASE kind WHEN 'charge' THEN amount_cents ELSE -amount_cents END) AS balance_cents,
                   sum(open_cents) AS delinquent_cents,
                   sum(CASE WHEN days_old IS NULL OR days_old <= 30 THEN open_cents ELSE 0 END) AS aged_0_30,
                   sum(CASE WHEN days_old BETWEEN 31 AND 60 THEN open_cents ELSE 0 END) AS aged_31_60,
                   sum(CASE WHEN days_old BETWEEN 61 AND 90 THEN open_cents ELSE 0 END) AS aged_61_90,
                   sum(CASE WHEN days_old > 90 THEN open_cents ELSE 0 END) AS aged_over_90
            FROM posting
            GROUP BY tenant_code
        )
        INSERT INTO unified_delinquency (
            unified_property_id, as_of_date, resident_id, unit_number, name, resident_status, current_balance,
            balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, source, run_id)
        SELECT :property, :as_of, h.tenant_code, coalesce(r.unit_code, h.unit_code),
               CASE WHEN r.first_name IS NULL THEN r.last_name
                    WHEN r.last_name IS NULL THEN r.first_name
                    ELSE r.last_name || ', ' || r.first_name END,
               coalesce(s.status, r.status),
               h.balance_cents / 100.0,
               h.aged_0_30 / 100.0, h.aged_31_60 / 100.0, h.aged_61_90 / 100.0, h.aged_over_90 / 100.0,
               max(h.delinquent_cents - h.balance_cents, 0) / 100.0,
               :source, :run_id
        FROM household h
        LEFT JOIN yardi_raw.yardi_residents r
          ON r.property_id = :property AND r.as_of_date = :residents_snapshot AND r.tenant_code = h.tenant_code
        LEFT JOIN yardi_resident_status s ON s.status_text = lower(trim(r.status))
        WHERE h.balance_cents <> 0 OR h.delinquent_cents <> 0
        ORDER BY coalesce(r.unit_code, h.unit_code), h.tenant_code
        """
}
