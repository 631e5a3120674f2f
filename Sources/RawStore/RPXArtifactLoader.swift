import Foundation
import OwnerDashCore
import Parse
import SOAP
import SQLiteKit

/// The result of loading one landed RPX response.
public struct RPXLoadOutcome: SOAPLoadOutcome, Equatable {
    public var artifact: String
    public var operation: RPXOperation
    public var propertyKey: String
    public var asOf: LocalDate
    public var rows: Int
    /// True when these exact bytes were loaded before for this operation, property and date: nothing was written.
    public var alreadyLoaded: Bool
    public var warnings: [String] = []
    public var note: String?
    /// The run whose rows this snapshot is, when they equal the previous snapshot's (nothing stored again).
    public var unchangedSinceRun: String? = nil
    public var operationName: String { operation.name }
}

/// Loads landed RPX SOAP responses into realpage_raw.db (migration 2 tables), one transaction per artifact,
/// with the report loader's rules: same bytes change nothing, new bytes replace the snapshot, failures roll back.
public struct RPXArtifactLoader {
    private let store: RealPageRawStore
    private let runID: RunID
    private let reload: Bool
    private let landedAnswer: (@Sendable (String) -> String?)?
    private let build: String?

    /// A loader whose rows carry `runID`; `reload` decodes again bytes loaded before (a replay after a decoder fix).
    /// `landedAnswer` finds an answer landed before by its sha256 (the landing zone's object, nil when gone): given,
    /// the whole-state lists are loaded by record (`RecordLoad`), copying from the night before's snapshot the rows of
    /// the records it already held. `build` names the decoding build (`BuildIdentity`; without one, nothing is copied).
    public init(store: RealPageRawStore, runID: RunID, reload: Bool = false,
                landedAnswer: (@Sendable (String) -> String?)? = nil,
                build: String? = BuildIdentity.label) {
        self.store = store; self.runID = runID; self.reload = reload
        self.landedAnswer = landedAnswer; self.build = build
    }

    /// The raw table an operation's records go to.
    public static func table(of operation: RPXOperation) -> String {
        switch operation {
        case .getsitelist: "realpage_sites"
        case .getbuildings: "realpage_buildings"
        case .unitlist: "realpage_units"
        case .getunitlist: "realpage_unit_objects"
        case .getresidentlistinfo: "realpage_residents"
        case .getleaseinfo: "realpage_leases"
        case .getrentableitems: "realpage_rentable_items"
        case .getresidentledger: "realpage_ledger"
        case .getscheduledcharges: "realpage_scheduled_charges"
        }
    }

    /// realpage_ledger as the ledger merge sees it: the household's Balance and Prepaid are not the transaction's.
    static let ledger = LedgerTable(name: "realpage_ledger", changes: "realpage_ledger_changes", kindColumn: "transaction_type",
                                    chargeKind: "Charge", balanceColumn: "open_amount", reversalColumn: nil,
                                    ignoredColumns: ["household_balance", "household_prepaid"],
                                    openChargesIndex: "realpage_ledger_open_charges", householdColumn: "resh_id")

    /// A getresidentledger answer's households (`Resident`), read by household (LedgerHouseholds): the whole ones, the
    /// window's and the open items'.
    static let households = LedgerHouseholds.Source(
        record: RPXOperation.getresidentledger.listedRecord!, records: "realpage_ledger_records",
        ledger: ledger, keyColumn: "report_type", answers: "getresidentledger%", balances: "realpage_ledger_households",
        nightlyRecords: "realpage_ledger_nightly_records")

    /// Loads one response. `expectedSHA256` (from a run's manifest) refuses bytes edited after they landed.
    /// getresidentledger is merged into realpage_ledger (`LedgerMerger`), each household's balance into
    /// realpage_ledger_households; `answer` is the part of the ledger the response holds, from the run's manifest (nil:
    /// the whole `ledgerMonths` window). Transactions dated before the window of `asOf` age out of the merged ledger.
    public func load(path: String, operation: RPXOperation, property: Property, asOf: LocalDate,
                     expectedSHA256: String? = nil, answer: LedgerAnswer? = nil) throws -> RPXLoadOutcome {
        let loaded: SOAPSnapshot.Loaded
        if operation == .getresidentledger {
            // The ledger is the one large RPX response: streamed, each transaction merged as it is read.
            let windowStart = RPXOperation.ledgerStart(asOf: asOf.iso)
            let coverage: LedgerCoverage, key: String
            switch answer ?? .whole {
            case .whole: (coverage, key) = (.whole(ageOutBefore: windowStart), operation.name)
            case .dated(let from, let to): (coverage, key) = (.dated(from: from, to: to, ageOutBefore: windowStart), operation.name + ".dated")
            case .applied: (coverage, key) = (.partial, operation.name + ".applied")
            case .openItems: (coverage, key) = (.openItems(ageOutBefore: windowStart), operation.name + ".open")
            case .household(let household, let from, let to):
                (coverage, key) = (.household(household, from: from, to: to, ageOutBefore: windowStart), operation.name + ".household." + household)
            }
            // A whole answer is decoded by household where the build is known (LedgerHouseholds): only the households
            // that changed since the last whole answer; where that cannot stand, once more, whole.
            // So are the nightly window and open items (most of their records repeat the night before's). One
            // household's answer is decoded whole: it is asked for because that household is off.
            var byHousehold: LedgerHouseholds?
            if !reload, let build, coverage != .partial, coverage.household == nil {
                byHousehold = LedgerHouseholds(source: Self.households, build: build, coverage: coverage)
            }
            let merged = try LedgerHouseholds.loadingWholeIfNeeded(byHousehold) {
                try loadLedger(path: path, property: property, asOf: asOf, expectedSHA256: expectedSHA256,
                               coverage: coverage, key: key, byHousehold: $0)
            }
            let household = coverage.household.map { (id: $0, artifact: merged.artifact) }
            var warnings = try LedgerLoad.differences(merged.counts, in: store.database, changesTable: Self.ledger.changes,
                                                      property: property.key, runID: runID, operation: operation.name,
                                                      household: household)
            if let household, merged.counts.otherHouseholds > 0 {
                // Merged as current all the same; but a gateway that ignores `reshid` makes each such call a whole pull.
                warnings.append("\(property.key): asked for household \(household.id)'s ledger (reshid), RPX answered "
                                + "\(merged.counts.otherHouseholds + 1) households: this gateway seems to ignore reshid, and each "
                                + "household asked for costs a whole ledger")
            }
            return RPXLoadOutcome(artifact: merged.artifact, operation: operation, propertyKey: property.key, asOf: asOf,
                                  rows: merged.alreadyLoaded ? merged.counts.unchanged : merged.counts.written,
                                  alreadyLoaded: merged.alreadyLoaded, warnings: merged.alreadyLoaded ? [] : warnings,
                                  note: merged.alreadyLoaded ? nil : merged.counts.summary)
        } else {
            var byRecord: RecordLoad?
            if let record = operation.wholeStateRecord, let landedAnswer, let build {
                byRecord = RecordLoad(record: record, build: build, landedAnswer: landedAnswer)
            }
            loaded = try SOAPSnapshot.load(
                into: store.database, keyColumn: "report_type", table: Self.table(of: operation), operation: operation.name,
                path: path, property: property, asOf: asOf, runID: runID, expectedSHA256: expectedSHA256, reload: reload,
                byRecord: byRecord) { bytes in
                try Self.rows(operation: operation, bytes: bytes, siteID: property.siteID ?? "")
            }
        }
        return RPXLoadOutcome(artifact: loaded.artifact, operation: operation, propertyKey: property.key, asOf: asOf,
                              rows: loaded.rows, alreadyLoaded: loaded.alreadyLoaded, note: loaded.note,
                              unchangedSinceRun: loaded.unchangedSinceRun)
    }

    /// One getresidentledger answer merged into realpage_ledger (`LedgerLoad`), its households' balances into
    /// realpage_ledger_households; a whole one `byHousehold` decodes only its changed households and records every
    /// decoded household's record (realpage_ledger_records).
    private func loadLedger(path: String, property: Property, asOf: LocalDate, expectedSHA256: String?,
                            coverage: LedgerCoverage, key: String, byHousehold: LedgerHouseholds?) throws -> LedgerLoad.Loaded {
        var households: [String: RPXLedgerHousehold] = [:]
        // A household's whole ledger states its Balance as a whole answer does, with or without a transaction.
        let whole = switch coverage {
        case .whole, .household: true
        case .dated, .openItems, .partial: false
        }
        var plan: LedgerHouseholds.Plan?
        var loaded = try LedgerLoad.load(
            into: store.database, keyColumn: "report_type", operationKey: key, table: Self.ledger, coverage: coverage,
            path: path, property: property, asOf: asOf, runID: runID, expectedSHA256: expectedSHA256, reload: reload,
            afterMerge: { database, lineage in
                if let plan, let byHousehold {
                    try byHousehold.record(plan, database: database, property: property.key, lineageID: try lineage.id(database))
                }
                return try Self.mergeHouseholds(households.values.sorted { $0.reshID < $1.reshID }, into: database,
                                                lineage: lineage)
            }) { bytes, merger in
            plan = try LedgerHouseholds.read(bytes, by: byHousehold, database: store.database, property: property.key,
                                             asOf: asOf, merger: merger) { document, plan in
                // A whole answer's every household, also one without transactions: its Balance is what is left of
                // postings the window no longer holds (the sync's balance-forward line), and storing it only from a
                // transaction lost a former household's debt once its last posting aged out. A nightly answer's
                // households only with a transaction in it, as before: a Balance that moved for a posting the night's
                // windows missed would be carried, silently, by the household's balance-forward line, where the ledger
                // check (ledger against delinquency) is there to find it and have the ledger pulled whole.
                var current: RPXLedgerHousehold?
                try GetResidentLedger.decode(document, household: { household in
                    plan?.listed(household: household.place, key: household.reshID)
                    current = household
                    if whole, households[household.reshID] == nil { households[household.reshID] = household }
                }) { transaction in
                    if households[transaction.reshID] == nil { households[transaction.reshID] = current }
                    let row = Self.ledgerRow(transaction)
                    // RPX requires a TransactionID of every transaction.
                    try plan?.decoding(household: transaction.household, key: transaction.reshID, hasID: true, row: row,
                                       merger: merger)
                    try merger.merge(row)
                }
            }
        }
        if let asked = coverage.household {
            loaded.counts.otherHouseholds = households.keys.filter { $0 != asked }.count
        }
        return loaded
    }

    /// Each of `households` (`loadLedger`: every one a whole answer names, a nightly answer's with a transaction in
    /// it) as the answer states its Balance and Prepaid; a household's row is written only when it changed, and never
    /// by an answer older than the one that wrote it.
    /// Returns the households written.
    static func mergeHouseholds(_ households: [RPXLedgerHousehold], into database: Database,
                                lineage: SOAPSnapshot.Lineage) throws -> Int {
        let upsert = try database.prepare("""
            INSERT INTO realpage_ledger_households (property_id, resh_id, unit_id, unit_number, balance, prepaid,
                                                    lineage_id, as_of_date)
            VALUES (:property, :resh, :unit_id, :unit_number, :balance, :prepaid, :lineage, :as_of)
            ON CONFLICT (property_id, resh_id) DO UPDATE SET
                unit_id = excluded.unit_id, unit_number = excluded.unit_number, balance = excluded.balance,
                prepaid = excluded.prepaid, lineage_id = excluded.lineage_id, as_of_date = excluded.as_of_date
            WHERE excluded.as_of_date >= realpage_ledger_households.as_of_date
              AND (balance IS NOT excluded.balance OR prepaid IS NOT excluded.prepaid
                   OR unit_id IS NOT excluded.unit_id OR unit_number IS NOT excluded.unit_number)
            """)
        var written = 0
        let lineageID = try lineage.id(database)
        for household in households {
            try upsert.execute([
                ":property": .text(lineage.propertyID), ":resh": .text(household.reshID),
                ":unit_id": SQLValue(household.unitID), ":unit_number": SQLValue(household.unitNumber),
                ":balance": SOAPSnapshot.money(household.balance),
                ":prepaid": SOAPSnapshot.money(household.prepaid),
                ":lineage": .integer(lineageID), ":as_of": .text(lineage.asOf),
            ])
            written += database.changes
        }
        return written
    }

    // MARK: - Records -> raw columns

    /// One getresidentledger transaction as realpage_ledger's columns.
    static func ledgerRow(_ r: RPXLedgerTransaction) -> [(String, SQLValue)] {
        let money = SOAPSnapshot.money, date = SOAPSnapshot.date
        return [
            ("source_row", .integer(Int64(r.sourceIndex))), ("resh_id", .text(r.reshID)), ("unit_id", SQLValue(r.unitID)),
            ("unit_number", SQLValue(r.unitNumber)), ("household_balance", money(r.householdBalance)),
            ("household_prepaid", money(r.householdPrepaid)), ("transaction_id", .text(r.transactionID)),
            ("transaction_type", .text(r.transactionType)), ("transaction_date", date(r.transactionDate)),
            ("post_month", SQLValue(r.postMonth)), ("transaction_code", SQLValue(r.transactionCode)),
            ("description", SQLValue(r.description)), ("lease_id", SQLValue(r.leaseID)), ("amount", money(r.amount)),
            ("amount_paid", money(r.amountPaid)), ("open_amount", money(r.openAmount)), ("reference", SQLValue(r.reference)),
        ]
    }

    static func rows(operation: RPXOperation, bytes: [UInt8], siteID: String) throws -> [[(String, SQLValue)]] {
        let money = SOAPSnapshot.money, flag = SOAPSnapshot.flag, date = SOAPSnapshot.date
        func index(_ value: Int) -> (String, SQLValue) { ("source_row", .integer(Int64(value))) }
        switch operation {
        case .getsitelist:
            // Every site of the license comes back; this artifact is stored for its own site.
            let all = try GetSiteList.decode(bytes)
            let mine = all.filter { $0.siteID == siteID }
            guard !mine.isEmpty else {
                throw SOAPError(operation: operation.name, kind: .invalidValue(
                    "site \(siteID) is not among the \(all.count) sites the license key reaches"))
            }
            return mine.map { r in [
                index(r.sourceIndex), ("site_id", .text(r.siteID)), ("site_number", SQLValue(r.siteNumber)),
                ("site_name", SQLValue(r.siteName)), ("pmc_name", SQLValue(r.pmcName)), ("address1", SQLValue(r.address1)),
                ("city", SQLValue(r.city)), ("state", SQLValue(r.state)), ("zip", SQLValue(r.zip)), ("phone", SQLValue(r.phone)),
                ("email", SQLValue(r.email)), ("sys_date", date(r.sysDate)), ("ar_accounting_date", date(r.arAccountingDate)),
                ("ar_accounting_period", SQLValue(r.arAccountingPeriod)),
            ] }
        case .getbuildings:
            return try GetBuildings.decode(bytes).map { r in [
                index(r.sourceIndex), ("building_id", .text(r.buildingID)), ("building_number", SQLValue(r.buildingNumber)),
                ("address_line1", SQLValue(r.addressLine1)), ("city", SQLValue(r.city)), ("state", SQLValue(r.state)),
                ("zip", SQLValue(r.zip)),
            ] }
        case .unitlist:
            return try UnitList.decode(bytes).map { r in [
                index(r.sourceIndex), ("unit_id", .text(r.unitID)), ("unit_number", .text(r.unitNumber)),
                ("building_id", SQLValue(r.buildingID)), ("building_number", SQLValue(r.buildingNumber)),
                ("building_name", SQLValue(r.buildingName)), ("floorplan_id", SQLValue(r.floorplanID)),
                ("floorplan_name", SQLValue(r.floorplanName)), ("gross_sqft", SQLValue(r.grossSqft)),
                ("rentable_sqft", SQLValue(r.rentableSqft)), ("vacant", flag(r.vacant)), ("available", flag(r.available)),
                ("available_date", date(r.availableDate)), ("unit_deleted", flag(r.unitDeleted)),
                ("unit_designation", SQLValue(r.unitDesignationName)), ("market_rent", money(r.marketRent)),
                ("reason_not_available", SQLValue(r.reasonNotAvailable)), ("made_ready_date", date(r.unitMadeReadyDate)),
                ("unit_reserved", flag(r.unitReserved)), ("expected_move_in_date", date(r.unitExpectedMoveinDate)),
                ("on_notice_for_date", date(r.onNoticeForDate)), ("fp_report_unit_occupancy", flag(r.fpReportUnitOccupancy)),
            ] }
        case .getunitlist:
            return try GetUnitList.decode(bytes).map { r in [
                index(r.sourceIndex), ("unit_id", .text(r.unitID)), ("unit_number", SQLValue(r.unitNumber)),
                ("building_id", SQLValue(r.buildingID)), ("floorplan_code", SQLValue(r.floorPlanCode)),
                ("floorplan_name", SQLValue(r.floorPlanName)), ("bedrooms", SQLValue(r.bedrooms)),
                ("bathrooms", SQLValue(r.bathrooms)), ("gross_sqft", SQLValue(r.grossSqft)),
                ("floor_number", SQLValue(r.floorNumber)), ("available", flag(r.available)),
                ("made_ready_date", date(r.madeReadyDate)),
            ] }
        case .getresidentlistinfo:
            return try GetResidentListInfo.decode(bytes).map { r in [
                index(r.sourceIndex), ("resident_member_id", SQLValue(r.residentMemberID)),
                ("household_id", SQLValue(r.residentHouseholdID)), ("lease_id", SQLValue(r.leaseID)),
                ("unit_id", SQLValue(r.unitID)), ("unit_number", SQLValue(r.unitNumber)), ("first_name", SQLValue(r.firstName)),
                ("last_name", SQLValue(r.lastName)), ("email", SQLValue(r.email)), ("phone", SQLValue(r.phone)),
                ("lease_status", SQLValue(r.leaseStatus)),
                ("lease_type", SQLValue(r.leaseType)), ("relationship", SQLValue(r.residentRelationship)),
                ("head_of_household", flag(r.headOfHousehold)), ("balance", money(r.balance)),
                ("pending_balance", money(r.pendingBalance)), ("in_eviction", flag(r.inEviction)),
                ("begin_date", date(r.beginDate)), ("end_date", date(r.endDate)), ("move_in_date", date(r.moveInDate)),
                ("move_out_date", date(r.moveOutDate)), ("notice_given_date", date(r.noticeGivenDate)),
                ("notice_for_date", date(r.noticeForDate)), ("lease_signed_date", date(r.leaseSignedDate)),
            ] }
        case .getleaseinfo:
            return try GetLeaseInfo.decode(bytes).map { r in [
                index(r.sourceIndex), ("lease_id", .text(r.leaseID)), ("resh_id", SQLValue(r.reshID)),
                ("unit_id", SQLValue(r.unitID)), ("next_lease_id", SQLValue(r.nextLeaseID)),
                ("prior_lease_id", SQLValue(r.priorLeaseID)), ("lease_signed_date", date(r.leaseSignedDate)),
                ("lease_begin_date", date(r.leaseBeginDate)), ("lease_end_date", date(r.leaseEndDate)),
                ("move_in_date", date(r.moveInDate)), ("month_to_month_date", date(r.monthToMonthDate)),
                ("initial_lease_date", date(r.initialLeaseDate)), ("payment_due_date", date(r.paymentDueDate)),
                ("last_renewal_date", date(r.lastRenewalDate)), ("notice_on_date", date(r.noticeOnDate)),
                ("notice_for_date", date(r.noticeForDate)), ("inactive_date", date(r.inactiveDate)),
                ("lease_status", SQLValue(r.leaseStatus)), ("lease_status_text", SQLValue(r.leaseStatusText)),
                ("type_text", SQLValue(r.typeText)), ("evict", flag(r.evict)), ("rent", money(r.rent)),
                ("current_balance", money(r.currentBalance)), ("security_deposit", money(r.securityDeposit)),
                ("lease_term_desc", SQLValue(r.leaseTermDescription)), ("head_of_household_name", SQLValue(r.headOfHouseholdName)),
            ] }
        case .getrentableitems:
            return try GetRentableItems.decode(bytes).map { r in [
                index(r.sourceIndex), ("rid_id", .text(r.ridID)), ("item_name", SQLValue(r.itemName)),
                ("item_type", SQLValue(r.itemType)), ("billing_amount", money(r.billingAmount)),
                ("frequency", SQLValue(r.frequency)), ("transaction_code", SQLValue(r.transactionCode)),
                ("in_service", flag(r.inService)), ("status", SQLValue(r.status)), ("unit_id", SQLValue(r.unitID)),
                ("lease_id", SQLValue(r.leaseID)), ("resh_id", SQLValue(r.reshID)), ("start_date", date(r.startDate)),
                ("end_date", date(r.endDate)),
            ] }
        case .getresidentledger:
            return try GetResidentLedger.decode(bytes).map(ledgerRow)
        case .getscheduledcharges:
            return try GetScheduledCharges.decode(bytes).map { r in [
                index(r.sourceIndex), ("resh_id", SQLValue(r.reshID)), ("lease_id", .text(r.leaseID)),
                ("unit_id", SQLValue(r.unitID)), ("unit_number", SQLValue(r.unitNumber)),
                ("transaction_code", .text(r.transactionCode)), ("description", SQLValue(r.description)),
                ("amount", money(r.amount)), ("frequency", SQLValue(r.frequency)), ("start_date", date(r.startDate)),
                ("end_date", date(r.endDate)),
            ] }
        }
    }
}
