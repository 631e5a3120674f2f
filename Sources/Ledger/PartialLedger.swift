import SQLiteKit

/// What the ledger reports read for a property whose ledger is partial (`unified_properties.ledger_coverage`
/// 'partial': a RealPage site without RPX getresidentledger): unified_ledger_balances, each household's balance per
/// transaction code aged in the PMS's buckets as of one date, and the recurring schedule. There is no posted charge
/// or payment, so the months of a debt are the aging buckets, never invented posting months.
public enum PartialLedger {
    /// The PMS's aging buckets, newest first, as the reports label them in place of a month.
    public static let buckets = ["0-30 days", "31-60 days", "61-90 days", "over 90 days"]

    /// What the ledger reports need to know of a synced property before reading its ledger.
    struct Source {
        /// unified_properties.ledger_source; nil: no tenant ledger.
        var ledger: String?
        /// The property's date (its last sync's).
        var asOf: String?
        /// ledger_coverage 'partial'.
        var partial: Bool
        /// unified_properties.ledger_whole_as_of (`LedgerWholeAsOf`); nil for a ledger read whole every night.
        var wholeAsOf: String? = nil
    }

    /// Every synced property's ledger source, date and coverage, by registry key: read once per report.
    static func sources(_ database: Database) throws -> [String: Source] {
        var sources: [String: Source] = [:]
        try database.prepare("""
            SELECT unified_property_id, ledger_source, as_of_date, ledger_coverage = 'partial' AS partial,
                   ledger_whole_as_of
            FROM unified_properties
            """).forEachRow { row in
            sources[row.text("unified_property_id") ?? ""] = Source(ledger: row.text("ledger_source"),
                                                                    asOf: row.text("as_of_date"),
                                                                    partial: row.int("partial") == 1,
                                                                    wholeAsOf: row.text("ledger_whole_as_of"))
        }
        return sources
    }

    /// The one-line note every ledger report prints for a partial-ledger property.
    static func note(_ property: String, asOf: String?, _ consequence: String) -> String {
        "\(property): partial ledger (balances and aging from the Delinquent and Prepaid report as of \(asOf ?? "?"), "
            + "no posted charges or payments): \(consequence)"
    }

    /// One row per household owing or in credit: resident, unit, name, e-mail, phone, status, balance cents, the four
    /// aging buckets (all codes; then RENT codes only) in cents, the balances' date, the eviction and collections marks.
    static let householdsSQL = """
        WITH household AS (
            SELECT resident_id, min(unit_number) AS unit_number, max(as_of_date) AS as_of_date,
                   sum(CAST(round(balance * 100) AS INTEGER)) AS cents,
                   sum(CAST(round(balance_0_30 * 100) AS INTEGER)) AS b0,
                   sum(CAST(round(balance_31_60 * 100) AS INTEGER)) AS b1,
                   sum(CAST(round(balance_61_90 * 100) AS INTEGER)) AS b2,
                   sum(CAST(round(balance_over_90 * 100) AS INTEGER)) AS b3,
                   sum(CASE WHEN category = 'RENT' THEN CAST(round(balance_0_30 * 100) AS INTEGER) ELSE 0 END) AS r0,
                   sum(CASE WHEN category = 'RENT' THEN CAST(round(balance_31_60 * 100) AS INTEGER) ELSE 0 END) AS r1,
                   sum(CASE WHEN category = 'RENT' THEN CAST(round(balance_61_90 * 100) AS INTEGER) ELSE 0 END) AS r2,
                   sum(CASE WHEN category = 'RENT' THEN CAST(round(balance_over_90 * 100) AS INTEGER) ELSE 0 END) AS r3
            FROM unified_ledger_balances WHERE unified_property_id = :property
            GROUP BY resident_id
        )
        SELECT h.resident_id AS resident_id, coalesce(r.unit_number, h.unit_number) AS unit_number,
               coalesce(r.name, d.name) AS name, r.email AS email, r.phone AS phone,
               coalesce(r.status, d.resident_status) AS status, h.cents AS cents,
               h.b0 AS b0, h.b1 AS b1, h.b2 AS b2, h.b3 AS b3, h.r0 AS r0, h.r1 AS r1, h.r2 AS r2, h.r3 AS r3,
               h.as_of_date AS as_of_date, d.under_eviction AS under_eviction, d.in_collections AS in_collections
        FROM household h
        LEFT JOIN unified_residents r ON r.unified_property_id = :property AND r.resident_id = h.resident_id
        LEFT JOIN unified_delinquency d ON d.unified_property_id = :property AND d.resident_id = h.resident_id
                                       AND d.as_of_date = h.as_of_date
        ORDER BY h.resident_id
        """

    /// A household's positive balances per code and bucket: code, four bucket amounts in cents (newest first, b0 to
    /// b3 as in `householdsSQL`).
    static let owedSQL = """
        SELECT charge_code, CAST(round(balance_0_30 * 100) AS INTEGER) AS b0, CAST(round(balance_31_60 * 100) AS INTEGER) AS b1,
               CAST(round(balance_61_90 * 100) AS INTEGER) AS b2, CAST(round(balance_over_90 * 100) AS INTEGER) AS b3
        FROM unified_ledger_balances WHERE unified_property_id = :property AND resident_id = :resident
        ORDER BY charge_code
        """

    /// The property's households as `householdsSQL` (prepared as `statement`) reads them.
    static func households(_ statement: Statement, property: String) throws -> [Household] {
        var households: [Household] = []
        try statement.forEachRow([":property": .text(property)]) { households.append(Household($0)) }
        return households
    }

    /// One household of the partial ledger, as `householdsSQL` reads it.
    struct Household {
        var residentID: String
        var unit: String
        var name: String?
        var email: String?
        var phone: String?
        var status: String?
        var balanceCents: Int64
        /// Every code's aging buckets, newest first (cents).
        var aging: [Int64]
        /// The RENT codes' aging buckets, newest first (cents).
        var rentAging: [Int64]
        var asOf: String?
        /// unified_delinquency.under_eviction of the balances' date; nil: not said.
        var underEviction: Bool?
        /// unified_delinquency.in_collections of the balances' date; nil: not said.
        var inCollections: Bool?

        /// The row `row` is on (`householdsSQL`'s columns, read by name).
        init(_ row: Statement) {
            residentID = row.text("resident_id") ?? ""
            unit = row.text("unit_number") ?? ""
            name = row.text("name"); email = row.text("email"); phone = row.text("phone"); status = row.text("status")
            balanceCents = Int64(row.int("cents") ?? 0)
            aging = ["b0", "b1", "b2", "b3"].map { Int64(row.int($0) ?? 0) }
            rentAging = ["r0", "r1", "r2", "r3"].map { Int64(row.int($0) ?? 0) }
            asOf = row.text("as_of_date")
            underEviction = row.int("under_eviction").map { $0 != 0 }
            inCollections = row.int("in_collections").map { $0 != 0 }
        }

        /// The buckets holding unpaid rent, oldest first: the months behind a partial ledger can tell (the last
        /// bucket, over 90 days, counts once however old it is).
        var rentBucketsBehind: [String] {
            zip(PartialLedger.buckets, rentAging).filter { $0.1 > 0 }.map(\.0).reversed()
        }
    }
}
