import Foundation
import SQLiteKit

/// A property's current-state rows computed aside and written to unified.db by key: a sync writes the rows that
/// changed, not the property's every row again (docs/sync-rules.md, "Writing only what changed").
///
/// The sync rules name the unified tables unqualified, and SQLite resolves an unqualified name in TEMP before main.
/// While a property syncs, each current-state table (`Synchronizer.currentStateTables`) has a TEMP twin of the same
/// name, columns, defaults, key and indexes, so every rule writes and reads the property's new state there, exactly
/// as it would in an empty table; `apply` then deletes from main the rows that are gone or differ and inserts the new
/// and changed ones. The twins carry no foreign keys (they cannot reach main) nor checks: main's own constraints
/// check every row written to it. The twins are emptied after each property and dropped once the caller's syncs are
/// done (`Synchronizer`'s `keepsTwins`): made for each property, they made SQLite compile every rule again.
struct CurrentStateDiff {
    /// One current-state table as the diff needs it, read from main's schema.
    struct Table {
        let name: String
        /// Every column but a row id SQLite numbers (`unified_activity.id`), which no row is compared by.
        let columns: [String]
        /// The primary key, its columns never a numbered row id; empty: the table has none (compared as a multiset).
        let key: [String]
        /// `CREATE TEMP TABLE ...` and `CREATE INDEX temp....` of its twin.
        let createTwin: [String]
        /// The tables its foreign keys refer to (`unified_leases` for `unified_lease_residents`): a delete there
        /// cascades here.
        let parents: Set<String>
        /// The columns a drift is looked for in: all but the stamp of the sync that wrote the row (`run_id`).
        var comparedColumns: [String] { columns.filter { $0 != "run_id" } }
        /// `json_array(alias.k, ...)` of the key's columns after the property: a row's `unpublished_changes.row_key`.
        func loggedKey(_ alias: String) -> String {
            "json_array(" + key.filter { $0 != "unified_property_id" }.map { "\(alias).\($0)" }.joined(separator: ", ") + ")"
        }
        /// Main's rows a rebuild is compared with: all but the drift warnings the check itself stored.
        var storedByTheRules: String { name == "unified_sync_warnings" ? " AND check_name <> 'sync_drift'" : "" }
    }

    /// Main's rows of a table the rules computed only in part (RealPageActivityDays: the report events of some days):
    /// the twin holds those rows alone, `apply` compares them with main's rows that meet one of `conditions` (each
    /// appended to the property's, with `parameters`) and leaves main's others as they are. The conditions select
    /// rows apart, each off an index in the walk's order, so the walk reads them merged in order (SQLite's merge of a
    /// `UNION ALL`), none sorted and no row outside them read: one condition with an `OR` read every row of the
    /// property's index to keep a few. `twinCondition` (a `WHERE` clause without parameters), where the twin holds
    /// more than the rows computed (RealPageExpenseMonths keeps main's other months there for the checks): its rows
    /// compared, those of the same part.
    struct Scope {
        let conditions: [String]
        let parameters: [String: SQLValue]
        var twinCondition = ""
    }

    /// A row whose stored (incremental) value differs from a full rebuild's: `Synchronizer.Mode.full` reports them.
    struct Drift {
        let table: String
        let key: String
        let detail: String
    }

    /// Indexes of main no sync rule looks rows up by (the audit's and lease status's by lease, six columns wide; the
    /// summary's activity counts by type; the resident events the diff reads of main alone, `Scope`): not made on the
    /// twins, where each would be kept up row by row for nothing (a third of the charges' insert time).
    static let readersOnlyIndexes = ["unified_charges_by_lease", "unified_activity_by_type", "unified_activity_residents"]

    /// Children before parents (`unified_lease_residents` before `unified_leases`), as `currentStateTables` lists them.
    let tables: [Table]

    init(_ database: Database, tables names: [String]) throws {
        tables = try names.map { try Self.table($0, in: database) }
    }

    static func table(_ name: String, in database: Database) throws -> Table {
        struct Column { let name: String, type: String, notNull: Bool, defaultValue: String?, keyPosition: Int }
        let columns = try database.query("""
            SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(:table, 'main') ORDER BY cid
            """, [":table": .text(name)]).map {
            Column(name: $0[0].textValue ?? "", type: $0[1].textValue ?? "", notNull: $0[2].integerValue == 1,
                   defaultValue: $0[3].textValue, keyPosition: Int($0[4].integerValue ?? 0))
        }
        precondition(!columns.isEmpty, "no table \(name) in unified.db")
        let key = columns.filter { $0.keyPosition > 0 }.sorted { $0.keyPosition < $1.keyPosition }
        // `id INTEGER PRIMARY KEY` is the row id: SQLite numbers it, so it identifies nothing across two syncs.
        let rowID = key.count == 1 && key[0].type.uppercased() == "INTEGER" ? key[0].name : nil
        var definitions = columns.map { column in
            var definition = "\(column.name) \(column.type)"
            if column.name == rowID { definition += " PRIMARY KEY" }
            if column.notNull { definition += " NOT NULL" }
            if let value = column.defaultValue { definition += " DEFAULT \(value)" }
            return definition
        }
        if rowID == nil, !key.isEmpty { definitions.append("PRIMARY KEY (\(key.map(\.name).joined(separator: ", ")))") }
        var createTwin = ["CREATE TEMP TABLE \(name) (\(definitions.joined(separator: ", ")))"]
        // The rules read what they wrote (a household's charges, a lease's residents): the twin gets main's indexes,
        // but those only the reports read by (`readersOnlyIndexes`), which would cost the sync their upkeep alone.
        for row in try database.query("""
            SELECT name, sql FROM main.sqlite_schema WHERE type = 'index' AND tbl_name = :table AND sql IS NOT NULL
            """, [":table": .text(name)]) where !readersOnlyIndexes.contains(row[0].textValue ?? "") {
            guard let sql = row[1].textValue,
                  let range = sql.range(of: #"^CREATE (UNIQUE )?INDEX (IF NOT EXISTS )?"#, options: .regularExpression) else { continue }
            createTwin.append(sql.replacingCharacters(in: range, with: sql[range] + "temp."))
        }
        let parents = try database.query("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(:table, 'main')",
                                         [":table": .text(name)]).compactMap { $0.first?.textValue }
        return Table(name: name, columns: columns.map(\.name).filter { $0 != rowID },
                     key: rowID == nil ? key.map(\.name) : [], createTwin: createTwin, parents: Set(parents))
    }

    /// Makes the twins of `tables` exist and empty, and drops any other twin of `universe` (outside the property's
    /// transaction, so that its rollback cannot bring back rows or a twin removed here); returns the twins' names, for
    /// `emptyTwins`.
    @discardableResult
    static func prepareTwins(_ database: Database, tables: [Table], universe: [String]) throws -> [String] {
        let wanted = Dictionary(uniqueKeysWithValues: tables.map { ($0.name, $0) })
        for name in universe {
            let exists = try TempTables.exists(name, in: database)
            if let table = wanted[name] {
                if exists {
                    try database.prepare("DELETE FROM temp.\(name)").execute()
                } else {
                    for sql in table.createTwin { try database.execute(sql) }
                }
            } else if exists {
                try database.execute("DROP TABLE temp.\(name)")
            }
        }
        return tables.map(\.name)
    }

    /// Makes this diff's twins, empty, whatever other twins there are (`prepareTwins` over these tables alone).
    func createTwins(_ database: Database) throws {
        try Self.prepareTwins(database, tables: tables, universe: tables.map(\.name))
    }

    /// Drops this diff's twins.
    func dropTwins(_ database: Database) {
        Self.dropTwins(database, universe: tables.map(\.name))
    }

    /// Empties the twins `prepareTwins` made (`names`), once a property's rows are written (a twin left is read by
    /// nothing until the next property's `prepareTwins`, but holds no rows meanwhile).
    static func emptyTwins(_ database: Database, names: [String]) {
        for name in names { try? database.prepare("DELETE FROM temp.\(name)").execute() }
    }

    /// Drops every twin of `universe`: unqualified names mean main's tables again.
    static func dropTwins(_ database: Database, universe: [String]) {
        for name in universe { try? database.execute("DROP TABLE IF EXISTS temp.\(name)") }
    }

    /// Makes main's rows of `property` those of the twins, writing only the rows that differ: first the rows gone or
    /// changed are deleted (children first), then the new and changed ones inserted (parents first, so a child's
    /// parent is there; a child a parent's delete cascaded away is inserted again, being missing by its key).
    ///
    /// A table without a key (`unified_activity`: two identical events are two rows) is compared as a multiset: both
    /// sides walked in the order of every column, identical rows pair off oldest first, and main loses its surplus
    /// rows or gets the twin's later ones, so that each value is there as often as in the twin.
    ///
    /// `logChanges` (the unified data is published to PostgreSQL): the key of every row deleted or inserted is noted
    /// in `unpublished_changes`, for `UnifiedPublisher.publishChanges` to send those rows alone.
    ///
    /// `scopes`: per table computed in part, main's rows its twin stands for (`Scope`); main's other rows stay.
    func apply(_ database: Database, property: String, logChanges: Bool = false,
               scopes: [String: Scope] = [:]) throws -> [String: RowChanges] {
        var changes: [String: RowChanges] = [:]
        let parameters: [String: SQLValue] = [":property": .text(property)]
        // Per table, the twin's rows main lacks (or, without a key, has fewer of), found before any delete.
        var added: [String: [Int64]] = [:]
        let twinned = Set(tables.map(\.name))
        for table in tables {
            // Main's rows to delete, into `temp.diff_rows`.
            let scope = scopes[table.name]
            let (gone, new) = try SQLProfile.measure(property, "diff walk \(table.name)") {
                try differences(table, database, parameters.merging(scope?.parameters ?? [:]) { $1 },
                                storedConditions: scope?.conditions ?? [""], twinCondition: scope?.twinCondition ?? "")
            }
            added[table.name] = new
            try Self.fill(database, rows: gone)
            if logChanges {
                let key = table.key.isEmpty ? "json_array(o.rowid)" : table.loggedKey("o")
                try Self.log(table, database, parameters, keys: """
                    SELECT \(key) FROM main.\(table.name) o WHERE o.rowid IN (SELECT rid FROM temp.diff_rows)
                    """)
            }
            try SQLProfile.measure(property, "diff delete \(table.name)") {
                try database.execute("DELETE FROM main.\(table.name) WHERE rowid IN (SELECT rid FROM temp.diff_rows)")
            }
            changes[table.name, default: RowChanges()].deleted = database.changes
        }
        for table in tables.reversed() {
            let names = table.columns.joined(separator: ", ")
            if table.key.isEmpty {
                let before = try database.scalar("SELECT coalesce(max(rowid), 0) FROM main.\(table.name)")?.integerValue ?? 0
                // The twin's rows main has fewer of (the later ones of identical rows), in the twin's order.
                try Self.fill(database, rows: added[table.name] ?? [])
                try database.execute("""
                    INSERT INTO main.\(table.name) (\(names))
                    SELECT \(names) FROM temp.\(table.name) WHERE rowid IN (SELECT rid FROM temp.diff_rows)
                    ORDER BY rowid
                    """)
                changes[table.name, default: RowChanges()].inserted = database.changes
                if logChanges {
                    // The new rows' ids, which SQLite numbered after every row before them.
                    try Self.log(table, database, parameters.merging([":before": .integer(before)]) { $1 }, keys: """
                        SELECT json_array(rowid) FROM main.\(table.name) WHERE unified_property_id = :property AND rowid > :before
                        """)
                }
            } else {
                // The twin's rows whose key main lacks: those found missing or different, and for a child of another
                // table here, any its parent's delete cascaded away (looked up by key, on the child's few rows).
                let missing: String
                if table.parents.isDisjoint(with: twinned) {
                    try Self.fill(database, rows: added[table.name] ?? [])
                    missing = "n.rowid IN (SELECT rid FROM temp.diff_rows)"
                } else {
                    missing = "NOT EXISTS (SELECT 1 FROM main.\(table.name) o WHERE \(Self.same(table.key)))"
                }
                if logChanges {
                    try Self.log(table, database, parameters, keys: """
                        SELECT \(table.loggedKey("n")) FROM temp.\(table.name) n WHERE \(missing)
                        """)
                }
                try database.execute("""
                    INSERT INTO main.\(table.name) (\(names))
                    SELECT \(names) FROM temp.\(table.name) n WHERE \(missing)
                    ORDER BY rowid
                    """)
                changes[table.name, default: RowChanges()].inserted = database.changes
            }
        }
        return changes
    }

    /// Notes the keys `keys` selects (one JSON array each) as changed rows of `table` not yet published.
    private static func log(_ table: Table, _ database: Database, _ parameters: [String: SQLValue], keys: String) throws {
        try database.prepare("""
            INSERT OR IGNORE INTO main.unpublished_changes (unified_property_id, table_name, row_key)
            SELECT :property, '\(table.name)', changed.* FROM (\(keys)) AS changed
            """).execute(parameters)
    }

    /// The rows that differ between main's rows of the property (`gone`: main's row ids) and the twin (`new`: the
    /// twin's), a row being the same when every column is (`IS`): both sides read once, side by side in key order on
    /// their primary-key indexes. (Looking each row up on the other side, with a delete and an insert each testing
    /// every row, was most of the write of a property whose ledger is projected whole.) A table without a key is walked
    /// in the order of every compared column, then the row id, so identical rows pair off oldest first and only the
    /// surplus of either side differs (grouping both sides' whole history by every column, the multiset compare
    /// before, was the largest cost of writing a late night's activity; the walk sorts only within the days and types
    /// the table's date index leaves tied). Should the two orders ever disagree, rows are only written again, never
    /// lost: a row is kept only beside its identical twin.
    /// `columns`: those a row is compared by (all by default; `drift` leaves out the sync's stamp), keys included;
    /// `storedConditions`: main's rows walked, those meeting any one (each selecting rows apart from the others'):
    /// more left out (`Table.storedByTheRules`), or a `Scope`'s.
    private func differences(_ table: Table, _ database: Database, _ parameters: [String: SQLValue],
                             columns: [String]? = nil,
                             storedConditions: [String] = [""],
                             twinCondition: String = "") throws -> (gone: [Int64], new: [Int64]) {
        let compared = columns ?? table.columns
        let walked = table.key.isEmpty ? compared : table.key
        let queries = Self.walk(table, columns: compared, storedConditions: storedConditions, twinCondition: twinCondition)
        let stored = try database.prepare(queries.stored)
        let rebuilt = try database.prepare(queries.rebuilt)
        try stored.bind(parameters)
        defer { stored.reset(); rebuilt.reset() }
        let keyColumns = walked.map { 1 + compared.firstIndex(of: $0)! }
        let allColumns = Array(1...compared.count)
        func rowID(_ statement: Statement) -> Int64 { Int64(statement.int(at: 0) ?? 0) }
        var gone: [Int64] = [], new: [Int64] = []
        var onStored = try stored.step(), onRebuilt = try rebuilt.step()
        while onStored || onRebuilt {
            var order = onStored && onRebuilt ? 0 : onStored ? -1 : 1
            if onStored && onRebuilt {
                for column in keyColumns where order == 0 { order = stored.compare(column, with: rebuilt, column) }
            }
            if order == 0 {
                if !allColumns.allSatisfy({ stored.compare($0, with: rebuilt, $0) == 0 }) {
                    gone.append(rowID(stored))
                    new.append(rowID(rebuilt))
                }
                onStored = try stored.step()
                onRebuilt = try rebuilt.step()
            } else if order < 0 {
                gone.append(rowID(stored))
                onStored = try stored.step()
            } else {
                new.append(rowID(rebuilt))
                onRebuilt = try rebuilt.step()
            }
        }
        return (gone, new)
    }

    /// The two queries `differences` walks side by side: main's rows of the property and the twin's, each `rowid` and
    /// `columns`, in key order (a table without a key: the order of every column, then the row id). Main's indexes
    /// give that order (`unified_activity_by_date` holds every column of `unified_activity` for it), so neither side
    /// is sorted, nor main's rows read from its table.
    static func walk(_ table: Table, columns: [String], storedConditions: [String] = [""],
                     twinCondition: String = "") -> (stored: String, rebuilt: String) {
        let names = columns.joined(separator: ", ")
        let keyOrder = (table.key.isEmpty ? columns + ["rowid"] : table.key).joined(separator: ", ")
        let stored = storedConditions.map {
            "SELECT rowid, \(names) FROM main.\(table.name) WHERE unified_property_id = :property\($0)"
        }.joined(separator: "\nUNION ALL\n")
        return ("\(stored)\nORDER BY \(keyOrder)",
                "SELECT rowid, \(names) FROM temp.\(table.name)\(twinCondition) ORDER BY \(keyOrder)")
    }

    /// Main's rows to delete (`fill`'s list unless named).
    static let diffRows = ScratchTable(name: "diff_rows", shape: .definition("(rid INTEGER PRIMARY KEY)"))
    /// In `drift`, the rebuild's rows to describe.
    static let diffNewRows = ScratchTable(name: "diff_new_rows", shape: .definition("(rid INTEGER PRIMARY KEY)"))
    /// The row-id lists `fill` fills.
    static let rowLists = [diffRows, diffNewRows]

    /// The row-id list `table` (`temp.diff_rows` unless named: main's rows to delete, or in `drift` to describe) holds
    /// exactly `rows`.
    private static func fill(_ database: Database, rows: [Int64], into table: ScratchTable = diffRows) throws {
        try TempTables.empty(table, in: database)
        let insert = try database.prepare("INSERT INTO temp.\(table.name) (rid) VALUES (?)")
        for row in rows { try insert.execute([.integer(row)]) }
    }

    /// Replaces main's rows of `property` with the twins' whole (a full rebuild), after listing where they differ.
    func replace(_ database: Database, property: String) throws -> [String: RowChanges] {
        var changes: [String: RowChanges] = [:]
        for table in tables {
            try database.prepare("DELETE FROM main.\(table.name) WHERE unified_property_id = :property").execute([":property": .text(property)])
            changes[table.name, default: RowChanges()].deleted = database.changes
        }
        for table in tables.reversed() {
            let names = table.columns.joined(separator: ", ")
            try database.execute("INSERT INTO main.\(table.name) (\(names)) SELECT \(names) FROM temp.\(table.name) ORDER BY rowid")
            changes[table.name, default: RowChanges()].inserted = database.changes
        }
        return changes
    }

    /// Whether main holds as many rows of `property` as the twins in every table, which is all that can differ after
    /// `apply`: its delete leaves only main rows identical to a twin row, and its insert adds every twin row whose key
    /// main lacks, so equal counts mean equal tables (for a keyed table: each main row is the twin row of its key; for
    /// the multiset, each value kept as often as the twin has it). A count, not `drift`'s comparison of every column
    /// both ways, which cost a `sync --full` as much as its rules; `drift` names the rows when a count differs.
    func countsMatch(_ database: Database, property: String) throws -> Bool {
        let parameters: [String: SQLValue] = [":property": .text(property)]
        for table in tables {
            let counts = try database.query("""
                SELECT (SELECT count(*) FROM main.\(table.name) WHERE unified_property_id = :property\(table.storedByTheRules)),
                       (SELECT count(*) FROM temp.\(table.name))
                """, parameters).first ?? []
            guard counts.count == 2, counts[0] == counts[1] else { return false }
        }
        return true
    }

    /// Where main's rows of `property` differ from the twins': per table, up to `limit` keys, each naming the columns
    /// that differ with both values (a table without a key: how many rows differ).
    func drift(_ database: Database, property: String, limit: Int = 10) throws -> [Drift] {
        let parameters: [String: SQLValue] = [":property": .text(property)]
        var found: [Drift] = []
        for table in tables {
            if table.key.isEmpty {
                let (gone, new) = try differences(table, database, parameters, columns: table.comparedColumns)
                guard !gone.isEmpty || !new.isEmpty else { continue }
                let stored = try database.scalar("SELECT count(*) FROM main.\(table.name) WHERE unified_property_id = :property", parameters)?.integerValue ?? 0
                let rebuilt = try database.scalar("SELECT count(*) FROM temp.\(table.name)")?.integerValue ?? 0
                found.append(Drift(table: table.name, key: "(no key)",
                                   detail: "its rows differ: \(stored) stored, \(rebuilt) from a full rebuild"))
                continue
            }
            let own = table.storedByTheRules
            let others = table.comparedColumns.filter { !table.key.contains($0) }
            // Keys on either side without an identical row on the other (the walk, on the compared columns; two
            // `EXCEPT`s of every column were a third of a `sync --full`); each with both sides' values.
            let (gone, new) = try differences(table, database, parameters, columns: table.comparedColumns,
                                              storedConditions: [own])
            guard !gone.isEmpty || !new.isEmpty else { continue }
            try Self.fill(database, rows: gone)
            try Self.fill(database, rows: new, into: Self.diffNewRows)
            let key = table.key.joined(separator: ", ")
            let rows = try database.query("""
                WITH differing AS (
                    SELECT \(key) FROM main.\(table.name) WHERE rowid IN (SELECT rid FROM temp.diff_rows)
                    UNION
                    SELECT \(key) FROM temp.\(table.name) WHERE rowid IN (SELECT rid FROM temp.diff_new_rows)
                    ORDER BY \((1...table.key.count).map(String.init).joined(separator: ", "))
                    LIMIT \(limit)
                )
                SELECT \(table.key.map { "d.\($0)" }.joined(separator: ", ")),
                       o.rowid IS NOT NULL, n.rowid IS NOT NULL\(others.map { ", o.\($0), n.\($0)" }.joined())
                FROM differing d
                LEFT JOIN main.\(table.name) o ON \(table.key.map { "o.\($0) IS d.\($0)" }.joined(separator: " AND "))\(own.replacingOccurrences(of: "check_name", with: "o.check_name"))
                LEFT JOIN temp.\(table.name) n ON \(table.key.map { "n.\($0) IS d.\($0)" }.joined(separator: " AND "))
                """)
            for row in rows {
                let key = zip(table.key, row).filter { $0.0 != "unified_property_id" }.map { "\($0.0)=\(Self.text($0.1))" }.joined(separator: " ")
                let stored = row[table.key.count].integerValue == 1, rebuilt = row[table.key.count + 1].integerValue == 1
                let detail: String
                if !stored {
                    detail = "missing: a full rebuild has this row"
                } else if !rebuilt {
                    detail = "stored, but a full rebuild has no such row"
                } else {
                    detail = others.enumerated().compactMap { index, column in
                        let old = row[table.key.count + 2 + 2 * index], new = row[table.key.count + 3 + 2 * index]
                        return old == new ? nil : "\(column) \(Self.text(old)) stored, \(Self.text(new)) rebuilt"
                    }.joined(separator: "; ")
                }
                found.append(Drift(table: table.name, key: key, detail: detail))
            }
        }
        return found
    }

    /// `n.a IS o.a AND ...`: NULLs equal, as a row compares with itself.
    static func same(_ columns: [String]) -> String {
        columns.map { "n.\($0) IS o.\($0)" }.joined(separator: " AND ")
    }

    private static func text(_ value: SQLValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): "'\(text)'"
        case .blob(let bytes): "<\(bytes.count) bytes>"
        }
    }
}
