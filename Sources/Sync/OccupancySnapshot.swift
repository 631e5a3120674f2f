/// unified_occupancy_metrics: one row per (property, as_of_date), counted from `unified_units` the same way for
/// both PMSs, so a RealPage and a Yardi building are measured alike.
///
/// Definitions (docs/metrics.md, "Occupancy" ... "Vacant ready and aged vacancy"; RealPage Box Score where it
/// defines one):
/// - physical occupancy = occupied units / total units; model and down units count as vacant, as Box Score does;
/// - leased % = Net Leased / total units, Net Leased = vacant leased + occupied without notice + on notice pre-leased;
/// - exposure = vacant not leased + on notice not leased (model and down are not exposure, they are not for rent);
///   exposure 30/60 keeps only the notices whose move-out (`notice_for_date`) falls within 30/60 days of `as_of`;
/// - vacant ready / not ready: rentable vacant units (vacant, vacant leased) with / without a make-ready;
/// - aged vacancy: rentable vacant units vacant more than 90 days; days vacant = property date - the day the unit
///   became vacant: its last move-out, or for a unit never occupied (lease-up) the day it became available — its
///   make-ready date, else its available date. One definition for both PMSs (RealPage unitlist
///   `UnitMadeReadyDate`/`AvailableDate`, Yardi AvailableUnits `MadeReadyDate`/`DateAvailable`); a never-occupied
///   unit with neither date cannot be aged and is not counted. Vacancy cost = market rent / 30.42 x days vacant;
/// - pre-leased = vacant leased + on notice leased.
enum OccupancySnapshot {
    static let insert = """
        WITH u AS (
            SELECT *,
                   status IN ('vacant', 'vacant_leased') AS rentable_vacant,
                   CAST(julianday(:as_of) - julianday(coalesce(vacant_since, made_ready_date, available_date))
                        AS INTEGER) AS days_vacant
            FROM unified_units WHERE unified_property_id = :property
        ),
        c AS (
            SELECT count(*)                                                          AS total_units,
                   coalesce(sum(is_occupied), 0)                                     AS occupied_units,
                   coalesce(sum(NOT is_occupied), 0)                                 AS vacant_units,
                   coalesce(sum(status = 'vacant_leased'), 0)                        AS vacant_leased,
                   coalesce(sum(status = 'vacant'), 0)                               AS vacant_not_leased,
                   coalesce(sum(rentable_vacant AND is_ready = 1), 0)                AS vacant_ready,
                   coalesce(sum(rentable_vacant AND coalesce(is_ready, 0) = 0), 0)   AS vacant_not_ready,
                   coalesce(sum(rentable_vacant AND days_vacant > 90), 0)            AS aged_vacant_90,
                   round(coalesce(sum(CASE WHEN rentable_vacant AND days_vacant > 90
                                           THEN market_rent / 30.42 * days_vacant END), 0), 2) AS aged_vacancy_cost,
                   coalesce(sum(is_on_notice), 0)                                    AS on_notice,
                   coalesce(sum(status = 'occupied_notice_leased'), 0)               AS notice_leased,
                   coalesce(sum(status = 'occupied_notice'), 0)                      AS notice_not_leased,
                   coalesce(sum(status IN ('vacant_leased', 'occupied_notice_leased')), 0) AS pre_leased,
                   coalesce(sum(is_model), 0)                                        AS model_units,
                   coalesce(sum(is_down), 0)                                         AS down_units,
                   coalesce(sum(is_leased), 0)                                       AS leased_units,
                   coalesce(sum(status = 'vacant') + sum(status = 'occupied_notice'), 0) AS exposure_now,
                   coalesce(sum(status = 'vacant') + sum(status = 'occupied_notice'
                                AND notice_for_date <= date(:as_of, '+30 days')), 0) AS exposure_30,
                   coalesce(sum(status = 'vacant') + sum(status = 'occupied_notice'
                                AND notice_for_date <= date(:as_of, '+60 days')), 0) AS exposure_60
            FROM u
        )
        INSERT INTO unified_occupancy_metrics (
            unified_property_id, as_of_date, total_units, occupied_units, vacant_units, vacant_leased,
            vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90, aged_vacancy_cost, on_notice,
            notice_leased, notice_not_leased, pre_leased, model_units, down_units, leased_units,
            physical_occupancy, leased_pct, exposure_now, exposure_30, exposure_60,
            exposure_now_pct, exposure_30_pct, exposure_60_pct, source, run_id)
        SELECT :property, :as_of, total_units, occupied_units, vacant_units, vacant_leased,
               vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90, aged_vacancy_cost, on_notice,
               notice_leased, notice_not_leased, pre_leased, model_units, down_units, leased_units,
               round(100.0 * occupied_units / nullif(total_units, 0), 2),
               round(100.0 * leased_units / nullif(total_units, 0), 2),
               exposure_now, exposure_30, exposure_60,
               round(100.0 * exposure_now / nullif(total_units, 0), 2),
               round(100.0 * exposure_30 / nullif(total_units, 0), 2),
               round(100.0 * exposure_60 / nullif(total_units, 0), 2),
               :source, :run_id
        FROM c WHERE total_units > 0
        """
}
