import OwnerDashCore
import XLSXKit

extension ReportType {
    /// Monthly Income Summary (a/r-709-001): income on a cash and a modified basis per charge/credit code.
    public static let monthlyIncomeSummary = ReportType(declaring: "monthly_income_summary")
}

/// Monthly Income Summary (OneSite `a/r-709-001`), a Crystal export.
///
/// **Charges/Credits**: one line per category and code (category, debit and credit G/L account, description) with
/// bank deposits, current-period NSFs, net bank deposits, paid from prior cash, paid from deposits applied, income
/// on a cash basis, paid from other credits, income on a modified basis, billings and credits; then adjustment
/// lines without a category (`Other Cash Adjustments`, which print bank deposits only and bring net bank deposits
/// to what the bank received), then `Charges/Credits Totals:` (the lines and the adjustments together).
/// **Summary**: one line per group (`Rent/Other`: bank deposits, current-period NSFs, net bank deposits, billings
/// and credits, deposits out) under a header of its own, then `Property Totals:` with its figures on the next row.
///
/// Values sit up to two columns beside their headers (see `PrintedColumns`). The report prints no period: the
/// loader dates it by the run (`--as-of`).
enum MonthlyIncomeSummaryReport {
    static let table = RawTable("realpage_monthly_income", since: 20, columns: [
        .read("category", .text, header: "Category", key: true),
        .read("debit_account", .text, header: "Debit Account"),
        .read("credit_account", .text, header: "Credit Account"),
        .read("description", .text, header: "Description"),
        .read("bank_deposits", .money, header: "Bank Deposits", summed: true),
        .read("current_period_nsfs", .money, header: "Current Period NSFs", summed: true),
        .read("net_bank_deposits", .money, header: "Net Bank Deposits", summed: true),
        .read("paid_from_prior_cash", .money, header: "Paid from Prior Cash", summed: true),
        .read("paid_from_deposits_applied", .money, header: "Paid from Deposits Applied", summed: true),
        .read("income_cash_basis", .money, header: "Income Cash Basis", key: true, summed: true),
        .read("paid_from_other_credits", .money, header: "Paid from Other Credits", summed: true),
        .read("income_modified_basis", .money, header: "Income Modified Basis", summed: true),
        .read("billings_and_credits", .money, header: "Billings & Credits", summed: true),
    ])

    /// Lines of the Charges/Credits section without a category (`Other Cash Adjustments`).
    static let adjustments = RawTable("realpage_monthly_income_adjustments", since: 20, columns: [
        .derived("description", .text, key: true),
        .derived("bank_deposits", .money),
        .derived("current_period_nsfs", .money),
        .derived("net_bank_deposits", .money),
    ])

    /// The Summary section's lines.
    static let summary = RawTable("realpage_monthly_income_groups", since: 20, columns: [
        .derived("description", .text, key: true),
        .derived("bank_deposits", .money),
        .derived("current_period_nsfs", .money),
        .derived("net_bank_deposits", .money),
        .derived("billings_and_credits", .money),
        .derived("deposits_out", .money),
    ])

    static let descriptor = ReportDescriptor(
        .monthlyIncomeSummary, "monthly income summary", titles: ["Monthly Income Summary"],
        codes: ["a/r-709-001"], table: table, childTables: [adjustments, summary],
        parser: MonthlyIncomeSummaryParser.self)

    static let amounts = table.columns.filter(\.summed)

    /// The Summary section's header texts (normalized) and the column each names.
    static let summaryHeaders = [("description", "description"), ("bank_deposits", "bankdeposits"),
                                 ("current_period_nsfs", "currentperiodnsfs"),
                                 ("net_bank_deposits", "netbankdeposits"),
                                 ("billings_and_credits", "billings&credits"), ("deposits_out", "depositsout")]
}

/// Reads the Monthly Income Summary; see `MonthlyIncomeSummaryReport`.
struct MonthlyIncomeSummaryParser: OneSiteReportParser {
    static var layouts: [HeaderLayout] {
        [MonthlyIncomeSummaryReport.table.layout(for: .monthlyIncomeSummary, name: "charges/credits")]
    }

    let header: HeaderMap
    let context: ParseContext
    private let reader: CrystalReader
    private let columns: PrintedColumns
    private var sums: [String: Money] = [:]
    private var inSummary = false
    private var summaryHeader: [String: Int] = [:]
    private var summarySums: [String: Money] = [:]
    /// `Property Totals:` printed alone, its figures on the row below.
    private var pendingTotal: (label: String, row: Int)?

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header.readingRowsAsPrinted
        self.context = context
        reader = CrystalReader(context: context)
        columns = PrintedColumns(header: header)
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        switch kind {
        case .label(let text) where HeaderText.key(text) == "summary":
            inSummary = true
            return true
        case .label, .continuation:
            if inSummary {
                for (column, cell) in row.cells.enumerated() {
                    if let text = cell.text, summaryHeader[HeaderText.key(text)] == nil {
                        summaryHeader[HeaderText.key(text)] = column
                    }
                }
            }
            return true
        case .total(let label, _):
            if inSummary {
                if CrystalReader.amountCells(of: row).isEmpty {
                    pendingTotal = (label, row.number)
                } else {
                    try checkSummaryTotals(row, label: label, labelRow: row.number)
                }
            } else {
                try checkLineTotals(row, label: label)
            }
            return true
        case .data:
            // `Charges/Credits Totals:` does not start like the total labels the classifier knows.
            if let label = row.cells.lazy.compactMap(\.text).first(where: { HeaderText.key($0).contains("totals") }) {
                if inSummary {
                    try checkSummaryTotals(row, label: HeaderText.display(label), labelRow: row.number)
                } else {
                    try checkLineTotals(row, label: HeaderText.display(label))
                }
                return true
            }
            if let pending = pendingTotal, !row.cells.contains(where: { cell in
                if case .text = cell { return !cell.isBlank && !cell.holdsValue } else { return false }
            }) {
                pendingTotal = nil
                try checkSummaryTotals(row, label: pending.label, labelRow: pending.row)
                return true
            }
            if inSummary {
                if let line = try summaryLine(row) { records.append(.row(line)) }
            } else {
                records.append(.row(try chargeLine(row)))
            }
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {
        if let pending = pendingTotal {
            context.warn("\"\(pending.label)\" (row \(pending.row)) prints no figures; not checked")
        }
    }

    private mutating func chargeLine(_ row: SheetRow) throws -> RawRow {
        let placed = columns.place(row)
        let category = reader.text(placed.cell("Category"))
        let table = category == nil ? MonthlyIncomeSummaryReport.adjustments : MonthlyIncomeSummaryReport.table
        var record = RawRow(table, sourceRow: row.number)
        if let category {
            record["category"] = .text(category)
            record["debit_account"] = RawValue(reader.text(placed.cell("Debit Account")))
            record["credit_account"] = RawValue(reader.text(placed.cell("Credit Account")))
            record["description"] = RawValue(reader.text(placed.cell("Description")))
        } else {
            // An adjustment line names itself in a text box of its own, wherever it was drawn.
            let description = reader.text(placed.cell("Description"))
                ?? row.cells.lazy.filter { !$0.holdsValue }.compactMap(reader.text).first
            record["description"] = .text(description ?? "(adjustment)")
        }
        for column in MonthlyIncomeSummaryReport.amounts {
            guard let spec = column.header else { continue }
            let amount = try reader.money(placed.cell(spec.name), row: row.number, column: spec.name)
            if category != nil {
                record[column.name] = RawValue(amount)
            } else if let amount {
                guard table.columns.contains(where: { $0.name == column.name }) else {
                    context.warn("adjustment line (row \(row.number)) prints \(amount) under \"\(spec.name)\", "
                        + "which adjustment lines are not read for; not stored")
                    continue
                }
                record[column.name] = .money(amount)
            }
            sums[column.name, default: .zero] += amount ?? .zero
        }
        if category != nil, record["income_cash_basis"] == .null { record["income_cash_basis"] = .money(.zero) }
        return record
    }

    private func checkLineTotals(_ row: SheetRow, label: String) throws {
        let placed = columns.place(row)
        for column in MonthlyIncomeSummaryReport.amounts {
            guard let spec = column.header else { continue }
            let printed = try reader.money(placed.cell(spec.name), row: row.number, column: spec.name,
                                           countsForMoneyGuard: false)
            context.crossCheck(column.name.replacingOccurrences(of: "_", with: " "),
                               computed: sums[column.name] ?? .zero, printed: printed, label: label, row: row.number)
        }
    }

    private var summaryColumns: PrintedColumns {
        PrintedColumns(MonthlyIncomeSummaryReport.summaryHeaders.compactMap { name, key in
            summaryHeader[key].map { (name, $0) }
        })
    }

    private mutating func summaryLine(_ row: SheetRow) throws -> RawRow? {
        let placed = summaryColumns.place(row)
        guard let description = reader.text(placed.cell("description"))
            ?? row.cells.lazy.filter({ !$0.holdsValue }).compactMap(reader.text).first else {
            context.warn("row \(row.number) in the Summary section has figures but no description; skipped")
            return nil
        }
        var record = RawRow(MonthlyIncomeSummaryReport.summary, sourceRow: row.number)
        record["description"] = .text(description)
        for (name, _) in MonthlyIncomeSummaryReport.summaryHeaders where name != "description" {
            let amount = try reader.money(placed.cell(name), row: row.number, column: name)
            record[name] = RawValue(amount)
            summarySums[name, default: .zero] += amount ?? .zero
        }
        return record
    }

    private func checkSummaryTotals(_ row: SheetRow, label: String, labelRow: Int) throws {
        let placed = summaryColumns.place(row)
        for (name, _) in MonthlyIncomeSummaryReport.summaryHeaders where name != "description" {
            let printed = try reader.money(placed.cell(name), row: row.number, column: name, countsForMoneyGuard: false)
            context.crossCheck(name.replacingOccurrences(of: "_", with: " "), computed: summarySums[name] ?? .zero,
                               printed: printed, label: label, row: labelRow)
        }
    }
}
