import Foundation
import OwnerDashCore
import SQLiteKit
import SimulatorSupport
import Testing
@testable import Ingest

/// `ownerdash ingest`, end to end: the built binary against pms_sim (where `ridian` fails every request).
@Suite struct IngestEndToEndTests {
    /// Rows the raw databases hold for one landed file, counted over every raw table (not what the loader said).
    static func rawRows(of file: String, in directory: DataDir) throws -> Int {
        var total = 0
        for path in [directory.data.realpageRawDatabase, directory.data.yardiRawDatabase]
        where FileManager.default.fileExists(atPath: path) {
            let database = try Database(path: path, mode: .readOnly)
            let tables = try database.query("""
                SELECT name FROM sqlite_master
                WHERE (type = 'table' AND (name LIKE 'realpage\\_%' ESCAPE '\\' OR name LIKE 'yardi\\_%' ESCAPE '\\')
                       AND EXISTS (SELECT 1 FROM pragma_table_info(name) c WHERE c.name = 'artifact'))
                   OR (type = 'view' AND name LIKE 'v\\_%' ESCAPE '\\')
                """).compactMap { $0.first?.textValue }
            for table in tables {
                total += Int(try database.scalar("SELECT count(*) FROM \(table) WHERE artifact = :file", [":file": .text(file)])?
                    .integerValue ?? 0)
            }
        }
        return total
    }

    @Test func anIngestOfTwoPropertiesLandsLoadsSyncsAndRecordsOneRun() throws {
        let simulator = try PMSSimulator.shared.get()
        let directory = try DataDir()
        var environment = simulator.environment
        environment["OWNERDASH_TRIGGER"] = "schedule"
        let result = try directory.ownerdash(["ingest", "--property", "nexus_east", "--property", "yp_riverwalk",
                                              "--as-of", PMSSimulator.asOf, "--parallel", "4"], environment: environment)
        let runID = try #require(result.runID, "stdout: \(result.stdout) stderr: \(result.stderr)")

        // The landing zone: one run directory, named by the run id, whose manifest lists every artifact.
        #expect(directory.landedRuns() == [runID])
        let manifestData = try Data(contentsOf: URL(fileURLWithPath: directory.data.landing)
            .appendingPathComponent("\(runID)/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
        let artifacts = try #require(manifest["artifacts"] as? [[String: Any]])
        #expect(artifacts.count == 8 + 7 + 9 + 23,
                "8 reports and 7 RPX operations (those fetched nightly) for nexus_east, 9 Yardi operations, 23 months")

        // etl_runs: one row, as the run went.
        let run = try directory.runRow(runID)
        #expect(run.text("trigger") == "schedule", "OWNERDASH_TRIGGER=schedule, as the systemd unit sets it")
        #expect(run.text("command") == "ownerdash ingest --property nexus_east --property yp_riverwalk --as-of 2026-11-20 --parallel 4")
        #expect(run.text("as_of_date") == PMSSimulator.asOf)
        #expect(run.text("host") == LockHolder.hostName() && (run.int("pid") ?? 0) > 0)
        #expect(run.text("finished_at") != nil && run.int("properties") == 2)

        // etl_run_items: a fetch item per manifest artifact, a load item per landed artifact, a sync item per property.
        let items = try directory.items(runID)
        let fetch = items.filter { $0.text("stage") == "fetch" }
        #expect(Set(fetch.compactMap { $0.text("artifact") }) == Set(artifacts.compactMap { $0["path"] as? String }))
        #expect(fetch.allSatisfy { $0.text("status") == "succeeded" && $0.text("error") == nil })
        let load = items.filter { $0.text("stage") == "load" }
        #expect(load.count == artifacts.count)
        var loadedRows = 0
        for item in load {
            let artifact = try #require(item.text("artifact"))
            #expect(item.text("status") == "succeeded", "\(artifact): \(item.text("error") ?? "")")
            // The raw rows name the object holding the artifact's bytes (the run directory keeps only its manifest).
            let entry = try #require(artifacts.first { $0["path"] as? String == artifact }, "\(artifact) in the manifest")
            let object = try #require(entry["object"] as? String, "\(artifact) has an object")
            let file = URL(fileURLWithPath: directory.data.landing).appendingPathComponent(object).path
            let rows = try Self.rawRows(of: file, in: directory)
            #expect(rows > 0 && item.int("rows") == rows, "\(artifact): the item's rows are the raw rows of that file")
            loadedRows += rows
        }
        #expect(run.int("rows_loaded") == loadedRows && run.int("artifacts_fetched") == artifacts.count)

        // Sync: per property, either synced (unified rows carry the run) or failed with its reason recorded.
        let sync = items.filter { $0.text("stage") == "sync" }
        // Recorded as each property's sync ends (the ingest syncs a property once its artifacts have ended).
        #expect(sync.compactMap { $0.text("property_id") }.sorted() == ["nexus_east", "yp_riverwalk"])
        let unified = try directory.unified()
        for item in sync {
            let property = try #require(item.text("property_id"))
            let units = try unified.scalar("SELECT count(*) FROM unified_units WHERE unified_property_id = :p", [":p": .text(property)])
            if item.text("status") == "succeeded" {
                #expect((item.int("rows") ?? 0) > 0 && units?.integerValue == Int64(item.int("rows") ?? -1), "\(property)")
                let lastRun = try unified.scalar("SELECT last_run_id FROM unified_properties WHERE unified_property_id = :p",
                                                 [":p": .text(property)])
                #expect(lastRun?.textValue == runID)
            } else {
                #expect(item.text("status") == "failed")
                #expect(item.text("error")?.contains(property) == true, "the reason names the property: \(item.text("error") ?? "")")
                #expect(result.stderr.contains("\(property): error: sync failed"))
                #expect(units?.integerValue == 0, "a failed sync leaves nothing for \(property)")
            }
        }

        // Status, exit code and summary agree with the items.
        let failures = items.filter { $0.text("status") == "failed" }.count
        #expect(run.int("failures") == failures)
        #expect(run.text("status") == (failures == 0 ? "succeeded" : "partial"))
        #expect(result.status == (failures == 0 ? 0 : 2), "stderr: \(result.stderr)")
        let synced = sync.filter { $0.text("status") == "succeeded" }.count
        #expect(Array(result.stdoutLines.prefix(5)) == [
            "run \(runID)",
            "status    \(failures == 0 ? "succeeded" : "partial")",
            "fetched   \(artifacts.count) of \(artifacts.count) artifact(s), 0 failed",
            "loaded    \(loadedRows) rows from \(artifacts.count) artifact(s), 0 failed",
            "synced    \(synced) of 2 properties, \(2 - synced) failed",
        ])
        // A nightly run (trigger schedule): no forecast model yet and 24 months of ledgers, so the delinquency
        // forecast was trained, with its backtest, and one line says so.
        #expect(synced == 2, "both properties sync against the simulator: \(result.stdout)")
        if synced > 0 {
            #expect(result.stdoutLines.count == 6, "\(result.stdout)")
            let line = result.stdoutLines.last ?? ""
            #expect(line.hasPrefix("forecast  retrained (no model yet, and "), "\(line)")
            #expect(line.contains("): model 1, month ends ") && line.contains("; backtest "), "\(line)")
            let model = try directory.unified().query("SELECT count(*), min(backtest_passes IS NOT NULL), min(training_to) FROM forecast_models")
            #expect(model.first?[0].integerValue == 1 && model.first?[1].integerValue == 1, "one model, with its backtest's verdict")
            #expect(model.first?[2].textValue == "2026-09-30", "the last month end whose next month end (October's) closed by 2026-11-20")
        }
        #expect(result.stderr.contains("fetch: [\(artifacts.count)/\(artifacts.count)] "), "progress per stage on stderr")
        #expect(IngestLock.recordedHolder(dataDirectory: directory.data) == nil, "the lock is released at the end")

        // The same ingest again: the same bytes are already loaded, so nothing new is written.
        let again = try directory.ownerdash(["ingest", "--property", "nexus_east", "--reports", "box_score", "--as-of", PMSSimulator.asOf],
                                            environment: simulator.environment)
        let againID = try #require(again.runID)
        let againLoad = try directory.items(againID).filter { $0.text("stage") == "load" }
        #expect(againLoad.count == 1 && againLoad.first?.text("status") == "skipped")
        #expect(try directory.runRow(againID).text("trigger") == "ingest")
        #expect(try directory.runRow(againID).int("rows_loaded") == 0)
        // Nothing new loaded, and the last sync read the same raw state, configuration and build: not synced again,
        // the unified rows stay those of the first run (which synced nexus_east).
        if sync.first(where: { $0.text("property_id") == "nexus_east" })?.text("status") == "succeeded" {
            let againSync = try directory.items(againID).filter { $0.text("stage") == "sync" }
            #expect(againSync.count == 1 && againSync.first?.text("status") == "skipped")
            #expect(againSync.first?.text("error") == "unchanged: nothing new was loaded for it; its unified rows are as run \(runID) synced them")
            #expect(again.stdoutLines.last == "synced    0 of 1 property, 0 failed, 1 skipped")
            #expect(try directory.unified().scalar("SELECT last_run_id FROM unified_properties WHERE unified_property_id = 'nexus_east'")?.textValue == runID)
            // `ownerdash sync` leaves it too, saying so; `--full` checks it against a full rebuild and writes it.
            let resync = try directory.ownerdash(["sync", "--property", "nexus_east"], environment: simulator.environment)
            #expect(resync.status == 0, "\(resync.stderr)")
            #expect(resync.stdoutLines.contains { $0.hasPrefix("nexus_east") && $0.hasSuffix("unchanged") }, "\(resync.stdout)")
            #expect(try directory.unified().scalar("SELECT last_run_id FROM unified_properties WHERE unified_property_id = 'nexus_east'")?.textValue == runID)
            let resyncID = try #require(try directory.unified().scalar("SELECT max(run_id) FROM etl_runs WHERE trigger = 'sync'")?.textValue)
            #expect(try directory.items(resyncID).map { $0.text("status") } == ["skipped"])
            let full = try directory.ownerdash(["sync", "--full", "--property", "nexus_east"], environment: simulator.environment)
            #expect(full.status == 0, "\(full.stderr)")
            #expect(try directory.unified().scalar("SELECT last_run_id FROM unified_properties WHERE unified_property_id = 'nexus_east'")?.textValue != runID)
        }
    }

    /// The nightly retraining of the forecast never fails a night: a model that cannot be stored is one warning naming
    /// why, and the run's exit code and summary stay the run's; `--no-forecast-retrain` turns it off.
    @Test func aForecastThatCannotBeRetrainedIsAWarningAndTheSwitchTurnsItOff() throws {
        let simulator = try PMSSimulator.shared.get()
        let directory = try DataDir()
        // unified.db first (an empty sync creates it), refusing any new model.
        _ = try directory.ownerdash(["sync", "--property", "yp_riverwalk"], environment: simulator.environment)
        let database = try Database(path: directory.data.unifiedDatabase)
        try database.execute("CREATE TRIGGER no_models BEFORE INSERT ON forecast_models BEGIN SELECT RAISE(ABORT, 'no model may be stored here'); END;")
        let night = try directory.ownerdash(["ingest", "--property", "yp_riverwalk", "--as-of", PMSSimulator.asOf, "--trigger", "schedule"],
                                            environment: simulator.environment)
        #expect(night.status == 0, "\(night.stderr)")
        #expect(night.stdoutLines.count == 5 && night.stdoutLines.last == "synced    1 of 1 property, 0 failed", "\(night.stdout)")
        let warning = night.stderrLines.filter { $0.contains("forecast") }
        #expect(warning.count == 1 && warning.first?.hasPrefix("warning: ownerdash ingest: the delinquency forecast was not retrained: ") == true, "\(warning)")
        #expect(warning.first?.contains("no model may be stored here") == true, "\(warning)")

        let off = try DataDir()
        let quiet = try off.ownerdash(["ingest", "--property", "yp_riverwalk", "--as-of", PMSSimulator.asOf, "--trigger", "schedule",
                                       "--no-forecast-retrain"], environment: simulator.environment)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdoutLines.count == 5 && !quiet.stderr.contains("forecast"), "\(quiet.stdout)\(quiet.stderr)")
        #expect(try off.unified().scalar("SELECT count(*) FROM forecast_models")?.integerValue == 0)
    }

    /// One count everywhere: an artifact the vendor does not offer is skipped, neither fetched nor failed, in the
    /// summary, in etl_runs and in the fetch items alike. With seed 7 the simulator's license refuses park_17's
    /// getrentableitems (quirk rpx_rentable_items_refused), an optional operation: skipped, the run succeeds.
    @Test func skippedArtifactsAreNotCountedAsFetched() throws {
        let simulator = try PMSSimulator.shared.get()
        let directory = try DataDir()
        let result = try directory.ownerdash(["ingest", "--property", "park_17", "--reports", "getsitelist,getrentableitems",
                                              "--as-of", PMSSimulator.asOf], environment: simulator.environment)
        let runID = try #require(result.runID, "stderr: \(result.stderr)")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdoutLines.contains("fetched   1 of 2 artifact(s), 0 failed, 1 skipped"), "\(result.stdout)")
        let run = try directory.runRow(runID)
        #expect(run.int("artifacts_fetched") == 1)
        let fetch = try directory.items(runID).filter { $0.text("stage") == "fetch" }
        #expect(fetch.filter { $0.text("status") == "succeeded" }.count == 1)
        #expect(fetch.filter { $0.text("status") == "skipped" }.count == 1)
        #expect(result.stderr.contains("fetch: fetched 1 of 2 artifact(s), 0 failed, 1 skipped"), "\(result.stderr)")
    }

    /// For machines: `--format json` prints the recorded run as one JSON document, and `--log-format json` puts the
    /// run, stage, property, artifact, rows and duration of each line in fields of their own.
    @Test func jsonOutputAndJSONLogsCarryTheRunAsFields() throws {
        let simulator = try PMSSimulator.shared.get()
        let directory = try DataDir()
        let result = try directory.ownerdash(["ingest", "--property", "nexus_east", "--reports", "box_score,getsitelist",
                                              "--as-of", PMSSimulator.asOf, "--format", "json", "--log-format", "json"],
                                             environment: simulator.environment)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let run = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let runID = try #require(run["run_id"] as? String)
        #expect(run["status"] as? String == "succeeded" && run["artifacts_fetched"] as? Int == 2)
        let items = try #require(run["items"] as? [[String: Any]])
        #expect(items.map { $0["stage"] as? String } == ["fetch", "fetch", "load", "load", "sync"])
        #expect(try directory.runRow(runID).text("status") == "succeeded", "the document is the recorded run")

        let lines = try result.stderrLines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
        #expect(lines.allSatisfy { $0["run_id"] as? String == runID && $0["time"] is String })
        let loads = lines.filter { $0["stage"] as? String == "load" }
        #expect(loads.count == 2, "\(result.stderr)")
        for load in loads {
            #expect(load["property"] as? String == "nexus_east")
            #expect((load["artifact"] as? String)?.hasPrefix("realpage/nexus_east/") == true)
            #expect((load["rows"] as? Int ?? 0) > 0 && load["duration_ms"] is Int)
        }
        // The sync's progress line (its warnings, if any, carry stage and property too).
        #expect(lines.filter { $0["stage"] as? String == "sync" }.allSatisfy { $0["property"] as? String == "nexus_east" })
        let sync = try #require(lines.first { ($0["message"] as? String)?.hasPrefix("sync: [1/1] nexus_east") == true })
        #expect(sync["property"] as? String == "nexus_east" && sync["duration_ms"] is Int)

        // Text lines with --log-timestamps start with their UTC time (cron appends every night to one file).
        let again = try directory.ownerdash(["ingest", "--property", "nexus_east", "--reports", "getsitelist",
                                             "--as-of", PMSSimulator.asOf, "--log-timestamps"], environment: simulator.environment)
        #expect(again.status == 0, "stderr: \(again.stderr)")
        #expect(!again.stderrLines.isEmpty && again.stderrLines.allSatisfy {
            $0.range(of: #"^20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ "#, options: .regularExpression) != nil
        }, "\(again.stderr)")
    }

    @Test func aFailedDownloadMakesThePartialRunListedWithTheFailure() throws {
        let simulator = try PMSSimulator.shared.get()
        let directory = try DataDir()
        let result = try directory.ownerdash(["ingest", "--property", "nexus_east", "--property", "ridian",
                                              "--reports", "box_score,rent_roll", "--as-of", PMSSimulator.asOf],
                                             environment: simulator.environment)
        #expect(result.status == 2, "stderr: \(result.stderr)")
        let runID = try #require(result.runID)
        let run = try directory.runRow(runID)
        #expect(run.text("status") == "partial")
        #expect(run.int("artifacts_fetched") == 2)

        let items = try directory.items(runID)
        let failedFetch = items.filter { $0.text("stage") == "fetch" && $0.text("status") == "failed" }
        #expect(failedFetch.compactMap { $0.text("artifact") }.sorted() == ["realpage/ridian/box_score.xlsx", "realpage/ridian/rent_roll.xlsx"])
        #expect(failedFetch.allSatisfy { $0.text("property_id") == "ridian" && $0.text("error")?.contains("HTTP") == true })
        #expect(items.filter { $0.text("stage") == "load" }.compactMap { $0.text("property_id") } == ["nexus_east", "nexus_east"],
                "nothing of ridian landed, so nothing of it is loaded")
        let ridianSync = try #require(items.first { $0.text("stage") == "sync" && $0.text("property_id") == "ridian" })
        #expect(ridianSync.text("status") == "skipped")
        #expect(run.int("failures") == items.filter { $0.text("status") == "failed" }.count)

        #expect(result.stdoutLines.contains("fetched   2 of 4 artifact(s), 2 failed"))
        #expect(result.stderrLines.contains { $0.hasPrefix("realpage/ridian/box_score.xlsx: error: ") })
        let summary = try #require(result.stderrLines.last)
        #expect(summary.contains("fetch realpage/ridian/box_score.xlsx") && summary.contains("fetch realpage/ridian/rent_roll.xlsx"))
        #expect(summary.hasSuffix("(ownerdash runs show \(runID))"))

        let shown = try directory.ownerdash(["runs", "show", runID])
        let fetchHeader = try #require(shown.stdoutLines.firstIndex(of: "fetch: 4 item(s), 2 failed"))
        #expect(shown.stdoutLines[fetchHeader + 3].hasPrefix("failed ") && shown.stdoutLines[fetchHeader + 3].contains("ridian"))
        #expect(shown.stdoutLines[fetchHeader + 4].hasPrefix("failed "))
    }

    @Test func aSyncFailureIsRecordedAgainstItsPropertyAndTheRunIsPartial() throws {
        let simulator = try PMSSimulator.shared.get()
        let directory = try DataDir()
        // Only the property configuration: no unit snapshot and nothing else of the property, so the Yardi rules
        // cannot give it a date (with residents or a ledger loaded it would be synced from those, units missing).
        let result = try directory.ownerdash(["ingest", "--property", "yp_riverwalk", "--reports", "GetPropertyConfigurations",
                                              "--as-of", PMSSimulator.asOf], environment: simulator.environment)
        #expect(result.status == 2, "stderr: \(result.stderr)")
        let runID = try #require(result.runID)
        let items = try directory.items(runID)
        #expect(items.map { "\($0.text("stage") ?? "") \($0.text("status") ?? "")" } == ["fetch succeeded", "load succeeded", "sync failed"])
        let sync = try #require(items.last)
        #expect(sync.text("property_id") == "yp_riverwalk" && sync.text("error")?.contains("yp_riverwalk") == true)
        #expect(sync.text("error")?.hasPrefix("sync failed, unified rows left as before: ") == true)
        #expect(sync.int("rows") == nil)
        let run = try directory.runRow(runID)
        #expect(run.text("status") == "partial" && run.int("properties_synced") == 0 && run.int("failures") == 1)
        #expect(result.stdoutLines.contains("synced    0 of 1 property, 1 failed"))
        #expect(try directory.unified().scalar("SELECT count(*) FROM unified_units")?.integerValue == 0)
    }

    @Test func whenNothingLandsTheRunFailsWithExit3() throws {
        let simulator = try PMSSimulator.shared.get()
        let directory = try DataDir()
        let result = try directory.ownerdash(["ingest", "--property", "ridian", "--reports", "box_score", "--as-of", PMSSimulator.asOf],
                                             environment: simulator.environment)
        #expect(result.status == 3, "stderr: \(result.stderr)")
        let runID = try #require(result.runID)
        #expect(try directory.runRow(runID).text("status") == "failed")
        #expect(try directory.items(runID).map { $0.text("stage") } == ["fetch"], "nothing to load or sync")
        #expect(result.stderr.contains("nothing landed"))
        #expect(!FileManager.default.fileExists(atPath: directory.data.realpageRawDatabase))
    }

    @Test func aPastRunIsReplayedWithLoadRunReloadThenSyncIsRecordedAsItsOwnRun() throws {
        let simulator = try PMSSimulator.shared.get()
        let directory = try DataDir()
        let ingest = try directory.ownerdash(["ingest", "--property", "nexus_east", "--property", "yp_riverwalk",
                                              "--reports", "box_score,GetUnitInformation", "--as-of", PMSSimulator.asOf],
                                             environment: simulator.environment)
        let runID = try #require(ingest.runID, "\(ingest.stderr)")
        #expect([0, 2].contains(ingest.status))
        let realpage = try Database(path: directory.data.realpageRawDatabase)
        let yardi = try Database(path: directory.data.yardiRawDatabase)
        let boxScore = "SELECT count(*), sum(total_units) FROM v_realpage_box_score WHERE run_id = :run"
        let units = "SELECT count(*), sum(CAST(round(market_rent * 100) AS INTEGER)) FROM v_yardi_units WHERE run_id = :run"
        let good = (try realpage.query(boxScore, [":run": .text(runID)]), try yardi.query(units, [":run": .text(runID)]))

        // Without --reload the same bytes are already loaded: nothing is parsed again.
        let plain = try directory.ownerdash(["load", "--run", runID])
        #expect(plain.status == 0 && plain.stdoutLines.count == 2 && plain.stdoutLines.allSatisfy { $0.hasPrefix("already loaded  ") })

        // What a parser bug would have left: wrong numbers in the raw snapshots of the run.
        try realpage.execute("""
            UPDATE realpage_box_score SET total_units = total_units + 1000
            WHERE lineage_id IN (SELECT id FROM raw_lineage WHERE run_id = '\(runID)')
            """)
        try yardi.execute("UPDATE yardi_units SET market_rent = 0 WHERE lineage_id IN (SELECT id FROM raw_lineage WHERE run_id = '\(runID)')")
        #expect(try realpage.query(boxScore, [":run": .text(runID)]) != good.0)

        // The replay parses the landed files again and replaces the snapshots: the right numbers, no duplicates.
        let replay = try directory.ownerdash(["load", "--run", runID, "--reload"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdoutLines.count == 2 && replay.stdoutLines.allSatisfy { $0.hasPrefix("loaded  ") })
        #expect(try realpage.query(boxScore, [":run": .text(runID)]) == good.0)
        #expect(try yardi.query(units, [":run": .text(runID)]) == good.1)

        // Then sync, recorded as its own run (trigger sync, one item per property).
        let sync = try directory.ownerdash(["sync", "--property", "yp_riverwalk"])
        let syncRuns = try directory.unified().query("SELECT run_id, command, status FROM etl_runs WHERE trigger = 'sync'")
        #expect(syncRuns.count == 1 && syncRuns.first?[1].textValue == "ownerdash sync --property yp_riverwalk")
        let syncRun = try #require(syncRuns.first?[0].textValue)
        let items = try directory.items(syncRun)
        #expect(items.count == 1 && items.first?.text("stage") == "sync" && items.first?.text("property_id") == "yp_riverwalk")
        #expect(syncRuns.first?[2].textValue == (sync.status == 0 ? "succeeded" : "failed"), "\(sync.stderr)")
        #expect(items.first?.text("status") == (sync.status == 0 ? "succeeded" : "failed"))

        let fileLoad = try directory.ownerdash(["load", "x.xlsx", "--reload"])
        #expect(fileLoad.status == 1 && fileLoad.stderr.contains("--reload needs --run RUN_ID"))
    }

    @Test func usageErrorsComeBeforeTheLockAndWriteNothing() throws {
        let directory = try DataDir()
        let unknown = try directory.ownerdash(["ingest", "--property", "nexus_east", "--reports", "box_scor"],
                                              environment: ["REALPAGE_TOKEN": "t"])
        #expect(unknown.status == 1 && unknown.stderrLines.count == 1)
        #expect(unknown.stderr.hasPrefix("error: ownerdash ingest: unknown report or operation \"box_scor\""))
        let noToken = try directory.ownerdash(["ingest", "--property", "nexus_east"])
        #expect(noToken.status == 1 && noToken.stderr.contains("REALPAGE_TOKEN"))
        let trigger = try directory.ownerdash(["ingest", "--trigger", "cron"])
        #expect(trigger.status == 1 && trigger.stderrLines == ["error: ownerdash ingest: --trigger must be ingest or schedule, not \"cron\""])
        #expect(!FileManager.default.fileExists(atPath: directory.data.root), "nothing written, not even the data directory")
    }
}
