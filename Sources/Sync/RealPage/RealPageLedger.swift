/// The tenant ledger from RealPage RPX: unified_charges and unified_payments from `getresidentledger`
/// (realpage_ledger: merged by transaction from the full pulls and the incremental nights, every row of the property
/// read), unified_recurring_charges from `getscheduledcharges` (realpage_scheduled_charges). A site whose
/// license key is not authorized for them has no RPX ledger: `ledger_source` stays NULL and every ledger report says so.
///
/// Rules (docs/rpx-soap.md, "getscheduledcharges and getresidentledger"; the response shape is the simulator's, no
/// public capture exists):
/// - A transaction's household is its `Resident/ReshID`, the `resident_id` of the household's head in
///   unified_residents (RealPageResidents); its lease is the transaction's `LeaseID`, its unit the household's
///   `UnitNumber`.
/// - Charges (`TransactionType` Charge): the period is `PostMonth` (MMYYYY), else the month of `TransactionDate`; the
///   due date is the `TransactionDate` (OneSite posts a charge on the day it falls due); amount_paid and balance are
///   RealPage's own `AmountPaid` / `OpenAmount`, never recomputed here (one missing: the other subtracted from `Amount`).
/// - Payments (`TransactionType` Payment): RPX signs them from the property's side (a payment of $1,200 is
///   `-1,200.00`), so the amount is negated: positive received, a reversal negative. The period is `PostMonth`, else
///   the month of `TransactionDate`; the reference is `Reference` (check or confirmation number), the payment type
///   the `Description`.
/// - Other transaction types are left out and listed by the cross-checks (`ledger_type`).
/// - By change (`LedgerProjection` with a mark, LedgerDelta): only the ledger rows written since the last sync are
///   projected, main holding the others' rows; without one the rules project every row.
/// - Balance forward: what was posted before the stored window, one `BALFWD` line per household (`insertBalanceForward`;
///   on a night by change only the households whose line can have moved are summed again).
/// - Categories: `temp.charge_category` (report_definitions.json `charge_categories` over the defaults); a code in
///   neither is OTHER with category_known = 0 and is listed by the sync's warnings.
/// - Recurring charges: each current lease's scheduled charges, per lease and code, from the lease's `StartDate` to its
///   `EndDate` (RPX sends only current residents' current charges, so former leases have no schedule).
enum RealPageLedger {
    static let source = "realpage: RPX getresidentledger + getscheduledcharges"

    /// The as-of date of the property's last whole getresidentledger answer (report type `getresidentledger`; a
    /// night's windows are `getresidentledger.dated` / `.open`): unified_properties.ledger_whole_as_of when windows
    /// have brought the ledger past it. A posting entered after it and dated before every window since is not in
    /// realpage_ledger until the next whole answer.
    static let wholeAsOf = """
        SELECT max(as_of_date) FROM realpage_raw.loaded_artifacts
        WHERE property_id = :property AND report_type = 'getresidentledger'
        """

    /// The ledger rows (`l`) that are charges: the rest of them are left out (listed by the cross-checks).
    static let projectedCharge = """
        l.transaction_type = 'Charge' AND l.transaction_code IS NOT NULL
          AND coalesce(l.post_month, l.transaction_date) IS NOT NULL
        """
    /// The ledger rows (`l`) that are payments.
    static let projectedPayment = "l.transaction_type = 'Payment' AND l.transaction_date IS NOT NULL"

    static func insertCharges(_ projection: LedgerProjection) -> String {
        """
        INSERT INTO unified_charges (
            unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code, description, category,
            category_known, period, charge_date, due_date, amount, amount_paid, balance)
        SELECT :property, l.transaction_id, l.resh_id, l.lease_id, l.unit_number, l.transaction_code, l.description,
               coalesce(c.category, 'OTHER'), c.category IS NOT NULL,
               coalesce(l.post_month, substr(l.transaction_date, 1, 7)),
               l.transaction_date, l.transaction_date,
               \(SQLMoney.cents("l.amount")),
               \(SQLMoney.cents("coalesce(l.amount_paid, l.amount - coalesce(l.open_amount, l.amount))")),
               \(SQLMoney.cents("coalesce(l.open_amount, l.amount - coalesce(l.amount_paid, 0))"))
        FROM realpage_raw.realpage_ledger l
        LEFT JOIN temp.charge_category c ON c.code = upper(l.transaction_code)
        WHERE l.property_id = :property AND \(projectedCharge)
          \(projection.rows("l"))
        """
    }

    static func insertPayments(_ projection: LedgerProjection) -> String {
        """
        INSERT INTO unified_payments (
            unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date, period, amount,
            reference, payment_type)
        SELECT :property, l.transaction_id, l.resh_id, l.lease_id, l.unit_number, l.transaction_date,
               coalesce(l.post_month, substr(l.transaction_date, 1, 7)), \(SQLMoney.cents("-l.amount")),
               l.reference, l.description
        FROM realpage_raw.realpage_ledger l
        WHERE l.property_id = :property AND \(projectedPayment)
          \(projection.rows("l"))
        """
    }

    /// One `BALFWD` charge per household whose stated `Balance` (realpage_ledger_households) is not what its stored
    /// postings add up to: the net of what was posted before the ledger's window (RealPageTransactionLedger's
    /// convention, `charge_id` `balance-forward:<ReshID>`). Dated the day before the property's first stored posting
    /// (period: that day's month), so that charges less payments give RealPage's balance on every date from there.
    /// Without it, once the 24-month window moved past a household's last charges, the payments left in the window
    /// made it a false credit (kalaco on the first of the month after the first pull: ten former households, $2,690).
    /// Its open part is what the stored charges' open amounts leave of `Balance` + `Prepaid` (never below 0 nor above
    /// the line); a credit line counts as applied in full.
    ///
    /// The postings are summed per household beforehand (RealPagePostings, `temp.household_postings`: by change, a
    /// household's kept sum plus what the night rewrote).
    ///
    /// `byChange`: only the households in `temp.rewritten_households` (LedgerDelta.listRewrittenHouseholds: those of a
    /// charge or payment the night set aside or wrote; `listMovedForwardHouseholds`: the others whose line can have
    /// moved), whose stored lines LedgerDelta.setAsideBalanceForward set aside. Any other household's line, or its
    /// want of one, is what the last sync wrote: a night weighs a few dozen households instead of every household
    /// the window has passed.
    static func insertBalanceForward(byChange: Bool) -> String {
        """
        WITH stated AS MATERIALIZED (
            SELECT resh_id, unit_number AS unit, CAST(round(balance * 100) AS INTEGER) AS balance,
                   CAST(round(coalesce(prepaid, 0) * 100) AS INTEGER) AS prepaid
            FROM realpage_raw.realpage_ledger_households
            WHERE property_id = :property AND balance IS NOT NULL AND :ledger_snapshot IS NOT NULL
              \(byChange ? "AND resh_id IN (SELECT resh_id FROM temp.rewritten_households)" : "")
        ),
        posted AS (SELECT resident_id, cents, open_cents AS open FROM temp.household_postings),
        start AS (\(forwardDay)),
        forward AS (
            -- One grouping of both sides (a join to the grouped postings scanned them once per household).
            SELECT resh_id, max(unit) AS unit, sum(balance) - sum(cents) AS cents, sum(balance) + sum(prepaid) - sum(open) AS open
            FROM (SELECT resh_id, unit, balance, prepaid, 0 AS cents, 0 AS open, 1 AS is_stated FROM stated
                  UNION ALL
                  SELECT resident_id, NULL, 0, 0, cents, open, 0 FROM posted)
            GROUP BY resh_id
            HAVING max(is_stated) = 1
        )
        INSERT INTO unified_charges (
            unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code, description, category,
            category_known, period, charge_date, due_date, amount, amount_paid, balance)
        SELECT :property, \(RealPageTransactionLedger.balanceForwardID("f.resh_id")), f.resh_id,
               \(forwardLease("f.resh_id")),
               f.unit, 'BALFWD',
               -- Worded apart from the Delinquent and Prepaid forward's, which SyncChecks.ledgerOpenBalance skips.
               -- No date in it: the merged ledger's date moves every night, and with it every line of every household
               -- the 24-month window has passed was rewritten, and published, each night for its wording alone.
               'balance forward: the Balance RPX states, less the postings stored',
               'OTHER', 1, substr(start.day, 1, 7), start.day, start.day,
               f.cents / 100.0,
               CASE WHEN f.cents > 0 THEN (f.cents - min(max(f.open, 0), f.cents)) / 100.0 ELSE f.cents / 100.0 END,
               CASE WHEN f.cents > 0 THEN min(max(f.open, 0), f.cents) / 100.0 ELSE 0 END
        FROM forward f, start
        WHERE f.cents <> 0 AND start.day IS NOT NULL
        """
    }

    /// The balance-forward lines' date, the day before the property's first stored posting (`day`): the first posting
    /// on the date index, in date order (`+`: not the type index, which would read every posting of the property to
    /// find the least date).
    static let forwardDay = """
        SELECT date(transaction_date, '-1 day') AS day FROM realpage_raw.realpage_ledger
        WHERE property_id = :property AND +transaction_type IN ('Charge', 'Payment') AND transaction_date IS NOT NULL
        ORDER BY transaction_date LIMIT 1
        """

    /// The lease of household `household` on its balance-forward line: its head's in tonight's unified_residents (the
    /// twin; main's, as the last sync wrote it, for a household the residents were not computed for tonight:
    /// `:residents_by_household`, RealPageEventHouseholds).
    static func forwardLease(_ household: String) -> String {
        """
        (CASE WHEN :residents_by_household = 1 AND \(household) NOT IN (SELECT household_id FROM temp.event_households)
              THEN (SELECT lease_id FROM main.unified_residents WHERE unified_property_id = :property AND resident_id = \(household))
              ELSE (SELECT lease_id FROM unified_residents WHERE unified_property_id = :property AND resident_id = \(household))
         END)
        """
    }

    /// On a night by change, after LedgerDelta.listRewrittenHouseholds: the other households whose balance-forward
    /// line can have moved, added to `temp.rewritten_households`. A line reads, besides its household's postings, the
    /// household's stated row (written again, with a new lineage, when its Balance, Prepaid or unit changes; a row
    /// gone, or stated without a Balance, takes the line with it), its head's lease in unified_residents, and the
    /// date of the property's first posting (which moves every line: RPX's window is kept by whole months, so that is
    /// one night a month).
    static let listMovedForwardHouseholds = """
        INSERT OR IGNORE INTO temp.rewritten_households
        SELECT resh_id FROM realpage_raw.realpage_ledger_households
        WHERE property_id = :property AND lineage_id > :ledger_since
        UNION ALL
        SELECT c.resident_id FROM main.unified_charges c
        WHERE c.unified_property_id = :property AND \(RealPageTransactionLedger.isBalanceForwardLine("c"))
          AND (:ledger_snapshot IS NULL
               OR c.charge_date IS NOT (\(forwardDay))
               OR c.lease_id IS NOT \(forwardLease("c.resident_id"))
               OR NOT EXISTS (SELECT 1 FROM realpage_raw.realpage_ledger_households h
                              WHERE h.property_id = :property AND h.resh_id = c.resident_id AND h.balance IS NOT NULL))
        """

    /// What `insertRecurring` reads (InputMarks, which skips it while this is unchanged): the scheduled-charges
    /// snapshot it reads as loaded (a night whose rows are the night before's is stored once, under the same date),
    /// the count and row ids of its rows (which a reload changes), and the property date's month (a schedule without
    /// a start date starts on its first). The charge categories and the build are in every kept rule's mark.
    static let recurringInputs = """
        SELECT 'snapshot', l.as_of_date, l.run_id, l.artifact_sha256, l.row_count, l.loaded_at
        FROM realpage_raw.loaded_artifacts l
        WHERE l.report_type = 'getscheduledcharges' AND l.property_id = :property
          AND l.as_of_date = :scheduled_charges_snapshot
        UNION ALL
        SELECT 'rows', count(*), total(s.rowid), min(s.rowid), max(s.rowid), NULL
        FROM realpage_raw.realpage_scheduled_charges s
        WHERE s.property_id = :property AND s.as_of_date = :scheduled_charges_snapshot
        UNION ALL
        SELECT 'month', date(:as_of, 'start of month'), NULL, NULL, NULL, NULL
        """

    static let insertRecurring = """
        INSERT INTO unified_recurring_charges (
            unified_property_id, lease_id, resident_id, unit_number, charge_code, description, category,
            category_known, amount, start_date, end_date)
        SELECT :property, s.lease_id, min(s.resh_id), min(s.unit_number), s.transaction_code, min(s.description),
               coalesce(c.category, 'OTHER'), c.category IS NOT NULL, round(sum(s.amount), 2),
               coalesce(s.start_date, date(:as_of, 'start of month')), max(s.end_date)
        FROM realpage_raw.realpage_scheduled_charges s
        LEFT JOIN temp.charge_category c ON c.code = upper(s.transaction_code)
        WHERE s.property_id = :property AND s.as_of_date = :scheduled_charges_snapshot
        GROUP BY s.lease_id, s.transaction_code, coalesce(s.start_date, date(:as_of, 'start of month'))
        """

    /// Per household: its open charges less its prepaid credit must be its `Balance` (RealPage states it twice). The
    /// balance is the one last stated for the household (realpage_ledger_households: the merged ledger keeps it apart
    /// from the transactions). A household whose history starts before the ledger's 24-month window owes, besides its
    /// open charges in the window, what its balance-forward line carries open (`insertBalanceForward`, tonight's
    /// unified_charges): counted, since that is what the unified ledger says it owes. Left out, every household with a
    /// charge still open from before the window was warned of at each whole pull (after two years of the simulator,
    /// some 90 a night), for a debt the balance forward holds; what is left is a Balance neither the window's open
    /// charges nor the postings before it can make.
    static let balanceCheck = """
        WITH open_charges AS (
            -- The property's open charges only, through the partial index that holds just them (realpage_raw
            -- migration 51; a charge settled adds nothing): left to itself the planner read every charge of the
            -- ledger through the household index, a pass that grew with the ledger each night (kalaco: 10-20 ms ->
            -- 4 ms). The condition is the index's, as LedgerTable.openChargeCondition states it.
            -- Summed in cents: the index's order is not the household index's, and cents add up alike in any order.
            SELECT resh_id, sum(CAST(round(open_amount * 100) AS INTEGER)) AS open_cents
            FROM realpage_raw.realpage_ledger INDEXED BY realpage_ledger_open_charges
            WHERE property_id = :property AND transaction_type = 'Charge' AND coalesce(open_amount, 0) <> 0
            GROUP BY resh_id
        ),
        household AS (
            SELECT h.resh_id, h.balance, coalesce(h.prepaid, 0) AS prepaid,
                   (coalesce(o.open_cents, 0) + coalesce(CAST(round(f.balance * 100) AS INTEGER), 0)) / 100.0 AS open,
                   coalesce(f.balance, 0) AS forward
            FROM realpage_raw.realpage_ledger_households h
            LEFT JOIN open_charges o ON o.resh_id = h.resh_id
            -- The household's balance-forward line by its key (the lines as a range of the key, joined, were read
            -- whole for each household: 31 -> 322 ms a night after two years).
            LEFT JOIN unified_charges f
                   ON f.unified_property_id = :property
                  AND f.charge_id = \(RealPageTransactionLedger.balanceForwardID("h.resh_id"))
            WHERE h.property_id = :property AND :ledger_snapshot IS NOT NULL
        )
        SELECT resh_id, printf('%.2f', balance), printf('%.2f', open - prepaid),
               printf('household %s: Balance %.2f but its open charges %.2f%s less prepaid %.2f make %.2f',
                      resh_id, balance, open,
                      CASE WHEN forward <> 0
                           THEN printf(' (%.2f of them before the ledger''s window, its balance forward)', forward)
                           ELSE '' END,
                      prepaid, open - prepaid)
        FROM household
        WHERE balance IS NOT NULL AND abs(round((open - prepaid) * 100) - round(balance * 100)) >= 1
        ORDER BY resh_id
        """

    /// Transaction types the rules do not read.
    static let typeCheck = """
        SELECT transaction_type, 'Charge or Payment', count(*),
               printf('%d getresidentledger transaction(s) of type ''%s'' left out of the ledger', count(*), transaction_type)
        FROM (
            -- The types around Charge and Payment, each a range of the vendor-id index: `NOT IN` read every
            -- transaction of the property's index to find none, most nights.
            SELECT transaction_type FROM realpage_raw.realpage_ledger
            WHERE property_id = :property AND transaction_type < 'Charge'
            UNION ALL
            SELECT transaction_type FROM realpage_raw.realpage_ledger
            WHERE property_id = :property AND transaction_type > 'Charge' AND transaction_type < 'Payment'
            UNION ALL
            SELECT transaction_type FROM realpage_raw.realpage_ledger
            WHERE property_id = :property AND transaction_type > 'Payment')
        GROUP BY transaction_type ORDER BY transaction_type
        """
}
