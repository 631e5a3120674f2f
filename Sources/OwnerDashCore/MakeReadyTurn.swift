/// How a closed make-ready turn of OneSite's Closed Make Ready Summary is told from its unit's other turns: the sync
/// reads each turn from the latest snapshot listing it (RealPageMaintenance) and prune drops the older copies
/// (RawRetention), so both must name a turn alike.
///
/// A turn is its unit and its vacate date where the report prints one. The real report prints none, only each work
/// order's number (`2088-1` ... `2088-5`: OneSite's make-ready request 2088 and its tasks), so a turn without a vacate
/// date is its unit and the request number its work orders share; keyed by the unit alone, a unit's second turn
/// replaced its first in the answers, and prune deleted the first from the raw data.
public enum MakeReadyTurn {
    /// SQL: the turn's key within its unit for the Closed Make Ready unit row `alias`: its `move_out_date`, else `WO`
    /// and the smallest request number of its work-order lines (`WO2088`), else `open`. `schema` qualifies the
    /// work-order table (`realpage_raw.` from unified.db).
    public static func key(_ alias: String, schema: String = "") -> String {
        """
        coalesce(\(alias).move_out_date,
                 (SELECT 'WO' || min(substr(w.work_order, 1, instr(w.work_order, '-') - 1))
                  FROM \(schema)realpage_closed_make_ready_work_orders w
                  WHERE w.property_id = \(alias).property_id AND w.as_of_date = \(alias).as_of_date
                    AND w.unit_row = \(alias).source_row AND instr(w.work_order, '-') > 1),
                 'open')
        """
    }
}
