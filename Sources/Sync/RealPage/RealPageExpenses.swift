import OwnerDashCore
import SQLiteKit

/// RealPage operating expenses: the Income Statement (realpage_income_statement) -> unified_expenses, one row per
/// month and GL account.
///
/// Rules:
/// - month = the statement's `fiscal_period` (title block Fiscal Period), else the month of its as-of date; per month
///   the latest snapshot is read (a re-run statement replaces the earlier one), and every month loaded is kept.
/// - An expense line is an account line under a heading section containing `EXPENSE` (`section`: `EXPENSES`,
///   `OPERATING EXPENSES`); a statement printed without headings counts accounts 6xxx-8xxx (`account_number`) as
///   expenses. Income, deposit and balance-sheet lines are not expenses.
/// - amount = `period_amount` as the statement counts it (positive = spent; a credit is negative), summed per
///   account; gl_account = `account_number`, account_name = `account_name`.
/// - gl_category: `gl_categories` of report_definitions.json over `GLCategories.defaults`, longest account prefix
///   wins; an account no prefix matches is `Other` with category_known = 0 and is listed as a sync warning.
///
/// The Monthly Transaction Summary is not an expense source: its codes are resident charges, credits and payments.
enum RealPageExpenses {
    static let source = "realpage: Income Statement"

    static let hasSnapshots = """
        SELECT EXISTS (SELECT 1 FROM realpage_raw.loaded_artifacts
                       WHERE property_id = :property AND report_type = 'income_statement')
        """

    /// Fills `temp.gl_account_category` (account -> category, NULL when unknown) for the property's accounts.
    static func fillAccountCategories(_ context: SyncContext) throws {
        try ExpenseAccountCategories.fill(context, accounts: accounts)
    }

    static let accounts = """
        SELECT DISTINCT account_number FROM realpage_raw.realpage_income_statement WHERE property_id = :property
        """

    static let insert = """
        WITH statement AS (
            SELECT i.*, coalesce(i.fiscal_period, substr(i.as_of_date, 1, 7)) AS month
            FROM realpage_raw.realpage_income_statement i
            WHERE i.property_id = :property AND i.period_amount IS NOT NULL
        ),
        latest AS (SELECT month, max(as_of_date) AS as_of_date FROM statement GROUP BY month)
        INSERT INTO unified_expenses (
            unified_property_id, month, gl_account, account_name, gl_category, category_known, amount, source)
        SELECT :property, s.month, s.account_number, max(s.account_name), coalesce(g.category, 'Other'),
               g.category IS NOT NULL, round(sum(s.period_amount), 2), :source
        FROM statement s
        JOIN latest l ON l.month = s.month AND l.as_of_date = s.as_of_date
        LEFT JOIN temp.gl_account_category g ON g.account = s.account_number
        WHERE upper(coalesce(s.section, '')) LIKE '%EXPENSE%'
           OR (s.section IS NULL AND s.account_number GLOB '[678]*')
        GROUP BY s.month, s.account_number
        """
}

/// GL accounts no `gl_categories` prefix names: counted as Other and listed, so the registry can name them.
enum UnknownGLAccounts {
    static func warnings(_ context: SyncContext) throws -> [SyncWarning] {
        try context.database.query(query, [":property": .text(context.property.key)]).map { row in
            let account = row[0].textValue ?? ""
            let name = row[1].textValue.map { " (\($0))" } ?? ""
            let months = row[2].integerValue ?? 0
            return SyncWarning(check: "gl_category", subject: account, expected: "a category", actual: GLCategories.other,
                               message: "GL account '\(account)'\(name) (\(months) month\(months == 1 ? "" : "s")) is in no "
                                   + "gl_categories prefix of report_definitions.json: counted as \(GLCategories.other)")
        }
    }

    static let query = """
        SELECT gl_account, max(account_name), count(*) FROM unified_expenses
        WHERE unified_property_id = :property AND category_known = 0
        GROUP BY gl_account ORDER BY gl_account
        """
}
