import OwnerDashCore
import Parse
import SQLiteKit

/// realpage_raw.db opened for writing and migrated to the current schema.
public final class RealPageRawStore {
    public let database: Database

    public init(path: String) throws {
        database = try Database(path: path)
        try RawRetention.prepareNew(database)
        try database.migrate(RealPageRawSchema.migrations)
    }

    /// The artifact already loaded for a report snapshot, if any.
    public func loadedArtifact(report: ReportType, property: String, asOf: LocalDate) throws -> (sha256: String, artifact: String)? {
        let row = try database.query("""
            SELECT artifact_sha256, artifact FROM loaded_artifacts
            WHERE report_type = :report AND property_id = :property AND as_of_date = :as_of
            """, [":report": .text(report.rawValue), ":property": .text(property), ":as_of": .text(asOf.iso)]).first
        guard let row, case .text(let sha) = row[0], case .text(let artifact) = row[1] else { return nil }
        return (sha, artifact)
    }

    /// Keeps the report's printed totals (and the sums they were held against) with the snapshot.
    func recordTotals(_ totals: [PrintedTotal], of report: ReportType, property: String, asOf: LocalDate,
                      runID: String, sha256: String) throws {
        let insert = try database.prepare("""
            INSERT INTO loaded_report_totals (report_type, property_id, as_of_date, run_id, artifact_sha256,
                                                source_row, label, measure, printed, computed)
            VALUES (:report, :property, :as_of, :run, :sha, :row, :label, :measure, :printed, :computed)
            """)
        for total in totals {
            try insert.execute([
                ":report": .text(report.rawValue), ":property": .text(property),
                ":as_of": .text(asOf.iso), ":run": .text(runID), ":sha": .text(sha256),
                ":row": .integer(Int64(total.row)), ":label": .text(total.label), ":measure": .text(total.measure),
                ":printed": .real(total.printed), ":computed": .real(total.computed),
            ])
        }
    }
}

/// Lineage stamped on every raw row of one artifact.
struct Lineage {
    var runID: String
    var propertyID: String
    var asOf: LocalDate
    var artifact: String
    var sha256: String
}

/// Inserts one report's records into its raw table through statements prepared once per artifact.
struct RawReportWriter {
    private let database: Database
    private let lineage: Lineage
    private var statements: [String: (Statement, [Int32])] = [:]
    private var lastStatement: (table: String, prepared: (Statement, [Int32]))?
    /// The artifact's `raw_lineage` row, added at its first row.
    private var lineageID: Int64?
    private(set) var rowCount = 0
    /// The parsed rows' hash, which decides whether the snapshot equals the previous one (UnchangedSnapshots).
    private(set) var digest = RowsDigest()

    /// The as-of date as stored, rendered once rather than per row.
    private let asOfText: String

    init(database: Database, lineage: Lineage) {
        self.database = database
        self.lineage = lineage
        asOfText = lineage.asOf.iso
    }

    /// Removes the rows of the snapshot this artifact replaces.
    func clearSnapshot(of report: ReportType) throws {
        for table in [report.rawTable] + report.childTables {
            try database.prepare("DELETE FROM \(table) WHERE property_id = :property AND as_of_date = :as_of")
                .execute([":property": .text(lineage.propertyID), ":as_of": .text(lineage.asOf.iso)])
        }
        try database.prepare("""
            DELETE FROM loaded_report_totals
            WHERE report_type = :report AND property_id = :property AND as_of_date = :as_of
            """).execute([":report": .text(report.rawValue), ":property": .text(lineage.propertyID),
                          ":as_of": .text(lineage.asOf.iso)])
    }

    mutating func insert(_ record: ReportRecord) throws {
        let (table, values) = Self.tableAndColumns(of: record)
        digest.add(table: table, values)
        let (statement, indices) = try statement(for: table, columns: values.map(\.0))
        let id = try lineageID ?? RawLineage.id(database, runID: lineage.runID, propertyID: lineage.propertyID,
                                                 asOf: asOfText, artifact: lineage.artifact, sha256: lineage.sha256)
        lineageID = id
        // Every parameter is bound below, so the previous row's bindings need no clearing.
        statement.resetKeepingBindings()
        try statement.bind(.integer(id), at: indices[0])
        try statement.bind(.text(lineage.propertyID), at: indices[1])
        try statement.bind(.text(asOfText), at: indices[2])
        for (offset, (_, value)) in values.enumerated() {
            try statement.bind(value, at: indices[offset + 3])
        }
        try statement.step()
        rowCount += 1
    }

    /// The insert of `table`'s rows, prepared at its first row (`columns` is evaluated then only).
    private mutating func statement(for table: String, columns: @autoclosure () -> [String]) throws -> (Statement, [Int32]) {
        // Most rows go to the table the previous row went to: no hashing of its name.
        if let last = lastStatement, last.table == table { return last.prepared }
        if let cached = statements[table] { lastStatement = (table, cached); return cached }
        let columns = columns()
        let all = ["lineage_id", "property_id", "as_of_date"] + columns
        let sql = """
            INSERT INTO \(table) (\(all.joined(separator: ", ")))
            VALUES (\(all.map { ":" + $0 }.joined(separator: ", ")))
            """
        let statement = try database.prepare(sql)
        let prepared = (statement, all.map { statement.parameterIndex(":" + $0) })
        statements[table] = prepared
        lastStatement = (table, prepared)
        return prepared
    }

    /// The table a record goes to and its raw columns: a descriptor row's own, or a typed record's mapping.
    static func tableAndColumns(of record: ReportRecord) -> (String, [(String, SQLValue)]) {
        if case .row(let row) = record { return (row.table.name, columns(of: row)) }
        let (report, values) = columns(of: record)
        return (table(of: record) ?? report.rawTable, values)
    }

    /// A descriptor row's columns in its table's order, after `source_row`.
    static func columns(of row: RawRow) -> [(String, SQLValue)] {
        var values: [(String, SQLValue)] = [("source_row", .integer(Int64(row.sourceRow)))]
        values.reserveCapacity(row.values.count + 1)
        for (column, value) in zip(row.table.columns, row.values) { values.append((column.name, SQLValue(value))) }
        return values
    }

    /// The child table a record goes to, nil for a report's own rows (its `rawTable`).
    static func table(of record: ReportRecord) -> String? {
        if case .delinquencyCode = record { return "realpage_delinquency_codes" }
        if case .rentRollCharge = record { return "realpage_rent_roll_charges" }
        if case .closedMakeReadyWorkOrder = record { return "realpage_closed_make_ready_work_orders" }
        if case .monthlySummaryFloorPlan = record { return "realpage_monthly_summary_floorplans" }
        return nil
    }

    /// The raw columns of a record, in a fixed order per report: this is the report -> raw table mapping.
    static func columns(of record: ReportRecord) -> (ReportType, [(String, SQLValue)]) {
        switch record {
        case .row(let row):
            preconditionFailure("\(row.table.name) rows are mapped by their table's columns, not here")
        case .boxScore(let r):
            return (.boxScore, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("floorplan_group", SQLValue(r.floorplanGroup)),
                ("floorplan", .text(r.floorplan)),
                ("total_units", SQLValue(r.totalUnits)),
                ("occupied_units", SQLValue(r.occupiedUnits)),
                ("vacant_units", SQLValue(r.vacantUnits)),
                ("vacant_not_leased", SQLValue(r.vacantNotLeased)),
                ("vacant_leased", SQLValue(r.vacantLeased)),
                ("occupied_no_notice", SQLValue(r.occupiedNoNotice)),
                ("occupied_on_notice", SQLValue(r.occupiedOnNotice)),
                ("notice_leased", SQLValue(r.noticeLeased)),
                ("model_units", SQLValue(r.modelUnits)),
                ("down_units", SQLValue(r.downUnits)),
                ("occupancy_pct", SQLValue(r.occupancyPct)),
                ("leased_pct", SQLValue(r.leasedPct)),
                ("avg_sqft", SQLValue(r.avgSqft)),
                ("avg_market_rent", SQLValue(r.avgMarketRent?.dollars)),
                ("avg_actual_rent", SQLValue(r.avgActualRent?.dollars)),
            ])
        case .rentRoll(let r):
            return (.rentRoll, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("unit_number", .text(r.unitNumber)),
                ("building", SQLValue(r.building)),
                ("floorplan", SQLValue(r.floorplan)),
                ("sqft", SQLValue(r.sqft)),
                ("resident_id", SQLValue(r.residentID)),
                ("resident_name", SQLValue(r.residentName)),
                ("status", SQLValue(r.status)),
                ("market_rent", SQLValue(r.marketRent?.dollars)),
                ("actual_rent", SQLValue(r.actualRent?.dollars)),
                ("move_in_date", SQLValue(r.moveInDate?.iso)),
                ("lease_start", SQLValue(r.leaseStart?.iso)),
                ("lease_end", SQLValue(r.leaseEnd?.iso)),
                ("move_out_date", SQLValue(r.moveOutDate?.iso)),
                ("balance", SQLValue(r.balance?.dollars)),
                ("unit_designation", SQLValue(r.unitDesignation)),
                ("phone", SQLValue(r.phone)),
                ("email", SQLValue(r.email)),
                ("notice_for_date", SQLValue(r.noticeForDate?.iso)),
                ("deposits_on_hand", SQLValue(r.depositsOnHand?.dollars)),
                ("total_charges", SQLValue(r.totalCharges?.dollars)),
            ])
        case .rentRollCharge(let r):
            return (.rentRoll, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("unit_number", .text(r.unitNumber)),
                ("resident_id", SQLValue(r.residentID)),
                ("unit_row", .integer(Int64(r.unitRow))),
                ("code", .text(r.code)),
                ("lease_rent", SQLValue(r.leaseRent?.dollars)),
                ("other_charges", SQLValue(r.otherCharges?.dollars)),
                ("amount", .real(r.amount.dollars)),
            ])
        case .monthlySummaryFloorPlan(let r):
            return (.monthlySummary, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("floorplan", .text(r.floorplan)),
                ("market_rent", SQLValue(r.marketRent?.dollars)),
                ("total_base_rent", SQLValue(r.totalBaseRent?.dollars)),
                ("total_sqft", SQLValue(r.totalSqft)),
                ("total_units", SQLValue(r.totalUnits)),
                ("occupied_no_notice", SQLValue(r.occupiedNoNotice)),
                ("vacant_not_leased", SQLValue(r.vacantNotLeased)),
                ("vacant_leased", SQLValue(r.vacantLeased)),
                ("notice_not_leased", SQLValue(r.noticeNotLeased)),
                ("notice_leased", SQLValue(r.noticeLeased)),
                ("vacant_administrative", SQLValue(r.vacantAdministrative)),
                ("vacant_down", SQLValue(r.vacantDown)),
            ])
        case .closedMakeReadyWorkOrder(let r):
            return (.closedMakeReady, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("unit_number", .text(r.unitNumber)),
                ("unit_row", .integer(Int64(r.unitRow))),
                ("work_order", .text(r.workOrder)),
                ("service_issue", SQLValue(r.serviceIssue)),
                ("worker", SQLValue(r.worker)),
                ("closed_date", SQLValue(r.closedDate?.iso)),
                ("amount_charged", SQLValue(r.amountCharged?.dollars)),
                ("time_worked_by", SQLValue(r.timeWorkedBy)),
                ("minutes_worked", SQLValue(r.minutesWorked)),
            ])
        case .delinquencyCode(let r):
            return (.delinquency, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("unit_number", .text(r.unitNumber)),
                ("resident_id", SQLValue(r.residentID)),
                ("account_row", .integer(Int64(r.accountRow))),
                ("code", .text(r.code)),
                ("description", SQLValue(r.description)),
                ("prepaid", .real(r.prepaid.dollars)),
                ("delinquent", .real(r.delinquent.dollars)),
                ("balance_0_30", .real(r.balance0to30.dollars)),
                ("balance_31_60", .real(r.balance31to60.dollars)),
                ("balance_61_90", .real(r.balance61to90.dollars)),
                ("balance_over_90", .real(r.balanceOver90.dollars)),
            ])
        case .delinquency(let r):
            return (.delinquency, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("unit_number", .text(r.unitNumber)),
                ("resident_id", SQLValue(r.residentID)),
                ("resident_name", SQLValue(r.residentName)),
                ("resident_status", SQLValue(r.residentStatus)),
                ("current_balance", .real(r.currentBalance.dollars)),
                ("balance_0_30", .real(r.balance0to30.dollars)),
                ("balance_31_60", .real(r.balance31to60.dollars)),
                ("balance_61_90", .real(r.balance61to90.dollars)),
                ("balance_over_90", .real(r.balanceOver90.dollars)),
                ("prepaid", SQLValue(r.prepaid?.dollars)),
                ("phone", SQLValue(r.phone)),
                ("email", SQLValue(r.email)),
                ("under_eviction", SQLValue(r.underEviction.map { $0 ? 1 : 0 })),
            ])
        case .activity(let r):
            return (.activity, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("activity_date", .text(r.activityDate.iso)),
                ("activity_time", SQLValue(r.activityTime)),
                ("activity_type", .text(r.activityType)),
                ("unit_number", SQLValue(r.unitNumber)),
                ("party_name", SQLValue(r.partyName)),
                ("source", SQLValue(r.source)),
                ("agent", SQLValue(r.agent)),
            ])
        case .monthlySummary(let r):
            return (.monthlySummary, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("month", .text(r.month)),
                ("move_ins", SQLValue(r.moveIns)),
                ("move_outs", SQLValue(r.moveOuts)),
                ("renewals", SQLValue(r.renewals)),
                ("notices", SQLValue(r.notices)),
                ("skips", SQLValue(r.skips)),
                ("evictions", SQLValue(r.evictions)),
            ])
        case .leaseExpiration(let r):
            return (.leaseExpiration, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("unit_number", .text(r.unitNumber)),
                ("resident_name", SQLValue(r.residentName)),
                ("lease_end", SQLValue(r.leaseEnd?.iso)),
                ("current_rent", SQLValue(r.currentRent?.dollars)),
                ("market_rent", SQLValue(r.marketRent?.dollars)),
                ("renewal_status", SQLValue(r.renewalStatus)),
                ("phone", SQLValue(r.phone)),
                ("email", SQLValue(r.email)),
            ])
        case .incomeStatement(let r):
            return (.incomeStatement, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("section", SQLValue(r.section)),
                ("category", SQLValue(r.category)),
                ("account_number", .text(r.accountNumber)),
                ("account_name", SQLValue(r.accountName)),
                ("period_amount", SQLValue(r.periodAmount?.dollars)),
                ("ytd_amount", SQLValue(r.ytdAmount?.dollars)),
                ("budget_amount", SQLValue(r.budgetAmount?.dollars)),
                ("ytd_budget_amount", SQLValue(r.ytdBudgetAmount?.dollars)),
                ("fiscal_period", SQLValue(r.fiscalPeriod)),
            ])
        case .makeReady(let r):
            return (.makeReady, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("unit_number", .text(r.unitNumber)),
                ("floorplan", SQLValue(r.floorplan)),
                ("sqft", SQLValue(r.sqft)),
                ("unit_status", SQLValue(r.unitStatus)),
                ("lease_status", SQLValue(r.leaseStatus)),
                ("move_out_date", SQLValue(r.moveOutDate?.iso)),
                ("days_vacant", SQLValue(r.daysVacant)),
                ("due_date", SQLValue(r.dueDate?.iso)),
                ("work_orders", SQLValue(r.workOrders)),
                ("assigned_to", SQLValue(r.assignedTo)),
                ("status", SQLValue(r.status)),
            ])
        case .closedMakeReady(let r):
            return (.closedMakeReady, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("unit_number", .text(r.unitNumber)),
                ("floorplan", SQLValue(r.floorplan)),
                ("move_out_date", SQLValue(r.moveOutDate?.iso)),
                ("due_date", SQLValue(r.dueDate?.iso)),
                ("completed_date", SQLValue(r.completedDate?.iso)),
                ("days_to_complete", SQLValue(r.daysToComplete)),
                ("work_orders", SQLValue(r.workOrders)),
                ("amount_charged", SQLValue(r.amountCharged?.dollars)),
                ("completed_by", SQLValue(r.completedBy)),
            ])
        case .monthlyTransactionSummary(let r):
            return (.monthlyTransactionSummary, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("category", SQLValue(r.category)),
                ("transaction_group", SQLValue(r.transactionGroup)),
                ("code", .text(r.code)),
                ("description", SQLValue(r.description)),
                ("gl_account", SQLValue(r.glAccount)),
                ("ytd_prior_amount", SQLValue(r.ytdPriorAmount?.dollars)),
                ("period_amount", SQLValue(r.periodAmount?.dollars)),
                ("ytd_amount", SQLValue(r.ytdAmount?.dollars)),
                ("fiscal_period", SQLValue(r.fiscalPeriod)),
            ])
        case .renewalDetail(let r):
            return (.renewalDetail, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("unit_number", .text(r.unitNumber)),
                ("floorplan", SQLValue(r.floorplan)),
                ("resident_name", SQLValue(r.residentName)),
                ("actual_rent", SQLValue(r.actualRent?.dollars)),
                ("other_billings", SQLValue(r.otherBillings?.dollars)),
                ("last_increase_date", SQLValue(r.lastIncreaseDate?.iso)),
                ("last_increase_amount", SQLValue(r.lastIncreaseAmount?.dollars)),
                ("market_rent", SQLValue(r.marketRent?.dollars)),
                ("move_in_date", SQLValue(r.moveInDate?.iso)),
                ("lease_end_date", SQLValue(r.leaseEndDate?.iso)),
                ("decision", SQLValue(r.decision)),
                ("new_lease_start", SQLValue(r.newLeaseStart?.iso)),
                ("new_lease_term", SQLValue(r.newLeaseTerm)),
                ("new_rent", SQLValue(r.newRent?.dollars)),
                ("new_other_billings", SQLValue(r.newOtherBillings?.dollars)),
                ("leasing_consultant", SQLValue(r.leasingConsultant)),
            ])
        case .projectedOccupancy(let r):
            return (.projectedOccupancy, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("week_start", .text(r.weekStart.iso)),
                ("week_end", .text(r.weekEnd.iso)),
                ("occupied_begin", SQLValue(r.occupiedBegin)),
                ("occupied_begin_pct", SQLValue(r.occupiedBeginPct)),
                ("scheduled_move_ins", SQLValue(r.scheduledMoveIns)),
                ("scheduled_move_outs", SQLValue(r.scheduledMoveOuts)),
                ("projected_occupied", SQLValue(r.projectedOccupied)),
                ("projected_pct", SQLValue(r.projectedPct)),
                ("total_units", SQLValue(r.totalUnits)),
            ])
        case .lostRent(let r):
            return (.lostRent, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("unit_number", SQLValue(r.unitNumber)),
                ("floorplan", SQLValue(r.floorplan)),
                ("resident_name", SQLValue(r.residentName)),
                ("move_in_date", SQLValue(r.moveInDate?.iso)),
                ("move_out_date", SQLValue(r.moveOutDate?.iso)),
                ("days_occupied", SQLValue(r.daysOccupied)),
                ("market_rent", SQLValue(r.marketRent?.dollars)),
                ("lease_rent", SQLValue(r.leaseRent?.dollars)),
                ("rent_charged", SQLValue(r.rentCharged?.dollars)),
                ("loss_to_lease", SQLValue(r.lossToLease?.dollars)),
                ("gain_to_lease", SQLValue(r.gainToLease?.dollars)),
                ("vacancy_loss", SQLValue(r.vacancyLoss?.dollars)),
                ("vacancy_adjustments", SQLValue(r.vacancyAdjustments?.dollars)),
                ("concessions", SQLValue(r.concessions?.dollars)),
                ("other_losses", SQLValue(r.otherLosses?.dollars)),
                ("total_lost_rent", SQLValue(r.totalLostRent?.dollars)),
            ])
        case .advertisingSource(let r):
            return (.advertisingSource, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("source", .text(r.source)),
                ("new_prospects", SQLValue(r.newProspects)),
                ("phone_calls", SQLValue(r.phoneCalls)),
                ("first_visits", SQLValue(r.firstVisits)),
                ("visits", SQLValue(r.visits)),
                ("return_visits", SQLValue(r.returnVisits)),
                ("applications", SQLValue(r.applications)),
                ("waitlist", SQLValue(r.waitlist)),
                ("cancelled_denied", SQLValue(r.cancelledDenied)),
                ("net_leases", SQLValue(r.netLeases)),
                ("prospect_conversion_pct", SQLValue(r.prospectConversionPct)),
                ("visit_conversion_pct", SQLValue(r.visitConversionPct)),
            ])
        case .moveOutReasons(let r):
            return (.moveOutReasons, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("line_type", .text(r.lineType)),
                ("category", SQLValue(r.category)),
                ("reason", SQLValue(r.reason)),
                ("count", SQLValue(r.count)),
                ("percent", SQLValue(r.percent)),
                ("unit_number", SQLValue(r.unitNumber)),
                ("resident_name", SQLValue(r.residentName)),
                ("move_out_date", SQLValue(r.moveOutDate?.iso)),
            ])
        case .leaseDetails(let r):
            return (.leaseDetails, [
                ("source_row", .integer(Int64(r.sourceRow))),
                ("unit_number", SQLValue(r.unitNumber)),
                ("lease_id", SQLValue(r.leaseID)),
                ("resident_name", SQLValue(r.residentName)),
                ("floorplan", SQLValue(r.floorplan)),
                ("status", SQLValue(r.status)),
                ("lease_start", SQLValue(r.leaseStart?.iso)),
                ("lease_end", SQLValue(r.leaseEnd?.iso)),
                ("move_in_date", SQLValue(r.moveInDate?.iso)),
                ("move_out_date", SQLValue(r.moveOutDate?.iso)),
                ("applied_date", SQLValue(r.appliedDate?.iso)),
                ("approved_date", SQLValue(r.approvedDate?.iso)),
                ("notice_date", SQLValue(r.noticeDate?.iso)),
                ("lease_term", SQLValue(r.leaseTerm)),
                ("lease_rent", SQLValue(r.leaseRent?.dollars)),
                ("lease_total", SQLValue(r.leaseTotal?.dollars)),
                ("deposit", SQLValue(r.deposit?.dollars)),
                ("balance", SQLValue(r.balance?.dollars)),
                ("notice_type", SQLValue(r.noticeType)),
                ("move_out_reason", SQLValue(r.moveOutReason)),
            ])
        }
    }
}

extension SQLValue {
    /// A descriptor column's value as stored: money as REAL dollars, dates as `YYYY-MM-DD`.
    init(_ value: RawValue) {
        switch value {
        case .null: self = .null
        case .text(let text): self = .text(text)
        case .integer(let number): self = .integer(Int64(number))
        case .number(let number): self = .real(number)
        case .money(let amount): self = .real(amount.dollars)
        case .date(let date): self = .text(date.iso)
        }
    }
}
