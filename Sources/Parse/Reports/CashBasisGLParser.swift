import OwnerDashCore
import XLSXKit

extension ReportType {
    /// Cash Basis G/L Distribution (120.080.128): cash received per batch and the G/L accounts it went to.
    public static let cashBasisGL = ReportType(declaring: "cash_basis_gl")
}

/// Cash Basis G/L Distribution (OneSite `120.080.128`), a Crystal export in two sections.
///
/// **Batch Detail (at Batch Close)**: per batch, G/L lines; the batch's date of distribution, period-control
/// number (`02/2026-998`) and date of batch close print on its first line only and are carried down. Each line has
/// debit/credit and where the cash went (total cash deposited, NSFs & adjustments, deposits received, change in
/// prepaid, deposits applied/refunded, paid by deposits applied); `Totals` prints the sum of each.
/// **Distribution (as of Property Date)**: per category (`Amount Deposited`, `Cash Application`, `Change in
/// Prepaid`, ...; printed on the category's first line, carried down) the G/L accounts with debit and credit,
/// then `Totals`. Its own header is printed under the section title; its columns are read from there.
///
/// Values sit up to two columns beside their headers (see `PrintedColumns`); both `Totals` rows are held against
/// the sums of their section's lines.
enum CashBasisGLReport {
    static let table = RawTable("realpage_cash_basis_gl", since: 20, columns: [
        .read("distribution_date", .date, header: "Date of Distribution"),
        .read("batch", .text, header: "Period-Control Number", key: true),
        .read("batch_close_date", .date, header: "Date of Batch Close"),
        .read("gl_description", .text, header: "G/L Description"),
        .read("gl_account", .text, header: "G/L Acct #", key: true),
        .read("debit", .money, header: "Debit Amount", summed: true),
        .read("credit", .money, header: "Credit Amount", summed: true),
        .read("cash_deposited", .money, header: "Total Cash Deposited", summed: true),
        .read("nsfs_and_adjustments", .money, header: "NSFs & Adj", summed: true),
        .read("deposits_received", .money, header: "Deposits Rcvd", summed: true),
        .read("prepaid_change", .money, header: "Change in Prepaid", summed: true),
        .read("deposits_applied_refunded", .money, header: "Deposits Applied/Refunded", summed: true),
        .read("paid_by_deposits_applied", .money, header: "Paid by Deposits Applied", summed: true),
    ])

    /// The Distribution section's lines.
    static let distribution = RawTable("realpage_cash_basis_gl_distribution", since: 20, columns: [
        .derived("category", .text),
        .derived("gl_description", .text),
        .derived("gl_account", .text, key: true),
        .derived("debit", .money),
        .derived("credit", .money),
    ])

    static let descriptor = ReportDescriptor(
        .cashBasisGL, "cash basis G/L distribution", titles: ["Cash Basis G/L Distribution"],
        codes: ["120.080.128"], table: table, childTables: [distribution], parser: CashBasisGLParser.self)

    /// The money columns of the batch lines, in table order.
    static let amounts = table.columns.filter(\.summed)
}

/// Reads the Cash Basis G/L Distribution; see `CashBasisGLReport`.
struct CashBasisGLParser: OneSiteReportParser {
    static var layouts: [HeaderLayout] {
        [CashBasisGLReport.table.layout(for: .cashBasisGL, name: "batch detail")]
    }

    let header: HeaderMap
    let context: ParseContext
    private let reader: CrystalReader
    private let batchColumns: PrintedColumns
    private var batch: (date: LocalDate?, number: String, closed: LocalDate?)?
    private var batchSums: [Money]
    private var inDistribution = false
    /// The Distribution section's header cells (normalized text -> column), gathered until its first line.
    private var distributionHeader: [String: Int] = [:]
    private var category: String?
    private var distributionDebit = Money.zero, distributionCredit = Money.zero

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header.readingRowsAsPrinted
        self.context = context
        reader = CrystalReader(context: context)
        batchColumns = PrintedColumns(header: header)
        batchSums = Array(repeating: .zero, count: CashBasisGLReport.amounts.count)
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        switch kind {
        case .label(let text) where HeaderText.key(text).hasPrefix("distribution"):
            inDistribution = true
            return true
        case .label, .continuation:
            if inDistribution { noteDistributionHeader(row) }
            return true
        case .total(let label, _):
            if inDistribution {
                let placed = distributionColumns.place(row)
                let debit = try reader.money(placed.cell("debit"), row: row.number, column: "Debit Amount",
                                             countsForMoneyGuard: false)
                let credit = try reader.money(placed.cell("credit"), row: row.number, column: "Credit Amount",
                                              countsForMoneyGuard: false)
                context.crossCheck("distribution debit", computed: distributionDebit, printed: debit, label: label,
                                   row: row.number)
                context.crossCheck("distribution credit", computed: distributionCredit, printed: credit, label: label,
                                   row: row.number)
                return false
            }
            let placed = batchColumns.place(row)
            for (index, column) in CashBasisGLReport.amounts.enumerated() {
                guard let spec = column.header else { continue }
                let printed = try reader.money(placed.cell(spec.name), row: row.number, column: spec.name,
                                               countsForMoneyGuard: false)
                context.crossCheck(column.name.replacingOccurrences(of: "_", with: " "), computed: batchSums[index],
                                   printed: printed, label: label, row: row.number)
            }
            return true
        case .data:
            if inDistribution {
                if let line = try distributionLine(row) { records.append(.row(line)) }
            } else {
                records.append(.row(try batchLine(row)))
            }
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}

    private mutating func batchLine(_ row: SheetRow) throws -> RawRow {
        let placed = batchColumns.place(row)
        let number = row.number
        if let printed = reader.text(placed.cell("Period-Control Number")) {
            batch = (try reader.date(placed.cell("Date of Distribution"), row: number, column: "Date of Distribution"),
                     printed,
                     try reader.date(placed.cell("Date of Batch Close"), row: number, column: "Date of Batch Close"))
        }
        guard let batch else {
            throw context.error(.badValue, row: number, column: "Period-Control Number",
                                "a G/L line before any batch's period-control number")
        }
        var record = RawRow(CashBasisGLReport.table, sourceRow: number)
        record["distribution_date"] = RawValue(batch.date)
        record["batch"] = .text(batch.number)
        record["batch_close_date"] = RawValue(batch.closed)
        record["gl_description"] = RawValue(reader.text(placed.cell("G/L Description")))
        guard let account = reader.text(placed.cell("G/L Acct #")) else {
            throw context.error(.badValue, row: number, column: "G/L Acct #", "a G/L line without a G/L account")
        }
        record["gl_account"] = .text(account)
        for (index, column) in CashBasisGLReport.amounts.enumerated() {
            guard let spec = column.header else { continue }
            let amount = try reader.money(placed.cell(spec.name), row: number, column: spec.name)
            record[column.name] = RawValue(amount)
            batchSums[index] += amount ?? .zero
        }
        return record
    }

    private mutating func noteDistributionHeader(_ row: SheetRow) {
        for (column, cell) in row.cells.enumerated() {
            guard let text = cell.text else { continue }
            let key = HeaderText.key(text)
            if distributionHeader[key] == nil { distributionHeader[key] = column }
        }
    }

    /// The Distribution section's columns as its own header prints them.
    private var distributionColumns: PrintedColumns {
        let names = [("gl_description", "g/ldescription"), ("gl_account", "g/lacct#"), ("debit", "debitamount"),
                     ("credit", "creditamount")]
        return PrintedColumns(names.compactMap { name, key in distributionHeader[key].map { (name, $0) } })
    }

    private mutating func distributionLine(_ row: SheetRow) throws -> RawRow? {
        let columns = distributionColumns
        guard let descriptionColumn = columns.column(of: "gl_description"), columns.column(of: "debit") != nil,
              columns.column(of: "credit") != nil else {
            throw context.error(.missingColumn, row: row.number,
                                "the Distribution section's header (G/L Description, Debit Amount, Credit Amount) "
                                    + "was not found above its first line")
        }
        // The category prints left of the G/L description, beyond the reach of any header.
        let left = SheetRow(number: row.number, cells: Array(row.cells.prefix(max(0, descriptionColumn - 2))))
        if let printed = left.cells.lazy.compactMap(reader.text).first { category = printed }
        let placed = columns.place(SheetRow(number: row.number, cells: row.cells.enumerated().map { index, cell in
            index < descriptionColumn - 2 ? .empty : cell
        }))
        guard let account = reader.text(placed.cell("gl_account")) else {
            context.warn("row \(row.number) in the Distribution section has no G/L account; skipped")
            return nil
        }
        var record = RawRow(CashBasisGLReport.distribution, sourceRow: row.number)
        record["category"] = RawValue(category)
        record["gl_description"] = RawValue(reader.text(placed.cell("gl_description")))
        record["gl_account"] = .text(account)
        let debit = try reader.money(placed.cell("debit"), row: row.number, column: "Debit Amount")
        let credit = try reader.money(placed.cell("credit"), row: row.number, column: "Credit Amount")
        record["debit"] = RawValue(debit)
        record["credit"] = RawValue(credit)
        distributionDebit += debit ?? .zero
        distributionCredit += credit ?? .zero
        return record
    }
}
