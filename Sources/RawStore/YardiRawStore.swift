import Foundation
import OwnerDashCore
import Parse
import SOAP
import SQLiteKit

/// yardi_raw.db opened for writing and migrated to the current schema.
public final class YardiRawStore {
    public let database: Database

    /// Opens (or creates) the database and migrates it forward.
    public init(path: String) throws {
        database = try Database(path: path)
        try RawRetention.prepareNew(database)
        try database.migrate(YardiRawSchema.migrations)
    }

    /// yardi_transactions as the ledger merge sees it.
    static let ledger = LedgerTable(name: "yardi_transactions", changes: "yardi_transaction_changes", kindColumn: "kind",
                                    chargeKind: "charge", balanceColumn: "balance_due", reversalColumn: "reversal",
                                    householdColumn: "tenant_code")

    /// A whole GetResidentTransactions_Login answer's households (`RT_Customer`), read by household (LedgerHouseholds).
    static let households = LedgerHouseholds.Source(
        record: YardiOperation.getResidentTransactions.listedRecord!, records: "yardi_ledger_records",
        ledger: ledger, keyColumn: "operation", answers: "GetResidentTransactions%", balances: nil)

    /// The raw table an operation's records go to.
    public static func table(of operation: YardiOperation) -> String {
        switch operation {
        case .getPropertyConfigurations: "yardi_properties"
        case .getUnitInformation: "yardi_units"
        case .getResidentsByStatus: "yardi_residents"
        case .getResidentLeaseCharges: "yardi_lease_charges"
        case .getResidentTransactions, .getResidentTransactionsByChargeDate, .getResidentTransactionsByApplicationDate:
            "yardi_transactions"
        case .availableUnits: "yardi_available_units"
        case .getYardiGuestActivity: "yardi_guest_activity"
        case .getServiceRequests: "yardi_service_requests"
        case .getInvoiceRegister: "yardi_invoice_lines"
        }
    }
}

/// The result of loading one landed Yardi response.
public struct YardiLoadOutcome: SOAPLoadOutcome, Equatable {
    public var artifact: String
    public var operation: YardiOperation
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

/// Loads landed Yardi SOAP responses into yardi_raw.db, one transaction per artifact.
///
/// The same rules as the report loader: an artifact's rows replace the earlier snapshot of the same
/// (operation, property, as-of date); the same bytes again change nothing; an artifact that fails to
/// decode or insert leaves the database as it was.
public struct YardiArtifactLoader {
    private let store: YardiRawStore
    private let runID: RunID
    private let reload: Bool
    private let build: String?

    /// A loader whose rows carry `runID`; `reload` decodes again bytes loaded before (a replay after a decoder fix).
    /// `build` names the decoding build (`BuildIdentity`): with one, a whole ledger answer is decoded by household
    /// (LedgerHouseholds); without, always whole.
    public init(store: YardiRawStore, runID: RunID, reload: Bool = false, build: String? = BuildIdentity.label) {
        self.store = store; self.runID = runID; self.reload = reload; self.build = build
    }

    /// Loads one response. `expectedSHA256` (from a run's manifest) refuses bytes edited after they landed.
    /// The transaction ledger (GetResidentTransactions_Login and its windowed calls) is merged into
    /// yardi_transactions rather than stored as a snapshot (`LedgerMerger`); `answer` is the part of the ledger the
    /// response holds, from the run's manifest (nil: the whole ledger for GetResidentTransactions_Login, a partial
    /// answer that removes nothing for a windowed call). `rows` is then the rows the merge wrote.
    public func load(path: String, operation: YardiOperation, property: Property, asOf: LocalDate,
                     expectedSHA256: String? = nil, answer: LedgerAnswer? = nil) throws -> YardiLoadOutcome {
        let table = YardiRawStore.table(of: operation)
        let loaded: SOAPSnapshot.Loaded
        switch operation {
        case .getResidentTransactions, .getResidentTransactionsByChargeDate, .getResidentTransactionsByApplicationDate:
            let coverage: LedgerCoverage
            switch answer ?? (operation == .getResidentTransactions ? .whole : .applied) {
            case .whole: coverage = .whole(ageOutBefore: nil)
            case .dated(let from, let to): coverage = .dated(from: from, to: to, ageOutBefore: nil)
            case .applied, .openItems, .household: coverage = .partial
            }
            // A whole answer is decoded by household where the build is known (LedgerHouseholds): only the customers
            // whose record changed since the last whole answer; where that cannot stand, once more, whole.
            var byHousehold: LedgerHouseholds?
            if case .whole = coverage, !reload, let build { byHousehold = LedgerHouseholds(source: YardiRawStore.households, build: build) }
            let merged = try LedgerHouseholds.loadingWholeIfNeeded(byHousehold) {
                try loadLedger(operation: operation, path: path, property: property, asOf: asOf,
                               expectedSHA256: expectedSHA256, coverage: coverage, byHousehold: $0)
            }
            let warnings = try LedgerLoad.differences(merged.counts, in: store.database, changesTable: YardiRawStore.ledger.changes,
                                                      property: property.key, runID: runID, operation: operation.name)
            return YardiLoadOutcome(artifact: merged.artifact, operation: operation, propertyKey: property.key, asOf: asOf,
                                    rows: merged.alreadyLoaded ? merged.counts.unchanged : merged.counts.written,
                                    alreadyLoaded: merged.alreadyLoaded, warnings: merged.alreadyLoaded ? [] : warnings,
                                    note: merged.alreadyLoaded ? nil : merged.counts.summary)
        case .getResidentLeaseCharges:
            // Ledgers run to tens of MB: rows are inserted as they are decoded, never all held at once.
            loaded = try SOAPSnapshot.load(
                into: store.database, keyColumn: "operation", table: table, operation: operation.name, path: path,
                property: property, asOf: asOf, runID: runID, expectedSHA256: expectedSHA256, reload: reload) { bytes, emit in
                try Self.streamRows(operation: operation, bytes: bytes, emit)
            }
        default:
            loaded = try SOAPSnapshot.load(
                into: store.database, keyColumn: "operation", table: table, operation: operation.name, path: path,
                property: property, asOf: asOf, runID: runID, expectedSHA256: expectedSHA256, reload: reload) { bytes in
                try Self.rows(operation: operation, bytes: bytes, propertyCode: property.propertyCode ?? "")
            }
        }
        return YardiLoadOutcome(artifact: loaded.artifact, operation: operation, propertyKey: property.key, asOf: asOf,
                                rows: loaded.rows, alreadyLoaded: loaded.alreadyLoaded,
                                unchangedSinceRun: loaded.unchangedSinceRun)
    }

    /// One ledger answer merged into yardi_transactions (`LedgerLoad`); a whole one `byHousehold` decodes only its
    /// changed customers and records every decoded customer's record (yardi_ledger_records).
    private func loadLedger(operation: YardiOperation, path: String, property: Property, asOf: LocalDate,
                            expectedSHA256: String?, coverage: LedgerCoverage,
                            byHousehold: LedgerHouseholds?) throws -> LedgerLoad.Loaded {
        var plan: LedgerHouseholds.Plan?
        return try LedgerLoad.load(
            into: store.database, keyColumn: "operation", operationKey: operation.name, table: YardiRawStore.ledger,
            coverage: coverage, path: path, property: property, asOf: asOf, runID: runID,
            expectedSHA256: expectedSHA256, reload: reload,
            afterMerge: { database, lineage in
                if let plan, let byHousehold {
                    try byHousehold.record(plan, database: database, property: property.key, lineageID: try lineage.id(database))
                }
                return 0
            }) { bytes, merger in
            plan = try LedgerHouseholds.read(bytes, by: byHousehold, database: store.database, property: property.key,
                                             asOf: asOf, merger: merger) { document, plan in
                try GetResidentTransactions.decode(document, answering: operation) { transaction in
                    try plan?.decoding(household: transaction.household, key: transaction.tenantCode,
                                       hasID: transaction.transactionID != nil, merger: merger)
                    try merger.merge(Self.ledgerRow(transaction))
                }
            }
        }
    }

    // MARK: - Records -> raw columns (the operation -> raw table mapping)

    static func rows(operation: YardiOperation, bytes: [UInt8], propertyCode: String) throws -> [[(String, SQLValue)]] {
        switch operation {
        case .getPropertyConfigurations:
            // The list covers every property the entity is licensed for; this artifact is stored for one.
            let all = try GetPropertyConfigurations.decode(bytes)
            let mine = all.filter { $0.code.caseInsensitiveCompare(propertyCode) == .orderedSame }
            guard !mine.isEmpty else {
                throw SOAPError(operation: operation.name, kind: .invalidValue(
                    "property code \(propertyCode) is not among the \(all.count) properties the interface entity is licensed for"))
            }
            return mine.map { r in [
                ("source_row", .integer(Int64(r.sourceIndex))), ("property_code", .text(r.code)),
                ("marketing_name", SQLValue(r.marketingName)), ("address_line1", SQLValue(r.addressLine1)),
                ("address_line2", SQLValue(r.addressLine2)), ("city", SQLValue(r.city)), ("state", SQLValue(r.state)),
                ("postal_code", SQLValue(r.postalCode)), ("accounts_receivable", SQLValue(r.accountsReceivable)),
                ("accounts_payable", SQLValue(r.accountsPayable)),
            ] }
        case .getUnitInformation:
            return try GetUnitInformation.decode(bytes).map { r in [
                ("source_row", .integer(Int64(r.sourceIndex))), ("unit_code", .text(r.unitCode)),
                ("unit_unique_id", SQLValue(r.unitUniqueID)), ("tenant_code", SQLValue(r.tenantCode)),
                ("unit_type", SQLValue(r.unitType)), ("bedrooms", SQLValue(r.bedrooms)), ("bathrooms", SQLValue(r.bathrooms)),
                ("min_sqft", SQLValue(r.minSquareFeet)), ("max_sqft", SQLValue(r.maxSquareFeet)),
                ("market_rent", money(r.marketRent)), ("economic_status", SQLValue(r.economicStatus)),
                ("economic_status_description", SQLValue(r.economicStatusDescription)),
                ("floorplan_name", SQLValue(r.floorplanName)), ("building_name", SQLValue(r.buildingName)),
                ("date_available", SQLValue(r.dateAvailable?.iso)), ("address_line1", SQLValue(r.addressLine1)),
            ] }
        case .getResidentsByStatus:
            return try GetResidentsByStatus.decode(bytes).map { r in [
                ("source_row", .integer(Int64(r.sourceIndex))), ("tenant_code", .text(r.tenantCode)),
                ("status", SQLValue(r.status)), ("first_name", SQLValue(r.firstName)), ("last_name", SQLValue(r.lastName)),
                ("email", SQLValue(r.email)), ("phone", SQLValue(r.phone)), ("unit_code", SQLValue(r.unitCode)),
                ("rent", money(r.rent)), ("lease_from_date", SQLValue(r.leaseFromDate?.iso)),
                ("lease_to_date", SQLValue(r.leaseToDate?.iso)), ("move_in_date", SQLValue(r.moveInDate?.iso)),
                ("move_out_date", SQLValue(r.moveOutDate?.iso)), ("notice_date", SQLValue(r.noticeDate?.iso)),
                ("payment_accepted", flag(r.paymentAccepted)), ("lease_id", SQLValue(r.leaseID)),
                ("is_roommate", flag(r.isRoommate)), ("other_occupants", .integer(Int64(r.otherOccupants))),
            ] }
        case .getResidentLeaseCharges, .getResidentTransactions, .getResidentTransactionsByChargeDate,
             .getResidentTransactionsByApplicationDate:
            var rows: [[(String, SQLValue)]] = []
            try streamRows(operation: operation, bytes: bytes) { rows.append($0) }
            return rows
        case .availableUnits:
            return try AvailableUnits.decode(bytes).map { r in [
                ("source_row", .integer(Int64(r.sourceIndex))), ("unit_code", .text(r.unitCode)),
                ("unit_unique_id", SQLValue(r.unitUniqueID)), ("unit_type", SQLValue(r.unitType)),
                ("floorplan_name", SQLValue(r.floorplanName)), ("bedrooms", SQLValue(r.bedrooms)),
                ("bathrooms", SQLValue(r.bathrooms)), ("min_sqft", SQLValue(r.minSquareFeet)), ("max_sqft", SQLValue(r.maxSquareFeet)),
                ("market_rent", money(r.marketRent)), ("effective_rent", money(r.effectiveRent)),
                ("occupancy_status", SQLValue(r.occupancyStatus)), ("leased_status", SQLValue(r.leasedStatus)),
                ("economic_status", SQLValue(r.economicStatus)),
                ("economic_status_description", SQLValue(r.economicStatusDescription)),
                ("vacate_date", SQLValue(r.vacateDate?.iso)), ("made_ready_date", SQLValue(r.madeReadyDate?.iso)),
                ("vacancy_class", SQLValue(r.vacancyClass)), ("declared_unit_count", SQLValue(r.declaredUnitCount)),
            ] }
        case .getYardiGuestActivity:
            return try GetYardiGuestActivity.decode(bytes).map { r in [
                ("source_row", .integer(Int64(r.sourceIndex))), ("prospect_index", .integer(Int64(r.prospectIndex))),
                ("prospect_id", SQLValue(r.prospectID)), ("tenant_code", SQLValue(r.tenantCode)),
                ("customer_type", SQLValue(r.customerType)), ("first_name", SQLValue(r.firstName)),
                ("last_name", SQLValue(r.lastName)), ("email", SQLValue(r.email)),
                ("desired_floorplan", SQLValue(r.desiredFloorplan)), ("target_move_in", SQLValue(r.targetMoveInDate?.iso)),
                ("event_id", SQLValue(r.eventID)), ("event_type", .text(r.eventType)), ("event_at", .text(r.eventAt)),
                ("event_date", .text(r.eventDate.iso)), ("agent_name", SQLValue(r.agentName)),
                ("first_contact", flag(r.firstContact)), ("transaction_source", SQLValue(r.transactionSource)),
                ("comments", SQLValue(r.comments)),
            ] }
        case .getServiceRequests:
            return try GetServiceRequestSearch.decode(bytes).map { r in [
                ("source_row", .integer(Int64(r.sourceIndex))), ("service_request_id", .text(r.serviceRequestID)),
                ("unit_code", SQLValue(r.unitCode)), ("tenant_code", SQLValue(r.tenantCode)),
                ("category", SQLValue(r.category)), ("brief_description", SQLValue(r.briefDescription)),
                ("full_description", SQLValue(r.fullDescription)), ("current_status", SQLValue(r.currentStatus)),
                ("requested_at", SQLValue(r.requestedAt)), ("updated_at", SQLValue(r.updatedAt)),
                ("completed_at", SQLValue(r.completedAt)), ("status_history", SQLValue(r.statusHistory)),
            ] }
        case .getInvoiceRegister:
            return try GetInvoiceRegister.decode(bytes).map { r in [
                ("source_row", .integer(Int64(r.sourceIndex))), ("invoice_index", .integer(Int64(r.invoiceIndex))),
                ("invoice_id", .text(r.invoiceID)), ("invoice_number", SQLValue(r.invoiceNumber)),
                ("vendor_id", SQLValue(r.vendorID)), ("vendor_name", SQLValue(r.vendorName)),
                ("invoice_date", SQLValue(r.invoiceDate?.iso)), ("post_month", .text(r.postMonth)),
                ("due_date", SQLValue(r.dueDate?.iso)), ("detail_id", SQLValue(r.detailID)),
                ("gl_account", .text(r.glAccount)), ("gl_account_name", SQLValue(r.glAccountName)),
                ("amount", .real(r.amount.dollars)), ("description", SQLValue(r.description)),
            ] }
        }
    }

    /// The ledger operations, streamed: each record's columns go to `emit` as soon as it is decoded.
    static func streamRows(operation: YardiOperation, bytes: [UInt8], _ emit: ([(String, SQLValue)]) throws -> Void) throws {
        switch operation {
        case .getResidentLeaseCharges:
            try GetResidentLeaseCharges.decode(bytes) { r in try emit([
                ("source_row", .integer(Int64(r.sourceIndex))), ("tenant_code", SQLValue(r.tenantCode)),
                ("unit_code", SQLValue(r.unitCode)), ("lease_id", SQLValue(r.leaseID)), ("charge_code", .text(r.chargeCode)),
                ("description", SQLValue(r.description)), ("gl_account", SQLValue(r.glAccount)),
                ("amount", .real(r.amount.dollars)), ("service_from_date", SQLValue(r.serviceFromDate?.iso)),
                ("service_to_date", SQLValue(r.serviceToDate?.iso)), ("comment", SQLValue(r.comment)),
            ]) }
        case .getResidentTransactions, .getResidentTransactionsByChargeDate, .getResidentTransactionsByApplicationDate:
            try GetResidentTransactions.decode(bytes, answering: operation) { try emit(ledgerRow($0)) }
        default:
            // A programmer's mistake, not bad data: the loader sends only the two ledger operations here.
            preconditionFailure("\(operation.name) is decoded whole, not streamed")
        }
    }

    /// One GetResidentTransactions transaction as yardi_transactions' columns.
    static func ledgerRow(_ r: YardiTransaction) -> [(String, SQLValue)] {
        [
            ("source_row", .integer(Int64(r.sourceIndex))), ("kind", .text(r.kind.rawValue)),
            ("payment_type", SQLValue(r.paymentType)), ("transaction_id", SQLValue(r.transactionID)),
            ("tenant_code", SQLValue(r.tenantCode)), ("unit_code", SQLValue(r.unitCode)), ("lease_id", SQLValue(r.leaseID)),
            ("charge_code", SQLValue(r.chargeCode)), ("description", SQLValue(r.description)),
            ("gl_account", SQLValue(r.glAccount)), ("transaction_date", SQLValue(r.transactionDate?.iso)),
            ("service_from_date", SQLValue(r.serviceFromDate?.iso)), ("post_month", SQLValue(r.postMonth)),
            ("amount", .real(r.amount.dollars)), ("amount_paid", money(r.amountPaid)), ("balance_due", money(r.balanceDue)),
            ("document_number", SQLValue(r.documentNumber)), ("reversal", flag(r.reversal)), ("comment", SQLValue(r.comment)),
        ]
    }

    private static func money(_ value: Money?) -> SQLValue { SOAPSnapshot.money(value) }
    private static func flag(_ value: Bool?) -> SQLValue { SOAPSnapshot.flag(value) }
}
