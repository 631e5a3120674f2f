import SQLiteKit

/// Each RealPage household's postings summed (`temp.household_postings`: how many, charges less payments and the
/// charges' open balances, in cents), which the balance-forward rule (`RealPageLedger.insertBalanceForward`) weighs
/// the household's stated Balance against. Read from unified_charges (but the balance-forward lines) and
/// unified_payments, the projection of RPX's merged ledger the rules have just written.
///
/// By change: a household's postings are 24 months of charges and payments, and a night rewrites a few of them, but
/// every household with a posting that night (on the first of a month, every household) was summed whole. The sums
/// are kept per household (`sync_realpage_postings`, unified migration 63) with the ledger lineage they stood on
/// (HouseholdSumMark); on a night whose ledger delta stands on it (LedgerDelta) and writes the lines by household, a
/// household's sum is its kept one less the rows the delta set aside and plus the rows the rules wrote since (each row
/// in integer cents, as the whole sum counts it: the same total). Every other night sums every household.
struct RealPagePostings {
    /// The sums were added to by change (only the rewritten households'), not summed whole.
    let byChange: Bool
    /// The property has an RPX ledger tonight; without one its kept sums are forgotten.
    let hasLedger: Bool

    /// `temp.household_postings`.
    static let table = ScratchTable(name: "household_postings", shape: .definition("""
        (resident_id TEXT PRIMARY KEY, postings INTEGER NOT NULL, cents INTEGER NOT NULL, open_cents INTEGER NOT NULL)
        WITHOUT ROWID
        """))

    /// A charge's share of its household's sum (`sign` 1 to add it, -1 to take it off), over `alias`.
    private static func charge(_ alias: String, sign: Int = 1) -> String {
        """
        \(alias).resident_id, \(sign), \(sign) * CAST(round(\(alias).amount * 100) AS INTEGER),
        \(sign) * CAST(round(coalesce(\(alias).balance, 0) * 100) AS INTEGER)
        """
    }

    /// A payment's share: its amount off the household's balance.
    private static func payment(_ alias: String, sign: Int = 1) -> String {
        "\(alias).resident_id, \(sign), \(-sign) * CAST(round(\(alias).amount * 100) AS INTEGER), 0"
    }

    /// Every household's postings, from the rules' tables as they stand (the twins, or main on a night by change).
    static let sumWhole = """
        INSERT INTO temp.household_postings (resident_id, postings, cents, open_cents)
        SELECT resident_id, sum(postings), sum(cents), sum(open_cents) FROM (
            -- Each side summed on its by-resident index before the two are put together (HouseholdBalances).
            SELECT c.resident_id, count(*) AS postings, sum(CAST(round(c.amount * 100) AS INTEGER)) AS cents,
                   sum(CAST(round(coalesce(c.balance, 0) * 100) AS INTEGER)) AS open_cents
            FROM unified_charges c
            WHERE c.unified_property_id = :property AND c.resident_id IS NOT NULL
              AND NOT (\(RealPageTransactionLedger.isBalanceForwardLine("c")))
            GROUP BY c.resident_id
            UNION ALL
            SELECT p.resident_id, count(*), -sum(CAST(round(p.amount * 100) AS INTEGER)), 0
            FROM unified_payments p
            WHERE p.unified_property_id = :property AND p.resident_id IS NOT NULL
            GROUP BY p.resident_id)
        GROUP BY resident_id
        """

    /// The rewritten households' (`temp.rewritten_households`) sums: kept, less the postings the delta set aside
    /// (`temp.delta_*`, the lines left out), plus those the rules wrote after the rows `clear` left (`:left_charges`,
    /// `:left_payments`). A household without a posting left has none.
    static let sumByChange = """
        INSERT INTO temp.household_postings (resident_id, postings, cents, open_cents)
        SELECT resident_id, sum(postings), sum(cents), sum(open_cents) FROM (
            SELECT k.resident_id, k.postings, k.cents, k.open_cents
            FROM main.sync_realpage_postings k
            WHERE k.unified_property_id = :property
              AND k.resident_id IN (SELECT resh_id FROM temp.rewritten_households)
            UNION ALL
            SELECT \(charge("o", sign: -1)) FROM temp.delta_unified_charges o
            WHERE o.resident_id IS NOT NULL AND NOT (\(RealPageTransactionLedger.isBalanceForwardLine("o")))
            UNION ALL
            SELECT \(charge("n")) FROM main.unified_charges n
            WHERE n.rowid > :left_charges AND +n.unified_property_id = :property AND n.resident_id IS NOT NULL
              AND NOT (\(RealPageTransactionLedger.isBalanceForwardLine("n")))
            UNION ALL
            SELECT \(payment("o", sign: -1)) FROM temp.delta_unified_payments o WHERE o.resident_id IS NOT NULL
            UNION ALL
            SELECT \(payment("n")) FROM main.unified_payments n
            WHERE n.rowid > :left_payments AND +n.unified_property_id = :property AND n.resident_id IS NOT NULL)
        GROUP BY resident_id
        HAVING sum(postings) > 0
        """

    /// Fills `temp.household_postings` for the balance-forward rule, before it runs: by change when `linesByChange`
    /// (the delta writes only the rewritten households' lines, `LedgerDelta.listRewrittenHouseholds`) and the kept sums
    /// stand on the delta's lineage; else every household's. `left`: what the delta's `clear` left (LedgerDelta.begin).
    static func make(_ realpage: RealPageSync, hasLedger: Bool, linesByChange: Bool,
                     left: [String: Int64]?) throws -> RealPagePostings {
        let context = realpage.context
        try TempTables.empty(table, in: context.database)
        guard hasLedger else { return RealPagePostings(byChange: false, hasLedger: false) }
        if linesByChange, let left, try HouseholdSumMark.keptSince(context) != nil {
            try realpage.run(sumByChange, [":left_charges": .integer(left["unified_charges"] ?? 0),
                                           ":left_payments": .integer(left["unified_payments"] ?? 0)])
            return RealPagePostings(byChange: true, hasLedger: true)
        }
        try realpage.run(sumWhole)
        return RealPagePostings(byChange: false, hasLedger: true)
    }

    /// Keeps tonight's sums and their mark, in the property's write: the rewritten households' (a household without a
    /// posting left loses its row) when added to by change, else every household's; without a ledger, none.
    func record(_ context: SyncContext) throws {
        let rewritten = byChange ? "AND resident_id IN (SELECT resh_id FROM temp.rewritten_households)" : ""
        try context.run("DELETE FROM main.sync_realpage_postings WHERE unified_property_id = :property \(rewritten)")
        guard hasLedger else {
            try context.run("DELETE FROM main.sync_household_sum_marks WHERE unified_property_id = :property")
            return
        }
        try context.run("""
            INSERT INTO main.sync_realpage_postings (unified_property_id, resident_id, postings, cents, open_cents)
            SELECT :property, resident_id, postings, cents, open_cents FROM temp.household_postings
            """)
        try HouseholdSumMark.record(context, ledger: .realpage)
    }
}
