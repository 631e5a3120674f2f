/// The tenant ledger from Yardi: unified_charges and unified_payments from GetResidentTransactions_Login
/// (yardi_transactions), unified_recurring_charges from GetResidentLeaseCharges_Login (yardi_lease_charges).
///
/// Rules (MITS ResidentTransactions 2.0, vendor-formats 1.3):
/// - A charge's household is its `CustomerID` (tenant code); its period is the month of `ServiceFromDate`, else of
///   `PostMonth`, else of `TransactionDate`; its due date is its `TransactionDate` (Yardi posts a charge on the day it
///   falls due); amount_paid and balance are Yardi's own `AmountPaid` / `BalanceDue` (payments applied oldest
///   first by Voyager), never recomputed here.
/// - A payment's period is its `PostMonth`, else the month of its `TransactionDate`; its reference is the
///   `DocumentNumber` (check or confirmation number). Reversals are kept as posted (negative amounts stay negative).
/// - Categories: `temp.charge_category` (report_definitions.json `charge_categories` over the defaults); a code
///   in neither is OTHER with category_known = 0 and is listed by the sync's cross-checks.
/// - Recurring charges: per lease and charge code, from `ServiceFromDate` to `ServiceToDate`, gathered from every
///   GetResidentLeaseCharges_Login snapshot up to the chosen one (one per month of the ledger window: each answers
///   with the leases in effect on the first of its PostMonth, so a lease renewed within the window keeps the schedule
///   of its earlier months); a line in several snapshots is taken from the latest that has it.
/// - Transactions without a tenant code cannot belong to a lease or resident and are left out (the delinquency rule
///   does the same).
enum YardiLedger {
    static let source = "yardi: GetResidentTransactions_Login + GetResidentLeaseCharges_Login"

    static let insertCharges = """
        INSERT INTO unified_charges (
            unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code, description, category,
            category_known, period, charge_date, due_date, amount, amount_paid, balance)
        SELECT :property,
               coalesce(t.transaction_id, 'row-' || t.source_row),
               t.tenant_code, t.lease_id, t.unit_code, t.charge_code, t.description,
               coalesce(c.category, 'OTHER'), c.category IS NOT NULL,
               substr(coalesce(t.service_from_date, t.post_month, t.transaction_date), 1, 7),
               t.transaction_date, t.transaction_date,
               round(t.amount, 2),
               round(coalesce(t.amount_paid, t.amount - coalesce(t.balance_due, t.amount)), 2),
               round(coalesce(t.balance_due, t.amount - coalesce(t.amount_paid, 0)), 2)
        FROM yardi_raw.yardi_transactions t
        LEFT JOIN temp.charge_category c ON c.code = upper(t.charge_code)
        WHERE t.property_id = :property AND t.as_of_date = :transactions_snapshot AND t.kind = 'charge'
          AND t.tenant_code IS NOT NULL AND t.charge_code IS NOT NULL
          AND coalesce(t.service_from_date, t.post_month, t.transaction_date) IS NOT NULL
        """

    static let insertPayments = """
        INSERT INTO unified_payments (
            unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date, period, amount,
            reference, payment_type)
        SELECT :property, coalesce(t.transaction_id, 'row-' || t.source_row), t.tenant_code, t.lease_id, t.unit_code,
               t.transaction_date, substr(coalesce(t.post_month, t.transaction_date), 1, 7), round(t.amount, 2),
               t.document_number, t.payment_type
        FROM yardi_raw.yardi_transactions t
        WHERE t.property_id = :property AND t.as_of_date = :transactions_snapshot AND t.kind = 'payment'
          AND t.tenant_code IS NOT NULL AND t.transaction_date IS NOT NULL
        """

    static let insertRecurring = """
        INSERT INTO unified_recurring_charges (
            unified_property_id, lease_id, resident_id, unit_number, charge_code, description, category,
            category_known, amount, start_date, end_date)
        SELECT :property, l.lease_id, l.tenant_code, l.unit_code, l.charge_code, l.description,
               coalesce(c.category, 'OTHER'), c.category IS NOT NULL, round(sum(l.amount), 2),
               l.service_from_date, max(l.service_to_date)
        FROM yardi_raw.yardi_lease_charges l
        JOIN (SELECT lease_id, charge_code, service_from_date, max(as_of_date) AS as_of_date
              FROM yardi_raw.yardi_lease_charges
              WHERE property_id = :property AND as_of_date <= :lease_charges_snapshot
                AND lease_id IS NOT NULL AND service_from_date IS NOT NULL
              GROUP BY lease_id, charge_code, service_from_date) AS latest
          ON latest.lease_id = l.lease_id AND latest.charge_code = l.charge_code
         AND latest.service_from_date = l.service_from_date AND latest.as_of_date = l.as_of_date
        LEFT JOIN temp.charge_category c ON c.code = upper(l.charge_code)
        WHERE l.property_id = :property
        GROUP BY l.lease_id, l.charge_code, l.service_from_date
        """
}
