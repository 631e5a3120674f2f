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
}

/// Bounds a raw database: removes the snapshots of the whole-snapshot kinds (those stored once while unchanged:
/// unit, resident and lease lists, day reports) whose dates the policy no longer keeps, then gives the free pages
/// back to the file system with an incremental vacuum.
///
/// Kinds read across their earlier snapshots (ledgers, financial reports) are left whole: their older snapshots are
/// history the sync still reads. In each snapshot the policy does not keep, the Activity report and the Leasing
/// Activity Detail keep only the days no newer snapshot covers (`WindowedReport`), the Closed Make Ready Summary only
/// the turns no later snapshot lists (`ClosedTurns`), and Yardi's invoice register only the post months no later
/// request covered (`InvoiceMonths`). Unified metric rows (the trends) are never
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

    /// Removes (or with `dryRun` only counts) the snapshots `policy` no longer keeps from the raw database at
    /// `path` (realpage_raw.db or yardi_raw.db; `keyColumn` names its loaded_artifacts kind column), then vacuums.
    public static func prune(path: String, keyColumn: String, policy: RawSnapshotPolicy, dryRun: Bool) throws -> RawPruneResult {
        let bytesBefore = fileBytes(path)
        let database = try Database(path: path)
        var removed = 0, rows = 0
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
                    if dryRun {
                        for table in tables {
                            rows += Int(try database.scalar("SELECT count(*) FROM \(table) WHERE property_id = :property AND as_of_date = :as_of",
                                                            values)?.integerValue ?? 0)
                        }
                        continue
                    }
                    try UnchangedSnapshots.releaseDependents(database, keyColumn: keyColumn, key: key, property: property,
                                                             asOf: date, tables: tables, totals: hasTotals && keyColumn == "report_type")
                    for table in tables {
                        try database.prepare("DELETE FROM \(table) WHERE property_id = :property AND as_of_date = :as_of").execute(values)
                        rows += database.changes
                    }
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
            if keyColumn == "report_type" {
                for window in WindowedReport.all where try database.tableExists(window.table) {
                    rows += try window.dropCovered(database, policy: policy, dryRun: dryRun)
                }
                if try database.tableExists(ClosedTurns.table) {
                    rows += try ClosedTurns.dropSuperseded(database, policy: policy, dryRun: dryRun)
                }
            } else if try database.tableExists(InvoiceMonths.table) {
                rows += try InvoiceMonths.dropSuperseded(database, policy: policy, dryRun: dryRun)
            }
            if try !dryRun && rows > 0 && database.tableExists("raw_lineage") {
                _ = try RawLineage.removeUnreferenced(database)
            }
        }
        var converted = false
        if !dryRun {
            converted = try vacuum(database)
        }
        return RawPruneResult(path: path, snapshots: removed, rows: rows, bytesBefore: bytesBefore,
                              bytesAfter: dryRun ? bytesBefore : fileBytes(path), convertedToIncremental: converted)
    }

    /// A report read across its snapshots by window (the Activity report's 30 days, the Leasing Activity Detail's
    /// range): the sync reads each day from the newest snapshot that covers it (RealPageActivity.activityRows), so an
    /// older snapshot's rows from the first day of a newer one on are never read. Prune drops those rows from the
    /// snapshots the policy no longer keeps whole; each keeps the days only it holds, and every answer stays the
    /// same (the days a snapshot covers, and the first day each one starts, do not change).
    struct WindowedReport {
        var report: String
        var table: String
        var dateColumn: String

        static let all = [
            WindowedReport(report: "activity", table: "realpage_activity", dateColumn: "activity_date"),
            WindowedReport(report: "leasing_activity_detail", table: "realpage_leasing_activity_detail", dateColumn: "contact_date"),
        ]

        /// Drops (or with `dryRun` counts) the rows no sync reads from the snapshots `policy` does not keep.
        func dropCovered(_ database: Database, policy: RawSnapshotPolicy, dryRun: Bool) throws -> Int {
            var dropped = 0
            let snapshots = try database.query("""
                SELECT property_id, as_of_date, min(\(dateColumn)) FROM \(table)
                GROUP BY property_id, as_of_date ORDER BY property_id, as_of_date
                """)
            let byProperty = Dictionary(grouping: snapshots) { $0[0].textValue ?? "" }
            for (property, rows) in byProperty.sorted(by: { $0.key < $1.key }) {
                let dated = rows.compactMap { row -> (LocalDate, String)? in
                    guard let date = row[1].textValue.flatMap(LocalDate.init(iso:)), let first = row[2].textValue else { return nil }
                    return (date, first)
                }
                let kept = policy.kept(dated.map(\.0))
                for (index, (date, _)) in dated.enumerated() where !kept.contains(date) {
                    guard let newerFrom = dated[(index + 1)...].map(\.1).min() else { continue }
                    let values: [String: SQLValue] = [":property": .text(property), ":as_of": .text(date.iso),
                                                      ":from": .text(newerFrom)]
                    let covered = "property_id = :property AND as_of_date = :as_of AND \(dateColumn) >= :from"
                    if dryRun {
                        dropped += Int(try database.scalar("SELECT count(*) FROM \(table) WHERE \(covered)", values)?.integerValue ?? 0)
                    } else {
                        try database.prepare("DELETE FROM \(table) WHERE \(covered)").execute(values)
                        dropped += database.changes
                    }
                }
            }
            return dropped
        }
    }

    /// The Closed Make Ready Summary: each turn (unit, vacate date) is read from the latest snapshot listing it
    /// completed (RealPageMaintenance.closedTurns), so in a snapshot the policy no longer keeps, a completed turn a
    /// later snapshot lists again, and its work-order lines, are never read. Prune drops them; every answer stays.
    enum ClosedTurns {
        static let table = "realpage_closed_make_ready"
        static let lines = "realpage_closed_make_ready_work_orders"

        /// Drops (or with `dryRun` counts) the superseded turns and their lines from the snapshots `policy` does not keep.
        static func dropSuperseded(_ database: Database, policy: RawSnapshotPolicy, dryRun: Bool) throws -> Int {
            let superseded = """
                SELECT c.source_row FROM \(table) c
                WHERE c.property_id = :property AND c.as_of_date = :as_of AND c.completed_date IS NOT NULL
                  AND EXISTS (SELECT 1 FROM \(table) n
                              WHERE n.property_id = c.property_id AND n.as_of_date > c.as_of_date
                                AND n.completed_date IS NOT NULL AND n.unit_number = c.unit_number
                                AND coalesce(n.move_out_date, 'open') = coalesce(c.move_out_date, 'open'))
                """
            var dropped = 0
            let dates = try database.query("SELECT DISTINCT property_id, as_of_date FROM \(table) ORDER BY 1, 2")
            let byProperty = Dictionary(grouping: dates) { $0[0].textValue ?? "" }
            let hasLines = try database.tableExists(lines)
            for (property, rows) in byProperty.sorted(by: { $0.key < $1.key }) {
                let snapshots = rows.compactMap { $0[1].textValue.flatMap(LocalDate.init(iso:)) }
                let kept = policy.kept(snapshots)
                for date in snapshots where !kept.contains(date) {
                    let values: [String: SQLValue] = [":property": .text(property), ":as_of": .text(date.iso)]
                    if dryRun {
                        dropped += Int(try database.scalar("SELECT count(*) FROM (\(superseded))", values)?.integerValue ?? 0)
                        continue
                    }
                    if hasLines {
                        try database.prepare("""
                            DELETE FROM \(lines) WHERE property_id = :property AND as_of_date = :as_of
                              AND unit_row IN (\(superseded))
                            """).execute(values)
                        dropped += database.changes
                    }
                    try database.prepare("""
                        DELETE FROM \(table) WHERE property_id = :property AND as_of_date = :as_of
                          AND source_row IN (\(superseded))
                        """).execute(values)
                    dropped += database.changes
                }
            }
            return dropped
        }
    }

    /// Yardi's invoice register: each post month is read from the latest snapshot whose request covered it (the
    /// `YardiOperation.invoiceMonths` months ending with its own; YardiExpenses), so in a snapshot the policy no longer
    /// keeps, the lines of a month a later request covered are never read. Prune drops them; every answer stays.
    enum InvoiceMonths {
        static let table = "yardi_invoice_lines"

        /// Drops (or with `dryRun` counts) the superseded months' lines from the snapshots `policy` does not keep.
        static func dropSuperseded(_ database: Database, policy: RawSnapshotPolicy, dryRun: Bool) throws -> Int {
            let superseded = """
                property_id = :property AND as_of_date = :as_of AND EXISTS (
                    SELECT 1 FROM loaded_artifacts n
                    WHERE n.operation = 'GetInvoiceRegister' AND n.property_id = :property AND n.as_of_date > :as_of
                      AND \(table).post_month BETWEEN strftime('%Y-%m', n.as_of_date, 'start of month', :back)
                                                   AND substr(n.as_of_date, 1, 7))
                """
            var dropped = 0
            let dates = try database.query("SELECT DISTINCT property_id, as_of_date FROM \(table) ORDER BY 1, 2")
            for (property, rows) in Dictionary(grouping: dates, by: { $0[0].textValue ?? "" }).sorted(by: { $0.key < $1.key }) {
                let snapshots = rows.compactMap { $0[1].textValue.flatMap(LocalDate.init(iso:)) }
                let kept = policy.kept(snapshots)
                for date in snapshots where !kept.contains(date) {
                    let values: [String: SQLValue] = [":property": .text(property), ":as_of": .text(date.iso),
                                                      ":back": .text("-\(YardiOperation.invoiceMonths - 1) months")]
                    if dryRun {
                        dropped += Int(try database.scalar("SELECT count(*) FROM \(table) WHERE \(superseded)", values)?.integerValue ?? 0)
                    } else {
                        try database.prepare("DELETE FROM \(table) WHERE \(superseded)").execute(values)
                        dropped += database.changes
                    }
                }
            }
            return dropped
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
            total + (((try? FileManager.default.attributesOfItem(atPath: file)[.size]) as? NSNumber)?.int64Value ?? 0)
        }
    }
}
