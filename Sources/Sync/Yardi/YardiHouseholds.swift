import SQLiteKit

/// A Yardi property's households as its ledger sums them (`temp.yardi_household`: per tenant code, the window balance,
/// the charges' own figures, the open amount and its aging, the prepaid credit), made once per property for its five
/// readers: the residents' balance (YardiResidents), the delinquency and the window check (YardiDelinquency), the
/// ledger's balance forward (YardiLedger) and the charges' own check (YardiCrossChecks). Read from
/// yardi_raw.yardi_transactions, the merged GetResidentTransactions_Login ledger.
///
/// By change: the merged ledger keeps every transaction since the property's first whole pull, so summing it whole
/// each night grew with every month kept. The sums that do not move with the property date (each household's charges,
/// payments, their AmountPaid and BalanceDue, its unit and how many transactions it has) are kept in
/// `sync_yardi_households` (unified migration 63) beside the ledger mark they were summed at
/// (HouseholdSumMark: the ledger's newest lineage then). An incremental sync whose ledger delta stands on
/// that same mark (LedgerDelta: the same build and charge categories, the mark's lineage row unchanged) sums again
/// only the households of a transaction written since, and keeps the others' sums; a household that lost a
/// transaction (an answer said it is gone, or moved it to another tenant) shows in the count: the kept and the new
/// sums must add up to the property's transactions, else every household is summed again. The open amount and its
/// aging move with the property date, so they are summed every night, but only over the charges still open (a partial
/// index, yardi_raw migration 17).
struct YardiHouseholds {
    /// Only the changed households were summed again, the others' sums kept (as RealPagePostings.byChange).
    let byChange: Bool
    /// The property has a ledger snapshot tonight; without one its kept sums are forgotten.
    let hasLedger: Bool

    /// The per-household sums that do not move with the property date, over `transactions` (`t`, the property's rows
    /// with a tenant code) and a condition on them.
    static func sums(_ condition: String) -> String {
        """
        SELECT tenant_code, max(unit_code) AS unit_code, count(*) AS transactions,
               sum(CASE kind WHEN 'charge' THEN amount_cents ELSE -amount_cents END) AS window_cents,
               sum(CASE kind WHEN 'charge' THEN amount_cents ELSE 0 END) AS charged_cents,
               sum(CASE kind WHEN 'payment' THEN amount_cents ELSE 0 END) AS paid_cents,
               -- The charges' own AmountPaid and BalanceDue, for the check that they add up to Amount.
               sum(CASE kind WHEN 'charge' THEN applied_cents ELSE 0 END) AS charge_applied_cents,
               sum(CASE kind WHEN 'charge' THEN due_cents ELSE 0 END) AS charge_due_cents
        FROM (SELECT tenant_code, unit_code, kind,
                     CAST(round(amount * 100) AS INTEGER) AS amount_cents,
                     CAST(round(coalesce(amount_paid, 0) * 100) AS INTEGER) AS applied_cents,
                     CAST(round(coalesce(balance_due, 0) * 100) AS INTEGER) AS due_cents
              FROM yardi_raw.yardi_transactions
              WHERE property_id = :property AND tenant_code IS NOT NULL \(condition))
        GROUP BY tenant_code
        """
    }

    /// `temp.yardi_household_sums`: tonight's sums per household, kept or summed again.
    static let sumsTable = ScratchTable(name: "yardi_household_sums", shape: .query(sums("")),
                                        indexes: ["yardi_household_sums_tenant": "tenant_code"])

    /// `temp.yardi_changed_households`: the households summed again on a night by change.
    static let changedTable = ScratchTable(name: "yardi_changed_households",
                                           shape: .definition("(tenant_code TEXT PRIMARY KEY) WITHOUT ROWID"))

    /// The households of the transactions written since the mark (`:since`), on the ledger's by-load index.
    static let listChanged = """
        INSERT OR IGNORE INTO temp.yardi_changed_households
        SELECT tenant_code FROM yardi_raw.yardi_transactions
        WHERE property_id = :property AND lineage_id > :since AND tenant_code IS NOT NULL
        """

    /// The unchanged households' sums as the last sync kept them, with the changed ones summed again (each on the
    /// ledger's by-tenant index).
    static let keptAndChanged = """
        SELECT tenant_code, unit_code, transactions, window_cents, charged_cents, paid_cents, charge_applied_cents,
               charge_due_cents
        FROM main.sync_yardi_households
        WHERE unified_property_id = :property
          AND tenant_code NOT IN (SELECT tenant_code FROM temp.yardi_changed_households)
        UNION ALL
        \(sums("AND tenant_code IN (SELECT tenant_code FROM temp.yardi_changed_households)"))
        """

    /// Whether tonight's sums count every transaction of the property with a tenant code: a kept household that lost
    /// one (gone from the ledger, or now another tenant's) counts more than the ledger holds. The count reads the
    /// by-tenant index alone.
    static let countsAgree = """
        SELECT (SELECT count(*) FROM yardi_raw.yardi_transactions WHERE property_id = :property AND tenant_code IS NOT NULL)
             = (SELECT coalesce(sum(transactions), 0) FROM temp.yardi_household_sums)
        """

    /// `households`: the sums with the open charges' amount and aging at the property date, and the prepaid credit.
    /// A charge's age is read from its date against each bucket's first day (`:as_of` less 30, 60 and 90 days, which
    /// SQLite works out once per statement): the loader stores every date as `YYYY-MM-DD`, so the text order is the
    /// date order, and 31 days old is before the day 30 days back. The open charges are read off their partial index
    /// alone (`openCharge` repeats its condition, as SQLite needs to use it; not `INDEXED BY`, so that a raw database
    /// an older build migrated, which a `sync` before the next load reads, is read whole instead of failing).
    static let households = """
        WITH open_charge AS (\(openCharges)),
        aging AS (
            SELECT tenant_code, sum(open_cents) AS delinquent_cents,
                   sum(CASE WHEN dated IS NULL OR dated >= date(:as_of, '-30 days')
                            THEN open_cents ELSE 0 END) AS aged_0_30,
                   sum(CASE WHEN dated < date(:as_of, '-30 days') AND dated >= date(:as_of, '-60 days')
                            THEN open_cents ELSE 0 END) AS aged_31_60,
                   sum(CASE WHEN dated < date(:as_of, '-60 days') AND dated >= date(:as_of, '-90 days')
                            THEN open_cents ELSE 0 END) AS aged_61_90,
                   sum(CASE WHEN dated < date(:as_of, '-90 days') THEN open_cents ELSE 0 END) AS aged_over_90
            FROM open_charge
            GROUP BY tenant_code
        ),
        household AS (
            SELECT s.tenant_code, s.unit_code, s.window_cents, s.charged_cents, s.paid_cents, s.charge_applied_cents,
                   s.charge_due_cents, coalesce(a.delinquent_cents, 0) AS delinquent_cents,
                   coalesce(a.aged_0_30, 0) AS aged_0_30, coalesce(a.aged_31_60, 0) AS aged_31_60,
                   coalesce(a.aged_61_90, 0) AS aged_61_90, coalesce(a.aged_over_90, 0) AS aged_over_90
            FROM temp.yardi_household_sums s
            LEFT JOIN aging a ON a.tenant_code = s.tenant_code
        )
        SELECT *, max(delinquent_cents - window_cents, 0) AS prepaid_cents
        FROM household
        ORDER BY tenant_code
        """

    /// The property's open charges with a tenant: each one's open amount in cents and the date it is aged by.
    static let openCharges = """
        SELECT tenant_code, CAST(round(balance_due * 100) AS INTEGER) AS open_cents,
               coalesce(transaction_date, service_from_date) AS dated
        FROM yardi_raw.yardi_transactions
        WHERE property_id = :property AND kind = 'charge' AND balance_due > 0 AND tenant_code IS NOT NULL
        """

    /// `temp.yardi_household`, indexed by tenant: the residents' rule joins each resident to its household, and
    /// without the index the planner scanned every household per resident.
    static let householdTable = ScratchTable(name: "yardi_household", shape: .query(households),
                                             indexes: ["yardi_household_tenant": "tenant_code"])

    /// The scratch tables, in the order they are made.
    static let scratchTables = [sumsTable, changedTable, householdTable]

    /// Makes `temp.yardi_household` for the property `yardi` syncs: by change when its ledger delta stands on the mark
    /// the kept sums were summed at (`hasLedger`: the property has a ledger snapshot tonight), else every household.
    /// Refills the previous property's tables (`TempTables`).
    static func make(_ yardi: YardiSync, hasLedger: Bool) throws -> YardiHouseholds {
        let context = yardi.context, database = context.database
        var byChange = false
        if hasLedger, let since = try HouseholdSumMark.keptSince(context) {
            try TempTables.empty(changedTable, in: database)
            try yardi.run(listChanged, [":since": .integer(since)])
            try TempTables.refill(sumsTable, with: keptAndChanged, in: database) { _ = try yardi.run($0) }
            byChange = try yardi.rows(countsAgree).first?.first?.integerValue == 1
        }
        if !byChange {
            try TempTables.refill(sumsTable, in: database) { _ = try yardi.run($0) }
        }
        try TempTables.refill(householdTable, in: database) { _ = try yardi.run($0) }
        return YardiHouseholds(byChange: byChange, hasLedger: hasLedger)
    }

    /// Keeps tonight's sums and their mark (HouseholdSumMark), in the property's write: only the changed households'
    /// rows when the others were kept, else every row; without a ledger, none (the next night with one sums every
    /// household).
    func record(_ context: SyncContext) throws {
        let changed = byChange ? "AND tenant_code IN (SELECT tenant_code FROM temp.yardi_changed_households)" : ""
        try context.run("DELETE FROM main.sync_yardi_households WHERE unified_property_id = :property \(changed)")
        guard hasLedger else {
            try context.run("DELETE FROM main.sync_household_sum_marks WHERE unified_property_id = :property")
            return
        }
        try context.run("""
            INSERT INTO main.sync_yardi_households (
                unified_property_id, tenant_code, unit_code, transactions, window_cents, charged_cents, paid_cents,
                charge_applied_cents, charge_due_cents)
            SELECT :property, tenant_code, unit_code, transactions, window_cents, charged_cents, paid_cents,
                   charge_applied_cents, charge_due_cents
            FROM temp.yardi_household_sums
            WHERE true \(changed)
            """)
        try HouseholdSumMark.record(context, ledger: .yardi)
    }
}
