import SQLiteKit

/// What one `ownerdash query` answered: the metric, the parameters it ran with, and one or more tables of rows,
/// ready for any output format (Render turns it into an aligned table, JSON or CSV).
///
/// The first table is the metric's main answer (`rows`, and `total` for a roll-up); a metric may add more
/// (`top_residents` of delinquency, `leads_by_source` of the funnel, `trade_out` of pricing).
public struct MetricResult: Sendable, Equatable {
    /// The metric's name on the command line (`occupancy`).
    public var metric: String
    /// The parameters in the order they are printed (`properties`, `portfolio`, `as_of`, ...).
    public var parameters: [Parameter]
    /// The main table first.
    public var tables: [MetricTable]
    /// What the answer left out (a portfolio property without a snapshot at the date): stderr lines, not output.
    public var warnings: [String]

    /// A result of the given tables.
    public init(metric: String, parameters: [Parameter], tables: [MetricTable], warnings: [String] = []) {
        self.metric = metric; self.parameters = parameters; self.tables = tables; self.warnings = warnings
    }

    /// How a column's values are shown: alignment and decimals in a table, the number type in JSON and CSV.
    public enum Kind: Sendable, Equatable {
        /// Words (a property key, a floorplan, a name); left-aligned.
        case text
        /// `YYYY-MM-DD`.
        case date
        /// `YYYY-MM`.
        case month
        /// A whole number of units, residents, events.
        case count
        /// Dollars; two decimals and thousands separators in a table.
        case money
        /// Percent 0-100; `95.35%` in a table, `95.35` in JSON and CSV.
        case percent
        /// A plain number shown with this many decimals in a table and CSV (avg sq ft, rent per sq ft).
        case decimal(Int)
    }

    /// A flag as a text column shows it: `yes`, `no`, or null where the source says nothing.
    public static func yesNo(_ flag: Bool?) -> SQLValue { flag.map { .text($0 ? "yes" : "no") } ?? .null }

    /// One column: its name in JSON and CSV (`exposure_30_pct`) and its kind.
    public struct Column: Sendable, Equatable {
        public var name: String
        public var kind: Kind
        /// An identifier that joins a result's tables for programs reading JSON or CSV (debtors' `email:...` person
        /// key), meaningless to a reader: workbooks leave it out.
        public var isJoinKey: Bool
        /// A column named as in JSON and CSV.
        public init(_ name: String, _ kind: Kind, isJoinKey: Bool = false) {
            self.name = name; self.kind = kind; self.isJoinKey = isJoinKey
        }
    }

    /// One parameter the metric ran with (printed in the JSON header object and the table's title line).
    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var value: Value
        /// A named parameter.
        public init(_ name: String, _ value: Value) { self.name = name; self.value = value }

        /// A parameter's value; `null` when the metric used its default (e.g. no `--as-of`: each latest snapshot).
        public enum Value: Sendable, Equatable {
            case null
            case text(String)
            case integer(Int)
            case bool(Bool)
            case list([String])
        }
    }
}

/// One table of a metric result: rows under named, typed columns, and an optional roll-up row below them.
public struct MetricTable: Sendable, Equatable {
    /// The JSON key of the table (`rows` for the main table, `top_residents`, ...).
    public var name: String
    /// The line printed above the table in the table format.
    public var title: String
    public var columns: [MetricResult.Column]
    /// Each row holds one value per column, in column order; `.null` is "unknown / not applicable".
    public var rows: [[SQLValue]]
    /// The roll-up row (JSON key `total`), e.g. the portfolio weighted by units; nil when not asked for.
    public var total: [SQLValue]?

    /// A table; every row must have one value per column.
    public init(name: String, title: String, columns: [MetricResult.Column], rows: [[SQLValue]], total: [SQLValue]? = nil) {
        precondition(rows.allSatisfy { $0.count == columns.count } && (total?.count ?? columns.count) == columns.count,
                     "every row of \(name) needs one value per column")
        self.name = name; self.title = title; self.columns = columns; self.rows = rows; self.total = total
    }
}

/// A typed metric row that can be shown as a row of a `MetricTable`.
public protocol MetricRow: Sendable {
    /// The columns, in the order of `values`.
    static var columns: [MetricResult.Column] { get }
    /// One value per column.
    var values: [SQLValue] { get }
}

extension MetricTable {
    /// A table of typed rows (and their roll-up).
    public init<Row: MetricRow>(name: String, title: String, rows: [Row], total: Row? = nil) {
        self.init(name: name, title: title, columns: Row.columns, rows: rows.map(\.values), total: total?.values)
    }
}
