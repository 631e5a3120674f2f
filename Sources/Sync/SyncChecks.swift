import OwnerDashCore
import SQLiteKit

/// The reconciliations every sync records in `sync_checks`, one row per check and measure, passed, failed or skipped:
/// the unified figures held against the vendor's own totals (what the reports print, what another payload says).
///
/// | check | expected (the vendor's figure) | actual (unified) | tolerance |
/// | --- | --- | --- | --- |
/// | box_score | Box Score `Property Totals` as printed (units, occupied, vacant, vacant leased), as of the property date | unified_units counts | 0 |
/// | delinquency_totals | Delinquent and Prepaid `Grand Totals` as printed (net balance, prepaid), as of the property date | unified_delinquency of that date | $0.00 |
/// | rent_roll_units | Rent Roll unit rows of the property date | unified_units (RPX unitlist where it is the source) | 0 |
/// | unit_information | Yardi GetUnitInformation units of the property date | unified_units | 0 |
/// | ils_unit_count | where the Yardi units come from the AvailableUnits_Login feed (GetUnitInformation lists none): the unit count the feed declares (`Property/Information/UnitCount`) | unified_units (the units it lists) | 0 |
/// | ledger_open_balance | the tenant ledger's open balance (Σ unified_household_balances) | unified_delinquency's net balance | $0.00 |
/// | ledger_window_gaps | Yardi: the part of tonight's window gaps (`ledger_window` warnings: AmountPaid the ledger holds no payment for) that the last whole ledger had too, household by household | tonight's window gaps | $0.00 |
/// | transaction_detail_totals | per fiscal period of a Transaction Detail by Code ledger: its Summary sheet's printed rows (charges, credits, payments on the resident ledger accounts); the Charge and Adjustment Journal's printed `Totals` | unified_charges / unified_payments of the period | $0.00 |
/// | income_expense_totals | per month synced, the printed total of the report snapshot the month was read from: Income Statement `TOTAL EXPENSES` / `TOTAL INCOME` (period amount), Monthly Income Summary `Charges/Credits Totals:` (income cash basis); measures `expenses YYYY-MM`, `income YYYY-MM` | Σ unified_expenses / unified_income of the month | $0.00 |
/// | leasing_activity_totals | the latest Leasing Activity Detail on or before the property date: its `Totals for Property` as printed (new prospects, visits, return visits, off-site conversions, each contact type, leases, waitlist, cancelled/denied, net leases) | the snapshot's stored contacts counted as OneSite counts them; new prospects: unified_activity leads dated in the snapshot's days | 0 |
///
/// A check whose inputs are not there is `skipped` with the reason (no Box Score as of the property date, a partial
/// ledger): never a silent pass. `runs show` lists the failed ones; the dashboard shows them all.
enum SyncChecks {
    /// One reconciliation: SQL returning (measure, expected, actual, skipped reason) rows for `:property`, `:as_of`.
    struct Check {
        let name: String
        let pms: PMS?
        /// Where each side's figure comes from, for people reading the row.
        let expectedSource: String
        let actualSource: String
        let tolerance: Double
        let sql: String
    }

    /// The result of one check's measure.
    struct Result: Equatable {
        let check: String
        let measure: String
        let expected: Double?
        let actual: Double?
        let status: String
        let detail: String
    }

    /// Runs the checks of this property's PMS and records them (the property's earlier rows for this date replaced).
    static func record(_ context: SyncContext, asOf: LocalDate) throws -> [Result] {
        let database = context.database
        try context.run("DELETE FROM sync_checks WHERE unified_property_id = :property AND as_of_date = :as_of",
                        asOf: asOf)
        let insert = try database.prepare(insertSQL)
        var results: [Result] = []
        let rowsDates = try Self.rowsDates(context, asOf: asOf)
        for check in checks where check.pms == nil || check.pms == context.property.pms {
            let statement = try database.prepare(check.sql)
            var values = context.propertyParameters.merging(rowsDates) { $1 }
            values[":as_of"] = .text(asOf.iso)
            try statement.bind(values.filter { statement.hasParameter($0.key) })
            // Profiled as the rules are (`OWNERDASH_SQL_PROFILE_MS`), each check's rows with its writes.
            try context.profiled(check.sql) {
                while try statement.step() {
                    let measure = statement.text("measure") ?? check.name
                    let expected = statement.double("expected")
                    let actual = statement.double("actual")
                    let (status, difference, detail) = judge(check, expected: expected, actual: actual,
                                                             skipped: statement.text("skipped"))
                    let result = Result(check: check.name, measure: measure, expected: expected, actual: actual,
                                        status: status, detail: detail)
                    results.append(result)
                    try insert.execute([
                        ":property": .text(context.property.key), ":as_of": .text(asOf.iso),
                        ":run_id": .text(context.runID), ":check": .text(check.name), ":measure": .text(measure),
                        ":expected_source": .text(check.expectedSource), ":expected": SQLValue(expected),
                        ":actual_source": .text(check.actualSource), ":actual": SQLValue(actual),
                        ":difference": SQLValue(difference),
                        ":status": .text(status), ":detail": .text(detail),
                    ])
                }
            }
        }
        if context.property.pms == .yardi {
            try context.run(recordGapBaseline, asOf: asOf)
        }
        return results
    }

    /// The snapshots the checks read at the property date, each bound to the date whose rows hold it
    /// (`:box_score_rows`, ...; another date when it was recorded unchanged, NULL when none is loaded that day).
    static func rowsDates(_ context: SyncContext, asOf: LocalDate) throws -> [String: SQLValue] {
        let (schema, keyColumn, snapshots): (String, String, [(String, String)]) = switch context.property.pms {
        case .realpage: ("realpage_raw", "report_type",
                         [("box_score", ":box_score_rows"), ("delinquency", ":delinquency_rows"), ("rent_roll", ":rent_roll_rows")])
        case .yardi: ("yardi_raw", "operation", [("GetUnitInformation", ":units_rows"), ("AvailableUnits_Login", ":available_rows")])
        }
        guard try UnifiedStore.hasRaw(context.database, schema) else { return [:] }
        let rowsDate = try StoredSnapshots.rowsDate(context.database, schema: schema)
        var values: [String: SQLValue] = [:]
        for (key, parameter) in snapshots {
            values[parameter] = try context.database.scalar(
                "SELECT " + StoredSnapshots.rowsDate(of: key, keyColumn: keyColumn, schema: schema, date: ":as_of", rowsDate: rowsDate),
                [":property": .text(context.property.key), ":as_of": .text(asOf.iso)]) ?? .null
        }
        return values
    }

    /// Passed within the tolerance, failed beyond it, skipped when the vendor's figure is missing; the difference
    /// (actual − expected, to the cent) only where the two were compared.
    static func judge(_ check: Check, expected: Double?, actual: Double?,
                      skipped: String?) -> (status: String, difference: Double?, detail: String) {
        if let skipped { return ("skipped", nil, skipped) }
        guard let expected else { return ("skipped", nil, "no \(check.expectedSource) figure") }
        let actual = actual ?? 0
        let difference = (actual - expected).roundedToCents
        if abs(difference) <= check.tolerance + 0.000_001 {
            return ("passed", difference,
                    "\(check.expectedSource) \(expected.checkFigure) = \(check.actualSource) \(actual.checkFigure)")
        }
        return ("failed", difference, "\(check.expectedSource) says \(expected.checkFigure), \(check.actualSource) "
            + "\(actual.checkFigure) (difference \(difference.checkFigure), tolerance \(check.tolerance.checkFigure))")
    }

    static let insertSQL = """
        INSERT INTO sync_checks (unified_property_id, as_of_date, run_id, check_name, measure, expected_source, expected,
                                 actual_source, actual, difference, status, detail)
        VALUES (:property, :as_of, :run_id, :check, :measure, :expected_source, :expected, :actual_source, :actual,
                :difference, :status, :detail)
        """

    static let checks: [Check] = [
        Check(name: "box_score", pms: .realpage, expectedSource: "Box Score Property Totals",
              actualSource: "unified_units", tolerance: 0, sql: boxScore),
        Check(name: "delinquency_totals", pms: .realpage, expectedSource: "Delinquent and Prepaid Grand Totals",
              actualSource: "unified_delinquency", tolerance: 0, sql: delinquencyTotals),
        Check(name: "rent_roll_units", pms: .realpage, expectedSource: "Rent Roll units",
              actualSource: "unified_units", tolerance: 0, sql: rentRollUnits),
        Check(name: "unit_information", pms: .yardi, expectedSource: "GetUnitInformation units",
              actualSource: "unified_units", tolerance: 0, sql: unitInformation),
        Check(name: "ils_unit_count", pms: .yardi, expectedSource: "AvailableUnits_Login declared UnitCount",
              actualSource: "unified_units", tolerance: 0, sql: ilsUnitCount),
        Check(name: "ledger_open_balance", pms: nil, expectedSource: "tenant ledger open balance",
              actualSource: "unified_delinquency net balance", tolerance: 0, sql: ledgerOpenBalance),
        // A failure reads `window gaps: the last whole ledger says 0, tonight's window gaps 10 (difference 10, ...)`.
        Check(name: "ledger_window_gaps", pms: .yardi, expectedSource: "the last whole ledger",
              actualSource: "tonight's window gaps", tolerance: 0, sql: ledgerWindowGaps),
        Check(name: "transaction_detail_totals", pms: .realpage,
              expectedSource: "Transaction Detail by Code Summary / Charge and Adjustment Journal Totals",
              actualSource: "unified ledger of the period", tolerance: 0, sql: transactionDetailTotals),
        Check(name: "leasing_activity_totals", pms: .realpage, expectedSource: "Leasing Activity Detail Totals for Property",
              actualSource: "stored contacts / unified leads", tolerance: 0, sql: leasingActivityTotals),
        Check(name: "income_expense_totals", pms: .realpage, expectedSource: "the month's report total as printed",
              actualSource: "unified_expenses / unified_income of the month", tolerance: 0, sql: incomeExpenseTotals),
    ]

    /// Why a report's printed figures cannot be checked: none loaded as of the property date (naming the latest).
    private static func reportMissing(_ report: String, printedAs name: String) -> String {
        """
        CASE
            WHEN NOT EXISTS (SELECT 1 FROM realpage_raw.sqlite_master WHERE name = 'loaded_report_totals')
                THEN 'realpage_raw.db predates printed totals: load the \(name) again'
            WHEN NOT EXISTS (SELECT 1 FROM realpage_raw.loaded_artifacts
                             WHERE report_type = '\(report)' AND property_id = :property AND as_of_date = :as_of)
                THEN 'no \(name) loaded as of ' || :as_of || coalesce(' (latest ' || (
                    SELECT max(as_of_date) FROM realpage_raw.loaded_artifacts
                    WHERE report_type = '\(report)' AND property_id = :property) || ')', '')
        END
        """
    }

    /// The figure a report's last totals row of a measure prints (its property or grand total).
    private static func printed(_ report: String, measures: String) -> String {
        """
        SELECT t.measure, t.printed FROM realpage_raw.loaded_report_totals t
        WHERE t.report_type = '\(report)' AND t.property_id = :property AND t.as_of_date = :\(report)_rows
          AND t.measure IN (\(measures))
          AND t.source_row = (SELECT max(source_row) FROM realpage_raw.loaded_report_totals
                              WHERE report_type = t.report_type AND property_id = t.property_id
                                AND as_of_date = t.as_of_date AND measure = t.measure)
        """
    }

    static let boxScore = """
        WITH unit AS (
            SELECT count(*) AS units, coalesce(sum(is_occupied), 0) AS occupied,
                   coalesce(sum(NOT is_occupied), 0) AS vacant, coalesce(sum(status = 'vacant_leased'), 0) AS vacant_leased
            FROM unified_units WHERE unified_property_id = :property
        ),
        actual (measure, actual) AS (
            SELECT 'units', units FROM unit
            UNION ALL SELECT 'occupied units', occupied FROM unit
            UNION ALL SELECT 'vacant units', vacant FROM unit
            UNION ALL SELECT 'vacant leased units', vacant_leased FROM unit
        ),
        skipped (reason) AS (SELECT \(reportMissing("box_score", printedAs: "Box Score")))
        SELECT a.measure AS measure,
               CASE WHEN (SELECT reason FROM skipped) IS NULL
                    THEN (SELECT p.printed FROM (\(printed("box_score", measures: "'units', 'occupied units', 'vacant units', 'vacant leased units'"))) p
                          WHERE p.measure = a.measure) END AS expected,
               a.actual AS actual, (SELECT reason FROM skipped) AS skipped
        FROM actual a
        """

    static let delinquencyTotals = """
        WITH total AS (
            SELECT coalesce(sum(current_balance), 0) AS net, coalesce(sum(prepaid), 0) AS prepaid
            FROM unified_delinquency WHERE unified_property_id = :property AND as_of_date = :as_of
        ),
        skipped (reason) AS (SELECT \(reportMissing("delinquency", printedAs: "Delinquent and Prepaid report"))),
        printed AS MATERIALIZED (\(printed("delinquency", measures: "'net balance', 'balance', 'prepaid'")))
        SELECT 'net balance' AS measure,
               CASE WHEN (SELECT reason FROM skipped) IS NULL THEN
                   (SELECT printed FROM printed WHERE measure IN ('net balance', 'balance') ORDER BY measure DESC LIMIT 1)
               END AS expected,
               (SELECT net FROM total) AS actual, (SELECT reason FROM skipped) AS skipped
        UNION ALL
        SELECT 'prepaid',
               CASE WHEN (SELECT reason FROM skipped) IS NULL THEN (SELECT printed FROM printed WHERE measure = 'prepaid') END,
               (SELECT prepaid FROM total), (SELECT reason FROM skipped)
        """

    static let rentRollUnits = """
        SELECT 'units' AS measure,
               CASE WHEN EXISTS (SELECT 1 FROM realpage_raw.loaded_artifacts WHERE report_type = 'rent_roll'
                                   AND property_id = :property AND as_of_date = :as_of)
                    THEN (SELECT count(DISTINCT unit_number) FROM realpage_raw.realpage_rent_roll
                          WHERE property_id = :property AND as_of_date = :rent_roll_rows) END AS expected,
               (SELECT count(*) FROM unified_units WHERE unified_property_id = :property) AS actual,
               CASE WHEN NOT EXISTS (SELECT 1 FROM realpage_raw.loaded_artifacts WHERE report_type = 'rent_roll'
                                       AND property_id = :property AND as_of_date = :as_of)
                    THEN 'no Rent Roll loaded as of ' || :as_of END AS skipped
        """

    static let unitInformation = """
        SELECT 'units' AS measure,
               -- Yardi's own pseudo-rows (a waiting list, excluded non-residential codes) are not units.
               (SELECT count(DISTINCT unit_code) FROM yardi_raw.yardi_units
                WHERE property_id = :property AND as_of_date = :units_rows AND \(YardiUnits.isUnitRow)) AS expected,
               (SELECT count(*) FROM unified_units WHERE unified_property_id = :property) AS actual,
               CASE WHEN NOT EXISTS (SELECT 1 FROM yardi_raw.yardi_units WHERE property_id = :property
                                       AND as_of_date = :units_rows)
                    THEN 'no GetUnitInformation units loaded as of ' || :as_of END AS skipped
        """

    /// Where GetUnitInformation lists no unit and the units were built from the AvailableUnits_Login marketing feed
    /// (YardiUnits.unitList), the count the feed declares against the units it listed; skipped otherwise, saying why.
    static let ilsUnitCount = """
        SELECT 'units' AS measure,
               (SELECT max(declared_unit_count) FROM yardi_raw.yardi_available_units
                WHERE property_id = :property AND as_of_date = :available_rows) AS expected,
               (SELECT count(*) FROM unified_units WHERE unified_property_id = :property) AS actual,
               CASE WHEN EXISTS (SELECT 1 FROM yardi_raw.yardi_units WHERE property_id = :property
                                   AND as_of_date = :units_rows AND \(YardiUnits.isUnitRow))
                        THEN 'the units are GetUnitInformation''s (check unit_information)'
                    WHEN NOT EXISTS (SELECT 1 FROM unified_units WHERE unified_property_id = :property)
                        THEN 'no unit list as of ' || :as_of || ' (warning units_missing)'
                    WHEN NOT EXISTS (SELECT 1 FROM yardi_raw.yardi_available_units WHERE property_id = :property
                                       AND as_of_date = :available_rows AND declared_unit_count IS NOT NULL)
                        THEN 'AvailableUnits_Login declares no unit count as of ' || :as_of END AS skipped
        """

    /// One row per month and kind synced from a report: its snapshot's printed total (the last one of the measure
    /// whose label names the kind), against the synced sum. The Cash Basis G/L prints totals over every account only.
    ///
    /// Each report's total is looked up by its own measure, which the snapshot index (report, property, date,
    /// measure) finds: one lookup over both reports' measures read every total line of the month's snapshot, and a
    /// property checks every month it keeps, each night (0.5 ms a property the first week, 4.4 ms after a year; the
    /// lookup by measure takes 1.7 times less, the same totals on the 30 demo properties).
    static let incomeExpenseTotals = """
        WITH month_total (kind, month, report, as_of, actual) AS (
            SELECT 'expenses', month, source_report, max(source_as_of), sum(amount) FROM unified_expenses
            WHERE unified_property_id = :property AND source_report IS NOT NULL GROUP BY month, source_report
            UNION ALL
            SELECT 'income', month, source_report, max(source_as_of), sum(amount) FROM unified_income
            WHERE unified_property_id = :property GROUP BY month, source_report
        ),
        printed AS (
            SELECT m.*, CASE m.report
                WHEN 'income_statement' THEN (
                    SELECT t.printed FROM realpage_raw.loaded_report_totals t
                    WHERE t.report_type = 'income_statement' AND t.property_id = :property AND t.as_of_date = m.as_of
                      AND t.measure IN ('period amount', 'amount') AND upper(t.label) LIKE 'TOTAL%'
                      AND CASE m.kind WHEN 'expenses' THEN upper(t.label) LIKE '%EXPENSE%'
                               ELSE upper(t.label) NOT LIKE '%EXPENSE%'
                                    AND (upper(t.label) LIKE '%INCOME%' OR upper(t.label) LIKE '%REVENUE%') END
                    ORDER BY t.source_row DESC LIMIT 1)
                WHEN 'monthly_income_summary' THEN (
                    SELECT t.printed FROM realpage_raw.loaded_report_totals t
                    WHERE t.report_type = 'monthly_income_summary' AND t.property_id = :property
                      AND t.as_of_date = m.as_of AND t.measure = 'income cash basis'
                    ORDER BY t.source_row DESC LIMIT 1) END AS printed
            FROM month_total m
        )
        SELECT kind || ' ' || month AS measure,
               CASE WHEN report <> 'cash_basis_gl' THEN printed END AS expected,
               round(actual, 2) AS actual,
               CASE WHEN report = 'cash_basis_gl'
                        THEN 'the Cash Basis G/L Distribution prints totals over every account, none of ' || kind
                             || ': ' || month || ' not checked'
                    WHEN printed IS NULL
                        THEN 'the ' || CASE report WHEN 'income_statement' THEN 'Income Statement'
                                                   ELSE 'Monthly Income Summary' END
                             || ' of ' || as_of || ' prints no total ' || kind || ' line' END AS skipped
        FROM printed ORDER BY month, kind
        """

    /// One row per figure the latest Leasing Activity Detail on or before the property date prints in its
    /// `Totals for Property` (the Crystal block or the data-only Sheet2 row) that its rows can give: contacts of each
    /// type (Visit for visits), return visits, off-site conversions (Yes), the lease, waitlist and cancel marks and
    /// net leases (leases + waitlist − cancelled/denied) from the stored rows; new prospects against the leads
    /// OwnerDash counts on the snapshot's days (its first contact date to its as-of date), which differ where
    /// OneSite's guest cards began before every loaded snapshot. Not in ratio, net visits and close % are not
    /// checked (no row says which visit is out of ratio). No rows when no Leasing Activity Detail is loaded.
    static let leasingActivityTotals = """
        WITH snapshot AS (
            SELECT max(as_of_date) AS as_of_date FROM realpage_raw.loaded_artifacts
            WHERE report_type = 'leasing_activity_detail' AND property_id = :property AND as_of_date <= :as_of
        ),
        contact AS (
            SELECT l.* FROM realpage_raw.realpage_leasing_activity_detail l
            WHERE l.property_id = :property AND l.as_of_date = (SELECT as_of_date FROM snapshot)
        ),
        printed AS (
            SELECT t.measure, t.printed FROM realpage_raw.loaded_report_totals t
            WHERE t.report_type = 'leasing_activity_detail' AND t.property_id = :property
              AND t.as_of_date = (SELECT as_of_date FROM snapshot) AND lower(t.label) LIKE 'totals for property%'
              AND t.measure NOT IN ('not in ratio', 'net visits')
              AND t.source_row = (SELECT max(source_row) FROM realpage_raw.loaded_report_totals
                                  WHERE report_type = t.report_type AND property_id = t.property_id
                                    AND as_of_date = t.as_of_date AND measure = t.measure
                                    AND lower(label) LIKE 'totals for property%')
        )
        SELECT p.measure AS measure, p.printed AS expected,
               CASE p.measure
                   WHEN 'new prospects' THEN (
                       SELECT count(*) FROM unified_activity a
                       WHERE a.unified_property_id = :property AND a.event_type = 'lead'
                         AND a.event_date BETWEEN (SELECT min(contact_date) FROM contact) AND (SELECT as_of_date FROM snapshot))
                   WHEN 'visits' THEN (SELECT count(*) FROM contact WHERE lower(trim(contact_type)) = 'visit')
                   WHEN 'return visits' THEN (SELECT coalesce(sum(return_visits), 0) FROM contact)
                   WHEN 'off-site conversions' THEN (SELECT count(*) FROM contact WHERE lower(trim(off_site_conversion)) = 'yes')
                   WHEN 'leases' THEN (SELECT coalesce(sum(leases), 0) FROM contact)
                   WHEN 'waitlist' THEN (SELECT coalesce(sum(waitlist), 0) FROM contact)
                   WHEN 'cancelled/denied' THEN (SELECT coalesce(sum(cancelled_denied), 0) FROM contact)
                   WHEN 'net leases' THEN (SELECT coalesce(sum(leases), 0) + coalesce(sum(waitlist), 0)
                                                  - coalesce(sum(cancelled_denied), 0) FROM contact)
                   ELSE (SELECT count(*) FROM contact
                         WHERE replace(replace(lower(contact_type), ' ', ''), '-', '')
                               = replace(replace(p.measure, ' ', ''), '-', ''))
               END AS actual,
               NULL AS skipped
        FROM printed p
        ORDER BY p.measure
        """

    static let ledgerOpenBalance = """
        SELECT 'net balance' AS measure,
               (SELECT sum(balance) FROM unified_household_balances WHERE unified_property_id = :property) AS expected,
               (SELECT coalesce(sum(current_balance), 0) FROM unified_delinquency
                WHERE unified_property_id = :property AND as_of_date = :as_of) AS actual,
               (SELECT CASE WHEN ledger_source IS NULL THEN 'no tenant ledger'
                            WHEN ledger_coverage = 'partial' THEN 'partial ledger (balances only): nothing to hold them against'
                            WHEN EXISTS (SELECT 1 FROM unified_charges WHERE unified_property_id = :property
                                           AND \(RealPageTransactionLedger.isBalanceForwardLine("unified_charges"))
                                           AND description LIKE '%as of ' || :as_of || ' less%')
                                THEN 'the balance forward was taken from this same Delinquent and Prepaid report: not an independent check'
                            WHEN NOT EXISTS (SELECT 1 FROM unified_household_balances WHERE unified_property_id = :property)
                                THEN 'no household balances synced'
                            WHEN NOT EXISTS (SELECT 1 FROM unified_delinquency WHERE unified_property_id = :property
                                               AND as_of_date = :as_of)
                                THEN 'no delinquency report as of ' || :as_of || ' to hold the balances against' END
                FROM unified_properties WHERE unified_property_id = :property) AS skipped
        """

    /// Yardi's stand-in for `ledger_open_balance`, whose delinquency is its own ledger's: a posting dated before every
    /// window (a credit to a months-old charge) lowers that charge's BalanceDue, which the answer by application date
    /// brings, while the credit itself is in no window. The household's window balance then exceeds what is open by
    /// the credit: a `ledger_window` gap (YardiDelinquency.windowGaps) that the last whole ledger did not have, or had
    /// smaller. Gaps the whole ledger has too (payments before its reach, transfers in: real Voyager exports have them
    /// for good) pass, and so do gaps that shrank. Held household by household against the gaps the last whole ledger
    /// left (`sync_yardi_gap_baselines`, `recordGapBaseline`), not the last sync's, so a re-sync of the night answers
    /// as its first sync did: expected is the part of tonight's gaps the whole ledger had, actual tonight's whole, so a
    /// gap new or larger fails by that much. Skipped on a night the ledger is whole (`ledger_whole_as_of` unset: the
    /// baseline is made that night), and when the baseline is not that of the ledger's last whole pull.
    static let ledgerWindowGaps = """
        WITH tonight AS (\(windowGaps)),
        baseline AS (
            SELECT g.key AS household, g.value AS cents
            FROM main.sync_yardi_gap_baselines b, json_each(b.gaps) g
            WHERE b.unified_property_id = :property
        )
        SELECT 'window gaps' AS measure,
               (SELECT coalesce(sum(min(t.cents, coalesce(b.cents, 0))), 0)
                FROM tonight t LEFT JOIN baseline b USING (household)) / 100.0 AS expected,
               (SELECT coalesce(sum(cents), 0) FROM tonight) / 100.0 AS actual,
               (SELECT CASE WHEN p.ledger_source IS NULL THEN 'no tenant ledger'
                            WHEN p.ledger_whole_as_of IS NULL
                                THEN 'the ledger is whole as of ' || :as_of || ': its gaps are the whole ledger''s, kept to hold the next nights'' against'
                            WHEN b.whole_as_of IS NOT p.ledger_whole_as_of
                                THEN 'no window gaps kept from the whole ledger of ' || p.ledger_whole_as_of
                                     || ' (synced by an earlier build) to hold tonight''s against'
                       END
                FROM unified_properties p
                LEFT JOIN main.sync_yardi_gap_baselines b ON b.unified_property_id = p.unified_property_id
                WHERE p.unified_property_id = :property) AS skipped
        """

    /// Tonight's window gaps, a row per household (`household`, `cents`): its `ledger_window` warning
    /// (`YardiDelinquency.windowGaps`), the window balance beyond what is open. What `ledgerWindowGaps` holds against
    /// the baseline and `recordGapBaseline` keeps as one.
    static let windowGaps = """
        SELECT subject AS household,
               CAST(round((CAST(actual AS REAL) - CAST(expected AS REAL)) * 100) AS INTEGER) AS cents
        FROM unified_sync_warnings WHERE unified_property_id = :property AND check_name = 'ledger_window'
        """

    /// After the checks, on a night the Yardi ledger is whole: its window gaps (tonight's `ledger_window` warnings) are
    /// what `ledgerWindowGaps` holds the next incremental nights' against.
    static let recordGapBaseline = """
        INSERT INTO main.sync_yardi_gap_baselines (unified_property_id, whole_as_of, gaps)
        SELECT :property, :as_of, (SELECT json_group_object(household, cents) FROM (\(windowGaps)))
        FROM unified_properties
        WHERE unified_property_id = :property AND ledger_source IS NOT NULL AND ledger_whole_as_of IS NULL
        ON CONFLICT (unified_property_id) DO UPDATE SET whole_as_of = excluded.whole_as_of, gaps = excluded.gaps
        """

    /// Per fiscal period of a ledger read from Transaction Detail by Code (RealPageTransactionLedger): its charges,
    /// credits and payments against the Summary sheet of the same snapshot — the printed debit − credit per code on the
    /// resident ledger accounts (receivable: the account the period's charges debit; prepaid: the other account its
    /// payments credit), credits and payments negated, over the codes the Detail sheet prints (Summary-only transfers
    /// such as `PMTMOVE`, a payment moved to a deposit, print no Detail row and are in neither) — and the ledger's
    /// manual and change charges (sources `M`, `C`) against the Charge and Adjustment Journal's printed `Totals`
    /// (rent + other) for the period. No rows when no Transaction Detail by Code is loaded.
    static let transactionDetailTotals = """
        WITH covered AS (\(RealPageTransactionLedger.covered)),
        receivable AS (
            SELECT c.period, c.as_of_date,
                   (SELECT d.debit_gl_account FROM realpage_raw.realpage_transaction_detail d
                    WHERE d.property_id = :property AND d.as_of_date = c.as_of_date AND d.transaction_code LIKE 'C-%'
                      AND d.amount > 0 AND d.debit_gl_account IS NOT NULL
                      AND substr(d.fiscal_period, 3, 4) || '-' || substr(d.fiscal_period, 1, 2) = c.period
                    GROUP BY d.debit_gl_account ORDER BY count(*) DESC, d.debit_gl_account LIMIT 1) AS receivable
            FROM covered c
        ),
        account AS (
            SELECT r.*,
                   (SELECT d.credit_gl_account FROM realpage_raw.realpage_transaction_detail d
                    WHERE d.property_id = :property AND d.as_of_date = r.as_of_date AND d.transaction_code LIKE 'P-PZ-%'
                      AND d.amount > 0 AND d.credit_gl_account IS NOT NULL AND d.credit_gl_account IS NOT r.receivable
                      AND substr(d.fiscal_period, 3, 4) || '-' || substr(d.fiscal_period, 1, 2) = r.period
                    GROUP BY d.credit_gl_account ORDER BY count(*) DESC, d.credit_gl_account LIMIT 1) AS prepaid
            FROM receivable r
        ),
        printed AS (
            SELECT a.period,
                   CASE WHEN s.transaction_code LIKE 'C-%' THEN 'charges' WHEN s.transaction_code LIKE 'P-PZ-%' THEN 'payments'
                        WHEN s.transaction_code LIKE 'P-%' THEN 'credits' END AS kind,
                   sum(coalesce(s.debit, 0) - coalesce(s.credit, 0)) AS net
            FROM account a
            JOIN realpage_raw.realpage_transaction_detail_summary s ON s.property_id = :property AND s.as_of_date = a.as_of_date
            WHERE s.gl_account IN (a.receivable, a.prepaid)
              AND s.transaction_code IN (SELECT d.transaction_code FROM realpage_raw.realpage_transaction_detail d
                                         WHERE d.property_id = :property AND d.as_of_date = a.as_of_date)
            GROUP BY 1, 2
        ),
        journal AS (
            SELECT fiscal_period AS period, max(as_of_date) AS as_of_date FROM realpage_raw.realpage_charge_journal
            WHERE property_id = :property GROUP BY fiscal_period
        ),
        not_read (reason) AS (
            SELECT CASE WHEN ledger_source IS NOT '\(RealPageTransactionLedger.source)'
                        THEN 'the ledger is ' || coalesce(ledger_source, 'missing') || ', not read from Transaction Detail by Code' END
            FROM unified_properties WHERE unified_property_id = :property
        ),
        kind (kind, sign) AS (VALUES ('charges', 1), ('credits', -1), ('payments', -1))
        SELECT k.kind || ' ' || a.period AS measure,
               CASE WHEN EXISTS (SELECT 1 FROM realpage_raw.realpage_transaction_detail_summary s
                                 WHERE s.property_id = :property AND s.as_of_date = a.as_of_date)
                    THEN k.sign * round(coalesce((SELECT sum(net) FROM printed p WHERE p.period = a.period AND p.kind = k.kind), 0), 2)
               END AS expected,
               CASE k.kind
                   WHEN 'charges' THEN (SELECT round(coalesce(sum(amount), 0), 2) FROM unified_charges
                                        WHERE unified_property_id = :property AND charge_id LIKE 'tdc:' || a.period || ':%')
                   WHEN 'credits' THEN (SELECT -round(coalesce(sum(amount), 0), 2) FROM unified_charges
                                        WHERE unified_property_id = :property AND charge_id LIKE 'tdr:' || a.period || ':%')
                   ELSE (SELECT round(coalesce(sum(amount), 0), 2) FROM unified_payments
                         WHERE unified_property_id = :property AND payment_id LIKE 'tdp:' || a.period || ':%')
               END AS actual,
               coalesce((SELECT reason FROM not_read),
                        CASE WHEN NOT EXISTS (SELECT 1 FROM realpage_raw.realpage_transaction_detail_summary s
                                              WHERE s.property_id = :property AND s.as_of_date = a.as_of_date)
                             THEN 'no Summary sheet loaded with the Detail of ' || a.as_of_date END) AS skipped
        FROM account a CROSS JOIN kind k
        UNION ALL
        SELECT 'journal ' || a.period,
               (SELECT round(sum(t.printed), 2) FROM realpage_raw.loaded_report_totals t
                WHERE t.report_type = 'charge_journal' AND t.property_id = :property AND t.as_of_date = j.as_of_date
                  AND t.label = 'Totals' AND t.measure IN ('rent', 'other')),
               (SELECT round(coalesce(sum(c.amount), 0), 2) FROM unified_charges c
                JOIN realpage_raw.realpage_transaction_detail d
                  ON d.property_id = :property AND d.as_of_date = a.as_of_date
                 AND c.charge_id = 'tdc:' || a.period || ':' || d.source_row
                WHERE c.unified_property_id = :property AND c.charge_id LIKE 'tdc:' || a.period || ':%'
                  AND (d.source LIKE 'M =%' OR d.source LIKE 'C =%')),
               coalesce((SELECT reason FROM not_read),
                        CASE WHEN j.as_of_date IS NULL
                             THEN 'no Charge and Adjustment Journal (4039) loaded for fiscal period ' || a.period END)
        FROM account a LEFT JOIN journal j ON j.period = a.period
        """
}

extension Double {
    fileprivate var roundedToCents: Double { (self * 100).rounded() / 100 }

    /// `352`, `-96267.53`: counts as integers, amounts to the cent.
    fileprivate var checkFigure: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(format: "%.2f", self)
    }
}
