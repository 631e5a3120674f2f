/// unified_delinquency from Yardi, at the property date: one row per household (tenant code) of the
/// GetResidentTransactions_Login ledger (yardi_transactions) that owes or is owed anything.
///
/// Which source wins: the ledger is the only Yardi source of balances (GetResidentsByStatus has none); names, units
/// and statuses come from GetResidentsByStatus (yardi_residents), the unit from the ledger when the resident is not
/// listed there.
///
/// Which balance is the truth: Voyager's `BalanceDue`, as Voyager's own Aged Receivables uses it. A charge's
/// `AmountPaid` counts every payment applied to it, also payments the exported window does not hold (paid before the
/// window's first day, or moved in by a transfer from another household's ledger), so the window's charges −
/// payments can exceed what is open. Buckets, prepaid and balance are therefore built from the open charges, so that
/// they always agree (balance = buckets − prepaid), and a household whose window arithmetic differs is warned about
/// (`YardiCrossChecks`, check `ledger_window`, naming the household and the gap); the ledger carries that gap as a
/// balance-forward credit (`YardiLedger.insertBalanceForward`) so that its charges − payments are this balance.
///
/// Definitions (the simulator's truth.py `delinquency_rows`, and Yardi's Aged Receivables):
/// - delinquent = Σ `BalanceDue` of the household's open charges (`BalanceDue` > 0; Yardi applies payments to the
///   oldest charges first), each aged by the days from its `TransactionDate` (the charge date, not the service
///   period) to the property date: 0-30 days -> balance_0_30, 31-60 -> balance_31_60, 61-90 -> balance_61_90,
///   over 90 -> balance_over_90 (a charge dated after the property date counts as 0-30).
/// - window balance = Σ charge `Amount` − Σ payment `Amount` of the exported ledger.
/// - prepaid = delinquent − window balance when positive, else 0: the credit (payments and credits applied to no
///   charge) that nets against the delinquent amount.
/// - current_balance = delinquent − prepaid (negative = the household is in credit). It equals the window balance
///   whenever the window holds every payment applied to its charges; where it holds fewer (window balance above the
///   delinquent amount), the payments outside the window are what `AmountPaid` says they are, and the gap is warned.
/// - under_eviction: 1 when GetResidentsByStatus lists the household as `Eviction`, 0 under another status, NULL when
///   it is not listed.
/// - Sums are in integer cents, stored as dollars rounded to cents.
enum YardiDelinquency {
    static let source = "yardi: yardi_transactions (GetResidentTransactions_Login)"

    /// One row per household of `temp.yardi_household` (YardiHouseholds: its sums, open amount, aging and prepaid
    /// credit) that owes or is owed anything.

    static let insert = """
        INSERT INTO unified_delinquency (
            unified_property_id, as_of_date, resident_id, unit_number, name, resident_status, current_balance,
            balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, under_eviction, source, run_id)
        SELECT :property, :as_of, h.tenant_code, coalesce(r.unit_code, h.unit_code),
               CASE WHEN r.first_name IS NULL THEN r.last_name
                    WHEN r.last_name IS NULL THEN r.first_name
                    ELSE r.last_name || ', ' || r.first_name END,
               coalesce(\(YardiResidents.residentStatus("r")), r.status),
               (h.delinquent_cents - h.prepaid_cents) / 100.0,
               h.aged_0_30 / 100.0, h.aged_31_60 / 100.0, h.aged_61_90 / 100.0, h.aged_over_90 / 100.0,
               h.prepaid_cents / 100.0,
               CASE WHEN r.status IS NULL THEN NULL WHEN lower(trim(r.status)) = 'eviction' THEN 1 ELSE 0 END,
               :source, :run_id
        FROM yardi_household h
        LEFT JOIN yardi_raw.yardi_residents r
          ON r.property_id = :property AND r.as_of_date = :residents_snapshot AND r.tenant_code = h.tenant_code
        WHERE h.delinquent_cents <> 0 OR h.prepaid_cents <> 0
        ORDER BY coalesce(r.unit_code, h.unit_code), h.tenant_code
        """

    /// Households whose window balance (charges − payments) exceeds what is open (Σ BalanceDue), exact in cents:
    /// payments applied to their charges that the exported window does not hold, which
    /// `YardiLedger.insertBalanceForward` carries as one balance-forward line each. Subject, expected, actual, message
    /// (the sync's log line and the warning's row name the property).
    static let windowGaps = """
        SELECT tenant_code, printf('%.2f', delinquent_cents / 100.0), printf('%.2f', window_cents / 100.0),
               printf('household %s: the ledger window''s charges %.2f − payments %.2f = %.2f, but its open charges '
                      || '(Σ BalanceDue) are %.2f, a gap of %.2f: AmountPaid counts payments the window does not hold '
                      || '(paid before it, or moved in by a transfer); balance, aging and prepaid follow BalanceDue, '
                      || 'as Voyager''s aging does, and the gap is carried as a balance-forward line '
                      || '(\(RealPageTransactionLedger.balanceForwardCode), %.2f) so that the debtors report, '
                      || 'statement and rental tracker agree with it',
                      tenant_code, charged_cents / 100.0, paid_cents / 100.0, window_cents / 100.0,
                      delinquent_cents / 100.0, (window_cents - delinquent_cents) / 100.0,
                      (delinquent_cents - window_cents) / 100.0)
        FROM yardi_household
        WHERE window_cents > delinquent_cents
        ORDER BY tenant_code
        """
}
