import Foundation
import OwnerDashCore
import SOAP
import SQLiteKit

/// What a caller prints for one loaded SOAP artifact, whichever system it came from.
public protocol SOAPLoadOutcome: Sendable {
    var artifact: String { get }
    var operationName: String { get }
    var propertyKey: String { get }
    var asOf: LocalDate { get }
    var rows: Int { get }
    var alreadyLoaded: Bool { get }
}

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

    /// What loading one landed response did.
    struct Loaded {
        var artifact: String
        var rows: Int
        var alreadyLoaded: Bool
    }

    /// The load flow the Yardi and RPX loaders share: check the bytes against the manifest's sha256, skip
    /// bytes already loaded for this (operation, property, as-of), decode before any write (a bad artifact
    /// fails without touching the database), then replace the snapshot and record the artifact in
    /// `loaded_artifacts` in one transaction. `keyColumn` names the operation column of that table.
    static func load(into database: Database, keyColumn: String, table: String, operation: String, path: String,
                     property: Property, asOf: LocalDate, runID: RunID, expectedSHA256: String?,
                     decode: ([UInt8]) throws -> [[(String, SQLValue)]]) throws -> Loaded {
        guard let data = FileManager.default.contents(atPath: path) else { throw ReportLoadError("cannot read the file") }
        let bytes = [UInt8](data)
        var hasher = SHA256()
        hasher.update(bytes)
        let sha256 = hasher.finalizeHex()
        if let expectedSHA256, expectedSHA256 != sha256 {
            throw ReportLoadError("the file's sha256 differs from the run's manifest (edited after it landed?)")
        }
        let key: [String: SQLValue] = [":operation": .text(operation), ":property": .text(property.key), ":as_of": .text(asOf.iso)]
        let previous = try database.query("""
            SELECT artifact_sha256, row_count, artifact FROM loaded_artifacts
            WHERE \(keyColumn) = :operation AND property_id = :property AND as_of_date = :as_of
            """, key).first
        if let previous, previous[0].textValue == sha256 {
            return Loaded(artifact: previous[2].textValue ?? path, rows: Int(previous[1].integerValue ?? 0), alreadyLoaded: true)
        }
        let rows: [[(String, SQLValue)]]
        do {
            rows = try decode(bytes)
        } catch let error as SOAPError {
            throw ReportLoadError(error.forProperty(property.key).description)
        }
        try database.withTransaction {
            try replace(database, table: table, lineage: Lineage(runID: runID.value, propertyID: property.key,
                                                                 asOf: asOf.iso, artifact: path, sha256: sha256), rows: rows)
            try database.prepare("""
                INSERT INTO loaded_artifacts (\(keyColumn), property_id, as_of_date, artifact, artifact_sha256, run_id, row_count)
                VALUES (:operation, :property, :as_of, :artifact, :sha, :run, :rows)
                ON CONFLICT (\(keyColumn), property_id, as_of_date) DO UPDATE SET
                    artifact = excluded.artifact, artifact_sha256 = excluded.artifact_sha256, run_id = excluded.run_id,
                    row_count = excluded.row_count, loaded_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
                """).execute(key.merging([":artifact": .text(path), ":sha": .text(sha256), ":run": .text(runID.value),
                                          ":rows": .integer(Int64(rows.count))]) { $1 })
        }
        return Loaded(artifact: path, rows: rows.count, alreadyLoaded: false)
    }

    static func money(_ value: Money?) -> SQLValue { value.map { .real($0.dollars) } ?? .null }
    static func flag(_ value: Bool?) -> SQLValue { value.map { .integer($0 ? 1 : 0) } ?? .null }
    static func date(_ value: LocalDate?) -> SQLValue { value.map { .text($0.iso) } ?? .null }
}
