import OwnerDashCore
import SQLiteKit

/// The residents who owe the most at each property's snapshot, from `unified_delinquency`.
///
/// Ranking: by net balance owed (`current_balance` = delinquent − prepaid) largest first, then property (in the
/// order asked), unit and resident id; only residents whose net balance is above zero; the first N (`--top`).
/// delinquent = 0-30 + 31-60 + 61-90 + 90+ of the resident. under_eviction: `yes` when the PMS marks the household
/// under eviction (unified_delinquency.under_eviction), `no` when it says not, unknown when it says nothing;
/// in_collections the same for an account placed with a collection agency (unified_delinquency.in_collections).
public struct DelinquentResident: MetricRow, Equatable {
    /// 1 for the largest balance.
    public var rank: Int
    public var property: String
    public var unit: String?
    public var residentID: String
    public var name: String?
    /// current, notice, former, ... as sync stored it.
    public var status: String?
    /// The PMS marks the household under eviction (RealPage's `*`, Yardi's Eviction status); nil: it does not say.
    public var underEviction: Bool?
    /// A collection agency holds the account (RealPage's Collections Report); nil: no report says.
    public var inCollections: Bool? = nil
    public var balance0to30: Money
    public var balance31to60: Money
    public var balance61to90: Money
    public var balanceOver90: Money
    public var prepaid: Money
    /// Net balance owed (delinquent − prepaid).
    public var balance: Money

    /// 0-30 + 31-60 + 61-90 + 90+.
    public var delinquent: Money { balance0to30 + balance31to60 + balance61to90 + balanceOver90 }

    public static let columns: [MetricResult.Column] = [
        .init("rank", .count), .init("property", .text), .init("unit", .text), .init("resident_id", .text),
        .init("name", .text), .init("status", .text), .init("under_eviction", .text), .init("in_collections", .text),
        .init("balance_0_30", .money), .init("balance_31_60", .money), .init("balance_61_90", .money),
        .init("balance_over_90", .money), .init("delinquent", .money), .init("prepaid", .money), .init("balance", .money),
    ]

    public var values: [SQLValue] {
        [SQLValue(rank), .text(property), SQLValue(unit), .text(residentID), SQLValue(name), SQLValue(status),
         MetricResult.yesNo(underEviction), MetricResult.yesNo(inCollections), SQLValue(balance0to30),
         SQLValue(balance31to60), SQLValue(balance61to90), SQLValue(balanceOver90), SQLValue(delinquent),
         SQLValue(prepaid), SQLValue(balance)]
    }
}

extension Metrics {
    /// The `top` residents with the largest net balance owed across the properties' snapshots.
    public static func delinquentResidents(database: Database, properties: [String], asOf: LocalDate? = nil,
                                           top: Int = 10) throws -> [DelinquentResident] {
        var parameters = SnapshotSQL.parameters(properties, asOf: asOf)
        parameters[":top"] = .integer(Int64(max(0, top)))
        var rank = 0
        return try database.rows(DelinquentResidentsQuery.sql, parameters) { row in
            rank += 1
            return DelinquentResident(
                rank: rank, property: row.text("property") ?? "", unit: row.text("unit_number"),
                residentID: row.text("resident_id") ?? "", name: row.text("name"), status: row.text("resident_status"),
                underEviction: row.int("under_eviction").map { $0 != 0 },
                inCollections: row.int("in_collections").map { $0 != 0 },
                balance0to30: row.cents("balance_0_30") ?? .zero, balance31to60: row.cents("balance_31_60") ?? .zero,
                balance61to90: row.cents("balance_61_90") ?? .zero, balanceOver90: row.cents("balance_over_90") ?? .zero,
                prepaid: row.cents("prepaid") ?? .zero, balance: row.cents("balance") ?? .zero)
        }
    }
}

/// The top-residents query.
enum DelinquentResidentsQuery {
    static let sql = """
        WITH \(SnapshotSQL.latestDelinquency)
        SELECT s.property, d.unit_number, d.resident_id, d.name, d.resident_status, d.under_eviction, d.in_collections,
               CAST(round(d.balance_0_30 * 100) AS INTEGER)    AS balance_0_30,
               CAST(round(d.balance_31_60 * 100) AS INTEGER)   AS balance_31_60,
               CAST(round(d.balance_61_90 * 100) AS INTEGER)   AS balance_61_90,
               CAST(round(d.balance_over_90 * 100) AS INTEGER) AS balance_over_90,
               CAST(round(d.prepaid * 100) AS INTEGER)         AS prepaid,
               CAST(round(d.current_balance * 100) AS INTEGER) AS balance
        FROM snapshot s
        JOIN unified_delinquency d ON d.unified_property_id = s.property AND d.as_of_date = s.as_of
        WHERE d.current_balance > 0
        ORDER BY d.current_balance DESC, s.position, d.unit_number, d.resident_id
        LIMIT :top
        """
}
