import OwnerDashCore
import XLSXKit

/// A report that is one table under one header: its descriptor says everything a parser needs.
protocol TabularReport {
    static var descriptor: ReportDescriptor { get }
    /// The report restates the same records in other groupings after its first totals row: stop reading there.
    static var endsAtFirstTotal: Bool { get }
}

extension TabularReport {
    static var endsAtFirstTotal: Bool { false }
}

/// Reads a `TabularReport`: every data row holding its key columns is one record of the descriptor's table (each
/// read column from the cell under its header), and every totals row is held against the sums of the summed columns
/// and the count its label prints, since the previous totals row.
struct TabularParser<Report: TabularReport>: OneSiteReportParser {
    static var layouts: [HeaderLayout] {
        [Report.descriptor.table.layout(for: Report.descriptor.type, name: Report.descriptor.displayName)]
    }

    let header: HeaderMap
    let context: ParseContext
    private let table: RawTable
    private let summed: [RawColumn]
    private var sums: [Money]
    private var counter = GroupCounter()

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
        table = Report.descriptor.table
        summed = table.columns.filter(\.summed)
        sums = Array(repeating: .zero, count: summed.count)
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        switch kind {
        case .label, .continuation:
            return true
        case .total(let label, let count):
            counter.check(count, label: label, row: row.number, what: "records", context: context)
            let totals = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
            for (index, column) in summed.enumerated() {
                guard let spec = column.header else { continue }
                context.crossCheck(column.name.replacingOccurrences(of: "_", with: " "), computed: sums[index],
                                   printed: try totals.money(spec.name), label: label, row: row.number)
            }
            sums = Array(repeating: .zero, count: summed.count)
            return !Report.endsAtFirstTotal
        case .data:
            let view = RowView(row: row, header: header, context: context)
            guard let record = try Self.record(from: view, table: table) else { return true }
            for (index, column) in summed.enumerated() { sums[index] += record[column.name].money ?? .zero }
            counter.add()
            records.append(.row(record))
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}

    /// The record a row holds: nil when a key column is blank (a label or footer line, not a record).
    static func record(from view: RowView, table: RawTable) throws -> RawRow? {
        var record = RawRow(table, sourceRow: view.number)
        for column in table.columns {
            guard let spec = column.header else { continue }
            let value = try view.value(spec.name, as: column.kind)
            if column.isKey, value == .null { return nil }
            record[column.name] = value
        }
        return record
    }
}

extension RowView {
    /// The cell under a column read as a descriptor column's kind.
    func value(_ column: String, as kind: RawColumnKind) throws -> RawValue {
        switch kind {
        case .text: return RawValue(text(column))
        case .integer: return RawValue(try count(column))
        case .number: return RawValue(try decimal(column))
        case .money: return RawValue(try money(column))
        case .date: return RawValue(try date(column))
        case .percent: return RawValue(try percent(column))
        }
    }
}
