import Foundation
import OwnerDashCore
import SQLiteKit

/// unified_delinquency_metrics: each property's delinquency totals of a synced night, summed in cents from that
/// night's resident rows (unified_delinquency, which the source's delinquency rule wrote). The metrics read these
/// totals, so the daily trend stays when prune removes the resident rows of nights its policy does not keep.
public enum DelinquencySnapshot {
    /// Every synced night's totals counted again from the resident rows there are (the nights of
    /// unified_occupancy_metrics): unified migration 45 fills the table with it, and a unified.db written by hand
    /// (a test's fixture) gets the totals a sync would have written.
    public static func recount(_ database: Database) throws {
        try database.execute(everyNight)
    }

    static let everyNight = """
        INSERT OR REPLACE INTO unified_delinquency_metrics (\(columns))
        SELECT m.unified_property_id, m.as_of_date, \(sums), m.run_id
        FROM unified_occupancy_metrics m
        LEFT JOIN unified_delinquency d ON d.unified_property_id = m.unified_property_id AND d.as_of_date = m.as_of_date
        GROUP BY m.unified_property_id, m.as_of_date;
        """

    /// One night's totals, written by the sync after the source's delinquency rule, from the night's resident rows
    /// alone: a property synced without units (no occupancy row) but with a ledger has its delinquency all the same.
    /// The sync writes it when the night has an occupancy row or a ledger, and a delinquency source (`Synchronizer`:
    /// Yardi's ledger, RealPage's Delinquent and Prepaid report); without one the night has no totals row.
    ///
    /// `:ledger_whole_as_of`: the night's `unified_properties.ledger_whole_as_of` (the ledger's lag), kept with the
    /// totals so an earlier night's answer names it too (Metrics' `delinquencyLags`).
    static let insert = """
        INSERT OR REPLACE INTO unified_delinquency_metrics (\(columns), ledger_whole_as_of)
        SELECT :property, :as_of, \(sums), :run_id, :ledger_whole_as_of
        FROM unified_delinquency d
        WHERE d.unified_property_id = :property AND d.as_of_date = :as_of
        """

    private static let columns = """
        unified_property_id, as_of_date, residents, residents_delinquent, balance_0_30_cents, balance_31_60_cents,
        balance_61_90_cents, balance_over_90_cents, prepaid_cents, run_id
        """

    /// A night's totals over its resident rows `d`, each bucket summed in integer cents.
    private static let sums = """
        count(d.resident_id),
        count(CASE WHEN d.balance_0_30 + d.balance_31_60 + d.balance_61_90 + d.balance_over_90 > 0 THEN 1 END),
        coalesce(sum(CAST(round(d.balance_0_30 * 100) AS INTEGER)), 0),
        coalesce(sum(CAST(round(d.balance_31_60 * 100) AS INTEGER)), 0),
        coalesce(sum(CAST(round(d.balance_61_90 * 100) AS INTEGER)), 0),
        coalesce(sum(CAST(round(d.balance_over_90 * 100) AS INTEGER)), 0),
        coalesce(sum(CAST(round(d.prepaid * 100) AS INTEGER)), 0)
        """
}

/// Retention in unified.db: the resident rows of unified_delinquency are a night's full list of who owed what, the
/// one unified table that grows by a whole list every night (about 600 rows a night for three properties). Prune
/// keeps them for the nights its policy keeps; the totals of every night stay in unified_delinquency_metrics.
public enum UnifiedRetention {
    /// What prune removed (or would remove) from unified.db.
    public struct Result: Sendable, Equatable {
        /// Property nights whose resident rows went.
        public var nights: Int
        public var rows: Int
        /// The properties those nights are of, in order.
        public var properties: [String]

        public init(nights: Int, rows: Int, properties: [String] = []) {
            self.nights = nights
            self.rows = rows
            self.properties = properties
        }
    }

    /// Removes (or with `dryRun` counts) the resident delinquency rows of every property night `kept` (the policy,
    /// over one property's dates) does not keep. Nights without a totals row (synced before the totals existed and
    /// not migrated) keep their rows: the trend would lose them.
    ///
    /// A property this host has published to PostgreSQL (`published_syncs`) has each removed night noted as a change
    /// (`unpublished_changes`, as the sync notes its own night), so that its next publication removes the night's
    /// rows on the server too, by change (UnifiedPublisher.publishChanges): published whole, every property went
    /// whole every night a night fell out of the policy, and a prune run without the server's URL left the server
    /// every night's list for good.
    public static func pruneResidentDelinquency(path: String, dryRun: Bool,
                                                kept: ([LocalDate]) -> Set<LocalDate>) throws -> Result {
        let database = try Database(path: path)
        guard try database.tableExists("unified_delinquency_metrics") else { return Result(nights: 0, rows: 0) }
        var result = Result(nights: 0, rows: 0)
        let dates = try database.query("""
            SELECT DISTINCT d.unified_property_id, d.as_of_date FROM unified_delinquency d
            JOIN unified_delinquency_metrics m USING (unified_property_id, as_of_date)
            ORDER BY 1, 2
            """)
        let note = try database.tableExists("published_syncs") && !dryRun ? try database.prepare("""
            INSERT OR IGNORE INTO unpublished_changes (unified_property_id, table_name, row_key)
            SELECT unified_property_id, 'unified_delinquency', :as_of FROM published_syncs
            WHERE unified_property_id = :property
            """) : nil
        try database.withTransaction {
            for (property, rows) in Dictionary(grouping: dates, by: { $0[0].textValue ?? "" }).sorted(by: { $0.key < $1.key }) {
                let nights = rows.compactMap { $0[1].textValue.flatMap(LocalDate.init(iso:)) }
                // The policy always keeps the newest of these nights.
                let keep = kept(nights)
                let removed = nights.filter { !keep.contains($0) }
                for night in removed {
                    let values: [String: SQLValue] = [":property": .text(property), ":as_of": .text(night.iso)]
                    result.rows += try database.deleteRows(
                        from: "unified_delinquency", where: "unified_property_id = :property AND as_of_date = :as_of",
                        values, dryRun: dryRun)
                    try note?.execute(values)
                    result.nights += 1
                }
                if !removed.isEmpty { result.properties.append(property) }
            }
        }
        return result
    }
}
