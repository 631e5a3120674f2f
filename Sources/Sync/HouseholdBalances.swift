/// Each household's balance as of the property's date, from a full tenant ledger -> unified_household_balances.
///
/// The rows carry no date: like every current-state row they are as of `unified_properties.as_of_date`, so a night
/// rewrites only the households whose balance moved (a date on each row had rewritten every one of them nightly).
///
/// What was posted up to the date: a charge by its charge date (else its due date, else the first of its period), a
/// payment by its payment date; the balance is the charges less the payments, summed in cents so that it is exact.
/// `Debtors.householdsSQL` applies the same rule to any other date; DebtorsTruthTests holds the two to each other.
/// On a night the ledger was written by change, only the households whose balance can have moved are summed again
/// (`LedgerDelta.rebalance`); the others keep the last sync's rows.
enum HouseholdBalances {
    /// Every household of the property.
    static let insert = insert(scope: "")

    /// Only the households in `temp.rebalanced_households` (`LedgerDelta.rebalance`), on the by-resident indexes.
    static let insertRebalanced = insert(scope: "AND resident_id IN (SELECT resident_id FROM temp.rebalanced_households)")

    /// The other households' rows as the last sync left them in main, into the twin this sync compares with main.
    static let keepOthers = """
        INSERT INTO unified_household_balances (unified_property_id, resident_id, charges, payments, balance)
        SELECT unified_property_id, resident_id, charges, payments, balance FROM main.unified_household_balances
        WHERE unified_property_id = :property AND resident_id NOT IN (SELECT resident_id FROM temp.rebalanced_households)
        """

    private static func insert(scope: String) -> String {
        """
        INSERT INTO unified_household_balances (unified_property_id, resident_id, charges, payments, balance)
        SELECT :property, resident_id, sum(charged) / 100.0, sum(paid) / 100.0, (sum(charged) - sum(paid)) / 100.0
        FROM (
            -- Each side summed on its by-resident index, in order, before the two are put together: grouping the
            -- postings themselves sorted all of them first (twice the time).
            SELECT resident_id, sum(CAST(round(amount * 100) AS INTEGER)) AS charged, 0 AS paid FROM unified_charges
            WHERE unified_property_id = :property AND coalesce(charge_date, due_date, period || '-01') <= :as_of \(scope)
            GROUP BY resident_id
            UNION ALL
            SELECT resident_id, 0, sum(CAST(round(amount * 100) AS INTEGER)) FROM unified_payments
            WHERE unified_property_id = :property AND payment_date <= :as_of \(scope)
            GROUP BY resident_id
        )
        GROUP BY resident_id
        """
    }
}
