import OwnerDashCore
import SQLiteKit

/// Replaces one SOAP artifact's snapshot in a raw table: shared by the Yardi and RPX loaders.
enum SOAPSnapshot {
    /// Lineage stamped on every row of one artifact.
    struct Lineage {
        var runID: String
        var propertyID: String
        var asOf: String
        var artifact: String
        var sha256: String
    }

    /// Inside an open transaction: deletes the (property, as-of) snapshot of `table` and inserts `rows`
    /// through one statement prepared for the artifact. Every row has the same columns in the same order.
    static func replace(_ database: Database, table: String, lineage: Lineage, rows: [[(String, SQLValue)]]) throws {
        try database.prepare("DELETE FROM \(table) WHERE property_id = :property AND as_of_date = :as_of")
            .execute([":property": .text(lineage.propertyID), ":as_of": .text(lineage.asOf)])
        guard let first = rows.first else { return }
        let columns = ["run_id", "property_id", "as_of_date", "artifact", "artifact_sha256"] + first.map(\.0)
        let statement = try database.prepare("""
            INSERT INTO \(table) (\(columns.joined(separator: ", ")))
            VALUES (\(columns.map { ":" + $0 }.joined(separator: ", ")))
            """)
        let indices = columns.map { statement.parameterIndex(":" + $0) }
        let stamp: [SQLValue] = [.text(lineage.runID), .text(lineage.propertyID), .text(lineage.asOf), .text(lineage.artifact),
                                 .text(lineage.sha256)]
        for row in rows {
            statement.reset()
            for (offset, value) in (stamp + row.map(\.1)).enumerated() {
                try statement.bind(value, at: indices[offset])
            }
            _ = try statement.step()
        }
    }

    static func money(_ value: Money?) -> SQLValue { value.map { .real($0.dollars) } ?? .null }
    static func flag(_ value: Bool?) -> SQLValue { value.map { .integer($0 ? 1 : 0) } ?? .null }
    static func date(_ value: LocalDate?) -> SQLValue { value.map { .text($0.iso) } ?? .null }
}
