import Metrics
import SQLiteKit

/// The JSON format: one top-level object with, in this order, `metric`, `parameters` (an object, in the metric's
/// parameter order), `rows` (one object per row, keys in column order), `total` (the roll-up row, or null), then
/// each further table under its name (`top_residents`, `leads_by_source`, `trade_out`), then `warnings` (the lines
/// stderr carries: properties left out and why) when there are any. Numbers are JSON numbers
/// (money with two decimals), unknown values null. One row per line, so the output diffs well.
public enum JSONFormat {
    static func render(_ result: MetricResult) -> String {
        // Appended into one string as it goes: a report of tens of thousands of cells is otherwise a string per
        // cell, per row and per table, joined and copied again at each level.
        var out = "{\n  \"metric\": "
        appendString(result.metric, to: &out)
        out += ",\n  \"parameters\": {"
        for (index, parameter) in result.parameters.enumerated() {
            if index > 0 { out += ", " }
            appendString(parameter.name, to: &out)
            out += ": " + Self.parameter(parameter.value)
        }
        out += "}"
        for (index, table) in result.tables.enumerated() {
            let keys = table.columns.map { string($0.name) + ": " }
            out += ",\n  "
            appendString(table.name, to: &out)
            if table.rows.isEmpty {
                out += ": []"
            } else {
                out += ": [\n"
                for (number, row) in table.rows.enumerated() {
                    out += number == 0 ? "    " : ",\n    "
                    appendObject(row, table.columns, keys: keys, to: &out)
                }
                out += "\n  ]"
            }
            if index == 0 {
                out += ",\n  \"total\": "
                if let total = table.total { appendObject(total, table.columns, keys: keys, to: &out) } else { out += "null" }
            } else if let total = table.total {
                out += ",\n  "
                appendString(table.name + "_total", to: &out)
                out += ": "
                appendObject(total, table.columns, keys: keys, to: &out)
            }
        }
        // What the answer leaves out and why (the same lines stderr carries), so a script reading the JSON alone
        // cannot take a missing property for a zero. Only when there are any: answers without stay as they were.
        if !result.warnings.isEmpty {
            out += ",\n  \"warnings\": ["
            for (index, warning) in result.warnings.enumerated() {
                if index > 0 { out += ", " }
                appendString(warning, to: &out)
            }
            out += "]"
        }
        out += "\n}\n"
        return out
    }

    /// `{"column": value, ...}`; `keys` are the columns' names already quoted, with their `: `.
    private static func appendObject(_ row: [SQLValue], _ columns: [MetricResult.Column], keys: [String],
                                     to out: inout String) {
        out += "{"
        for (index, (column, value)) in zip(columns, row).enumerated() {
            if index > 0 { out += ", " }
            out += keys[index]
            if case .text(let text) = value { appendString(text, to: &out) } else { out += json(value, column.kind) }
        }
        out += "}"
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

    /// Appends `text` as a JSON string literal (RFC 8259 escapes); text with nothing to escape (nearly all) is appended
    /// as it is, without going through its scalars.
    static func appendString(_ text: String, to out: inout String) {
        out += "\""
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) else {
            out += text
            out += "\""
            return
        }
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
        out += "\""
    }

    /// A JSON string literal (also for the few bodies `serve` builds itself: problems, health).
    public static func string(_ text: String) -> String {
        var out = ""
        appendString(text, to: &out)
        return out
    }
}
