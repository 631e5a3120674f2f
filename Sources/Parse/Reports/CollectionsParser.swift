import OwnerDashCore
import XLSXKit

extension ReportType {
    /// Collections Report (120-080-129): moved-out and former accounts with their ledger and deposit balances.
    public static let collections = ReportType(declaring: "collections")
}

/// Collections Report (OneSite `120-080-129`), a Crystal export: per account a name line (Bldg/Unit, Name) and a
/// figures line (status; ledger balance forward, total charges, payments, credits, write-offs, ending ledger
/// balance, balance with write-offs; deposit balance forward, net change, ending balance; account end date, last
/// payment date, final FAS date; `X` under In Coll. and Under Pmt Agmt), then `Totals:` (the ten amounts, then the
/// number of accounts in collections and under a payment agreement).
///
/// The header is printed in two blocks nine rows apart: Bldg/Unit, Name, Final FAS Completed Date, In Coll., Under
/// Pmt Agmt, Avg. Score* on top (the header the report is found by), the ledger and deposit columns under
/// `Ledger` / `Deposit Ledger` further down (read from the first row after the header that prints them). Both
/// `Balance Forward` and `Ending Ledger Balance` print twice: ledger first, deposits second.
///
/// The ten amounts print on every figures line and on `Totals:` in the same order, but `Totals:` draws the deposit
/// figures a column left of the accounts' (see `PrintedColumns`): they are read in order, dates and flags by the
/// nearest header.
enum CollectionsReport {
    static let table = RawTable("realpage_collections", since: 20, columns: [
        .read("unit_number", .text, header: "Bldg/Unit", synonyms: ["Unit"], key: true),
        .read("resident_name", .text, header: "Name", key: true),
        .read("status", .text, header: "Status"),
        .read("balance_forward", .money, header: "Balance Forward", summed: true),
        .read("total_charges", .money, header: "Total Charges", summed: true),
        .read("total_payments", .money, header: "Total Payments", summed: true),
        .read("total_credits", .money, header: "Total Credits", summed: true),
        .read("total_write_offs", .money, header: "Total Write-offs", summed: true),
        .read("ending_balance", .money, header: "Ending Ledger Balance", summed: true),
        .read("balance_with_write_offs", .money, header: "Balance With Write-offs", summed: true),
        .read("deposit_balance_forward", .money, header: "Deposit Balance Forward", synonyms: ["Balance Forward"],
              summed: true),
        .read("deposit_net_change", .money, header: "Deposits Net Change", summed: true),
        .read("deposit_ending_balance", .money, header: "Deposit Ending Ledger Balance",
              synonyms: ["Ending Ledger Balance"], summed: true),
        .read("account_end_date", .date, header: "Account End Date**", synonyms: ["Account End Date"]),
        .read("last_payment_date", .date, header: "Last Payment Transaction Date"),
        .read("final_fas_date", .date, header: "Final FAS Completed Date"),
        .read("in_collections", .integer, header: "In Coll.", key: true),
        .read("under_payment_agreement", .integer, header: "Under Pmt Agmt", key: true),
        .read("avg_score", .text, header: "Avg. Score*", synonyms: ["Avg. Score"]),
    ])

    static let descriptor = ReportDescriptor(
        .collections, "collections report", titles: ["Collections Report"], codes: ["120-080-129"],
        table: table, parser: CollectionsParser.self)

    /// The account block of the header (found first) and the figures block (read from a row after it).
    static let accountColumns = ["unit_number", "resident_name", "final_fas_date", "in_collections",
                                 "under_payment_agreement", "avg_score"]
    static let amounts = table.columns.filter(\.summed)

    static func layout(_ names: [String], _ name: String) -> HeaderLayout {
        HeaderLayout(report: .collections, name: name,
                     columns: table.columns.filter { names.contains($0.name) }.compactMap(\.header))
    }

    static let accountLayout = layout(accountColumns, "accounts")
    static let figuresLayout = layout(table.columns.map(\.name).filter { !accountColumns.contains($0) }, "figures")
}

/// Reads the Collections Report; see `CollectionsReport`.
struct CollectionsParser: OneSiteReportParser {
    static let layouts = [CollectionsReport.accountLayout]

    let header: HeaderMap
    let context: ParseContext
    private let reader: CrystalReader
    private let accountColumns: PrintedColumns
    private var figures: PrintedColumns?
    private var account: (unit: String, name: String, row: Int)?
    private var sums: [Money]
    private var inCollections = 0, underAgreement = 0
    private var finished = false

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header.readingRowsAsPrinted
        self.context = context
        reader = CrystalReader(context: context)
        accountColumns = PrintedColumns(header: header)
        sums = Array(repeating: .zero, count: CollectionsReport.amounts.count)
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        if finished { return false }
        // The figures header: the first row after the account header printing the ledger columns.
        if figures == nil {
            let map = HeaderFinder.match(CollectionsReport.figuresLayout, rows: [row], merges: [])
            if map.isComplete, map.matchedCount >= CollectionsReport.amounts.count {
                figures = PrintedColumns(header: map)
                return true
            }
        }
        if case .total(let label, _) = kind {
            try checkTotals(row, label: label)
            finished = true
            return false
        }
        // `Totals:` printed under Status does not lead its row.
        if let label = row.cells.lazy.compactMap(\.text).first(where: { TotalLabel.match($0) != nil }) {
            try checkTotals(row, label: HeaderText.display(label))
            finished = true
            return false
        }
        guard let figures else {
            if kind == .data {
                throw context.error(.missingColumn, row: row.number,
                                    "no ledger header (Status, Balance Forward, Total Charges, ...) above the first "
                                        + "account")
            }
            return true
        }
        let statusColumn = figures.column(of: "Status") ?? Int.max
        let firstCell = row.cells.firstIndex { !$0.isBlank } ?? 0
        let lastCell = row.cells.lastIndex { !$0.isBlank } ?? 0
        if lastCell < statusColumn && firstCell <= (accountColumns.column(of: "Name") ?? 1) {
            // The name line: unit and resident, nothing else.
            let placed = accountColumns.place(row, reach: 1)
            let unit = reader.text(placed.cell("Bldg/Unit"))
            let name = reader.text(placed.cell("Name"))
            if unit != nil || name != nil { account = (unit ?? "", name ?? "", row.number) }
            return true
        }
        guard kind == .data else { return true }
        records.append(.row(try accountRecord(row, figures: figures)))
        return true
    }

    mutating func finish(into records: inout [ReportRecord]) throws {
        if let account {
            context.warn("account \(account.unit) \(account.name) (row \(account.row)) has no figures line; skipped")
        }
    }

    private mutating func accountRecord(_ row: SheetRow, figures: PrintedColumns) throws -> RawRow {
        guard let open = account else {
            throw context.error(.badValue, row: row.number, column: "Bldg/Unit",
                                "a figures line without the unit and name line above it")
        }
        account = nil
        var record = RawRow(CollectionsReport.table, sourceRow: open.row)
        record["unit_number"] = .text(open.unit)
        record["resident_name"] = .text(open.name)
        let statusColumn = figures.column(of: "Status") ?? 0
        let amounts = CrystalReader.amountCells(of: row, from: statusColumn)
            .filter { if case .date = $0.cell { false } else { true } }
            .prefix(CollectionsReport.amounts.count)
        guard amounts.count == CollectionsReport.amounts.count else {
            throw context.error(.badValue, row: row.number,
                                "the figures line prints \(amounts.count) amounts where \(CollectionsReport.amounts.count) "
                                    + "(ledger and deposit balances) were expected")
        }
        for (index, (column, amount)) in zip(CollectionsReport.amounts, amounts).enumerated() {
            let value = try reader.money(amount.cell, row: row.number, column: column.header?.name ?? column.name)
            record[column.name] = RawValue(value)
            sums[index] += value ?? .zero
        }
        // Status, dates and flags by the nearest header, the amounts blanked out first.
        let lastAmount = amounts.last?.column ?? 0
        let rest = SheetRow(number: row.number, cells: row.cells.enumerated().map { index, cell in
            index > statusColumn && index <= lastAmount ? .empty : cell
        })
        let others = PrintedColumns(figures.positions.filter { position in
            !CollectionsReport.amounts.contains { $0.header?.name == position.name }
        } + accountColumns.positions.filter { ["Final FAS Completed Date", "In Coll.", "Under Pmt Agmt",
                                                 "Avg. Score*"].contains($0.name) })
        let placed = others.place(rest)
        record["status"] = RawValue(reader.text(placed.cell("Status")))
        record["account_end_date"] = RawValue(try reader.date(placed.cell("Account End Date**"), row: row.number,
                                                              column: "Account End Date"))
        record["last_payment_date"] = RawValue(try reader.date(placed.cell("Last Payment Transaction Date"),
                                                               row: row.number, column: "Last Payment Transaction Date"))
        record["final_fas_date"] = RawValue(try reader.date(placed.cell("Final FAS Completed Date"), row: row.number,
                                                            column: "Final FAS Completed Date"))
        let collections = reader.text(placed.cell("In Coll.")) != nil
        let agreement = reader.text(placed.cell("Under Pmt Agmt")) != nil
        record["in_collections"] = .integer(collections ? 1 : 0)
        record["under_payment_agreement"] = .integer(agreement ? 1 : 0)
        record["avg_score"] = RawValue(reader.text(placed.cell("Avg. Score*")))
        if collections { inCollections += 1 }
        if agreement { underAgreement += 1 }
        return record
    }

    /// `Totals:` prints the ten amounts in order, then the counts in collections and under a payment agreement.
    private func checkTotals(_ row: SheetRow, label: String) throws {
        let amounts = CrystalReader.amountCells(of: row)
        guard amounts.count >= CollectionsReport.amounts.count else {
            context.warn("\"\(label)\" (row \(row.number)) prints \(amounts.count) figures where "
                + "\(CollectionsReport.amounts.count) amounts were expected; not checked")
            return
        }
        for (index, (column, amount)) in zip(CollectionsReport.amounts, amounts).enumerated() {
            let printed = try reader.money(amount.cell, row: row.number, column: column.header?.name ?? column.name,
                                           countsForMoneyGuard: false)
            context.crossCheck(column.name.replacingOccurrences(of: "_", with: " "), computed: sums[index],
                               printed: printed, label: label, row: row.number)
        }
        let counts = amounts.dropFirst(CollectionsReport.amounts.count)
        if let cell = counts.first?.cell {
            context.crossCheck("accounts in collections", computed: inCollections,
                               printed: try reader.count(cell, row: row.number, column: "In Coll."), label: label,
                               row: row.number)
        }
        if let cell = counts.dropFirst().first?.cell {
            context.crossCheck("accounts under a payment agreement", computed: underAgreement,
                               printed: try reader.count(cell, row: row.number, column: "Under Pmt Agmt"), label: label,
                               row: row.number)
        }
    }
}
