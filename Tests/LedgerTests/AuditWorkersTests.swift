import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Ledger
import Sync
import Testing

/// Audits on worker threads (AuditWorkers) record exactly what the run's own connection records alone, in the same
/// order, and a property whose passes fail fails the run where the serial run would, writing nothing.
@Suite struct AuditWorkersTests {
    /// A unified.db in a temporary directory with PropertyAuditTests' generated ledger for `properties`.
    static func ledger(_ properties: [String]) throws -> (UnifiedStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("audit-workers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try UnifiedStore(dataDirectory: DataDirectory(root: directory.path))
        var random = PropertyAuditTests.SeededGenerator(seed: 7)
        try PropertyAuditTests.generate(store.database, properties: properties, leases: 25, random: &random)
        return (store, directory)
    }

    @Test func workersRecordWhatOneConnectionRecordsInTheSameOrder() throws {
        let properties = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]
        let (store, directory) = try Self.ledger(properties)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = store.database
        let asOf = LocalDate(iso: "2026-11-20")
        let serial = try ChargeAudit.run(database: database, properties: properties, asOf: asOf, months: 14, workers: 0,
                                         now: { "2026-11-21T00:00:00Z" })
        let parallel = try ChargeAudit.run(database: database, properties: properties, asOf: asOf, months: 14, workers: 3,
                                           now: { "2026-11-21T00:00:00Z" })
        #expect(parallel.properties == serial.properties && parallel.properties.count == properties.count)
        #expect(serial.properties.allSatisfy { $0.lines > 100 && $0.exceptions > 0 })
        for (table, columns) in [
            ("audit_results", "unified_property_id, lease_id, resident_id, unit_number, charge_code, month, expected, posted, variance, kind"),
            ("audit_lease_charges", "unified_property_id, lease_id, resident_id, unit_number, charge_code, months, matched, exceptions, expected_total, posted_total"),
            ("audit_run_properties", "unified_property_id, has_ledger, as_of_date, leases, lines, matched, not_audited"),
        ] {
            // Row by row in insertion order: the workers hand the properties back in the run's order.
            let rows = { (runID: Int64) in
                try database.query("SELECT \(columns) FROM \(table) WHERE run_id = :r ORDER BY rowid", [":r": .integer(runID)])
            }
            let (a, b) = (try rows(serial.runID), try rows(parallel.runID))
            #expect(a.count > 0 && a == b, "\(table): \(a.count) rows alone, \(b.count) with workers")
        }
    }

    @Test func aPropertyThatFailsFailsTheRunAndNothingIsRecorded() throws {
        let properties = ["p1", "p2", "p3", "p4", "p5"]
        let (store, directory) = try Self.ledger(properties)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = store.database
        try database.execute("UPDATE unified_properties SET as_of_date = '2026-00-45' WHERE unified_property_id = 'p4'")
        for workers in [0, 2, 4] {
            #expect(throws: AuditError("p4: as-of date \"2026-00-45\" is not a date (YYYY-MM-DD)")) {
                try ChargeAudit.run(database: database, properties: properties, asOf: LocalDate(iso: "2026-11-20"),
                                    months: 6, workers: workers, now: { "2026-11-21T00:00:00Z" })
            }
            #expect(try database.scalar("SELECT count(*) FROM audit_runs")?.integerValue == 0, "workers \(workers)")
            #expect(try database.scalar("SELECT count(*) FROM audit_results")?.integerValue == 0, "workers \(workers)")
        }
        // The database is still usable: the workers closed their connections and the write transaction rolled back.
        try database.execute("UPDATE unified_properties SET as_of_date = '2026-11-20' WHERE unified_property_id = 'p4'")
        let run = try ChargeAudit.run(database: database, properties: properties, asOf: LocalDate(iso: "2026-11-20"),
                                      months: 6, workers: 2, now: { "2026-11-21T00:00:00Z" })
        #expect(run.properties.count == properties.count)
    }

    @Test func howManyWorkers() {
        #expect(AuditWorkers.count(properties: 500, path: "/d/unified.db", cores: 2) == 2)
        #expect(AuditWorkers.count(properties: 500, path: "/d/unified.db", cores: 16) == 4)
        #expect(AuditWorkers.count(properties: 3, path: "/d/unified.db", cores: 8) == 3)
        #expect(AuditWorkers.count(properties: 1, path: "/d/unified.db", cores: 8) == 0)
        #expect(AuditWorkers.count(properties: 500, path: "/d/unified.db", cores: 1) == 0)
        #expect(AuditWorkers.count(properties: 500, path: ":memory:", cores: 8) == 0)
    }
}
