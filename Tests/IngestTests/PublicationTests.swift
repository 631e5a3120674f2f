import Foundation
import OwnerDashCore
import PostgresKit
import PostgresTestSupport
import SQLiteKit
import SimulatorSupport
import Testing
@testable import Ingest

/// `ingest --database-url`: each property synced is on the PostgreSQL server when the run ends, with the run's record;
/// an unchanged night sends nothing again, but a property the server lacks is published even when unchanged; a
/// server that cannot be reached stops the command before it syncs anything, naming the server.
@Suite struct PublicationTests {
    @Test func anIngestPublishesWhatItSyncedAndAnUnchangedNightOnlyWhatTheServerLacks() throws {
        let simulator = try PMSSimulator.shared.get()
        let directory = try DataDir()
        let server = try TestPostgres.freshDatabase("ingest")
        let properties = ["nexus_east", "yp_riverwalk"]
        let selection = properties.flatMap { ["--property", $0] }
        let night = ["ingest"] + selection + ["--as-of", PMSSimulator.asOf, "--parallel", "4", "--database-url", server.uri]
        let first = try directory.ownerdash(night, environment: simulator.environment)
        #expect(first.status == 0, "stderr: \(first.stderr.suffix(1500))")
        let runID = try #require(first.runID)

        let postgres = try PostgresConnection(url: server)
        let local = try directory.unified()
        for property in properties {
            let units = try local.scalar("SELECT count(*) FROM unified_units WHERE unified_property_id = :p", [":p": .text(property)])?.integerValue
            #expect(units ?? 0 > 0)
            #expect(try postgres.scalar("SELECT count(*) FROM unified_units WHERE unified_property_id = :p", ["p": .text(property)]) == units.map(String.init),
                    "\(property): the server holds the units synced")
            #expect(try postgres.scalar("SELECT synced_run FROM ownerdash_publications WHERE scope = :s", ["s": .text("property:\(property)")]) == runID)
        }
        #expect(try postgres.scalar("SELECT status FROM etl_runs WHERE run_id = :r", ["r": .text(runID)]) == "succeeded")
        #expect(try postgres.scalar("SELECT count(*) FROM etl_run_items WHERE run_id = :r AND stage = 'sync'", ["r": .text(runID)]) == "2")

        // The next night loads nothing new: nothing is published again (the generations stay), except a property the
        // server lost (its publication removed here, as after a failed publish).
        let generations = { try postgres.query("SELECT scope, generation FROM ownerdash_publications WHERE scope LIKE 'property:%' ORDER BY scope").values }
        try postgres.execute("DELETE FROM ownerdash_publications WHERE scope = 'property:yp_riverwalk'")
        try postgres.execute("DELETE FROM unified_units WHERE unified_property_id = 'yp_riverwalk'")
        let before = try generations()
        let second = try directory.ownerdash(night, environment: simulator.environment)
        #expect(second.status == 0, "stderr: \(second.stderr.suffix(1500))")
        let after = try generations()
        #expect(after.first == before.first, "nexus_east, unchanged, was published again")
        #expect(after.count == 2, "yp_riverwalk was not published again")
        #expect(try postgres.scalar("SELECT count(*) FROM unified_units WHERE unified_property_id = 'yp_riverwalk'") != "0")

        // A server that is gone: nothing is synced, and the error names it.
        let gone = try DatabaseURL(TestPostgres.replacingDatabase(of: server.uri, with: "no_such_database"))
        let third = try directory.ownerdash(["sync"] + selection + ["--database-url", gone.uri])
        #expect(third.status != 0)
        #expect(third.stderr.contains("no_such_database"), "\(third.stderr.suffix(800))")
    }

    /// `prune` removes the households of a night its policy no longer keeps from the server too, by change: with
    /// `--database-url` at once, without it with the property's next publication.
    @Test func aNightPruneRemovesLeavesTheServerByChangeWithOrWithoutItsURL() throws {
        let directory = try DataDir()
        let server = try TestPostgres.freshDatabase("prune")
        let postgres = try PostgresConnection(url: server)
        func ingest(_ asOf: String) throws {
            let result = try Self.ingest(directory, asOf, ["--property", "yp_riverwalk"], server: server)
            #expect(result.status == 0, "\(asOf): \(result.stderr.suffix(1500))")
        }
        // The policy keeps the newest night alone.
        let prune = ["prune", "--keep-days", "0", "--keep-monthly", "0", "--grace-hours", "0"]
        let households = { (night: String) in
            (local: try directory.unified().scalar("SELECT count(*) FROM unified_delinquency WHERE as_of_date = :n", [":n": .text(night)])?.integerValue ?? -1,
             server: Int(try postgres.scalar("SELECT count(*) FROM unified_delinquency WHERE as_of_date = :n", ["n": .text(night)]) ?? "") ?? -1)
        }
        let publication = { () throws -> (generation: String?, rows: String?) in
            let row = try postgres.query("SELECT generation, rows FROM ownerdash_publications WHERE scope = 'property:yp_riverwalk'").values.first
            return (row?[0], row?[1])
        }

        try ingest("2026-11-14")
        try ingest("2026-11-15")
        let first = try households("2026-11-14")
        #expect(first.local > 0 && first.server == first.local, "\(first)")
        let before = try publication()
        let pruned = try directory.ownerdash(prune + ["--database-url", server.uri])
        #expect(pruned.status == 0, "\(pruned.stderr.suffix(1500))")
        #expect(pruned.stdout.contains("published the trimmed nights of 1 property to"), "\(pruned.stdout)")
        #expect(try households("2026-11-14") == (local: 0, server: 0))
        let after = try publication()
        #expect(after.generation != before.generation, "the publication moved on, so readers copy the property again")
        #expect(after.rows == "0", "by change: no row sent for a night that is gone, \(after)")
        #expect(try households("2026-11-15").server > 0)

        // Without the URL the host notes the night; its next publication removes it from the server.
        try ingest("2026-11-16")
        let offline = try directory.ownerdash(prune)
        #expect(offline.status == 0 && !offline.stdout.contains("published"), "\(offline.stdout)\(offline.stderr)")
        let noted = try households("2026-11-15")
        #expect(noted.local == 0 && noted.server > 0, "\(noted)")
        try ingest("2026-11-17")
        #expect(try households("2026-11-15") == (local: 0, server: 0))
        try Self.expectServerHoldsWhatWasSynced(directory, server, "after two prunes")
    }

    /// A property synced on another host (an operator's re-sync there, or a host taking over the properties of one
    /// that died) keeps its history on the server: the new host takes the nights only the server holds into its
    /// unified.db before its whole publication, and so does the first host when the property comes back to it.
    @Test func aPropertySyncedOnAnotherHostKeepsItsHistoryOnTheServer() throws {
        let hostA = try DataDir(), hostB = try DataDir()
        let server = try TestPostgres.freshDatabase("takeover")
        let postgres = try PostgresConnection(url: server)
        func ingest(_ host: DataDir, _ name: String, _ asOf: String) throws {
            let result = try Self.ingest(host, asOf, ["--property", "yp_riverwalk", "--host-name", name], server: server)
            #expect(result.status == 0, "\(name) \(asOf): \(result.stderr.suffix(1500))")
        }
        let history = ["unified_occupancy_metrics", "unified_delinquency_metrics", "unified_delinquency", "sync_checks"]
        func serverNights(_ table: String) throws -> [String?] {
            try postgres.query("SELECT DISTINCT as_of_date::text FROM \(table) WHERE unified_property_id = 'yp_riverwalk' ORDER BY 1")
                .values.map { $0[0] }
        }
        func localNights(_ host: DataDir, _ table: String) throws -> [String?] {
            try host.unified().query("SELECT DISTINCT as_of_date FROM \(table) WHERE unified_property_id = 'yp_riverwalk' ORDER BY 1")
                .map { $0[0].textValue }
        }

        try ingest(hostA, "host-a", "2026-11-14")
        try ingest(hostA, "host-a", "2026-11-15")
        try ingest(hostB, "host-b", "2026-11-16")
        for table in history {
            #expect(try serverNights(table) == ["2026-11-14", "2026-11-15", "2026-11-16"], "\(table) on the server after host B's night")
            #expect(try localNights(hostB, table) == ["2026-11-14", "2026-11-15", "2026-11-16"], "\(table) in host B's unified.db")
        }
        let trend = try hostB.ownerdash(["query", "occupancy", "--property", "yp_riverwalk", "--from", "2026-11-14",
                                         "--to", "2026-11-16", "--format", "csv", "--database-url", server.uri])
        #expect(trend.status == 0 && trend.stdoutLines.filter { $0.hasPrefix("yp_riverwalk,2026-11-1") }.count == 3, "\(trend.stdout)")

        // Host A's publication and prune, which sync nothing, leave the property as host B synced it.
        let held = { try postgres.scalar("SELECT synced_run FROM ownerdash_publications WHERE scope = 'property:yp_riverwalk'") }
        let heldByB = try held()
        let publish = try hostA.ownerdash(["publish", "--database-url", server.uri])
        #expect(publish.status == 2 && publish.stdout.contains("yp_riverwalk: left as the server holds it: another host's sync"),
                "\(publish.stdout)\(publish.stderr)")
        let prune = try hostA.ownerdash(["prune", "--keep-days", "0", "--keep-monthly", "0", "--grace-hours", "0", "--database-url", server.uri])
        #expect(prune.status == 0 && prune.stdout.contains("yp_riverwalk: left as the server holds it"), "\(prune.stdout)\(prune.stderr)")
        #expect(try held() == heldByB)
        for table in history {
            #expect(try serverNights(table) == ["2026-11-14", "2026-11-15", "2026-11-16"], "\(table) after host A's publish and prune")
        }

        try ingest(hostA, "host-a", "2026-11-17")
        for table in history {
            #expect(try serverNights(table) == ["2026-11-14", "2026-11-15", "2026-11-16", "2026-11-17"], "\(table) back on host A")
        }
        try Self.expectServerHoldsWhatWasSynced(hostA, server, "the property back on host A")
    }

    /// A nightly `ingest --database-url` retrains the forecast from the server's data and stores the model there; a
    /// second host's night after it finds the month already learnt and trains nothing.
    @Test func aNightlyIngestRetrainsTheForecastOnTheServerOnce() throws {
        let simulator = try PMSSimulator.shared.get()
        let server = try TestPostgres.freshDatabase("retrain")
        let night = ["ingest", "--property", "yp_riverwalk", "--as-of", PMSSimulator.asOf, "--trigger", "schedule", "--database-url", server.uri]
        let first = try DataDir()
        let trained = try first.ownerdash(night, environment: simulator.environment)
        #expect(trained.status == 0, "stderr: \(trained.stderr.suffix(1500))")
        let line = trained.stdoutLines.last ?? ""
        #expect(line.hasPrefix("forecast  retrained (no model yet, and ") && line.contains("): model 1, month ends "), "\(trained.stdout)")
        let postgres = try PostgresConnection(url: server)
        #expect(try postgres.scalar("SELECT count(*) FROM forecast_models WHERE backtest_passes IS NOT NULL") == "1")
        // Learnt from the server's data: the window the host's own unified.db would give (its property, its months).
        #expect(try postgres.scalar("SELECT properties || ' ' || training_to FROM forecast_models") == "[\"yp_riverwalk\"] 2026-09-30")
        #expect(try first.unified().scalar("SELECT count(*) FROM forecast_models")?.integerValue == 0, "the model is the server's, not a copy in unified.db")

        let second = try DataDir()
        let again = try second.ownerdash(night, environment: simulator.environment)
        #expect(again.status == 0, "stderr: \(again.stderr.suffix(1500))")
        #expect(!again.stdout.contains("forecast  retrained") && !again.stderr.contains("forecast"), "\(again.stdout)\(again.stderr)")
        #expect(try postgres.scalar("SELECT count(*) FROM forecast_models") == "1")
    }

    /// One night of the shared simulator's properties `selection` into `directory`, published to `server` when given.
    static func ingest(_ directory: DataDir, _ asOf: String, _ selection: [String], server: DatabaseURL?) throws -> CommandResult {
        try directory.ownerdash(["ingest", "--as-of", asOf] + selection + (server.map { ["--database-url", $0.uri] } ?? []),
                                environment: try PMSSimulator.shared.get().environment)
    }

    /// The server's rows of every property, as a reader's mirror copies them, against the host's unified.db.
    static func expectServerHoldsWhatWasSynced(_ directory: DataDir, _ server: DatabaseURL, _ when: String) throws {
        let reader = try DataDir()
        let read = try reader.ownerdash(["query", "summary", "--database-url", server.uri])
        #expect(read.status == 0, "\(read.stderr.suffix(800))")
        let mirror = try IncrementalSyncTests.content(reader.data.path("postgres-mirror/unified.db"))
        let local = try IncrementalSyncTests.content(directory.data.unifiedDatabase)
        for (table, rows) in local.sorted(by: { $0.key < $1.key }) {
            #expect(mirror[table] == rows, "\(when): \(table) on the server (\(mirror[table]?.count ?? 0) rows) differs from unified.db (\(rows.count))")
        }
    }

    @Test func aChurnedNightSendsOnlyTheRowsItChangedAndTheServerHoldsWhatWasSynced() throws {
        let directory = try DataDir()
        let server = try TestPostgres.freshDatabase("changes")
        let postgres = try PostgresConnection(url: server)
        let selection = ["--property", "kalaco", "--property", "yp_riverwalk", "--parallel", "4"]
        let sent = { (property: String) in
            Int(try postgres.scalar("SELECT rows FROM ownerdash_publications WHERE scope = :s", ["s": .text("property:\(property)")]) ?? "") ?? -1
        }
        let first = try Self.ingest(directory, "2026-11-14", selection, server: server)
        #expect(first.status == 0, "\(first.stderr.suffix(1500))")
        let whole = try sent("kalaco")

        let second = try Self.ingest(directory, "2026-11-15", selection, server: server)
        #expect(second.status == 0, "\(second.stderr.suffix(1500))")
        let churned = try sent("kalaco")
        #expect(churned > 0 && churned * 10 < whole, "a churned night sent \(churned) rows, the first \(whole)")
        try Self.expectServerHoldsWhatWasSynced(directory, server, "after a night of changes")

        // A night synced without the server: its changes were not noted, so the next publication sends everything.
        let offline = try Self.ingest(directory, "2026-11-16", selection, server: nil)
        #expect(offline.status == 0, "\(offline.stderr.suffix(1500))")
        let back = try directory.ownerdash(["sync", "--property", "kalaco", "--property", "yp_riverwalk", "--database-url", server.uri])
        #expect(back.status == 0, "\(back.stderr.suffix(1500))")
        #expect(try sent("kalaco") >= whole, "after a night off the server, kalaco went whole")
        try Self.expectServerHoldsWhatWasSynced(directory, server, "after a night off the server")

        // A night the server refuses every publication after the host synced: the next night's publication sends
        // what both nights changed, by change (the server still holds the night before the refused one).
        try postgres.execute("""
            CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused tonight'; END $$
            """)
        try postgres.execute("""
            CREATE TRIGGER refuse BEFORE INSERT OR UPDATE OR DELETE ON unified_properties
            FOR EACH STATEMENT EXECUTE FUNCTION refuse()
            """)
        let refused = try Self.ingest(directory, "2026-11-17", selection, server: server)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("kalaco: error: sync: synced locally, but publishing to") && refused.stderr.contains("refused tonight"),
                "\(refused.stderr.suffix(1500))")
        try postgres.execute("DROP TRIGGER refuse ON unified_properties")
        let caughtUp = try Self.ingest(directory, "2026-11-18", selection, server: server)
        #expect(caughtUp.status == 0, "\(caughtUp.stderr.suffix(1500))")
        let twoNights = try sent("kalaco")
        #expect(twoNights > 0 && twoNights * 10 < whole, "after a refused night kalaco sent \(twoNights) rows, the first night \(whole)")
        try Self.expectServerHoldsWhatWasSynced(directory, server, "the night after a refused publication")
    }
}
