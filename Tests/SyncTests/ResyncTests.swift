import Foundation
import OwnerDashCore
import SQLiteKit
import SimulatorSupport
import Testing

/// Re-syncing one property, and a sync killed part-way, on the simulated portfolio through the built binary
/// (docs/contracts.md, "Reliability", and the sync issue: cost proportional to the properties synced; kill -9 at any
/// moment leaves unified.db consistent and the next sync completes).
@Suite struct ResyncTests {
    /// Every per-property unified table, with rowid: a row deleted and inserted again gets a new rowid (the activity
    /// rows' `id` is their rowid), so equal rows with equal rowids mean the property was not rewritten.
    static let propertyTables = ["unified_properties", "unified_units", "unified_residents", "unified_leases",
                                 "unified_lease_residents", "unified_activity", "unified_occupancy_metrics",
                                 "unified_pricing_metrics", "unified_delinquency", "unified_sync_warnings"]

    @Test func reSyncingOnePropertyRewritesItAloneAndLeavesTheOthersByteForByte() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        try Self.sync(data, portfolio, [])
        let before = try Self.rowsWithRowIDs(data, portfolio)

        // Nothing loaded since: nexus_east is left as the first sync wrote it (its run item says `unchanged`).
        try Self.sync(data, portfolio, ["--property", "nexus_east"])
        #expect(try Self.rowsWithRowIDs(data, portfolio) == before)
        // A load that wrote nothing new (the same rows parsed again) still renews the property's raw-state token
        // (RawStateTokens): the next sync computes nexus_east again, and writes none of its rows that did not change.
        try Database(path: data.realpageRawDatabase).execute("UPDATE raw_state_tokens SET token = random() WHERE property_id = 'nexus_east'")
        try Self.sync(data, portfolio, ["--property", "nexus_east"])
        let after = try Self.rowsWithRowIDs(data, portfolio)
        for key in SimulatedPortfolio.propertyKeys where key != "nexus_east" {
            #expect(Self.differingTables(after[key], before[key]).isEmpty, "\(key): rewritten by a sync of nexus_east")
        }
        // The synced property itself was synced again (its run is the new sync's), but nothing in its raw data
        // changed, so none of its current-state rows was written again: its activity rows keep their row ids.
        let activityIDs = { (rows: [String: [[SQLValue]]]?) in Set((rows?["unified_activity"] ?? []).map { $0[0] }) }
        #expect(!activityIDs(before["nexus_east"]).isEmpty)
        #expect(activityIDs(after["nexus_east"]) == activityIDs(before["nexus_east"]))
        for table in ["unified_units", "unified_residents", "unified_leases", "unified_lease_residents"] {
            #expect(after["nexus_east"]?[table] == before["nexus_east"]?[table], "nexus_east's \(table) was rewritten")
        }
        let runs = try Self.texts(data, "SELECT last_run_id FROM unified_properties WHERE unified_property_id = 'nexus_east'")
        let syncRuns = try Self.texts(data, "SELECT run_id FROM etl_runs WHERE trigger = 'sync' ORDER BY rowid")
        #expect(syncRuns.count == 3)
        #expect(runs == [syncRuns.last])
    }

    @Test func aSyncKilledPartWayLeavesWholePropertiesAndTheNextSyncCompletes() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let reference = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: reference.root) }
        try Self.sync(reference, portfolio, [])
        let expected = try Self.content(reference, portfolio)
        #expect(expected.values.allSatisfy { !($0["unified_units"] ?? []).isEmpty })

        // Killed as soon as at least one property has committed and before the last one has: at that moment the
        // process is inside (or between) the transactions of the others. Tried a few times, since a fast machine
        // may finish the sync between two polls.
        var killedPartWay = false
        for _ in 0..<5 where !killedPartWay {
            let data = try portfolio.copyOfLoadedData()
            defer { try? FileManager.default.removeItem(atPath: data.root) }
            let sync = Process()
            sync.executableURL = ownerdashBinary
            sync.arguments = ["sync", "--quiet", "--data-dir", data.root, "--config", portfolio.configPath]
            sync.standardOutput = FileHandle.nullDevice
            sync.standardError = FileHandle.nullDevice
            try sync.run()
            var committed = 0
            let deadline = Date().addingTimeInterval(60)
            while sync.isRunning && Date() < deadline {
                committed = (try? Self.committedProperties(data)) ?? 0
                if committed >= 1 { break }
                Thread.sleep(forTimeInterval: 0.002)
            }
            guard sync.isRunning else { continue }
            kill(sync.processIdentifier, SIGKILL)
            sync.waitUntilExit()
            #expect(sync.terminationReason == .uncaughtSignal)

            let afterKill = try Self.content(data, portfolio)
            #expect(try Self.texts(data, "PRAGMA integrity_check") == ["ok"])
            #expect(try Self.texts(data, "PRAGMA foreign_key_check").isEmpty)
            let present = SimulatedPortfolio.propertyKeys.filter { !(afterKill[$0]?["unified_properties"] ?? []).isEmpty }
            killedPartWay = !present.isEmpty && present.count < SimulatedPortfolio.propertyKeys.count
            // A property is there whole, exactly as a complete sync writes it, or not at all.
            for key in SimulatedPortfolio.propertyKeys {
                if present.contains(key) {
                    #expect(Self.differingTables(afterKill[key], expected[key]).isEmpty, "\(key): half-written by the killed sync")
                } else {
                    #expect(afterKill[key]?.values.allSatisfy(\.isEmpty) == true, "\(key): rows without its property")
                }
            }
            // The killed run is still `running` until the next writer takes the lock and marks it abandoned.
            let next = Process()
            next.executableURL = ownerdashBinary
            next.arguments = ["sync", "--quiet", "--data-dir", data.root, "--config", portfolio.configPath]
            next.standardOutput = FileHandle.nullDevice
            next.standardError = FileHandle.nullDevice
            try next.run()
            next.waitUntilExit()
            #expect(next.terminationStatus == 0)
            let resynced = try Self.content(data, portfolio)
            for key in SimulatedPortfolio.propertyKeys {
                #expect(Self.differingTables(resynced[key], expected[key]).isEmpty, "\(key): differs after the next sync")
            }
            // By the pid each run recorded: both may start within the same second, and run ids end in a random suffix.
            let killed = sync.processIdentifier
            let killedRun = try Self.texts(data, "SELECT status FROM etl_runs WHERE pid = \(killed)")
            let nextRun = try Self.texts(data, "SELECT status FROM etl_runs WHERE pid <> \(killed)")
            #expect(killedRun == ["abandoned"] && nextRun == ["succeeded"], "killed sync: \(killedRun), next: \(nextRun)")
        }
        #expect(killedPartWay, "every sync finished before it could be killed part-way")
    }

    // MARK: - helpers

    static func sync(_ data: DataDirectory, _ portfolio: SimulatedPortfolio, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = ownerdashBinary
        process.arguments = ["sync", "--quiet", "--data-dir", data.root, "--config", portfolio.configPath] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "ownerdash sync \(arguments) exited \(process.terminationStatus)")
    }

    /// Properties whose sync has committed, read as an analyst would while the sync writes (nil before unified.db exists).
    static func committedProperties(_ data: DataDirectory) throws -> Int {
        guard FileManager.default.fileExists(atPath: data.unifiedDatabase) else { return 0 }
        let database = try Database(path: data.unifiedDatabase, mode: .readOnly)
        return Int(try database.scalar("SELECT count(*) FROM unified_properties")?.integerValue ?? 0)
    }

    static func texts(_ data: DataDirectory, _ sql: String) throws -> [String] {
        try Database(path: data.unifiedDatabase, mode: .readOnly).query(sql).map { $0.first?.textValue ?? "" }
    }

    /// Per property and table, every row with its rowid.
    static func rowsWithRowIDs(_ data: DataDirectory, _ portfolio: SimulatedPortfolio) throws -> [String: [String: [[SQLValue]]]] {
        try perProperty(data) { table in "SELECT rowid, * FROM \(table) WHERE unified_property_id = :property ORDER BY rowid" }
    }

    /// Per property and table, the synced content: every column but the rowid, the sync's time and run, which differ
    /// between two syncs of the same raw data.
    static func content(_ data: DataDirectory, _ portfolio: SimulatedPortfolio) throws -> [String: [String: [[SQLValue]]]] {
        let database = try Database(path: data.unifiedDatabase, mode: .readOnly)
        var columns: [String: String] = [:]
        for table in propertyTables {
            let names = try database.query("SELECT name FROM pragma_table_info('\(table)')").compactMap { $0.first?.textValue }
            columns[table] = names.filter { !["id", "run_id", "last_run_id", "last_synced_at"].contains($0) }
                .joined(separator: ", ")
        }
        return try perProperty(data) { table in
            "SELECT \(columns[table] ?? "*") FROM \(table) WHERE unified_property_id = :property ORDER BY \(columns[table] ?? "1")"
        }
    }

    /// The tables whose rows differ between two snapshots of one property (a short failure message, not every row).
    static func differingTables(_ a: [String: [[SQLValue]]]?, _ b: [String: [[SQLValue]]]?) -> [String] {
        propertyTables.filter { a?[$0] != b?[$0] }
    }

    private static func perProperty(_ data: DataDirectory, _ sql: (String) -> String) throws -> [String: [String: [[SQLValue]]]] {
        let database = try Database(path: data.unifiedDatabase, mode: .readOnly)
        var result: [String: [String: [[SQLValue]]]] = [:]
        for key in SimulatedPortfolio.propertyKeys {
            for table in propertyTables {
                result[key, default: [:]][table] = try database.query(sql(table), [":property": .text(key)])
            }
        }
        return result
    }
}
