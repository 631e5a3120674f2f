import Foundation
import LibCryptoKit
import OwnerDashCore
import SQLiteKit

/// A load by record: an RPX whole-state answer (the units, residents, leases and scheduled charges, sent whole every
/// night) whose records the night before's answer of the same property already held, byte for byte, has those records'
/// rows copied inside SQLite from the night before's snapshot; only the records that changed go through libxml2 and
/// the decoder. 99 % of these lists' records repeat from one night to the next (`scripts/bench/record_churn.py`).
///
/// Each such record is one raw row numbered by its place (`source_row`, 1-based), so the night before's record j is
/// its snapshot's row j. The rows are copied only where that certainly gives what decoding the record would:
/// - the night before's snapshot was decoded by this very build (`loaded_artifacts.decoded_by`): a build that reads a
///   record differently (a parser fix) decodes every record once before it copies any;
/// - its answer's records are known: their digests, kept by the load that stored it (`record_digests`, one row per
///   property and list, the last answer loaded; realpage_raw migration 58) for that answer's sha256, else its landed
///   bytes, still in the landing zone (found by their sha256, not by the loaded path, which a moved data directory no
///   longer has) and still hashing to it, cut again;
/// - both answers cut cleanly into their records (`RecordSplit`), the night before's into as many records as its
///   snapshot has rows, numbered 1 to n, and both declare the same encoding (the same XML declaration);
/// - a record repeats when its SHA-256 is the same (reading the night before's answer again, inflating, hashing and
///   cutting it, was a fifth of these lists' load);
/// - the answer with the repeated records cut out decodes to exactly one row per record left in it.
/// Anything else, and `--reload`, decodes the answer whole, as every other answer is.
///
/// An answer whose records are all the night before's, in the same order, is that snapshot again: recorded as
/// unchanged since it, with its `rows_sha256`. A snapshot written by record has no `rows_sha256` (its copied rows were
/// never decoded, so there is nothing to digest them from): whether it is unchanged is decided on its records' bytes,
/// and a whole decode after it (another build) stores the list once more.
struct RecordLoad {
    /// The answer's record element (`RPXOperation.wholeStateRecord`).
    var record: String
    /// The build loading now (`BuildIdentity`): written as the snapshot's `decoded_by`, and the only build whose
    /// snapshots rows are copied from.
    var build: String
    /// Where the landing zone keeps an answer's bytes, by their sha256; nil when it keeps them no more.
    var landedAnswer: (String) -> String?

    /// What a load by record writes: for each record of the answer, the night before's row it copies or the row it
    /// decoded.
    struct Plan {
        /// The night before's snapshot: where its rows are, the run that stored them, its rows' digest and count.
        var previous: UnchangedSnapshots.Stored
        /// For each record, in order: the night before's row (`source_row`) it repeats, or nil when it was decoded.
        var sources: [Int?]
        /// The decoded records' rows, in order, numbered by their place in the whole answer.
        var decoded: [[(String, SQLValue)]]

        var count: Int { sources.count }

        /// Every record is the night before's, in its place: the snapshot is that one again.
        var isUnchanged: Bool {
            Int64(count) == previous.rowCount && decoded.isEmpty && sources.enumerated().allSatisfy { $0.element == $0.offset + 1 }
        }

        /// For the log: how much was copied.
        var note: String {
            "by record: \(decoded.count) of \(count) records decoded, the rest copied from the snapshot of \(previous.asOf)"
        }

        /// Inside the load's transaction, after `writer` has cleared the snapshot: the rows in `source_row` order, runs
        /// of repeated records copied with one statement each.
        ///
        /// A table with a `changed_on` column (realpage_residents, realpage_leases) keeps in it, on each copied row,
        /// the date of the snapshot that decoded its record: the row copied's own (`coalesce(changed_on,
        /// as_of_date)`), so that its content is known unchanged since that date. A record copied out of its order
        /// (found before one copied ahead of it: the list re-sorted there) is dated tonight, as a decoded one is: the
        /// sync's rules break ties by `source_row`, so a household's rows that swapped places have moved.
        ///
        /// For the lists whose households the sync follows (`FollowedLists`), the night before's rows not copied (their
        /// record changed or left the list) are noted with their household and lease in `list_rows_dropped`; returns
        /// how many, nil for another list.
        @discardableResult
        func write(_ database: Database, table: String, lineage: SOAPSnapshot.Lineage,
                   writer: SOAPSnapshot.SnapshotWriter) throws -> Int? {
            let stamped: Set<String> = ["id", "lineage_id", "property_id", "as_of_date", "source_row", "changed_on"]
            let names = try database.query("SELECT name FROM pragma_table_info(:table) ORDER BY cid", [":table": .text(table)])
                .compactMap { $0[0].textValue }
            let columns = names.filter { !stamped.contains($0) }
            let dated = names.contains("changed_on")
            let list = columns.joined(separator: ", ")
            let copy = try database.prepare("""
                INSERT INTO \(table) (lineage_id, property_id, as_of_date, source_row, \(dated ? "changed_on, " : "")\(list))
                SELECT :lineage, property_id, :as_of, source_row + :shift,
                       \(dated ? "CASE WHEN :in_order THEN coalesce(changed_on, as_of_date) END, " : "")\(list)
                FROM \(table)
                WHERE property_id = :property AND as_of_date = :from AND source_row BETWEEN :first AND :last
                ORDER BY source_row
                """)
            let fixed: [String: SQLValue] = [
                ":lineage": .integer(try lineage.id(database)), ":as_of": .text(lineage.asOf),
                ":property": .text(lineage.propertyID), ":from": .text(previous.asOf),
            ]
            var next = 0, index = 0, lastCopied = 0
            while index < sources.count {
                guard let first = sources[index] else {
                    try writer.insert(decoded[next])
                    next += 1
                    index += 1
                    continue
                }
                var last = first
                index += 1
                while index < sources.count, sources[index] == last + 1 {
                    last += 1
                    index += 1
                }
                var run: [String: SQLValue] = [
                    ":first": .integer(Int64(first)), ":last": .integer(Int64(last)),
                    ":shift": .integer(Int64(index - (last - first) - first)),
                ]
                if dated { run[":in_order"] = .integer(first > lastCopied ? 1 : 0) }
                try copy.execute(fixed.merging(run) { $1 })
                lastCopied = max(lastCopied, last)
            }
            guard let followed = FollowedLists.list(table: table) else { return nil }
            var copied = Set<Int>()
            for case let source? in sources { copied.insert(source) }
            let previousRows = Int(previous.rowCount ?? 0)
            let dropped = previousRows > 0 ? (1...previousRows).filter { !copied.contains($0) } : []
            let place: [String: SQLValue] = [":list": .text(table), ":property": .text(lineage.propertyID),
                                             ":as_of": .text(lineage.asOf)]
            // Tonight's notes replace any of the same date; those of more than a month ago go (a sync marked before
            // them finds its snapshots' notes incomplete and computes every household).
            try database.prepare("""
                DELETE FROM list_rows_dropped
                WHERE list = :list AND property_id = :property
                  AND (as_of_date = :as_of OR as_of_date < date(:as_of, '-\(RecordLoad.droppedKeptDays) days'))
                """).execute(place)
            let note = try database.prepare("""
                INSERT INTO list_rows_dropped (list, property_id, as_of_date, household_id, lease_id)
                SELECT :list, property_id, :as_of, \(followed.household), \(followed.lease) FROM \(table)
                WHERE property_id = :property AND as_of_date = :from AND source_row = :row
                """)
            var noted = 0
            for row in dropped {
                try note.execute(place.merging([":from": .text(previous.asOf), ":row": .integer(Int64(row))]) { $1 })
                noted += database.changes
            }
            return noted
        }
    }

    /// How long a load's notes of the rows it dropped are kept (`Plan.write`).
    static let droppedKeptDays = 31

    /// An answer cut into its records (`RecordSplit`), each digested.
    struct Cut {
        let split: RecordSplit
        let digests: [UInt8]
        var declaration: [UInt8] { Array(split.declaration) }
    }

    /// `bytes` cut into this list's records; nil when they cannot be cut (`RecordSplit`).
    func cut(_ bytes: [UInt8]) -> Cut? {
        RecordSplit(bytes, record: record).map { Cut(split: $0, digests: $0.digests) }
    }

    /// Inside the load's transaction: `cut` (the answer `sha256` of `key` for `property`) is what the next answer's
    /// records are compared with; an answer that cannot be cut leaves nothing to compare with. The same answer again
    /// (a list unchanged since the night before, under a new date) leaves its row as it is: the same bytes, the same
    /// digests.
    static func remember(_ cut: Cut?, _ database: Database, key: String, property: String, sha256: String) throws {
        let parameters: [String: SQLValue] = [":operation": .text(key), ":property": .text(property)]
        guard let cut else {
            try database.prepare("DELETE FROM record_digests WHERE operation = :operation AND property_id = :property")
                .execute(parameters)
            return
        }
        try database.prepare("""
            INSERT INTO record_digests (operation, property_id, artifact_sha256, declaration, digests)
            VALUES (:operation, :property, :sha, :declaration, :digests)
            ON CONFLICT (operation, property_id) DO UPDATE SET
                artifact_sha256 = excluded.artifact_sha256, declaration = excluded.declaration, digests = excluded.digests
            WHERE record_digests.artifact_sha256 <> excluded.artifact_sha256
            """).execute(parameters.merging([
                ":sha": .text(sha256), ":declaration": .blob(cut.declaration), ":digests": .blob(cut.digests),
            ]) { $1 })
    }

    /// The plan for the answer `current` (cut from its bytes), or nil when it is to be decoded whole (see the type's
    /// conditions). `decode` reads a document into rows as the whole load would; a failure of it here also means nil,
    /// so the whole decode reports the error with the record's place in the answer as sent.
    /// `sha256` is the answer's own: an answer identical to the night before's is not read again.
    func plan(_ database: Database, keyColumn: String, key: String, table: String, property: String, asOf: LocalDate,
              current: Cut, sha256 answerSHA256: String,
              decode: ([UInt8]) throws -> [[(String, SQLValue)]]) throws -> Plan? {
        // The snapshot a whole decode would compare with (`UnchangedSnapshots.previous`), and its answer's records.
        guard let snapshot = try UnchangedSnapshots.previous(database, keyColumn: keyColumn, key: key, property: property,
                                                            asOf: asOf, decodingBuild: true),
              snapshot.decodedBy == build, let sha256 = snapshot.artifactSHA256, let rowCount = snapshot.rowCount,
              let previous = sha256 == answerSHA256 ? (declaration: current.declaration, digests: current.digests)
                  : try Self.remembered(database, key: key, property: property, sha256: sha256)
                      ?? previousAnswer(sha256).map({ (declaration: Array($0.declaration), digests: $0.digests) }),
              previous.digests.count == Int(rowCount) * 32, previous.declaration == current.declaration
        else { return nil }
        let stored = try database.query("""
            SELECT count(*), min(source_row), max(source_row) FROM \(table)
            WHERE property_id = :property AND as_of_date = :from
            """, [":property": .text(property), ":from": .text(snapshot.asOf)]).first
        guard let stored, stored.map(\.integerValue) == [rowCount, 1, rowCount] else { return nil }

        let sources = Self.match(current.digests, in: previous.digests)
        let changed = sources.indices.filter { sources[$0] == nil }
        var decoded: [[(String, SQLValue)]]
        do { decoded = try decode(current.split.keeping(changed)) } catch { return nil }
        guard decoded.count == changed.count else { return nil }
        for (offset, place) in changed.enumerated() {
            guard let column = decoded[offset].firstIndex(where: { $0.0 == "source_row" }) else { return nil }
            decoded[offset][column].1 = .integer(Int64(place + 1))
        }
        return Plan(previous: snapshot, sources: sources, decoded: decoded)
    }

    /// The answer landed as `sha256`, cut into its records: nil when the landing zone no longer has it, its bytes no
    /// longer hash to it, or it does not cut cleanly.
    private func previousAnswer(_ sha256: String) -> RecordSplit? {
        guard let path = landedAnswer(sha256), let bytes = try? SOAPSnapshot.readBytes(path),
              SHA256.hexDigest(of: bytes) == sha256 else { return nil }
        return RecordSplit(bytes, record: record)
    }

    /// The record digests remembered for the answer `sha256` of `key` (`remember`): its declaration and digests; nil
    /// when the last answer remembered is another.
    private static func remembered(_ database: Database, key: String, property: String,
                                   sha256: String) throws -> (declaration: [UInt8], digests: [UInt8])? {
        guard let row = try database.query("""
            SELECT declaration, digests FROM record_digests
            WHERE operation = :operation AND property_id = :property AND artifact_sha256 = :sha
            """, [":operation": .text(key), ":property": .text(property), ":sha": .text(sha256)]).first,
              case .blob(let digests) = row[1] else { return nil }
        // An empty declaration is stored as NULL (SQLite binds an empty blob so).
        switch row[0] {
        case .blob(let declaration): return (declaration, digests)
        case .null: return ([], digests)
        default: return nil
        }
    }

    /// For each record of `current` (its digests, 32 bytes a record), the 1-based place of a record of `previous`
    /// with the same digest, nil for none.
    /// The lists keep their order from night to night, a record added, removed or changed here and there: each record
    /// is looked for at the place after the last one found, then up to `window` places around it. A record further
    /// away (a list re-sorted) is simply decoded: what is copied is always right, only how much is copied may vary.
    static func match(_ current: [UInt8], in previous: [UInt8], window: Int = 16) -> [Int?] {
        let count = current.count / 32, previousCount = previous.count / 32
        func same(_ index: Int, _ other: Int) -> Bool {
            current.withUnsafeBytes { a in
                previous.withUnsafeBytes { b in memcmp(a.baseAddress! + index * 32, b.baseAddress! + other * 32, 32) == 0 }
            }
        }
        var sources: [Int?] = []
        sources.reserveCapacity(count)
        var expected = 0
        for index in 0..<count {
            var found: Int?
            if expected < previousCount, same(index, expected) {
                found = expected
            } else {
                for distance in stride(from: 1, through: window, by: 1) {
                    if expected + distance < previousCount, same(index, expected + distance) {
                        found = expected + distance
                        break
                    }
                    if expected - distance >= 0, expected - distance < previousCount, same(index, expected - distance) {
                        found = expected - distance
                        break
                    }
                }
            }
            sources.append(found.map { $0 + 1 })
            // A record not found is taken as changed in its place: the next one is looked for after it.
            expected = (found ?? expected) + 1
        }
        return sources
    }
}
