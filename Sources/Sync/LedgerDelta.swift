import OwnerDashCore
import SQLiteKit

/// A tenant ledger written by change: on an incremental sync, unified_charges and unified_payments are rewritten only
/// for the ledger rows the loads wrote since the property's last sync, instead of being projected whole into the
/// twins and compared (docs/sync-rules.md, "Writing only what changed"). A property's 24 months of charges and
/// payments are most of its rows, and a churned night changes a few dozen of them.
///
/// It rests on the merged ledgers (realpage_raw.realpage_ledger, RPXArtifactLoader; yardi_raw.yardi_transactions,
/// the Yardi loader; both by RawStore's LedgerMerge): each row is rewritten whole, with its load's `lineage_id`, when
/// it is inserted or changes, and deleted when it ages out or the vendor's answer says it is gone. A charge
/// (`RealPageLedger.insertCharges`, `YardiLedger.insertCharges`) or payment is a projection of one ledger row and the
/// charge categories alone, so the rows to rewrite are those of ledger rows newer than the mark the last sync left
/// (`ledger_sync_marks`) and those whose ledger row is gone; the balance-forward lines, which sum a household's
/// postings, are set aside after the charge and payment rules (`setAsideBalanceForward`), those of the households
/// whose line can have moved. Lineage ids only grow while the mark's lineage row is there:
/// SQLite numbers a new row after the highest, so the mark also names that row and is void once it is gone.
///
/// The rows go to main directly (no twin): the rules after the ledger's (the balance forward, the household balances,
/// the checks) read the property's whole ledger from main, where it is complete. Not used by `sync --full` nor the
/// nights a ledger is pulled whole (`Synchronizer.Mode.full`): those rebuild into twins and name any row this left
/// different from a full rebuild.
struct LedgerDelta {
    /// The tables a delta writes in main, which therefore get no twin.
    static let tables = ["unified_charges", "unified_payments"]

    /// A merged raw ledger as the delta reads it, and the ledger rules' own description of which rows they project.
    struct Ledger {
        /// The raw table (`ledger_sync_marks.ledger`) and the raw database it is in.
        let name: String
        let schema: String
        /// The alias the rules' predicates use for a ledger row.
        let alias: String
        /// The column telling charges from payments, and its value for each.
        let kindColumn: String
        let chargeKind: String
        let paymentKind: String
        /// A ledger row's charge or payment id, as the rules write it (over `alias`).
        let id: String
        /// Which ledger rows become charges and payments (the rules' own predicates, over `alias`).
        let projectedCharge: String
        let projectedPayment: String
        /// The ledger rules' description, to know a sync projected this ledger.
        let source: String
        /// A ledger row's household (the `resident_id` the rules write) and its date (the charge's `charge_date` and
        /// `due_date`, the payment's `payment_date`), over `alias`; the date is on an index with the property.
        let household: String
        let date: String

        /// RPX getresidentledger, merged by transaction (RealPageLedger).
        static let realpage = Ledger(name: "realpage_ledger", schema: "realpage_raw", alias: "l", kindColumn: "transaction_type",
                                     chargeKind: "Charge", paymentKind: "Payment", id: "l.transaction_id",
                                     projectedCharge: RealPageLedger.projectedCharge,
                                     projectedPayment: RealPageLedger.projectedPayment, source: RealPageLedger.source,
                                     household: "l.resh_id", date: "l.transaction_date")
        /// Yardi GetResidentTransactions_Login, merged by transaction (YardiLedger).
        static let yardi = Ledger(name: "yardi_transactions", schema: "yardi_raw", alias: "t", kindColumn: "kind",
                                  chargeKind: "charge", paymentKind: "payment", id: YardiLedger.postingID,
                                  projectedCharge: YardiLedger.projectedCharge,
                                  projectedPayment: YardiLedger.projectedPayment, source: YardiLedger.source,
                                  household: "t.tenant_code", date: "t.transaction_date")
    }

    let ledger: Ledger
    /// Ledger rows whose lineage is above this are projected again; the others are as the last sync projected them.
    let since: Int64
    /// Whether the merged ledger can have lost a row since the mark (its `ledger_removals` count moved, or one of the
    /// two counts is missing): only then is a stored charge or payment looked for whose ledger row is gone.
    let removedSinceMark: Bool
    /// The removals since the mark as the raw log lists them (`ledger_removed_rows`: numbers above the mark's count,
    /// up to the ledger's), when it lists every one of them; nil: found by comparing the stored rows with the ledger.
    let loggedRemovals: ClosedRange<Int64>?
    private let charges: CurrentStateDiff.Table
    private let payments: CurrentStateDiff.Table

    /// Each delta table with its id column, the ledger's kind its rows come from and which ledger rows it projects.
    private var written: [(table: CurrentStateDiff.Table, id: String, kind: String, projected: String)] {
        [(charges, "charge_id", ledger.chargeKind, ledger.projectedCharge),
         (payments, "payment_id", ledger.paymentKind, ledger.projectedPayment)]
    }

    /// The delta for `property` when its last sync left a mark on `ledger` for the same rules (`rules`: the build and
    /// the charge categories) and the mark's lineage row is still the same; nil: project the ledger whole.
    static func available(_ database: Database, property: String, ledger: Ledger, rules: String) throws -> LedgerDelta? {
        guard let mark = try database.query("""
            SELECT m.lineage_id,
                   m.lineage = (SELECT \(lineageIdentity("r")) FROM \(ledger.schema).raw_lineage r WHERE r.id = m.lineage_id),
                   m.removals, \(try removals(database, ledger: ledger))
            FROM ledger_sync_marks m
            WHERE m.unified_property_id = :property AND m.ledger = :ledger AND m.rules = :rules
            """, [":property": .text(property), ":ledger": .text(ledger.name), ":rules": .text(rules)]).first,
              mark[1].integerValue == 1, let since = mark[0].integerValue else { return nil }
        let marked = mark[2].integerValue, now = mark[3].integerValue
        var logged: ClosedRange<Int64>? = nil
        if let marked, let now, now > marked,
           try database.scalar("""
               SELECT count(*) FROM \(ledger.schema).sqlite_master WHERE type = 'table' AND name = 'ledger_removed_rows'
               """)?.integerValue == 1,
           try database.scalar("""
               SELECT count(*) FROM \(ledger.schema).ledger_removed_rows
               WHERE property_id = :property AND removal > :marked AND removal <= :now
               """, [":property": .text(property), ":marked": .integer(marked), ":now": .integer(now)])?.integerValue
               == now - marked {
            logged = (marked + 1)...now
        }
        return LedgerDelta(ledger: ledger, since: since, removedSinceMark: marked == nil || marked != now,
                           loggedRemovals: logged,
                           charges: try CurrentStateDiff.table("unified_charges", in: database),
                           payments: try CurrentStateDiff.table("unified_payments", in: database))
    }

    /// The SQL of how many rows the property's merged ledger has lost (RawStore's LedgerRemovals, counted by a trigger
    /// since raw migrations 49 and 13), or NULL when the raw database has no such count (not loaded by this version).
    private static func removals(_ database: Database, ledger: Ledger) throws -> String {
        let counted = try database.scalar("""
            SELECT count(*) FROM \(ledger.schema).sqlite_master WHERE type = 'table' AND name = 'ledger_removals'
            """)?.integerValue == 1
        return counted
            ? "coalesce((SELECT removed FROM \(ledger.schema).ledger_removals WHERE property_id = :property), 0)"
            : "NULL"
    }

    /// A lineage row's identity: its run, property, date, artifact and digest.
    private static func lineageIdentity(_ alias: String) -> String {
        "\(alias).run_id || ' ' || \(alias).property_id || ' ' || \(alias).as_of_date || ' ' || \(alias).artifact || ' ' || \(alias).artifact_sha256"
    }

    /// Records where this sync left the property's ledger (its newest ledger row's lineage) when the sync projected
    /// `ledger` (`projected`), else forgets the mark, as when the ledger is empty: the next sync then projects it whole.
    static func mark(_ database: Database, property: String, ledger: Ledger, rules: String, projected: Bool) throws {
        let parameters: [String: SQLValue] = [":property": .text(property)]
        try database.prepare("DELETE FROM ledger_sync_marks WHERE unified_property_id = :property").execute(parameters)
        guard projected else { return }
        try database.prepare("""
            INSERT INTO ledger_sync_marks (unified_property_id, ledger, lineage_id, lineage, rules, removals)
            SELECT :property, :ledger, r.id, \(lineageIdentity("r")), :rules, \(try removals(database, ledger: ledger))
            FROM \(ledger.schema).raw_lineage r
            WHERE r.id = (SELECT max(lineage_id) FROM \(ledger.schema).\(ledger.name) WHERE property_id = :property)
            """).execute(parameters.merging([":ledger": .text(ledger.name), ":rules": .text(rules)]) { $1 })
    }

    /// Which ledger rows a source's rules project tonight (`LedgerProjection`: those written since the delta's mark
    /// when the rules project this ledger by change, else every row), after the delta, if any, has set aside what they
    /// will write again (`clear`); and what `clear` left, for `finish` (nil without a delta). `fromLedger`: the
    /// property has this ledger's snapshot.
    static func begin(_ context: SyncContext, fromLedger: Bool) throws -> (left: [String: Int64]?, projection: LedgerProjection) {
        let left = try context.ledgerDelta?.clear(context, fromLedger: fromLedger)
        return (left, LedgerProjection(since: fromLedger ? context.ledgerDelta?.since : nil))
    }

    /// Before the ledger rules: sets the property's charges and payments to be rewritten aside (`temp.delta_*`) and
    /// deletes them from main: with `fromLedger` (the rules project this ledger tonight), those of ledger rows written
    /// since the mark and those whose ledger row is gone (the balance-forward lines come later,
    /// `setAsideBalanceForward`); otherwise (the ledger now comes from elsewhere) all of them. Returns the highest row
    /// id left per table: the rules' rows come after it.
    ///
    /// A ledger row changed since the mark carries a newer lineage (the merge rewrites it whole), so a stored row the
    /// rules will not write again can only have lost its ledger row, and that is looked for only on a night the ledger
    /// lost a row (`removedSinceMark`: most nights it lost none). Counting the rows projected before the mark to find
    /// out read the property's whole ledger each night; a lookup per stored row cost more than the delta saved.
    func clear(_ context: SyncContext, fromLedger: Bool) throws -> [String: Int64] {
        let database = context.database
        let raw = "\(ledger.schema).\(ledger.name) \(ledger.alias)", a = ledger.alias
        var left: [String: Int64] = [:]
        for (table, id, kind, projected) in written {
            let parameters: [String: SQLValue] = [":kind": .text(kind), ":since": .integer(since)]
            try TempTables.empty(Self.deltaKeys, in: database)
            if fromLedger {
                try context.run("""
                    INSERT OR IGNORE INTO temp.delta_keys
                    SELECT \(ledger.id) FROM \(raw)
                    WHERE \(a).property_id = :property AND \(a).\(ledger.kindColumn) = :kind AND \(a).lineage_id > :since
                    """, parameters)
                if let logged = loggedRemovals {
                    // The rows the ledger lost since the mark, from the log its trigger keeps (a stored row of another
                    // id, or none, is untouched): a few rows where the set difference below reads every one.
                    try context.run("""
                        INSERT OR IGNORE INTO temp.delta_keys
                        SELECT \(ledger.id) FROM \(ledger.schema).ledger_removed_rows \(a)
                        WHERE \(a).property_id = :property AND \(a).removal BETWEEN :first AND :last
                          AND \(a).\(ledger.kindColumn) = :kind
                        """, parameters.merging([":first": .integer(logged.lowerBound), ":last": .integer(logged.upperBound)]) { $1 })
                } else if removedSinceMark {
                    // One set difference (no lookup per row): the stored ids the ledger no longer projects.
                    try context.run("""
                        INSERT OR IGNORE INTO temp.delta_keys
                        SELECT \(id) FROM main.\(table.name) WHERE unified_property_id = :property
                        EXCEPT
                        SELECT \(ledger.id) FROM \(raw) WHERE \(a).property_id = :property AND \(projected) AND \(a).lineage_id <= :since
                        """, parameters)
                }
            } else {
                try context.run("INSERT INTO temp.delta_keys SELECT \(id) FROM main.\(table.name) WHERE unified_property_id = :property")
            }
            let scope = "o.unified_property_id = :property AND o.\(id) IN (SELECT id FROM temp.delta_keys)"
            // Made by the first property written by change (its columns are main's, read at run time).
            let stored = "SELECT \(table.columns.joined(separator: ", ")) FROM main.\(table.name) o"
            let setAside = ScratchTable(name: "delta_\(table.name)", shape: .query(stored),
                                        indexes: ["delta_\(table.name)_key": "unified_property_id, \(id)"])
            try TempTables.refill(setAside, with: "\(stored) WHERE \(scope)", in: database) { try context.run($0) }
            try context.run("DELETE FROM main.\(table.name) AS o WHERE \(scope)")
            left[table.name] = try database.scalar("SELECT coalesce(max(rowid), 0) FROM main.\(table.name)")?.integerValue ?? 0
        }
        return left
    }

    /// After the rules: what the rewrite changed, per table, against the rows `clear` set aside (a row written again as
    /// it was is no change); with `logChanges`, the keys of those rows noted for publication, as
    /// `CurrentStateDiff.apply` notes the others'. `left`: what `clear` returned.
    func finish(_ context: SyncContext, left: [String: Int64], logChanges: Bool) throws -> [String: RowChanges] {
        var changes: [String: RowChanges] = [:]
        for (table, id, _, _) in written {
            let parameters: [String: SQLValue] = [":left": .integer(left[table.name] ?? 0), ":table": .text(table.name)]
            let (gone, new) = differences(table, id: id)
            var counted = RowChanges()
            counted.deleted = Int(try context.rows("SELECT count(*) \(gone)", parameters).first?.first?.integerValue ?? 0)
            counted.inserted = Int(try context.rows("SELECT count(*) \(new)", parameters).first?.first?.integerValue ?? 0)
            if logChanges {
                for (alias, rows) in [("o", gone), ("n", new)] {
                    try context.run("""
                        INSERT OR IGNORE INTO main.unpublished_changes (unified_property_id, table_name, row_key)
                        SELECT :property, :table, \(table.loggedKey(alias)) \(rows)
                        """, parameters)
                }
            }
            changes[table.name] = counted
        }
        return changes
    }
}

extension LedgerDelta {
    /// The ledger ids a table's rewrite covers (`clear`).
    static let deltaKeys = ScratchTable(name: "delta_keys", shape: .definition("(id TEXT PRIMARY KEY) WITHOUT ROWID"))
    /// The households whose balance-forward line the rewrite can move (`listRewrittenHouseholds`).
    static let rewrittenHouseholds = ScratchTable(name: "rewritten_households",
                                                  shape: .definition("(resh_id TEXT PRIMARY KEY) WITHOUT ROWID"))
    /// The households whose balance is summed again (`rebalance`).
    static let rebalancedHouseholds = ScratchTable(name: "rebalanced_households",
                                                   shape: .definition("(resident_id TEXT PRIMARY KEY) WITHOUT ROWID"))
    /// Its scratch tables of a fixed shape.
    static let scratchTables = [deltaKeys, rewrittenHouseholds, rebalancedHouseholds]
}

extension LedgerDelta {
    /// Before RPX's balance forward by household (`RealPageLedger.insertBalanceForward(byChange:)`), after the charge and
    /// payment rules: lists in `temp.rewritten_households` the household of every charge and payment `clear` set aside
    /// or the rules wrote since (`left`); the rule's own reasons a line can move besides its postings are added by
    /// `RealPageLedger.listMovedForwardHouseholds`. Returns false, listing none, when the last sync may have written no
    /// line for want of a dated posting (the rule dates each line the day before the first): none of the ledger rows it
    /// read is left, so every household is summed.
    func listRewrittenHouseholds(_ context: SyncContext, left: [String: Int64]) throws -> Bool {
        let a = ledger.alias
        let dated = try context.rows("""
            SELECT EXISTS (
                SELECT 1 FROM \(ledger.schema).\(ledger.name) \(a)
                WHERE \(a).property_id = :property AND \(a).lineage_id <= :since
                  AND \(a).\(ledger.kindColumn) IN (:charge, :payment) AND \(ledger.date) IS NOT NULL)
            """, [":since": .integer(since), ":charge": .text(ledger.chargeKind), ":payment": .text(ledger.paymentKind)])
        guard dated.first?.first?.integerValue == 1 else { return false }
        let database = context.database
        try TempTables.empty(Self.rewrittenHouseholds, in: database)
        for (table, _, _, _) in written {
            try context.run("""
                INSERT OR IGNORE INTO temp.rewritten_households
                SELECT resident_id FROM temp.delta_\(table.name) WHERE resident_id IS NOT NULL
                UNION ALL
                SELECT resident_id FROM main.\(table.name)
                WHERE rowid > :left AND +unified_property_id = :property AND resident_id IS NOT NULL
                """, [":left": .integer(left[table.name] ?? 0)])
        }
        return true
    }

    /// Which of the property's balance-forward lines (`balance-forward:<household>`) a source's rule writes again.
    enum BalanceForwardLines {
        /// Every line: the rule sums every household.
        case all
        /// Those of the households in `temp.rewritten_households`: the rule sums only them.
        case rewrittenHouseholds
    }

    /// Before a source's balance-forward rule, after its charge and payment rules: sets `lines` aside with the
    /// charges `clear` set aside (`temp.delta_unified_charges`, compared by `finish`) and deletes them from main, so
    /// that the rule writes them again and the households' postings it sums leave them out. A line not set aside is as
    /// the last sync wrote it, and stays: after two years RPX's window has passed thousands of households, and
    /// rewriting each one's line summed its 24 months of postings every night.
    func setAsideBalanceForward(_ context: SyncContext, _ lines: BalanceForwardLines) throws {
        let scope = switch lines {
        case .all:
            RealPageTransactionLedger.isBalanceForwardLine("o")
        case .rewrittenHouseholds:
            "o.charge_id IN (SELECT \(RealPageTransactionLedger.balanceForwardID("resh_id")) FROM temp.rewritten_households)"
        }
        let stored = "main.unified_charges o WHERE o.unified_property_id = :property AND \(scope)"
        try context.run("INSERT INTO temp.delta_unified_charges SELECT \(charges.columns.joined(separator: ", ")) FROM \(stored)")
        try context.run("DELETE FROM main.unified_charges AS o WHERE o.unified_property_id = :property AND \(scope)")
    }

    /// The rows set aside that are not back as they were (`o`), and the rows written that were not there so (`n`):
    /// `FROM ... WHERE ...` clauses over `:left` (what `clear` left) and `:property`.
    private func differences(_ table: CurrentStateDiff.Table, id: String) -> (gone: String, new: String) {
        let same = CurrentStateDiff.same(table.columns)
        let gone = """
            FROM temp.delta_\(table.name) o
            WHERE NOT EXISTS (SELECT 1 FROM main.\(table.name) n
                              WHERE n.unified_property_id = o.unified_property_id AND n.\(id) = o.\(id)
                                AND n.rowid > :left AND \(same))
            """
        let new = """
            FROM main.\(table.name) n
            WHERE n.rowid > :left AND +n.unified_property_id = :property
              AND NOT EXISTS (SELECT 1 FROM temp.delta_\(table.name) o
                              WHERE o.unified_property_id = n.unified_property_id AND o.\(id) = n.\(id) AND \(same))
            """
        return (gone, new)
    }

    /// The household balances by change (HouseholdBalances), after the ledger rules and before `finish`: the households
    /// a balance can have moved for are listed in `temp.rebalanced_households` (those with a charge or payment the
    /// rewrite changed, added or removed, and those with a ledger row dated after `previous`, the property date the
    /// last sync summed up to, and by `asOf`), their balances are summed again, and every other household's row is carried
    /// from main as the last sync left it. The twin this fills is compared with main as a whole rebuild's would be.
    /// Returns the property's balance rows. A night's few dozen changed postings are summed instead of 24 months of them.
    /// Only for a night the rules projected this ledger (the dates are read from it).
    func rebalance(_ context: SyncContext, left: [String: Int64], previous: LocalDate, asOf: LocalDate) throws -> Int {
        let database = context.database
        try TempTables.empty(Self.rebalancedHouseholds, in: database)
        for (table, id, _, _) in written {
            let (gone, new) = differences(table, id: id)
            let parameters: [String: SQLValue] = [":left": .integer(left[table.name] ?? 0)]
            for (alias, rows) in [("o", gone), ("n", new)] {
                try context.run("INSERT OR IGNORE INTO temp.rebalanced_households SELECT \(alias).resident_id \(rows)", parameters)
            }
        }
        // Dated into the move: found on the merged ledger's date index (the rules date a posting by its ledger row's
        // date; a row without one is dated by its period, so its household is summed again too). Reading the
        // property's charges for their dates cost as much as summing them.
        let raw = "\(ledger.schema).\(ledger.name) \(ledger.alias)", a = ledger.alias
        try context.run("""
            INSERT OR IGNORE INTO temp.rebalanced_households
            SELECT \(ledger.household) FROM \(raw)
            WHERE \(a).property_id = :property AND \(ledger.date) > :previous AND \(ledger.date) <= :as_of
              AND \(ledger.household) IS NOT NULL
            UNION ALL
            SELECT \(ledger.household) FROM \(raw)
            WHERE \(a).property_id = :property AND \(ledger.date) IS NULL AND \(ledger.household) IS NOT NULL
            """, asOf: asOf, [":previous": .text(previous.iso)])
        var rows = try context.run(HouseholdBalances.keepOthers)
        rows += try context.run(HouseholdBalances.insertRebalanced, asOf: asOf)
        return rows
    }
}

/// The ledger rows the charge and payment rules project: every row of the property, or (`since`, LedgerDelta) those
/// a load wrote after the sync's mark.
struct LedgerProjection {
    let since: Int64?

    /// What the rules bind (`:ledger_since`).
    var parameters: [String: SQLValue] { [":ledger_since": SQLValue(since)] }

    /// The rules' condition on a ledger row `alias`: none, or written since the mark, which the ledger's by-load index
    /// finds (raw migrations 47 and 12). One statement for both (`:ledger_since IS NULL OR ...`) kept the planner on
    /// the kind's index, and a night read each property's whole ledger for its few new rows.
    func rows(_ alias: String) -> String { since == nil ? "" : "AND \(alias).lineage_id > :ledger_since" }
}

/// Where a property's kept household sums stand (YardiHouseholds, RealPagePostings): the newest lineage of its merged
/// ledger when the last sync kept them (`sync_household_sum_marks`). They can be added to by change only on a night
/// whose ledger delta stands on that same lineage: the ledger rows up to it are those they were summed from (the delta
/// has checked the build, the charge categories and the lineage row).
enum HouseholdSumMark {
    /// The lineage the kept sums stood on, when it is the ledger delta's; nil: sum every household.
    static func keptSince(_ context: SyncContext) throws -> Int64? {
        guard let since = context.ledgerDelta?.since,
              try context.rows("SELECT lineage_id FROM main.sync_household_sum_marks WHERE unified_property_id = :property", [:])
                  .first?.first?.integerValue == since else { return nil }
        return since
    }

    /// Records the ledger's newest lineage as the one tonight's sums stand on (as `LedgerDelta.mark` does), none
    /// without a ledger row. The newest is a scalar subquery, which SQLite reads off the ledger's by-load index's
    /// end; `max` beside a `HAVING` read every row of the property's ledger (121 ms a night for the 30).
    static func record(_ context: SyncContext, ledger: LedgerDelta.Ledger) throws {
        try context.run("DELETE FROM main.sync_household_sum_marks WHERE unified_property_id = :property")
        try context.run("""
            INSERT INTO main.sync_household_sum_marks (unified_property_id, lineage_id)
            SELECT :property, newest FROM (
                SELECT (SELECT max(lineage_id) FROM \(ledger.schema).\(ledger.name) WHERE property_id = :property) AS newest)
            WHERE newest IS NOT NULL
            """)
    }
}
