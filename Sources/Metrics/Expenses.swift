import OwnerDashCore
import SQLiteKit

/// `ownerdash report expenses`: operating expenses per property, GL category × month (unified_expenses, read-only),
/// and where income is synced (unified_income, RealPage only) income and net operating income per month.
///
/// Definitions: an amount is Σ unified_expenses.amount of the property, category and month (the income statement's
/// expense lines, categories by `gl_categories`); a category's total is over the months shown. A month for which the
/// property has no statement synced is unknown (null, `-` in a table), never 0. A property whose sync found no
/// expense source is listed in `no_expense_source`, never shown as zeros. Income = Σ unified_income.amount of the
/// month; net operating income = income − expenses, only for a month both are synced for (else null). `sources`
/// names, per property and month, the report each came from (one report per month: RealPageExpenses).
public struct ExpenseReport: Sendable {
    /// One property's amounts of one category (nil category: all categories), in cents per month.
    public struct Line: Sendable, Equatable {
        public var property: String
        public var category: String?
        /// Month -> cents; a month absent from `months` of the property is unknown.
        public var cents: [String: Int64]
    }

    public var months: [String]
    public var lines: [Line] = []
    /// Property -> the months with a statement synced.
    public var covered: [String: Set<String>] = [:]
    /// Every account line, for the detailed formats: property, month, account, name, category, cents.
    public var accounts: [(property: String, month: String, account: String, name: String?, category: String, cents: Int64)] = []
    public var noSource: [String] = []
    /// Property -> month -> income in cents (properties with an income source only; a month absent is unknown).
    public var income: [String: [String: Int64]] = [:]
    /// Per property and month shown: the report the expenses and the income came from.
    public var sources: [(property: String, month: String, expenses: String?, income: String?)] = []

    /// `start`: first month `YYYY-MM` (nil: the `months` months ending with the latest month synced, of expenses or
    /// income). `months` nil: every month from `start` (else the first month synced) to the latest month synced.
    public static func run(database: Database, properties: [String], start: String?, months: Int?) throws -> ExpenseReport {
        var sources: [String: String?] = [:]
        try database.prepare("SELECT unified_property_id, expense_source FROM unified_properties").forEachRow { row in
            sources[row.text("unified_property_id") ?? ""] = row.text("expense_source")
        }
        let withSource = properties.filter { sources[$0] != nil && sources[$0]! != nil }
        // The months synced, of expenses or income (a month of income alone is a month the owner can read).
        let synced = try properties.compactMap { property -> (String, String)? in
            let range = try database.rows("""
                SELECT min(month) AS first, max(month) AS last FROM (
                    SELECT month FROM unified_expenses WHERE unified_property_id = :property
                    UNION ALL SELECT month FROM unified_income WHERE unified_property_id = :property)
                """, [":property": .text(property)]) { (low: $0.text("first"), high: $0.text("last")) }.first
            guard let low = range?.low, let high = range?.high else { return nil }
            return (low, high)
        }
        let latest = synced.map(\.1).max()
        let first: String
        if let start {
            first = start
        } else if let months {
            first = Self.month(latest ?? "2000-01", adding: -(months - 1))
        } else {
            first = synced.map(\.0).min() ?? latest ?? "2000-01"
        }
        let count = months ?? max(1, Self.distance(from: first, to: latest ?? first) + 1)
        var report = ExpenseReport(months: (0..<count).map { Self.month(first, adding: $0) })
        report.noSource = properties.filter { !withSource.contains($0) }
        let rows = try database.prepare(Self.accountsSQL)
        // Every GL line of every month shown: the columns are looked up by name once, not per line.
        let column = (month: rows.columnIndex("month"), account: rows.columnIndex("gl_account"),
                      name: rows.columnIndex("account_name"), category: rows.columnIndex("gl_category"),
                      cents: rows.columnIndex("cents"))
        for property in withSource {
            var byCategory: [String: [String: Int64]] = [:]
            var all: [String: Int64] = [:]
            var covered = Set<String>()
            try rows.forEachRow([":property": .text(property), ":first": .text(report.months.first ?? first),
                                 ":last": .text(report.months.last ?? first)]) { row in
                let month = row.text(at: column.month) ?? "", category = row.text(at: column.category) ?? GLCategories.other
                let cents = Int64(row.int(at: column.cents) ?? 0)
                covered.insert(month)
                byCategory[category, default: [:]][month, default: 0] += cents
                all[month, default: 0] += cents
                report.accounts.append((property, month, row.text(at: column.account) ?? "", row.text(at: column.name),
                                        category, cents))
            }
            report.covered[property] = covered
            for category in byCategory.keys.sorted() {
                report.lines.append(Line(property: property, category: category, cents: byCategory[category] ?? [:]))
            }
            report.lines.append(Line(property: property, category: nil, cents: all))
        }
        let range: [String: SQLValue] = [":first": .text(report.months.first ?? first),
                                         ":last": .text(report.months.last ?? first)]
        var incomeSources = Set<String>()
        try database.prepare("SELECT unified_property_id FROM unified_properties WHERE income_source IS NOT NULL").forEachRow {
            if let property = $0.text("unified_property_id") { incomeSources.insert(property) }
        }
        let incomeRows = try database.prepare(Self.incomeSQL)
        let sourceRows = try database.prepare(Self.sourcesSQL)
        for property in properties {
            let parameters = range.merging([":property": .text(property)]) { $1 }
            if incomeSources.contains(property) {
                var byMonth: [String: Int64] = [:]
                try incomeRows.forEachRow(parameters) { row in
                    byMonth[row.text("month") ?? ""] = Int64(row.int("cents") ?? 0)
                }
                report.income[property] = byMonth
            }
            try sourceRows.forEachRow(parameters) { row in
                report.sources.append((property, row.text("month") ?? "", row.text("expense_source"),
                                       row.text("income_source")))
            }
        }
        return report
    }

    static let incomeSQL = """
        SELECT month, sum(CAST(round(amount * 100) AS INTEGER)) AS cents FROM unified_income
        WHERE unified_property_id = :property AND month BETWEEN :first AND :last GROUP BY month
        """

    static let sourcesSQL = """
        WITH expense AS (SELECT month, min(source) AS source FROM unified_expenses
                         WHERE unified_property_id = :property AND month BETWEEN :first AND :last GROUP BY month),
             income AS (SELECT month, min(source) AS source FROM unified_income
                        WHERE unified_property_id = :property AND month BETWEEN :first AND :last GROUP BY month)
        SELECT month, e.source AS expense_source, i.source AS income_source FROM expense e LEFT JOIN income i USING (month)
        UNION
        SELECT month, NULL, i.source FROM income i WHERE month NOT IN (SELECT month FROM expense)
        ORDER BY 1
        """

    /// Months from `first` to `last` (`YYYY-MM`), negative when `last` is earlier.
    static func distance(from first: String, to last: String) -> Int {
        func index(_ month: String) -> Int {
            let parts = month.split(separator: "-").compactMap { Int($0) }
            return parts.count == 2 ? parts[0] * 12 + parts[1] - 1 : 0
        }
        return index(last) - index(first)
    }

    static let accountsSQL = """
        SELECT month, gl_account, account_name, gl_category, CAST(round(amount * 100) AS INTEGER) AS cents
        FROM unified_expenses
        WHERE unified_property_id = :property AND month BETWEEN :first AND :last
        ORDER BY month, gl_category, gl_account
        """

    /// `YYYY-MM` moved by `months` (may be negative).
    public static func month(_ month: String, adding months: Int) -> String {
        let parts = month.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 2 else { return month }
        let index = parts[0] * 12 + (parts[1] - 1) + months
        let year = index / 12, number = index % 12 + 1
        return "\(year)-\(number < 10 ? "0" : "")\(number)"
    }
}

extension ExpenseReport {
    /// The report for the writers: per property, one line per GL category and an all-categories line, one column per
    /// month and the total over the months; then every account line (`accounts`) and the properties without a source.
    public func result(parameters: [MetricResult.Parameter]) -> MetricResult {
        func money(_ cents: Int64?) -> SQLValue { cents.map { .real(Double($0) / 100) } ?? .null }
        var portfolio: [String: Int64] = [:]
        let rows: [[SQLValue]] = lines.map { line in
            let covered = self.covered[line.property] ?? []
            var cells: [SQLValue] = [.text(line.property), .text(line.category ?? "All categories")]
            var total: Int64 = 0
            for month in months {
                if covered.contains(month) {
                    let cents = line.cents[month] ?? 0
                    cells.append(money(cents))
                    total += cents
                    if line.category == nil { portfolio[month, default: 0] += cents }
                } else {
                    cells.append(.null)
                }
            }
            cells.append(covered.isDisjoint(with: months) ? .null : money(total))
            return cells
        }
        let columns: [MetricResult.Column] = [.init("property", .text), .init("gl_category", .text)]
            + months.map { .init($0, .money) } + [.init("total", .money)]
        let coveredAny = Set(covered.values.flatMap { $0 })
        let withSource = Set(lines.map(\.property))
        let total: [SQLValue]? = withSource.count > 1
            ? [.text("portfolio"), .text("All categories")]
                + months.map { coveredAny.contains($0) ? money(portfolio[$0] ?? 0) : .null }
                + [money(portfolio.values.reduce(0, +))]
            : nil
        let main = MetricTable(name: "rows", title: "Operating expenses by GL category, \(months.first ?? "") to \(months.last ?? "")",
                               columns: columns, rows: rows, total: total)
        let detail = MetricTable(
            name: "accounts", title: "GL accounts",
            columns: [.init("property", .text), .init("month", .month), .init("gl_account", .text),
                      .init("account_name", .text), .init("gl_category", .text), .init("amount", .money)],
            rows: accounts.map { [.text($0.property), .text($0.month), .text($0.account), SQLValue($0.name),
                                  .text($0.category), money($0.cents)] })
        let none = MetricTable(name: "no_expense_source", title: "Properties without an expense source (not shown as zeros)",
                               columns: [.init("property", .text)], rows: noSource.map { [.text($0)] })
        // Income, expenses and net operating income of the properties with an income source; a month either side
        // lacks is null, never 0.
        var operatingRows: [[SQLValue]] = []
        for property in income.keys.sorted() {
            let incomeCents = income[property] ?? [:]
            let expenseCents = lines.first { $0.property == property && $0.category == nil }?.cents
            let expenseMonths = covered[property] ?? []
            func row(_ name: String, _ value: (String) -> Int64?) -> [SQLValue] {
                let values = months.map(value)
                let known = values.compactMap { $0 }
                return [.text(property), .text(name)] + values.map(money) + [known.isEmpty ? .null : money(known.reduce(0, +))]
            }
            operatingRows.append(row("Income") { incomeCents[$0] })
            operatingRows.append(row("Expenses") { expenseMonths.contains($0) ? expenseCents?[$0] ?? 0 : nil })
            operatingRows.append(row("Net operating income") { month in
                guard let earned = incomeCents[month], expenseMonths.contains(month) else { return nil }
                return earned - (expenseCents?[month] ?? 0)
            })
        }
        let operating = MetricTable(
            name: "operating", title: "Income, expenses and net operating income (properties with an income source)",
            columns: [.init("property", .text), .init("line", .text)] + months.map { .init($0, .money) }
                + [.init("total", .money)],
            rows: operatingRows)
        let sourceTable = MetricTable(
            name: "sources", title: "Where each month came from",
            columns: [.init("property", .text), .init("month", .month), .init("expenses_from", .text),
                      .init("income_from", .text)],
            rows: sources.map { [.text($0.property), .text($0.month), SQLValue($0.expenses), SQLValue($0.income)] })
        let warnings = noSource.map { "\($0): no expense source synced for this property (left out, not shown as zeros)" }
        return MetricResult(metric: "expenses", parameters: parameters,
                            tables: [main, detail, none, operating, sourceTable], warnings: warnings)
    }
}
