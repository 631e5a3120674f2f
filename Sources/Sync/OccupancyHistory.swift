import OwnerDashCore
import SQLiteKit

/// What `ownerdash backfill` wrote for one property.
public struct BackfillOutcome: Sendable, Equatable {
    public var property: String
    /// The month ends written (oldest first).
    public var months: [LocalDate]
    /// Month ends left out, with the reason (before the resident history starts, already a synced snapshot).
    public var skipped: [String]
    /// Why nothing could be backfilled (the property was never synced, or its PMS sent no resident history).
    public var failure: String?

    public init(property: String, months: [LocalDate] = [], skipped: [String] = [], failure: String? = nil) {
        self.property = property; self.months = months; self.skipped = skipped; self.failure = failure
    }
}

/// Month-end occupancy for the months before the first synced snapshot, reconstructed from resident history:
/// `unified_occupancy_history`, which the trends draw as backfilled points.
///
/// Neither PMS hands out a past unit-status list (RealPage's Box Score prints its unit status as of the current
/// property date whatever its date range; RPX and Yardi answer "now"), but both hand out every resident, former ones
/// included, with move-in, notice and move-out dates (RPX `getresidentlistinfo` status ALL, Yardi
/// `GetResidentsByStatus` Current^Notice^Future^Past), and the lease signing dates. At a month end M a unit is:
/// occupied when a resident of it moved in on or before M and had not moved out by M (on notice when that
/// resident's notice date is on or before M); vacant leased when it was vacant and a later resident's lease was
/// signed by M; model or down as it is today when no one lived in it; otherwise vacant. The month ends
/// reconstructed are those on or after the first move-in the history holds (before it, a vacant unit and a unit
/// whose residents are unknown look alike).
public struct OccupancyHistory {
    /// `source` of every row written.
    public static let source = "resident history (move-in, notice and move-out dates, lease signing)"

    let store: UnifiedStore
    let runID: String

    public init(store: UnifiedStore, runID: String) {
        self.store = store; self.runID = runID
    }

    /// The `months` month ends before `through` (default: the property's latest synced snapshot), oldest first;
    /// a month end that has a synced snapshot is left to it.
    public func backfill(_ property: Property, months: Int, through: LocalDate? = nil) throws -> BackfillOutcome {
        let database = store.database
        let key: [String: SQLValue] = [":property": .text(property.key)]
        var outcome = BackfillOutcome(property: property.key, months: [], skipped: [], failure: nil)
        guard let latest = try through ?? database.scalar("""
            SELECT max(as_of_date) FROM unified_occupancy_metrics WHERE unified_property_id = :property
            """, key)?.textValue.flatMap(LocalDate.init(iso:)) else {
            outcome.failure = "no synced occupancy snapshot yet: run ownerdash ingest (or sync) for it first"
            return outcome
        }
        guard let firstMoveIn = try database.scalar("""
            SELECT min(move_in_date) FROM unified_residents
            WHERE unified_property_id = :property AND unit_number IS NOT NULL AND move_in_date IS NOT NULL
            """, key)?.textValue.flatMap(LocalDate.init(iso:)) else {
            outcome.failure = "no resident with a move-in date: the PMS sent no resident history to reconstruct occupancy from"
            return outcome
        }
        let synced = Set(try database.query("""
            SELECT as_of_date FROM unified_occupancy_metrics WHERE unified_property_id = :property
            """, key).compactMap { $0.first?.textValue })
        let insert = try database.prepare(Self.insert)
        try database.withTransaction {
            for monthEnd in Self.monthEnds(before: latest, count: months) {
                if monthEnd < firstMoveIn {
                    outcome.skipped.append("\(monthEnd.iso): before the resident history starts (\(firstMoveIn.iso))")
                    continue
                }
                if synced.contains(monthEnd.iso) {
                    outcome.skipped.append("\(monthEnd.iso): a synced snapshot of that date exists")
                    continue
                }
                try insert.execute(key.merging([":as_of": .text(monthEnd.iso), ":run_id": .text(runID),
                                                ":source": .text(Self.source)]) { $1 })
                outcome.months.append(monthEnd)
            }
        }
        return outcome
    }

    /// The last days of the `count` months before `date`'s month, oldest first.
    public static func monthEnds(before date: LocalDate, count: Int) -> [LocalDate] {
        guard count > 0 else { return [] }
        let month = date.year * 12 + date.month - 1
        return (1...count).reversed().compactMap { back in
            let m = month - back + 1   // the first day of the month after the month end
            return LocalDate(year: m / 12, month: m % 12 + 1, day: 1)?.adding(days: -1)
        }
    }

    static let insert = """
        WITH occupant AS (
            SELECT unit_number, max(notice_date IS NOT NULL AND notice_date <= :as_of) AS on_notice
            FROM unified_residents
            WHERE unified_property_id = :property AND unit_number IS NOT NULL AND status <> 'applicant'
              AND move_in_date IS NOT NULL AND move_in_date <= :as_of
              AND (move_out_date IS NULL OR move_out_date > :as_of)
            GROUP BY unit_number
        ),
        incoming AS (
            SELECT DISTINCT r.unit_number
            FROM unified_residents r
            JOIN unified_leases l ON l.unified_property_id = r.unified_property_id
                                 AND (l.lease_id = r.lease_id OR (r.lease_id IS NULL AND l.resident_id = r.resident_id))
            WHERE r.unified_property_id = :property AND r.unit_number IS NOT NULL
              AND r.move_in_date > :as_of AND l.signed_date IS NOT NULL AND l.signed_date <= :as_of
        ),
        unit AS (
            SELECT u.unit_number,
                   CASE WHEN o.unit_number IS NOT NULL
                            THEN CASE WHEN o.on_notice = 1 AND i.unit_number IS NOT NULL THEN 'occupied_notice_leased'
                                      WHEN o.on_notice = 1 THEN 'occupied_notice' ELSE 'occupied' END
                        WHEN u.status IN ('model', 'down') THEN u.status
                        WHEN i.unit_number IS NOT NULL THEN 'vacant_leased'
                        ELSE 'vacant' END AS status
            FROM unified_units u
            LEFT JOIN occupant o ON o.unit_number = u.unit_number
            LEFT JOIN incoming i ON i.unit_number = u.unit_number
            WHERE u.unified_property_id = :property
        ),
        c AS (
            SELECT count(*) AS total_units,
                   coalesce(sum(status IN ('occupied', 'occupied_notice', 'occupied_notice_leased')), 0) AS occupied_units,
                   coalesce(sum(status IN ('vacant', 'vacant_leased', 'model', 'down')), 0) AS vacant_units,
                   coalesce(sum(status = 'vacant_leased'), 0) AS vacant_leased,
                   coalesce(sum(status IN ('occupied_notice', 'occupied_notice_leased')), 0) AS on_notice,
                   coalesce(sum(status = 'occupied_notice_leased'), 0) AS notice_leased,
                   coalesce(sum(status IN ('occupied', 'occupied_notice_leased', 'vacant_leased')), 0) AS leased_units,
                   coalesce(sum(status = 'model'), 0) AS model_units,
                   coalesce(sum(status = 'down'), 0) AS down_units
            FROM unit
        )
        INSERT INTO unified_occupancy_history (
            unified_property_id, as_of_date, total_units, occupied_units, vacant_units, vacant_leased, on_notice,
            notice_leased, leased_units, model_units, down_units, physical_occupancy, leased_pct, source, run_id)
        SELECT :property, :as_of, total_units, occupied_units, vacant_units, vacant_leased, on_notice, notice_leased,
               leased_units, model_units, down_units,
               round(100.0 * occupied_units / total_units, 2), round(100.0 * leased_units / total_units, 2),
               :source, :run_id
        FROM c WHERE total_units > 0
        ON CONFLICT (unified_property_id, as_of_date) DO UPDATE SET
            total_units = excluded.total_units, occupied_units = excluded.occupied_units,
            vacant_units = excluded.vacant_units, vacant_leased = excluded.vacant_leased, on_notice = excluded.on_notice,
            notice_leased = excluded.notice_leased, leased_units = excluded.leased_units,
            model_units = excluded.model_units, down_units = excluded.down_units,
            physical_occupancy = excluded.physical_occupancy, leased_pct = excluded.leased_pct,
            source = excluded.source, run_id = excluded.run_id
        """
}
