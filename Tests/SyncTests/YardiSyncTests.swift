import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// The Yardi source as the Synchronizer runs it: property date, snapshot choice, idempotence, rollback, cross-checks.
@Suite struct YardiSyncTests {
    @Test func thePropertyDateIsTheLatestUnitSnapshotAndOtherOperationsAreReadOnOrBeforeIt() throws {
        let yardi = try YardiFixture()
        try yardi.unit("101", "Vacant Unrented Ready", asOf: "2026-11-18")
        try yardi.unit("101", "Occupied No Notice", tenant: "t1", asOf: "2026-11-20")
        try yardi.resident("t1", "Current", unit: "101", rent: 1000, asOf: "2026-11-19")
        try yardi.resident("t1", "Current", unit: "101", rent: 2000, asOf: "2026-11-21")
        try yardi.available("101", "Occupied No Notice", asOf: "2026-11-20")
        try yardi.charge("t1", "2026-11-01", 1000, asOf: "2026-11-22")  // only a later ledger: read, and warned
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil)
        #expect(outcome.asOf?.iso == "2026-11-20")
        #expect(try yardi.rows("SELECT status, actual_rent FROM unified_units") == [[.text("occupied"), .real(1000)]])
        #expect(try yardi.rows("SELECT as_of_date, current_balance FROM unified_delinquency")
                    == [[.text("2026-11-20"), .real(1000)]])

        let snapshots = Dictionary(uniqueKeysWithValues: outcome.warnings.filter { $0.check == "snapshot" }
            .map { ($0.subject, $0.actual) })
        #expect(snapshots == ["GetResidentsByStatus": "2026-11-19", "GetResidentTransactions_Login": "2026-11-22",
                              "GetResidentLeaseCharges_Login": "none", "GetYardiGuestActivity_Login": "none",
                              "GetServiceRequest_Search": "none", "GetInvoiceRegister": "none"])
        let message = outcome.warnings.first { $0.subject == "GetResidentsByStatus" }?.message ?? ""
        #expect(message.contains("2026-11-19 snapshot") && message.contains("2026-11-20"))
    }

    /// Nothing loaded fails the property; without a unit snapshot (GetUnitInformation failed) the property is dated
    /// by its latest snapshot and synced from what loaded, the missing units named (YardiVendorShapesTests has the
    /// metrics' side).
    @Test func withoutAUnitSnapshotThePropertyIsSyncedFromWhatLoaded() throws {
        let yardi = try YardiFixture()
        let nothing = try #require(yardi.sync().first?.error)
        #expect(nothing.contains("nothing loaded"))
        try yardi.resident("t1", "Current", unit: "101")
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil && outcome.asOf?.iso == YardiFixture.asOf)
        #expect(outcome.rows["unified_residents"] == 1 && outcome.rows["unified_units"] == 0)
        #expect(outcome.warnings.contains { $0.check == "units_missing" && $0.message.hasPrefix("no GetUnitInformation snapshot loaded") })
    }

    /// Every unified row of the fixture's property, table by table (ids and sync timestamps left out).
    static func everything(_ yardi: YardiFixture) throws -> [String: [[SQLValue]]] {
        let queries = [
            "unified_properties": "SELECT unified_property_id, name, pms_source, pms_property_id, total_units, as_of_date, last_run_id FROM unified_properties",
            "unified_units": "SELECT * FROM unified_units ORDER BY unit_number",
            "unified_residents": "SELECT * FROM unified_residents ORDER BY resident_id",
            "unified_leases": "SELECT * FROM unified_leases ORDER BY lease_id",
            "unified_lease_residents": "SELECT * FROM unified_lease_residents ORDER BY lease_id, resident_id",
            "unified_activity": """
                SELECT unified_property_id, event_date, event_type, pms_event_type, unit_number, party_name, party_id,
                       source, agent
                FROM unified_activity ORDER BY id
                """,
            "unified_occupancy_metrics": "SELECT * FROM unified_occupancy_metrics ORDER BY as_of_date",
            "unified_pricing_metrics": "SELECT * FROM unified_pricing_metrics ORDER BY as_of_date, floorplan",
            "unified_delinquency": "SELECT * FROM unified_delinquency ORDER BY as_of_date, resident_id",
            "unified_sync_warnings": "SELECT * FROM unified_sync_warnings ORDER BY check_name, subject",
        ]
        return try queries.mapValues { try yardi.rows($0) }
    }

    /// A small property with a row in every unified table and one cross-check warning.
    static func smallProperty(_ yardi: YardiFixture, property: String = YardiFixture.property.key) throws {
        try yardi.loadedEverything(property: property)
        try yardi.unit("101", "Occupied No Notice", tenant: "t1", property: property)
        try yardi.unit("102", "Notice Rented", tenant: "t2", type: "b1", market: 2000, sqft: 1000, property: property)
        try yardi.unit("103", "Vacant Unrented Not Ready", type: "b1", market: 2100, sqft: 1000, property: property)
        try yardi.resident("t1", "Current", unit: "101", rent: 1400, leaseID: "L1", leaseFrom: "2026-01-01",
                           moveIn: "2025-01-01", property: property)
        try yardi.resident("t2", "Notice", unit: "102", rent: 1900, leaseID: "L2", moveIn: "2024-01-01",
                           moveOut: "2026-12-10", notice: "2026-11-01", property: property)
        try yardi.resident("t3", "Past", unit: "103", leaseID: "L3", moveIn: "2023-01-01", moveOut: "2026-10-01",
                           property: property)
        if property == YardiFixture.property.key {
            try yardi.charge("t1", "2026-10-01", 1400)
            try yardi.guestEvent("p1", "Email", "2026-11-02", firstContact: true)
            try yardi.guestEvent("p1", "Show", "2026-11-04")
            try yardi.guestEvent("p1", "Teleport", "2026-11-05")  // a cross-check warning
        }
    }

    @Test func reSyncingGivesIdenticalRows() throws {
        let yardi = try YardiFixture()
        try Self.smallProperty(yardi)
        #expect(yardi.sync().first?.error == nil)
        let first = try Self.everything(yardi)
        #expect(first.values.allSatisfy { !$0.isEmpty }, "every unified table has rows")
        #expect(yardi.sync().first?.error == nil)
        #expect(try Self.everything(yardi) == first)
    }

    @Test func aFailingPropertyRollsBackAndTheOthersStillSync() throws {
        let yardi = try YardiFixture()
        let other = Property(key: "yp_other", name: "Other Yardi", pms: .yardi, propertyCode: "other01")
        try Self.smallProperty(yardi)
        try Self.smallProperty(yardi, property: other.key)
        #expect(yardi.sync([YardiFixture.property, other]).allSatisfy { $0.error == nil })
        let before = try Self.everything(yardi)

        // A new snapshot for both; the other property's holds a status text no rule knows.
        try yardi.loadedEverything(asOf: "2026-11-21")
        try yardi.loadedEverything(asOf: "2026-11-21", property: other.key)
        try yardi.unit("101", "Vacant Unrented Ready", asOf: "2026-11-21")
        try yardi.unit("101", "Vacant Rented Someday", asOf: "2026-11-21", property: other.key)
        let outcomes = yardi.sync([YardiFixture.property, other])
        #expect(outcomes.map { $0.error == nil } == [true, false])
        #expect(outcomes[1].error?.contains("unit 101 'Vacant Rented Someday'") == true)

        let after = try Self.everything(yardi)
        for (table, rows) in before {
            let otherBefore = rows.filter { $0.first == .text(other.key) }
            let otherAfter = after[table, default: []].filter { $0.first == .text(other.key) }
            #expect(otherAfter == otherBefore, "\(table): the failed property's rows are as before")
        }
        #expect(try yardi.rows("SELECT unified_property_id, as_of_date FROM unified_properties ORDER BY 1")
                    == [[.text("yp_other"), .text("2026-11-20")], [.text("yp_test"), .text("2026-11-21")]])
    }

    @Test func crossChecksNameBothValuesOfEveryDisagreement() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.unit("101", "Vacant Unrented Ready")
        try yardi.available("101", "Vacant Rented Ready", madeReady: "2026-11-01")
        try yardi.unit("102", "Vacant Unrented Ready")
        try yardi.available("102", "Vacant Unrented Ready")
        try yardi.unit("103", "Notice Unrented", tenant: "t103")
        try yardi.resident("t103", "Notice", unit: "103", moveIn: "2025-01-01")
        try yardi.unit("104", "Occupied No Notice", tenant: "t104")
        try yardi.unit("105", "Occupied No Notice", tenant: "t105")
        try yardi.resident("t105", "Notice", unit: "105", moveIn: "2025-01-01", moveOut: "2026-12-10")
        try yardi.unit("106", "Vacant Unrented Not Ready", economic: "down")
        try yardi.unit("107", "Vacant Rented Not Ready")
        try yardi.available("107", "Vacant Rented Not Ready")  // agrees: no warning
        try yardi.charge(nil, "2026-11-01", 10)
        try yardi.guestEvent("p1", "Teleport", "2026-11-01")
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil)

        let stored = try yardi.keyed("""
            SELECT check_name || ' ' || subject, expected, actual, message FROM unified_sync_warnings
            """)
        #expect(stored.keys.sorted() == [
            "current_resident 104", "guest_event_type Teleport", "ledger_tenant GetResidentTransactions_Login",
            "made_ready 102", "notice_move_out 103", "notice_move_out 105", "unit_economic_status 106",
            "unit_status_available_units 101",
        ])
        func message(_ key: String) -> String { stored[key]?[2].textValue ?? "" }
        #expect(message("unit_status_available_units 101").contains("GetUnitInformation says 'Vacant Unrented Ready', AvailableUnits says 'Vacant Rented Ready'"))
        #expect(message("made_ready 102").contains("says ready, AvailableUnits has no MadeReadyDate"))
        #expect(message("notice_move_out 103").contains("nor AvailableUnits gives a move-out date"))
        #expect(message("notice_move_out 105").contains("household t105 is 'Notice' with move-out 2026-12-10"))
        #expect(message("current_resident 104").contains("no resident t104"))
        #expect(message("unit_economic_status 106").contains("UnitEconomicStatus is 'down'"))
        #expect(message("ledger_tenant GetResidentTransactions_Login").contains("1 ledger rows"))
        #expect(outcome.warnings.count == stored.count)
    }
}
