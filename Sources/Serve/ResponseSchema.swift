import Metrics

/// JSON Schemas (draft 2020-12, OpenAPI 3.1's dialect) of the bodies the API answers with: the CLI's `--format json`
/// report shape (Render's `JSONFormat`: `metric`, `parameters`, the main table, `total`, further tables, `warnings`)
/// built from the same column lists the tables are written with where those are public (the metrics' `*Row.columns`),
/// and the problem details. `OpenAPITests` validates every route's actual answer against its schema.
enum ResponseSchema {
    /// One table of a report: its JSON key, its columns, whether it has a roll-up row, whether it is always there.
    struct Table {
        var name: String
        var description: String
        var columns: [MetricResult.Column]
        /// Columns after `columns` that only some answers have (`risk_next_month_pct`, only while the delinquency
        /// forecast is shown): described, not required.
        var optionalColumns: [MetricResult.Column] = []
        /// Columns named by the data (months, windows): a regular expression over the name, and the kind.
        var patternColumns: [(pattern: String, kind: MetricResult.Kind)] = []
        var total = false
        /// Present only when it has rows to show (`no_ledger`, `top_residents` with `top=0` left out).
        var optional = false
    }

    /// The `ledger_whole_as_of` table of the ledger reports and of the delinquency a ledger sums (Metrics'
    /// `LedgerWholeAsOf`).
    static let ledgerWholeAsOf = Table(
        name: "ledger_whole_as_of",
        description: "Properties whose ledger nightly windows have brought past its last whole pull (whole_as_of): a "
            + "posting entered since and dated before the windows (an adjustment to an old month) shows from the next "
            + "whole pull (weekly).",
        columns: [.init("property", .text), .init("as_of", .date), .init("whole_as_of", .date)], optional: true)

    /// A report answer: `metric` is always `metric`; `parameters` the parameters it printed (each name's schema); the
    /// first table is the main one, followed by `total` (its roll-up row or null).
    static func report(_ metric: String, _ description: String, parameters: [(String, JSONValue)], tables: [Table]) -> JSONValue {
        var properties: [JSONValue.Member] = [
            .init("metric", ["const": .string(metric)]),
            .init("parameters", ["type": "object", "description": "What the answer was computed with (null: the default).",
                                 "properties": .object(parameters.map { JSONValue.Member($0.0, $0.1) }),
                                 "required": .array(parameters.map { .string($0.0) }), "additionalProperties": false]),
        ]
        var required: [JSONValue] = ["metric", "parameters"]
        for (index, table) in tables.enumerated() {
            properties.append(.init(table.name, ["type": "array", "description": .string(table.description), "items": row(table)]))
            if !table.optional { required.append(.string(table.name)) }
            if index == 0 {
                properties.append(.init("total", ["description": "The roll-up row of the main table, or null.",
                                                  "oneOf": [row(table, total: true), ["type": "null"]]]))
                required.append("total")
            } else if table.total {
                properties.append(.init(table.name + "_total", row(table, total: true)))
                required.append(.string(table.name + "_total"))
            }
        }
        properties.append(.init("warnings", ["type": "array", "items": ["type": "string"],
                                             "description": "What the answer left out and why (the lines the CLI writes to stderr); only when there are any."]))
        return ["type": "object", "description": .string(description), "properties": .object(properties),
                "required": .array(required), "additionalProperties": false]
    }

    /// One row object: every column, in order, null when unknown. A roll-up row may put a label (`total`, `portfolio`,
    /// `2 debtors`) in any of its columns, so there every value may also be text.
    static func row(_ table: Table, total: Bool = false) -> JSONValue {
        var row: JSONValue = ["type": "object",
                              "properties": .object((table.columns + table.optionalColumns).map { .init($0.name, value($0.kind, label: total)) }),
                              "required": .array(table.columns.map { .string($0.name) })]
        if !table.patternColumns.isEmpty {
            row = row.setting("patternProperties", .object(table.patternColumns.map { .init($0.pattern, value($0.kind, label: total)) }))
        }
        return row.setting("additionalProperties", false)
    }

    /// A value of a column of that kind, as `JSONFormat.json` writes it.
    static func value(_ kind: MetricResult.Kind, label: Bool = false) -> JSONValue {
        let schema: JSONValue
        switch kind {
        case .text: return ["type": ["string", "null"]]
        case .date: schema = ["type": ["string", "null"], "format": "date"]
        case .month: schema = ["type": ["string", "null"], "pattern": .string(APIParameter.monthPattern)]
        case .count: schema = ["type": ["integer", "null"]]
        case .money: schema = ["type": ["number", "null"], "description": "dollars"]
        case .percent: schema = ["type": ["number", "null"], "description": "percent, 0-100"]
        case .decimal: schema = ["type": ["number", "null"]]
        }
        return label ? ["anyOf": [schema, ["type": "string"]]] : schema
    }

    /// The metrics' common parameters (`MetricQuery`'s `parameters`): the properties asked for, whether rolled up, the
    /// PMS filter and the date.
    static let metricParameters: [(String, JSONValue)] = [
        ("properties", ["type": "array", "items": ["type": "string"]]),
        ("portfolio", ["type": "boolean"]),
        ("pms", ["type": ["string", "null"]]),
        ("as_of", nullable(date)),
    ]

    static let date: JSONValue = ["type": "string", "format": "date"]
    static let month: JSONValue = ["type": "string", "pattern": .string(APIParameter.monthPattern)]
    static let text: JSONValue = ["type": "string"]
    static let integer: JSONValue = ["type": "integer"]
    static let boolean: JSONValue = ["type": "boolean"]
    static let propertyList: JSONValue = ["type": "array", "items": ["type": "string"]]
    /// An amount parameter as the reports print it: dollars with two decimals, as text.
    static let amountText: JSONValue = ["type": ["string", "null"], "pattern": "^[0-9]+\\.[0-9]{2}$"]

    /// `schema` or null.
    static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .string(let type)? = schema["type"] else { return ["oneOf": [schema, ["type": "null"]]] }
        return schema.setting("type", [.string(type), "null"])
    }

    /// An RFC 9457 problem details body, as `Problem.response` writes it.
    static let problem: JSONValue = [
        "type": "object",
        "description": "RFC 9457 problem details: what went wrong in one sentence, and the parameter at fault when there is one.",
        "properties": [
            "type": ["const": "about:blank"],
            "title": ["type": "string", "description": "The status's reason phrase (Bad Request, Not Found, ...)."],
            "status": ["type": "integer", "minimum": 400, "maximum": 599],
            "detail": ["type": "string"],
            "invalid_params": [
                "type": "array", "minItems": 1, "maxItems": 1,
                "description": "The query, path or form parameter at fault (a 400 names it), with the same reason as detail.",
                "items": ["type": "object", "properties": ["name": ["type": "string"], "reason": ["type": "string"]],
                          "required": ["name", "reason"], "additionalProperties": false],
            ],
        ],
        "required": ["type", "title", "status", "detail"],
        "additionalProperties": false,
    ]
}
