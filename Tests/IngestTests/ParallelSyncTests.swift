import Foundation
import OwnerDashCore
import SQLiteKit
import SimulatorSupport
import Testing

/// `ownerdash sync --parallel N`: properties synced side by side, each computed apart and written in its turn, give
/// the rows of a sync one after the other; a property that fails rolls back alone while the others are written.
@Suite(.serialized) struct ParallelSyncTests {
    static let properties = ["kalaco", "7_east", "park_17", "yp_riverwalk"]
    static var selection: [String] { properties.flatMap { ["--property", $0] } }

    /// Rows of `property` in every table `IncrementalSyncTests.content` compares.
    static func rows(of property: String, _ content: [String: [[SQLValue]]]) -> [String: [[SQLValue]]] {
        content.mapValues { $0.filter { $0.first == .text(property) } }
    }

    @Test func sideBySideTheRowsAreThoseOfOneAfterTheOtherAndAFailureRollsBackAlone() throws {
        let simulator = try PMSSimulator.shared.get()
        let nightly = try DataDir()
        let night = try nightly.ownerdash(["ingest", "--as-of", "2026-11-14"] + Self.selection, environment: simulator.environment)
        #expect(night.status == 0, "\(night.stderr.suffix(1500))")

        let serial = try nightly.rawCopy(), parallel = try nightly.rawCopy()
        let one = try serial.ownerdash(["sync", "--parallel", "1"] + Self.selection)
        #expect(one.status == 0, "\(one.stderr)")
        let side = try parallel.ownerdash(["sync", "--parallel", "3"] + Self.selection)
        #expect(side.status == 0, "\(side.stderr)")
        let expected = try IncrementalSyncTests.content(serial.data.unifiedDatabase)
        let synced = try IncrementalSyncTests.content(parallel.data.unifiedDatabase)
        for (table, rows) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(synced[table] == rows, "\(table): \(synced[table]?.count ?? 0) rows side by side, \(rows.count) one after the other")
        }
        #expect((expected["unified_charges"] ?? []).count > 1_000 && (expected["unified_delinquency"] ?? []).count > 10)
        // One run, one sync item per property, each in the order given; the command line names the workers.
        let run = try #require(try parallel.unified().scalar("SELECT run_id FROM etl_runs WHERE trigger = 'sync'")?.textValue)
        #expect(try parallel.items(run).map { $0["property_id"]?.textValue ?? "" }.sorted() == Self.properties.sorted())
        #expect(try parallel.runRow(run)["command"]?.textValue?.contains("--parallel 3") == true)
        // Checked against a full rebuild, side by side: nothing drifted.
        let full = try parallel.ownerdash(["sync", "--full", "--parallel", "3"] + Self.selection)
        #expect(full.status == 0 && !full.stderr.contains("differed from a full rebuild"), "\(full.stderr)")

        // A unit listed twice fails 7_east's rules: its rows stay as they were, the three others are written. (A raw
        // database edited by hand is what `sync --full` is for: the plain `sync` finds nothing loaded since.)
        let raw = try Database(path: parallel.data.realpageRawDatabase)
        let columns = try raw.query("SELECT name FROM pragma_table_info('realpage_units') WHERE name NOT IN ('id', 'source_row')")
            .compactMap { $0.first?.textValue }.joined(separator: ", ")
        try raw.execute("""
            INSERT INTO realpage_units (source_row, \(columns)) SELECT source_row + 100000, \(columns) FROM realpage_units
            WHERE property_id = '7_east' AND as_of_date = (SELECT max(as_of_date) FROM realpage_units WHERE property_id = '7_east')
            LIMIT 1
            """)
        let before = Self.rows(of: "7_east", try IncrementalSyncTests.content(parallel.data.unifiedDatabase))
        let unnoticed = try parallel.ownerdash(["sync", "--parallel", "3"] + Self.selection)
        #expect(unnoticed.status == 0 && unnoticed.stdoutLines.filter { $0.hasSuffix("unchanged") }.count == 4, "\(unnoticed.stdout)")
        let broken = try parallel.ownerdash(["sync", "--full", "--parallel", "3"] + Self.selection)
        #expect(broken.status == 2, "\(broken.stderr)")
        #expect(broken.stderr.contains("7_east") && broken.stderr.contains("lists a unit more than once"), "\(broken.stderr)")
        #expect(Self.rows(of: "7_east", try IncrementalSyncTests.content(parallel.data.unifiedDatabase)) == before)
        let last = try #require(try parallel.unified().scalar("""
            SELECT run_id FROM etl_runs WHERE trigger = 'sync' ORDER BY started_at DESC, rowid DESC LIMIT 1
            """)?.textValue)
        let statuses = Dictionary(uniqueKeysWithValues: try parallel.items(last).map {
            ($0["property_id"]?.textValue ?? "", $0["status"]?.textValue ?? "")
        })
        #expect(statuses == ["kalaco": "succeeded", "7_east": "failed", "park_17": "succeeded", "yp_riverwalk": "succeeded"])
    }
}
