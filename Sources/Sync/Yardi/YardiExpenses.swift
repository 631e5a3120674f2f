import SQLiteKit

/// Yardi operating expenses: the accounts-payable invoice lines of GetInvoiceRegister (yardi_invoice_lines) ->
/// unified_expenses, one row per post month and GL account.
///
/// Rules:
/// - month = the invoice's `post_month`, not its invoice date: the post month is the accounting period the general
///   ledger (and so the owner's income statement) counts the expense in. A utility bill dated 28 September and posted
///   to October is an October expense, which is how RealPage's Income Statement counts it too.
/// - Each snapshot answered for the `requestedMonths` post months ending with its own month (YardiOperation
///   `invoiceMonths`); each month is read from the latest snapshot, up to the one the sync chose
///   (`:invoices_snapshot`), whose request covered it, so a month's lines come from one answer (an invoice voided
///   later leaves with it) and months older than the latest request stay as they were loaded.
/// - amount = Σ `amount` per month and account (positive = spent; a credit line is negative), rounded to cents;
///   gl_account = `gl_account`, account_name = `gl_account_name`.
/// - gl_category: `gl_categories` of report_definitions.json over `GLCategories.defaults`, longest prefix wins, as for
///   RealPage. A line is an expense when its account is in a category, or is a 6xxx-8xxx account (then `Other`, with
///   category_known = 0, listed as a sync warning); lines on balance-sheet or income accounts (a capital improvement
///   on 1xxx, a deposit refund on 2xxx) are not operating expenses and stay in yardi_raw.db only.
enum YardiExpenses {
    static let source = "yardi: yardi_invoice_lines (GetInvoiceRegister)"

    /// The post months one GetInvoiceRegister request covers, ending with its snapshot's month (YardiOperation
    /// `invoiceMonths`; Sync does not depend on SOAP).
    static let requestedMonths = 12

    static let accounts = """
        SELECT DISTINCT gl_account FROM yardi_raw.yardi_invoice_lines WHERE property_id = :property
        """

    static let insert = """
        WITH snapshots AS (
            SELECT as_of_date,
                   strftime('%Y-%m', as_of_date, 'start of month', printf('-%d months', :requested_months - 1)) AS first_month,
                   substr(as_of_date, 1, 7) AS last_month
            FROM yardi_raw.loaded_artifacts
            WHERE property_id = :property AND operation = 'GetInvoiceRegister' AND as_of_date <= :invoices_snapshot
        ),
        months AS (
            SELECT DISTINCT post_month AS month FROM yardi_raw.yardi_invoice_lines
            WHERE property_id = :property AND as_of_date <= :invoices_snapshot
        ),
        month_snapshot AS (
            SELECT m.month, max(s.as_of_date) AS as_of_date
            FROM months m JOIN snapshots s ON m.month BETWEEN s.first_month AND s.last_month
            GROUP BY m.month
        )
        INSERT INTO unified_expenses (
            unified_property_id, month, gl_account, account_name, gl_category, category_known, amount, source)
        SELECT :property, l.post_month, l.gl_account, max(l.gl_account_name), coalesce(g.category, 'Other'),
               g.category IS NOT NULL, round(sum(l.amount), 2), :source
        FROM yardi_raw.yardi_invoice_lines l
        JOIN month_snapshot ms ON ms.month = l.post_month AND ms.as_of_date = l.as_of_date
        LEFT JOIN temp.gl_account_category g ON g.account = l.gl_account
        WHERE l.property_id = :property
          AND (g.category IS NOT NULL OR l.gl_account GLOB '[678]*')
        GROUP BY l.post_month, l.gl_account
        """
}
