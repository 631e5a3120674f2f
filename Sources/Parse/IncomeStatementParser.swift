import OwnerDashCore
import XLSXKit

/// Income Statement (by GL account) and OneSite's Income Statement Worksheet (code `120.080.131`): one
/// `IncomeStatementRow` per GL account line.
///
/// **By-GL layout** (the accounting package's statement, [I] — no real file seen): an `Account` column (number, or
/// `5100-0001 - Market Rent`), an account name, the period's amount, and where printed YTD and budget columns,
/// often as two-row headers (`Current Period` / `Year to Date` merged over `Actual`, `Budget`, `Variance`).
/// **Worksheet layout** (real HTML export [V], bary249/NASAdash `backend/samples/income_statement_3836.xlsx`):
/// `Account | Sign | Amount`; the account cell is `5100-0001 - Market Rent` (or `PZ - Ending 0 to 30 Delinq`, a
/// transaction type instead of a GL number); the amount is printed unsigned and the Sign column says how it counts
/// (`+`, `-`); total lines carry `=`.
///
/// Headings are the text-only rows (`INCOME`, `  POTENTIAL INCOME`, `EXPENSES`, `Payroll`), nested by their
/// indent (leading blanks, or the column they start in); where no heading is indented (an HTML export reads without
/// its `&nbsp;` padding) a heading nests in the open one above it until a total closes it. section = the outermost
/// open heading; category = the innermost, when deeper than the section. A total line closes the heading it names (`Total Payroll` closes
/// `Payroll`, `NET MARKET RENT (5100-0001) AND OTHER INCOME` closes `MARKET RENT (5100-0001) AND OTHER INCOME`,
/// the words Total/Net/Plus/Less/Grand dropped) and is checked against the account lines under that heading; a
/// `Total ...` (or worksheet `=`) line naming no open heading is checked against the lines since the last heading
/// or total. Other account-less lines with amounts (`NET OPERATING INCOME`) are neither stored nor checked.
/// Differences are warnings. A heading with no account lines under it is not checked (the worksheet's deposit
/// section prints totals only).
///
/// Amounts are stored signed as they count towards the statement: worksheet `-` lines negative, `(5.00)` on a
/// `+` line negative. fiscal_period is the title block's `Fiscal Period` (`YYYY-MM`), else NULL.
///
/// | raw field (realpage_income_statement) | column | OneSite header texts |
/// |---|---|---|
/// | account_number, account_name | Account* | Account, Account Number, Account #, Acct, GL Account, G/L Account |
/// | account_name | Account Name | Account Name, Description, Account Description, Account Title |
/// | period_amount | Period* (by GL) | Period, Current Period, Current Period Actual, Month, Current Month, MTD, MTD Actual, Month to Date, Period to Date, PTD Actual |
/// | period_amount | Amount* with Sign* (worksheet) | Amount; Sign |
/// | ytd_amount | YTD | YTD, YTD Actual, Year to Date, Year to Date Actual |
/// | budget_amount | Budget | Budget, Period Budget, Current Period Budget, MTD Budget, Month Budget |
/// | ytd_budget_amount | YTD Budget | YTD Budget, Year to Date Budget |
/// | section, category | (heading rows) | |
///
/// `*` = required. Variance columns are recognised but not stored (they are differences of stored columns).
struct IncomeStatementParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .incomeStatement, name: "by GL", columns: [
            ColumnSpec("Account", .text, required: true,
                       synonyms: ["Account Number", "Account #", "Acct", "Acct #", "GL Account", "G/L Account",
                                  "GL Account Number", "G/L Account Number"]),
            ColumnSpec("Account Name", .text,
                       synonyms: ["Description", "Account Description", "Account Title", "GL Account Name"]),
            ColumnSpec("Period", .money, required: true,
                       synonyms: ["Current Period", "Current Period Actual", "Period Actual", "Month", "Month Actual",
                                  "Current Month", "MTD", "MTD Actual", "Month to Date", "Period to Date",
                                  "PTD Actual"]),
            ColumnSpec("Budget", .money, synonyms: ["Period Budget", "Current Period Budget", "MTD Budget",
                                                    "Month Budget"]),
            ColumnSpec("Variance", .text, synonyms: ["Current Period Variance", "MTD Variance", "Period Variance"]),
            ColumnSpec("YTD", .money, synonyms: ["YTD Actual", "Year to Date", "Year to Date Actual"]),
            ColumnSpec("YTD Budget", .money, synonyms: ["Year to Date Budget"]),
            ColumnSpec("YTD Variance", .text, synonyms: ["Year to Date Variance"]),
        ]),
        HeaderLayout(report: .incomeStatement, name: "worksheet", columns: [
            ColumnSpec("Account", .text, required: true),
            ColumnSpec("Sign", .text, required: true),
            ColumnSpec("Amount", .money, required: true),
        ]),
    ]

    /// Sums of account lines (signed), and how many lines went into them.
    private struct Amounts {
        var period = Money.zero, ytd = Money.zero, budget = Money.zero, ytdBudget = Money.zero
        var lines = 0

        mutating func add(_ row: IncomeStatementRow) {
            period += row.periodAmount ?? .zero; ytd += row.ytdAmount ?? .zero
            budget += row.budgetAmount ?? .zero; ytdBudget += row.ytdBudgetAmount ?? .zero
            lines += 1
        }
    }

    private struct Heading {
        let name: String
        let key: String
        let depth: Int
        var sums = Amounts()
    }

    /// Leading words of a total line that do not belong to the heading it closes.
    static let totalWords: Set<String> = ["total", "totals", "subtotal", "subtotals", "net", "plus", "less", "grand"]

    let header: HeaderMap
    let context: ParseContext
    let worksheet: Bool
    private var headings: [Heading] = []
    /// Account lines since the last heading or total line: what a total naming no heading adds up.
    private var sinceBreak = Amounts()
    /// Whether headings show their nesting by indent (leading blanks or a column further right).
    private var indented = false

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context; self.worksheet = layoutIndex == 1
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .continuation:
            // Text right of the first column: a wrapped account name, not a heading.
            return true
        case .label(let text):
            let depth = Self.depth(of: row)
            if depth > 0 { indented = true }
            // Without indents (HTML exports lose the &nbsp; padding) a heading nests in the one above it until a
            // total closes it.
            while indented, let last = headings.last, last.depth >= depth { headings.removeLast() }
            let name = Self.collapsed(text)
            headings.append(Heading(name: name, key: HeaderText.key(name), depth: depth))
            sinceBreak = Amounts()
            return true
        case .total(let label, _):
            try closeTotal(label: label, row: row, inline: true)
            return true
        case .data:
            guard let account = view.text("Account").map(Self.collapsed) else { return true }
            if worksheet {
                let sign = view.text("Sign") ?? ""
                if sign == "=" {
                    try closeTotal(label: account, row: row, inline: true)
                    return true
                }
                let amount = try view.money("Amount")
                let (number, name) = Self.split(account)
                append(IncomeStatementRow(
                    section: headings.first?.name, category: category, accountNumber: number, accountName: name,
                    periodAmount: sign == "-" ? amount.map { -$0 } : amount,
                    fiscalPeriod: context.title.fiscalPeriod, sourceRow: row.number), into: &records)
            } else {
                guard account.first?.isASCIIDigit == true else {
                    // `NET OPERATING INCOME`: checked only when it names an open heading.
                    try closeTotal(label: account, row: row, inline: false)
                    return true
                }
                let (number, splitName) = Self.split(account)
                append(IncomeStatementRow(
                    section: headings.first?.name, category: category, accountNumber: number,
                    accountName: view.text("Account Name").map(Self.collapsed) ?? splitName,
                    periodAmount: try view.money("Period"), ytdAmount: try view.money("YTD"),
                    budgetAmount: try view.money("Budget"), ytdBudgetAmount: try view.money("YTD Budget"),
                    fiscalPeriod: context.title.fiscalPeriod, sourceRow: row.number), into: &records)
            }
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}

    private var category: String? { headings.count > 1 ? headings.last?.name : nil }

    private mutating func append(_ record: IncomeStatementRow, into records: inout [ReportRecord]) {
        for index in headings.indices { headings[index].sums.add(record) }
        sinceBreak.add(record)
        records.append(.incomeStatement(record))
    }

    /// Checks a total line against the heading it names (closing it), else, when `inline`, against the lines since
    /// the last break.
    private mutating func closeTotal(label: String, row: SheetRow, inline: Bool) throws {
        let totals = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
        let words = label.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "/" && $0 != "&" }
        let stripped = HeaderText.key(words.drop { Self.totalWords.contains(String($0)) }.joined(separator: " "))
        let key = HeaderText.key(label)
        defer { sinceBreak = Amounts() }
        if let index = headings.lastIndex(where: { $0.key == key || $0.key == stripped }) {
            let sums = headings[index].sums
            headings.removeSubrange(index...)
            if sums.lines > 0 { try compare(sums, totals, label: label) }
        } else if inline, sinceBreak.lines > 0 {
            try compare(sinceBreak, totals, label: label)
        }
    }

    private func compare(_ sums: Amounts, _ totals: RowView, label: String) throws {
        let row = totals.number
        if worksheet {
            context.crossCheck("amount", computed: sums.period, printed: try totals.money("Amount"), label: label,
                               row: row)
            return
        }
        context.crossCheck("period amount", computed: sums.period, printed: try totals.money("Period"), label: label,
                           row: row)
        context.crossCheck("YTD amount", computed: sums.ytd, printed: try totals.money("YTD"), label: label, row: row)
        context.crossCheck("budget", computed: sums.budget, printed: try totals.money("Budget"), label: label, row: row)
        context.crossCheck("YTD budget", computed: sums.ytdBudget, printed: try totals.money("YTD Budget"),
                           label: label, row: row)
    }

    /// A heading's nesting: the column it starts in, then its leading blanks (the worksheet indents with spaces).
    static func depth(of row: SheetRow) -> Int {
        guard let column = row.cells.firstIndex(where: { !$0.isBlank }),
              case .text(let raw) = row.cells[column] else { return 0 }
        return column * 1000 + raw.unicodeScalars.prefix { $0.isSpaceLike }.count
    }

    /// Whitespace runs (the worksheet pads with no-break spaces) collapsed to one space.
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `5100-0001 - Market Rent` -> (`5100-0001`, `Market Rent`); text without ` - ` is all number.
    static func split(_ account: String) -> (String, String?) {
        guard let range = account.range(of: " - ") else { return (account, nil) }
        let name = account[range.upperBound...].trimmingWhitespace
        return (String(account[..<range.lowerBound]), name.isEmpty ? nil : String(name))
    }
}
