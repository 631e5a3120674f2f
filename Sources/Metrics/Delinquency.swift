import OwnerDashCore
import SQLiteKit

/// Delinquency totals and aging of each property at its snapshot, from `unified_delinquency` (one row per resident
/// with a non-zero balance at that date; none means nobody owed or was owed anything).
///
/// Formulas (Yardi Aged Receivables, RealPage Delinquent & Prepaid; docs/metrics.md, "Delinquency aging"):
/// - each aging bucket (0-30, 31-60, 61-90, 90+ days past due) = Σ the residents' open receivable of that age (what
///   they owe; RealPage prints its columns net of credits, so its sync rule ages the owing transaction codes:
///   RealPageDelinquency);
/// - delinquent = 0-30 + 31-60 + 61-90 + 90+; prepaid = Σ credit balances (positive dollars);
/// - net = delinquent − prepaid (equals Σ current balance);
/// - residents delinquent = residents with a delinquent amount above zero.
/// Roll-up: every amount and count summed (exact cents).
public struct DelinquencyRow: MetricRow, Equatable {
    /// The registry key, or `portfolio` for a roll-up.
    public var property: String
    /// The snapshot date (a roll-up of several dates: nil).
    public var asOf: LocalDate?
    public var residentsDelinquent: Int
    public var balance0to30: Money
    public var balance31to60: Money
    public var balance61to90: Money
    public var balanceOver90: Money
    /// Prepaid credit, a positive amount.
    public var prepaid: Money

    /// 0-30 + 31-60 + 61-90 + 90+.
    public var delinquent: Money { balance0to30 + balance31to60 + balance61to90 + balanceOver90 }
    /// Delinquent minus prepaid.
    public var net: Money { delinquent - prepaid }

    public static let columns: [MetricResult.Column] = [
        .init("property", .text), .init("as_of", .date), .init("residents_delinquent", .count),
        .init("balance_0_30", .money), .init("balance_31_60", .money), .init("balance_61_90", .money),
        .init("balance_over_90", .money), .init("delinquent", .money), .init("prepaid", .money), .init("net", .money),
    ]

    public var values: [SQLValue] {
        [.text(property), SQLValue(asOf), SQLValue(residentsDelinquent), SQLValue(balance0to30), SQLValue(balance31to60),
         SQLValue(balance61to90), SQLValue(balanceOver90), SQLValue(delinquent), SQLValue(prepaid), SQLValue(net)]
    }

    /// The sum of `rows` under `label`; nil for no rows.
    public static func rollUp(_ rows: [DelinquencyRow], label: String = "portfolio") -> DelinquencyRow? {
        guard let first = rows.first else { return nil }
        func sum(_ field: KeyPath<DelinquencyRow, Money>) -> Money { rows.reduce(.zero) { $0 + $1[keyPath: field] } }
        return DelinquencyRow(property: label, asOf: Set(rows.map(\.asOf)).count == 1 ? first.asOf : nil,
                              residentsDelinquent: rows.reduce(0) { $0 + $1.residentsDelinquent },
                              balance0to30: sum(\.balance0to30), balance31to60: sum(\.balance31to60),
                              balance61to90: sum(\.balance61to90), balanceOver90: sum(\.balanceOver90),
                              prepaid: sum(\.prepaid))
    }
}

/// Delinquency per property and the residents who owe the most.
public struct DelinquencyReport: Sendable, Equatable {
    /// One row per property with a snapshot, in the order asked.
    public var properties: [DelinquencyRow]
    /// The top residents by net balance owed, largest first.
    public var topResidents: [DelinquentResident]
    /// The snapshots whose resident rows prune removed (their totals stay): the top list leaves them out. Looked up
    /// only when a top list is asked for.
    public var residentsPruned: [PrunedNight] = []
}

/// A property night whose resident rows `ownerdash prune` removed.
public struct PrunedNight: Sendable, Equatable {
    public var property: String
    public var asOf: LocalDate

    /// Why the night's households are not listed, for warnings and pages.
    public var reason: String {
        "\(property): the households of \(asOf.iso) were removed by ownerdash prune (its retention policy keeps them for "
            + "the last days and month ends); the night's totals are kept and shown"
    }
}

extension Metrics {
    /// Delinquency of each property at its snapshot (latest on or before `asOf`) and the `top` residents with the
    /// largest balance owed across them.
    public static func delinquency(database: Database, properties: [String], asOf: LocalDate? = nil,
                                   top: Int = 10) throws -> DelinquencyReport {
        let rows = try database.rows(DelinquencyQuery.sql, SnapshotSQL.parameters(properties, asOf: asOf)) { row in
            DelinquencyRow(property: row.text("property") ?? "", asOf: row.date("as_of"),
                           residentsDelinquent: row.count("residents_delinquent"),
                           balance0to30: row.cents("balance_0_30") ?? .zero, balance31to60: row.cents("balance_31_60") ?? .zero,
                           balance61to90: row.cents("balance_61_90") ?? .zero,
                           balanceOver90: row.cents("balance_over_90") ?? .zero, prepaid: row.cents("prepaid") ?? .zero)
        }
        guard top > 0 else { return DelinquencyReport(properties: rows, topResidents: []) }
        let residents = try delinquentResidents(database: database, properties: properties, asOf: asOf, top: top)
        let pruned = try database.rows(DelinquencyQuery.residentsPruned,
                                       SnapshotSQL.parameters(properties, asOf: asOf)) { row -> PrunedNight? in
            guard let property = row.text("property"), let night = row.date("as_of") else { return nil }
            return PrunedNight(property: property, asOf: night)
        }.compactMap { $0 }
        return DelinquencyReport(properties: rows, topResidents: residents, residentsPruned: pruned)
    }
}

/// The households a PMS marks at a property's delinquency snapshot (under eviction, or placed with a collection
/// agency), and what they owe.
public struct MarkedHouseholds: Sendable, Equatable {
    public var households: Int
    /// Their delinquent receivable (0-30 + 31-60 + 61-90 + 90+): the part of the property's delinquent amount the
    /// eviction or the agency, not the property's own collections, will settle.
    public var delinquent: Money

    /// A property's count and amount.
    public init(households: Int, delinquent: Money) { self.households = households; self.delinquent = delinquent }
}

/// What the households a PMS marks at a property's delinquency snapshot owe: those under eviction and those placed
/// with a collection agency, each nil where no household of the night carries that mark either way (unknown, not none).
public struct MarkedDelinquency: Sendable, Equatable {
    /// unified_delinquency.under_eviction: RealPage's `*` on the Delinquent and Prepaid report, Yardi's Eviction status.
    public var underEviction: MarkedHouseholds?
    /// unified_delinquency.in_collections: a former account on RealPage's Collections Report.
    public var inCollections: MarkedHouseholds?
}

extension Metrics {
    /// Per property, the households marked under eviction and in collections at its delinquency snapshot (the as-of
    /// rule of `delinquency`) and their delinquent amounts, from the night's resident rows in one pass. A property
    /// whose PMS marked no household either way (every mark NULL: a ledger without the report that prints it), or
    /// whose night's households prune removed, is absent.
    public static func markedHouseholds(database: Database, properties: [String],
                                        asOf: LocalDate? = nil) throws -> [String: MarkedDelinquency] {
        let rows = try database.rows(DelinquencyQuery.marked, SnapshotSQL.parameters(properties, asOf: asOf)) { row in
            // A mark no household carries either way is unknown, not none.
            func marked(_ prefix: String) -> MarkedHouseholds? {
                row.count("\(prefix)_marks") == 0 ? nil
                    : MarkedHouseholds(households: row.count("\(prefix)_households"),
                                       delinquent: row.cents("\(prefix)_delinquent") ?? .zero)
            }
            return (row.text("property") ?? "",
                    MarkedDelinquency(underEviction: marked("eviction"), inCollections: marked("collections")))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }
}

/// The delinquency query: each property's totals at its snapshot, as the sync summed that night's residents in exact
/// cents (unified_delinquency_metrics, DelinquencySnapshot); no row there is nobody owing anything.
enum DelinquencyQuery {
    static let sql = """
        WITH \(SnapshotSQL.latestDelinquency)
        SELECT s.property, s.as_of, m.residents_delinquent,
               m.balance_0_30_cents    AS balance_0_30,
               m.balance_31_60_cents   AS balance_31_60,
               m.balance_61_90_cents   AS balance_61_90,
               m.balance_over_90_cents AS balance_over_90,
               m.prepaid_cents         AS prepaid
        FROM snapshot s
        LEFT JOIN unified_delinquency_metrics m ON m.unified_property_id = s.property AND m.as_of_date = s.as_of
        WHERE s.as_of IS NOT NULL
        ORDER BY s.position
        """

    /// At each property's snapshot, per mark (under eviction, in collections): the households it is given for either
    /// way (`_marks`: NULL is the PMS saying nothing), those marked 1 and their delinquent cents; a property without
    /// any mark or without resident rows is absent.
    static let marked = """
        WITH \(SnapshotSQL.latestDelinquency),
        owed AS (
            SELECT s.position, s.property, d.under_eviction, d.in_collections,
                   CAST(round(d.balance_0_30 * 100) AS INTEGER) + CAST(round(d.balance_31_60 * 100) AS INTEGER)
                   + CAST(round(d.balance_61_90 * 100) AS INTEGER) + CAST(round(d.balance_over_90 * 100) AS INTEGER) AS cents
            FROM snapshot s
            JOIN unified_delinquency d ON d.unified_property_id = s.property AND d.as_of_date = s.as_of
        )
        SELECT property,
               count(under_eviction) AS eviction_marks,
               count(CASE WHEN under_eviction = 1 THEN 1 END) AS eviction_households,
               coalesce(sum(CASE WHEN under_eviction = 1 THEN cents END), 0) AS eviction_delinquent,
               count(in_collections) AS collections_marks,
               count(CASE WHEN in_collections = 1 THEN 1 END) AS collections_households,
               coalesce(sum(CASE WHEN in_collections = 1 THEN cents END), 0) AS collections_delinquent
        FROM owed
        GROUP BY position, property
        HAVING count(under_eviction) > 0 OR count(in_collections) > 0
        ORDER BY position
        """

    /// The properties whose snapshot had households owing or in credit but whose resident rows prune removed.
    static let residentsPruned = """
        WITH \(SnapshotSQL.latestDelinquency)
        SELECT s.property, s.as_of FROM snapshot s
        JOIN unified_delinquency_metrics m ON m.unified_property_id = s.property AND m.as_of_date = s.as_of
        WHERE m.residents > 0
          AND NOT EXISTS (SELECT 1 FROM unified_delinquency d
                          WHERE d.unified_property_id = s.property AND d.as_of_date = s.as_of)
        ORDER BY s.position
        """
}
