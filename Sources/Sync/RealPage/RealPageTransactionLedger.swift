/// The tenant ledger of a RealPage site whose RPX license refuses getresidentledger, from OneSite's Transaction Detail
/// by Code (report 4028, its `Detail` sheet: realpage_transaction_detail): every charge, credit and payment posted in
/// each fiscal period loaded, by resident. `ledger_source` 'realpage_onesite_transaction_detail', `ledger_coverage`
/// 'full' (posted charges and payments, which the ledger reports read as for the RPX ledger), `ledger_note` naming the
/// fiscal periods covered and where the balance before them comes from. Read only when the property has no
/// getresidentledger snapshot; a site without a 4028 snapshot keeps the partial ledger (RealPageReportLedger).
///
/// Raw columns read (parser headers in quotes): unit_number "Bldg/Unit", resident_name "Name", description
/// "Description", transaction_code "Transaction Group - Category - Code" (`C-CA-RENT`: group, category, code),
/// ledger_date "Transaction Ledger Date", accounting_date "Transaction Accounting Date", fiscal_period "Original
/// Transaction Fiscal Period" (`022026`), amount "Original Ledger Transaction Amount", debit_amount "Debit Amount",
/// document_number "Document #", source "Source", transaction_ids "Tadid".
///
/// Rules (docs/onesite-reports.md, "The tenant ledger from Transaction Detail by Code"):
/// - Periods: a 4028 snapshot covers one fiscal period, the latest `Original Transaction Fiscal Period` it prints
///   (`022026` -> 2026-02; the report prints, besides the period's own transactions, earlier periods' transactions
///   whose G/L distribution moved in it, never a later one). Each period is read from its latest snapshot. Only rows
///   whose original fiscal period is the snapshot's own are postings: the earlier ones are G/L re-distributions (a
///   prepaid payment applied, a utility fee re-classed) of transactions posted in their own period, not new ones.
/// - Transactions: the sheet prints one row per G/L line, and a transaction split over two accounts (a payment part
///   to A/R, part to prepaid) prints the whole amount on each row with its share in `Debit Amount`. Rows alike in
///   unit, name, code, both dates, amount, source, document #, Tadid and description are one transaction when their
///   debit amounts add up to the amount; otherwise (two $25 pet rents on one day) each row is one, of its debit amount.
/// - Group C (charges): a charge of the code, amount signed as printed (a reversal or move-out credit negative).
///   Group P, category PZ (payments, OneSite's payment category: PMTOPACH, PMTOPCARD, PMTETF ...): a payment; the
///   report prints it positive, a reversal or NSF negative, kept so (positive = received). Other P categories
///   (concessions PW, write-offs PV, deposit applied PS, referral credits PP ...): credits to the household, stored
///   in unified_charges with the amount negated. Groups I and O (deposits in and out) are not the resident's A/R
///   ledger and are left out. Ids: `tdc:<period>:<sheet row>` a charge, `tdr:` a credit, `tdp:` a payment (the
///   transaction's first row on the Detail sheet of the snapshot its period is read from).
/// - The code is the last part of the printed code (`C-CJ-STORMWATER/DRAINAGE` -> `STORMWATER/DRAINAGE`), categorized
///   by `temp.charge_category` like the RPX ledger (unknown codes OTHER, listed). Period: the fiscal period; charge
///   and payment date: the accounting date (the property date it was posted on); due date: the ledger date (the date
///   it applies to on the resident's ledger, e.g. a reversal's the reversed charge's).
/// - Household: the unified_residents row of the same unit whose name, blanks and commas ignored, is its first and
///   last name in either order (the report prints `First Last`, the RPX roster `Last, First`), the latest move-in if
///   several; else `unit/name` (the name's runs of blanks made one; unit `-` for applicants' fee payments, stored
///   without a unit).
/// - Balance forward: the report prints what was posted, not what was owed before. With a Delinquent and Prepaid
///   snapshot dated from the day before the first covered posting to the latest covered snapshot's date (the earliest
///   such; a later one would fold uncovered months into the line), each of its households
///   gets one `BALFWD` line dated that day (period: the month before the first covered period): its net balance
///   there less the covered postings dated up to it, so that charges less payments give RealPage's balance. Without
///   one, the balance before the covered periods is unknown, and the note says the balances are the periods' only.
/// - amount_paid / balance per charge (not printed): payments settle the oldest charges first, so a household's open
///   total (charges less payments, the balance forward included, never below 0) sits on its newest positive charges:
///   walked newest first, each takes what is left up to its amount; amount_paid is the rest. A credit (negative) is
///   applied whole: amount_paid = amount, balance 0.
/// - The Charge and Adjustment Journal (4039) is not read for postings: its lines are the 4028 rows of sources
///   `M = Manual transactions` and `C = Change transactions` of the same period (all 31 of the real file, by unit,
///   code, amount and accounting date), so reading both would count them twice, and alone it lacks the scheduled
///   billing, prorates, utility billing, system late fees and every payment. SyncChecks holds it against the ledger.
enum RealPageTransactionLedger {
    static let source = "realpage_onesite_transaction_detail"
    static let balanceForwardCode = "BALFWD"

    /// Whether the unified_charges row `alias` is a balance-forward line (`charge_id` `balance-forward:<household>`, the
    /// convention of every ledger's line): a range of the key's index (`LIKE` cannot use it: every charge read).
    static func isBalanceForwardLine(_ alias: String) -> String {
        "\(alias).charge_id >= 'balance-forward:' AND \(alias).charge_id < 'balance-forward;'"
    }

    /// The `charge_id` of household `household`'s balance-forward line (an SQL expression): one key lookup.
    static func balanceForwardID(_ household: String) -> String {
        "'balance-forward:' || \(household)"
    }

    /// The raw table exists (raw databases older than report tables' version 20 lack it) and holds rows.
    static let hasSnapshots = """
        SELECT EXISTS (SELECT 1 FROM realpage_raw.sqlite_master WHERE type = 'table' AND name = 'realpage_transaction_detail')
        """
    static let hasRows = """
        SELECT EXISTS (SELECT 1 FROM realpage_raw.realpage_transaction_detail WHERE property_id = :property)
        """

    /// Each covered fiscal period (`YYYY-MM`) and the snapshot it is read from, oldest first.
    static let covered = """
        WITH snapshot AS (
            SELECT as_of_date, max(substr(fiscal_period, 3, 4) || '-' || substr(fiscal_period, 1, 2)) AS period
            FROM realpage_raw.realpage_transaction_detail
            WHERE property_id = :property AND length(fiscal_period) = 6
            GROUP BY as_of_date
        )
        SELECT period, max(as_of_date) AS as_of_date FROM snapshot GROUP BY period ORDER BY period
        """

    /// One row per posted transaction of the covered periods: `txn_group` (C, P, I, O), `category` (CA, PZ ...),
    /// `code`, `cents` (the magnitude, integer cents), `sign` (of the printed amount), the household and its lease.
    static let transactions = """
        covered AS (\(covered)),
        line AS (
            SELECT d.source_row, d.as_of_date, c.period, nullif(trim(d.unit_number), '-') AS unit,
                   replace(replace(replace(trim(d.resident_name), '   ', ' '), '  ', ' '), '  ', ' ') AS resident_name, d.unit_number AS printed_unit, d.description,
                   d.transaction_code, d.ledger_date, d.accounting_date, d.amount, d.debit_amount, d.source,
                   d.document_number, d.transaction_ids,
                   substr(d.transaction_code, 1, instr(d.transaction_code, '-') - 1) AS txn_group,
                   substr(d.transaction_code, instr(d.transaction_code, '-') + 1) AS rest
            FROM realpage_raw.realpage_transaction_detail d
            JOIN covered c ON c.as_of_date = d.as_of_date
            WHERE d.property_id = :property AND d.transaction_code LIKE '_-%-%' AND d.amount IS NOT NULL
              AND substr(d.fiscal_period, 3, 4) || '-' || substr(d.fiscal_period, 1, 2) = c.period
        ),
        grouped AS (
            SELECT l.*, substr(rest, 1, instr(rest, '-') - 1) AS category, substr(rest, instr(rest, '-') + 1) AS code,
                   CAST(round(abs(amount) * 100) AS INTEGER) AS amount_cents,
                   sum(CAST(round(abs(coalesce(debit_amount, 0)) * 100) AS INTEGER)) OVER same AS group_cents,
                   row_number() OVER (PARTITION BY printed_unit, resident_name, transaction_code, ledger_date,
                                      accounting_date, amount, source, document_number, transaction_ids, description
                                      ORDER BY source_row) AS nth
            FROM line l
            WINDOW same AS (PARTITION BY printed_unit, resident_name, transaction_code, ledger_date, accounting_date,
                            amount, source, document_number, transaction_ids, description)
        ),
        txn AS (
            SELECT g.*,
                   CASE WHEN group_cents = amount_cents THEN amount_cents
                        ELSE CAST(round(abs(coalesce(debit_amount, 0)) * 100) AS INTEGER) END AS cents,
                   CASE WHEN amount < 0 THEN -1 ELSE 1 END AS sign,
                   (SELECT r.resident_id || char(31) || coalesce(r.lease_id, '')
                    FROM unified_residents r
                    WHERE r.unified_property_id = :property AND r.unit_number = g.unit
                      AND lower(replace(replace(g.resident_name, ' ', ''), ',', '')) IN (
                          lower(replace(replace(coalesce(r.first_name, '') || coalesce(r.last_name, ''), ' ', ''), ',', '')),
                          lower(replace(replace(coalesce(r.last_name, '') || coalesce(r.first_name, ''), ' ', ''), ',', '')),
                          lower(replace(replace(coalesce(r.name, ''), ' ', ''), ',', '')))
                    ORDER BY r.move_in_date DESC LIMIT 1) AS household
            FROM grouped g
            WHERE group_cents <> amount_cents OR nth = 1
        ),
        posting AS (
            SELECT t.*,
                   coalesce(substr(household, 1, instr(household, char(31)) - 1),
                            coalesce(printed_unit, '') || '/' || coalesce(nullif(resident_name, ''), 'row ' || source_row))
                       AS resident_key,
                   nullif(substr(household, instr(household, char(31)) + 1), '') AS lease_id
            FROM txn t
        )
        """

    static let insertCharges = """
        WITH \(transactions)
        INSERT INTO unified_charges (
            unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code, description, category,
            category_known, period, charge_date, due_date, amount, amount_paid, balance)
        SELECT :property, CASE WHEN p.txn_group = 'C' THEN 'tdc:' ELSE 'tdr:' END || p.period || ':' || p.source_row, p.resident_key, p.lease_id, p.unit, p.code,
               p.description, coalesce(cat.category, 'OTHER'), cat.category IS NOT NULL, p.period,
               coalesce(p.accounting_date, p.ledger_date), coalesce(p.ledger_date, p.accounting_date),
               signed / 100.0, CASE WHEN signed < 0 THEN signed / 100.0 ELSE 0 END,
               CASE WHEN signed < 0 THEN 0 ELSE signed / 100.0 END
        FROM (SELECT posting.*, CASE WHEN txn_group = 'C' THEN sign * cents ELSE -sign * cents END AS signed
              FROM posting WHERE txn_group = 'C' OR (txn_group = 'P' AND category <> 'PZ')) p
        LEFT JOIN temp.charge_category cat ON cat.code = upper(p.code)
        WHERE coalesce(p.accounting_date, p.ledger_date) IS NOT NULL
        """

    static let insertPayments = """
        WITH \(transactions)
        INSERT INTO unified_payments (
            unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date, period, amount,
            reference, payment_type)
        SELECT :property, 'tdp:' || period || ':' || source_row, resident_key, lease_id, unit,
               coalesce(accounting_date, ledger_date), period, sign * cents / 100.0, document_number, code
        FROM posting
        WHERE txn_group = 'P' AND category = 'PZ' AND coalesce(accounting_date, ledger_date) IS NOT NULL
        """

    /// The Delinquent and Prepaid snapshot the balance forward is taken from (see the rules), and the day before the
    /// first covered posting.
    static let balanceForwardSnapshot = """
        WITH \(transactions),
        start AS (SELECT date(min(coalesce(accounting_date, ledger_date)), '-1 day') AS day FROM posting)
        SELECT (SELECT min(as_of_date) FROM realpage_raw.loaded_artifacts
                WHERE property_id = :property AND report_type = 'delinquency' AND as_of_date >= start.day
                  AND as_of_date <= (SELECT max(as_of_date) FROM covered)),
               start.day,
               strftime('%Y-%m', date((SELECT min(period) FROM covered) || '-01', '-1 month'))
        FROM start
        """

    /// One BALFWD line per household of the chosen Delinquent and Prepaid snapshot (`:balance_forward_snapshot`),
    /// dated `:balance_forward_day`, in period `:balance_forward_period`.
    static var insertBalanceForward: String {
        """
        WITH \(RealPageDelinquency.accounts.replacingOccurrences(of: ":delinquency_snapshot", with: ":balance_forward_snapshot")),
        owed AS (
            SELECT resident_key, min(unit_number) AS unit, sum(CAST(round(current_balance * 100) AS INTEGER)) AS cents
            FROM account GROUP BY resident_key
        ),
        posted AS (
            SELECT resident_id, sum(cents) AS cents FROM (
                SELECT resident_id, CAST(round(amount * 100) AS INTEGER) AS cents FROM unified_charges
                WHERE unified_property_id = :property AND charge_date <= :balance_forward_snapshot
                UNION ALL
                SELECT resident_id, -CAST(round(amount * 100) AS INTEGER) FROM unified_payments
                WHERE unified_property_id = :property AND payment_date <= :balance_forward_snapshot)
            GROUP BY resident_id
        )
        INSERT INTO unified_charges (
            unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code, description, category,
            category_known, period, charge_date, due_date, amount, amount_paid, balance)
        SELECT :property, \(balanceForwardID("o.resident_key")), o.resident_key,
               (SELECT lease_id FROM unified_residents WHERE unified_property_id = :property AND resident_id = o.resident_key),
               o.unit, '\(balanceForwardCode)',
               'balance forward: Delinquent and Prepaid net balance as of ' || :balance_forward_snapshot
                   || ' less the postings to that date',
               'OTHER', 1, :balance_forward_period, :balance_forward_day, :balance_forward_day,
               (o.cents - coalesce(p.cents, 0)) / 100.0,
               CASE WHEN o.cents - coalesce(p.cents, 0) < 0 THEN (o.cents - coalesce(p.cents, 0)) / 100.0 ELSE 0 END,
               CASE WHEN o.cents - coalesce(p.cents, 0) < 0 THEN 0 ELSE (o.cents - coalesce(p.cents, 0)) / 100.0 END
        FROM owed o LEFT JOIN posted p ON p.resident_id = o.resident_key
        WHERE o.cents - coalesce(p.cents, 0) <> 0
        """
    }

    /// amount_paid / balance of each positive charge: the household's open total on its newest charges.
    static let allocateOpenBalances = """
        WITH household AS (
            SELECT resident_id, max(sum(cents), 0) AS open FROM (
                SELECT resident_id, CAST(round(amount * 100) AS INTEGER) AS cents FROM unified_charges
                WHERE unified_property_id = :property
                UNION ALL
                SELECT resident_id, -CAST(round(amount * 100) AS INTEGER) FROM unified_payments
                WHERE unified_property_id = :property)
            GROUP BY resident_id
        ),
        ranked AS (
            SELECT c.charge_id, CAST(round(c.amount * 100) AS INTEGER) AS cents, h.open,
                   sum(CAST(round(c.amount * 100) AS INTEGER)) OVER (
                       PARTITION BY c.resident_id ORDER BY coalesce(c.charge_date, c.due_date) DESC, c.charge_id DESC
                       ROWS UNBOUNDED PRECEDING) AS through
            FROM unified_charges c JOIN household h ON h.resident_id = c.resident_id
            WHERE c.unified_property_id = :property AND c.amount > 0
        ),
        open_charge AS (
            SELECT charge_id, cents, max(0, min(cents, open - (through - cents))) AS open_cents FROM ranked
        )
        UPDATE unified_charges SET balance = o.open_cents / 100.0, amount_paid = (o.cents - o.open_cents) / 100.0
        FROM open_charge o
        WHERE unified_charges.unified_property_id = :property AND unified_charges.charge_id = o.charge_id
        """

    /// A Charge and Adjustment Journal period without a Transaction Detail by Code of the same period, on a site
    /// without the RPX ledger: the journal is not read as the ledger (see the rules), which the warning says.
    static let journalOnlyCheck = """
        WITH covered AS (\(covered))
        SELECT j.fiscal_period, 'Transaction Detail by Code (4028) of ' || j.fiscal_period, 'none',
               'Charge and Adjustment Journal (4039) of fiscal period ' || j.fiscal_period || ' loaded without a '
                   || 'Transaction Detail by Code of that period: the journal holds manual charges and changes only '
                   || '(no scheduled billing, no payments), so it is not read as the ledger; load report 4028 for it'
        FROM (SELECT DISTINCT fiscal_period FROM realpage_raw.realpage_charge_journal
              WHERE property_id = :property AND fiscal_period IS NOT NULL) j
        WHERE :ledger_snapshot IS NULL AND j.fiscal_period NOT IN (SELECT period FROM covered)
        ORDER BY j.fiscal_period
        """

    /// Detail rows of a covered snapshot the rules cannot read (no code in the `G-CA-CODE` form, an unknown group, no
    /// amount, no date, no `MMYYYY` period): left out of the ledger, counted and named by sheet row, never dropped
    /// silently. Earlier periods' re-distributions and deposits (groups I, O) are left out by rule, not listed.
    static let unreadRowsCheck = """
        WITH covered AS (\(covered)),
        unread AS (
            SELECT d.as_of_date, d.source_row,
                   CASE WHEN d.transaction_code IS NULL OR d.transaction_code NOT LIKE '_-%-%'
                            THEN 'no code in the Group-Category-Code form'
                        WHEN upper(substr(d.transaction_code, 1, 1)) NOT IN ('C', 'P', 'I', 'O')
                            THEN 'transaction group ' || substr(d.transaction_code, 1, 1) || ' unknown'
                        WHEN d.amount IS NULL THEN 'no Original Ledger Transaction Amount'
                        WHEN d.accounting_date IS NULL AND d.ledger_date IS NULL THEN 'no accounting or ledger date'
                        WHEN length(coalesce(d.fiscal_period, '')) <> 6 THEN 'no MMYYYY Original Transaction Fiscal Period'
                   END AS reason
            FROM realpage_raw.realpage_transaction_detail d
            JOIN covered c ON c.as_of_date = d.as_of_date
            WHERE d.property_id = :property AND :ledger_snapshot IS NULL
        )
        SELECT as_of_date || ': ' || reason, 'read into the ledger', count(*) || ' row(s)',
               printf('%d Transaction Detail by Code row(s) of the %s snapshot left out of the ledger: %s (sheet rows %s)',
                      count(*), as_of_date, reason, group_concat(source_row, ', '))
        FROM unread WHERE reason IS NOT NULL
        GROUP BY as_of_date, reason ORDER BY as_of_date, reason
        """

    /// unified_properties.ledger_note: the periods covered and the balance before them.
    static func note(periods: [String], balanceForward: String?) -> String {
        let span = periods.count == 1 ? "fiscal period \(periods[0])" : "fiscal periods \(periods.joined(separator: ", "))"
        let before = balanceForward.map {
            "before them one balance-forward line per household (Delinquent and Prepaid as of \($0) less the "
                + "postings to that date)"
        } ?? "no Delinquent and Prepaid report dated within those periods, so what was owed before them is unknown "
            + "and balances are those periods' postings only"
        return "charges, credits and payments of \(span) from Transaction Detail by Code (report 4028); \(before); "
            + "amount paid and balance per charge derived (payments settle the oldest charges first); "
            + "RPX getresidentledger refused"
    }
}
