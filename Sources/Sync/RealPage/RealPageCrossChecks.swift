import SQLiteKit

/// The RealPage cross-checks: where RealPage states a fact twice (its own report totals and the RPX records the
/// unified rows are built from), a disagreement beyond the tolerance is a warning (unified_sync_warnings), never
/// silently resolved. Each message names the property, the check and both values.
///
/// | check | compares | tolerance |
/// | --- | --- | --- |
/// | units_missing | neither RPX unitlist units nor a Rent Roll snapshot: the property is synced without units, the metrics leave it out with this reason | none allowed |
/// | snapshot | a report the rules read (Rent Roll, Box Score, Delinquent and Prepaid, Activity) missing or read from another date than the property date; an RPX operation missing (units, residents or leases then come from a report, or are absent); RPX snapshots of another day than getsitelist's | same date |
/// | box_score | Box Score property totals (sum of its floorplan rows: units, occupied, vacant, vacant leased, on notice, notice leased, model/admin, down) vs the unified unit counts; only when the Box Score is as of the property date | exact (0 units) |
/// | unit_status_rent_roll | per unit, the Rent Roll's `Unit/Lease Status` (mapped as in RealPageUnits) vs the status read from unitlist; units in one and not the other; only when the Rent Roll is as of the property date and unitlist is the unit source | exact |
/// | delinquency_total | Delinquent and Prepaid report total Net Balance vs the sum of the RPX getresidentlistinfo household balances (households not future or applicant); the message counts the accounts that differ; only when the report is as of the property date | $0.00 (to the cent) |
/// | delinquency_aging | per account of the Delinquent and Prepaid report, its aging buckets as unified_delinquency reads them (RealPageDelinquency: the owing amounts of its code rows, else the printed columns) vs what it owes, Net Balance + Total Prepaid | $0.00 (to the cent) |
/// | monthly_summary | Monthly Activity Summary move-ins, move-outs, notices, renewals of its month vs the unified resident events from the first of that month to the summary's as-of date; only when it is as of the property date and resident events come from RPX | exact |
/// | notice_move_out | an on-notice unit without a move-out date (exposure 30/60 cannot place it) | none allowed |
/// | current_resident | an occupied unit (unitlist) with no Current household in getresidentlistinfo (no resident, lease or in-place rent) | none allowed |
/// | activity_type | Activity report types not in RealPageActivity.activityTypes (kept as `other`) | none allowed |
/// | ledger_balance | per household of getresidentledger: its `Balance` vs its charges' `OpenAmount`, and what its balance-forward line carries open (postings before the 24-month window), less its `Prepaid` | $0.01 |
/// | ledger_type | getresidentledger transactions neither Charge nor Payment (left out of the ledger) | none allowed |
/// | transaction_detail_rows | Transaction Detail by Code rows of a snapshot the ledger reads that cannot be read (no code, unknown group, no amount, no date, no fiscal period), per snapshot and reason | none allowed |
/// | charge_journal_only | a Charge and Adjustment Journal period without Transaction Detail by Code on a site without getresidentledger (not read as the ledger) | none allowed |
enum RealPageCrossChecks {
    /// Runs every check for one property; a check that finds nothing returns no warning.
    static func warnings(_ realpage: RealPageSync) throws -> [SyncWarning] {
        var warnings = snapshotWarnings(realpage)
        for (check, sql) in checks {
            // One warning per subject (unified_sync_warnings' key).
            var subjects = Set<String>()
            for row in try realpage.rows(sql) where subjects.insert(row[0].textValue ?? "").inserted {
                warnings.append(SyncWarning(check: check, subject: row[0].textValue ?? "",
                                            expected: row[1].textValue ?? "", actual: row[2].textValue ?? "",
                                            message: row[3].textValue ?? check))
            }
        }
        return warnings
    }

    /// What `units_missing` says: neither RPX unitlist nor a Rent Roll gave the property a unit list.
    static let unitsMissing = """
        no unit list: no RPX unitlist units and no Rent Roll snapshot loaded (not fetched or not loaded): total units, \
        occupancy, exposure, vacancy and pricing are missing, not zero; delinquency and leasing activity come from \
        their own reports, where loaded
        """

    /// Reports read from another date than the property date or not loaded; RPX operations missing or of another day.
    static func snapshotWarnings(_ realpage: RealPageSync) -> [SyncWarning] {
        let property = realpage.context.property.key
        let asOf = realpage.asOf.iso
        let dates = realpage.snapshots.dates
        var warnings: [SyncWarning] = []
        func warn(_ subject: String, _ expected: String, _ actual: String, _ message: String) {
            warnings.append(SyncWarning(check: "snapshot", subject: subject, expected: expected, actual: actual,
                                        message: "\(property) snapshot \(subject): \(message)"))
        }
        let leadDetail = dates["leasing_activity_detail"] != nil
        let feeds = ["rent_roll": "unit floorplan codes and the unit status cross-check",
                     "box_score": "bedrooms per floorplan and the Box Score cross-check",
                     "delinquency": "unified_delinquency (delinquency is missing, not zero)",
                     "activity": leadDetail ? "applications, approvals and denials (leads and tours come from the Leasing "
                        + "Activity Detail)" : "the leasing funnel"]
        for report in ["rent_roll", "box_score", "delinquency", "activity"] {
            if let date = dates[report] {
                if date != asOf {
                    warn(report, asOf, date, "read from the \(date) snapshot, the property date is \(asOf)")
                }
            } else {
                warn(report, asOf, "none", "no snapshot loaded: \(feeds[report] ?? "its rows") missing")
            }
        }
        // The funnel's other source: named only when neither is loaded (Metrics.metricSources reads both warnings).
        if !leadDetail && dates["activity"] == nil {
            warn("leasing_activity_detail", asOf, "none", "no snapshot loaded, nor an Activity report: the leasing funnel missing")
        }
        if !realpage.hasUnitList && dates["rent_roll"] == nil {
            // The metrics repeat this when they leave the property out (as Yardi's units_missing).
            warnings.append(SyncWarning(check: "units_missing", subject: "units", expected: "a unit list", actual: "none",
                                        message: unitsMissing))
        }
        if !realpage.hasUnitList {
            warn("unitlist", "units", "none", """
                no RPX unitlist units: unified_units from the Rent Roll (\(dates["rent_roll"] ?? "none")), without \
                make-ready dates (vacant units count as not ready) or days vacant
                """)
        }
        if !realpage.hasResidents {
            warn("getresidentlistinfo", "residents", "none", """
                no RPX getresidentlistinfo residents: unified_residents from the Rent Roll, no leases, resident \
                events only from the Activity report's window
                """)
        } else if dates["getleaseinfo"] == nil {
            warn("getleaseinfo", "leases", "none", "no RPX getleaseinfo snapshot: one lease per household, without rents")
        }
        if let site = dates["getsitelist"] {
            for operation in ["unitlist", "getresidentlistinfo", "getleaseinfo"] {
                if let date = dates[operation], date != site {
                    warn(operation, site, date, "RPX snapshot of \(date), getsitelist (the property date's source) of \(site)")
                }
            }
        }
        return warnings
    }

    /// (check name, SQL returning subject, expected, actual, message).
    static let checks: [(String, String)] = [
        ("box_score", boxScore),
        ("unit_status_rent_roll", unitStatusRentRoll),
        ("delinquency_total", delinquencyTotal),
        ("delinquency_aging", RealPageDelinquency.agingCheck),
        ("monthly_summary", monthlySummary),
        ("notice_move_out", noticeMoveOut),
        ("current_resident", currentResident),
        ("activity_type", activityType),
        ("ledger_balance", RealPageLedger.balanceCheck),
        ("ledger_type", RealPageLedger.typeCheck),
        ("charge_journal_only", RealPageTransactionLedger.journalOnlyCheck),
        ("transaction_detail_rows", RealPageTransactionLedger.unreadRowsCheck),
        ("make_ready_period", RealPageMaintenance.unreadPeriods),
    ]

    static let boxScore = """
        WITH box AS (
            SELECT count(*) AS floorplans, sum(total_units) AS total_units, sum(occupied_units) AS occupied_units,
                   sum(vacant_units) AS vacant_units, sum(vacant_leased) AS vacant_leased,
                   sum(occupied_on_notice) AS on_notice, sum(notice_leased) AS notice_leased,
                   sum(model_units) AS model_units, sum(down_units) AS down_units
            FROM realpage_raw.realpage_box_score
            WHERE property_id = :property AND as_of_date = :box_score_snapshot AND :box_score_snapshot_date = :as_of
        ),
        unit AS (
            SELECT count(*) AS total_units, coalesce(sum(is_occupied), 0) AS occupied_units,
                   coalesce(sum(NOT is_occupied), 0) AS vacant_units,
                   coalesce(sum(status = 'vacant_leased'), 0) AS vacant_leased,
                   coalesce(sum(is_on_notice), 0) AS on_notice,
                   coalesce(sum(status = 'occupied_notice_leased'), 0) AS notice_leased,
                   coalesce(sum(is_model), 0) AS model_units, coalesce(sum(is_down), 0) AS down_units
            FROM unified_units WHERE unified_property_id = :property
        ),
        pair (measure, box_score, unified) AS (
            SELECT 'total_units', box.total_units, unit.total_units FROM box, unit WHERE box.floorplans > 0
            UNION ALL SELECT 'occupied_units', box.occupied_units, unit.occupied_units FROM box, unit WHERE box.floorplans > 0
            UNION ALL SELECT 'vacant_units', box.vacant_units, unit.vacant_units FROM box, unit WHERE box.floorplans > 0
            UNION ALL SELECT 'vacant_leased', box.vacant_leased, unit.vacant_leased FROM box, unit WHERE box.floorplans > 0
            UNION ALL SELECT 'on_notice', box.on_notice, unit.on_notice FROM box, unit WHERE box.floorplans > 0
            UNION ALL SELECT 'notice_leased', box.notice_leased, unit.notice_leased FROM box, unit WHERE box.floorplans > 0
            UNION ALL SELECT 'model_units', box.model_units, unit.model_units FROM box, unit WHERE box.floorplans > 0
            UNION ALL SELECT 'down_units', box.down_units, unit.down_units FROM box, unit WHERE box.floorplans > 0
        )
        SELECT measure, box_score, unified,
               printf('%s box_score %s: Box Score (as of %s) says %d, the unified units (%s) count %d (tolerance 0)',
                      :property, measure, :as_of, box_score, CASE :units_from_rpx WHEN 1 THEN 'RPX unitlist' ELSE 'Rent Roll' END,
                      unified)
        FROM pair WHERE box_score IS NOT unified
        """

    static let unitStatusRentRoll = """
        WITH
        -- The Rent Roll names a unit `1101` or `01-1101` (Bldg/Unit): each alias once, with the unit it names.
        unit_alias AS MATERIALIZED (
            SELECT alias, min(unit_number) AS unit_number FROM (
                SELECT unit_number AS alias, unit_number FROM unified_units WHERE unified_property_id = :property
                UNION ALL
                SELECT building || '-' || unit_number, unit_number FROM unified_units
                WHERE unified_property_id = :property AND building IS NOT NULL
            ) GROUP BY alias
        ),
        -- Each Rent Roll row with its unit, numbered within the unit (a unit's first row is the one compared).
        rent_roll AS MATERIALIZED (
            SELECT r.id, r.unit_number, r.status, r.unified_status, a.unit_number AS unified_unit,
                   row_number() OVER (PARTITION BY a.unit_number ORDER BY r.id) AS n
            FROM rent_roll_unit r
            LEFT JOIN unit_alias a ON a.alias = r.unit_number
        ),
        -- Each unit beside its first Rent Roll row, put together by grouping: the planner gave a join of the units to
        -- the materialized rows no index (nor to a lookup per unit), a scan of the Rent Roll per unit, quadratic in the
        -- units (20-37 ms of a 430-unit property's sync).
        matched AS (
            SELECT unit_number, max(rent_roll_text) AS rent_roll_text, max(rent_roll_status) AS rent_roll_status,
                   max(status) AS status
            FROM (
                SELECT unit_number, NULL AS rent_roll_text, NULL AS rent_roll_status, status
                FROM unified_units WHERE unified_property_id = :property
                UNION ALL
                SELECT unified_unit, status, unified_status, NULL FROM rent_roll WHERE n = 1 AND unified_unit IS NOT NULL
            ) GROUP BY unit_number
            UNION ALL
            SELECT r.unit_number, r.status, r.unified_status, NULL FROM rent_roll r WHERE r.unified_unit IS NULL
        )
        SELECT unit_number, coalesce(rent_roll_status, rent_roll_text, 'missing'), coalesce(status, 'missing'),
               printf('%s unit_status_rent_roll unit %s: the Rent Roll (as of %s) says %s, RPX unitlist makes it %s (unitlist wins)',
                      :property, unit_number, :as_of,
                      CASE WHEN rent_roll_text IS NULL AND rent_roll_status IS NULL THEN 'nothing (unit not listed)'
                           ELSE '''' || rent_roll_text || '''' END,
                      coalesce(status, 'no unit (not in unitlist)'))
        FROM matched
        WHERE :units_from_rpx = 1 AND :rent_roll_snapshot_date = :as_of
          AND (rent_roll_status IS NOT status OR rent_roll_status IS NULL)
        ORDER BY unit_number
        """

    static let delinquencyTotal = """
        WITH report AS (
            SELECT resident_id, sum(CAST(round(current_balance * 100) AS INTEGER)) AS cents
            FROM realpage_raw.realpage_delinquency
            WHERE property_id = :property AND as_of_date = :delinquency_snapshot
            GROUP BY resident_id
        ),
        rpx AS (
            SELECT household_id AS resident_id, CAST(round(coalesce(balance, 0) * 100) AS INTEGER) AS cents
            FROM rpx_household
            WHERE unified_status NOT IN ('future', 'applicant') AND coalesce(balance, 0) <> 0
        ),
        account AS (
            SELECT resident_id, sum(report_cents) AS report_cents, sum(rpx_cents) AS rpx_cents FROM (
                SELECT resident_id, cents AS report_cents, 0 AS rpx_cents FROM report
                UNION ALL SELECT resident_id, 0, cents FROM rpx
            ) GROUP BY resident_id
        ),
        total AS (
            SELECT coalesce(sum(report_cents), 0) AS report_cents, coalesce(sum(rpx_cents), 0) AS rpx_cents,
                   coalesce(sum(report_cents <> rpx_cents), 0) AS accounts_differing, count(*) AS accounts
            FROM account
        )
        SELECT 'total', printf('%.2f', report_cents / 100.0), printf('%.2f', rpx_cents / 100.0),
               printf('%s delinquency_total: the Delinquent and Prepaid report (as of %s) totals %.2f, the RPX household balances %.2f (%d of %d accounts differ; tolerance 0.00)',
                      :property, :as_of, report_cents / 100.0, rpx_cents / 100.0, accounts_differing, accounts)
        FROM total
        WHERE :delinquency_snapshot_date = :as_of AND :residents_from_rpx = 1 AND report_cents <> rpx_cents
        """

    /// The property's resident events of `type` from the month's first day (`s.period_start`) to the property date:
    /// the twin's, and when they were computed by household (RealPageEventHouseholds) main's of the other households,
    /// which the twin does not hold.
    static func residentEvents(_ type: String) -> String {
        """
        ((SELECT count(*) FROM unified_activity a WHERE a.unified_property_id = :property
            AND a.event_type = '\(type)' AND a.event_date BETWEEN s.period_start AND :as_of)
         + (SELECT count(*) FROM main.unified_activity a WHERE :events_by_household = 1 AND a.unified_property_id = :property
            AND a.event_type = '\(type)' AND a.event_date BETWEEN s.period_start AND :as_of AND a.party_id IS NOT NULL
            AND a.party_id NOT IN (SELECT household_id FROM temp.event_households)))
        """
    }

    static let monthlySummary = """
        WITH summary AS (
            SELECT month, move_ins, move_outs, notices, renewals, month || '-01' AS period_start
            FROM realpage_raw.realpage_monthly_summary
            WHERE property_id = :property AND as_of_date = :monthly_summary_snapshot
              AND :monthly_summary_snapshot_date = :as_of AND :residents_from_rpx = 1
        ),
        counted AS (
            SELECT s.*,
                   \(residentEvents("move_in")) AS unified_move_ins,
                   \(residentEvents("move_out")) AS unified_move_outs,
                   \(residentEvents("notice")) AS unified_notices,
                   \(residentEvents("renewal")) AS unified_renewals
            FROM summary s
        ),
        pair (measure, month, period_start, summary, unified) AS (
            SELECT 'move_ins', month, period_start, move_ins, unified_move_ins FROM counted
            UNION ALL SELECT 'move_outs', month, period_start, move_outs, unified_move_outs FROM counted
            UNION ALL SELECT 'notices', month, period_start, notices, unified_notices FROM counted
            UNION ALL SELECT 'renewals', month, period_start, renewals, unified_renewals FROM counted
        )
        SELECT month || ' ' || measure, summary, unified,
               printf('%s monthly_summary %s %s: the Monthly Activity Summary says %d, the unified resident events from %s to %s count %d (tolerance 0)',
                      :property, month, measure, summary, period_start, :as_of, unified)
        FROM pair
        WHERE summary IS NOT NULL AND summary <> unified
        """

    static let noticeMoveOut = """
        SELECT unit_number, 'a move-out date', 'none',
               printf('%s notice_move_out unit %s: on notice (%s) without a move-out date, exposure 30/60 cannot place it',
                      :property, unit_number, coalesce(pms_status, status))
        FROM unified_units
        WHERE unified_property_id = :property AND is_on_notice AND notice_for_date IS NULL
        ORDER BY unit_number
        """

    static let currentResident = """
        SELECT unit_number, 'a Current household', 'none',
               printf('%s current_resident unit %s: occupied in unitlist but getresidentlistinfo has no Current household on it (no resident, lease or in-place rent)',
                      :property, unit_number)
        FROM unified_units
        WHERE unified_property_id = :property AND is_occupied AND resident_id IS NULL
          AND :units_from_rpx = 1 AND :residents_from_rpx = 1
        ORDER BY unit_number
        """

    /// Over every day read: the days the sync computed and, before them, the counts the mark keeps
    /// (RealPageActivityDays.unknownTypes).
    static let activityType = """
        SELECT type, 'a known type', printf('%d rows', sum(rows)),
               printf('%s activity_type: the Activity report type ''%s'' (%d rows) is not in RealPageActivity.activityTypes; kept as other',
                      :property, type, sum(rows))
        FROM (\(RealPageActivityDays.unknownTypes))
        GROUP BY type
        ORDER BY type
        """
}
