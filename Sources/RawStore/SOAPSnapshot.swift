import Foundation
import LibCryptoKit
import OwnerDashCore
import SOAP
import SQLiteKit
import ZipKit

/// What a caller prints for one loaded SOAP artifact, whichever system it came from.
public protocol SOAPLoadOutcome: Sendable {
    var artifact: String { get }
    var operationName: String { get }
    var propertyKey: String { get }
    var asOf: LocalDate { get }
    var rows: Int { get }
    var alreadyLoaded: Bool { get }
    /// What the load found worth a warning (a full ledger pull that differs from the merged ledger).
    var warnings: [String] { get }
    /// A word on what was written, for the log (a ledger merge's new / updated / removed rows).
    var note: String? { get }
    /// Set when the rows equal the previous snapshot's: the run that stored them (nothing was stored again).
    var unchangedSinceRun: String? { get }
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

        /// Its `raw_lineage` row, added when new.
        func id(_ database: Database) throws -> Int64 {
            try RawLineage.id(database, runID: runID, propertyID: propertyID, asOf: asOf, artifact: artifact, sha256: sha256)
        }
    }

    /// Inside an open transaction: deletes the (property, as-of) snapshot of `table` and inserts `rows`
    /// through one statement prepared for the artifact. Every row has the same columns in the same order.
    static func replace(_ database: Database, table: String, lineage: Lineage, rows: [[(String, SQLValue)]]) throws {
        let writer = try SnapshotWriter(database, table: table, lineage: lineage)
        for row in rows { try writer.insert(row) }
    }

    /// Inside an open transaction: deletes the (property, as-of) snapshot of `table`, then inserts rows one at a
    /// time through one statement prepared at the first row (every row has that row's columns, in its order).
    final class SnapshotWriter {
        private let database: Database
        private let table: String
        private let stamp: [SQLValue]
        private var statement: Statement?
        private var indices: [Int32] = []
        private(set) var count = 0

        init(_ database: Database, table: String, lineage: Lineage) throws {
            self.database = database
            self.table = table
            stamp = [.integer(try lineage.id(database)), .text(lineage.propertyID), .text(lineage.asOf)]
            try database.prepare("DELETE FROM \(table) WHERE property_id = :property AND as_of_date = :as_of")
                .execute([":property": .text(lineage.propertyID), ":as_of": .text(lineage.asOf)])
        }

        func insert(_ row: [(String, SQLValue)]) throws {
            let statement = try self.statement ?? prepare(row)
            statement.resetKeepingBindings()   // every parameter is bound below
            for (offset, value) in stamp.enumerated() {
                try statement.bind(value, at: indices[offset])
            }
            for (offset, column) in row.enumerated() {
                try statement.bind(column.1, at: indices[stamp.count + offset])
            }
            _ = try statement.step()
            count += 1
        }

        private func prepare(_ row: [(String, SQLValue)]) throws -> Statement {
            let columns = ["lineage_id", "property_id", "as_of_date"] + row.map(\.0)
            let statement = try database.prepare("""
                INSERT INTO \(table) (\(columns.joined(separator: ", ")))
                VALUES (\(columns.map { ":" + $0 }.joined(separator: ", ")))
                """)
            indices = columns.map { statement.parameterIndex(":" + $0) }
            self.statement = statement
            return statement
        }
    }

    /// What loading one landed response did.
    struct Loaded {
        var artifact: String
        var rows: Int
        var alreadyLoaded: Bool
        /// The run whose rows this snapshot is, when it equals the previous one (nothing stored again).
        var unchangedSinceRun: String? = nil
        /// A word for the log on how it was loaded (a load by record's copies).
        var note: String? = nil
    }

    /// The load flow the Yardi and RPX loaders share: check the bytes against the manifest's sha256, skip
    /// bytes already loaded for this (operation, property, as-of), decode before any write (a bad artifact
    /// fails without touching the database), then replace the snapshot and record the artifact in
    /// `loaded_artifacts` in one transaction. `keyColumn` names the operation column of that table.
    /// `byRecord`: the answer may be loaded by record (`RecordLoad`; RPX's whole-state lists).
    static func load(into database: Database, keyColumn: String, table: String, operation: String, path: String,
                     property: Property, asOf: LocalDate, runID: RunID, expectedSHA256: String?, reload: Bool = false,
                     byRecord: RecordLoad? = nil,
                     decode: ([UInt8]) throws -> [[(String, SQLValue)]]) throws -> Loaded {
        try load(into: database, keyColumn: keyColumn, table: table, operation: operation, path: path, property: property,
                 asOf: asOf, runID: runID, expectedSHA256: expectedSHA256, reload: reload, decodeFirst: true,
                 byRecord: byRecord) { bytes, emit in
            for row in try decode(bytes) { try emit(row) }
        }
    }

    /// The same flow for a response too large to hold decoded: `stream` hands rows to `emit` as it reads them and
    /// each is inserted at once, inside the transaction, so a bad value half-way rolls the whole artifact back.
    static func load(into database: Database, keyColumn: String, table: String, operation: String, path: String,
                     property: Property, asOf: LocalDate, runID: RunID, expectedSHA256: String?, reload: Bool = false,
                     stream: ([UInt8], _ emit: ([(String, SQLValue)]) throws -> Void) throws -> Void) throws -> Loaded {
        try load(into: database, keyColumn: keyColumn, table: table, operation: operation, path: path, property: property,
                 asOf: asOf, runID: runID, expectedSHA256: expectedSHA256, reload: reload, decodeFirst: false,
                 byRecord: nil, stream: stream)
    }

    private static func load(into database: Database, keyColumn: String, table: String, operation: String, path: String,
                             property: Property, asOf: LocalDate, runID: RunID, expectedSHA256: String?, reload: Bool,
                             decodeFirst: Bool, byRecord: RecordLoad?,
                             stream: ([UInt8], _ emit: ([(String, SQLValue)]) throws -> Void) throws -> Void) throws -> Loaded {
        let bytes = try readBytes(path)
        let sha256 = SHA256.hexDigest(of: bytes)
        if let expectedSHA256, expectedSHA256 != sha256 {
            throw ReportLoadError("the file's sha256 differs from the run's manifest (edited after it landed?)")
        }
        let key: [String: SQLValue] = [":operation": .text(operation), ":property": .text(property.key), ":as_of": .text(asOf.iso)]
        let previous = try database.query("""
            SELECT artifact_sha256, row_count, artifact FROM loaded_artifacts
            WHERE \(keyColumn) = :operation AND property_id = :property AND as_of_date = :as_of
            """, key).first
        // `reload` (a replay after a decoder fix) decodes the same bytes again and replaces the snapshot.
        if !reload, let previous, previous[0].textValue == sha256 {
            return Loaded(artifact: previous[2].textValue ?? path, rows: Int(previous[1].integerValue ?? 0), alreadyLoaded: true)
        }
        let lineage = Lineage(runID: runID.value, propertyID: property.key, asOf: asOf.iso, artifact: path, sha256: sha256)
        do {
            // Small responses are decoded before the write lock is taken; large ones stream inside the transaction.
            var decoded: [[(String, SQLValue)]]?
            var rowsSHA256: String?
            var plan: RecordLoad.Plan?
            // The answer's records, digested: compared with the night before's, and remembered for the next night's.
            let cut = decodeFirst ? byRecord?.cut(bytes) : nil
            if !reload, let byRecord, let cut {
                plan = try byRecord.plan(database, keyColumn: keyColumn, key: operation, table: table, property: property.key,
                                         asOf: asOf, current: cut, sha256: sha256) { document in
                    var rows: [[(String, SQLValue)]] = []
                    try stream(document) { rows.append($0) }
                    return rows
                }
            }
            if decodeFirst, plan == nil {
                var rows: [[(String, SQLValue)]] = []
                try stream(bytes) { rows.append($0) }
                decoded = rows
                if UnchangedSnapshots.storesOnce(operation) {
                    var digest = RowsDigest()
                    for row in rows { digest.add(table: table, row) }
                    rowsSHA256 = digest.hex()
                }
            }
            var unchanged: UnchangedSnapshots.Stored?
            // The night before's rows a load by record did not copy (RecordLoad.Plan.write); nil: decoded whole.
            var rowsDropped: Int?
            let count = try database.withTransaction {
                try UnchangedSnapshots.releaseDependents(database, keyColumn: keyColumn, key: operation, property: property.key,
                                                         asOf: asOf, tables: [table], totals: false)
                if let rowsSHA256, let previous = try UnchangedSnapshots.previous(
                    database, keyColumn: keyColumn, key: operation, property: property.key, asOf: asOf),
                   previous.rowsSHA256 == rowsSHA256 {
                    unchanged = previous
                }
                let writer = try SnapshotWriter(database, table: table, lineage: lineage)
                if let plan {
                    if plan.isUnchanged {
                        unchanged = plan.previous
                        rowsSHA256 = plan.previous.rowsSHA256
                    } else {
                        rowsDropped = try plan.write(database, table: table, lineage: lineage, writer: writer)
                    }
                } else if let decoded {
                    // Identical to the previous snapshot: recorded as unchanged since its run, its rows not stored again.
                    if unchanged == nil {
                        for row in decoded { try writer.insert(row) }
                    }
                } else {
                    try stream(bytes) { try writer.insert($0) }
                }
                let rows = plan?.count ?? (unchanged == nil ? writer.count : decoded?.count ?? 0)
                try database.prepare("""
                    INSERT INTO loaded_artifacts (\(keyColumn), property_id, as_of_date, artifact, artifact_sha256, run_id, row_count)
                    VALUES (:operation, :property, :as_of, :artifact, :sha, :run, :rows)
                    ON CONFLICT (\(keyColumn), property_id, as_of_date) DO UPDATE SET
                        artifact = excluded.artifact, artifact_sha256 = excluded.artifact_sha256, run_id = excluded.run_id,
                        row_count = excluded.row_count, loaded_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
                    """).execute(key.merging([":artifact": .text(path), ":sha": .text(sha256), ":run": .text(runID.value),
                                              ":rows": .integer(Int64(rows))]) { $1 })
                try UnchangedSnapshots.record(database, keyColumn: keyColumn, key: operation, property: property.key,
                                              asOf: asOf, rowsSHA256: rowsSHA256, unchangedSince: unchanged)
                if let byRecord {
                    try RecordLoad.remember(cut, database, key: operation, property: property.key, sha256: sha256)
                    try database.prepare("""
                        UPDATE loaded_artifacts SET decoded_by = :build, rows_dropped = :dropped
                        WHERE \(keyColumn) = :operation AND property_id = :property AND as_of_date = :as_of
                        """).execute(key.merging([":build": .text(byRecord.build), ":dropped": SQLValue(rowsDropped)]) { $1 })
                }
                return rows
            }
            return Loaded(artifact: path, rows: count, alreadyLoaded: false, unchangedSinceRun: unchanged?.runID,
                          note: unchanged == nil ? plan?.note : nil)
        } catch let error as SOAPError {
            throw ReportLoadError(error.forProperty(property.key).description)
        }
    }

    /// The file's bytes, read in 1 MiB pieces straight into one array: `Data` then `[UInt8]` would hold a ledger twice.
    /// A landing-zone object ending `.z` is inflated as it is read (the compressed copy is never held whole); one cut
    /// short or garbled is refused with the reason.
    static func readBytes(_ path: String) throws -> [UInt8] {
        if path.hasSuffix(".z") {
            var bytes: [UInt8] = []
            // XML answers deflate 10 to 15 times: room for that once, instead of a ledger's array copied at each
            // doubling (pages of the room not written are never touched).
            if let compressed = FileStatus.size(atPath: path) {
                bytes.reserveCapacity(compressed * 16)
            }
            do {
                try DeflatedFile.inflate(path) { bytes.append(contentsOf: $0) }
            } catch {
                throw ReportLoadError("the compressed landed object cannot be read: \(error)")
            }
            return bytes
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ReportLoadError("cannot read the file") }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        do {
            bytes.reserveCapacity(Int(try handle.seekToEnd()))
            try handle.seek(toOffset: 0)
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                bytes.append(contentsOf: chunk)
            }
        } catch {
            throw ReportLoadError("cannot read the file: \(error.localizedDescription)")
        }
        return bytes
    }

    static func money(_ value: Money?) -> SQLValue { value.map { .real($0.dollars) } ?? .null }
    static func flag(_ value: Bool?) -> SQLValue { value.map { .integer($0 ? 1 : 0) } ?? .null }
    static func date(_ value: LocalDate?) -> SQLValue { value.map { .text($0.iso) } ?? .null }
}
