import Foundation
import OwnerDashCore
import SQLiteKit
import Testing
@testable import Sync

/// The sync's TEMP twins and scratch tables kept from one property to the next on a connection (`Synchronizer`'s
/// `keepsTwins`, as the ingest's pipeline and the sync workers sync): the rows written are those a sync that makes its
/// TEMP tables for each property writes, two properties alike change no TEMP table between them (what spares SQLite
/// compiling every rule again), and once the syncs are done unqualified names read main's tables again.
@Suite struct KeptTwinsTests {
    /// Every per-property table's rows, without the run's stamp and the row ids.
    static func content(_ database: Database, _ keys: [String]) throws -> [String: [[SQLValue]]] {
        var content: [String: [[SQLValue]]] = [:]
        for table in Synchronizer.currentStateTables + ["unified_delinquency", "unified_occupancy_metrics",
                                                         "unified_delinquency_metrics", "unified_sync_warnings"] {
            let columns = try database.query("SELECT name FROM pragma_table_info(:t, 'main')", [":t": .text(table)])
                .compactMap { $0.first?.textValue }.filter { !["run_id", "id", "synced_at"].contains($0) }
            let list = columns.joined(separator: ", ")
            for key in keys {
                content["\(table) \(key)"] = try database.query(
                    "SELECT \(list) FROM main.\(table) WHERE unified_property_id = :p ORDER BY \(list)", [":p": .text(key)])
            }
        }
        return content
    }

    /// The TEMP tables named like a unified table (the twins) on `database`, and their rows.
    static func twins(_ database: Database) throws -> [String: Int] {
        var rows: [String: Int] = [:]
        for row in try database.query("SELECT name FROM temp.sqlite_schema WHERE type = 'table' AND name LIKE 'unified_%'") {
            guard let name = row.first?.textValue else { continue }
            rows[name] = Int(try database.scalar("SELECT count(*) FROM temp.\(name)")?.integerValue ?? -1)
        }
        return rows
    }

    /// A night's changes in the raw data, the same in each copy: renamed residents of both vendors, so that the
    /// second syncs write rows in several tables.
    static func change(_ data: DataDirectory) throws {
        try Database(path: data.realpageRawDatabase).execute(
            "UPDATE realpage_residents SET first_name = first_name || 'e' WHERE id % 5 = 0")
        try Database(path: data.yardiRawDatabase).execute(
            "UPDATE yardi_residents SET first_name = first_name || 'e' WHERE id % 5 = 0")
    }

    @Test func keptTwinsWriteWhatTwinsMadeForEachPropertyWriteAndChangeNoTempTableBetweenPropertiesAlike() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let log = Diagnostics(sink: { _ in })
        let kept = try portfolio.copyOfLoadedData(), apart = try portfolio.copyOfLoadedData()
        defer { for data in [kept, apart] { try? FileManager.default.removeItem(atPath: data.root) } }
        let keys = portfolio.properties.map(\.key)

        // Each first synced (whole, into main), then changed the same way and synced by change: one property per call
        // on one connection as the pipeline syncs, or a synchronizer that drops its twins when it returns.
        let keptStore = try UnifiedStore(dataDirectory: kept), apartStore = try UnifiedStore(dataDirectory: apart)
        _ = Synchronizer(store: keptStore, runID: "first").sync(portfolio.properties, log: log)
        _ = Synchronizer(store: apartStore, runID: "first").sync(portfolio.properties, log: log)
        try Self.change(kept)
        try Self.change(apart)

        var schemas: [(version: Int64?, twins: [String])] = []
        var residentsWritten = 0
        for property in portfolio.properties {
            let outcome = Synchronizer(store: keptStore, runID: "second", keepsTwins: true).sync([property], log: log)
            #expect(outcome.first?.error == nil, "\(property.key): \(outcome.first?.error ?? "")")
            residentsWritten += outcome.first?.changes["unified_residents"]?.inserted ?? 0
            // Between properties the twins are there, and empty.
            let twins = try Self.twins(keptStore.database)
            #expect(!twins.isEmpty && twins.values.allSatisfy { $0 == 0 }, "\(property.key): \(twins)")
            schemas.append((try keptStore.database.scalar("PRAGMA temp.schema_version")?.integerValue, twins.keys.sorted()))
            // After the first property, whatever its PMS, every scratch table of either is there (both raw databases
            // are attached): no later property makes one in the middle of the night.
            let missing = try Synchronizer.scratchTables.filter { try !TempTables.exists($0.name, in: keptStore.database) }
            #expect(missing.isEmpty, "\(property.key): \(missing.map(\.name))")
            let separate = Synchronizer(store: apartStore, runID: "second").sync([property], log: log)
            #expect(separate.first?.error == nil)
            #expect(try Self.twins(apartStore.database).isEmpty, "a synchronizer that does not keep its twins left one")
        }
        #expect(try Self.content(keptStore.database, keys) == Self.content(apartStore.database, keys))
        // A property that needs the same twins as the one before (here RealPage properties whose ledger is written by
        // change) made or dropped no TEMP table, a scratch table either (every one is made before the first property's
        // rules run): the rules compiled for the one before stood.
        let alike = zip(schemas, schemas.dropFirst()).filter { $0.twins == $1.twins }
        #expect(alike.count >= 2)
        for (before, after) in alike { #expect(before.version == after.version) }
        // Residents were written by change, so the comparison above compared something.
        #expect(residentsWritten > 0)

        // Synced again with nothing new: a Yardi property's recurring charges are kept as main holds them (their inputs
        // are unchanged), and their twin stays, filled from main for what reads it (the unknown charge codes' warning),
        // so the TEMP schema is the RealPage properties' too; the rows and warnings are what the other sync writes.
        for property in portfolio.properties where property.pms == .yardi {
            let outcome = Synchronizer(store: keptStore, runID: "third", keepsTwins: true).sync([property], log: log)
            #expect(outcome.first?.error == nil)
            #expect(try Self.twins(keptStore.database)["unified_recurring_charges"] == 0, "\(property.key)")
            _ = Synchronizer(store: apartStore, runID: "third").sync([property], log: log)
        }
        #expect(try Self.content(keptStore.database, keys) == Self.content(apartStore.database, keys))

        // Done: main's tables are read again on that connection.
        Synchronizer.dropTwins(keptStore)
        #expect(try Self.twins(keptStore.database).isEmpty)
        #expect(try keptStore.database.scalar("SELECT count(*) FROM unified_units")?.integerValue ?? 0 > 0)
    }
}
