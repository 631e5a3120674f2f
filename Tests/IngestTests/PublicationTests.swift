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
}
