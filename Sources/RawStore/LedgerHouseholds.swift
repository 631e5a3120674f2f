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
/// Anything else, a first pull and `--reload` decode the answer whole.
///
/// RPX's nightly answers are read the same way (`coverage`): the window (`getresidentledger` by date) and the open items
/// list every household, and on a night away from the first of the month 96-99 % of their bytes are records sent the
/// night before. A household of a nightly answer is held where, beyond the above, its record is that answer kind's
/// (`realpage_ledger_nightly_records`), every transaction it held was one the answer speaks for when decoded (dated
/// within the window, or a charge still open: `LedgerCoverage.scope`), and the stored transactions the answer speaks
/// for tonight are as many as it held, none newer than it; a window's record must also lie within tonight's window.
/// A household a nightly answer lists without transactions (most of a window's) is held the same way: its record
/// repeats, and none of its stored transactions is one the answer speaks for.
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
        /// The table of each household's last decoded record in a nightly answer (`LedgerCoverage.dated`, `.openItems`),
        /// keyed by answer kind too; nil where nightly answers are decoded whole.
        var nightlyRecords: String? = nil

        var household: String { ledger.householdColumn! }
    }

    /// What the records are of.
    var source: Source
    /// The build loading now (`BuildIdentity`): part of each record's digest.
    var build: String
    /// What the answer being read speaks for: the whole ledger, or one of RPX's nightly answers (a window, the open
    /// items), whose records are kept apart by kind. An answer that speaks for no stored transaction it leaves out
    /// (`partial`) is not read by household.
    var coverage: LedgerCoverage = .whole(ageOutBefore: nil)

    /// The nightly answer's kind in `Source.nightlyRecords` (nil: a whole answer).
    private var nightlyName: String? {
        switch coverage {
        case .dated: "dated"
        case .openItems: "open"
        case .whole, .partial, .household: nil
        }
    }

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
        /// Per kept record (0-based): its household, how many transactions it held as decoded, whether it may be
        /// held next time (every transaction with an id, of that household and within what a nightly answer speaks
        /// for), and its transactions' first and last dates.
        var decoded: [(household: String?, transactions: Int, holdable: Bool, first: String?, last: String?)?]
        /// A nightly answer's judge of a decoded transaction (nil: a whole answer's are all within it).
        let inScope: (([(String, SQLValue)]) -> Bool)?
        /// The ledger's date column, read for a record's first and last dates.
        let dateColumn: String
        private var current = 0

        init(split: RecordSplit, digests: [String], kept: [Int], held: Set<String>, heldBefore: [Int],
             inScope: (([(String, SQLValue)]) -> Bool)?, dateColumn: String) {
            self.split = split; self.digests = digests; self.kept = kept; self.held = held; self.heldBefore = heldBefore
            self.inScope = inScope; self.dateColumn = dateColumn
            decoded = Array(repeating: nil, count: kept.count)
        }

        /// What the decoder reads: the whole answer, or the answer with only the records to decode left in it.
        var document: [UInt8] { held.isEmpty ? split.bytes : split.keeping(kept) }

        /// The `household`-th record of `document` (1-based) is the household `key`'s, read before its transactions:
        /// a record listed without any is remembered too (a nightly answer holds it next time).
        func listed(household: Int, key: String) {
            let index = household - 1
            guard index >= 0, index < kept.count, decoded[index] == nil else { return }
            decoded[index] = (key, 0, true, nil, nil)
        }

        /// One decoded transaction of the `household`-th record of `document` (1-based), of the household `key` (nil:
        /// it names none), with an id or not, as the merge gets it (`row`; needed for a nightly answer): the held
        /// transactions before its record are counted first (`LedgerMerger.skip`), so every row keeps the place a
        /// whole decode gives it.
        func decoding(household: Int, key: String?, hasID: Bool, row: [(String, SQLValue)]? = nil,
                      merger: LedgerMerger) throws {
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
            let within = inScope.map { judge in row.map(judge) ?? false } ?? true
            let date = row?.last { $0.0 == dateColumn }?.1.textValue
            if let earlier = decoded[index] {
                decoded[index] = (earlier.household, earlier.transactions + 1,
                                  earlier.holdable && hasID && within && key != nil && key == earlier.household,
                                  LedgerHouseholds.least(earlier.first, date), LedgerHouseholds.greatest(earlier.last, date))
            } else {
                decoded[index] = (key, 1, hasID && within && key != nil, date, date)
            }
        }
    }

    /// The earlier of two dates either of which may be missing (a record's first date, per transaction: two arrays
    /// built for it were 2 % of a night whose ledgers were read whole).
    static func least(_ a: String?, _ b: String?) -> String? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// The later of two dates either of which may be missing (a record's last date).
    static func greatest(_ a: String?, _ b: String?) -> String? {
        guard let a else { return b }
        guard let b else { return a }
        return max(a, b)
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
        let (query, values) = try storedQuery(property: property)
        for row in try database.query(query, values) {
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
        let (coverage, ledger) = (coverage, source.ledger)
        let inScope = nightlyName == nil ? nil : { (row: [(String, SQLValue)]) in Self.within(row, coverage, ledger) }
        let dateColumn = source.ledger.dateColumn
        guard held.count * 4 >= digests.count * 3 else {
            return Plan(split: split, digests: digests, kept: Array(digests.indices), held: [],
                        heldBefore: Array(repeating: 0, count: digests.count), inScope: inScope, dateColumn: dateColumn)
        }
        return Plan(split: split, digests: digests, kept: kept, held: held, heldBefore: heldBefore, inScope: inScope,
                    dateColumn: dateColumn)
    }

    /// Whether a decoded transaction (as the merge gets it) is one `coverage` speaks for: its `LedgerCoverage.scope`
    /// judged on the transaction's own values.
    static func within(_ row: [(String, SQLValue)], _ coverage: LedgerCoverage, _ ledger: LedgerTable) -> Bool {
        func value(_ name: String) -> SQLValue { row.last { $0.0 == name }?.1 ?? .null }
        switch coverage {
        case .dated(let from, let to, _):
            guard let date = value(ledger.dateColumn).textValue else { return false }
            return date >= from && date <= to
        case .household(let household, let from, let to, _):
            guard let date = value(ledger.dateColumn).textValue, let column = ledger.householdColumn else { return false }
            return date >= from && date <= to && value(column) == .text(household)
        case .openItems:
            let open: Bool
            switch value(ledger.balanceColumn) {
            case .integer(let n): open = n != 0
            case .real(let x): open = x != 0
            default: open = false
            }
            return value(ledger.kindColumn) == .text(ledger.chargeKind) && open
                && !coverage.leavesOut(dated: value(ledger.dateColumn).textValue)
        case .whole, .partial:
            return true
        }
    }

    /// The query of the households held as stored, with its parameters: `asStored` for a whole answer, `asListed` for
    /// a nightly one.
    private func storedQuery(property: String) throws -> (String, [String: SQLValue]) {
        let values: [String: SQLValue] = [":property": .text(property)]
        guard let name = nightlyName else { return (Self.asStored(source), values) }
        guard let records = source.nightlyRecords, let balances = source.balances,
              let scope = coverage.scope(in: source.ledger) else {
            throw DecodeWhole(reason: "nightly answers of \(source.ledger.name) are not read by household")
        }
        let dated = if case .dated = coverage { true } else { false }
        return (Self.asListed(source, records: records, balances: balances, scope: scope, dated: dated),
                values.merging(scope.values) { $1 }.merging([":answer": .text(name)]) { $1 })
    }

    /// After the merge, in its transaction: the decoded households' records under this answer's lineage; the held
    /// ones keep theirs; those the answer no longer holds are forgotten.
    func record(_ plan: Plan, database: Database, property: String, lineageID: Int64) throws {
        let household = source.household
        // A nightly answer's records are kept by answer kind, with their transactions' first and last dates.
        let nightly = nightlyName.flatMap { name in source.nightlyRecords.map { (table: $0, name: name) } }
        let table = nightly?.table ?? source.records
        let upsert = try database.prepare(nightly == nil ? """
            INSERT INTO \(table) (property_id, \(household), record_sha256, lineage_id, transactions)
            VALUES (:property, :household, :sha, :lineage, :transactions)
            ON CONFLICT (property_id, \(household)) DO UPDATE SET
                record_sha256 = excluded.record_sha256, lineage_id = excluded.lineage_id,
                transactions = excluded.transactions
            """ : """
            INSERT INTO \(table) (property_id, answer, \(household), record_sha256, lineage_id, transactions, first_date,
                                  last_date)
            VALUES (:property, :answer, :household, :sha, :lineage, :transactions, :first, :last)
            ON CONFLICT (property_id, answer, \(household)) DO UPDATE SET
                record_sha256 = excluded.record_sha256, lineage_id = excluded.lineage_id,
                transactions = excluded.transactions, first_date = excluded.first_date, last_date = excluded.last_date
            """)
        var present = plan.held
        for (offset, decoded) in plan.decoded.enumerated() {
            // A record that cannot be held is not remembered (an older one of its household is forgotten below); a
            // whole answer's household without transactions is not held (its merged rows say nothing of it).
            guard let decoded, decoded.holdable, let key = decoded.household,
                  decoded.transactions > 0 || nightly != nil else { continue }
            present.insert(key)
            var values: [String: SQLValue] = [
                ":property": .text(property), ":household": .text(key), ":sha": .text(plan.digests[plan.kept[offset]]),
                ":lineage": .integer(lineageID), ":transactions": .integer(Int64(decoded.transactions)),
            ]
            if let nightly {
                values[":answer"] = .text(nightly.name)
                values[":first"] = SQLValue(decoded.first)
                values[":last"] = SQLValue(decoded.last)
            }
            try upsert.execute(values)
        }
        try database.prepare("""
            DELETE FROM \(table)
            WHERE property_id = :property\(nightly == nil ? "" : " AND answer = :answer")
              AND \(household) NOT IN (SELECT value FROM json_each(:present))
            """).execute([":property": .text(property), ":present": .jsonArray(present.sorted())]
                .merging(nightly.map { [":answer": .text($0.name)] } ?? [:]) { $1 })
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

    /// The property's households whose stored transactions, within what a nightly answer speaks for (`scope`), are
    /// as the answer of that kind that last decoded them left them: that answer's lineage still known, as many such
    /// transactions as its record held, none newer, nor the household's balance row where the record held any (one
    /// listed without transactions writes none); a window's record lies within tonight's window.
    static func asListed(_ source: Source, records: String, balances: String,
                         scope: (condition: String, values: [String: SQLValue], from: String), dated: Bool) -> String {
        let household = source.household
        return """
            WITH merged AS (
                SELECT \(household), count(*) AS transactions, max(lineage_id) AS newest
                FROM \(scope.from)
                WHERE property_id = :property AND transaction_id IS NOT NULL AND \(scope.condition)
                GROUP BY \(household)
            )
            SELECT r.\(household), r.record_sha256, r.transactions
            FROM \(records) r
            JOIN raw_lineage l ON l.id = r.lineage_id
            LEFT JOIN merged m ON m.\(household) = r.\(household)
            LEFT JOIN \(balances) h ON h.property_id = r.property_id AND h.\(household) = r.\(household)
            WHERE r.property_id = :property AND r.answer = :answer
              AND coalesce(m.transactions, 0) = r.transactions AND coalesce(m.newest, 0) <= r.lineage_id
              AND (r.transactions = 0 OR (h.lineage_id <= r.lineage_id\(dated ? " AND r.first_date >= :from AND r.last_date <= :to" : "")))
            """
    }
}
