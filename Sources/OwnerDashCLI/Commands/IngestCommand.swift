import Fetch
import Forecast
import Foundation
import Ingest
import Notices
import OwnerDashCore
import PostgresUnified
import SOAP
import Sync

/// `ownerdash ingest`: Fetch, load and sync the selected properties as one recorded run.
struct IngestCommand: Command {
    static let names = ["ingest"]
    static let unifiedAccess = UnifiedAccess.publishes
    static let abstract = "Fetch, load and sync the selected properties as one recorded run."
    static let arguments: [ArgumentSpec] = [
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every property"),
        .option("--pms", "realpage|yardi", help: "only properties on this source system; default: both"),
        .option("--reports", "a,b", help: "report types and operations to fetch, comma-separated (as for fetch); default: all but the catalogue's \"nightly\": false reports and RPX \(RPXOperation.leftOutNightly)"),
        .option("--as-of", "YYYY-MM-DD", help: "date asked of the sources (default: today)"),
        .option("--parallel", "N", help: "downloads at a time, 1-32 (default 4)"),
        .option("--ca-bundle", "FILE", help: "PEM file of CA certificates to verify TLS against (default: the system's)"),
        .option("--trigger", "ingest|schedule", help: "recorded as the run's trigger (default: $OWNERDASH_TRIGGER, else ingest)"),
        .flag("--full-ledger", help: "pull every tenant ledger whole tonight (and report what the incremental nights missed)"),
        .flag("--notices", help: "after a sync that succeeded, write the debtor notices (as 'notices generate')"),
        .option("--notices-webhook", "URL", help: "with --notices: also send the new or changed ones there (as 'notices send')"),
        .option("--notices-template", "FILE", help: "with --notices: the notice template (default: the built-in one)"),
        .flag("--no-forecast-retrain", help: "after a nightly run (--trigger schedule), do not retrain the delinquency forecast when a month closed"),
        .option("--format", "text|json", help: "stdout: text (run id, then a summary) or json (the run as 'runs show --format json')"),
        .option("--host-name", "NAME", help: "with --database-url: this host's name among the hosts sharing the night (default: the machine's)"),
        .option("--claim-timeout", "SECONDS", help: "with --database-url: how long a silent host's claims hold before another takes them (default 300)"),
    ]
    static let discussion = """
        One run: fetch (as 'ownerdash fetch') into data/landing/<run_id>/, load what landed (as 'load --run'),
        then sync each property that loaded (as 'sync'). The fetch run id is the run id. The run is recorded
        in unified.db: etl_runs (trigger, command, as-of, start and end, status, pid, host, counts) and
        etl_run_items (one row per fetched and loaded artifact and per synced property, with rows, duration
        and error); 'ownerdash runs list|show' prints them.

        Only one ingest runs per data directory: it holds data/ingest.lock (flock) for its lifetime; a second
        one exits 3 naming the holder. sync and load take the same lock. A lock left by a process that died
        is taken over with a warning, and the run it left 'running' is marked 'abandoned'.

        stdout: the run id, then a summary (artifacts fetched and failed, rows loaded, properties synced and
        failed, status). Progress and every failure (one line each) go to stderr. --format json: one JSON
        document instead, the run and its items as 'ownerdash runs show RUN_ID --format json' prints them
        (a refused run too: status "refused", its detail naming the holder); a night shared with other hosts
        prints the array of its runs' documents.

        The tenant ledger (Yardi GetResidentTransactions_Login, RPX getresidentledger) is pulled whole on a
        property's first ingest, then every ledger.full_refresh_days (default 7), and the night after its
        ledger check failed (a posting dated before the window: ledger_open_balance, on Yardi
        ledger_window_gaps; on RPX only the ledgers of the households found off, at most 20, while that mends
        it); the nights between fetch
        only what changed since the last successful run less ledger.overlap_days (default 7): the transactions
        dated in that window and the old charges paid meanwhile, merged into the raw ledger by transaction id.
        A failed night does not move the window. A full pull over a merged ledger reports (as a warning) every
        difference it finds. --full-ledger pulls every ledger whole tonight.
        (docs/operators.md, "The tenant ledger, incrementally".)

        --notices (nightly): once the run has synced at least one property, the debtor notices of the
        selected properties are written to DATA_DIR/notices (as 'notices generate'), and with
        --notices-webhook sent (as 'notices send': only new or changed notices; a notice that fails makes
        the run exit 2).

        The delinquency forecast (nightly): after a run with --trigger schedule (as the systemd timer and
        the cron line set it) that synced a property, when a month has closed since the latest model's
        last outcome, or there is no model and the ledgers hold enough months, the model is retrained with
        its backtest (as 'forecast train --backtest') and one line says so. A failure to train is a warning
        and never changes the exit code. --no-forecast-retrain turns it off; with --database-url it learns
        from the server's data and stores the model there (hosts take turns; one retrains a closed month).
        (docs/forecast.md, "Retrained after a month closes".)

        With --database-url and no --property, the night is shared with every other host ingesting the same
        date into the same server: each host claims a batch (as many properties as --parallel) at a time, a
        property goes to the host that holds its raw history while that host is alive, and a host that dies
        loses its properties to the others once its claims lapse (--claim-timeout). Each batch is a run of its
        own. With --property the named properties are done here, claimed or not (an operator's re-sync).
        (docs/postgresql.md, "Several ingest hosts".)

        Exit codes: 0 every item succeeded; 2 partial: some items failed (listed on stderr; everything else
        is committed); 3 nothing could be done (another ingest holds the lock, or nothing could be fetched).
        """

    var global: GlobalOptions
    let selection: PropertySelection
    let reportNames: [String]?
    let asOf: LocalDate
    let asOfGiven: Bool
    let parallel: Int
    let caBundle: String?
    let trigger: String
    let fullLedger: Bool
    /// `--notices`: the template to write notices with after the sync; nil: no notices.
    let noticeTemplate: NoticeTemplate?
    let noticesWebhook: String?
    /// `--format json`: stdout is one JSON document (the recorded run), nothing else.
    let json: Bool
    /// Retrain the delinquency forecast after the run when a month closed: nightly runs (`--trigger schedule`)
    /// unless `--no-forecast-retrain`.
    let retrainForecast: Bool
    /// `--host-name` (else `OWNERDASH_HOST_NAME`, else the machine's): who this host is among those sharing the night
    /// on the server, in its claims, its lock, its run's record and its publications (`global.hostName`).
    var hostName: String { global.hostName }
    /// `--claim-timeout`: seconds a claim holds without its host renewing it.
    let claimTimeout: Int

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        selection = try PropertySelection(parsed, command: "ownerdash ingest")
        reportNames = parsed.value("--reports").map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let text = parsed.value("--as-of") {
            guard let date = LocalDate(iso: text) else {
                throw UsageError("ownerdash ingest: --as-of must be a date YYYY-MM-DD, not \"\(text)\"")
            }
            asOf = date
            asOfGiven = true
        } else {
            asOf = FetchCommand.today()
            asOfGiven = false
        }
        parallel = try parsed.number("--parallel", in: 1...32, default: 4, command: "ownerdash ingest")
        caBundle = parsed.value("--ca-bundle")
        if let caBundle, !FileManager.default.isReadableFile(atPath: caBundle) {
            throw UsageError("ownerdash ingest: --ca-bundle \"\(caBundle)\" is not a readable file")
        }
        let trigger = parsed.value("--trigger") ?? ProcessInfo.processInfo.environment["OWNERDASH_TRIGGER"] ?? "ingest"
        guard ["ingest", "schedule"].contains(trigger) else {
            throw UsageError("ownerdash ingest: --trigger must be ingest or schedule, not \"\(trigger)\"")
        }
        self.trigger = trigger
        fullLedger = parsed.flag("--full-ledger")
        retrainForecast = trigger == "schedule" && !parsed.flag("--no-forecast-retrain")
        if let name = parsed.value("--host-name") { self.global.hostName = name }
        let timeoutText = parsed.value("--claim-timeout") ?? "300"
        guard let timeout = Int(timeoutText), (2...86_400).contains(timeout) else {
            throw UsageError("ownerdash ingest: --claim-timeout must be a number of seconds from 2 to 86400, not \"\(timeoutText)\"")
        }
        claimTimeout = timeout
        switch parsed.value("--format") ?? "text" {
        case "text": json = false
        case "json": json = true
        case let other: throw UsageError("ownerdash ingest: --format must be text or json, not \"\(other)\"")
        }
        if parsed.flag("--notices") {
            do {
                noticeTemplate = try parsed.value("--notices-template").map { try NoticeTemplate(path: $0) }
                    ?? NoticeTemplate(text: NoticeTemplate.builtIn, source: "built-in template")
            } catch let error as NoticeTemplateError {
                throw UsageError("ownerdash ingest: \(error.description)")
            }
            noticesWebhook = try parsed.value("--notices-webhook").map {
                try NoticesSendCommand.webhook($0, option: "--notices-webhook", command: "ownerdash ingest")
            }
        } else {
            for option in ["--notices-webhook", "--notices-template"] where parsed.value(option) != nil {
                throw UsageError("ownerdash ingest: \(option) needs --notices")
            }
            noticeTemplate = nil
            noticesWebhook = nil
        }
    }

    /// The command as recorded in etl_runs.command: the options that shaped the run, in a fixed order.
    var commandLine: String {
        var words = ["ownerdash", "ingest"]
        for key in selection.keys { words += ["--property", key] }
        if let pms = selection.pms { words += ["--pms", pms.rawValue] }
        if let reportNames { words += ["--reports", reportNames.joined(separator: ",")] }
        if asOfGiven { words += ["--as-of", asOf.iso] }
        words += ["--parallel", String(parallel)]
        if let caBundle { words += ["--ca-bundle", caBundle] }
        if fullLedger { words.append("--full-ledger") }
        if noticeTemplate != nil { words.append("--notices") }
        return words.joined(separator: " ")
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let configuration = try global.configuration()
        let properties = try selection.resolve(configuration, configPath: global.configPath, command: "ownerdash ingest")
        var ingest = IngestRun(dataDirectory: global.dataDirectory, configuration: configuration, configPath: global.configPath)
        ingest.publication = try global.publication()
        let output = StandardOutput()
        defer { output.flush() }
        var code = ExitCode.success
        var synced: [String] = []
        var lastRun: String?
        if let databaseURL = global.databaseURL, selection.keys.isEmpty {
            // The night shared with the other hosts on the server: batches of the properties this host may claim.
            let claims = try PortfolioClaims(url: databaseURL, host: hostName, runDate: asOf, leaseSeconds: claimTimeout)
            let keys = properties.map(\.key)
            try claims.register(keys)
            claims.startRenewing(log: log)
            log.info(nil, "ingest: sharing \(keys.count) propert\(keys.count == 1 ? "y" : "ies") of \(asOf.iso) with the other hosts on \(databaseURL) as \(hostName)")
            var documents: [String] = []
            defer {
                if json { output.write("[" + documents.map { $0.trimmingCharacters(in: .newlines) }.joined(separator: ",\n") + "]\n") }
            }
            while true {
                let claimed = try claims.claim(keys, limit: parallel)
                if claimed.isEmpty {
                    if try claims.isFinished(keys) { break }
                    // Other hosts hold the rest: wait for them to finish, or for their leases to lapse.
                    Thread.sleep(forTimeInterval: min(5, max(1, Double(claimTimeout) / 3)))
                    continue
                }
                log.info(nil, "ingest: \(hostName) claimed \(claimed.joined(separator: ", "))")
                let batch = properties.filter { claimed.contains($0.key) }
                let outcome: (code: ExitCode, result: IngestResult?, document: String?)
                do {
                    outcome = try runOnce(batch, ingest: ingest, output: output, log: log)
                } catch {
                    try? claims.release(claimed)
                    throw error
                }
                if let document = outcome.document { documents.append(document) }
                guard let result = outcome.result else {
                    try claims.release(claimed)
                    return outcome.code
                }
                for key in claimed {
                    let item = result.items.first { $0.stage == .sync && $0.property == key }
                    try claims.finish(key, succeeded: item.map { $0.status != .failed } ?? false, runID: result.runID.value)
                }
                code = ExitCode(rawValue: max(code.rawValue, outcome.code.rawValue)) ?? .failure
                synced += result.syncs.filter { $0.error == nil }.map(\.property)
                lastRun = result.runID.value
            }
            guard lastRun != nil else {
                log.info(nil, "ingest: every property of \(asOf.iso) was done by other hosts (ownerdash runs --database-url ... shows which)")
                return .success
            }
        } else {
            let outcome = try runOnce(properties, ingest: ingest, output: output, log: log)
            if let document = outcome.document { output.write(document) }
            guard let result = outcome.result else { return outcome.code }
            code = outcome.code
            synced = result.syncs.filter { $0.error == nil }.map(\.property)
            lastRun = result.runID.value
        }
        if retrainForecast, !synced.isEmpty { self.retrainForecast(output: output, log: log) }
        guard let noticeTemplate, let lastRun else { return code }
        guard !synced.isEmpty else {
            log.warning(nil, "ownerdash ingest: no property synced, so no notices written")
            return code
        }
        let noticesCode = try notices(noticeTemplate, properties: properties.map(\.key).filter { synced.contains($0) },
                                      runID: lastRun, output: output, log: log)
        // The worse of the two: 3 (nothing done) over 2 (some items failed) over 0.
        return ExitCode(rawValue: max(code.rawValue, noticesCode.rawValue)) ?? .failure
    }

    /// One recorded run over `properties`: planned, run, its id and summary (or JSON document) on stdout. The result
    /// is nil when the run was refused (another process holds the data directory).
    /// With --format json the run's document is returned, not written: one run prints it, a shared night prints
    /// the array of its runs' documents.
    private func runOnce(_ properties: [Property], ingest: IngestRun, output: StandardOutput,
                         log: Diagnostics) throws -> (code: ExitCode, result: IngestResult?, document: String?) {
        let request = IngestRequest(properties: properties, reportNames: reportNames, asOf: asOf, parallel: parallel,
                                    trigger: trigger, commandLine: commandLine, caBundle: caBundle, fullLedger: fullLedger,
                                    hostName: hostName)
        let plan: FetchPlan
        do {
            plan = try ingest.plan(request)
        } catch let error as FetchSelectionError {
            throw UsageError("ownerdash ingest: \(error.description)")
        }
        let result: IngestResult
        do {
            result = try ingest.run(request, plan: plan, log: log) { runID in
                // First, and at once: a caller (or a log file) has the run id even if the process dies later.
                guard !json else { return }
                output.write("run \(runID.value)\n")
                output.flush()
            }
        } catch let busy as IngestLockBusy {
            log.error(nil, busy.description)
            return (.failure, nil, try json ? busy.refusedRunID.map(recordedRun) : nil)
        }
        let document = json ? try recordedRun(result.runID.value) : nil
        if !json {
            output.write(Self.summary(result))
            output.flush()
        }
        let failures = result.failures
        if !failures.isEmpty {
            log.error(nil, "\(failures.count) item(s) failed: "
                      + failures.map { "\($0.stage.rawValue) \($0.artifact ?? $0.property ?? "")" }.joined(separator: ", ")
                      + " (ownerdash runs show \(result.runID.value))")
        }
        return (ExitCode(rawValue: result.exitCode) ?? .failure, result, document)
    }

    /// The nightly notices step: write them (and send them, with a webhook) under the data directory's lock.
    /// With --database-url the notices are written from the server's data and their record is the server's (as
    /// `notices send --database-url`: under the notices' lock, on the mirror, published back).
    private func notices(_ template: NoticeTemplate, properties: [String], runID: String, output: StandardOutput,
                         log: Diagnostics) throws -> ExitCode {
        let lock = try global.writerLock(command: "ingest --notices", log: log)
        defer { lock.release() }
        var global = global
        let writer = try global.databaseURL.map { try ScopeWriter(url: $0, scope: "notices", host: global.hostName) }
        if writer != nil { try global.readFromServer(log: log) }
        let selection = NoticeSelection(template: template, properties: properties)
        let store = try UnifiedStore(dataDirectory: global.dataDirectory)
        let notices = try selection.notices(database: store.database, properties: properties,
                                            command: "ownerdash ingest", log: log)
        // With --format json stdout holds the run's document only: the notices' lines go to stderr.
        let report: (String) -> Void = { text in
            if json { text.split(separator: "\n").forEach { log.info(nil, String($0)) } } else { output.write(text) }
        }
        report(try NoticesGenerateCommand.write(notices, to: global.dataDirectory.notices, dryRun: false,
                                                command: "ownerdash ingest"))
        guard let noticesWebhook else { return .success }
        let (text, code) = try NoticesSendCommand.send(selection, channel: WebhookChannel(webhook: noticesWebhook), dryRun: false,
                                                       dataDirectory: global.dataDirectory, runID: runID,
                                                       command: "ownerdash ingest", log: log)
        report(text)
        try writer?.publish(from: global.dataDirectory.unifiedDatabase)
        return code
    }

    /// The nightly retraining of the delinquency forecast (`ForecastRetraining`): when due, trains on every property
    /// with a tenant ledger with the backtest first (as `forecast train --backtest`) and says so in one line (stdout;
    /// stderr with --format json). Anything that stops it is one warning; the run's exit code stays the run's.
    /// With --database-url, as `forecast train --database-url`: under the forecast's lock on the server, from the
    /// server's data, the model published back; hosts sharing a night take turns, and the ones after the first find
    /// the month already learnt.
    private func retrainForecast(output: StandardOutput, log: Diagnostics) {
        let say: (String) -> Void = { line in
            if json { log.info(nil, line) } else { output.write(line + "\n"); output.flush() }
        }
        do {
            var global = global
            let writer = try global.databaseURL.map { try ScopeWriter(url: $0, scope: "forecast", host: global.hostName) }
            if writer != nil { try global.readFromServer(log: log) }
            let store = try UnifiedStore(dataDirectory: global.dataDirectory)
            let why: String
            switch try ForecastRetraining.decide(database: store.database) {
            case .notDue(let reason):
                log.debug(nil, "ingest: the delinquency forecast is not retrained: \(reason)")
                return
            case .due(let reason): why = reason
            }
            let keys = try LedgerReportSession.properties(store.database, asked: [], command: "ownerdash ingest")
            var leftOut: [(property: String, reason: String)] = []
            let ledgers = try ForecastInputs.read(store.database, properties: keys, asked: false, leftOut: &leftOut)
            let started = Date()
            let stored = try ForecastStore.train(ledgers, database: store.database, backtest: true)
            try writer?.publish(from: global.dataDirectory.unifiedDatabase)
            let verdict = stored.backtest.map { "backtest \($0.summary)" + ($0.passes ? ", shown to users" : ", not shown to users") } ?? ""
            say("forecast  retrained (\(why)): model \(stored.modelID), month ends \(stored.trainingFrom) to \(stored.trainingTo) of "
                + "\(stored.properties.count) propert\(stored.properties.count == 1 ? "y" : "ies")\(leftOut.isEmpty ? "" : " (\(leftOut.count) left out)"), "
                + "\(String(format: "%.0f", Date().timeIntervalSince(started))) s; \(verdict)")
        } catch let error as ForecastError {
            log.warning(nil, "ownerdash ingest: the delinquency forecast was not retrained: \(error.description)")
        } catch {
            log.warning(nil, "ownerdash ingest: the delinquency forecast was not retrained: \(error)")
        }
    }

    /// `--format json`: the run as recorded (etl_runs and its items and checks), read back from unified.db.
    private func recordedRun(_ runID: String) throws -> String {
        let history = RunHistory(database: try UnifiedStore.openForReading(dataDirectory: global.dataDirectory))
        guard let run = try history.run(runID) else {
            throw IngestError("run \(runID) is not in \(global.dataDirectory.unifiedDatabase)")
        }
        return try RunJSON.render(RunDetail(run: run, items: try history.items(of: runID), checks: try history.checks(of: runID)))
    }

    /// The stdout summary after the run line.
    static func summary(_ result: IngestResult) -> String {
        let loads = result.loads
        let loadFailed = loads.filter { $0.error != nil }.count
        let already = loads.filter { $0.error == nil && $0.alreadyLoaded }.count
        let rows = loads.filter { $0.error == nil && !$0.alreadyLoaded }.reduce(0) { $0 + $1.rows }
        let syncItems = result.items.filter { $0.stage == .sync }
        let synced = syncItems.filter { $0.status == .succeeded }.count
        let syncFailed = syncItems.filter { $0.status == .failed }.count
        let syncSkipped = syncItems.filter { $0.status == .skipped }.count
        var lines = [
            "status    \(result.status.rawValue)",
            "fetched   \(FetchCounts(result.fetched).summary)",
            "loaded    \(rows) rows from \(loads.count - loadFailed - already) artifact(s), \(loadFailed) failed"
                + (already > 0 ? ", \(already) already loaded" : ""),
            "synced    \(synced) of \(syncItems.count) propert\(syncItems.count == 1 ? "y" : "ies"), \(syncFailed) failed"
                + (syncSkipped > 0 ? ", \(syncSkipped) skipped" : ""),
        ]
        if !result.abandonedRuns.isEmpty {
            lines.append("abandoned \(result.abandonedRuns.joined(separator: ", ")) (left running by a process that died)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension GlobalOptions {
    /// Takes the data directory's lock for a command that writes the databases (sync, load); throws a
    /// `WriterLockRefused` naming the holder (exit 3) when an ingest or another writer has it.
    func writerLock(command: String, log: Diagnostics) throws -> IngestLock {
        try dataDirectory.create()
        do {
            let lock = try IngestLock.acquire(dataDirectory: dataDirectory, holder: LockHolder(command: command, runID: nil, host: hostName))
            if let stale = lock.staleHolder {
                log.warning(lock.path, "took over a stale lock: \(stale.command)\(stale.runID.map { " run \($0)" } ?? "") (pid \(stale.pid) on host \(stale.host) since \(stale.startedAt)) died holding it")
            }
            return lock
        } catch let busy as IngestLockBusy {
            throw WriterLockRefused(busy: busy, command: command)
        }
    }
}

/// A writer refused because another holds the data directory's lock; CLI prints it as one line and exits 3.
struct WriterLockRefused: Error, CustomStringConvertible {
    var busy: IngestLockBusy
    var command: String

    var description: String {
        "\(busy.description) (\(command) writes the same databases: run it again when that has finished)"
    }
}
