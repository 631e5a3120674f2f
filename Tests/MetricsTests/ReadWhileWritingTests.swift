import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Metrics
import Sync
import Testing

/// Queries read unified.db read-only and never wait on a sync: while another connection holds a write transaction
/// (as `Synchronizer` does, BEGIN IMMEDIATE per property), a query answers at once from the last committed state.
@Suite struct ReadWhileWritingTests {
    @Test func aQueryDuringASyncTransactionReadsTheCommittedSnapshotWithoutWaiting() throws {
        let fixture = try OccupancyTests.portfolio()
        let reader = try fixture.reader()
        #expect(try Metrics.summary(database: reader, properties: ["alpha"]).first?.occupancyPct == 90)

        // A sync of alpha, half-way: its snapshot deleted and rewritten, not committed.
        let writer = fixture.database
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("DELETE FROM unified_occupancy_metrics WHERE unified_property_id = 'alpha'")
        try fixture.occupancy("alpha", "2026-11-20", total: 10, occupied: 5, leased: 5)
        try fixture.occupancy("alpha", "2026-11-21", total: 10, occupied: 4, leased: 4)

        // A reader opened now, and the one opened before, both answer from the committed state, well inside the
        // 5 s busy timeout they would have waited had they been blocked.
        for database in [reader, try fixture.reader()] {
            let started = Date()
            let result = try Metrics.run(MetricQuery(metric: .summary), database: database)
            #expect(Date().timeIntervalSince(started) < 1)
            #expect(result.tables[0].rows.count == 2)
            let summary = try Metrics.summary(database: database, properties: ["alpha"])
            #expect(summary.first?.asOf == day("2026-11-20") && summary.first?.occupancyPct == 90)
        }
        // A read-only connection cannot write, even while nobody else does.
        #expect(throws: SQLiteError.self) { try reader.execute("DELETE FROM unified_properties") }

        try writer.execute("COMMIT")
        let after = try Metrics.summary(database: reader, properties: ["alpha"])
        #expect(after.first?.asOf == day("2026-11-21") && after.first?.occupancyPct == 40)
    }

    /// The same from another thread while the writer keeps its transaction open for a while.
    @Test func readsFromAnotherThreadFinishBeforeTheWriterCommits() async throws {
        let fixture = try OccupancyTests.portfolio()
        let writer = fixture.database
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("UPDATE unified_occupancy_metrics SET occupied_units = 1")
        let dataDirectory = fixture.dataDirectory
        let occupied = try await Task.detached {
            let reader = try UnifiedStore.openForReading(dataDirectory: dataDirectory)
            return try (0..<20).map { _ in try Metrics.occupancy(database: reader, properties: ["alpha", "beta"]).map(\.occupied) }
        }.value
        try writer.execute("ROLLBACK")
        #expect(occupied.allSatisfy { $0 == [9, 24] })
    }
}
