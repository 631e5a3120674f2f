import OwnerDashCore
import XLSXKit

/// A report that is one table under one header: its descriptor says everything a parser needs.
protocol TabularReport {
    static var descriptor: ReportDescriptor { get }
    /// The report restates the same records in other groupings (or prints averages) after its first totals row:
    /// stop reading there.
    static var endsAtFirstTotal: Bool { get }
}

extension TabularReport {
    static var endsAtFirstTotal: Bool { false }
}

/// Reads a `TabularReport`: every data row holding its key columns is one record of the descriptor's table (each
/// read column from the cell under its header), and every totals row is held against the sums of the summed columns
/// and the count its label prints.
struct TabularParser<Report: TabularReport>: OneSiteReportParser {
    static var layouts: [HeaderLayout] {
        [Report.descriptor.table.layout(for: Report.descriptor.type, name: Report.descriptor.displayName)]
    }

    let header: HeaderMap
    let context: ParseContext
    private let table = Report.descriptor.table
    private var sums: ColumnSums
    private var counter = GroupCounter()

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
        sums = ColumnSums(Report.descriptor.table)
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        switch kind {
        case .label, .continuation:
            return true
        case .total(let label, let count):
            counter.check(count, label: label, row: row.number, what: "records", context: context)
            try sums.check(row, label: label, header: header, context: context)
            return !Report.endsAtFirstTotal
        case .data:
            let view = RowView(row: row, header: header, context: context)
            guard let record = try view.record(of: table) else { return true }
            sums.add(record)
            counter.add()
            records.append(.row(record))
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}
}

extension RowView {
    /// The record of `table` this row holds, every read column from the cell under its header; nil when a key
    /// column is blank (a label or footer line, not a record). Derived columns are left for the parser to fill.
    func record(of table: RawTable) throws -> RawRow? {
        var record = RawRow(table, sourceRow: number)
        for column in table.columns {
            guard let spec = column.header else { continue }
            let value = try value(spec.name, as: column.kind)
            if column.isKey, value == .null { return nil }
            record[column.name] = value
        }
        return record
    }

    /// The cell under a column read as a descriptor column's kind.
    func value(_ column: String, as kind: RawColumnKind) throws -> RawValue {
        switch kind {
        case .text: return RawValue(text(column))
        case .integer: return RawValue(try count(column))
        case .number: return RawValue(try decimal(column))
        case .money: return RawValue(try money(column))
        case .date: return RawValue(try date(column))
        case .percent: return RawValue(try percent(column))
        case .minutes: return RawValue(try minutes(column))
        }
    }

    /// A duration printed `H:MM` (`0:05`, `12:30`) as minutes; a time-formatted number as its fraction of a day.
    func minutes(_ column: String) throws -> Int? {
        switch cell(column) {
        case .empty: return nil
        case .number(let days) where days.isFinite && days >= 0 && days < 1_000_000:
            return Int((days * 1440).rounded())
        case .text(let raw):
            let text = raw.trimmingWhitespace
            if text.isEmpty { return nil }
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 2, parts[1].count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
               parts[0].count <= 6, let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60 {
                return hours * 60 + minutes
            }
            fallthrough
        default:
            throw context.error(.badValue, row: number, column: header.printed[column] ?? column,
                                "\"\(cell(column).text ?? "")\" is not a duration (H:MM)")
        }
    }
}

/// The sums of a table's summed columns since the last totals row and over the whole report, held against what
/// each totals row prints under them (a totals row right after another totals the whole report: `PMC Total`
/// after the last `SiteTotal`).
struct ColumnSums {
    private let columns: [RawColumn]
    private var group: [Int64]
    private var all: [Int64]
    private var recordsSinceTotal = 0

    init(_ table: RawTable) {
        columns = table.columns.filter { $0.summed && $0.header != nil }
        group = Array(repeating: 0, count: columns.count)
        all = group
    }

    mutating func add(_ record: RawRow) {
        for (index, column) in columns.enumerated() {
            let quantity = Self.quantity(record[column.name])
            group[index] += quantity
            all[index] += quantity
        }
        recordsSinceTotal += 1
    }

    /// Warns for every column whose sum differs from the figure the totals row prints, then starts the next group.
    mutating func check(_ row: SheetRow, label: String, header: HeaderMap, context: ParseContext) throws {
        let totals = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
        let sums = recordsSinceTotal == 0 ? all : group
        for (index, column) in columns.enumerated() {
            guard let spec = column.header else { continue }
            let printed = try totals.value(spec.name, as: column.kind)
            guard printed != .null else { continue }
            context.crossCheck(column.name.replacingOccurrences(of: "_", with: " "),
                               computed: Quantity(kind: column.kind, amount: sums[index]),
                               printed: Quantity(kind: column.kind, amount: Self.quantity(printed)),
                               label: label, row: row.number)
        }
        group = Array(repeating: 0, count: columns.count)
        recordsSinceTotal = 0
    }

    /// Cents for money, the count or minutes otherwise (the kinds a column can be summed in).
    private static func quantity(_ value: RawValue) -> Int64 {
        switch value {
        case .money(let amount): amount.cents
        case .integer(let count): Int64(count)
        default: 0
        }
    }

    /// A summed figure, printed as the report prints it.
    struct Quantity: TotalFigure {
        let kind: RawColumnKind
        let amount: Int64

        var figure: Double { kind == .money ? Money(cents: amount).dollars : Double(amount) }

        var description: String {
            switch kind {
            case .money: Money(cents: amount).description
            case .minutes: "\(amount / 60):\(amount % 60 < 10 ? "0" : "")\(amount % 60)"
            default: "\(amount)"
            }
        }
    }
}
