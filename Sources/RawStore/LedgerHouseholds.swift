import LibCryptoKit
import OwnerDashCore
import SOAP
import SQLiteKit

/// The weekly whole ledger pull decoded by household (RPX getresidentledger's `Resident` records, Yardi
/// GetResidentTransactions_Login's `RT_Customer` ones: a household's header and its transactions): a record whose bytes
/// are those the last whole answer that decoded it sent, and whose merged rows no answer has touched since, is as
/// stored: its transactions are read as seen and unchanged (`LedgerMerger.hold(households:)`) instead of going through
/// libxml2, the decoder and the merge. Only the other households are decoded. The weekly pulls are most of a churned
/// night's ledger bytes, and 92-96 % of their households repeat from the week before.
///
/// A household is held only where that certainly gives what decoding its record would:
/// - its record's digest (`realpage_ledger_records`, `yardi_ledger_records`: `record_sha256`) covers the decoding build
///   (a build that reads a record differently decodes every one once), the answer's head (the envelope up to the first
///   record: its encoding and namespaces) and the record's bytes;
/// - every transaction the record held when decoded had an id and named the record's household (a Yardi `Detail` may
///   name another customer than its `RT_Customer`: such a record is always decoded);
/// - the answer that decoded it is still in `raw_lineage` (so no later answer can have reused its lineage id);
/// - its merged rows are as many as that record held, each with an id, and none has a newer lineage (no window,
///   open-items answer or removal has touched them since), nor has its balance row where the ledger keeps one
///   (RPX's `realpage_ledger_households`);
/// - the answer cuts cleanly into its records (`RecordSplit`);
/// - no decoded transaction of the answer is one a held household holds (a transaction that moved between households,
///   a key two records repeat): then the answer is decoded whole (`DecodeWhole`).
/// Anything else, a first pull and `--reload` decode the answer whole, as every window is.
struct LedgerHouseholds {
    /// Where one PMS's whole ledger answer keeps its households, and where their records are remembered.
    struct Source {
        /// The answer's household element (`Resident`, `RT_Customer`).
        var record: String
        /// The table of each household's last decoded record, keyed like the ledger by `ledger.householdColumn`.
        var records: String
        /// The merged ledger (its `householdColumn` names a transaction's household).
        var ledger: LedgerTable
        /// `loaded_artifacts`' column naming the operation (`report_type`, `operation`), and the LIKE pattern of the
        /// ledger's answers in it.
        var keyColumn: String
        var answers: String
        /// A table of one balance row per household that the whole answer also writes (RPX's Balance and Prepaid),
        /// which must be untouched since the record too; nil where the ledger has none.
        var balances: String?

        var household: String { ledger.householdColumn! }
    }

    /// What the records are of.
    var source: Source
    /// The build loading now (`BuildIdentity`): part of each record's digest.
    var build: String

    /// What was held cannot stand (a decoded transaction is a held household's, the decoder stopped on an error it
    /// must name in the whole answer): the load starts over and decodes the answer whole. Never shown to a user.
    struct DecodeWhole: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// What one whole answer's load decodes and what it holds.
    final class Plan {
        let split: RecordSplit
        /// Each record's digest, in document order.
        let digests: [String]
        /// The records decoded, ascending (indexes into `split.records`).
        let kept: [Int]
        /// The held households' keys (`Source.household`).
        let held: Set<String>
        /// Before the n-th kept record (0-based), how many transactions of held households come in document order.
        let heldBefore: [Int]
        /// Per kept record (0-based): its household, how many transactions it held as decoded, and whether it may be
        /// held next time (every transaction with an id and of that household).
        var decoded: [(household: String?, transactions: Int, holdable: Bool)?]
        private var current = 0

        init(split: RecordSplit, digests: [String], kept: [Int], held: Set<String>, heldBefore: [Int]) {
            self.split = split; self.digests = digests; self.kept = kept; self.held = held; self.heldBefore = heldBefore
            decoded = Array(repeating: nil, count: kept.count)
        }

        /// What the decoder reads: the whole answer, or the answer with only the records to decode left in it.
        var document: [UInt8] { held.isEmpty ? split.bytes : split.keeping(kept) }

        /// One decoded transaction of the `household`-th record of `document` (1-based), of the household `key` (nil:
        /// it names none), with an id or not: the held transactions before its record are counted first
        /// (`LedgerMerger.skip`), so every row keeps the place a whole decode gives it.
        func decoding(household: Int, key: String?, hasID: Bool, merger: LedgerMerger) throws {
            let index = household - 1
            // The decoder read a household the cut did not find: the places would not line up.
            guard index >= 0, index < kept.count, household >= current else {
                throw DecodeWhole(reason: "the decoder read a record \(household) the cut did not find")
            }
            if household != current {
                // Also the held transactions before a decoded record that held none (a household without postings).
                for passed in current..<household { merger.skip(rows: heldBefore[passed]) }
                current = household
            }
            if let earlier = decoded[index] {
                decoded[index] = (earlier.household, earlier.transactions + 1,
                                  earlier.holdable && hasID && key != nil && key == earlier.household)
            } else {
                decoded[index] = (key, 1, hasID && key != nil)
            }
        }
    }

    /// Loads a whole answer with `load`, by household when `households` is given, and once more whole (`load(nil)`)
    /// when what it held cannot stand (`DecodeWhole`): the loader's one entry for both vendors.
    static func loadingWholeIfNeeded<T>(_ households: LedgerHouseholds?, _ load: (LedgerHouseholds?) throws -> T) throws -> T {
        do {
            return try load(households)
        } catch is DecodeWhole where households != nil {
            return try load(nil)
        }
    }

    /// Inside an answer's merge: plans `bytes` (`plan`; none without `households`), holds the held households in
    /// `merger`, and hands `decode` the document to read (the whole answer, or only its records to decode) and the
    /// plan, whose `decoding` each decoded transaction goes through. A decoder error with households held names a
    /// place in the cut document, not the answer: it becomes `DecodeWhole`, and the whole answer, parsed again, names
    /// the right one. Returns the plan, for `record` after the merge.
    static func read(_ bytes: [UInt8], by households: LedgerHouseholds?, database: Database, property: String,
                     asOf: LocalDate, merger: LedgerMerger,
                     decode: (_ document: [UInt8], _ plan: Plan?) throws -> Void) throws -> Plan? {
        let plan = try households?.plan(bytes, database: database, property: property, asOf: asOf)
        try merger.hold(households: plan?.held ?? [])
        do {
            try decode(plan?.document ?? bytes, plan)
        } catch let error as SOAPError where plan.map({ !$0.held.isEmpty }) ?? false {
            throw DecodeWhole(reason: "the decoder stopped: \(error)")
        }
        return plan
    }

    /// Cuts a whole answer into its households and finds those held; nil when it cannot be cut, or when a ledger
    /// answer of a later date was merged already (this one then writes only what nothing later wrote: its records
    /// would not say what is stored).
    func plan(_ bytes: [UInt8], database: Database, property: String, asOf: LocalDate) throws -> Plan? {
        let later = try database.scalar("""
            SELECT EXISTS (SELECT 1 FROM loaded_artifacts
                           WHERE property_id = :property AND as_of_date > :as_of AND \(source.keyColumn) LIKE :answers)
            """, [":property": .text(property), ":as_of": .text(asOf.iso), ":answers": .text(source.answers)])?.integerValue == 1
        guard !later, let split = RecordSplit(bytes, record: source.record) else { return nil }
        let head = bytes[..<split.records[0].lowerBound]
        let raw = split.digests(prefixedBy: Array((build + "\n").utf8) + head)
        let digests = stride(from: 0, to: raw.count, by: 32).map { Hex.encode(raw[$0..<$0 + 32]) }
        var asStored: [String: (key: String, transactions: Int)] = [:]
        for row in try database.query(Self.asStored(source), [":property": .text(property)]) {
            guard let key = row[0].textValue, let digest = row[1].textValue, let count = row[2].integerValue else { continue }
            asStored[digest] = (key, Int(count))
        }
        var kept: [Int] = [], heldBefore: [Int] = [], held: Set<String> = []
        var pending = 0
        for (index, digest) in digests.enumerated() {
            // Each stored household is held once: a second record with the same bytes is decoded (and its repeated
            // keys then start the load over, whole: `DecodeWhole`).
            guard let household = asStored.removeValue(forKey: digest) else {
                kept.append(index)
                heldBefore.append(pending)
                pending = 0
                continue
            }
            held.insert(household.key)
            pending += household.transactions
        }
        // The decoder reads a copy of the answer without the held records: holding fewer than three quarters of them
        // (the week rent posts to every household) would copy more than a quarter of tens of MB to save little.
        guard held.count * 4 >= digests.count * 3 else {
            return Plan(split: split, digests: digests, kept: Array(digests.indices), held: [],
                        heldBefore: Array(repeating: 0, count: digests.count))
        }
        return Plan(split: split, digests: digests, kept: kept, held: held, heldBefore: heldBefore)
    }

    /// After the merge, in its transaction: the decoded households' records under this answer's lineage; the held
    /// ones keep theirs; those the answer no longer holds are forgotten.
    func record(_ plan: Plan, database: Database, property: String, lineageID: Int64) throws {
        let (records, household) = (source.records, source.household)
        let upsert = try database.prepare("""
            INSERT INTO \(records) (property_id, \(household), record_sha256, lineage_id, transactions)
            VALUES (:property, :household, :sha, :lineage, :transactions)
            ON CONFLICT (property_id, \(household)) DO UPDATE SET
                record_sha256 = excluded.record_sha256, lineage_id = excluded.lineage_id,
                transactions = excluded.transactions
            """)
        var present = plan.held
        for (offset, decoded) in plan.decoded.enumerated() {
            // A record that cannot be held is not remembered (an older one of its household is forgotten below).
            guard let decoded, decoded.holdable, let key = decoded.household else { continue }
            present.insert(key)
            try upsert.execute([
                ":property": .text(property), ":household": .text(key), ":sha": .text(plan.digests[plan.kept[offset]]),
                ":lineage": .integer(lineageID), ":transactions": .integer(Int64(decoded.transactions)),
            ])
        }
        try database.prepare("""
            DELETE FROM \(records)
            WHERE property_id = :property AND \(household) NOT IN (SELECT value FROM json_each(:present))
            """).execute([":property": .text(property), ":present": .jsonArray(present.sorted())])
    }

    /// The property's households whose merged rows are as the whole answer that last decoded them left them: that
    /// answer's lineage still known, as many rows as its record held, each with an id, none newer, nor the household's
    /// balance row where the ledger keeps one.
    static func asStored(_ source: Source) -> String {
        let household = source.household
        let balances = source.balances.map { table in """

            JOIN \(table) h ON h.property_id = r.property_id AND h.\(household) = r.\(household)
                         AND h.lineage_id <= r.lineage_id
            """ } ?? ""
        return """
            WITH merged AS (
                SELECT \(household), count(*) AS transactions, count(transaction_id) AS with_id, max(lineage_id) AS newest
                FROM \(source.ledger.name) WHERE property_id = :property
                GROUP BY \(household)
            )
            SELECT r.\(household), r.record_sha256, r.transactions
            FROM \(source.records) r
            JOIN raw_lineage l ON l.id = r.lineage_id
            JOIN merged m ON m.\(household) = r.\(household) AND m.transactions = r.transactions
                         AND m.with_id = r.transactions AND m.newest <= r.lineage_id\(balances)
            WHERE r.property_id = :property
            """
    }
}
