import Foundation
import SQLiteKit
import Testing

/// `ownerdash sync` syncs what changed, as the nightly ingest does: a property nothing was loaded for since its last
/// sync is left as that sync wrote it and said to be `unchanged`; one with a new snapshot is synced; `--full` syncs
/// (and checks) every property asked.
@Suite struct SyncCommandTests {
    /// The result column of each property's line of `sync`'s table.
    func results(_ stdout: String) -> [String: String] {
        var results: [String: String] = [:]
        for line in stdout.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let first = words.first, let last = words.last, ["synced", "unchanged", "failed"].contains(String(last))
            else { continue }
            results[String(first)] = String(last)
        }
        return results
    }

    /// Every row of `sql`, its values joined by `|`.
    func rows(_ data: DataDir, _ sql: String) throws -> [String] {
        try Database(path: "\(data.path)/unified.db").query(sql).map { row in
            row.map { $0.textValue ?? "" }
                .joined(separator: "|")
        }
    }

    /// The units, residents and each property's last sync.
    func unifiedRows(_ data: DataDir) throws -> [String] {
        try rows(data, "SELECT unified_property_id, unit_number, status, resident_id FROM unified_units ORDER BY 1, 2")
            + rows(data, "SELECT unified_property_id, resident_id, status, balance FROM unified_residents ORDER BY 1, 2")
            + rows(data, "SELECT unified_property_id, last_run_id FROM unified_properties ORDER BY 1")
    }

    @Test func aSyncSyncsOnlyThePropertiesSomethingWasLoadedForSinceTheirLastSync() throws {
        let data = DataDir()
        let samples = SampleReportTests.sampleFiles
        // The samples' three properties (the registry lists the simulator's 30, the others with nothing loaded).
        let three = ["edison_rino", "nexus_east", "ridian"].flatMap { ["--property", $0] }
        #expect(try OwnerDash.run(["load"] + samples + ["--data-dir", data.path]).status == 0)
        let first = try OwnerDash.run(["sync", "--data-dir", data.path] + three)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(results(first.stdout) == ["edison_rino": "synced", "nexus_east": "synced", "ridian": "synced"], "\(first.stdout)")
        let synced = try unifiedRows(data)

        // Nothing loaded since: nothing synced again, every row as the first sync left it, each item of the run skipped
        // naming that sync's run.
        let again = try OwnerDash.run(["sync", "--data-dir", data.path] + three)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(results(again.stdout) == ["edison_rino": "unchanged", "nexus_east": "unchanged", "ridian": "unchanged"], "\(again.stdout)")
        let nexus = try #require(again.stdout.split(separator: "\n").first { $0.hasPrefix("nexus_east") })
        let stored = try rows(data, """
            SELECT as_of_date, (SELECT count(*) FROM unified_units WHERE unified_property_id = 'nexus_east'),
                   (SELECT count(*) FROM unified_residents WHERE unified_property_id = 'nexus_east')
            FROM unified_properties WHERE unified_property_id = 'nexus_east'
            """).joined().split(separator: "|").map(String.init)
        #expect(nexus.split(separator: " ").prefix(4).map(String.init) == ["nexus_east"] + stored,
                "the stored property date, units and residents: \(nexus)")
        #expect(try unifiedRows(data) == synced)
        let firstRun = try rows(data, "SELECT DISTINCT last_run_id FROM unified_properties")
        #expect(firstRun.count == 1)
        let skipped = try rows(data, """
            SELECT property_id, status, error FROM etl_run_items
            WHERE run_id = (SELECT run_id FROM etl_runs WHERE trigger = 'sync' AND run_id <> :first ORDER BY started_at DESC LIMIT 1)
            ORDER BY property_id
            """.replacingOccurrences(of: ":first", with: "'\(firstRun.joined())'"))
        #expect(skipped == ["edison_rino", "nexus_east", "ridian"].map {
            "\($0)|skipped|unchanged: nothing new was loaded for it; its unified rows are as run \(firstRun.joined()) synced them"
        })

        // A newer snapshot of one property's Box Score: that property alone is synced.
        let box = try #require(samples.first { $0.hasSuffix("nexus_east_box_score.xlsx") })
        let asOf = try rows(data, "SELECT date(as_of_date, '+1 day') FROM unified_properties WHERE unified_property_id = 'nexus_east'").joined()
        #expect(try OwnerDash.run(["load", box, "--as-of", asOf, "--data-dir", data.path]).status == 0)
        let one = try OwnerDash.run(["sync", "--data-dir", data.path] + three)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(results(one.stdout) == ["edison_rino": "unchanged", "nexus_east": "synced", "ridian": "unchanged"], "\(one.stdout)")

        // --full syncs every property asked, each checked against a full rebuild.
        let full = try OwnerDash.run(["sync", "--full", "--data-dir", data.path] + three)
        #expect(full.status == 0, "\(full.stderr)")
        #expect(results(full.stdout) == ["edison_rino": "synced", "nexus_east": "synced", "ridian": "synced"], "\(full.stdout)")
    }

    /// A property that fails to sync (nothing was ever loaded for it) says `-` for what is not known, never a zero or
    /// a blank a reader could take for "nothing", beside the others' figures; the run exits 2 (partial).
    @Test func aFailedPropertysLineSaysWhatIsNotKnownAsDashes() throws {
        let data = DataDir()
        let samples = SampleReportTests.sampleFiles
        #expect(try OwnerDash.run(["load"] + samples + ["--data-dir", data.path]).status == 0)
        let run = try OwnerDash.run(["sync", "--data-dir", data.path, "--property", "nexus_east", "--property", "kalaco"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(results(run.stdout) == ["nexus_east": "synced", "kalaco": "failed"], "\(run.stdout)")
        let line = { (key: String) in
            run.stdout.split(separator: "\n").first { $0.hasPrefix(key + " ") }.map { $0.split(separator: " ").map(String.init) } ?? []
        }
        #expect(line("kalaco") == ["kalaco", "-", "-", "-", "-", "-", "failed"], "\(run.stdout)")
        let synced = line("nexus_east")
        #expect(synced.count == 7 && !synced[1...5].contains("-"), "\(run.stdout)")
        #expect(run.stderr.contains("kalaco"), "the failure names the property: \(run.stderr)")
    }
}
