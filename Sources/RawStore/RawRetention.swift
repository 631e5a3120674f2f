import Foundation
import OwnerDashCore
import Parse
import SOAP
import SQLiteKit

/// Which as-of dates of a raw snapshot `ownerdash prune` keeps: the same policy as for landed runs, counted in
/// the snapshot's own dates (the property dates), not the wall clock.
public struct RawSnapshotPolicy: Sendable, Equatable {
    /// Every snapshot dated within this many days of the newest snapshot of its kind and property.
    public var keepDays: Int
    /// The last snapshot of each of this many calendar months, the newest snapshot's month included.
    public var keepMonthly: Int

    public init(keepDays: Int, keepMonthly: Int) {
        self.keepDays = keepDays; self.keepMonthly = keepMonthly
    }

    /// The dates kept among `dates` (one kind and property): the newest always, the last `keepDays` days before
    /// it, the last date of each of the last `keepMonthly` months.
    public func kept(_ dates: [LocalDate]) -> Set<LocalDate> {
        guard let newest = dates.max() else { return [] }
        var kept: Set<LocalDate> = [newest]
        let cutoff = newest.adding(days: -keepDays)
        for date in dates where date > cutoff { kept.insert(date) }
        let newestMonth = newest.year * 12 + newest.month - 1
        var lastOfMonth: [Int: LocalDate] = [:]
        for date in dates {
            let month = date.year * 12 + date.month - 1
            guard newestMonth - month < keepMonthly else { continue }
            if let last = lastOfMonth[month], last >= date { continue }
            lastOfMonth[month] = date
        }
        kept.formUnion(lastOfMonth.values)
        return kept
    }
}

/// What raw-database retention removed and gave back to the file system.
public struct RawPruneResult: Sendable, Equatable {
    public var path: String
    /// Snapshots (report or operation, property, date) removed.
    public var snapshots: Int
    /// Raw rows removed with them.
    public var rows: Int
    public var bytesBefore: Int64
    public var bytesAfter: Int64
    /// The database was switched to incremental auto-vacuum by a one-time VACUUM (it was created before that).
    public var convertedToIncremental: Bool
    /// Lineage rows no raw row names any more, removed by the week's sweep (`RawRetention.sweepsLineage`); nil on the
    /// other nights' prunes, which leave them.
    public var lineageRemoved: Int? = nil
}

/// Bounds a raw database: removes the snapshots of the whole-snapshot kinds (those stored once while unchanged:
/// unit, resident and lease lists, day reports) whose dates the policy no longer keeps, then gives the free pages
/// back to the file system with an incremental vacuum.
///
/// Kinds read across their earlier snapshots (ledgers, financial reports) are left whole: their older snapshots are
/// history the sync still reads. In each snapshot the policy does not keep, the Activity report and the Leasing
/// Activity Detail keep only the days no newer snapshot covers, the Closed Make Ready Summary only the turns no later
/// snapshot lists, the Income Statement only the months no later snapshot prints, Yardi's invoice register only the
/// post months no later request covered, and Yardi's lease charges past the fetch's window only the charges no later
/// such month lists (`SupersededRows`). Unified metric rows (the trends) are never
/// touched. A removed snapshot that later kept ones were recorded unchanged against hands its rows to them first.
public enum RawRetention {
    /// Incremental auto-vacuum must be chosen before a database's first table exists: a new raw database gets it
    /// at creation (`prepareNew`); one created before is converted once by `prune` with a full VACUUM.
    static func prepareNew(_ database: Database) throws {
        if try database.userVersion() == 0, try database.scalar("SELECT count(*) FROM sqlite_master")?.integerValue == 0 {
            // Opening in WAL mode already wrote the file's first page, so the mode takes effect with a VACUUM, instant
            // on an empty database.
            try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
            try database.execute("VACUUM")
        }
    }

    /// Whether a prune at `now` (the run clock) also sweeps the lineage rows no raw row names any more
    /// (`RawLineage.removeUnreferenced`): once a week, on Sundays (UTC). The sweep reads every raw table whole, so it
    /// costs what the raw data kept weighs, not what the prune removed: half of a nightly prune's CPU after 80 nights of
    /// the 30 demo properties (0.23 of 0.47 s), growing through the year. A lineage row left for a week is a few dozen
    /// bytes that no answer or view reads (each `v_<table>` starts from its rows).
    public static func sweepsLineage(at now: Date) -> Bool {
        // 1970-01-01 was a Thursday: day 3 of each week counted from it is a Sunday.
        let day = Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
        return ((day % 7) + 7) % 7 == 3
    }

    /// Removes (or with `dryRun` only counts) the snapshots `policy` no longer keeps from the raw database at
    /// `path` (realpage_raw.db or yardi_raw.db; `keyColumn` names its loaded_artifacts kind column), then vacuums.
    /// `sweepLineage`: also remove the lineage rows no raw row names any more, whichever prune or load left them so
    /// (`sweepsLineage` says when the nightly prune does).
    public static func prune(path: String, keyColumn: String, policy: RawSnapshotPolicy, dryRun: Bool,
                             sweepLineage: Bool = true) throws -> RawPruneResult {
        let bytesBefore = fileBytes(path)
        let database = try Database(path: path)
        var removed = 0, rows = 0
        var lineageRemoved: Int?
        let snapshots = try database.query("""
            SELECT \(keyColumn), property_id, as_of_date FROM loaded_artifacts ORDER BY 1, 2, 3
            """)
        var byKind: [String: [LocalDate]] = [:]
        for row in snapshots {
            guard let key = row[0].textValue, let property = row[1].textValue, UnchangedSnapshots.storesOnce(key),
                  let date = row[2].textValue.flatMap(LocalDate.init(iso:)) else { continue }
            byKind["\(key)\u{1}\(property)", default: []].append(date)
        }
        let hasTotals = try database.tableExists("loaded_report_totals")
        try database.withTransaction {
            for (kind, dates) in byKind.sorted(by: { $0.key < $1.key }) {
                let parts = kind.split(separator: "\u{1}", omittingEmptySubsequences: false).map(String.init)
                let (key, property) = (parts[0], parts[1])
                let kept = policy.kept(dates)
                let tables = try Self.tables(of: key, in: database)
                guard !tables.isEmpty else { continue }
                for date in dates.sorted() where !kept.contains(date) {
                    removed += 1
                    let values: [String: SQLValue] = [":property": .text(property), ":as_of": .text(date.iso)]
                    if !dryRun {
                        try UnchangedSnapshots.releaseDependents(database, keyColumn: keyColumn, key: key, property: property,
                                                                 asOf: date, tables: tables, totals: hasTotals && keyColumn == "report_type")
                    }
                    for table in tables {
                        rows += try database.deleteRows(from: table, where: "property_id = :property AND as_of_date = :as_of",
                                                        values, dryRun: dryRun)
                    }
                    guard !dryRun else { continue }
                    if hasTotals && keyColumn == "report_type" {
                        try database.prepare("""
                            DELETE FROM loaded_report_totals WHERE report_type = :key AND property_id = :property AND as_of_date = :as_of
                            """).execute(values.merging([":key": .text(key)]) { $1 })
                    }
                    try database.prepare("""
                        DELETE FROM loaded_artifacts WHERE \(keyColumn) = :key AND property_id = :property AND as_of_date = :as_of
                        """).execute(values.merging([":key": .text(key)]) { $1 })
                }
            }
            for rule in keyColumn == "report_type" ? SupersededRows.realpage : SupersededRows.yardi {
                rows += try rule.drop(database, policy: policy, dryRun: dryRun)
            }
            if try !dryRun && sweepLineage && database.tableExists("raw_lineage") {
                lineageRemoved = try RawLineage.removeUnreferenced(database)
            }
        }
        var converted = false
        if !dryRun {
            converted = try vacuum(database)
        }
        return RawPruneResult(path: path, snapshots: removed, rows: rows, bytesBefore: bytesBefore,
                              bytesAfter: dryRun ? bytesBefore : fileBytes(path), convertedToIncremental: converted,
                              lineageRemoved: lineageRemoved)
    }

    /// Rows no sync reads any more, in a snapshot the policy no longer keeps whole, of the kinds read across their
    /// snapshots: a newer snapshot supersedes them, each rule says how. Prune drops them; every answer stays.
    struct SupersededRows {
        /// The raw table.
        var table: String
        /// Which rows are superseded, one of:
        enum Rule {
            /// A snapshot's (`:property` and `:as_of` name it), a condition on `table` unaliased, asked of each
            /// snapshot the policy does not keep.
            case ofSnapshot(String)
            /// Every snapshot's of `:property` at once: a query of their `as_of_date, source_row`, for a rule that
            /// compares each row with every later snapshot's (asked snapshot by snapshot, a pass a night over every
            /// snapshot the policy ever let go, a count that grows by one a night).
            case acrossSnapshots(String)
        }
        var superseded: Rule
        /// A child table whose rows go with their parent row: its name and the column holding the parent's source_row.
        var lines: (table: String, parentRow: String)? = nil
        /// The report whose printed totals (loaded_report_totals) go with a snapshot the policy does not keep: the
        /// checks read a report's totals at the snapshot the sync reads whole, the newest, never at older ones.
        var printedTotals: String? = nil
        /// For a report read by the newest snapshot covering each day (`window`): its date column. `superseded` then
        /// takes `:from`, the first day a later snapshot holds, which `drop` works out for every snapshot at once.
        var dateColumn: String? = nil
        /// The report whose printed totals go with a snapshot once none of its rows is left: no month is read from it
        /// any more, so no check reads its totals (`statementMonths`).
        var printedTotalsOfEmptied: String? = nil

        /// The Activity report and the Leasing Activity Detail: the sync reads each day from the newest snapshot
        /// covering it (RealPageActivity.activityRows), so an older snapshot's rows from the first day of a newer one
        /// on are never read. Each snapshot keeps the days only it holds; the day a snapshot starts does not change.
        ///
        /// The first day a later snapshot holds is worked out from one grouping of the table (each snapshot's first and
        /// last day), and only a snapshot holding days from it on is visited: asked of each snapshot by a subquery over
        /// every later one, it was a pass over the property's kept rows per snapshot, every night, for a count of
        /// snapshots that grows by one a night.
        static func window(_ table: String, dateColumn: String, report: ReportType) -> SupersededRows {
            SupersededRows(table: table, superseded: .ofSnapshot("""
                property_id = :property AND as_of_date = :as_of AND \(dateColumn) >= :from
                """), printedTotals: report.rawValue, dateColumn: dateColumn)
        }

        /// The Closed Make Ready Summary: each turn (unit and `MakeReadyTurn.key`) is read from the latest snapshot
        /// listing it completed (RealPageMaintenance.closedTurns), so a completed turn a later snapshot lists again,
        /// and its work-order lines, are never read. Found for every snapshot in one pass over the property's turns
        /// (each completed turn's latest listing, by a window): asked of each snapshot the policy no longer keeps, by a
        /// lookup of every row's later listings, it was two thirds of a nightly prune after two years of nights
        /// (0.9 of 1.3 s), and grew by a snapshot a night.
        static let closedTurns = SupersededRows(table: "realpage_closed_make_ready", superseded: .acrossSnapshots("""
            SELECT as_of_date, source_row FROM (
                SELECT c.as_of_date, c.source_row,
                       max(c.as_of_date) OVER (PARTITION BY c.unit_number, \(MakeReadyTurn.key("c"))) AS latest
                FROM realpage_closed_make_ready c
                WHERE c.property_id = :property AND c.completed_date IS NOT NULL AND c.unit_number IS NOT NULL)
            WHERE as_of_date < latest
            """), lines: ("realpage_closed_make_ready_work_orders", "unit_row"), printedTotals: ReportType.closedMakeReady.rawValue)

        /// Yardi's invoice register: each post month is read from the latest answer whose request covered it (the
        /// `YardiOperation.invoiceMonths` months ending with its own; YardiExpenses), so the lines of a month a later
        /// request covered are never read.
        static let invoiceMonths = SupersededRows(table: "yardi_invoice_lines", superseded: .ofSnapshot("""
            property_id = :property AND as_of_date = :as_of AND EXISTS (
                SELECT 1 FROM loaded_artifacts n
                WHERE n.operation = 'GetInvoiceRegister' AND n.property_id = :property AND n.as_of_date > :as_of
                  AND yardi_invoice_lines.post_month
                      BETWEEN strftime('%Y-%m', n.as_of_date, 'start of month', '-\(YardiOperation.invoiceMonths - 1) months')
                          AND substr(n.as_of_date, 1, 7))
            """))

        /// The Income Statement: each month is read from its latest snapshot with amounts (RealPageExpenses.lines,
        /// the month its fiscal period, else its snapshot's), so a month a later snapshot prints again is never read
        /// from an earlier one. Fetched every night for the current month, it kept a snapshot a night for ever (356
        /// of them after a year, each read by every night's sync). Printed totals stay while a row of the snapshot
        /// does: the check reads a month's at the snapshot it was read from, which may be one the policy no longer
        /// keeps whole. A snapshot left without rows is read for no month, and its totals go too: they stayed for
        /// every night's statement (after 300 nights of the 30 demo properties 411,000 rows, 129 MB of a 1 GB raw
        /// database, 1,300 rows more a night, none of them read). Found for every snapshot in one pass over the
        /// property's statement rows (each month's latest snapshot with amounts, by a window): asked of each snapshot
        /// by a lookup of every row's month in every later snapshot, it was a third of a nightly prune after two
        /// years of nights, and grew by a snapshot a night.
        static let statementMonths = SupersededRows(table: "realpage_income_statement", superseded: .acrossSnapshots("""
            SELECT as_of_date, source_row FROM (
                SELECT as_of_date, source_row,
                       max(CASE WHEN period_amount IS NOT NULL THEN as_of_date END)
                           OVER (PARTITION BY coalesce(fiscal_period, substr(as_of_date, 1, 7))) AS latest
                FROM realpage_income_statement
                WHERE property_id = :property)
            WHERE as_of_date < latest
            """), printedTotalsOfEmptied: ReportType.incomeStatement.rawValue)

        /// Yardi's lease charges: each charge (lease, charge code, service start) is read from the latest post month
        /// whose statement lists it (YardiLedger.insertRecurring), so its rows in an earlier month are never read. Only
        /// months the fetch no longer asks for (older than its `YardiOperation.leaseChargeMonths` window from the
        /// newest) lose rows, and only to a later such month: a month inside the window is fetched again on a full
        /// pull, and if it then no longer listed the charge, the earlier month's row would be read again. The
        /// statements kept a month a month for ever (36 months read by every sync after a year, 24 fetched).
        /// A charge without a LeaseID is matched by its tenant (the rule looks its lease up by tenant).
        ///
        /// The later months' charges are listed once per snapshot (an `IN` list SQLite builds into an index) by a
        /// range of dates on the snapshot index, the charge's identity one value each: the same rule as an `EXISTS`
        /// per row whose months were compared by `substr` and whose lease or tenant was matched by an `OR`, which read
        /// every statement of the property for every row of an old month: 32 s of a 40 s nightly prune after 64
        /// nights of the year benchmark, 17 s of it one month of one property, growing every month (0.1 s now, the
        /// same rows found). `char(1)` stands for a missing charge code (matched with `IS`) and marks a tenant
        /// code standing in for a missing lease id: no PMS id holds it.
        static let leaseChargeMonths = SupersededRows(table: "yardi_lease_charges", superseded: .ofSnapshot("""
            property_id = :property AND as_of_date = :as_of AND service_from_date IS NOT NULL
              AND :as_of < \(frozenDay)
              AND (coalesce(charge_code, char(1)), service_from_date, coalesce(lease_id, char(1) || tenant_code)) IN (
                SELECT coalesce(n.charge_code, char(1)), n.service_from_date, coalesce(n.lease_id, char(1) || n.tenant_code)
                FROM yardi_lease_charges n
                WHERE n.property_id = :property
                  AND n.as_of_date >= date(:as_of, 'start of month', '+1 month') AND n.as_of_date < \(frozenDay))
            """))
        /// The first day of the first post month the lease-charge fetch still asks for, from the property's newest
        /// statement: a snapshot dated before it is of a month no fetch asks for again.
        private static let frozenDay = """
            (SELECT date(max(f.as_of_date), 'start of month', '-\(YardiOperation.leaseChargeMonths - 1) months')
             FROM yardi_lease_charges f WHERE f.property_id = :property)
            """

        static let realpage = [window("realpage_activity", dateColumn: "activity_date", report: .activity),
                               window("realpage_leasing_activity_detail", dateColumn: "contact_date",
                                      report: .leasingActivityDetail), closedTurns, statementMonths]
        static let yardi = [invoiceMonths, leaseChargeMonths]

        /// Drops (or with `dryRun` counts) the superseded rows, and their lines, of every snapshot `policy` does not
        /// keep; returns how many.
        func drop(_ database: Database, policy: RawSnapshotPolicy, dryRun: Bool) throws -> Int {
            guard try database.tableExists(table) else { return 0 }
            let lines = try lines.flatMap { try database.tableExists($0.table) ? $0 : nil }
            let hasTotals = try database.tableExists("loaded_report_totals")
            let printedTotals = hasTotals ? self.printedTotals : nil
            let printedTotalsOfEmptied = hasTotals ? self.printedTotalsOfEmptied : nil
            var dropped = 0
            let dates = try database.query(dateColumn.map { """
                SELECT property_id, as_of_date, min(\($0)), max(\($0)) FROM \(table) GROUP BY property_id, as_of_date ORDER BY 1, 2
                """ } ?? "SELECT DISTINCT property_id, as_of_date FROM \(table) ORDER BY 1, 2")
            for (property, rows) in Dictionary(grouping: dates, by: { $0[0].textValue ?? "" }).sorted(by: { $0.key < $1.key }) {
                let snapshots = rows.compactMap { $0[1].textValue.flatMap(LocalDate.init(iso:)) }
                let kept = policy.kept(snapshots)
                // A window report's snapshots (oldest first): the first day any later one holds, and whether its own
                // days reach it (min and max ignore a row without a date, as the comparison does).
                var from: [String: String] = [:]
                if dateColumn != nil {
                    var later: String?
                    for row in rows.reversed() {
                        if let date = row[1].textValue, let first = later, let last = row[3].textValue, last >= first {
                            from[date] = first
                        }
                        if let start = row[2].textValue { later = later.map { min($0, start) } ?? start }
                    }
                }
                let released = snapshots.filter { !kept.contains($0) }
                if case .acrossSnapshots(let rows) = superseded, !released.isEmpty {
                    dropped += try dropRows(database, across: rows, property: property, snapshots: released, lines: lines,
                                            dryRun: dryRun)
                }
                // The snapshots whose printed totals are still there: a snapshot's go the first night the policy lets
                // it go, and asking again for each such snapshot every night was half of a prune after two years.
                let totalled = try printedTotals.map { report in
                    Set(try database.query("""
                        SELECT DISTINCT as_of_date FROM loaded_report_totals
                        WHERE report_type = :report AND property_id = :property
                        """, [":report": .text(report), ":property": .text(property)]).compactMap { $0[0].textValue })
                } ?? []
                for date in released {
                    let values: [String: SQLValue] = [":property": .text(property), ":as_of": .text(date.iso)]
                    // A window report's snapshot whose days no later one reaches has nothing superseded.
                    let bound = dateColumn == nil ? [:] : from[date.iso].map { [":from": SQLValue.text($0)] }
                    if case .ofSnapshot(let condition) = superseded, let bound {
                        dropped += try dropRows(database, condition, values.merging(bound) { $1 }, lines: lines,
                                                dryRun: dryRun)
                    }
                    if let printedTotals, totalled.contains(date.iso) {
                        dropped += try database.deleteRows(from: "loaded_report_totals", where: """
                            report_type = :report AND property_id = :property AND as_of_date = :as_of
                            """, values.merging([":report": .text(printedTotals)]) { $1 }, dryRun: dryRun)
                    }
                }
            }
            // Once the superseded rows are gone: the totals of every snapshot without a row left, those this prune
            // emptied and those earlier prunes did (a dry run, which deleted nothing, counts the latter only).
            if let printedTotalsOfEmptied {
                dropped += try database.deleteRows(from: "loaded_report_totals", where: """
                    report_type = :report AND NOT EXISTS (
                        SELECT 1 FROM \(table) t
                        WHERE t.property_id = loaded_report_totals.property_id AND t.as_of_date = loaded_report_totals.as_of_date)
                    """, [":report": .text(printedTotalsOfEmptied)], dryRun: dryRun)
            }
            return dropped
        }

        /// Drops (or counts) the superseded rows, and their lines, of the property's `snapshots` that `rows` lists
        /// (`Rule.acrossSnapshots`).
        private func dropRows(_ database: Database, across rows: String, property: String, snapshots: [LocalDate],
                              lines: (table: String, parentRow: String)?, dryRun: Bool) throws -> Int {
            let dates = "[" + snapshots.map { "\"\($0.iso)\"" }.joined(separator: ",") + "]"
            let values: [String: SQLValue] = [":property": .text(property)]
            try list(database, """
                SELECT as_of_date, source_row FROM (\(rows)) WHERE as_of_date IN (SELECT value FROM json_each(:released))
                """, values.merging([":released": .text(dates)]) { $1 })
            return try dropListed(database, values, lines: lines, dryRun: dryRun)
        }

        /// Drops (or counts) one snapshot's superseded rows (`condition`, `Rule.ofSnapshot`) and their lines; `values`
        /// name the snapshot (and `:from`).
        private func dropRows(_ database: Database, _ superseded: String, _ values: [String: SQLValue],
                              lines: (table: String, parentRow: String)?, dryRun: Bool) throws -> Int {
            guard lines != nil else { return try database.deleteRows(from: table, where: superseded, values, dryRun: dryRun) }
            // The superseded rows are found once, before their lines go: the condition may read the lines.
            try list(database, "SELECT as_of_date, source_row FROM \(table) WHERE \(superseded)", values)
            return try dropListed(database, values.filter { $0.key == ":property" }, lines: lines, dryRun: dryRun)
        }

        /// Makes `temp.superseded_row` hold the rows `query` selects (`as_of_date, source_row` of `table`).
        private func list(_ database: Database, _ query: String, _ values: [String: SQLValue]) throws {
            try database.execute("""
                CREATE TEMP TABLE IF NOT EXISTS superseded_row (
                    as_of_date TEXT, source_row INTEGER, PRIMARY KEY (as_of_date, source_row))
                """)
            try database.execute("DELETE FROM temp.superseded_row")
            try database.prepare("INSERT INTO temp.superseded_row \(query)").execute(values)
        }

        /// Drops (or counts) the rows `list` listed, of the property `property` names, and their lines.
        private func dropListed(_ database: Database, _ property: [String: SQLValue],
                                lines: (table: String, parentRow: String)?, dryRun: Bool) throws -> Int {
            let lineCount = try lines.map { lines in
                try database.deleteRows(from: lines.table, where: """
                    property_id = :property
                      AND (as_of_date, \(lines.parentRow)) IN (SELECT as_of_date, source_row FROM temp.superseded_row)
                    """, property, dryRun: dryRun)
            } ?? 0
            return try lineCount + database.deleteRows(from: table, where: """
                property_id = :property
                  AND (as_of_date, source_row) IN (SELECT as_of_date, source_row FROM temp.superseded_row)
                """, property, dryRun: dryRun)
        }
    }

    /// Gives the database's free pages back: `incremental_vacuum` when it is in incremental mode, else (a database
    /// created before raw retention) switches it to incremental mode with one full VACUUM. The WAL is checkpointed
    /// and truncated so the file sizes show it. Returns whether it converted.
    static func vacuum(_ database: Database) throws -> Bool {
        let mode = try database.scalar("PRAGMA auto_vacuum")?.integerValue ?? 0
        var converted = false
        if mode != 2 {
            try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
            try database.execute("VACUUM")
            converted = true
        } else {
            // incremental_vacuum returns no rows but must be stepped to the end to free every page.
            _ = try database.query("PRAGMA incremental_vacuum")
        }
        _ = try database.query("PRAGMA wal_checkpoint(TRUNCATE)")
        return converted
    }

    /// The raw tables of a kind: an RPX or Yardi operation's table, or a report's table and child tables.
    private static func tables(of key: String, in database: Database) throws -> [String] {
        if let operation = RPXOperation(rawValue: key) { return [RPXArtifactLoader.table(of: operation)] }
        if let operation = YardiOperation.allCases.first(where: { $0.name == key }) { return [YardiRawStore.table(of: operation)] }
        if let report = ReportType(rawValue: key) { return [report.rawTable] + report.childTables }
        return []
    }

    /// The database file plus its WAL.
    static func fileBytes(_ path: String) -> Int64 {
        [path, path + "-wal"].reduce(Int64(0)) { total, file in
            total + Int64(FileStatus.size(atPath: file) ?? 0)
        }
    }
}
