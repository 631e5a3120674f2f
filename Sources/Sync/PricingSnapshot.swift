/// unified_pricing_metrics: one row per (property, as_of_date, floorplan), from `unified_units`.
///
/// - asking rent = mean market rent of all the floorplan's units; in-place rent = mean current lease rent
///   (`actual_rent`) of its occupied units; both are means of cents rounded half up, as the PMS reports print them;
/// - avg sqft over all units; rent per sq ft = rent / avg sqft;
/// - loss-to-lease = sum over occupied units of (market rent - in-place rent), dollars per month (positive = loss).
enum PricingSnapshot {
    static let insert = """
        WITH u AS (
            SELECT coalesce(floorplan, '') AS floorplan, floorplan_name, bedrooms, sqft, is_occupied, market_rent,
                   CAST(round(market_rent * 100) AS INTEGER) AS market_cents,
                   CASE WHEN is_occupied THEN CAST(round(actual_rent * 100) AS INTEGER) END AS in_place_cents,
                   CASE WHEN is_occupied THEN market_rent - actual_rent END AS loss
            FROM unified_units WHERE unified_property_id = :property
        ),
        f AS (
            SELECT floorplan, max(floorplan_name) AS floorplan_name, max(bedrooms) AS bedrooms,
                   count(*) AS units, sum(is_occupied) AS occupied_units,
                   round(avg(sqft), 2) AS avg_sqft,
                   -- (2s + n) div 2n = s/n rounded half up, in integer cents (no binary-fraction ties).
                   (2 * sum(market_cents) + count(market_cents)) / (2 * count(market_cents)) / 100.0 AS asking_rent,
                   (2 * sum(in_place_cents) + count(in_place_cents)) / (2 * count(in_place_cents)) / 100.0 AS in_place_rent,
                   round(sum(loss), 2) AS loss_to_lease
            FROM u GROUP BY floorplan
        )
        INSERT INTO unified_pricing_metrics (
            unified_property_id, as_of_date, floorplan, floorplan_name, bedrooms, units, occupied_units, avg_sqft,
            in_place_rent, in_place_psf, asking_rent, asking_psf, loss_to_lease, run_id)
        SELECT :property, :as_of, floorplan, floorplan_name, bedrooms, units, occupied_units, avg_sqft,
               in_place_rent, round(in_place_rent / nullif(avg_sqft, 0), 4),
               asking_rent, round(asking_rent / nullif(avg_sqft, 0), 4), loss_to_lease, :run_id
        FROM f
        """
}
