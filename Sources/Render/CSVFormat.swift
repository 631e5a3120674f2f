import Metrics
import SQLiteKit

/// The CSV format: each table as a header row of column names and one record per row (the roll-up row last);
/// fields holding a comma, quote, CR or LF are quoted with quotes doubled (RFC 4180); lines end with LF. A result of
/// several tables (delinquency's top residents, the funnel's leads by source, pricing's trade-out) prints each as
/// its own header and records, separated by an empty line.
/// Numbers are plain (no grouping, no `%`): money with two decimals, counts whole, others in shortest form;
/// unknown values are empty fields.
enum CSVFormat {
    static func render(_ result: MetricResult) -> String {
        result.tables.map(render).joined(separator: "\n")
    }

    static func render(_ table: MetricTable) -> String {
        var lines = [table.columns.map { field($0.name) }.joined(separator: ",")]
        for row in table.rows + (table.total.map { [$0] } ?? []) {
            lines.append(zip(row, table.columns).map { value, column in field(value, column.kind) }.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func field(_ value: SQLValue, _ kind: MetricResult.Kind) -> String {
        switch (value, kind) {
        case (.null, _): return ""
        case (.text(let text), _): return field(text)
        case (_, .text), (_, .date), (_, .month): return field(value.textValue ?? "")
        case (_, .count): return value.integerValue.map { String($0) } ?? ""
        case (_, .money): return value.doubleValue.map { ValueText.fixed($0, decimals: 2, grouping: false) } ?? ""
        case (_, .percent), (_, .decimal): return value.doubleValue.map(ValueText.plain) ?? ""
        }
    }

    /// A text field, quoted when it holds a comma, a quote, CR or LF.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
