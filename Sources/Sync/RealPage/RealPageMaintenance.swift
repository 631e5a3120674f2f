import OwnerDashCore

/// RealPage work orders: the unit turns ("make readies") of the Make Ready Summary (open) and the Closed Make Ready
/// Summary (closed) -> unified_work_orders, category `Make Ready`, one row per unit turn.
///
/// Rules:
/// - Closed: every Closed Make Ready snapshot loaded (each covers its own date range, so together they are the
///   history), one row per turn (unit_number and `MakeReadyTurn.key`: the vacate date, else the make-ready request
///   number its work orders share, as the real report prints no vacate date), from the latest snapshot that lists it;
///   an incremental sync computes only the turns the snapshots loaded since the last sync list (RealPageClosedTurns).
///   opened_date = `move_out_date` (Date Vacated), due_date = `due_date`, completed_date = `completed_date`;
///   days_to_complete = completed_date − move_out_date in days, else the report's own `days_to_complete` when the
///   vacate date is not printed.
/// - Open: the Make Ready Summary snapshot read (latest on or before the property date): one row per unit row, opened
///   on `move_out_date`, due on `due_date`, pms_status = `status` (Make Ready Status). A unit still on notice
///   (`days_vacant` negative, or vacating after the report's date) has no turn open yet and is left out; a turn that
///   a Closed Make Ready snapshot already lists as completed is closed, not open.
/// - work_order_id = `MR-<unit>-<move_out_date>`, for a closed turn without a vacate date `MR-<unit>-WO<request>`
///   (`MR-1171-WO2088`; `MR-<unit>-open` without either): OneSite prints no id for a turn, and a unit turns once per
///   vacate date and once per make-ready request. description = `Make ready (N work orders)` from
///   `work_orders` (# of WOs).
/// - Work orders of a closed turn -> unified_work_order_lines: the Closed Make Ready's work-order lines
///   (realpage_closed_make_ready_work_orders) under the unit row the turn was read from (same snapshot, `unit_row` =
///   the unit's source row), one per WO number: line_id = `work_order` (`2088-1`), description = `service_issue`,
///   completed_date = `closed_date`, amount = `amount_charged`, minutes_worked = `minutes_worked` (Hrs:Min). The
///   turn's own days to complete stay the turn's: OneSite prints no open date per work order.
/// - Make Ready Analysis -> unified_make_ready_periods: one row per `period` (`2/2026` -> 2026-02) from the latest
///   snapshot printing it (a period run again later is more complete): units made ready, total minutes, make-ready
///   renovations, labor, parts and total cost as printed. These are OneSite's own turn counts per month, beside the
///   turns counted from the closed work orders.
enum RealPageMaintenance {
    static let source = "realpage: Make Ready Summary + Closed Make Ready Summary"
    static let analysisSource = "realpage: Make Ready Analysis"

    /// Whether any make-ready snapshot is loaded for the property (then it has a work-order source, even an empty one).
    static let hasSnapshots = """
        SELECT EXISTS (SELECT 1 FROM realpage_raw.loaded_artifacts
                       WHERE property_id = :property
                         AND report_type IN ('make_ready_summary', 'closed_make_ready', 'make_ready_analysis'))
        """

    /// The closed turns read: each (unit, turn key) from the latest Closed Make Ready snapshot listing it, with its
    /// `turn` (`MakeReadyTurn.key`). Ranked on the few columns that order them and read again by id (every kept
    /// snapshot's rows carried whole through the sort cost a third more, growing with the snapshots kept).
    static let closedTurns = closedTurns(byChange: false)

    /// `closedTurns`, or by change (RealPageClosedTurns) only the turns of `temp.changed_turns`: their units' rows
    /// alone are read, off the unit index.
    static func closedTurns(byChange: Bool) -> String {
        """
        SELECT c.*, k.turn
        FROM (
            SELECT id, turn, row_number() OVER (PARTITION BY unit_number, turn ORDER BY as_of_date DESC, source_row) AS pick
            FROM (SELECT t.id, t.unit_number, t.as_of_date, t.source_row, \(MakeReadyTurn.key("t", schema: "realpage_raw.")) AS turn
                  FROM realpage_raw.realpage_closed_make_ready t
                  WHERE t.property_id = :property AND t.completed_date IS NOT NULL\(byChange ? """

                    AND t.unit_number IN (SELECT unit_number FROM temp.changed_turns)) x
                  WHERE (unit_number, turn) IN (SELECT unit_number, turn FROM temp.changed_turns)
            """ : ")")) k
        JOIN realpage_raw.realpage_closed_make_ready c ON c.id = k.id
        WHERE k.pick = 1
        """
    }

    /// `temp.closed_turn`, of `closedTurns`' rows.
    static let closedTurn = ScratchTable(name: "closed_turn", shape: .query(closedTurns))

    /// `temp.closed_turn`: the closed turns read (every one, or by change those `turns` computes), made once for the
    /// work orders and their lines, which each ranked every kept snapshot's turns (a year of them) again. Refills the
    /// previous property's (`TempTables`).
    static func makeClosedTurns(_ realpage: RealPageSync, turns: RealPageClosedTurns) throws {
        try TempTables.refill(closedTurn, with: closedTurns(byChange: !turns.isWhole), in: realpage.context.database) {
            _ = try realpage.run($0)
        }
    }

    static let insertLines = """
        INSERT INTO unified_work_order_lines (
            unified_property_id, work_order_id, line_id, description, completed_date, amount, minutes_worked, source)
        SELECT :property, 'MR-' || c.unit_number || '-' || c.turn, w.work_order,
               max(w.service_issue), max(w.closed_date), round(sum(w.amount_charged), 2), sum(w.minutes_worked), :source
        FROM temp.closed_turn c
        JOIN realpage_raw.realpage_closed_make_ready_work_orders w
          ON w.property_id = c.property_id AND w.as_of_date = c.as_of_date AND w.unit_row = c.source_row
        GROUP BY 2, 3
        """

    static let insertPeriods = """
        INSERT INTO unified_make_ready_periods (
            unified_property_id, month, units_made_ready, total_minutes, renovations, labor_cost, parts_cost, total_cost,
            source, source_as_of)
        SELECT :property, month, units_made_ready, total_minutes, renovations, labor_cost, parts_cost, total_cost,
               :analysis_source, as_of_date
        FROM (
            SELECT p.*, row_number() OVER (PARTITION BY month ORDER BY as_of_date DESC, source_row) AS pick
            FROM (
                SELECT a.*,
                       CASE WHEN trim(a.period) GLOB '[1-9]/[12][0-9][0-9][0-9]'
                                THEN substr(trim(a.period), 3, 4) || '-0' || substr(trim(a.period), 1, 1)
                            WHEN trim(a.period) GLOB '[01][0-9]/[12][0-9][0-9][0-9]'
                                THEN substr(trim(a.period), 4, 4) || '-' || substr(trim(a.period), 1, 2) END AS month
                FROM realpage_raw.realpage_make_ready_analysis a WHERE a.property_id = :property
            ) p WHERE p.month IS NOT NULL
        )
        WHERE pick = 1
        """

    /// Make Ready Analysis periods not printed as `M/YYYY`: not placed in a month, named in a warning.
    static let unreadPeriods = """
        SELECT period, 'a month M/YYYY', period,
               'Make Ready Analysis of ' || max(as_of_date) || ': period "' || period
                   || '" is not a month (M/YYYY); not in unified_make_ready_periods'
        FROM realpage_raw.realpage_make_ready_analysis
        WHERE property_id = :property
          AND NOT (trim(period) GLOB '[1-9]/[12][0-9][0-9][0-9]' OR trim(period) GLOB '[01][0-9]/[12][0-9][0-9][0-9]')
        GROUP BY period ORDER BY period
        """

    static let insertClosed = """
        INSERT INTO unified_work_orders (
            unified_property_id, work_order_id, unit_number, category, description, status, pms_status, opened_date,
            due_date, completed_date, days_to_complete, source)
        SELECT :property, 'MR-' || unit_number || '-' || turn, unit_number, 'Make Ready',
               'Make ready' || coalesce(' (' || work_orders || CASE work_orders WHEN 1 THEN ' work order)' ELSE ' work orders)' END, ''),
               'closed', 'Completed', move_out_date, due_date, completed_date,
               coalesce(CAST(round(julianday(completed_date) - julianday(move_out_date)) AS INTEGER), days_to_complete),
               :source
        FROM temp.closed_turn
        """

    /// The open turns; by change (RealPageClosedTurns) also without the ids main holds as closed, whose turns were
    /// not computed (a closed turn stays listed, so stays closed).
    static func insertOpen(byChange: Bool) -> String {
        insertOpen + (byChange ? """

              AND NOT EXISTS (
                  SELECT 1 FROM main.unified_work_orders w
                  WHERE w.unified_property_id = :property AND w.status = 'closed'
                    AND w.work_order_id = 'MR-' || m.unit_number || '-' || coalesce(m.move_out_date, 'open'))
            """ : "")
    }

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
