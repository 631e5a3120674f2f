import OwnerDashCore
import SQLiteKit

/// `ownerdash report expenses`: operating expenses per property, GL category × month (unified_expenses, read-only).
///
/// Definitions: an amount is Σ unified_expenses.amount of the property, category and month (the income statement's
/// expense lines, categories by `gl_categories`); a category's total is over the months shown. A month for which the
/// property has no statement synced is unknown (null, `-` in a table), never 0. A property whose sync found no
/// expense source is listed in `no_expense_source`, never shown as zeros.
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

    /// `start`: first month `YYYY-MM` (nil: the `months` months ending with the latest month synced).
    public static func run(database: Database, properties: [String], start: String?, months: Int) throws -> ExpenseReport {
        var sources: [String: String?] = [:]
        for row in try database.query("SELECT unified_property_id, expense_source FROM unified_properties") {
            sources[row[0].textValue ?? ""] = row[1].textValue
        }
        let withSource = properties.filter { sources[$0] != nil && sources[$0]! != nil }
        let first: String
        if let start {
            first = start
        } else {
            let latest = try withSource.compactMap { property in
                try database.scalar("SELECT max(month) FROM unified_expenses WHERE unified_property_id = :property",
                                    [":property": .text(property)])?.textValue
            }.max()
            first = Self.month(latest ?? "2000-01", adding: -(months - 1))
        }
        var report = ExpenseReport(months: (0..<months).map { Self.month(first, adding: $0) })
        report.noSource = properties.filter { !withSource.contains($0) }
        let rows = try database.prepare(Self.accountsSQL)
        for property in withSource {
            var byCategory: [String: [String: Int64]] = [:]
            var all: [String: Int64] = [:]
            var covered = Set<String>()
            for row in try rows.query([":property": .text(property), ":first": .text(report.months.first ?? first),
                                       ":last": .text(report.months.last ?? first)]) {
                let month = row[0].textValue ?? "", category = row[3].textValue ?? GLCategories.other
                let cents = row[4].integerValue ?? 0
                covered.insert(month)
                byCategory[category, default: [:]][month, default: 0] += cents
                all[month, default: 0] += cents
                report.accounts.append((property, month, row[1].textValue ?? "", row[2].textValue, category, cents))
            }
            report.covered[property] = covered
            for category in byCategory.keys.sorted() {
                report.lines.append(Line(property: property, category: category, cents: byCategory[category] ?? [:]))
            }
            report.lines.append(Line(property: property, category: nil, cents: all))
        }
        return report
    }

    static let accountsSQL = """
        SELECT month, gl_account, account_name, gl_category, CAST(round(amount * 100) AS INTEGER)
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
        let warnings = noSource.map { "\($0): no expense source synced for this property (left out, not shown as zeros)" }
        return MetricResult(metric: "expenses", parameters: parameters, tables: [main, detail, none], warnings: warnings)
    }
}
