/// The tenant ledger from Yardi: unified_charges and unified_payments from GetResidentTransactions_Login
/// (yardi_transactions: the ledger merged by transaction from the full pulls and the incremental nights' windows, one
/// row per TransactionID, so every row of the property is read), unified_recurring_charges from
/// GetResidentLeaseCharges_Login (yardi_lease_charges).
///
/// Rules (MITS ResidentTransactions 2.0: docs/yardi-soap.md, "ResidentTransactions 2.0" and
/// "GetResidentLeaseCharges_Login"):
/// - A charge's household is its `CustomerID` (tenant code); its period is the month of `ServiceFromDate`, else of
///   `PostMonth`, else of `TransactionDate`; its due date is its `TransactionDate` (Yardi posts a charge on the day it
///   falls due); amount_paid and balance are Yardi's own `AmountPaid` / `BalanceDue` (payments applied oldest
///   first by Voyager), never recomputed here.
/// - A payment's period is its `PostMonth`, else the month of its `TransactionDate`; its reference is the
///   `DocumentNumber` (check or confirmation number). Reversals are kept as posted (negative amounts stay negative).
/// - Balance forward: a household whose window's Σ charges − Σ payments exceeds its open charges (Σ `BalanceDue`:
///   Voyager's `AmountPaid` counts payments the exported window lacks) gets one `BALFWD` credit carrying the gap
///   (`insertBalanceForward`), RealPage's convention, so that the ledger reports agree with the delinquency.
/// - Categories: `temp.charge_category` (report_definitions.json `charge_categories` over the defaults); a code
///   in neither is OTHER with category_known = 0 and is listed by the sync's cross-checks.
/// - Recurring charges: per lease and charge code, from `ServiceFromDate` to `ServiceToDate`, gathered from every
///   GetResidentLeaseCharges_Login snapshot up to the chosen one (one per month of the ledger window, dated the first
///   of its PostMonth: each answers with the leases in effect on that day, so a lease renewed within the window keeps
///   the schedule of its earlier months; the as-of month's is fetched again each night and replaces the month's
///   snapshot); a line in several snapshots is taken from the latest statement that has it (the latest PostMonth,
///   then the latest run). Kept as unified.db holds them while what the rule reads is unchanged (`recurringInputs`,
///   InputMarks).
/// - A lease charge without a `LeaseID` (Yardi's own sample sends none: its `Detail/CustomerID` is the key) belongs to
///   the lease its customer's charges of its service period were posted on (`periodLeases`: a renewed tenant's
///   earlier period keeps the earlier lease), else the `leaseId` GetResidentsByStatus lists for that tenant code,
///   else the tenant code itself stands as the lease id. Its resident is the customer, so the audit matches the household's posted charges to
///   it by resident, as it does for every charge without a lease id. A charge with neither key is left out.
/// - Transactions without a tenant code cannot belong to a lease or resident and are left out (the delinquency rule
///   does the same).
/// - By change (`LedgerProjection` with a mark, LedgerDelta): only the transactions written since the last sync are
///   projected, main holding the others' rows; without one the rules project every transaction.
enum YardiLedger {
    static let source = "yardi: GetResidentTransactions_Login + GetResidentLeaseCharges_Login"

    /// The as-of date of the property's last whole GetResidentTransactions_Login answer (a night's windows are the
    /// `GetResidentTransactions_By...` operations): unified_properties.ledger_whole_as_of when windows have brought
    /// the ledger past it. A posting entered after it and dated before every window since is not in
    /// yardi_transactions until the next whole answer.
    static let wholeAsOf = """
        SELECT max(as_of_date) FROM yardi_raw.loaded_artifacts
        WHERE property_id = :property AND operation = 'GetResidentTransactions_Login'
        """

    /// A transaction's charge or payment id (`t`): its TransactionID, else its raw row's.
    static let postingID = "coalesce(t.transaction_id, 'row-' || t.id)"
    /// The transactions (`t`) that are charges: with a tenant code, a charge code and a month.
    static let projectedCharge = """
        t.kind = 'charge' AND t.tenant_code IS NOT NULL AND t.charge_code IS NOT NULL
          AND coalesce(t.service_from_date, t.post_month, t.transaction_date) IS NOT NULL
        """
    /// The transactions (`t`) that are payments: with a tenant code and a date.
    static let projectedPayment = "t.kind = 'payment' AND t.tenant_code IS NOT NULL AND t.transaction_date IS NOT NULL"

    static func insertCharges(_ projection: LedgerProjection) -> String {
        """
        INSERT INTO unified_charges (
            unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code, description, category,
            category_known, period, charge_date, due_date, amount, amount_paid, balance)
        SELECT :property,
               \(postingID),
               t.tenant_code, t.lease_id, t.unit_code, t.charge_code, t.description,
               coalesce(c.category, 'OTHER'), c.category IS NOT NULL,
               substr(coalesce(t.service_from_date, t.post_month, t.transaction_date), 1, 7),
               t.transaction_date, t.transaction_date,
               \(SQLMoney.cents("t.amount")),
               \(SQLMoney.cents("coalesce(t.amount_paid, t.amount - coalesce(t.balance_due, t.amount))")),
               \(SQLMoney.cents("coalesce(t.balance_due, t.amount - coalesce(t.amount_paid, 0))"))
        FROM yardi_raw.yardi_transactions t
        LEFT JOIN temp.charge_category c ON c.code = upper(t.charge_code)
        WHERE t.property_id = :property AND \(projectedCharge)
          \(projection.rows("t"))
        """
    }

    static func insertPayments(_ projection: LedgerProjection) -> String {
        """
        INSERT INTO unified_payments (
            unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date, period, amount,
            reference, payment_type)
        SELECT :property, \(postingID), t.tenant_code, t.lease_id, t.unit_code,
               t.transaction_date, substr(coalesce(t.post_month, t.transaction_date), 1, 7), \(SQLMoney.cents("t.amount")),
               t.document_number, t.payment_type
        FROM yardi_raw.yardi_transactions t
        WHERE t.property_id = :property AND \(projectedPayment)
          \(projection.rows("t"))
        """
    }

    /// One `BALFWD` line per household whose window balance (Σ charges − Σ payments) exceeds its open charges
    /// (Σ `BalanceDue`): the payments Voyager applied (`AmountPaid`) that the exported window lacks, paid before it or
    /// moved in by a transfer (`YardiDelinquency.windowGaps`, warned as `ledger_window`). Without it the debtors
    /// report, the statement and the rental tracker, which sum charges − payments, showed more owed than the aging
    /// (BalanceDue) at such a household. The amount is the delinquency balance less the window balance (a credit),
    /// counted as applied in full (amount_paid = amount, balance 0), so its open charges are still BalanceDue's.
    /// RealPage's convention (RealPageLedger.insertBalanceForward): `charge_id` `balance-forward:<tenant code>`, which
    /// the audit's and the checks' `balance-forward:` filters know, category OTHER, dated the day before the
    /// property's first stored posting (period: that day's month) so that it counts on every date from there.
    static let insertBalanceForward = """
        WITH start AS (
            SELECT date(min(transaction_date)) AS first_day, date(min(transaction_date), '-1 day') AS day
            FROM yardi_raw.yardi_transactions
            WHERE property_id = :property AND tenant_code IS NOT NULL
        )
        INSERT INTO unified_charges (
            unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code, description, category,
            category_known, period, charge_date, due_date, amount, amount_paid, balance)
        SELECT :property, \(RealPageTransactionLedger.balanceForwardID("h.tenant_code")), h.tenant_code,
               (SELECT lease_id FROM unified_residents
                WHERE unified_property_id = :property AND resident_id = h.tenant_code),
               h.unit_code, '\(RealPageTransactionLedger.balanceForwardCode)',
               'balance forward: payments Voyager applied (AmountPaid) that the exported window lacks '
                   || '(paid before ' || start.first_day || ', or moved in by a transfer)',
               'OTHER', 1, substr(start.day, 1, 7), start.day, start.day,
               (h.delinquent_cents - h.window_cents) / 100.0, (h.delinquent_cents - h.window_cents) / 100.0, 0
        FROM yardi_household h, start
        WHERE h.window_cents > h.delinquent_cents AND start.day IS NOT NULL
        """

    /// The lease a detail without a LeaseID belongs to, per tenant and service period of such details: the lease id
    /// most of the tenant's posted charges of that period carry (Yardi's own sample sends no LeaseID: keyed on the
    /// customer, a renewed tenant's earlier period would otherwise take the lease the resident list names now, and
    /// the audit would find each of its months missing on the new lease and its postings on the old one not
    /// audited); NULL when none was posted (a period not yet billed), which falls back to the resident list. Read by
    /// the rule and by its inputs (`recurringInputs`): a posting that moves the answer runs the rule again. Each
    /// period's lookup reads the tenant index alone (yardi_raw.db migration 19 put the charge's lease and dates in it),
    /// not each charge's row: it runs for every period of every kept statement, each night.
    static let periodLeases = """
        period AS (
            SELECT DISTINCT tenant_code, service_from_date, service_to_date FROM yardi_raw.yardi_lease_charges
            WHERE property_id = :property AND as_of_date <= :lease_charges_snapshot AND lease_id IS NULL
              AND tenant_code IS NOT NULL AND service_from_date IS NOT NULL
        ),
        period_lease AS (
            SELECT p.tenant_code, p.service_from_date, p.service_to_date, coalesce(p.service_to_date, '') AS service_to,
                   (SELECT t.lease_id FROM yardi_raw.yardi_transactions AS t INDEXED BY yardi_transactions_tenant
                    WHERE t.property_id = :property AND t.tenant_code = p.tenant_code AND t.kind = 'charge'
                      AND t.lease_id IS NOT NULL
                      AND coalesce(t.service_from_date, t.transaction_date) >= p.service_from_date
                      AND coalesce(t.service_from_date, t.transaction_date) <= coalesce(p.service_to_date, '9999-12-31')
                    GROUP BY t.lease_id ORDER BY count(*) DESC, t.lease_id LIMIT 1) AS lease_id
            FROM period p
        )
        """

    /// `temp.yardi_period_lease`, of `periodLeases`' rows.
    static let periodLeaseTable = ScratchTable(
        name: "yardi_period_lease",
        shape: .query("WITH \(periodLeases) SELECT tenant_code, service_from_date, service_to, lease_id FROM period_lease"),
        indexes: ["yardi_period_lease_key": "tenant_code, service_from_date, service_to"])

    /// `yardi_period_lease` (TEMP): `periodLeases` keyed for the rule's lookup per detail (from a CTE, which has no
    /// index, each of 24 months of details scanned every period: 295 against 71 ms for yp_juniper_flats). Made before
    /// the rule runs, in place of the previous property's (`TempTables`).
    static func makePeriodLeases(_ yardi: YardiSync) throws {
        try TempTables.refill(periodLeaseTable, in: yardi.context.database) { _ = try yardi.run($0) }
    }

    /// What `insertRecurring` reads (InputMarks, which skips it while this is unchanged): each lease-charge statement
    /// up to the chosen one as loaded (a night's answer identical to the stored one loads nothing, so most nights
    /// leave these as they were), the count and row ids of their rows (which a load or prune changes), and, when a
    /// line lacks a LeaseID, the lease of each such tenant's service period (`periodLeases`) and the lease the
    /// resident list names for each such tenant (its first row with one, as the rule looks it up). The list's lease
    /// per tenant, not the list itself: the list changes every night (balances, other households), which ran the
    /// rule every night at a property whose lines carry no LeaseID (0.4 s a night for 24 months of statements).
    static let recurringInputs = """
        WITH \(periodLeases)
        SELECT 'statement', l.as_of_date, l.run_id, l.artifact_sha256, l.row_count, l.loaded_at
        FROM yardi_raw.loaded_artifacts l
        WHERE l.operation = 'GetResidentLeaseCharges_Login' AND l.property_id = :property
          AND l.as_of_date <= :lease_charges_snapshot
        UNION ALL
        SELECT 'lines', count(*), total(c.rowid), NULL, NULL, NULL
        FROM yardi_raw.yardi_lease_charges c
        WHERE c.property_id = :property AND c.as_of_date <= :lease_charges_snapshot
        UNION ALL
        SELECT 'resident lease', tenant_code, lease_id, NULL, NULL, NULL
        FROM (SELECT r.tenant_code, r.lease_id, min(r.source_row)
              FROM yardi_raw.yardi_residents AS r
              WHERE r.property_id = :property AND r.as_of_date = :residents_snapshot AND r.lease_id IS NOT NULL
                AND r.tenant_code IN (SELECT tenant_code FROM period)
              GROUP BY r.tenant_code)
        UNION ALL
        SELECT 'period lease', tenant_code || ' ' || service_from_date || ' ' || coalesce(service_to_date, ''), lease_id,
               NULL, NULL, NULL
        FROM period_lease
        ORDER BY 1, 2
        """

    static let insertRecurring = """
        WITH lease_charge AS MATERIALIZED (
            -- `statement` orders the snapshots: by PostMonth, then by the run that loaded it (a month's snapshot is
            -- fetched again every night; one from before month snapshots were dated the first is ordered the same).
            -- A detail without a LeaseID takes the lease its tenant's charges of its service period were posted on
            -- (temp.yardi_period_lease, `makePeriodLeases`), else its tenant's lease in the resident list (the first row's), looked
            -- up on the tenant index for those rows only (a join to the list scanned it once per charge row: a
            -- quarter of a churned night's sync for a 192-unit property with 24 months of schedules). Named: for its
            -- ORDER BY the planner took the snapshot's row-order index, and scanned the list once per row again.
            -- Only the columns read below: the two sorts that follow carry every column of 24 months of schedules
            -- (every column, `l.*`, made the rule a fifth dearer).
            SELECT l.tenant_code, l.unit_code, l.charge_code, l.description, l.amount, l.service_from_date,
                   l.service_to_date,
                   coalesce(l.lease_id,
                            (SELECT p.lease_id FROM temp.yardi_period_lease AS p
                             WHERE p.tenant_code = l.tenant_code AND p.service_from_date = l.service_from_date
                               AND p.service_to = coalesce(l.service_to_date, '')),
                            (SELECT r.lease_id FROM yardi_raw.yardi_residents AS r INDEXED BY yardi_residents_tenant
                             WHERE r.property_id = :property AND r.as_of_date = :residents_snapshot
                               AND r.tenant_code = l.tenant_code AND r.lease_id IS NOT NULL
                             ORDER BY r.source_row LIMIT 1),
                            l.tenant_code) AS lease_key,
                   substr(l.as_of_date, 1, 7) || ' ' || coalesce(a.run_id, '') AS statement
            FROM yardi_raw.yardi_lease_charges l
            LEFT JOIN yardi_raw.loaded_artifacts a
              ON a.operation = 'GetResidentLeaseCharges_Login' AND a.property_id = l.property_id
             AND a.as_of_date = l.as_of_date
            WHERE l.property_id = :property AND l.as_of_date <= :lease_charges_snapshot
              AND l.service_from_date IS NOT NULL AND coalesce(l.lease_id, l.tenant_code) IS NOT NULL
        ),
        latest AS (
            -- A charge as its latest statement states it (several rows of that snapshot add up).
            SELECT *, max(statement) OVER (PARTITION BY lease_key, charge_code, service_from_date) AS latest_statement
            FROM lease_charge
        )
        INSERT INTO unified_recurring_charges (
            unified_property_id, lease_id, resident_id, unit_number, charge_code, description, category,
            category_known, amount, start_date, end_date)
        SELECT :property, l.lease_key, l.tenant_code, l.unit_code, l.charge_code, l.description,
               coalesce(c.category, 'OTHER'), c.category IS NOT NULL, round(sum(l.amount), 2),
               l.service_from_date, max(l.service_to_date)
        FROM latest l
        LEFT JOIN temp.charge_category c ON c.code = upper(l.charge_code)
        WHERE l.statement = l.latest_statement
        GROUP BY l.lease_key, l.charge_code, l.service_from_date
        """
}
