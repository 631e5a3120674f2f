import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// The occupancy and pricing snapshots count `unified_units` the same way for every PMS.
@Suite struct SnapshotTests {
    /// A unified.db holding one property with the given units (status, floorplan, sqft, market, actual, ...).
    static func store(units: [(unit: String, status: String, floorplan: String, sqft: Int, market: Double,
                                actual: Double?, ready: Int?, vacantSince: String?, noticeFor: String?)]) throws -> (UnifiedStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try UnifiedStore(dataDirectory: DataDirectory(root: directory.path))
        try store.database.execute("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source) VALUES ('p', 'P', 'realpage')
            """)
        let insert = try store.database.prepare("""
            INSERT INTO unified_units (unified_property_id, unit_number, status, floorplan, sqft, market_rent,
                                       actual_rent, is_ready, vacant_since, notice_for_date)
            VALUES ('p', :unit, :status, :fp, :sqft, :market, :actual, :ready, :since, :notice)
            """)
        for u in units {
            try insert.execute([":unit": .text(u.unit), ":status": .text(u.status), ":fp": .text(u.floorplan),
                                ":sqft": .integer(Int64(u.sqft)), ":market": .real(u.market), ":actual": SQLValue(u.actual),
                                ":ready": SQLValue(u.ready), ":since": SQLValue(u.vacantSince), ":notice": SQLValue(u.noticeFor)])
            insert.reset()
        }
        return (store, directory)
    }

    static let asOf = LocalDate(iso: "2026-11-20")!

    @Test func occupancyCountsFollowTheBoxScoreDefinitions() throws {
        let (store, directory) = try Self.store(units: [
            ("101", "occupied", "A1", 700, 1000, 950, nil, nil, nil),
            ("102", "occupied_notice", "A1", 700, 1000, 900, nil, nil, "2026-12-10"),          // within 30
            ("103", "occupied_notice", "A1", 700, 1000, 900, nil, nil, "2027-01-05"),          // within 60 only
            ("104", "occupied_notice_leased", "A1", 700, 1000, 980, nil, nil, "2026-12-01"),   // pre-leased: no exposure
            ("105", "vacant", "B1", 900, 1300, nil, 1, "2026-07-01", nil),                   // aged 142 days, ready
            ("106", "vacant_leased", "B1", 900, 1300, nil, 0, "2026-11-01", nil),
            ("107", "model", "B1", 900, 1300, nil, nil, nil, nil),
            ("108", "down", "B1", 900, 1300, nil, nil, nil, nil),
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = SyncContext(database: store.database, property: Property(key: "p", name: "P", pms: .realpage), runID: "r")
        try context.run(OccupancySnapshot.insert, asOf: Self.asOf, [":run_id": .text("r"), ":source": .text("test")])
        let row = try #require(try store.database.query("""
            SELECT total_units, occupied_units, vacant_units, vacant_leased, vacant_not_leased, vacant_ready,
                   vacant_not_ready, aged_vacant_90, aged_vacancy_cost, on_notice, notice_leased, pre_leased,
                   model_units, down_units, leased_units, physical_occupancy, leased_pct,
                   exposure_now, exposure_30, exposure_60
            FROM unified_occupancy_metrics WHERE unified_property_id = 'p'
            """).first)
        let ints = row.map { $0.doubleValue ?? -1 }
        // total, occupied, vacant (incl. model/down), vacant leased, vacant not leased, ready, not ready, aged
        #expect(Array(ints[0...7]) == [8, 4, 4, 1, 1, 1, 1, 1])
        #expect(ints[8] == 6068.38)  // 1300 / 30.42 x 142 days
        // on notice, notice leased, pre-leased, model, down, leased (101, 104, 106)
        #expect(Array(ints[9...14]) == [3, 1, 2, 1, 1, 3])
        #expect(ints[15] == 50.0 && ints[16] == 37.5)
        // exposure: vacant not leased (105) + notices not leased (102, 103) in the window
        #expect(Array(ints[17...19]) == [3, 2, 3])
    }

    @Test func pricingAveragesCentsHalfUpPerFloorplan() throws {
        let (store, directory) = try Self.store(units: [
            ("101", "occupied", "A1", 700, 1000.01, 950.00, nil, nil, nil),
            ("102", "occupied", "A1", 701, 1000.00, 950.01, nil, nil, nil),
            ("103", "vacant", "A1", 700, 1000.00, nil, 0, "2026-11-01", nil),
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = SyncContext(database: store.database, property: Property(key: "p", name: "P", pms: .realpage), runID: "r")
        try context.run(PricingSnapshot.insert, asOf: Self.asOf, [":run_id": .text("r")])
        let row = try #require(try store.database.query("""
            SELECT units, occupied_units, avg_sqft, in_place_rent, asking_rent, loss_to_lease
            FROM unified_pricing_metrics WHERE floorplan = 'A1'
            """).first)
        #expect(row.map { $0.doubleValue ?? -1 } == [3, 2, 700.33, 950.01, 1000.0, 100.0])
    }
}
