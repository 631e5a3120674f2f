import Foundation
import OwnerDashCore
import SQLiteKit

/// The read-only questions an owner asks of unified.db, one function per metric family.
///
/// Every function takes an open, read-only `Database` (`UnifiedStore.openForReading`) and the registry keys of the
/// properties to answer for; it returns typed rows, one per property (or per property and date / month / floorplan),
/// in the order of `properties`. A property with no data for the question has no row (the caller decides whether
/// that is an error: see `Metrics.snapshotDates`).
///
/// As-of rule, the same for every metric: a property's snapshot is its latest `unified_occupancy_metrics` date on
/// or before `asOf` (nil `asOf`: its latest snapshot); its pricing and delinquency are read at that same date.
/// Windows over the current-state tables (funnel, activity) end at `asOf` when given, else at that snapshot date.
///
/// Roll-ups (`rollUp` on each row type) sum the counts and the cents and recompute every percentage and average
/// from the sums (weighted by units, occupied units, leads, ...), never averaging percentages.
public enum Metrics {
    /// Every property in unified.db (synced at least once), by registry key.
    public static func properties(database: Database) throws -> [SyncedProperty] {
        let sql = """
            SELECT unified_property_id, name, pms_source, total_units, as_of_date
            FROM unified_properties
            ORDER BY unified_property_id
            """
        return try database.rows(sql) { row in
            SyncedProperty(key: row.text("unified_property_id") ?? "", name: row.text("name") ?? "",
                           pms: row.text("pms_source") ?? "", totalUnits: row.int("total_units"),
                           lastSyncedAsOf: row.date("as_of_date"))
        }
    }

    /// The properties to answer for: `keys` in the order given (duplicates dropped), or every synced property
    /// (optionally only those on `pms`) when `keys` is empty.
    ///
    /// Throws `MetricsError.unknownProperty` for a key unified.db does not hold, and `.nothingSynced` when the
    /// selection is empty.
    public static func resolve(database: Database, keys: [String], pms: String? = nil) throws -> [SyncedProperty] {
        let synced = try properties(database: database)
        let byKey = Dictionary(synced.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var selected: [SyncedProperty] = []
        if keys.isEmpty {
            selected = synced.filter { pms == nil || $0.pms == pms }
        } else {
            var seen = Set<String>()
            for key in keys where seen.insert(key).inserted {
                guard let property = byKey[key] else { throw MetricsError.unknownProperty(key, synced: synced.map(\.key)) }
                if let pms, property.pms != pms { throw MetricsError.wrongPMS(key, pms: property.pms) }
                selected.append(property)
            }
        }
        guard !selected.isEmpty else { throw MetricsError.nothingSynced(pms: pms) }
        return selected
    }

    /// Per property, the snapshot date the as-of rule picks (latest on or before `asOf`; nil `asOf`: latest);
    /// properties without one are absent from the answer.
    /// `delinquency`: the nights delinquency was synced (a property without units but with a ledger has them).
    public static func snapshotDates(database: Database, properties: [String], asOf: LocalDate?,
                                     delinquency: Bool = false) throws -> [String: LocalDate] {
        let sql = """
            WITH \(delinquency ? SnapshotSQL.latestDelinquency : SnapshotSQL.latest)
            SELECT property, as_of FROM snapshot WHERE as_of IS NOT NULL
            """
        var dates: [String: LocalDate] = [:]
        try database.prepare(sql).forEachRow(SnapshotSQL.parameters(properties, asOf: asOf)) { statement in
            if let key = statement.text(at: 0), let date = statement.text(at: 1).flatMap({ LocalDate(iso: $0) }) {
                dates[key] = date
            }
        }
        return dates
    }

    /// The earliest snapshot date of a property (for the message when `--as-of` is before it).
    public static func earliestSnapshot(database: Database, property: String) throws -> LocalDate? {
        let sql = """
            SELECT min(as_of_date) FROM unified_occupancy_metrics WHERE unified_property_id = :property
            """
        return try database.scalar(sql, [":property": .text(property)])?.textValue.flatMap { LocalDate(iso: $0) }
    }
}

/// A property as unified.db knows it (`unified_properties`).
public struct SyncedProperty: Sendable, Equatable {
    /// The registry key (`nexus_east`).
    public var key: String
    public var name: String
    /// `realpage` or `yardi`.
    public var pms: String
    /// Units counted at the last sync.
    public var totalUnits: Int?
    /// The property date of the last sync.
    public var lastSyncedAsOf: LocalDate?

    /// A property row.
    public init(key: String, name: String, pms: String, totalUnits: Int?, lastSyncedAsOf: LocalDate?) {
        self.key = key; self.name = name; self.pms = pms; self.totalUnits = totalUnits; self.lastSyncedAsOf = lastSyncedAsOf
    }
}

/// Why a metric could not be answered.
public enum MetricsError: Error, Equatable, CustomStringConvertible {
    /// The key is not in unified.db (never synced, or not a registry key).
    case unknownProperty(String, synced: [String])
    /// `--pms` names another system than the property's.
    case wrongPMS(String, pms: String)
    /// unified.db holds no property (of that PMS).
    case nothingSynced(pms: String?)
    /// No snapshot on or before the date for these properties (nil date: none at all).
    case noSnapshot([String], asOf: LocalDate?, earliest: LocalDate?)
    /// No snapshot of any selected property between the dates.
    case noSnapshotBetween(from: LocalDate?, to: LocalDate?)
    /// The property was synced without the data the metric needs — its unit source, or every source the metric is
    /// computed from (`Metrics.metricSources`): the reason (several properties missing for different reasons: the
    /// first's, then each other's after its key).
    case noUnitData(String, reason: String)
    /// A combination of options the metric does not take.
    case invalidQuery(String)

    public var description: String {
        switch self {
        case .unknownProperty(let key, let synced):
            let known = synced.isEmpty ? "none synced yet" : "synced: " + Self.list(synced)
            return "unknown property \"\(key)\" (not in unified.db; \(known))"
        case .wrongPMS(let key, let pms):
            return "\(key) is a \(pms) property (--pms)"
        case .nothingSynced(let pms):
            return "no \(pms.map { "\($0) " } ?? "")property in unified.db yet (run ownerdash sync or ownerdash ingest first)"
        case .noSnapshot(let keys, let asOf, let earliest):
            let when = asOf.map { "on or before \($0.iso)" } ?? "at all"
            return "\(Self.list(keys)): no snapshot \(when)" + (earliest.map { " (earliest \($0.iso))" } ?? "")
        case .noSnapshotBetween(let from, let to):
            return "no snapshot between \(from?.iso ?? "the first") and \(to?.iso ?? "the last")"
        case .invalidQuery(let message):
            return message
        case .noUnitData(let key, let reason):
            return "\(key): \(reason)"
        }
    }

    /// Keys for a one-line message: the first eight, then how many in all (a portfolio may hold hundreds).
    static func list(_ keys: [String]) -> String {
        keys.prefix(8).joined(separator: ", ") + (keys.count > 8 ? ", ... (\(keys.count) in all)" : "")
    }
}

// MARK: - Shared SQL

/// The as-of rule in SQL, shared by every snapshot query so they all pick the same date per property.
enum SnapshotSQL {
    /// `selected(property, position)`: the properties bound as a JSON array `:properties`, in the order given;
    /// `snapshot(property, position, as_of)`: each one's latest snapshot on or before `:snapshot_limit` (NULL when
    /// none), found on the (unified_property_id, as_of_date) primary key.
    static let latest = latest(in: ["unified_occupancy_metrics"])

    /// `latest` over the nights delinquency was synced: the occupancy rows' nights (a night's delinquency totals are
    /// written beside its occupancy row), and those of unified_delinquency_metrics alone — a property synced with a
    /// ledger but without units has its delinquency while its unit figures are missing. The funnel's and the
    /// activity's default windows end at this night too, as the summary's do (a RealPage site with a Delinquent and
    /// Prepaid report and a Leasing Activity Detail but no unit source has leads to count).
    static let latestDelinquency = latest(in: ["unified_occupancy_metrics", "unified_delinquency_metrics"])

    /// `latest` over the nights of the snapshot tables (each keyed by unified_property_id, as_of_date).
    static func latest(in tables: [String]) -> String {
        let nights = tables.map { table in
            """
            SELECT max(m.as_of_date) AS as_of FROM \(table) m
            WHERE m.unified_property_id = selected.property AND m.as_of_date <= :snapshot_limit
            """
        }
        let latest = nights.count == 1 ? nights[0]
            : "SELECT max(as_of) FROM (\(nights.joined(separator: " UNION ALL ")))"
        return """
            selected (property, position) AS (
                SELECT value, key FROM json_each(:properties)
            ),
            snapshot (property, position, as_of) AS MATERIALIZED (
                SELECT property, position, (\(latest))
                FROM selected
            )
            """
    }

    /// The bindings of `latest`: the keys as a JSON array and the as-of limit (none: the latest).
    static func parameters(_ properties: [String], asOf: LocalDate?) -> [String: SQLValue] {
        [":properties": .jsonArray(properties), ":snapshot_limit": .text(asOf?.iso ?? "9999-12-31")]
    }
}

// MARK: - Reading rows by column name

/// The current row of a statement, read by column name (so a query's SELECT list can change order freely).
struct SQLRow {
    let statement: Statement
    let index: [String: Int]

    private func column(_ name: String) -> Int {
        guard let column = index[name] else { preconditionFailure("no column \(name) in: \(statement.sql)") }
        return column
    }

    func text(_ name: String) -> String? { statement.text(at: column(name)) }
    func int(_ name: String) -> Int? { statement.int(at: column(name)) }
    /// A count column; NULL (no rows to count) is zero.
    func count(_ name: String) -> Int { statement.int(at: column(name)) ?? 0 }
    func double(_ name: String) -> Double? { statement.double(at: column(name)) }
    func date(_ name: String) -> LocalDate? { text(name).flatMap { LocalDate(iso: $0) } }
    /// A REAL dollars column, rounded to the cent.
    func dollars(_ name: String) -> Money? { double(name).flatMap { Money(dollars: $0) } }
    /// An INTEGER cents column (sums computed exactly in SQL); NULL is nil.
    func cents(_ name: String) -> Money? { statement.int(at: column(name)).map { Money(cents: Int64($0)) } }
}

extension Database {
    /// Runs a query and decodes each row by column name.
    func rows<T>(_ sql: String, _ values: [String: SQLValue] = [:], _ decode: (SQLRow) throws -> T) throws -> [T] {
        let statement = try prepare(sql)
        var index: [String: Int] = [:]
        for column in 0..<statement.columnCount { index[statement.columnName(column)] = column }
        var rows: [T] = []
        try statement.forEachRow(values) { statement in
            rows.append(try decode(SQLRow(statement: statement, index: index)))
        }
        return rows
    }
}

// MARK: - Arithmetic shared by the roll-ups

/// Percentages and averages computed exactly from integer sums, rounded half away from zero.
public enum Ratio {
    /// 100 x part / whole rounded to 2 decimals; nil when `whole` is zero.
    public static func percent(_ part: Int, of whole: Int) -> Double? {
        percent(Int64(part), of: Int64(whole))
    }

    /// 100 x part / whole rounded to 2 decimals, in integers (no binary-fraction ties); nil when `whole` is zero.
    public static func percent(_ part: Int64, of whole: Int64) -> Double? {
        guard let hundredths = divide(part * 10_000, by: whole) else { return nil }
        return Double(hundredths) / 100
    }

    /// `total` / `count` rounded to the cent; nil when `count` is zero.
    public static func average(_ total: Money, count: Int) -> Money? {
        divide(total.cents, by: Int64(count)).map { Money(cents: $0) }
    }

    /// numerator / denominator rounded half away from zero to an integer; nil when the denominator is zero.
    static func divide(_ numerator: Int64, by denominator: Int64) -> Int64? {
        guard denominator != 0 else { return nil }
        var quotient = numerator / denominator
        let remainder = numerator % denominator
        if 2 * remainder.magnitude >= denominator.magnitude {
            quotient += (numerator < 0) != (denominator < 0) ? -1 : 1
        }
        return quotient
    }

    /// A value rounded to `places` decimals (avg sq ft, rent per sq ft).
    static func rounded(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded(.toNearestOrAwayFromZero) / scale
    }
}

extension SQLValue {
    /// Money as REAL dollars (JSON and CSV print them with two decimals).
    init(_ money: Money?) { self = money.map { .real($0.dollars) } ?? .null }
    /// A date as `YYYY-MM-DD` text.
    init(_ date: LocalDate?) { self = date.map { .text($0.iso) } ?? .null }
}

/// An inclusive range of dates (a funnel window, a trade-out or activity period).
public struct Period: Sendable, Equatable {
    public var from: LocalDate
    public var to: LocalDate
    /// The dates `from...to`.
    public init(from: LocalDate, to: LocalDate) { self.from = from; self.to = to }

    /// The smallest period holding all of `periods`; nil for none.
    init?(spanning periods: [Period]) {
        guard let from = periods.map(\.from).min(), let to = periods.map(\.to).max() else { return nil }
        self.init(from: from, to: to)
    }
}
