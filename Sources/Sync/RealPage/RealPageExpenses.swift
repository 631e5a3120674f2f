import OwnerDashCore
import SQLiteKit

/// RealPage operating expenses and income per fiscal period: the Income Statement (realpage_income_statement), the
/// Monthly Income Summary (realpage_monthly_income) and the Cash Basis G/L Distribution (realpage_cash_basis_gl) ->
/// unified_expenses and unified_income, one row per month and GL account.
///
/// **One report per month.** Each month (`YYYY-MM`) is read from one report, the first of these that covers it:
///
/// | rank | report | expenses | income | month it covers |
/// | --- | --- | --- | --- | --- |
/// | 1 | Income Statement | lines under an `EXPENSE` heading | lines under an `INCOME` / `REVENUE` heading | title block `Fiscal Period`, else the as-of month |
/// | 2 | Monthly Income Summary | — (prints income only) | `income_cash_basis` per charge code | the as-of month (it prints no period: the run's date) |
/// | 3 | Cash Basis G/L Distribution | batch lines on 6xxx-8xxx accounts, debit − credit | batch lines on 4xxx-5xxx accounts, credit − debit | the batch's period-control number (`02/2026-998` = 2026-02), else its date of distribution |
///
/// The Income Statement wins because it is the whole month on the books (accrual, every account); the Monthly
/// Income Summary is the month's income by charge code but no expense; the Cash Basis G/L holds only the cash the
/// batches it lists moved (a one-day run is one day's receipts), so it fills a month nothing else covers. A month
/// is never added up from two reports: expenses of month M come from the best-ranked report covering M among those
/// with expense lines (Income Statement, Cash Basis G/L), income from the best-ranked among all three.
///
/// An incremental sync computes only the months the snapshots loaded since the last sync cover (RealPageExpenseMonths).
///
/// Within one report:
/// - Income Statement and Monthly Income Summary: per month, the latest snapshot (a re-run replaces the earlier).
/// - Cash Basis G/L: every snapshot loaded; each batch (period-control number) from the latest snapshot listing it,
///   so overlapping daily runs do not count a batch twice.
/// - Income Statement lines: an account line under a heading section containing `EXPENSE` is an expense; under one
///   containing `INCOME` or `REVENUE` (and not `EXPENSE`) income; a statement printed without headings counts accounts
///   6xxx-8xxx as expenses and 4xxx-5xxx as income. amount = `period_amount` as the statement counts it (expenses
///   positive = spent; income positive = earned, a concession or loss line negative). Deposit, delinquency and
///   balance-sheet lines are neither.
/// - Monthly Income Summary: every charge/credit code line, as the report counts income on a cash basis: gl_account =
///   the code's `credit_account` (the account it posts to), else its description; account_name = the codes'
///   `description`s; amount = `income_cash_basis` (the report's own income column, held against its
///   `Charges/Credits Totals:`). A payment code crediting prepaid rent (2xxx, as in the real download: `PZ`
///   payments to 2200-0001) is cash received, income on a cash basis, and keeps its account, so the owner sees where
///   it went (category `Prepaid & Unapplied Cash`). Adjustment lines (no category) move bank deposits only: no income.
///
/// gl_category: expenses by `gl_categories` of report_definitions.json over `GLCategories.defaults` (longest account
/// prefix; an account no prefix matches is `Other`, category_known = 0, listed as a sync warning). Income by the same
/// `gl_categories` when it names the account, else `Rental Income` (51xx, 41xx), `Prepaid & Unapplied Cash` (2xxx,
/// Monthly Income Summary codes only) or `Other Income`. account_name = the line names of the account, comma-joined.
///
/// source = the report (`realpage: Income Statement`, ...), source_report = its loaded_artifacts.report_type and
/// source_as_of = the snapshot read, which the `income_expense_totals` sync check holds against that snapshot's
/// printed totals. The Monthly Transaction Summary is not a source: its codes are resident charges, credits and
/// payments, not the property's income and expense accounts.
enum RealPageExpenses {
    static let source = "realpage: Income Statement + Cash Basis G/L Distribution"
    static let incomeSource = "realpage: Income Statement + Monthly Income Summary + Cash Basis G/L Distribution"

    /// Each report's name in unified rows, by loaded_artifacts.report_type.
    static let reportSources: [String: SQLValue] = [
        ":income_statement_source": .text("realpage: Income Statement"),
        ":monthly_income_source": .text("realpage: Monthly Income Summary"),
        ":cash_basis_source": .text("realpage: Cash Basis G/L Distribution"),
    ]

    static let hasSnapshots = """
        SELECT EXISTS (SELECT 1 FROM realpage_raw.loaded_artifacts
                       WHERE property_id = :property AND report_type IN ('income_statement', 'cash_basis_gl'))
        """

    static let hasIncomeSnapshots = """
        SELECT EXISTS (SELECT 1 FROM realpage_raw.loaded_artifacts
                       WHERE property_id = :property
                         AND report_type IN ('income_statement', 'monthly_income_summary', 'cash_basis_gl'))
        """

    /// Fills `temp.gl_account_category` (account -> category, NULL when unknown) for the property's accounts.
    static func fillAccountCategories(_ context: SyncContext) throws {
        try ExpenseAccountCategories.fill(context, accounts: accounts)
    }

    /// `temp.gl_income_category`.
    static let incomeCategoryTable = ScratchTable(name: "gl_income_category",
                                                  shape: .definition("(account TEXT PRIMARY KEY, category TEXT NOT NULL)"))

    /// Fills `temp.gl_income_category` (account -> income category) for the property's accounts.
    static func fillIncomeCategories(_ context: SyncContext) throws {
        let database = context.database
        try TempTables.empty(incomeCategoryTable, in: database)
        let insert = try database.prepare("INSERT INTO temp.gl_income_category (account, category) VALUES (:account, :category)")
        for row in try database.query(incomeAccounts, [":property": .text(context.property.key)]) {
            guard let account = row[0].textValue else { continue }
            try insert.execute([":account": .text(account),
                                ":category": .text(context.glCategories.category(of: account) ?? incomeCategory(of: account))])
        }
    }

    /// The income category of an account `gl_categories` does not name: rent (51xx, or 41xx in charts that put
    /// revenue in 4xxx); cash a Monthly Income Summary code credits to a liability (2xxx: a payment held as prepaid
    /// rent, income on a cash basis but not yet on the books); else other income.
    static func incomeCategory(of account: String) -> String {
        let digits = GLCategories.digits(account)
        if digits.hasPrefix("51") || digits.hasPrefix("41") { return "Rental Income" }
        if digits.hasPrefix("2") { return "Prepaid & Unapplied Cash" }
        return "Other Income"
    }

    static let accounts = """
        SELECT DISTINCT account_number FROM realpage_raw.realpage_income_statement WHERE property_id = :property
        UNION SELECT DISTINCT gl_account FROM realpage_raw.realpage_cash_basis_gl WHERE property_id = :property
        """

    static let incomeAccounts = """
        SELECT account_number FROM realpage_raw.realpage_income_statement WHERE property_id = :property
        UNION SELECT gl_account FROM realpage_raw.realpage_cash_basis_gl WHERE property_id = :property
        UNION SELECT coalesce(credit_account, description, category) FROM realpage_raw.realpage_monthly_income
        WHERE property_id = :property
        """

    /// Every candidate line of every report, as (report, rank, month, snapshot, kind, account, name, amount); by
    /// month (RealPageExpenseMonths) the Income Statement's and Monthly Income Summary's of `temp.changed_months`
    /// alone (the Cash Basis G/L's batches are placed across every snapshot: their lines are kept to those months by
    /// the inserts).
    static func lines(byMonth: Bool) -> String {
        let statementMonths = byMonth ? "\n              AND coalesce(i.fiscal_period, substr(i.as_of_date, 1, 7)) IN (SELECT month FROM temp.changed_months)" : ""
        let monthlyMonths = byMonth ? " AND substr(m.as_of_date, 1, 7) IN (SELECT month FROM temp.changed_months)" : ""
        return """
        statement AS (
            SELECT i.*, coalesce(i.fiscal_period, substr(i.as_of_date, 1, 7)) AS month
            FROM realpage_raw.realpage_income_statement i
            WHERE i.property_id = :property AND i.period_amount IS NOT NULL\(statementMonths)
        ),
        statement_snapshot AS (SELECT month, max(as_of_date) AS as_of_date FROM statement GROUP BY month),
        monthly AS (
            SELECT m.*, substr(m.as_of_date, 1, 7) AS month FROM realpage_raw.realpage_monthly_income m
            WHERE m.property_id = :property\(monthlyMonths)
        ),
        monthly_snapshot AS (SELECT month, max(as_of_date) AS as_of_date FROM monthly GROUP BY month),
        cash AS (
            SELECT g.*,
                   CASE WHEN g.batch GLOB '[01][0-9]/[12][0-9][0-9][0-9]*'
                        THEN substr(g.batch, 4, 4) || '-' || substr(g.batch, 1, 2)
                        ELSE substr(coalesce(g.distribution_date, g.as_of_date), 1, 7) END AS month
            FROM realpage_raw.realpage_cash_basis_gl g
            WHERE g.property_id = :property
        ),
        cash_batch AS (SELECT batch, max(as_of_date) AS as_of_date FROM cash GROUP BY batch),
        line (report, rank, month, as_of_date, kind, account, name, amount) AS (
            SELECT 'income_statement', 1, s.month, s.as_of_date,
                   CASE WHEN upper(coalesce(s.section, '')) LIKE '%EXPENSE%' THEN 'expense'
                        WHEN upper(coalesce(s.section, '')) LIKE '%INCOME%'
                          OR upper(coalesce(s.section, '')) LIKE '%REVENUE%' THEN 'income'
                        WHEN s.section IS NULL AND s.account_number GLOB '[678]*' THEN 'expense'
                        WHEN s.section IS NULL AND s.account_number GLOB '[45]*' THEN 'income' END,
                   s.account_number, s.account_name, s.period_amount
            FROM statement s JOIN statement_snapshot p ON p.month = s.month AND p.as_of_date = s.as_of_date
            UNION ALL
            SELECT 'monthly_income_summary', 2, m.month, m.as_of_date, 'income',
                   coalesce(m.credit_account, m.description, m.category), m.description, m.income_cash_basis
            FROM monthly m JOIN monthly_snapshot p ON p.month = m.month AND p.as_of_date = m.as_of_date
            UNION ALL
            SELECT 'cash_basis_gl', 3, c.month, c.as_of_date,
                   CASE WHEN c.gl_account GLOB '[678]*' THEN 'expense' WHEN c.gl_account GLOB '[45]*' THEN 'income' END,
                   c.gl_account, c.gl_description,
                   CASE WHEN c.gl_account GLOB '[678]*' THEN coalesce(c.debit, 0) - coalesce(c.credit, 0)
                        ELSE coalesce(c.credit, 0) - coalesce(c.debit, 0) END
            FROM cash c JOIN cash_batch p ON p.batch = c.batch AND p.as_of_date = c.as_of_date
        ),
        -- Which reports cover a month: any snapshot of it, lines of this kind or not (an Income Statement without
        -- expense lines still says the month had none).
        coverage (report, rank, month) AS (
            SELECT 'income_statement', 1, month FROM statement_snapshot
            UNION ALL SELECT 'monthly_income_summary', 2, month FROM monthly_snapshot
            UNION ALL SELECT DISTINCT 'cash_basis_gl', 3, month FROM cash
        )
        """
    }

    static func sourceName(_ report: String) -> String {
        """
        CASE \(report) WHEN 'income_statement' THEN :income_statement_source
                       WHEN 'monthly_income_summary' THEN :monthly_income_source
                       ELSE :cash_basis_source END
        """
    }

    static let insert = insert(byMonth: false)

    /// The expense lines, every month's or by month (RealPageExpenseMonths) those of `temp.changed_months`.
    static func insert(byMonth: Bool) -> String {
        """
        WITH \(lines(byMonth: byMonth)),
        winner AS (SELECT month, min(rank) AS rank FROM coverage WHERE report <> 'monthly_income_summary' GROUP BY month)
        INSERT INTO unified_expenses (
            unified_property_id, month, gl_account, account_name, gl_category, category_known, amount, source,
            source_report, source_as_of)
        SELECT :property, l.month, l.account, max(l.name), coalesce(g.category, 'Other'), g.category IS NOT NULL,
               round(sum(l.amount), 2), \(sourceName("l.report")), l.report, max(l.as_of_date)
        FROM line l
        JOIN winner w ON w.month = l.month AND w.rank = l.rank
        LEFT JOIN temp.gl_account_category g ON g.account = l.account
        WHERE l.kind = 'expense'\(byMonth ? " AND l.month IN (SELECT month FROM temp.changed_months)" : "")
        GROUP BY l.month, l.account
        """
    }

    static let insertIncome = insertIncome(byMonth: false)

    /// The income lines, every month's or by month (RealPageExpenseMonths) those of `temp.changed_months`.
    static func insertIncome(byMonth: Bool) -> String {
        """
        WITH \(lines(byMonth: byMonth)),
        winner AS (SELECT month, min(rank) AS rank FROM coverage GROUP BY month)
        INSERT INTO unified_income (
            unified_property_id, month, gl_account, account_name, gl_category, amount, source, source_report,
            source_as_of)
        SELECT :property, l.month, l.account, group_concat(DISTINCT l.name), coalesce(g.category, 'Other Income'),
               round(sum(l.amount), 2), \(sourceName("l.report")), l.report, max(l.as_of_date)
        FROM line l
        JOIN winner w ON w.month = l.month AND w.rank = l.rank
        LEFT JOIN temp.gl_income_category g ON g.account = l.account
        WHERE l.kind = 'income' AND l.account IS NOT NULL AND l.amount IS NOT NULL\(byMonth ? " AND l.month IN (SELECT month FROM temp.changed_months)" : "")
        GROUP BY l.month, l.account
        """
    }
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
