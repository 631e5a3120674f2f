/// RealPage work orders: the unit turns ("make readies") of the Make Ready Summary (open) and the Closed Make Ready
/// Summary (closed) -> unified_work_orders, category `Make Ready`, one row per unit turn.
///
/// Rules:
/// - Closed: every Closed Make Ready snapshot loaded (each covers its own date range, so together they are the
///   history), one row per turn (unit_number, move_out_date), from the latest snapshot that lists it.
///   opened_date = `move_out_date` (Date Vacated), due_date = `due_date`, completed_date = `completed_date`;
///   days_to_complete = completed_date − move_out_date in days, else the report's own `days_to_complete` when the
///   vacate date is not printed.
/// - Open: the Make Ready Summary snapshot read (latest on or before the property date): one row per unit row, opened
///   on `move_out_date`, due on `due_date`, pms_status = `status` (Make Ready Status). A unit still on notice
///   (`days_vacant` negative, or vacating after the report's date) has no turn open yet and is left out; a turn that
///   a Closed Make Ready snapshot already lists as completed is closed, not open.
/// - work_order_id = `MR-<unit>-<move_out_date>` (`MR-<unit>-open` when the vacate date is not printed): OneSite
///   prints no id for a turn, and a unit turns once per vacate date. description = `Make ready (N work orders)` from
///   `work_orders` (# of WOs).
enum RealPageMaintenance {
    static let source = "realpage: Make Ready Summary + Closed Make Ready Summary"

    /// Whether any make-ready snapshot is loaded for the property (then it has a work-order source, even an empty one).
    static let hasSnapshots = """
        SELECT EXISTS (SELECT 1 FROM realpage_raw.loaded_artifacts
                       WHERE property_id = :property AND report_type IN ('make_ready_summary', 'closed_make_ready'))
        """

    static let insertClosed = """
        INSERT INTO unified_work_orders (
            unified_property_id, work_order_id, unit_number, category, description, status, pms_status, opened_date,
            due_date, completed_date, days_to_complete, source)
        SELECT :property, 'MR-' || unit_number || '-' || coalesce(move_out_date, 'open'), unit_number, 'Make Ready',
               'Make ready' || coalesce(' (' || work_orders || CASE work_orders WHEN 1 THEN ' work order)' ELSE ' work orders)' END, ''),
               'closed', 'Completed', move_out_date, due_date, completed_date,
               coalesce(CAST(round(julianday(completed_date) - julianday(move_out_date)) AS INTEGER), days_to_complete),
               :source
        FROM (
            SELECT c.*, row_number() OVER (PARTITION BY c.unit_number, coalesce(c.move_out_date, 'open')
                                           ORDER BY c.as_of_date DESC, c.source_row) AS pick
            FROM realpage_raw.realpage_closed_make_ready c
            WHERE c.property_id = :property AND c.completed_date IS NOT NULL
        )
        WHERE pick = 1
        """

    static let insertOpen = """
        INSERT INTO unified_work_orders (
            unified_property_id, work_order_id, unit_number, category, description, status, pms_status, opened_date,
            due_date, completed_date, days_to_complete, source)
        SELECT :property, 'MR-' || m.unit_number || '-' || coalesce(m.move_out_date, 'open'), m.unit_number, 'Make Ready',
               'Make ready' || coalesce(' (' || m.work_orders || CASE m.work_orders WHEN 1 THEN ' work order)' ELSE ' work orders)' END, ''),
               'open', m.status, m.move_out_date, m.due_date, NULL, NULL, :source
        FROM realpage_raw.realpage_make_ready m
        WHERE m.property_id = :property AND m.as_of_date = :make_ready_snapshot
          AND coalesce(m.days_vacant, 0) >= 0 AND coalesce(m.move_out_date <= m.as_of_date, 1)
          AND NOT EXISTS (
              SELECT 1 FROM unified_work_orders w
              WHERE w.unified_property_id = :property
                AND w.work_order_id = 'MR-' || m.unit_number || '-' || coalesce(m.move_out_date, 'open'))
        """
}
