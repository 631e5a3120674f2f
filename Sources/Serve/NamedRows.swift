import SQLiteKit

extension Database {
    /// Runs a query and returns each row by column name (so a SELECT list can change order freely).
    func namedRows(_ sql: String, _ values: [String: SQLValue] = [:]) throws -> [[String: SQLValue]] {
        let statement = try prepare(sql)
        let names = (0..<statement.columnCount).map(statement.columnName)
        var rows: [[String: SQLValue]] = []
        try statement.forEachRow(values) { row in
            rows.append(Dictionary(zip(names, row.currentRow()), uniquingKeysWith: { first, _ in first }))
        }
        return rows
    }
}
