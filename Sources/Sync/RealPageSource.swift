import OwnerDashCore
import SQLiteKit

/// RealPage rules: the RPX SOAP snapshots (unitlist, getresidentlistinfo, getleaseinfo) win for units, people and
/// leases; the OneSite reports give what RPX lacks (floorplan codes, the delinquency aging, the prospect activity)
/// and stand in for RPX when it is missing (the Rent Roll for units and residents, the Activity report for resident
/// events). One file per unified table under `RealPage/`, each saying which source wins.
///
/// Property date: the PMS's own date, RPX `getsitelist` `SysDate` (date part) of the latest getsitelist snapshot;
/// without one, the as-of date of the latest Rent Roll or Box Score snapshot; without those, the latest as-of date
/// of anything loaded for the property.
///
/// Snapshots read (`RealPageSnapshots`): each RPX operation's latest snapshot (RPX answers "now", its as-of date is
/// only the day it was fetched); each report's latest snapshot dated on or before the property date, else its
/// latest. `RealPageCrossChecks` warns when a report is read from another date than the property date.
struct RealPageSource: PropertySource {
    func propertyDate(_ context: SyncContext) throws -> LocalDate? {
        guard let text = try context.database.scalar(Self.propertyDateQuery, [":property": .text(context.property.key)])?.textValue else {
            return nil
        }
        guard let date = LocalDate(iso: text) else {
            throw RealPageRuleError("the property date '\(text)' (getsitelist SysDate, else a report as-of date) is not YYYY-MM-DD")
        }
        return date
    }

    func sync(_ context: SyncContext, asOf: LocalDate) throws -> SourceSyncResult {
        var realpage = try RealPageSync(context: context, asOf: asOf)
        try RealPageScratch.make(realpage)
        // Unknown vocabulary fails the property before anything is written (see each rule file).
        try RealPageUnits.requireKnownStatuses(realpage)
        try RealPageResidents.requireKnownStatuses(realpage)
        try RealPageLeases.requireKnownStatuses(realpage)
        var rows: [String: Int] = [:]
        let unitSource: String
        if realpage.hasUnitList {
            rows["unified_units"] = try realpage.run(RealPageUnits.insertFromUnitList)
            unitSource = RealPageUnits.unitListSource
        } else {
            rows["unified_units"] = try realpage.run(RealPageUnits.insertFromRentRoll)
            unitSource = RealPageUnits.rentRollSource
        }
        // The report events of the days a snapshot changed (all on a full sync), the resident events whole or of the
        // households whose rows moved, and those households' residents and leases (RealPageEventHouseholds). Not the
        // residents and leases where the ledger comes from the reports: RealPageTransactionLedger and
        // RealPageReportLedger read every one of the twins.
        let activityDays = try RealPageActivityDays(realpage, byChange: context.byChange)
        realpage.activityFrom = activityDays.from
        realpage.eventsByHousehold = activityDays.households.byHousehold
        let hasLedger = realpage.hasLedger
        let leasesByHousehold = activityDays.households.byHousehold && hasLedger
        realpage.residentsByHousehold = leasesByHousehold && activityDays.households.undashed
        if realpage.hasResidents {
            rows["unified_residents"] = try realpage.run(RealPageResidents.insert(byHousehold: realpage.residentsByHousehold))
        } else {
            rows["unified_residents"] = try realpage.run(RealPageResidents.insertFromRentRoll)
        }
        rows["unified_leases"] = try realpage.run(RealPageLeases.insert(byHousehold: leasesByHousehold))
        rows["unified_lease_residents"] = try realpage.run(RealPageLeases.insertLeaseResidents(byHousehold: leasesByHousehold))
        try RealPageScratch.makeReportActivity(realpage)
        rows["unified_activity"] = try realpage.run(RealPageActivity.insertReportEvents)
            + realpage.run(RealPageActivity.insertResidentEvents(byHousehold: activityDays.households.byHousehold))
        rows["unified_delinquency"] = try realpage.run(RealPageDelinquency.insert, [":source": .text(RealPageDelinquency.source)])
        // By change (LedgerDelta): only the ledger rows written since the last sync are projected, over main's rows.
        let (deltaLeft, projection) = try LedgerDelta.begin(context, fromLedger: hasLedger)
        rows["unified_charges"] = try realpage.run(RealPageLedger.insertCharges(projection), projection.parameters)
        rows["unified_payments"] = try realpage.run(RealPageLedger.insertPayments(projection), projection.parameters)
        // The balance-forward lines by household when the rules projected the ledger by change (LedgerDelta): those
        // whose household can have moved are set aside and written again, the others stay; else every household's.
        var forwardByChange = false
        if projection.since != nil, let deltaLeft, let delta = context.ledgerDelta {
            forwardByChange = try delta.listRewrittenHouseholds(context, left: deltaLeft)
            if forwardByChange {
                try realpage.run(RealPageLedger.listMovedForwardHouseholds, projection.parameters)
            }
            try delta.setAsideBalanceForward(context, forwardByChange ? .rewrittenHouseholds : .all)
        }
        let postings = try RealPagePostings.make(realpage, hasLedger: hasLedger, linesByChange: forwardByChange,
                                                 left: deltaLeft)
        rows["unified_charges", default: 0] += try realpage.run(RealPageLedger.insertBalanceForward(byChange: forwardByChange),
                                                                projection.parameters)
        // Kept as main holds it while the schedule it reads is unchanged (InputMarks, `ruleInputs`).
        if !context.inputMarks.kept.contains("unified_recurring_charges") {
            rows["unified_recurring_charges"] = try realpage.run(RealPageLedger.insertRecurring)
        }
        var result = SourceSyncResult(rows: rows, unitSource: unitSource, ledgerSource: hasLedger ? RealPageLedger.source : nil)
        result.ledgerDeltaLeft = deltaLeft
        result.activityDays = activityDays
        if leasesByHousehold { result.scopes.merge(RealPageLeases.householdScopes) { $1 } }
        if realpage.residentsByHousehold { result.scopes["unified_residents"] = RealPageResidents.householdScope }
        result.realpagePostings = postings
        if hasLedger {
            result.noteWholeLedger(try realpage.rows(RealPageLedger.wholeAsOf).first?.first?.textValue,
                                   merged: realpage.snapshots.dates["getresidentledger"])
        }
        result.hasDelinquency = realpage.snapshots.dates["delinquency"] != nil
        if !hasLedger, let periods = try RealPageSource.transactionDetailPeriods(realpage) {
            // Transaction Detail by Code: the posted charges, credits and payments of the periods it covers.
            result.rows["unified_charges"] = try realpage.run(RealPageTransactionLedger.insertCharges)
            result.rows["unified_payments"] = try realpage.run(RealPageTransactionLedger.insertPayments)
            let forward = try realpage.rows(RealPageTransactionLedger.balanceForwardSnapshot).first
            let forwardSnapshot = forward?[0].textValue
            if let forwardSnapshot {
                result.rows["unified_charges", default: 0] += try realpage.run(RealPageTransactionLedger.insertBalanceForward, [
                    ":balance_forward_snapshot": .text(forwardSnapshot), ":balance_forward_day": SQLValue(forward?[1].textValue),
                    ":balance_forward_period": SQLValue(forward?[2].textValue),
                ])
            }
            try realpage.run(RealPageTransactionLedger.allocateOpenBalances)
            if result.rows["unified_recurring_charges"] == 0 {
                result.rows["unified_recurring_charges"] = try realpage.run(RealPageReportLedger.insertSchedule)
            }
            result.ledgerSource = RealPageTransactionLedger.source
            result.ledgerNote = RealPageTransactionLedger.note(periods: periods, balanceForward: forwardSnapshot)
        } else if !hasLedger, try realpage.rows(RealPageReportLedger.hasSnapshots).first?.first?.integerValue == 1 {
            result.rows["unified_ledger_balances"] = try realpage.run(
                RealPageReportLedger.insertBalances, [":source": .text(RealPageReportLedger.balancesSource)])
            if result.rows["unified_recurring_charges"] == 0 {
                result.rows["unified_recurring_charges"] = try realpage.run(RealPageReportLedger.insertSchedule)
            }
            result.ledgerSource = RealPageReportLedger.source
            result.partialLedgerNote = RealPageReportLedger.note
        }
        if try realpage.rows(RealPageMaintenance.hasSnapshots).first?.first?.integerValue == 1 {
            let source: [String: SQLValue] = [":source": .text(RealPageMaintenance.source)]
            // By change (RealPageClosedTurns): only the turns the snapshots loaded since the last sync list.
            let turns = try RealPageClosedTurns(realpage, byChange: context.byChange)
            try RealPageMaintenance.makeClosedTurns(realpage, turns: turns)
            result.rows["unified_work_orders"] = try realpage.run(RealPageMaintenance.insertClosed, source)
                + realpage.run(RealPageMaintenance.insertOpen(byChange: !turns.isWhole), source)
            result.rows["unified_work_order_lines"] = try realpage.run(RealPageMaintenance.insertLines, source)
            result.rows["unified_make_ready_periods"] = try realpage.run(
                RealPageMaintenance.insertPeriods, [":analysis_source": .text(RealPageMaintenance.analysisSource)])
            result.workOrderSource = RealPageMaintenance.source
            result.snapshotMarks.append(turns.mark)
            result.scopes.merge(turns.scopes) { $1 }
        }
        let hasExpenses = try realpage.rows(RealPageExpenses.hasSnapshots).first?.first?.integerValue == 1
        let hasIncome = try realpage.rows(RealPageExpenses.hasIncomeSnapshots).first?.first?.integerValue == 1
        if hasExpenses || hasIncome {
            // By change (RealPageExpenseMonths): only the months the snapshots loaded since the last sync cover.
            let months = try RealPageExpenseMonths(realpage, byChange: context.byChange)
            if hasExpenses {
                try RealPageExpenses.fillAccountCategories(context)
                result.rows["unified_expenses"] = try realpage.run(RealPageExpenses.insert(byMonth: !months.isWhole),
                                                                   RealPageExpenses.reportSources)
                try months.keepOtherMonths("unified_expenses", context)
                result.expenseSource = RealPageExpenses.source
            }
            if hasIncome {
                try RealPageExpenses.fillIncomeCategories(context)
                result.rows["unified_income"] = try realpage.run(RealPageExpenses.insertIncome(byMonth: !months.isWhole),
                                                                 RealPageExpenses.reportSources)
                try months.keepOtherMonths("unified_income", context)
                result.incomeSource = RealPageExpenses.incomeSource
            }
            result.snapshotMarks.append(months.mark)
            result.scopes.merge(months.scopes((hasExpenses ? ["unified_expenses"] : []) + (hasIncome ? ["unified_income"] : []))) { $1 }
        }
        return result
    }

    /// The fiscal periods a Transaction Detail by Code snapshot covers for the property, oldest first; nil when none.
    static func transactionDetailPeriods(_ realpage: RealPageSync) throws -> [String]? {
        guard try realpage.rows(RealPageTransactionLedger.hasSnapshots).first?.first?.integerValue == 1,
              try realpage.rows(RealPageTransactionLedger.hasRows).first?.first?.integerValue == 1 else { return nil }
        let periods = try realpage.rows(RealPageTransactionLedger.covered).compactMap { $0.first?.textValue }
        return periods.isEmpty ? nil : periods
    }

    /// After `sync` of the same property, in its transaction: reads the RealPageScratch tables it made.
    func crossCheck(_ context: SyncContext, asOf: LocalDate) throws -> [SyncWarning] {
        try RealPageCrossChecks.warnings(RealPageSync(context: context, asOf: asOf))
    }

    /// The recurring charges' inputs where they come from getscheduledcharges (`RealPageLedger.recurringInputs`): a
    /// site without the RPX ledger may take them from the reports (`RealPageReportLedger.insertSchedule`), which read
    /// what changes every night, so there the rule runs every night.
    func ruleInputs(_ context: SyncContext) throws -> [String: [String]] {
        guard let asOf = try propertyDate(context) else { return [:] }
        let realpage = try RealPageSync(context: context, asOf: asOf)
        guard realpage.hasLedger, realpage.snapshots.dates["getscheduledcharges"] != nil else { return [:] }
        return ["unified_recurring_charges": InputMarks.fields(try realpage.rows(RealPageLedger.recurringInputs))]
    }

    static let propertyDateQuery = """
        WITH latest_site AS (
            SELECT max(as_of_date) AS as_of_date FROM realpage_raw.loaded_artifacts
            WHERE property_id = :property AND report_type = 'getsitelist'
        ),
        sys_date AS (
            SELECT substr(s.sys_date, 1, 10) AS day
            FROM realpage_raw.realpage_sites s, latest_site
            WHERE s.property_id = :property AND s.as_of_date = latest_site.as_of_date AND s.sys_date IS NOT NULL
            ORDER BY s.source_row LIMIT 1
        )
        SELECT coalesce(
            (SELECT day FROM sys_date),
            (SELECT max(as_of_date) FROM realpage_raw.loaded_artifacts
             WHERE property_id = :property AND report_type IN ('rent_roll', 'box_score')),
            (SELECT max(as_of_date) FROM realpage_raw.loaded_artifacts WHERE property_id = :property))
        """
}

/// The snapshots one RealPage property's sync reads: the as-of date chosen for each report or RPX operation.
struct RealPageSnapshots {
    /// RPX operations (`loaded_artifacts.report_type`) and the SQL parameter naming each one's snapshot date.
    static let rpx: [(operation: String, parameter: String)] = [
        ("getsitelist", ":sites_snapshot"),
        ("unitlist", ":units_snapshot"),
        ("getunitlist", ":unit_objects_snapshot"),
        ("getresidentlistinfo", ":residents_snapshot"),
        ("getleaseinfo", ":leases_snapshot"),
        ("getresidentledger", ":ledger_snapshot"),
        ("getscheduledcharges", ":scheduled_charges_snapshot"),
    ]
    /// OneSite reports (`loaded_artifacts.report_type`) and their snapshot parameters.
    static let reports: [(report: String, parameter: String)] = [
        ("rent_roll", ":rent_roll_snapshot"),
        ("box_score", ":box_score_snapshot"),
        ("delinquency", ":delinquency_snapshot"),
        ("activity", ":activity_snapshot"),
        ("leasing_activity_detail", ":lead_detail_snapshot"),
        ("monthly_summary", ":monthly_summary_snapshot"),
        ("make_ready_summary", ":make_ready_snapshot"),
    ]

    /// report_type -> as-of date of the snapshot read.
    var dates: [String: String] = [:]
    /// report_type -> as-of date of the rows holding that snapshot (another date when it was recorded unchanged).
    var rowsDates: [String: String] = [:]

    /// RPX: the latest snapshot; reports: the latest on or before the property date, else the latest.
    init(_ context: SyncContext, asOf: LocalDate) throws {
        let rowsDate = try StoredSnapshots.rowsDate(context.database, schema: "realpage_raw")
        let rows = try context.database.query(Self.chosen(rowsDate: rowsDate),
                                              [":property": .text(context.property.key), ":as_of": .text(asOf.iso)])
        for row in rows {
            if let report = row[0].textValue, let date = row[1].textValue {
                dates[report] = date
                rowsDates[report] = row[2].textValue ?? date
            }
        }
    }

    /// `:units_snapshot` ... bound to the rows dates of the chosen snapshots (NULL, which matches no row, when
    /// nothing is loaded), `:units_snapshot_date` ... to their own dates.
    var parameters: [String: SQLValue] {
        var values: [String: SQLValue] = [:]
        for (key, parameter) in Self.rpx.map({ ($0.operation, $0.parameter) }) + Self.reports.map({ ($0.report, $0.parameter) }) {
            values[parameter] = SQLValue(rowsDates[key])
            values[parameter + "_date"] = SQLValue(dates[key])
        }
        return values
    }

    /// Each report's or operation's chosen date and the date its rows are stored under. The parts of the merged
    /// ledger an incremental night loads (`getresidentledger.dated`, `.open`) count as the ledger: its date is the
    /// latest any of them brought it up to (no single loaded artifact stands for it, hence the outer join).
    static func chosen(rowsDate: String) -> String {
        """
        WITH chosen AS (
            SELECT CASE WHEN report_type LIKE 'getresidentledger.%' THEN 'getresidentledger' ELSE report_type END
                       AS report_type,
                   CASE WHEN report_type IN ('getsitelist', 'getbuildings', 'unitlist', 'getunitlist',
                                             'getresidentlistinfo', 'getleaseinfo', 'getrentableitems',
                                             'getresidentledger', 'getscheduledcharges')
                             OR report_type LIKE 'getresidentledger.%'
                        THEN max(as_of_date)
                        ELSE coalesce(max(CASE WHEN as_of_date <= :as_of THEN as_of_date END), max(as_of_date)) END
                       AS as_of_date
            FROM realpage_raw.loaded_artifacts
            WHERE property_id = :property
            GROUP BY 1
        )
        SELECT c.report_type, c.as_of_date, \(rowsDate)
        FROM chosen c
        LEFT JOIN realpage_raw.loaded_artifacts l
          ON l.report_type = c.report_type AND l.property_id = :property AND l.as_of_date = c.as_of_date
        """
    }
}

/// One RealPage property being synced: runs rule SQL with `:property`, `:as_of`, `:run_id`, the snapshot dates and
/// the source choices (`:units_from_rpx`, `:residents_from_rpx`) bound.
struct RealPageSync {
    let context: SyncContext
    let asOf: LocalDate
    let snapshots: RealPageSnapshots
    /// The unitlist snapshot read holds units: RPX wins for units, else the Rent Roll stands in.
    let hasUnitList: Bool
    /// The getresidentlistinfo snapshot read holds residents: RPX wins for people and resident events.
    let hasResidents: Bool
    /// The first day of report events the sync computes (`:activity_from`, RealPageActivityDays): the context's
    /// until the activity rule decides it.
    var activityFrom: String
    /// The resident events were computed for the households of `temp.event_households` alone
    /// (`:events_by_household`, RealPageEventHouseholds): the context's until the activity rule decides it.
    var eventsByHousehold: Bool
    /// The residents were computed for the households of `temp.event_households` alone (`:residents_by_household`,
    /// which the balance-forward lines' lease lookup follows: RealPageLedger.forwardLease).
    var residentsByHousehold = false

    init(context: SyncContext, asOf: LocalDate) throws {
        self.context = context
        self.asOf = asOf
        activityFrom = context.activityFrom
        eventsByHousehold = context.eventsByHousehold
        snapshots = try RealPageSnapshots(context, asOf: asOf)
        let parameters = snapshots.parameters.merging([":property": .text(context.property.key)]) { $1 }
        hasUnitList = try context.database.scalar("""
            SELECT EXISTS (SELECT 1 FROM realpage_raw.realpage_units
                           WHERE property_id = :property AND as_of_date = :units_snapshot)
            """, parameters.filter { [":property", ":units_snapshot"].contains($0.key) })?.integerValue == 1
        hasResidents = try context.database.scalar("""
            SELECT EXISTS (SELECT 1 FROM realpage_raw.realpage_residents
                           WHERE property_id = :property AND as_of_date = :residents_snapshot)
            """, parameters.filter { [":property", ":residents_snapshot"].contains($0.key) })?.integerValue == 1
    }

    /// The RPX ledger (getresidentledger) is read: the ledger, and the schedule where getscheduledcharges gives one,
    /// are RPX's; else the reports' (RealPageTransactionLedger, RealPageReportLedger), if any.
    var hasLedger: Bool { snapshots.dates["getresidentledger"] != nil }

    var parameters: [String: SQLValue] {
        snapshots.parameters.merging([
            ":run_id": .text(context.runID),
            ":units_from_rpx": .integer(hasUnitList ? 1 : 0),
            ":residents_from_rpx": .integer(hasResidents ? 1 : 0),
            ":activity_from": .text(activityFrom),
            ":events_by_household": .integer(eventsByHousehold ? 1 : 0),
            ":residents_by_household": .integer(residentsByHousehold ? 1 : 0),
        ]) { $1 }
    }

    /// Runs one INSERT rule (with any extra parameters); returns the rows it wrote.
    @discardableResult
    func run(_ sql: String, _ extra: [String: SQLValue] = [:]) throws -> Int {
        try context.run(sql, asOf: asOf, parameters.merging(extra) { $1 })
    }

    /// Runs one query (checks), binding only the parameters its SQL names.
    func rows(_ sql: String) throws -> [[SQLValue]] {
        try context.rows(sql, parameters.merging([":as_of": .text(asOf.iso)]) { $1 })
    }
}

/// Raw RealPage data the rules refuse to guess about (an unmapped status text): the property fails.
struct RealPageRuleError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
