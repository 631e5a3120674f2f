import Foundation
import OwnerDashCore
import SQLiteKit
import Testing
@testable import Sync

/// unified.db as `UnifiedStore` creates and opens it.
@Suite struct UnifiedStoreTests {
    /// A new unified.db is made in the store's large pages; one an earlier build made in SQLite's 4 KiB pages opens,
    /// migrates and keeps its rows and its pages (a page size changes only by VACUUM, never behind the user's back).
    @Test func aNewUnifiedDatabaseTakesLargePagesAndAnEarlierOneKeepsItsOwn() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let fresh = DataDirectory(root: root.appendingPathComponent("fresh").path)
        let earlier = DataDirectory(root: root.appendingPathComponent("earlier").path)
        for data in [fresh, earlier] { try FileManager.default.createDirectory(atPath: data.root, withIntermediateDirectories: true) }

        let made = try UnifiedStore(dataDirectory: fresh).database
        #expect(try made.pageSize() == UnifiedStore.pageSize)
        #expect(try made.scalar("PRAGMA temp.page_size") == .integer(Int64(UnifiedStore.pageSize)))
        #expect(UnifiedStore.pageSize > 4_096)

        // An earlier build's unified.db: SQLite's default pages, one migration in, a property row.
        do {
            let database = try Database(path: earlier.unifiedDatabase)
            try database.migrate(Array(UnifiedSchema.migrations.prefix(1)))
            try database.execute("INSERT INTO unified_properties (unified_property_id, name, pms_source) VALUES ('p1', 'One', 'realpage')")
        }
        let store = try UnifiedStore(dataDirectory: earlier)
        #expect(try store.database.pageSize() == 4_096)
        #expect(try store.database.userVersion() == UnifiedSchema.migrations.map(\.version).max())
        #expect(try store.database.scalar("SELECT name FROM unified_properties WHERE unified_property_id = 'p1'") == .text("One"))
    }
}
