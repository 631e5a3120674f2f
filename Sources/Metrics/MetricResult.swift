import SQLiteKit

/// The rows one metric query answered, with column names and kinds, ready for any output format.
public struct MetricResult: Sendable, Equatable {
    /// How a column's values are shown (alignment, decimals, JSON type).
    public enum Kind: String, Sendable { case text, count, money, percent, ratio, date }

    /// One column: its name in JSON/CSV (`exposure_30`) and its kind.
    public struct Column: Sendable, Equatable {
        public var name: String
        public var kind: Kind
        public init(_ name: String, _ kind: Kind) { self.name = name; self.kind = kind }
    }

    public var title: String
    public var columns: [Column]
    public var rows: [[SQLValue]]

    public init(title: String, columns: [Column], rows: [[SQLValue]]) {
        self.title = title; self.columns = columns; self.rows = rows
    }
}
