import OwnerDashCore
import XLSXKit

extension ReportType {
    /// Charge and Adjustment Journal (a/r-702-001, report 4039): every charge and adjustment posted in a fiscal period.
    public static let chargeJournal = ReportType(declaring: "charge_journal")
}

/// Charge and Adjustment Journal (OneSite `a/r-702-001`, report 4039), a Crystal export: one line per posted charge
/// or adjustment (unit and resident printed on a resident's first line only, so they are carried down), then one
/// summary line per transaction code (code, description, rent, other: printed apart from the header, read in
/// order), then `Totals` (rent, other). Rent and other amounts are signed as posted (a credit is negative).
///
/// Checked: each code's summary line against the sum of that code's lines, and `Totals` against all lines.
/// The fiscal period (`Fiscal Period: 022026`) is stored on every line as `2026-02`.
enum ChargeJournalReport {
    static let table = RawTable("realpage_charge_journal", since: 20, columns: [
        .read("unit_number", .text, header: "Unit", synonyms: ["Bldg/Unit"]),
        .read("resident_name", .text, header: "Name"),
        .read("subjournal", .text, header: "SubJournal"),
        .read("date_posted", .date, header: "Date Posted", key: true),
        .read("rent", .money, header: "Rent", summed: true),
        .read("code", .text, header: "Code", key: true),
        .read("code_description", .text, header: "Description"),
        .read("other", .money, header: "Other", summed: true),
        // The second `Description` column: the note typed with the transaction.
        .read("note", .text, header: "Transaction Description", synonyms: ["Description"]),
        .read("user_name", .text, header: "User Name"),
        .derived("fiscal_period", .text),
    ])

    /// The per-code summary lines after the transactions.
    static let codes = RawTable("realpage_charge_journal_codes", since: 20, columns: [
        .derived("code", .text, key: true),
        .derived("description", .text),
        .derived("rent", .money),
        .derived("other", .money),
        .derived("fiscal_period", .text),
    ])

    static let descriptor = ReportDescriptor(
        .chargeJournal, "charge and adjustment journal", titles: ["Charge and Adjustment Journal"],
        codes: ["a/r-702-001"], table: table, childTables: [codes], parser: ChargeJournalParser.self,
        detectionLayouts: [detectionLayout])

    /// `Date Posted` and `Code` head many ledgers: without a title, the journal is told by all its amount columns.
    static let detectionLayout = HeaderLayout(
        report: .chargeJournal, name: "charge and adjustment journal (untitled)",
        columns: table.columns.compactMap(\.header).map { spec in
            ["Unit", "Date Posted", "Rent", "Code", "Other", "User Name"].contains(spec.name)
                ? ColumnSpec(spec.name, spec.kind, required: true, synonyms: spec.synonyms) : spec
        })
}

/// Reads the Charge and Adjustment Journal; see `ChargeJournalReport`.
struct ChargeJournalParser: OneSiteReportParser {
    static var layouts: [HeaderLayout] {
        [ChargeJournalReport.table.layout(for: .chargeJournal, name: "charge and adjustment journal")]
    }

    let header: HeaderMap
    let context: ParseContext
    private let columns: PrintedColumns
    private let reader: CrystalReader
    private let fiscalPeriod: RawValue
    private var unit: String?
    private var name: String?
    private var rent = Money.zero, other = Money.zero
    /// Rent and other per code over the transaction lines, for the code summary lines.
    private var byCode: [String: (rent: Money, other: Money)] = [:]

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header.readingRowsAsPrinted
        self.context = context
        columns = PrintedColumns(header: header)
        reader = CrystalReader(context: context)
        fiscalPeriod = RawValue(context.title.fiscalPeriod)
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        switch kind {
        case .label, .continuation:
            return true
        case .total(let label, _):
            let amounts = CrystalReader.amountCells(of: row)
            guard amounts.count == 2 else {
                context.warn("\"\(label)\" (row \(row.number)) prints \(amounts.count) figures where rent and other "
                    + "were expected; not checked")
                return true
            }
            let printedRent = try reader.money(amounts[0].cell, row: row.number, column: "Rent", countsForMoneyGuard: false)
            let printedOther = try reader.money(amounts[1].cell, row: row.number, column: "Other",
                                                countsForMoneyGuard: false)
            context.crossCheck("rent", computed: rent, printed: printedRent, label: label, row: row.number)
            context.crossCheck("other", computed: other, printed: printedOther, label: label, row: row.number)
            return true
        case .data:
            if row.cells.contains(where: Self.isDate) {
                records.append(.row(try transaction(row)))
            } else if let summary = try codeSummary(row) {
                records.append(.row(summary))
            }
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}

    private static func isDate(_ cell: CellValue) -> Bool {
        switch cell {
        case .date: return true
        case .text(let raw): return DateText.parseDate(raw.trimmingWhitespace) != nil
        default: return false
        }
    }

    private mutating func transaction(_ row: SheetRow) throws -> RawRow {
        let placed = columns.place(row)
        let table = ChargeJournalReport.table
        var record = RawRow(table, sourceRow: row.number)
        // A resident's later lines leave unit and name blank: they are the line above's.
        if let printedUnit = reader.text(placed.cell("Unit")) {
            unit = printedUnit
            name = reader.text(placed.cell("Name"))
        } else if let printedName = reader.text(placed.cell("Name")) {
            unit = nil
            name = printedName
        }
        record["unit_number"] = RawValue(unit)
        record["resident_name"] = RawValue(name)
        record["subjournal"] = RawValue(reader.text(placed.cell("SubJournal")))
        record["date_posted"] = RawValue(try reader.date(placed.cell("Date Posted"), row: row.number, column: "Date Posted"))
        guard let code = reader.text(placed.cell("Code")) else {
            throw context.error(.badValue, row: row.number, column: "Code", "a posted line without a transaction code")
        }
        record["code"] = .text(code)
        let lineRent = try reader.money(placed.cell("Rent"), row: row.number, column: "Rent") ?? .zero
        let lineOther = try reader.money(placed.cell("Other"), row: row.number, column: "Other") ?? .zero
        record["rent"] = .money(lineRent)
        record["other"] = .money(lineOther)
        record["code_description"] = RawValue(reader.text(placed.cell("Description")))
        record["note"] = RawValue(reader.text(placed.cell("Transaction Description")))
        record["user_name"] = RawValue(reader.text(placed.cell("User Name")))
        record["fiscal_period"] = fiscalPeriod
        rent += lineRent
        other += lineOther
        let sums = byCode[code] ?? (.zero, .zero)
        byCode[code] = (sums.rent + lineRent, sums.other + lineOther)
        return record
    }

    /// A code summary line: code and description (text, in order), rent and other (amounts, in order).
    private func codeSummary(_ row: SheetRow) throws -> RawRow? {
        let texts = row.cells.filter { cell in
            if case .text = cell { return !cell.isBlank && !cell.holdsValue }
            return false
        }
        let amounts = CrystalReader.amountCells(of: row)
        guard let code = texts.first.flatMap(reader.text) else {
            context.warn("row \(row.number) holds amounts but no date and no transaction code; skipped")
            return nil
        }
        guard amounts.count == 2 else {
            context.warn("code summary \"\(code)\" (row \(row.number)) prints \(amounts.count) figures where rent "
                + "and other were expected; skipped")
            return nil
        }
        var record = RawRow(ChargeJournalReport.codes, sourceRow: row.number)
        let printedRent = try reader.money(amounts[0].cell, row: row.number, column: "Rent", countsForMoneyGuard: false)
        let printedOther = try reader.money(amounts[1].cell, row: row.number, column: "Other", countsForMoneyGuard: false)
        record["code"] = .text(code)
        record["description"] = RawValue(texts.dropFirst().first.flatMap(reader.text))
        record["rent"] = RawValue(printedRent)
        record["other"] = RawValue(printedOther)
        record["fiscal_period"] = fiscalPeriod
        let sums = byCode[code] ?? (.zero, .zero)
        let label = "\(code) summary"
        context.crossCheck("\(code) rent", computed: sums.rent, printed: printedRent, label: label, row: row.number)
        context.crossCheck("\(code) other", computed: sums.other, printed: printedOther, label: label, row: row.number)
        return record
    }
}
