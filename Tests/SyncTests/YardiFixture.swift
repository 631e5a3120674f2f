import Foundation
import OwnerDashCore
import RawStore
import SOAP
import SimulatorSupport
import SQLiteKit
@testable import Sync

/// A temporary data directory with a hand-built yardi_raw.db (rows inserted with SQL, as the loader would leave
/// them) and the unified.db the Synchronizer writes from it. Each test makes its own and it is removed on deinit.
final class YardiFixture {
    static let asOf = "2026-11-20"
    static let property = Property(key: "yp_test", name: "Test Yardi", pms: .yardi, propertyCode: "test01")

    let directory: URL
    let raw: YardiRawStore
    let store: UnifiedStore
    private var nextRow: [String: Int] = [:]

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("yardi-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let data = DataDirectory(root: directory.path)
        raw = try YardiRawStore(path: data.yardiRawDatabase)
        store = try UnifiedStore(dataDirectory: data)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    static let operations = ["yardi_units": "GetUnitInformation", "yardi_residents": "GetResidentsByStatus",
                             "yardi_available_units": "AvailableUnits_Login",
                             "yardi_transactions": "GetResidentTransactions_Login",
                             "yardi_lease_charges": "GetResidentLeaseCharges_Login",
                             "yardi_guest_activity": "GetYardiGuestActivity_Login",
                             "yardi_service_requests": "GetServiceRequest_Search",
                             "yardi_invoice_lines": "GetInvoiceRegister"]

    /// Records a loaded snapshot (even an empty one) of an operation, as the loader does.
    func loaded(_ operation: String, asOf: String = asOf, property: String = property.key) throws {
        try raw.database.prepare("""
            INSERT OR IGNORE INTO loaded_artifacts (operation, property_id, as_of_date, artifact, artifact_sha256, run_id, row_count)
            VALUES (:operation, :property, :as_of, :artifact, 'sha', 'run', 0)
            """).execute([":operation": .text(operation), ":property": .text(property), ":as_of": .text(asOf),
                          ":artifact": .text("landing/run/yardi/\(property)/\(operation).xml")])
    }

    /// Records every operation the rules read as loaded for `asOf` (empty snapshots unless rows are inserted).
    func loadedEverything(asOf: String = asOf, property: String = property.key) throws {
        for operation in Self.operations.values { try loaded(operation, asOf: asOf, property: property) }
    }

    /// Inserts one raw row with its lineage; its snapshot is recorded in loaded_artifacts.
    func insert(_ table: String, _ values: [String: SQLValue], asOf: String = asOf, property: String = property.key) throws {
        let key = "\(table)/\(property)/\(asOf)"
        let row = (nextRow[key] ?? 0) + 1
        nextRow[key] = row
        var all = values
        all["lineage_id"] = .integer(try RawLineage.id(raw.database, runID: "run", propertyID: property, asOf: asOf,
                                                       artifact: "landing/run/yardi/\(property)/\(table).xml", sha256: "sha"))
        all["property_id"] = .text(property); all["as_of_date"] = .text(asOf)
        all["source_row"] = .integer(Int64(row))
        let columns = all.keys.sorted()
        try raw.database.prepare("""
            INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { ":" + $0 }.joined(separator: ", ")))
            """).execute(Dictionary(uniqueKeysWithValues: all.map { (":" + $0.key, $0.value) }))
        if let operation = Self.operations[table] { try loaded(operation, asOf: asOf, property: property) }
    }

    /// A GetUnitInformation unit (floorplan a1, 1 bed, 700 sq ft unless given).
    func unit(_ code: String, _ description: String?, tenant: String? = nil, economic: String = "residential",
              type: String = "a1", market: Double = 1500, sqft: Int = 700, available: String? = nil,
              asOf: String = asOf, property: String = property.key) throws {
        try insert("yardi_units", [
            "unit_code": .text(code), "unit_unique_id": .text("u\(code)"), "tenant_code": SQLValue(tenant),
            "unit_type": .text(type), "bedrooms": .integer(1), "bathrooms": .real(1), "min_sqft": .integer(Int64(sqft)),
            "max_sqft": .integer(Int64(sqft)), "market_rent": .real(market), "economic_status": .text(economic),
            "economic_status_description": SQLValue(description), "floorplan_name": .text("One Bedroom"),
            "building_name": .text("Building 01"), "date_available": SQLValue(available),
        ], asOf: asOf, property: property)
    }

    /// A GetResidentsByStatus resident.
    func resident(_ tenant: String, _ status: String, unit: String, rent: Double = 1400, leaseID: String? = nil,
                  leaseFrom: String? = nil, leaseTo: String? = nil, moveIn: String? = nil, moveOut: String? = nil,
                  notice: String? = nil, roommate: Bool = false, first: String = "Ann", last: String = "Lee",
                  asOf: String = asOf, property: String = property.key) throws {
        try insert("yardi_residents", [
            "tenant_code": .text(tenant), "status": .text(status), "first_name": .text(first), "last_name": .text(last),
            "unit_code": .text(unit), "rent": .real(rent), "lease_id": SQLValue(leaseID),
            "lease_from_date": SQLValue(leaseFrom), "lease_to_date": SQLValue(leaseTo), "move_in_date": SQLValue(moveIn),
            "move_out_date": SQLValue(moveOut), "notice_date": SQLValue(notice), "is_roommate": .integer(roommate ? 1 : 0),
            "other_occupants": .integer(0), "payment_accepted": .integer(1),
        ], asOf: asOf, property: property)
    }

    /// An AvailableUnits_Login unit.
    func available(_ code: String, _ description: String, vacate: String? = nil, madeReady: String? = nil,
                   asOf: String = asOf) throws {
        try insert("yardi_available_units", [
            "unit_code": .text(code), "economic_status": .text("residential"),
            "economic_status_description": .text(description), "vacate_date": SQLValue(vacate),
            "made_ready_date": SQLValue(madeReady),
        ], asOf: asOf)
    }

    /// A GetResidentTransactions_Login charge: `paid` of `amount` applied, the rest still due.
    func charge(_ tenant: String?, _ date: String, _ amount: Double, paid: Double = 0, due: Double? = nil,
                unit: String = "101", code: String = "rent", asOf: String = asOf) throws {
        try insert("yardi_transactions", [
            "kind": .text("charge"), "tenant_code": SQLValue(tenant), "unit_code": .text(unit),
            "charge_code": .text(code), "transaction_date": .text(date), "amount": .real(amount),
            "amount_paid": .real(paid), "balance_due": .real(due ?? amount - paid),
        ], asOf: asOf)
    }

    /// A GetResidentTransactions_Login payment.
    func payment(_ tenant: String, _ date: String, _ amount: Double, asOf: String = asOf) throws {
        try insert("yardi_transactions", [
            "kind": .text("payment"), "payment_type": .text("Other"), "tenant_code": .text(tenant),
            "transaction_date": .text(date), "amount": .real(amount),
        ], asOf: asOf)
    }

    /// A GetServiceRequest_Search request of unit `unit` (times `YYYY-MM-DDTHH:MM:SS`).
    func serviceRequest(_ id: String, unit: String, category: String? = "Plumbing", status: String, requestedAt: String,
                        updatedAt: String? = nil, completedAt: String? = nil) throws {
        try insert("yardi_service_requests", [
            "service_request_id": .text(id), "unit_code": .text(unit), "category": SQLValue(category),
            "brief_description": .text("Leaking faucet"), "current_status": .text(status),
            "requested_at": .text(requestedAt), "updated_at": SQLValue(updatedAt ?? completedAt ?? requestedAt),
            "completed_at": SQLValue(completedAt),
        ])
    }

    /// A GetInvoiceRegister detail line of invoice `invoice`, posted to `postMonth` (`YYYY-MM`).
    func invoiceLine(_ invoice: String, postMonth: String, invoiceDate: String, account: String, name: String? = nil,
                     amount: Double, asOf: String = asOf) throws {
        try insert("yardi_invoice_lines", [
            "invoice_index": .integer(1), "invoice_id": .text(invoice), "vendor_id": .text("v0000120"),
            "invoice_date": .text(invoiceDate), "post_month": .text(postMonth), "gl_account": .text(account),
            "gl_account_name": SQLValue(name), "amount": .real(amount),
        ], asOf: asOf)
    }

    /// A GetYardiGuestActivity_Login event of prospect `prospect`.
    func guestEvent(_ prospect: String, _ type: String, _ date: String, firstContact: Bool = false,
                    tenant: String? = nil, source: String = "Zillow") throws {
        try insert("yardi_guest_activity", [
            "prospect_index": .integer(1), "prospect_id": .text(prospect), "tenant_code": SQLValue(tenant),
            "first_name": .text("Pat"), "last_name": .text("Diaz"), "event_type": .text(type),
            "event_at": .text(date + "T10:00:00"), "event_date": .text(date), "agent_name": .text("Alex Rivera"),
            "first_contact": .integer(firstContact ? 1 : 0), "transaction_source": .text(source),
        ])
    }

    /// Syncs the properties (default: the fixture's one) with the production Synchronizer.
    @discardableResult
    func sync(_ properties: [Property] = [property], runID: String = "20261120T000000Z-test") -> [PropertySyncOutcome] {
        Synchronizer(store: store, runID: runID).sync(properties, log: Diagnostics(sink: { _ in }))
    }

    /// Rows of a query on unified.db (raw attached).
    func rows(_ sql: String) throws -> [[SQLValue]] { try store.database.query(sql) }

    /// One row per key (first column), the other columns as SQL values.
    func keyed(_ sql: String) throws -> [String: [SQLValue]] {
        Dictionary(try rows(sql).map { ($0[0].textValue ?? "", Array($0.dropFirst())) }) { first, _ in first }
    }
}

extension YardiFixture {
    /// Loads Tests/Fixtures/soap/<name> (a Yardi response) into the raw store with the production loader, as the
    /// fixture's property and property date.
    func loadSOAP(_ name: String, _ operation: YardiOperation) throws {
        let path = repositoryRoot.appendingPathComponent("Tests/Fixtures/soap/\(name)").path
        _ = try YardiArtifactLoader(store: raw, runID: RunID("run")).load(
            path: path, operation: operation, property: Self.property, asOf: LocalDate(iso: Self.asOf)!)
    }
}
