import Metrics
import SQLiteKit

/// The table format: for each table of the result, its title line, then the column names, a rule, the rows, and
/// the roll-up row below a second rule; numbers right-aligned, money with two decimals and thousands separators,
/// percents with `%`, unknown values as `-`. Tables are separated by an empty line.
enum TableFormat {
    static func render(_ result: MetricResult) -> String {
        result.tables.map(render).joined(separator: "\n")
    }

    static func render(_ table: MetricTable) -> String {
        let header = table.columns.map(\.name)
        let body = table.rows.map { cells($0, table.columns) }
        let total = table.total.map { cells($0, table.columns) }
        var widths = header.map(\.count)
        for row in body + (total.map { [$0] } ?? []) {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        let rightAligned = table.columns.map { isNumeric($0.kind) }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return rightAligned[index] ? padding + cell : cell + padding
            }
            return trimmingTrailingSpaces(padded.joined(separator: "  "))
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        var lines = [table.title, line(header), rule]
        lines += body.map(line)
        if body.isEmpty { lines.append("(no rows)") }
        if let total { lines += [rule, line(total)] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A row's values as the table shows them.
    static func cells(_ row: [SQLValue], _ columns: [MetricResult.Column]) -> [String] {
        zip(row, columns).map { value, column in cell(value, column.kind) }
    }

    static func cell(_ value: SQLValue, _ kind: MetricResult.Kind) -> String {
        if value.isNull { return ValueText.unknown }
        switch kind {
        case .text, .date, .month:
            // One line per row: a line break or tab inside a name would break the columns.
            return (value.textValue ?? ValueText.unknown).map { $0.isNewline || $0 == "\t" ? " " : String($0) }.joined()
        case .count:
            return value.integerValue.map(ValueText.count) ?? ValueText.unknown
        case .money:
            return value.doubleValue.map { ValueText.fixed($0, decimals: 2, grouping: true) } ?? ValueText.unknown
        case .percent:
            return value.doubleValue.map { ValueText.fixed($0, decimals: 2, grouping: true) + "%" } ?? ValueText.unknown
        case .decimal(let places):
            return value.doubleValue.map { ValueText.fixed($0, decimals: places, grouping: true) } ?? ValueText.unknown
        }
    }

    static func isNumeric(_ kind: MetricResult.Kind) -> Bool {
        switch kind {
        case .text, .date, .month: false
        case .count, .money, .percent, .decimal: true
        }
    }

    private static func trimmingTrailingSpaces(_ text: String) -> String {
        var text = Substring(text)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
