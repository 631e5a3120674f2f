/// A query's result read into Swift: column names and text values (nil for NULL), read by column name.
public struct PostgresRows: Sendable, Sequence {
    public let columns: [String]
    public let values: [[String?]]
    let positions: [String: Int]

    init(columns: [String], values: [[String?]]) {
        self.columns = columns
        self.values = values
        var positions: [String: Int] = [:]
        for (index, name) in columns.enumerated() where positions[name] == nil { positions[name] = index }
        self.positions = positions
    }

    public var count: Int { values.count }
    public var isEmpty: Bool { values.isEmpty }

    public func makeIterator() -> some IteratorProtocol<PostgresRow> {
        values.lazy.map { PostgresRow(values: $0, positions: positions) }.makeIterator()
    }
}

/// One row of a `PostgresRows`, its values read by column name.
public struct PostgresRow: Sendable {
    public let values: [String?]
    let positions: [String: Int]

    /// The text of column `name`; nil for NULL. A name the query does not return is a programming error.
    public subscript(_ name: String) -> String? {
        guard let index = positions[name] else { preconditionFailure("no column \(name) in the result") }
        return values[index]
    }
}
