import OwnerDashCore
import XLSXKit

// The parts every report parser shares once the header is found: what kind of row
// this is, typed access to a row's cells by column name, cross-checks against total
// rows, and the all-money-zero guard.

// MARK: - Row classification

/// What a sheet row is, before a parser looks at its columns.
enum RowKind: Equatable {
    case blank
    /// The header block repeated at a page break.
    case repeatedHeader
    /// The title block (or a line of it) repeated at a page break.
    case titleLine
    /// A note printed under the detail (`** These subtotals consist of ...`): one text cell led by a footnote mark.
    case footnote
    /// `Total`, `Totals`, `Subtotals:`, `Property Totals`, `Grand Totals:`, `Total leases: 61`;
    /// `count` is a number embedded in the label, which is a total and never data.
    case total(label: String, count: Int?)
    /// Text and no quantity, starting in the report's first column: a group (`1x1`, `February 2026`, `MTM`)
    /// or a section title.
    case label(String)
    /// Text and no quantity starting further right: a record's continuation (notes, `Phone/email`).
    case continuation(String)
    /// Holds at least one quantity: the parser decides whether it is a record.
    case data
}

/// A row a report parser has to look at: the driver drops blank rows, repeated headers and title lines first.
enum ContentKind: Equatable {
    case total(label: String, count: Int?)
    case label(String)
    case continuation(String)
    case data

    var isTotal: Bool { if case .total = self { return true } else { return false } }

    /// The content kind of a classified row; nil for rows that never carry report content.
    init?(_ kind: RowKind) {
        switch kind {
        case .blank, .repeatedHeader, .titleLine, .footnote: return nil
        case .total(let label, let count): self = .total(label: label, count: count)
        case .label(let text): self = .label(text)
        case .continuation(let text): self = .continuation(text)
        case .data: self = .data
        }
    }
}

/// Classifies rows by their shape, using the header and title found at the top of the sheet.
struct RowClassifier {
    let headerSignatures: Set<String>
    /// First cell of each header row, so most data rows are ruled out without computing their signature.
    let headerFirstKeys: Set<String>
    /// The first byte of each of those keys: a row whose first cell starts otherwise is not a header, key unread.
    let headerFirstLeads: Set<UInt8>
    let title: TitleBlock
    /// The header's leftmost column: labels there are groups, labels further right continue a record.
    let firstColumn: Int

    init(headerSignatures: Set<String>, title: TitleBlock, firstColumn: Int) {
        self.headerSignatures = headerSignatures
        self.headerFirstKeys = Set(headerSignatures.compactMap { $0.split(separator: "|").first.map(String.init) })
        self.headerFirstLeads = Set(headerFirstKeys.compactMap(\.utf8.first))
        self.title = title
        self.firstColumn = firstColumn
    }

    func classify(_ row: SheetRow) -> RowKind {
        guard let first = row.cells.first(where: { !$0.isBlank }) else { return .blank }
        // The total label leads the row, sometimes after the group's name (`1x1 | Total`).
        // (Plain loops: a lazy filter's `prefix` cost more than the checks it feeds, for every row of a report.)
        var leading = 0
        for cell in row.cells where !cell.isBlank {
            guard case .text(let raw) = cell else { break }
            if let count = TotalLabel.match(raw.trimmingWhitespace) {
                return .total(label: HeaderText.display(raw), count: count.value)
            }
            leading += 1
            if leading == 2 { break }
        }
        // Checked before quantities: a repeated header has cells like `30` / `Days` that read as numbers.
        if let text = first.text, HeaderText.mayKeyStart(text, with: headerFirstLeads),
           case let key = HeaderText.key(text), headerFirstKeys.contains(key),
           headerSignatures.contains(RowSignature.of(row)) {
            return .repeatedHeader
        }
        // Typed quantities first: most data rows have one, and it spares parsing their text cells as amounts.
        if row.cells.contains(where: \.isTypedQuantity) || row.cells.contains(where: \.holdsValue) {
            // A run timestamp line holds a date; the repeated title block must not pass for data.
            // Title lines have a cell or three; skip the check for full rows (this runs for every row).
            if case .text = first, row.cells.count < 4 || Self.nonBlankCount(row, atMost: 4) < 4,
               title.isRepeatedTitle(row) { return .titleLine }
            return .data
        }
        if title.isRepeatedTitle(row) { return .titleLine }
        // Read as a label in the unit column, the Delinquent and Prepaid footnote was stored as an account.
        if Footnote.isFootnote(row) { return .footnote }
        let column = row.cells.firstIndex { !$0.isBlank } ?? 0
        return column <= firstColumn ? .label(first.text ?? "") : .continuation(first.text ?? "")
    }

    /// How many of the row's cells are not blank, counting no further than `limit`.
    private static func nonBlankCount(_ row: SheetRow, atMost limit: Int) -> Int {
        var count = 0
        for cell in row.cells where !cell.isBlank {
            count += 1
            if count == limit { break }
        }
        return count
    }
}

/// The notes Crystal exports print under or between a report's sections, keyed to figures by `*`, `**`, `†`, `‡`
/// or `§`: never a record, whichever column they start in.
enum Footnote {
    static let marks: Set<Character> = ["*", "\u{2020}", "\u{2021}", "\u{00A7}"]

    /// One text cell, led by footnote marks and then prose (three words or more): a unit or code with a mark
    /// (`*`, `905*`) sits in a row with other cells and is short.
    static func isFootnote(_ row: SheetRow) -> Bool {
        var texts = row.cells.lazy.filter { !$0.isBlank }.makeIterator()
        guard case .text(let text)? = texts.next(), texts.next() == nil else { return false }
        let trimmed = text.trimmingWhitespace
        guard let lead = trimmed.first, marks.contains(lead) else { return false }
        let prose = trimmed.drop { marks.contains($0) || $0.isWhitespace || $0 == "-" }
        return prose.split(whereSeparator: \.isWhitespace).count >= 3
    }
}

/// Recognises total-row labels and the count some of them carry (`Total leases expiring in February 2026: 7`).
enum TotalLabel {
    /// The wrapped count is nil when the label carries none (`Subtotals:`); nil overall when not a total label.
    struct Count { let value: Int? }

    static func match(_ text: some StringProtocol) -> Count? {
        // Every total label starts with t(otal), s(ubtotal), g(rand) or p(roperty): rule out the rest cheaply.
        guard let lead = text.unicodeScalars.first, "tTsSgGpP".unicodeScalars.contains(lead) else { return nil }
        let words = text.lowercased().split { !$0.isLetter }
        guard let firstWord = words.first else { return nil }
        let totalWords: Set<Substring> = ["total", "totals", "subtotal", "subtotals", "sitetotal"]
        // `Grand Totals:`, `Property Totals`, `Sub Total`, and the Lease Summary's `SiteTotal :` / `PMC Total :`.
        let isTotal = totalWords.contains(firstWord)
            || (words.count > 1 && ["grand", "property", "sub", "pmc", "site"].contains(firstWord)
                && totalWords.contains(words[1]))
        guard isTotal else { return nil }
        guard let colon = text.lastIndex(of: ":") else { return Count(value: nil) }
        let tail = String(text[text.index(after: colon)...].trimmingWhitespace).filter { $0 != "," }
        return Count(value: tail.isEmpty ? nil : Int(tail))
    }
}

// MARK: - Parse context

/// State one parse shares between the driver and the report parser: names for messages, warnings, the money guard.
final class ParseContext {
    let report: ReportType
    let sheet: String
    let metadata: ReportMetadata
    /// The rows above the header, for what a few reports print there (fiscal period, total units).
    let title: TitleBlock
    private(set) var warnings: [String] = []

    // The money guard (docs/contracts.md, "Parsing reports and payloads"): amounts seen in money columns vs amounts
    // that came out non-zero.
    var moneyCellsWithDigits = 0
    var nonzeroMoney = 0
    /// First amount-looking text in a column no header names, seen while every mapped amount was zero.
    var strayAmount: (row: Int, column: Int, text: String)?

    init(report: ReportType, sheet: String, metadata: ReportMetadata, title: TitleBlock = TitleBlock(rows: [])) {
        self.report = report; self.sheet = sheet; self.metadata = metadata; self.title = title
    }

    func warn(_ message: String) { warnings.append("\(report.displayName): \(message)") }

    /// Every figure a totals row printed and what the data rows summed to, agreeing or not, in sheet order.
    private(set) var totals: [PrintedTotal] = []

    /// Keeps what a total row prints beside the sum of the data rows, and warns when they differ.
    func crossCheck<T: TotalFigure>(_ what: String, computed: T, printed: T?, label: String, row: Int) {
        guard let printed else { return }
        totals.append(PrintedTotal(label: label, row: row, measure: what, printed: printed.figure,
                                   computed: computed.figure))
        guard printed != computed else { return }
        warn("data rows sum to \(computed) \(what) but \"\(label)\" (row \(row)) says \(printed)")
    }

    /// Keeps a printed figure beside what the rows give; warns when they differ only if `warn` (a figure the rows
    /// cannot fully give, such as OneSite's new prospects, is kept for the sync's reconciliation without a warning).
    func keep(_ total: PrintedTotal, warn: Bool) {
        totals.append(total)
        guard warn, total.printed != total.computed else { return }
        self.warn("data rows count \(Int(total.computed)) \(total.measure) but \"\(total.label)\" (row \(total.row)) "
                  + "says \(Int(total.printed))")
    }

    func error(_ kind: ReportParseError.Kind, row: Int? = nil, column: String? = nil,
               _ detail: String) -> ReportParseError {
        ReportParseError(kind, report: report, sheet: sheet, row: row, column: column, detail: detail)
    }

    /// Looks for the symptom of a misaligned header: amounts sitting in columns no header names.
    /// True until an amount came out non-zero or a stray amount was found: the money guard's evidence is still open.
    var looksForStrayAmounts: Bool { nonzeroMoney == 0 && strayAmount == nil }

    func noteUnmappedAmounts(in row: SheetRow, mapped: Set<Int>) {
        guard looksForStrayAmounts else { return }
        for (column, cell) in row.cells.enumerated() where !mapped.contains(column) {
            if case .text(let text) = cell, MoneyText.looksLikeAmount(text) {
                strayAmount = (row.number, column, String(text.trimmingWhitespace))
                return
            }
        }
    }

    /// Throws when money columns all came out zero or blank although the sheet holds amounts.
    func checkMoneyGuard(recordCount: Int, hasMoneyColumns: Bool) throws {
        guard hasMoneyColumns, recordCount > 0, nonzeroMoney == 0 else { return }
        if let stray = strayAmount {
            throw error(.moneyAllZero, "every money column parsed as zero or blank, yet row \(stray.row) "
                + "column \(ColumnLetters.of(stray.column)) holds \"\(stray.text)\" under no known header "
                + "(header and values misaligned?)")
        }
        if moneyCellsWithDigits > 0 {
            throw error(.moneyAllZero, "every money column parsed as zero or blank, yet \(moneyCellsWithDigits) "
                + "money cells hold non-zero digits")
        }
    }
}

/// Excel column letters for messages (0 -> A, 27 -> AB).
enum ColumnLetters {
    static func of(_ index: Int) -> String {
        var number = index + 1
        var letters = ""
        while number > 0 {
            let remainder = (number - 1) % 26
            letters = String(UnicodeScalar(UInt8(65 + remainder))) + letters
            number = (number - 1) / 26
        }
        return letters
    }
}

/// Counts data rows per group and holds them against counts embedded in total labels (`Total Moved In: 12`).
struct GroupCounter {
    private(set) var inGroup = 0
    private(set) var all = 0
    private var sinceLastTotal = 0

    mutating func add() { inGroup += 1; all += 1; sinceLastTotal += 1 }

    mutating func startGroup() { inGroup = 0 }

    /// A total right after another total (`Total leases: 61` after the last month's total) counts the whole report.
    mutating func check(_ printed: Int?, label: String, row: Int, what: String, context: ParseContext) {
        let computed = sinceLastTotal == 0 ? all : inGroup
        context.crossCheck(what, computed: computed, printed: printed, label: label, row: row)
        inGroup = 0
        sinceLastTotal = 0
    }
}

/// Sums of money columns over the data rows since the last total row, held against what the total row prints.
struct MoneyColumnTotals {
    /// The canonical column names summed, in the order `add` takes their amounts.
    let columns: [String]
    private var sums: [Money]

    init(_ columns: [String]) {
        self.columns = columns
        sums = Array(repeating: .zero, count: columns.count)
    }

    /// Adds one data row's amounts, one per column (nil counts as zero).
    mutating func add(_ amounts: [Money?]) {
        for (index, amount) in amounts.enumerated() where index < sums.count { sums[index] += amount ?? .zero }
    }

    /// Warns for every column whose sum differs from the total row's figure, then starts the next group.
    mutating func check(_ row: SheetRow, label: String, header: HeaderMap, context: ParseContext) throws {
        let totals = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
        try check(printed: columns.map { try totals.money($0) }, label: label, row: row.number, context: context)
    }

    /// As `check`, with the total row's figures already read, one per column (nil: not printed).
    mutating func check(printed: [Money?], label: String, row: Int, context: ParseContext) throws {
        for (index, column) in columns.enumerated() where index < printed.count {
            context.crossCheck(column.lowercased(), computed: sums[index], printed: printed[index], label: label,
                               row: row)
        }
        sums = Array(repeating: .zero, count: columns.count)
    }

    /// The amounts a row prints, left to right (typed numbers and amount text; dates, counts as text and labels
    /// skipped): a totals row whose figures sit off their headers is read in printed order.
    static func printedAmounts(_ row: SheetRow) -> [Money] {
        row.cells.compactMap { cell -> Money? in
            switch cell {
            case .number: return try? cell.money()
            case .text(let text):
                guard MoneyText.looksLikeAmount(text), text.contains(where: \.isASCIIDigit) else { return nil }
                return try? MoneyText.parse(text)
            default: return nil
            }
        }
    }
}

// MARK: - Typed access by column name

/// One sheet row read through a header map: values by canonical column name, errors naming row and column.
struct RowView {
    let row: SheetRow
    let header: HeaderMap
    let context: ParseContext
    /// False for total rows: their amounts must not satisfy the money guard on the data rows' behalf.
    var countsForMoneyGuard = true

    var number: Int { row.number }

    func has(_ column: String) -> Bool { header.has(column) }

    func cell(_ column: String) -> CellValue { header.cell(column, in: row) }

    func text(_ column: String) -> String? { cell(column).text }

    /// OneSite's ways of printing "no value" in a typed column (`N/A` dates on the Excel-format reports, `*`
    /// and `-` in Crystal exports): nulls, not errors.
    static let nullTokens: Set<String> = ["n/a", "na", "*", "-", "--", "none"]

    /// The cell for a typed read: a vendor null token reads as blank.
    func valueCell(_ column: String) -> CellValue { Self.nullable(cell(column)) }

    /// A cell with a vendor null token read as blank.
    static func nullable(_ value: CellValue) -> CellValue {
        if case .text(let raw) = value, raw.utf8.count <= 4,
           nullTokens.contains(raw.trimmingWhitespace.lowercased()) { return .empty }
        return value
    }

    /// The first line of a stacked cell (`Name\nPhone/email` puts the name first).
    func firstLine(_ column: String) -> String? {
        guard let text = text(column) else { return nil }
        // One line of ASCII (the usual cell) is its own first line; only other text needs splitting.
        if !text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 >= 0x80 }) { return text }
        return text.split(whereSeparator: \.isNewline).first.map { String($0.trimmingWhitespace) }
    }

    func money(_ column: String) throws -> Money? {
        do { return try countedMoney(valueCell(column)) } catch { throw failure(column, error) }
    }

    /// A money cell's amount, counted for the money guard (amount text with digits; non-zero amounts) unless this
    /// is a total row.
    private func countedMoney(_ value: CellValue) throws(CellTextError) -> Money? {
        let money = try value.money()
        guard countsForMoneyGuard else { return money }
        if case .text(let text) = value, text.utf8.contains(where: { $0 >= 0x31 && $0 <= 0x39 }) {
            context.moneyCellsWithDigits += 1
        }
        if let money, money != .zero { context.nonzeroMoney += 1 }
        return money
    }

    func date(_ column: String) throws -> LocalDate? {
        do { return try valueCell(column).date() } catch { throw failure(column, error) }
    }

    /// The amount in a header column no layout column names (`printed`: its header, for messages), read and
    /// counted for the money guard as a named column's.
    func money(atColumn column: Int, printed: String) throws -> Money? {
        do {
            return try countedMoney(Self.nullable(row[column]))
        } catch {
            throw context.error(.badValue, row: number, column: printed, error.description)
        }
    }

    /// A lease end date; `MTM` (month-to-month, the lease has run out) is a lease without an end date.
    func leaseEnd(_ column: String) throws -> LocalDate? {
        if text(column)?.uppercased() == "MTM" { return nil }
        return try date(column)
    }

    func stackedDates(_ column: String) throws -> [LocalDate] {
        do { return try valueCell(column).stackedDates() } catch { throw failure(column, error) }
    }

    func count(_ column: String) throws -> Int? {
        do { return try valueCell(column).count() } catch { throw failure(column, error) }
    }

    func decimal(_ column: String) throws -> Double? {
        do { return try valueCell(column).decimal() } catch { throw failure(column, error) }
    }

    func percent(_ column: String) throws -> Double? {
        do { return try valueCell(column).percent() } catch { throw failure(column, error) }
    }

    /// A required count: blank is an error too, because the record cannot hold "unknown".
    func requiredCount(_ column: String) throws -> Int {
        guard let value = try count(column) else {
            throw context.error(.badValue, row: number, column: header.printed[column] ?? column, "blank count")
        }
        return value
    }

    private func failure(_ column: String, _ error: CellTextError) -> ReportParseError {
        context.error(.badValue, row: number, column: header.printed[column] ?? column, error.description)
    }
}

// MARK: - Parser shape

/// What the driver hands each report parser: rows after the header, one at a time, in sheet order.
protocol OneSiteReportParser: SendableMetatype {
    /// The header shapes this report comes in; the driver finds the first that appears.
    static var layouts: [HeaderLayout] { get }
    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) throws
    /// The header the parser maps columns with.
    var header: HeaderMap { get }
    /// Columns whose amounts count for the money guard.
    var mappedColumns: Set<Int> { get }
    /// Appends the records this row completes; returns false to stop reading (the report's data section ended).
    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool
    /// Reads a row after `consume` ended the data section: the summary sections some reports print below it,
    /// checked against their own totals (nothing stored). Rows come raw (not classified or realigned); false stops.
    mutating func consumeTrailer(_ row: SheetRow) throws -> Bool
    /// Appends records still pending at the end of the sheet and runs end-of-report checks.
    mutating func finish(into records: inout [ReportRecord]) throws
    /// The data rows the parser read into what it keeps (see the default in the extension).
    var usedRows: Int? { get }
}

extension OneSiteReportParser {
    /// Most reports print nothing after their data that is not a repeat of it.
    mutating func consumeTrailer(_ row: SheetRow) throws -> Bool { false }

    /// Columns whose amounts count for the money guard: every column a known name occupies.
    var mappedColumns: Set<Int> { header.mappedColumns }

    static var hasMoneyColumns: Bool {
        layouts.contains { $0.columns.contains { $0.kind == .money } }
    }

    /// The data rows the parser read into what it keeps, for the kept-rows check (`KeptRows`); nil: its records
    /// (most reports keep a record per data row, or more with child records). A report that folds rows into
    /// figures by design (the Monthly Activity Summary's Accounting and detail sections) counts the rows it used.
    var usedRows: Int? { nil }
}

/// The check that a parse kept about as many records as the sheet has data rows under its header: a header mapped
/// onto the wrong columns, or rows of an unexpected shape, keep a few records and skip the rest without a word (a
/// Monthly Activity Summary re-saved through LibreOffice kept 1 of its 36 rows).
enum KeptRows {
    /// Below this many data rows, a summary's few rows say too little to judge by.
    static let minimumRows = 6

    /// The warning when fewer than half the data rows became records; nil otherwise.
    static func warning(kept: Int, dataRows: Int) -> String? {
        guard dataRows >= minimumRows, kept * 2 < dataRows else { return nil }
        return "kept \(kept) record\(kept == 1 ? "" : "s") from the \(dataRows) data rows under its header "
            + "(fewer than half): rows of a shape the parser does not read were skipped; check the file's layout"
    }
}

extension String {
    /// True when a label names one of `titles` (normalized comparison, prefix allowed: `Summary By Transaction Code (cont.)`).
    func isSectionTitle(_ titles: [String]) -> Bool {
        let key = HeaderText.key(self)
        return titles.contains { key.hasPrefix(HeaderText.key($0)) }
    }
}
