import OwnerDashCore
import SQLiteKit

/// Yardi rules: GetUnitInformation wins for units (AvailableUnits and GetResidentsByStatus fill in dates and rents),
/// GetResidentsByStatus for residents, leases and resident events, GetResidentTransactions_Login for delinquency,
/// GetYardiGuestActivity_Login for the leasing funnel, GetServiceRequest_Search for work orders, GetInvoiceRegister for
/// operating expenses. One file per unified table under `Yardi/`.
///
/// Property date: Yardi payloads carry none, so it is the as-of date of the latest GetUnitInformation snapshot
/// (the unit statuses every occupancy number comes from). Every other operation is read from its latest snapshot
/// on or before that date, else from its latest; a snapshot of another date, or none, is reported by `crossCheck`.
///
/// Without any GetUnitInformation snapshot (the call failed, or the interface refused it) the property is still
/// synced from what did load — residents, leases, ledger, guest activity — as of the latest snapshot of any
/// operation. Where GetUnitInformation lists no unit (or did not load), the units come from the AvailableUnits_Login
/// marketing feed when it lists every unit the property declares (ItfILSGuestCard is often the only interface a
/// marketing partner holds: `YardiUnits.unitList`), and the sync says so (warning `unit_source`, and
/// unified_occupancy_metrics.source). Without either the property has no units: no occupancy or pricing snapshot
/// is written and the sync records the warning `units_missing`, which the metrics repeat when they leave the
/// property out (never a zero); its delinquency and ledger reports answer from the ledger all the same.
struct YardiSource: PropertySource {
    func propertyDate(_ context: SyncContext) throws -> LocalDate? {
        let property: [String: SQLValue] = [":property": .text(context.property.key)]
        let loaded = try context.database.query(Self.loadedOperations, property)
        guard !loaded.isEmpty else { return nil }
        guard let text = try context.database.scalar(Self.latestUnitSnapshot, property)?.textValue
            ?? context.database.scalar(Self.latestSnapshot, property)?.textValue else {
            let operations = loaded.compactMap { $0.first?.textValue }.joined(separator: ", ")
            throw SyncError.noRawData(property: context.property.key, detail: """
                no GetUnitInformation snapshot and no other data of the property in yardi_raw.db (loaded: \(operations))
                """)
        }
        guard let date = LocalDate(iso: text) else {
            throw YardiRuleError("GetUnitInformation snapshot has the as-of date '\(text)', not YYYY-MM-DD")
        }
        return date
    }

    func sync(_ context: SyncContext, asOf: LocalDate) throws -> SourceSyncResult {
        let yardi = try YardiSync(context: context, asOf: asOf)
        // Unknown vocabulary fails the property before anything is written (see YardiUnits, YardiResidents).
        try YardiUnits.requireKnownStatuses(yardi)
        try YardiResidents.requireKnownStatuses(yardi)
        let unitList = try YardiUnits.unitList(yardi)
        if case .ilsFeed = unitList { try YardiUnits.requireKnownILSStatuses(yardi) }
        var rows: [String: Int] = [:]
        switch unitList {
        case .unitInformation: rows["unified_units"] = try yardi.run(YardiUnits.insert)
        case .ilsFeed: rows["unified_units"] = try yardi.run(YardiUnits.insertFromILS)
        case .none: rows["unified_units"] = 0
        }
        let hasLedger = yardi.snapshots.dates["GetResidentTransactions_Login"] != nil
        // The households' balances first: the residents read theirs from it.
        let households = try YardiHouseholds.make(yardi, hasLedger: hasLedger)
        rows["unified_residents"] = try yardi.run(YardiResidents.insert)
        rows["unified_leases"] = try yardi.run(YardiLeases.insert)
        rows["unified_lease_residents"] = try yardi.run(YardiLeases.insertLeaseResidents)
        rows["unified_activity"] = try yardi.run(YardiActivity.insertGuestEvents) + yardi.run(YardiActivity.insertResidentEvents)
        rows["unified_delinquency"] = try yardi.run(YardiDelinquency.insert, [":source": .text(YardiDelinquency.source)])
        // By change (LedgerDelta): only the transactions written since the last sync are projected, over main's rows.
        let (deltaLeft, projection) = try LedgerDelta.begin(context, fromLedger: hasLedger)
        rows["unified_charges"] = try yardi.run(YardiLedger.insertCharges(projection), projection.parameters)
        rows["unified_payments"] = try yardi.run(YardiLedger.insertPayments(projection), projection.parameters)
        // After both: the gap between the window's charges − payments and BalanceDue, carried forward (every household's
        // line written again: on a night by change, the stored ones are set aside first).
        if projection.since != nil, let delta = context.ledgerDelta {
            try delta.setAsideBalanceForward(context, .all)
        }
        rows["unified_charges", default: 0] += try yardi.run(YardiLedger.insertBalanceForward)
        // Kept as main holds it while the lease-charge statements it reads are unchanged (InputMarks).
        if !context.inputMarks.kept.contains("unified_recurring_charges") {
            try YardiLedger.makePeriodLeases(yardi)
            rows["unified_recurring_charges"] = try yardi.run(YardiLedger.insertRecurring)
        }
        let unitSource = if case .ilsFeed = unitList { YardiUnits.ilsSource } else { YardiUnits.source }
        var result = SourceSyncResult(rows: rows, unitSource: unitSource,
                                      ledgerSource: hasLedger ? YardiLedger.source : nil)
        result.ledgerDeltaLeft = deltaLeft
        result.yardiHouseholds = households
        if hasLedger {
            result.noteWholeLedger(try yardi.rows(YardiLedger.wholeAsOf).first?.first?.textValue,
                                   merged: yardi.snapshots.dates["GetResidentTransactions_Login"])
        }
        result.hasDelinquency = hasLedger
        // A service-request snapshot, even an empty one, is a work-order source; without one the reports say so.
        if yardi.snapshots.dates["GetServiceRequest_Search"] != nil {
            result.rows["unified_work_orders"] = try yardi.run(YardiMaintenance.insert, [":source": .text(YardiMaintenance.source)])
            result.workOrderSource = YardiMaintenance.source
        }
        // The same for expenses: an invoice register that landed (even empty) is an expense source; none (the entity
        // holds no ItfVendorInvoicing license, or the call failed) and `report expenses` says so.
        if yardi.snapshots.dates["GetInvoiceRegister"] != nil {
            try ExpenseAccountCategories.fill(context, accounts: YardiExpenses.accounts)
            result.rows["unified_expenses"] = try yardi.run(YardiExpenses.insert, [
                ":source": .text(YardiExpenses.source), ":requested_months": .integer(Int64(YardiExpenses.requestedMonths))])
            result.expenseSource = YardiExpenses.source
        }
        return result
    }

    func crossCheck(_ context: SyncContext, asOf: LocalDate) throws -> [SyncWarning] {
        try YardiCrossChecks.warnings(YardiSync(context: context, asOf: asOf))
    }

    func ruleInputs(_ context: SyncContext) throws -> [String: [String]] {
        guard let asOf = try propertyDate(context) else { return [:] }
        let yardi = try YardiSync(context: context, asOf: asOf)
        return ["unified_recurring_charges": InputMarks.fields(try yardi.rows(YardiLedger.recurringInputs))]
    }

    static let loadedOperations = """
        SELECT DISTINCT operation FROM yardi_raw.loaded_artifacts WHERE property_id = :property ORDER BY operation
        """

    /// The latest snapshot of the property's own data (GetPropertyConfigurations lists properties, it holds none).
    static let latestSnapshot = """
        SELECT max(as_of_date) FROM yardi_raw.loaded_artifacts
        WHERE property_id = :property AND operation <> 'GetPropertyConfigurations'
        """

    static let latestUnitSnapshot = """
        SELECT max(as_of_date) FROM yardi_raw.loaded_artifacts
        WHERE property_id = :property AND operation = 'GetUnitInformation'
        """
}

/// The snapshots one Yardi property's sync reads: the as-of date chosen for each operation (nil: none loaded).
struct YardiSnapshots {
    /// The operations the rules read and the SQL parameter naming each one's snapshot date.
    static let operations: [(operation: String, parameter: String)] = [
        ("GetUnitInformation", ":units_snapshot"),
        ("AvailableUnits_Login", ":available_snapshot"),
        ("GetResidentsByStatus", ":residents_snapshot"),
        ("GetResidentTransactions_Login", ":transactions_snapshot"),
        ("GetResidentLeaseCharges_Login", ":lease_charges_snapshot"),
        ("GetYardiGuestActivity_Login", ":guest_snapshot"),
        ("GetServiceRequest_Search", ":service_requests_snapshot"),
        ("GetInvoiceRegister", ":invoices_snapshot"),
    ]

    /// Operation name -> as-of date of the snapshot read.
    var dates: [String: String]
    /// Operation name -> as-of date of the rows holding that snapshot (another date when it was recorded unchanged).
    var rowsDates: [String: String]

    /// Each operation's latest snapshot on or before the property date, else its latest.
    init(_ context: SyncContext, asOf: LocalDate) throws {
        dates = [:]
        rowsDates = [:]
        let rowsDate = try StoredSnapshots.rowsDate(context.database, schema: "yardi_raw")
        let rows = try context.database.query(Self.chosen(rowsDate: rowsDate),
                                              [":property": .text(context.property.key), ":as_of": .text(asOf.iso)])
        for row in rows {
            if let operation = row[0].textValue, let date = row[1].textValue {
                dates[operation] = date
                rowsDates[operation] = row[2].textValue ?? date
            }
        }
    }

    /// `:units_snapshot` ... bound to the rows dates of the chosen snapshots (NULL, which matches no row, when an
    /// operation is missing), `:units_snapshot_date` ... to their own dates.
    var parameters: [String: SQLValue] {
        var values: [String: SQLValue] = [:]
        for (operation, parameter) in Self.operations {
            values[parameter] = SQLValue(rowsDates[operation])
            values[parameter + "_date"] = SQLValue(dates[operation])
        }
        return values
    }

    /// Each operation's chosen date and the date its rows are stored under. The windowed ledger calls of incremental
    /// nights (GetResidentTransactions_By...) count as GetResidentTransactions_Login: the merged ledger's date is the
    /// latest any of them brought it up to (no single loaded artifact stands for it, hence the outer join).
    static func chosen(rowsDate: String) -> String {
        """
        WITH chosen AS (
            SELECT CASE WHEN operation LIKE 'GetResidentTransactions\\_By%' ESCAPE '\\' THEN 'GetResidentTransactions_Login'
                        ELSE operation END AS operation,
                   coalesce(max(CASE WHEN as_of_date <= :as_of THEN as_of_date END), max(as_of_date)) AS as_of_date
            FROM yardi_raw.loaded_artifacts
            WHERE property_id = :property
            GROUP BY 1
        )
        SELECT c.operation, c.as_of_date, \(rowsDate)
        FROM chosen c
        LEFT JOIN yardi_raw.loaded_artifacts l
          ON l.operation = c.operation AND l.property_id = :property AND l.as_of_date = c.as_of_date
        """
    }
}

/// One Yardi property being synced: runs rule SQL with `:property`, `:as_of`, `:run_id` and the snapshot dates bound.
struct YardiSync {
    let context: SyncContext
    let asOf: LocalDate
    let snapshots: YardiSnapshots

    init(context: SyncContext, asOf: LocalDate) throws {
        self.context = context
        self.asOf = asOf
        snapshots = try YardiSnapshots(context, asOf: asOf)
    }

    var parameters: [String: SQLValue] {
        snapshots.parameters.merging([":run_id": .text(context.runID)]) { $1 }
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

    /// Fails the property when the `table` snapshot bound as `snapshot` lists a `key` more than once (the rules
    /// join on it, so each copy would count twice), naming the first five; `what` says who lists what
    /// (`GetUnitInformation lists a unit`).
    func requireListedOnce(_ key: String, in table: String, snapshot: String, _ what: String) throws {
        let duplicates = try rows("""
            SELECT \(key), count(*) FROM yardi_raw.\(table)
            WHERE property_id = :property AND as_of_date = \(snapshot)
            GROUP BY \(key) HAVING count(*) > 1
            ORDER BY \(key)
            LIMIT 5
            """)
        guard !duplicates.isEmpty else { return }
        let listed = duplicates.map { "\($0[0].textValue ?? "?") (\($0[1].integerValue ?? 0) rows)" }.joined(separator: ", ")
        throw YardiRuleError("\(what) more than once: \(listed)")
    }
}

/// Raw Yardi data the rules refuse to guess about (an unmapped status text, a duplicated key): the property fails.
struct YardiRuleError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
