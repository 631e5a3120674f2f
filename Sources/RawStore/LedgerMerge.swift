import Foundation
import LibCryptoKit
import OwnerDashCore
import SOAP
import SQLiteKit

/// Which part of a tenant ledger a landed answer holds, as the run's manifest says (`LedgerScope` there).
public enum LedgerAnswer: Sendable, Equatable {
    /// The whole ledger: a full pull.
    case whole
    /// Every transaction dated `from`...`to` (YYYY-MM-DD).
    case dated(from: String, to: String)
    /// The transactions a payment was applied to in a window (Yardi by application date).
    case applied
    /// Every charge still open (RPX `allopen`).
    case openItems
    /// One household's transactions dated `from`...`to` (RPX `reshid`): its whole ledger.
    case household(String, from: String, to: String)
}

/// What part of a tenant ledger one answer speaks for: which stored transactions it says are gone when they are not
/// in it. A whole ledger speaks for all of them, a window for those dated in it (of the kinds it holds), an answer by
/// application date for none; the open items for every charge still open.
enum LedgerCoverage: Equatable {
    /// The whole ledger (a full pull). `ageOutBefore`: rows dated before it left the vendor's window (RPX asks for
    /// `ledgerMonths`): removed without being a difference.
    case whole(ageOutBefore: String?)
    /// Every transaction dated `from`...`to`.
    case dated(from: String, to: String, ageOutBefore: String?)
    /// Some transactions, none missing for not being here (Yardi by application date).
    case partial
    /// Every charge still open: a stored charge with an open amount that is not here was settled. `ageOutBefore`: the
    /// whole ledger's window start (RPX: `ledgerMonths`). RPX lists every open charge whatever its date (`allopen`),
    /// those dated before the window too, which no whole answer holds: they are left out, and a stored row dated
    /// before it ages out, as from a whole answer, so the merged ledger keeps one window night after night. (Merged,
    /// they came back each night and aged out at each weekly whole pull: after two years of the simulator some 2,000
    /// rows a week at one property, and the household's balance forward moved with them.) Their households' Balance,
    /// which counts them, is the sync's balance-forward line.
    case openItems(ageOutBefore: String?)
    /// Every transaction of one household (`LedgerTable.householdColumn`) dated `from`...`to`: a window of that
    /// household alone, which says nothing of the others.
    case household(String, from: String, to: String, ageOutBefore: String?)

    /// The household a one-household answer speaks for; nil for any other.
    var household: String? {
        if case .household(let household, _, _, _) = self { return household }
        return nil
    }

    /// Whether this answer leaves a transaction dated `date` out of the merge: an open-items answer's charge dated
    /// before the whole ledger's window (`openItems`). The date is read only for such an answer.
    func leavesOut(dated date: @autoclosure () -> String?) -> Bool {
        guard case .openItems(let before?) = self, let date = date() else { return false }
        return date < before
    }

    /// The stored transactions of `table` this answer speaks for short of the whole ledger (a window's dated ones, the
    /// open charges), as a condition with its parameters and the table as read (the open charges through their
    /// partial index: the planner otherwise reads every charge of the property by household): what a household it
    /// holds as stored (LedgerHouseholds) has read as seen. nil for a whole answer (every transaction) and for one that
    /// speaks for none (`partial`).
    func scope(in table: LedgerTable) -> (condition: String, values: [String: SQLValue], from: String)? {
        switch self {
        case .dated(let from, let to, _):
            ("\(table.dateColumn) BETWEEN :from AND :to", [":from": .text(from), ":to": .text(to)], table.name)
        case .household(let household, let from, let to, _):
            ("\(table.dateColumn) BETWEEN :from AND :to AND \(table.householdColumn ?? "NULL") = :household",
             [":from": .text(from), ":to": .text(to), ":household": .text(household)], table.name)
        case .openItems(let before):
            (table.openChargeCondition
                + (before == nil ? "" : " AND (\(table.dateColumn) >= :open_from OR \(table.dateColumn) IS NULL)"),
             before.map { [":open_from": .text($0)] } ?? [:],
             table.name + (table.openChargesIndex.map { " INDEXED BY \($0)" } ?? ""))
        case .whole, .partial:
            nil
        }
    }
}

/// The columns of one merged raw ledger table and what each means to the merge.
struct LedgerTable {
    /// yardi_transactions, realpage_ledger.
    var name: String
    /// The change log beside it (yardi_transaction_changes, realpage_ledger_changes).
    var changes: String
    /// Charge or payment (`kind`, `transaction_type`): part of the key, and what a dated window is judged on.
    var kindColumn: String
    /// The kind value of a charge (`charge`, `Charge`).
    var chargeKind: String
    var amountColumn = "amount"
    var paidColumn = "amount_paid"
    /// What is still open of a charge (`balance_due`, `open_amount`).
    var balanceColumn: String
    /// A flag the vendor sets on a reversed transaction, when it has one.
    var reversalColumn: String?
    var dateColumn = "transaction_date"
    /// Columns stored as they come but never compared (RPX repeats its household's balance on every transaction:
    /// those live in realpage_ledger_households, written apart).
    var ignoredColumns: Set<String> = []

    /// Columns that change when a payment is applied, not when the transaction is corrected.
    var applicationColumns: Set<String> { [paidColumn, balanceColumn] }

    /// The partial index of the charges still open, when the table has one (`openChargeCondition` is its condition).
    var openChargesIndex: String? = nil
    /// The column naming a transaction's household, where a whole answer can hold households as stored
    /// (LedgerHouseholds: RPX's `resh_id`, Yardi's `tenant_code`).
    var householdColumn: String? = nil

    /// A charge with something still open, in the words of the ledger's partial index of open charges (SQLite uses
    /// a partial index only for a query that repeats its condition, literals and all).
    var openChargeCondition: String {
        "\(kindColumn) = '\(chargeKind.replacingOccurrences(of: "'", with: "''"))' AND coalesce(\(balanceColumn), 0) <> 0"
    }
}

/// How many rows each property's merged ledger has lost, counted by a trigger on every delete (an answer saying a
/// transaction is gone, an age-out, a row replaced under a new key): `ledger_removals (property_id, removed)`. A sync
/// by change (Sync's LedgerDelta) reads it to know that none of the rows it projected before its mark is gone
/// without counting the property's whole ledger each night; every other change to a row rewrites it with a newer
/// lineage, which the sync finds by its mark.
public enum LedgerRemovals {
    /// The counter table and `ledger`'s trigger (realpage_ledger, yardi_transactions). Rows deleted before it existed
    /// are not counted: a sync's mark from before it has no count (LedgerDelta then compares the ledger whole once).
    static func migration(version: Int, ledger: String) -> Migration {
        Migration(version: version, name: "\(ledger) removals counted", sql: """
            CREATE TABLE ledger_removals (
                property_id TEXT PRIMARY KEY,
                removed     INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;
            CREATE TRIGGER \(ledger)_removed AFTER DELETE ON \(ledger)
            BEGIN
                INSERT INTO ledger_removals (property_id, removed) VALUES (old.property_id, 1)
                ON CONFLICT (property_id) DO UPDATE SET removed = removed + 1;
            END;
            """)
    }
}

extension LedgerRemovals {
    /// How many of a property's latest removals the log keeps: a sync whose mark is further back than that compares
    /// the ledger whole, as before the log.
    public static let loggedRemovals = 5_000

    /// The log of the removed rows (`ledger_removed_rows`: property, the removal's number in the property's count, and
    /// the row's kind, transaction id and row id, all a sync needs to name the charge or payment it projected), kept
    /// by `ledger`'s trigger beside the count, the oldest beyond `loggedRemovals` dropped as each is added. A sync by
    /// change (Sync's LedgerDelta) reads the removals since its mark from it: finding them by comparing every stored
    /// charge and payment with the ledger was the largest statement of a night that lost a row (the window passing a
    /// month, a reversal).
    static func logMigration(version: Int, ledger: String, kindColumn: String) -> Migration {
        Migration(version: version, name: "\(ledger) removals logged", sql: """
            CREATE TABLE ledger_removed_rows (
                property_id    TEXT    NOT NULL,
                removal        INTEGER NOT NULL,
                \(kindColumn)  TEXT,
                transaction_id TEXT,
                id             INTEGER NOT NULL,
                PRIMARY KEY (property_id, removal)
            ) STRICT, WITHOUT ROWID;
            DROP TRIGGER \(ledger)_removed;
            CREATE TRIGGER \(ledger)_removed AFTER DELETE ON \(ledger)
            BEGIN
                INSERT INTO ledger_removals (property_id, removed) VALUES (old.property_id, 1)
                ON CONFLICT (property_id) DO UPDATE SET removed = removed + 1;
                INSERT INTO ledger_removed_rows (property_id, removal, \(kindColumn), transaction_id, id)
                SELECT old.property_id, removed, old.\(kindColumn), old.transaction_id, old.id
                FROM ledger_removals WHERE property_id = old.property_id;
                DELETE FROM ledger_removed_rows
                WHERE property_id = old.property_id
                  AND removal = (SELECT removed FROM ledger_removals WHERE property_id = old.property_id) - \(loggedRemovals);
            END;
            """)
    }
}

/// What merging one answer did to the merged ledger.
struct LedgerMergeCounts: Equatable {
    var inserted = 0, updated = 0, removed = 0, unchanged = 0
    /// Rows of the change log written (corrections, reversals, removals; every difference of a reconciliation).
    var changesRecorded = 0
    /// A full pull over a ledger that already had rows: its differences are what the incremental nights missed.
    var reconciled = false
    /// Rows of other tables the answer wrote beside the ledger (RPX: its households' balances).
    var besides = 0
    /// Households of a whole answer held as stored, not decoded (LedgerHouseholds); their transactions count as
    /// unchanged.
    var heldHouseholds = 0
    /// Open charges an open-items answer lists dated before the ledger's window, left out (`LedgerCoverage.openItems`).
    var beforeWindow = 0
    /// Households a one-household answer (`LedgerCoverage.household`) listed besides the one asked for.
    var otherHouseholds = 0
    /// Rows written with this answer's lineage (inserted or updated, the ledger's and those beside it).
    var written: Int { inserted + updated + besides }

    /// `12 new, 3 updated, 1 removed, 10234 unchanged`, for the load's log line.
    var summary: String {
        "\(inserted) new, \(updated) updated, \(removed) removed, \(unchanged) unchanged"
            + (changesRecorded > 0 ? ", \(changesRecorded) change(s) logged" : "")
            + (besides > 0 ? ", \(besides) household balance(s) written" : "")
            + (heldHouseholds > 0 ? ", \(heldHouseholds) household(s) as stored, not decoded" : "")
            + (beforeWindow > 0 ? ", \(beforeWindow) open charge(s) dated before the window left to the balance forward" : "")
    }
}

/// Merges ledger answers into a raw ledger table that keeps each vendor transaction once per property, keyed by
/// (property, kind, transaction id). A new transaction is inserted; one whose values differ is updated in place and,
/// when it was corrected or reversed (not merely paid), the old and new amounts are written to the change log with
/// the run that saw it; one the answer's coverage says is gone is deleted and logged `removed`. An answer older than
/// the stored row (its as-of date is earlier) never overwrites it, so replaying an old run does not roll the ledger
/// back. A transaction without an id cannot be merged: those of the answer's window replace the stored ones.
///
/// A full pull over rows already merged is a reconciliation: every difference it makes, payments applied included,
/// is logged `found_by = full_refresh`; the run reports how many (docs/operators.md, "The tenant ledger, incrementally").
final class LedgerMerger {
    private let database: Database
    private let table: LedgerTable
    private let lineage: SOAPSnapshot.Lineage
    /// The answer's `raw_lineage` row, which the rows it writes point at.
    private let lineageID: Int64
    private let coverage: LedgerCoverage
    private(set) var counts = LedgerMergeCounts()
    private var kindsSeen: Set<String> = []
    private var find: Statement?
    /// `find`'s column positions by name, from its first row.
    private var storedColumns: [String: Int] = [:]
    /// The row layout last compared (its column names) and its compared columns (`comparedColumns(of:)`).
    private var comparedLayout: (names: [String], compared: [(name: String, row: Int, stored: Int?)])?
    private var insert: Statement?
    private var insertIndices: [Int32] = []
    private var insertUnlessPresent: Statement?
    private var insertUnlessPresentIndices: [Int32] = []
    private var recordChange: Statement?
    private let markSeen: Statement
    private var sourceRow = 0
    /// The property had no row before this answer (its first pull): every transaction is inserted without a lookup
    /// (a TransactionID the answer repeats is merged like any other), and nothing can be missing.
    private let fresh: Bool
    /// A whole answer over a ledger merged before (the weekly full pull): its tens of thousands of transactions are
    /// matched against the property's stored ones read in one pass (`StoredTransactions`), not looked up one by one
    /// and remembered in `temp.ledger_seen` (a lookup per transaction and the scan for the unseen ones were most of
    /// the pull's merge, which nearly always changes nothing).
    private let readsWhole: Bool
    /// The stored transactions of a whole answer, read when its first transaction with an id comes.
    private var storedTransactions: StoredTransactions?
    /// The households held as stored (`hold(households:)`): their transactions are read as seen, not compared.
    private var heldHouseholds: Set<String> = []
    /// The stored row by its row id (a whole answer's transaction whose values differ).
    private var findByID: Statement?

    /// Inside an open transaction: prepares the merge of one answer of `lineage.propertyID`.
    init(_ database: Database, table: LedgerTable, lineage: SOAPSnapshot.Lineage, coverage: LedgerCoverage) throws {
        self.database = database
        self.table = table
        self.lineage = lineage
        lineageID = try lineage.id(database)
        self.coverage = coverage
        try database.execute("CREATE TEMP TABLE IF NOT EXISTS ledger_seen (row_id INTEGER PRIMARY KEY)")
        try database.execute("DELETE FROM temp.ledger_seen")
        markSeen = try database.prepare("INSERT OR IGNORE INTO temp.ledger_seen (row_id) VALUES (:id)")
        let property: [String: SQLValue] = [":property": .text(lineage.propertyID)]
        fresh = (try database.scalar(
            "SELECT EXISTS (SELECT 1 FROM \(table.name) WHERE property_id = :property)", property)?.integerValue ?? 0) == 0
        readsWhole = if case .whole = coverage { !fresh } else { false }
        // A household's whole ledger reconciles that household: what it finds is logged as a whole pull's is.
        counts.reconciled = readsWhole || (!fresh && coverage.household != nil)
        // Rows without an id are replaced by the answer's own, within what it covers.
        switch coverage {
        case .whole:
            try database.prepare("DELETE FROM \(table.name) WHERE property_id = :property AND transaction_id IS NULL")
                .execute(property)
        case .dated, .household:
            let scope = coverage.scope(in: table)!
            try database.prepare("""
                DELETE FROM \(table.name) WHERE property_id = :property AND transaction_id IS NULL AND \(scope.condition)
                """).execute(property.merging(scope.values) { $1 })
        case .partial, .openItems:
            break
        }
    }

    /// Merges one decoded transaction (column, value pairs as the loader maps them, `source_row` first).
    func merge(_ row: [(String, SQLValue)]) throws {
        sourceRow += 1
        // A column's value looked up in the row itself (the last where a name repeats): a dictionary of the row, a
        // name hashed per column, costs more than the few lookups most transactions need; built only to log one.
        func value(_ name: String) -> SQLValue? { row.last { $0.0 == name }?.1 }
        if coverage.leavesOut(dated: value(table.dateColumn)?.textValue) {
            counts.beforeWindow += 1
            return
        }
        let kind = value(table.kindColumn) ?? .null
        if let text = kind.textValue { kindsSeen.insert(text) }
        guard let id = value("transaction_id"), id != .null else {
            // Without an id only a whole or dated answer may say what the transaction is (its rows were replaced).
            switch coverage {
            case .whole, .dated, .household: try insertRow(row)
            case .partial, .openItems: break
            }
            return
        }
        if fresh, try insertRow(row, unlessPresent: true) { return }
        if readsWhole { return try mergeMatched(row, kind: kind, id: id) }
        // A window's or the open items' held households (`hold`): a second record of one, or a transaction that
        // moved out of one, is not as stored.
        let heldColumn = heldHouseholds.isEmpty ? nil : table.householdColumn
        if let heldColumn, let household = value(heldColumn)?.textValue, heldHouseholds.contains(household) {
            throw LedgerHouseholds.DecodeWhole(reason: "household \(household) is held and listed again")
        }
        let find = try self.find ?? database.prepare("""
            SELECT * FROM \(table.name)
            WHERE property_id = :property AND \(table.kindColumn) = :kind AND transaction_id = :id
            """)
        self.find = find
        guard let (stored, rowID) = try storedRow(find, [":property": .text(lineage.propertyID), ":kind": kind, ":id": id]) else {
            try insertNew(row, kind: kind, id: id)
            return
        }
        if let heldColumn, let household = storedColumns[heldColumn].flatMap({ stored[$0].textValue }),
           heldHouseholds.contains(household) {
            throw LedgerHouseholds.DecodeWhole(reason: "transaction \(Self.text(kind)) \(Self.text(id)) is a held household's")
        }
        try markSeen.execute([":id": rowID])
        if let storedAsOf = storedColumns["as_of_date"].flatMap({ stored[$0].textValue }), storedAsOf > lineage.asOf {
            counts.unchanged += 1  // a later answer wrote it: this older one does not roll it back
            return
        }
        try reconcile(row, kind: kind, id: id, stored: stored, rowID: rowID)
    }

    /// A whole answer's transaction, matched by key against the stored ones (`StoredTransactions`): new, as stored
    /// (compared in one `ComparedValues` encoding of each side), or read whole by its row id and reconciled like a
    /// looked-up one. Every stored transaction it matches is seen; `finish` judges the others.
    private func mergeMatched(_ row: [(String, SQLValue)], kind: SQLValue, id: SQLValue) throws {
        if storedColumns.isEmpty { readStoredColumns(try prepareFindByID()) }
        let compared = comparedColumns(of: row)
        let stored = try storedTransactions(compared: compared)
        let key = StoredTransactions.Key(kind: kind, id: id)
        let values = stored.matchesLayout(compared) ? ComparedValues(row, stored.positions) : nil
        guard let match = stored.see(key) else {
            if try stored.isHeld(key) {
                throw LedgerHouseholds.DecodeWhole(reason: "transaction \(Self.text(kind)) \(Self.text(id)) is a held household's")
            }
            let rowID = try insertNew(row, kind: kind, id: id)
            stored.add(key, rowID: rowID, asOf: lineage.asOf, values: values)
            return
        }
        if match.asOf > lineage.asOf {
            counts.unchanged += 1  // a later answer wrote it: this older one does not roll it back
            return
        }
        if let values, values == match.values {
            counts.unchanged += 1
            return
        }
        guard let (current, rowID) = try storedRow(try prepareFindByID(), [":row_id": .integer(match.rowID)]) else {
            throw ReportLoadError("\(table.name) row \(match.rowID) (\(Self.text(kind)) \(Self.text(id))) vanished during the merge")
        }
        if try reconcile(row, kind: kind, id: id, stored: current, rowID: rowID) {
            stored.wrote(key, asOf: lineage.asOf, values: values)
        }
    }

    /// A whole answer's transactions not decoded (LedgerHouseholds): their places in the answer, counted so the
    /// decoded ones after them are numbered (`source_row`) as a whole decode numbers them.
    func skip(rows count: Int) { sourceRow += count }

    /// Before a whole answer's first transaction: the households it repeats as they are stored (LedgerHouseholds),
    /// whose stored transactions are seen and unchanged without being decoded. A decoded transaction that is one of
    /// theirs throws `LedgerHouseholds.DecodeWhole` (the decode then starts over, whole).
    ///
    /// A window or the open items (`LedgerCoverage.scope`) hold a household's stored transactions within what the
    /// answer speaks for: marked seen here and counted unchanged, their kinds among those the window holds (its
    /// removals are judged as a whole decode judges them).
    func hold(households: Set<String>) throws {
        guard !households.isEmpty else { return }
        guard let column = table.householdColumn, storedTransactions == nil, sourceRow == 0 else {
            throw LedgerHouseholds.DecodeWhole(reason: "households are held before the answer's first transaction")
        }
        if readsWhole {
            heldHouseholds = households
            return
        }
        guard let scope = coverage.scope(in: table) else {
            throw LedgerHouseholds.DecodeWhole(reason: "this answer is not read by household")
        }
        heldHouseholds = households
        counts.heldHouseholds = households.count
        // A ledger without rows (a property whose every household is listed without transactions) has none to see.
        guard !fresh else { return }
        let rows = """
            FROM \(scope.from)
            WHERE property_id = :property AND transaction_id IS NOT NULL AND \(scope.condition)
              AND \(column) IN (SELECT value FROM json_each(:held))
            """
        let values = scope.values.merging([":property": .text(lineage.propertyID), ":held": .jsonArray(households.sorted())]) { $1 }
        try run("INSERT OR IGNORE INTO temp.ledger_seen (row_id) SELECT id \(rows)", values)
        counts.unchanged += database.changes
        for kind in try database.query("SELECT DISTINCT \(table.kindColumn) \(rows)", values) {
            if let text = kind[0].textValue { kindsSeen.insert(text) }
        }
    }

    /// The property's stored transactions, read once (the first decoded transaction's `compared` columns encoded).
    private func storedTransactions(compared: [(name: String, row: Int, stored: Int?)]) throws -> StoredTransactions {
        if let storedTransactions { return storedTransactions }
        let held = table.householdColumn.flatMap { heldHouseholds.isEmpty ? nil : (column: $0, households: heldHouseholds) }
        let stored = try StoredTransactions(database, table: table, property: lineage.propertyID, compared: compared,
                                            held: held)
        storedTransactions = stored
        return stored
    }

    private func prepareFindByID() throws -> Statement {
        if let findByID { return findByID }
        let statement = try database.prepare("SELECT * FROM \(table.name) WHERE id = :row_id")
        findByID = statement
        return statement
    }

    /// The one stored row `statement` finds with `values`, by position, and its row id (nil: none). Its columns'
    /// names are read once (`storedColumns`): a dictionary per row, with a name hashed per column, was most of a full
    /// ledger pull's merge.
    private func storedRow(_ statement: Statement, _ values: [String: SQLValue]) throws -> ([SQLValue], SQLValue)? {
        var stored: [SQLValue]?
        try statement.forEachRow(values) { statement in
            if storedColumns.isEmpty { readStoredColumns(statement) }
            stored = (0..<statement.columnCount).map { statement.value(at: $0) }
        }
        guard let stored, let rowID = storedColumns["id"].map({ stored[$0] }) else { return nil }
        return (stored, rowID)
    }

    /// The table's column positions in `SELECT *`, known once a statement is prepared.
    private func readStoredColumns(_ statement: Statement) {
        for index in 0..<statement.columnCount { storedColumns[statement.columnName(index)] = index }
    }

    /// A transaction the ledger does not hold: inserted, and logged when a full pull found it or it is a reversal.
    /// Returns its row id.
    @discardableResult
    private func insertNew(_ row: [(String, SQLValue)], kind: SQLValue, id: SQLValue) throws -> Int64 {
        try insertRow(row)
        let rowID = database.lastInsertRowID
        let flag = table.reversalColumn.flatMap { name in row.last { $0.0 == name }?.1 }
        if counts.reconciled {
            try log(kind: kind, id: id, change: "added", old: nil, new: Self.logged(row), detail: "not in the ledger merged so far")
        } else if flag == .integer(1) {
            try log(kind: kind, id: id, change: "reversed", old: nil, new: Self.logged(row), detail: "posted as a reversal")
        }
        return rowID
    }

    /// The row's values by column name (the last, where a name repeats): built only to log a change.
    private static func logged(_ row: [(String, SQLValue)]) -> [String: SQLValue] {
        Dictionary(row, uniquingKeysWith: { _, last in last })
    }

    /// A transaction stored as `stored` (at `rowID`, not written by a later answer): updated in place when a compared
    /// column differs, and logged when it was corrected or reversed, or paid where a full pull found it. Returns
    /// whether it was written.
    @discardableResult
    private func reconcile(_ row: [(String, SQLValue)], kind: SQLValue, id: SQLValue, stored: [SQLValue],
                           rowID: SQLValue) throws -> Bool {
        let differing = comparedColumns(of: row).filter { !Self.same($0.stored.map { stored[$0] } ?? .null, row[$0.row].1) }
            .map(\.name)
        guard !differing.isEmpty else {
            counts.unchanged += 1
            return false
        }
        let existing = storedColumns.mapValues { stored[$0] }
        let assignments = (["lineage_id", "as_of_date"] + row.map(\.0))
            .map { "\($0) = :\($0)" }.joined(separator: ", ")
        var bindings = lineageValues
        for (column, value) in row { bindings[":" + column] = value }
        bindings[":source_row"] = .integer(Int64(sourceRow))
        bindings[":row_id"] = rowID
        try run("UPDATE \(table.name) SET \(assignments) WHERE id = :row_id", bindings)
        counts.updated += 1
        let corrected = differing.filter { !table.applicationColumns.contains($0) }
        let values = Self.logged(row)
        let detail = differing.map { "\($0) \(Self.text(existing[$0] ?? .null)) -> \(Self.text(values[$0] ?? .null))" }
            .joined(separator: "; ")
        if !corrected.isEmpty {
            try log(kind: kind, id: id, change: isReversal(old: existing, new: values) ? "reversed" : "corrected",
                    old: existing, new: values, detail: detail)
        } else if counts.reconciled {
            try log(kind: kind, id: id, change: "applied", old: existing, new: values, detail: detail)
        }
        return true
    }

    /// The columns of `row` a stored transaction is compared by (all but `source_row` and the table's ignored ones),
    /// each with its position in the row (the last, where a name repeats) and in a stored row (nil: the table has no
    /// such column); worked out once per row layout.
    private func comparedColumns(of row: [(String, SQLValue)]) -> [(name: String, row: Int, stored: Int?)] {
        if let layout = comparedLayout, layout.names.elementsEqual(row.lazy.map(\.0)) { return layout.compared }
        let names = row.map(\.0)
        var compared: [(name: String, row: Int, stored: Int?)] = []
        for name in Set(names) where name != "source_row" && !table.ignoredColumns.contains(name) {
            compared.append((name, names.lastIndex(of: name)!, storedColumns[name]))
        }
        compared.sort { $0.row < $1.row }
        comparedLayout = (names, compared)
        return compared
    }

    /// After the last row: what the answer's coverage says is gone is removed (and logged), the open charges it does
    /// not list are settled. Returns the counts.
    func finish() throws -> LedgerMergeCounts {
        if fresh { return counts }
        var property: [String: SQLValue] = [":property": .text(lineage.propertyID), ":as_of": .text(lineage.asOf)]
        // The stored transactions the answer did not hold: those not marked seen, or those a whole answer's match
        // listed.
        var notHeld = "id NOT IN (SELECT row_id FROM temp.ledger_seen)"
        if readsWhole {
            // The stored transactions the answer did not hold (none, most weeks), listed by row id.
            let stored = try storedTransactions(compared: [])
            if !heldHouseholds.isEmpty {
                counts.unchanged += stored.heldCount
                counts.heldHouseholds = heldHouseholds.count
            }
            try database.execute("CREATE TEMP TABLE IF NOT EXISTS ledger_unseen (row_id INTEGER PRIMARY KEY)")
            try database.execute("DELETE FROM temp.ledger_unseen")
            let note = try database.prepare("INSERT INTO temp.ledger_unseen (row_id) VALUES (:id)")
            for rowID in stored.unseen { try note.execute([":id": .integer(rowID)]) }
            notHeld = "id IN (SELECT row_id FROM temp.ledger_unseen)"
        }
        let unseen = Self.unseen(notHeld: notHeld)
        var ageOut: String?
        var gone: String?
        switch coverage {
        case .whole(let before):
            ageOut = before
            gone = unseen
        case .dated(_, _, let before), .household(_, _, _, let before):
            ageOut = before
            let scope = coverage.scope(in: table)!
            property.merge(scope.values) { $1 }
            // Judged only on the kinds the answer holds: a window without a single payment says nothing of payments.
            let kinds = kindsSeen.sorted().map { "'\($0.replacingOccurrences(of: "'", with: "''"))'" }.joined(separator: ", ")
            gone = kinds.isEmpty ? nil : unseen + " AND \(scope.condition) AND \(table.kindColumn) IN (\(kinds))"
        case .partial:
            break
        case .openItems(let before):
            ageOut = before
        }
        if let ageOut {
            property[":age_out"] = .text(ageOut)
            try run("DELETE FROM \(table.name) WHERE \(unseen) AND \(table.dateColumn) < :age_out", property)
            counts.removed += database.changes
        }
        if case .openItems = coverage {
            // After the age-out: what is left before the window is not the open items' to settle.
            try run(Self.openChargesSettled(table, unseen: unseen), property.merging(lineageValues) { $1 })
            counts.updated += database.changes
        }
        if let gone {
            let statement = try database.prepare("SELECT * FROM \(table.name) WHERE \(gone) ORDER BY id")
            var removed: [[String: SQLValue]] = []
            try statement.forEachRow(property.filter { statement.hasParameter($0.key) }) { row in
                var stored: [String: SQLValue] = [:]
                for index in 0..<row.columnCount { stored[row.columnName(index)] = row.value(at: index) }
                removed.append(stored)
            }
            for stored in removed {
                try log(kind: stored[table.kindColumn] ?? .null, id: stored["transaction_id"] ?? .null, change: "removed",
                        old: stored, new: nil, detail: "not in the vendor's answer for \(describeCoverage)")
                try database.prepare("DELETE FROM \(table.name) WHERE id = :id").execute([":id": stored["id"] ?? .null])
            }
            counts.removed += removed.count
        }
        return counts
    }

    /// The property's stored transactions with an id, as of the answer or before, that `notHeld` says the answer
    /// did not hold.
    static func unseen(notHeld: String) -> String {
        "property_id = :property AND transaction_id IS NOT NULL AND as_of_date <= :as_of AND \(notHeld)"
    }

    /// An open-items answer settles every stored open charge it does not list (`unseen`): paid in full. Found through
    /// the ledger's index of open charges (`openChargesIndex`), not among all of the property's charges: named, since
    /// the planner, knowing nothing of how few charges are open, prefers the index of every charge by type.
    static func openChargesSettled(_ table: LedgerTable, unseen: String) -> String {
        """
        UPDATE \(table.name)\(table.openChargesIndex.map { " INDEXED BY \($0)" } ?? "")
        SET \(table.paidColumn) = \(table.amountColumn), \(table.balanceColumn) = 0, lineage_id = :lineage_id,
            as_of_date = :as_of
        WHERE \(unseen) AND \(table.openChargeCondition)
        """
    }

    // MARK: - Writing

    /// Runs one statement, binding only the parameters its SQL names.
    private func run(_ sql: String, _ values: [String: SQLValue]) throws {
        let statement = try database.prepare(sql)
        try statement.execute(values.filter { statement.hasParameter($0.key) })
    }

    private var lineageValues: [String: SQLValue] {
        [":lineage_id": .integer(lineageID), ":as_of_date": .text(lineage.asOf), ":as_of": .text(lineage.asOf)]
    }

    /// Inserts one transaction; `unlessPresent`: not when its key is stored already (returns false, nothing written).
    @discardableResult
    private func insertRow(_ row: [(String, SQLValue)], unlessPresent: Bool = false) throws -> Bool {
        if unlessPresent {
            return try insert(row, statement: &insertUnlessPresent, indices: &insertUnlessPresentIndices, verb: "INSERT OR IGNORE")
        }
        return try insert(row, statement: &insert, indices: &insertIndices, verb: "INSERT")
    }

    private func insert(_ row: [(String, SQLValue)], statement cached: inout Statement?, indices: inout [Int32],
                        verb: String) throws -> Bool {
        let columns = ["lineage_id", "property_id", "as_of_date", "first_run_id"]
            + row.map(\.0)
        let statement: Statement
        if let cached {
            statement = cached
        } else {
            statement = try database.prepare("""
                \(verb) INTO \(table.name) (\(columns.joined(separator: ", ")))
                VALUES (\(columns.map { ":" + $0 }.joined(separator: ", ")))
                """)
            indices = columns.map { statement.parameterIndex(":" + $0) }
            cached = statement
        }
        statement.reset()
        let stamp: [SQLValue] = [.integer(lineageID), .text(lineage.propertyID), .text(lineage.asOf), .text(lineage.runID)]
        for (offset, value) in stamp.enumerated() { try statement.bind(value, at: indices[offset]) }
        for (offset, column) in row.enumerated() {
            // source_row numbers the answer's transactions as merged, so it stays the answer's own order.
            let value = column.0 == "source_row" ? .integer(Int64(sourceRow)) : column.1
            try statement.bind(value, at: indices[stamp.count + offset])
        }
        _ = try statement.step()
        guard database.changes > 0 else { return false }
        counts.inserted += 1
        // A first pull judges nothing missing, so it need not remember what it saw.
        if !fresh && !readsWhole { try markSeen.execute([":id": .integer(database.lastInsertRowID)]) }
        return true
    }

    private func log(kind: SQLValue, id: SQLValue, change: String, old: [String: SQLValue]?, new: [String: SQLValue]?,
                     detail: String) throws {
        let statement = try recordChange ?? database.prepare("""
            INSERT INTO \(table.changes) (lineage_id, property_id, kind, transaction_id, change, found_by, as_of_date,
                                          old_amount, new_amount, old_balance, new_balance, detail)
            VALUES (:lineage_id, :property, :kind, :id, :change, :found_by, :as_of,
                    :old_amount, :new_amount, :old_balance, :new_balance, :detail)
            """)
        recordChange = statement
        try statement.execute([
            ":property": .text(lineage.propertyID), ":kind": kind, ":id": id, ":change": .text(change),
            ":found_by": .text(counts.reconciled ? "full_refresh" : "window"), ":lineage_id": .integer(lineageID),
            ":as_of": .text(lineage.asOf),
            ":old_amount": old?[table.amountColumn] ?? .null, ":new_amount": new?[table.amountColumn] ?? .null,
            ":old_balance": old?[table.balanceColumn] ?? .null, ":new_balance": new?[table.balanceColumn] ?? .null,
            ":detail": .text(detail),
        ])
        counts.changesRecorded += 1
    }

    /// A reversal: the vendor's flag turned on, or the amount turned to its opposite or to zero.
    private func isReversal(old: [String: SQLValue], new: [String: SQLValue]) -> Bool {
        if let flag = table.reversalColumn, new[flag] == .integer(1), old[flag] != .integer(1) { return true }
        guard let before = old[table.amountColumn]?.doubleValue, let after = new[table.amountColumn]?.doubleValue,
              before != 0 else { return false }
        return Self.cents(after) == 0 || Self.cents(after) == -Self.cents(before)
    }

    private var describeCoverage: String {
        switch coverage {
        case .whole: "the whole ledger"
        case .dated(let from, let to, _): "\(from)...\(to)"
        case .household(let household, let from, let to, _): "household \(household) \(from)...\(to)"
        case .partial: "part of the ledger"
        case .openItems: "the open charges"
        }
    }

    private static func cents(_ value: Double) -> Int64 { Int64((value * 100).rounded()) }

    /// Equal as stored: money compared in cents (a REAL read back may differ in its last bit from the one decoded).
    static func same(_ a: SQLValue, _ b: SQLValue) -> Bool {
        if case .real(let x) = a, case .real(let y) = b { return cents(x) == cents(y) }
        if case .real(let x) = a, case .integer(let y) = b { return cents(x) == y * 100 }
        if case .integer(let x) = a, case .real(let y) = b { return x * 100 == cents(y) }
        return a == b
    }

    static func text(_ value: SQLValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let v): "\(v)"
        case .real(let v): String(format: "%.2f", v)
        case .text(let v): v
        case .blob(let v): "\(v.count) bytes"
        }
    }
}

/// A property's stored transactions as a whole answer's merge matches them: by key (kind and id), each with its row id,
/// the date of the answer that wrote it and its compared values (`ComparedValues`). Read in one pass over the
/// property's rows (about 250 bytes a transaction: a 24-month ledger of 50,000 in 12 MB), but for the households the
/// answer holds as stored (LedgerHouseholds), which SQLite leaves out: nine in ten of them most weeks, whose keys,
/// made and hashed here, were most of that pass. A class: the merge updates it in place, transaction by transaction.
final class StoredTransactions {
    /// A transaction's identity in the merged ledger (`<kind>`, `transaction_id`), as the unique index has it.
    struct Key: Hashable {
        var kind: SQLValue
        var id: SQLValue
    }

    /// One stored transaction.
    struct Match {
        var rowID: Int64
        var asOf: String
        /// Nil where the values were not encoded (a row of another layout): compared whole instead.
        var values: ComparedValues?
        var seen = false
    }

    private var matches: [Match] = []
    private var byKey: [Key: Int] = [:]
    /// How many stored transactions belong to held households.
    private(set) var heldCount = 0
    /// Finds a stored transaction by key (`isHeld`); nil without held households.
    private let findHeld: Statement?
    private let property: String
    /// The compared columns' names, in the order their values are encoded, and their positions in a decoded row.
    private let layout: [String]
    let positions: [Int]

    /// Reads `property`'s transactions with an id, encoding the `compared` columns (a name the table lacks reads as
    /// NULL, as a looked-up row's does).
    /// `held`: the households held as stored (LedgerHouseholds), whose transactions are seen and unchanged: counted,
    /// not read.
    init(_ database: Database, table: LedgerTable, property: String,
         compared: [(name: String, row: Int, stored: Int?)],
         held: (column: String, households: Set<String>)? = nil) throws {
        layout = compared.map(\.name)
        positions = compared.map(\.row)
        self.property = property
        let present = compared.filter { $0.stored != nil }.map(\.name)
        // Sized once: grown from nothing, the list and the table of 50,000 transactions were copied a dozen times.
        let count = try database.scalar("""
            SELECT count(*) FROM \(table.name) WHERE property_id = :property AND transaction_id IS NOT NULL
            """, [":property": .text(property)])?.integerValue ?? 0
        var parameters: [String: SQLValue] = [":property": .text(property)]
        var notHeld = ""
        if let held {
            parameters[":held"] = .jsonArray(held.households.sorted())
            notHeld = "AND (\"\(held.column)\" IS NULL OR \"\(held.column)\" NOT IN (SELECT value FROM json_each(:held)))"
            findHeld = try database.prepare("""
                SELECT 1 FROM \(table.name)
                WHERE property_id = :property AND "\(table.kindColumn)" = :kind AND transaction_id = :id
                """)
        } else {
            findHeld = nil
        }
        let statement = try database.prepare("""
            SELECT id, as_of_date, "\(table.kindColumn)", transaction_id\(present.map { ", \"\($0)\"" }.joined())
            FROM \(table.name) WHERE property_id = :property AND transaction_id IS NOT NULL \(notHeld)
            """)
        let expected = held == nil ? Int(count) : Int(count) / 4 + 64
        matches.reserveCapacity(expected)
        byKey.reserveCapacity(expected)
        try statement.forEachRow(parameters) { row in
            var values = ComparedValues()
            var column = 4
            for entry in compared {
                if entry.stored == nil {
                    values.append(.null)
                } else {
                    values.append(column, of: row)
                    column += 1
                }
            }
            byKey[Key(kind: row.value(at: 2), id: row.value(at: 3))] = matches.count
            matches.append(Match(rowID: Int64(row.int(at: 0) ?? 0), asOf: row.text(at: 1) ?? "", values: values))
        }
        // Every transaction with an id is either read or a held household's.
        if held != nil { heldCount = Int(count) - matches.count }
    }

    /// Whether values encoded for `compared` are comparable with the stored ones.
    func matchesLayout(_ compared: [(name: String, row: Int, stored: Int?)]) -> Bool {
        compared.count == layout.count && zip(compared, layout).allSatisfy { $0.name == $1 }
    }

    /// The stored transaction of `key`, now seen; nil: the ledger does not hold it, or a held household does
    /// (`isHeld`).
    func see(_ key: Key) -> Match? {
        guard let index = byKey[key] else { return nil }
        matches[index].seen = true
        return matches[index]
    }

    /// Whether `key` is a transaction of a held household: stored, yet not among those read (a key the answer added
    /// is among them). Asked only of a transaction `see` does not know, a new one, a few a week.
    func isHeld(_ key: Key) throws -> Bool {
        guard let findHeld, byKey[key] == nil else { return false }
        return try !findHeld.query([":property": .text(property), ":kind": key.kind, ":id": key.id]).isEmpty
    }

    /// A transaction the answer added (seen: a repeat of it in the answer is matched against it).
    func add(_ key: Key, rowID: Int64, asOf: String, values: ComparedValues?) {
        byKey[key] = matches.count
        matches.append(Match(rowID: rowID, asOf: asOf, values: values, seen: true))
    }

    /// A stored transaction the answer rewrote.
    func wrote(_ key: Key, asOf: String, values: ComparedValues?) {
        guard let index = byKey[key] else { return }
        matches[index].asOf = asOf
        matches[index].values = values
    }

    /// The row ids of the stored transactions the answer did not hold.
    var unseen: [Int64] { matches.filter { !$0.seen }.map(\.rowID) }
}

/// A transaction's compared values as one byte string, equal only where `LedgerMerger.same` holds column by column:
/// money (a real, or an integer) in whole cents, text and blobs by their bytes, NULL apart. Unequal strings are
/// compared again value by value (text that differs only in its Unicode spelling is the same there), so the string
/// decides nothing on its own but "unchanged".
struct ComparedValues: Equatable {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(160) }

    /// A decoded row's values at `positions`, in their order.
    init(_ row: [(String, SQLValue)], _ positions: [Int]) {
        self.init()
        for position in positions { append(row[position].1) }
    }

    mutating func append(_ value: SQLValue) {
        switch value {
        case .null: bytes.append(0)
        case .integer(let whole): append(whole: whole)
        case .real(let amount): append(amount: amount)
        case .text(let text): append(2, text.utf8)
        case .blob(let blob): append(3, blob)
        }
    }

    /// The value in `column` of `statement`'s current row, read where it lies (no `SQLValue` made).
    mutating func append(_ column: Int, of statement: Statement) {
        switch statement.storageClass(at: column) {
        case .null: bytes.append(0)
        case .integer: append(whole: Int64(statement.int(at: column) ?? 0))
        case .real: append(amount: statement.double(at: column) ?? 0)
        case .text: statement.withTextBytes(at: column) { append(2, $0 ?? UnsafeBufferPointer(start: nil, count: 0)) }
        case .blob: append(statement.value(at: column))
        }
    }

    private mutating func append(whole: Int64) {
        let (cents, overflow) = whole.multipliedReportingOverflow(by: 100)
        if overflow { append(4, number: whole) } else { append(1, number: cents) }
    }

    private mutating func append(amount: Double) {
        let cents = (amount * 100).rounded()
        if cents.isFinite && abs(cents) < 9.0e18 {
            append(1, number: Int64(cents))
        } else {
            append(5, number: Int64(bitPattern: amount.bitPattern))
        }
    }

    private mutating func append(_ tag: UInt8, number: Int64) {
        bytes.append(tag)
        var rest = UInt64(bitPattern: number)
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }

    private mutating func append(_ tag: UInt8, _ content: some Collection<UInt8>) {
        append(tag, number: Int64(content.count))
        bytes.append(contentsOf: content)
    }
}

/// The load flow of a ledger answer, beside `SOAPSnapshot.load`'s: the same sha256 check against the manifest and the
/// same "these bytes were loaded already" skip, then one transaction that merges the answer into the ledger
/// (`LedgerMerger`) and records the artifact in `loaded_artifacts` under `operationKey`, with the rows it wrote; an
/// answer of a date recorded already that changed nothing leaves that date's record as it was.
enum LedgerLoad {
    struct Loaded {
        var artifact: String
        var counts: LedgerMergeCounts
        var alreadyLoaded: Bool
    }

    static func load(into database: Database, keyColumn: String, operationKey: String, table: LedgerTable,
                     coverage: LedgerCoverage, path: String, property: Property, asOf: LocalDate, runID: RunID,
                     expectedSHA256: String?, reload: Bool,
                     afterMerge: (Database, SOAPSnapshot.Lineage) throws -> Int = { _, _ in 0 },
                     stream: ([UInt8], LedgerMerger) throws -> Void) throws -> Loaded {
        let bytes = try SOAPSnapshot.readBytes(path)
        let sha256 = SHA256.hexDigest(of: bytes)
        if let expectedSHA256, expectedSHA256 != sha256 {
            throw ReportLoadError("the file's sha256 differs from the run's manifest (edited after it landed?)")
        }
        let key: [String: SQLValue] = [":operation": .text(operationKey), ":property": .text(property.key),
                                       ":as_of": .text(asOf.iso)]
        let previous = try database.query("""
            SELECT artifact_sha256, row_count, artifact FROM loaded_artifacts
            WHERE \(keyColumn) = :operation AND property_id = :property AND as_of_date = :as_of
            """, key).first
        if !reload, let previous, previous[0].textValue == sha256 {
            var counts = LedgerMergeCounts()
            counts.unchanged = Int(previous[1].integerValue ?? 0)
            return Loaded(artifact: previous[2].textValue ?? path, counts: counts, alreadyLoaded: true)
        }
        let lineage = SOAPSnapshot.Lineage(runID: runID.value, propertyID: property.key, asOf: asOf.iso, artifact: path,
                                           sha256: sha256)
        do {
            let counts = try database.withTransaction {
                let merger = try LedgerMerger(database, table: table, lineage: lineage, coverage: coverage)
                try stream(bytes, merger)
                var counts = try merger.finish()
                counts.besides = try afterMerge(database, lineage)
                // The same answer again in other bytes (the night run twice, a retry) that changed nothing: its date's
                // record stays the load's that did, whose rows the ledger holds. Written over it, a record of no rows
                // said the ledger's latest write was older than it is, and renewed the property's raw-state token
                // (RawStateTokens): every property of a night run again was synced again, to change no row.
                if previous != nil, counts.written == 0, counts.removed == 0, counts.changesRecorded == 0 { return counts }
                try database.prepare("""
                    INSERT INTO loaded_artifacts (\(keyColumn), property_id, as_of_date, artifact, artifact_sha256, run_id, row_count)
                    VALUES (:operation, :property, :as_of, :artifact, :sha, :run, :rows)
                    ON CONFLICT (\(keyColumn), property_id, as_of_date) DO UPDATE SET
                        artifact = excluded.artifact, artifact_sha256 = excluded.artifact_sha256, run_id = excluded.run_id,
                        row_count = excluded.row_count, loaded_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
                    """).execute(key.merging([":artifact": .text(path), ":sha": .text(sha256), ":run": .text(runID.value),
                                              ":rows": .integer(Int64(counts.written))]) { $1 })
                return counts
            }
            return Loaded(artifact: path, counts: counts, alreadyLoaded: false)
        } catch let error as SOAPError {
            throw ReportLoadError(error.forProperty(property.key).description)
        }
    }

    /// The warning a reconciling full pull leaves when it found differences: one line naming the property and how
    /// many of each change, so the run's warnings show that the incremental nights missed something. `artifact`: the
    /// answer whose changes are counted (`household`: one household's whole ledger, one of several a night can ask
    /// for); nil: every whole answer of the run.
    static func differences(_ counts: LedgerMergeCounts, in database: Database, changesTable: String,
                            property: String, runID: RunID, operation: String,
                            household: (id: String, artifact: String)? = nil) throws -> [String] {
        guard counts.reconciled, counts.changesRecorded > 0 else { return [] }
        let rows = try database.query("""
            SELECT c.change, count(*) FROM \(changesTable) c JOIN raw_lineage l ON l.id = c.lineage_id
            WHERE c.property_id = :property AND l.run_id = :run AND c.found_by = 'full_refresh'
              AND (:artifact IS NULL OR l.artifact = :artifact)
            GROUP BY c.change ORDER BY c.change
            """, [":property": .text(property), ":run": .text(runID.value),
                   ":artifact": household.map { .text($0.artifact) } ?? .null])
        let parts = rows.map { "\($0[1].integerValue ?? 0) \($0[0].textValue ?? "")" }.joined(separator: ", ")
        let pull = household.map { "whole \(operation) pull of household \($0.id)" } ?? "full \(operation) pull"
        return ["\(property): the \(pull) differs from the ledger merged by the incremental nights: \(parts) "
                + "(listed in \(changesTable), found_by = 'full_refresh')"]
    }
}
