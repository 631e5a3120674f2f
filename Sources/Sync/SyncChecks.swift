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
/// | ledger_open_balance | the tenant ledger's open balance (Σ unified_household_balances) | unified_delinquency's net balance | $0.00 |
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
        for check in checks where check.pms == nil || check.pms == context.property.pms {
            let statement = try database.prepare(check.sql)
            var values = context.propertyParameters
            values[":as_of"] = .text(asOf.iso)
            try statement.bind(values.filter { statement.hasParameter($0.key) })
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
        return results
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
        Check(name: "ledger_open_balance", pms: nil, expectedSource: "tenant ledger open balance",
              actualSource: "unified_delinquency net balance", tolerance: 0, sql: ledgerOpenBalance),
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
        WHERE t.report_type = '\(report)' AND t.property_id = :property AND t.as_of_date = :as_of
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
                          WHERE property_id = :property AND as_of_date = :as_of) END AS expected,
               (SELECT count(*) FROM unified_units WHERE unified_property_id = :property) AS actual,
               CASE WHEN NOT EXISTS (SELECT 1 FROM realpage_raw.loaded_artifacts WHERE report_type = 'rent_roll'
                                       AND property_id = :property AND as_of_date = :as_of)
                    THEN 'no Rent Roll loaded as of ' || :as_of END AS skipped
        """

    static let unitInformation = """
        SELECT 'units' AS measure,
               -- Yardi's own pseudo-rows (a waiting list, excluded non-residential codes) are listed with status
               -- Excluded or Waitlist and are not units (YardiUnits.statusVocabulary).
               (SELECT count(DISTINCT unit_code) FROM yardi_raw.yardi_units
                WHERE property_id = :property AND as_of_date = :as_of
                  AND lower(trim(coalesce(economic_status_description, economic_status, '')))
                      NOT IN ('excluded', 'waitlist')) AS expected,
               (SELECT count(*) FROM unified_units WHERE unified_property_id = :property) AS actual,
               CASE WHEN NOT EXISTS (SELECT 1 FROM yardi_raw.yardi_units WHERE property_id = :property
                                       AND as_of_date = :as_of)
                    THEN 'no GetUnitInformation units loaded as of ' || :as_of END AS skipped
        """

    static let ledgerOpenBalance = """
        SELECT 'net balance' AS measure,
               (SELECT sum(balance) FROM unified_household_balances WHERE unified_property_id = :property) AS expected,
               (SELECT coalesce(sum(current_balance), 0) FROM unified_delinquency
                WHERE unified_property_id = :property AND as_of_date = :as_of) AS actual,
               (SELECT CASE WHEN ledger_source IS NULL THEN 'no tenant ledger'
                            WHEN ledger_coverage = 'partial' THEN 'partial ledger (balances only): nothing to hold them against'
                            WHEN NOT EXISTS (SELECT 1 FROM unified_household_balances WHERE unified_property_id = :property)
                                THEN 'no household balances synced' END
                FROM unified_properties WHERE unified_property_id = :property) AS skipped
        """
}

extension Double {
    fileprivate var roundedToCents: Double { (self * 100).rounded() / 100 }

    /// `352`, `-96267.53`: counts as integers, amounts to the cent.
    fileprivate var checkFigure: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(format: "%.2f", self)
    }
}
