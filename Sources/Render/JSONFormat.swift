import Metrics
import SQLiteKit

/// The JSON format: one top-level object with, in this order, `metric`, `parameters` (an object, in the metric's
/// parameter order), `rows` (one object per row, keys in column order), `total` (the roll-up row, or null), then
/// each further table under its name (`top_residents`, `leads_by_source`, `trade_out`). Numbers are JSON numbers
/// (money with two decimals), unknown values null. One row per line, so the output diffs well.
enum JSONFormat {
    static func render(_ result: MetricResult) -> String {
        var members: [(String, String)] = [
            ("metric", string(result.metric)),
            ("parameters", "{" + result.parameters.map { string($0.name) + ": " + parameter($0.value) }.joined(separator: ", ") + "}"),
        ]
        for (index, table) in result.tables.enumerated() {
            let rows = table.rows.map { "    " + object($0, table.columns) }
            members.append((table.name, rows.isEmpty ? "[]" : "[\n" + rows.joined(separator: ",\n") + "\n  ]"))
            if index == 0 {
                members.append(("total", table.total.map { object($0, table.columns) } ?? "null"))
            } else if let total = table.total {
                members.append((table.name + "_total", object(total, table.columns)))
            }
        }
        return "{\n" + members.map { "  " + string($0.0) + ": " + $0.1 }.joined(separator: ",\n") + "\n}\n"
    }

    static func object(_ row: [SQLValue], _ columns: [MetricResult.Column]) -> String {
        "{" + zip(columns, row).map { column, value in string(column.name) + ": " + json(value, column.kind) }
            .joined(separator: ", ") + "}"
    }

    static func json(_ value: SQLValue, _ kind: MetricResult.Kind) -> String {
        switch (value, kind) {
        case (.null, _): return "null"
        case (.text(let text), _): return string(text)
        case (_, .text), (_, .date), (_, .month): return value.textValue.map(string) ?? "null"
        case (_, .count): return value.integerValue.map { String($0) } ?? "null"
        case (_, .money):
            guard let dollars = value.doubleValue, dollars.isFinite else { return "null" }
            return ValueText.fixed(dollars, decimals: 2, grouping: false)
        case (_, .percent), (_, .decimal):
            guard let number = value.doubleValue, number.isFinite else { return "null" }
            return ValueText.plain(number)
        }
    }

    static func parameter(_ value: MetricResult.Parameter.Value) -> String {
        switch value {
        case .null: "null"
        case .text(let text): string(text)
        case .integer(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .list(let items): "[" + items.map(string).joined(separator: ", ") + "]"
        }
    }

    /// A JSON string literal (RFC 8259 escapes).
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
