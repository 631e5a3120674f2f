import Fetch
import Foundation
import OwnerDashCore
import RunRecords
import SQLiteKit
import Sync

/// What one ingest is asked to do.
public struct IngestRequest: Sendable {
    public var properties: [Property]
    /// `--reports`: report types and operations; nil for all.
    public var reportNames: [String]?
    /// The date asked of the sources.
    public var asOf: LocalDate
    /// Downloads at a time.
    public var parallel: Int
    /// `ingest`, `schedule` (the nightly timer), `demo`: recorded in etl_runs.trigger.
    public var trigger: String
    /// How the run was asked for, recorded in etl_runs.command (never holds a secret: those come from the environment).
    public var commandLine: String
    public var caBundle: String?
    /// Credentials and endpoint overrides (the names of docs/contracts.md, "Configuration and secrets"), and the
    /// ledger schedule's `OWNERDASH_LEDGER_OVERLAP_DAYS` / `OWNERDASH_LEDGER_FULL_REFRESH_DAYS`.
    public var environment: [String: String]
    /// `--full-ledger`: every selected property's ledger pulled whole tonight, whatever the schedule says.
    public var fullLedger: Bool
    /// This host's name, recorded in etl_runs.host (`--host-name`, `OWNERDASH_HOST_NAME`, else the machine's).
    public var hostName: String

    public init(properties: [Property], reportNames: [String]? = nil, asOf: LocalDate, parallel: Int = 4,
                trigger: String = "ingest", commandLine: String, caBundle: String? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment, fullLedger: Bool = false,
                hostName: String = LockHolder.hostName()) {
        self.properties = properties; self.reportNames = reportNames; self.asOf = asOf; self.parallel = parallel
        self.trigger = trigger; self.commandLine = commandLine; self.caBundle = caBundle; self.environment = environment
        self.fullLedger = fullLedger; self.hostName = hostName
    }
}

/// What an ingest did, stage by stage.
public struct IngestResult {
    public var runID: RunID
    public var status: RunStatus
    /// Every artifact the fetch tried, landed or not (the run's manifest entries).
    public var fetched: [ManifestEntry]
    public var loads: [ArtifactLoad]
    public var syncs: [PropertySyncOutcome]
    /// Every item recorded in etl_run_items, in the order recorded per stage.
    public var items: [RunItem]
    /// What a process that died holding the lock left in it (taken over with a warning).
    public var staleHolder: LockHolder?
    /// Runs left `running` by dead processes, marked abandoned by this one.
    public var abandonedRuns: [String]

    /// The exit code of this outcome (docs/contracts.md, "Command line and exit codes"): 0 succeeded, 2 partial,
    /// 3 failed.
    public var exitCode: Int32 {
        switch status {
        case .succeeded: 0
        case .partial: 2
        case .running, .failed, .abandoned, .refused: 3
        }
    }

    /// The failed items, fetch first, then load, then sync.
    public var failures: [RunItem] { items.filter { $0.status == .failed } }
}

/// `ownerdash ingest`: fetch + load + sync of the selected properties as one run, under the data directory's lock,
/// recorded in unified.db's etl_runs / etl_run_items (docs/contracts.md: "Stages and the data directory",
/// "Command line and exit codes", "Reliability").
///
/// The fetch run id is the run id: the landing directory, the raw rows' run_id, the unified rows' last_run_id and
/// the etl_runs row all carry it. Each stage keeps going after a bad item (one transaction per artifact on load,
/// per property on sync); a property none of whose artifacts loaded is not synced (its item is `skipped`).
public struct IngestRun {
    public let dataDirectory: DataDirectory
    public let configuration: Configuration
    public let configPath: String
    /// Where each synced property is published when the unified data lives on PostgreSQL; nil: unified.db only.
    public var publication: UnifiedPublication?

    public init(dataDirectory: DataDirectory, configuration: Configuration, configPath: String) {
        self.dataDirectory = dataDirectory; self.configuration = configuration; self.configPath = configPath
    }

    /// Plans the fetch: throws `FetchSelectionError` or `ConfigurationError` before anything is written or locked.
    /// Each property's tenant ledger is fetched whole or incrementally as its run history says (`ledgerPlans`).
    public func plan(_ request: IngestRequest) throws -> FetchPlan {
        try FetchPlan(configuration: configuration, configPath: configPath, properties: request.properties,
                      reportNames: request.reportNames, environment: request.environment, caBundle: request.caBundle,
                      ledger: ledgerPlans(request))
    }

    /// Each selected property's ledger fetch (`LedgerPlanner.plan`): from the runs recorded in unified.db, the as-of
    /// dates of the last run that fetched and loaded the property's ledger without a failure and of the last that
    /// pulled it whole, and whether its last sync's ledger check failed since (sync_checks); the schedule from
    /// report_definitions.json `ledger`, over which the environment wins. A data directory without a run history (a
    /// first ingest) pulls every ledger whole.
    public func ledgerPlans(_ request: IngestRequest) throws -> [String: LedgerFetch] {
        let schedule = try LedgerSchedule(configured: configuration.ledger, environment: request.environment)
        let path = dataDirectory.unifiedDatabase
        let database = FileManager.default.fileExists(atPath: path) ? try Database(path: path, mode: .readOnly) : nil
        var plans: [String: LedgerFetch] = [:]
        // Nights from the whole registry, so that a night's selection (`--property`) never moves them; a selected
        // property the registry lacks (a library caller's own `Property`) is dealt a night among them.
        let slots = LedgerPlanner.refreshSlots(configuration.properties.map(\.key) + request.properties.map(\.key),
                                               every: schedule.fullRefreshDays)
        for property in request.properties {
            let artifacts: LedgerRuns.Artifacts = property.pms == .yardi ? .yardi(property.key) : .rpx(property.key)
            var history = LedgerHistory(lastSuccess: nil, lastFull: nil)
            if let database {
                do {
                    let runs = try LedgerRuns.read(database, property: property.key, artifacts: artifacts)
                    history = LedgerHistory(lastSuccess: runs.lastSuccess, lastFull: runs.lastFull,
                                            disagreement: runs.openBalanceMiss.map(Self.disagreement),
                                            refused: runs.refusal.map { "as of \($0.asOf.iso), was refused: \($0.reason)" })
                } catch {
                    // A history that cannot be read (unified.db from before etl_runs) costs a full pull, never a gap.
                    plans[property.key] = .full(reason: "the run history cannot be read (\(error))", reconcile: nil)
                    continue
                }
            }
            plans[property.key] = LedgerPlanner.plan(history: history, asOf: request.asOf, schedule: schedule,
                                                     forceFull: request.fullLedger,
                                                     slot: slots[property.key])
        }
        return plans
    }

    /// A failed ledger check as the ledger plan's reason names it.
    static func disagreement(_ miss: LedgerRuns.OpenBalanceMiss) -> LedgerDisagreement {
        func money(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "none" }
        if miss.check == LedgerRuns.windowGapsCheck {
            let figures = "\(money(miss.ledger)) of them in the last whole ledger, \(money(miss.delinquency)) tonight"
            return LedgerDisagreement(asOf: miss.asOf, figures: figures,
                                      finding: "households' open charges lowered by payments no window holds (window gaps: \(figures))")
        }
        return LedgerDisagreement(asOf: miss.asOf,
                                  figures: "ledger \(money(miss.ledger)), delinquency \(money(miss.delinquency))",
                                  households: miss.households)
    }

    /// Runs the ingest. Throws `IngestLockBusy` when another process holds the data directory (nothing done);
    /// any other error stops the run, which is recorded `failed`. `started` is called once the lock is held and
    /// the run recorded, with its id.
    public func run(_ request: IngestRequest, plan: FetchPlan, log: Diagnostics,
                    started: (RunID) -> Void = { _ in }) throws -> IngestResult {
        let runID = RunID.new()
        try dataDirectory.create()
        let holder = LockHolder(command: "ingest", runID: runID.value, host: request.hostName)
        let lock = try IngestRun.acquire(dataDirectory: dataDirectory, log: log, refused: RunJournal.Start(
            runID: runID.value, trigger: request.trigger, commandLine: request.commandLine, asOf: request.asOf,
            properties: request.properties.count, holder: holder))
        defer { lock.release() }
        log.runID = runID.value
        // The journal's connection waits out a property's sync, which the pipeline runs while the fetch records items.
        let journalStore = try UnifiedStore(dataDirectory: dataDirectory, busyTimeoutMilliseconds: 600_000)
        let (stale, abandoned) = try Self.takeOver(lock, database: journalStore, runID: runID, log: log)
        let journal = try RunJournal(database: journalStore.database, start: RunJournal.Start(
            runID: runID.value, trigger: request.trigger, commandLine: request.commandLine, asOf: request.asOf,
            properties: request.properties.count, holder: lock.holder))
        started(runID)
        var result = IngestResult(runID: runID, status: .running, fetched: [], loads: [], syncs: [], items: [],
                                  staleHolder: stale, abandonedRuns: abandoned)
        var warnings = 0
        do {
            try fetchLoadAndSync(request, plan: plan, runID: runID, journal: journal, log: log, into: &result)
            if result.fetched.contains(where: { $0.error == nil }) {
                warnings += result.loads.reduce(0) { $0 + $1.warnings.count }
                warnings += result.syncs.reduce(0) { $0 + $1.warnings.count }
                result.status = result.failures.isEmpty ? .succeeded : .partial
            } else {
                log.error(nil, "nothing landed: no artifact of run \(runID.value) could be fetched, so nothing was loaded or synced")
                result.status = .failed
            }
        } catch {
            try? journal.finish(status: .failed, warnings: warnings)
            throw error
        }
        try journal.finish(status: result.status, warnings: warnings)
        publication?.publishRun(runID, from: journalStore.database, log: log)
        return result
    }

    /// Takes the data directory's lock; when another process holds it, records the run `refused` (best effort: a
    /// database that cannot take the record is a warning) and throws `IngestLockBusy`.
    static func acquire(dataDirectory: DataDirectory, log: Diagnostics, refused start: RunJournal.Start) throws -> IngestLock {
        do {
            return try IngestLock.acquire(dataDirectory: dataDirectory, holder: start.holder)
        } catch var busy as IngestLockBusy {
            do {
                let store = try UnifiedStore(dataDirectory: dataDirectory)
                try RunJournal.recordRefused(in: store.database, start: start, reason: "refused: \(busy.description)")
                busy.refusedRunID = start.runID
            } catch {
                log.warning(dataDirectory.unifiedDatabase, "could not record refused run \(start.runID): \(error)")
            }
            throw busy
        }
    }

    /// Warns about a lock taken over from a dead process, and marks the runs it left `running` abandoned.
    static func takeOver(_ lock: IngestLock, database: UnifiedStore, runID: RunID,
                         log: Diagnostics) throws -> (LockHolder?, [String]) {
        if let stale = lock.staleHolder {
            log.warning(lock.path, "took over a stale lock: \(stale.command)\(stale.runID.map { " run \($0)" } ?? "") (pid \(stale.pid) on host \(stale.host) since \(stale.startedAt)) died holding it")
        } else if lock.staleUnreadable {
            log.warning(lock.path, "took over a stale lock whose holder could not be read")
        }
        let abandoned = try RunJournal.abandonStaleRuns(in: database.database, except: runID.value)
        for id in abandoned {
            log.warning(nil, "run \(id) was left running by a process that is gone: marked abandoned")
        }
        return (lock.staleHolder, abandoned)
    }

    // MARK: - Stages

    /// The fetch, with each property loaded and synced as soon as its artifacts have ended (PropertyPipeline).
    private func fetchLoadAndSync(_ request: IngestRequest, plan: FetchPlan, runID: RunID, journal: RunJournal,
                                  log: Diagnostics, into result: inout IngestResult) throws {
        let landing = try LandingZone(dataDirectory: dataDirectory, runID: runID)
        let artifacts = plan.jobs.reduce(into: [String: Int]()) { counts, job in counts[job.propertyKey, default: 0] += 1 }
        let pipeline = PropertyPipeline(properties: request.properties, artifacts: artifacts, dataDirectory: dataDirectory,
                                        configuration: configuration, runID: runID, landing: landing, journal: journal,
                                        publication: publication,
                                        fullSync: Set(plan.ledger.filter { $0.value.isRefresh }.keys), log: log)
        let total = plan.jobs.count
        for property in request.properties {
            if let ledger = plan.ledger[property.key] { log.info(property.key, "ledger: \(ledger.summary)") }
        }
        log.info(nil, "fetch: \(total) artifact(s) for \(request.properties.count) propert\(request.properties.count == 1 ? "y" : "ies") as of \(request.asOf.iso), \(request.parallel) at a time, into \(landing.runDirectory)")
        result.fetched = try plan.run(asOf: request.asOf, landing: landing, parallel: request.parallel) { entry, done in
            let item = Self.fetchItem(entry)
            let fields = LogFields(stage: "fetch", property: entry.property, artifact: item.artifact,
                                   durationMilliseconds: item.durationMilliseconds)
            if let error = entry.error {
                log.error("\(entry.pms)/\(entry.subject)", error, fields)
            } else if let skipped = entry.skipped {
                log.warning("\(entry.pms)/\(entry.subject)", "not fetched: \(skipped)", fields)
            } else {
                log.info(nil, "fetch: [\(done)/\(total)] \(entry.pms)/\(entry.subject) \(entry.size ?? 0) bytes", fields)
            }
            if let note = entry.reportIDNote { log.info("\(entry.pms)/\(entry.subject)", note, fields) }
            // Recorded as each ends, so a run killed during the fetch still shows what landed; by the journal's
            // thread, so that a worker does not wait while the pipeline syncs a property.
            journal.recordSoon(Self.fetchItem(entry))
            pipeline.ended(entry)
        }
        do {
            try journal.drain()
        } catch {
            throw IngestError("cannot record the fetch in \(dataDirectory.unifiedDatabase): \(error)")
        }
        result.items += result.fetched.map(Self.fetchItem)
        log.info(nil, "fetch: fetched \(FetchCounts(result.fetched).summary); manifest: \(landing.manifestPath)")
        let stages = try pipeline.finish(anythingLanded: result.fetched.contains { $0.error == nil })
        result.loads = stages.loads
        result.syncs = stages.syncs
        result.items += stages.items
    }

    /// When `property`'s unified rows are what a sync would write now (`Synchronizer.upToDateRun`: nothing loaded for
    /// it since its last sync, the same build, registry entry and category maps), it is not synced again, by the
    /// nightly ingest or by `ownerdash sync`: the run that synced it and its sync item, `skipped` naming that run, or
    /// `failed` when its rows could not be published where they are stale (`--database-url`), each logged (`label`
    /// names the property in the line). Nil: sync it.
    static func leaveUnchanged(_ property: Property, synchronizer: Synchronizer, publication: UnifiedPublication?,
                               database: Database, log: Diagnostics, label: String) -> (syncedBy: String, item: RunItem)? {
        guard let syncedBy = try? synchronizer.upToDateRun(property) else { return nil }
        let fields = LogFields(stage: "sync", property: property.key)
        if let failure = publication?.publishIfStale(property.key, from: database) {
            log.error(property.key, "sync: \(failure)", fields)
            return (syncedBy, RunItem(stage: .sync, property: property.key, status: .failed, error: failure))
        }
        log.info(nil, "sync: \(label) unchanged since run \(syncedBy): nothing new loaded", fields)
        return (syncedBy, RunItem(stage: .sync, property: property.key, status: .skipped,
                                  error: "unchanged: nothing new was loaded for it; its unified rows are as run \(syncedBy) synced them"))
    }

    static func fetchItem(_ entry: ManifestEntry) -> RunItem {
        // The status each count reads (etl_runs.artifacts_fetched counts .succeeded): ManifestEntry.outcome.
        let status: RunItem.Status = switch entry.outcome { case .landed: .succeeded; case .skipped: .skipped; case .failed: .failed }
        return RunItem(stage: .fetch, property: entry.property, artifact: entry.path ?? "\(entry.pms)/\(entry.subject)",
                status: status, seconds: entry.seconds,
                error: entry.error ?? entry.skipped)
    }

    static func loadItem(_ artifact: ArtifactLoad) -> RunItem {
        let status: RunItem.Status = artifact.error != nil ? .failed : artifact.alreadyLoaded ? .skipped : .succeeded
        return RunItem(stage: .load, property: artifact.property, artifact: artifact.relativePath, status: status,
                       rows: artifact.error == nil ? artifact.rows : nil, seconds: artifact.seconds,
                       error: artifact.error ?? (artifact.alreadyLoaded ? "already loaded: the same bytes were loaded before" : nil))
    }

    static func syncItem(_ outcome: PropertySyncOutcome?, property: String) -> RunItem {
        guard let outcome else {
            return RunItem(stage: .sync, property: property, status: .failed, error: "the synchronizer returned no outcome")
        }
        return RunItem(stage: .sync, property: outcome.property, status: outcome.error == nil ? .succeeded : .failed,
                       rows: outcome.error == nil ? outcome.rows["unified_units"] ?? 0 : nil,
                       seconds: outcome.duration, error: outcome.error)
    }
}

/// `ownerdash sync` as a recorded run: the same lock as ingest, one etl_runs row (trigger `sync`) with a sync item
/// per property.
public struct RecordedSync {
    public let dataDirectory: DataDirectory
    public let chargeCategories: ChargeCategories
    public let glCategories: GLCategories
    /// Where each synced property is published when the unified data lives on PostgreSQL; nil: unified.db only.
    public var publication: UnifiedPublication?
    /// `.full` (`sync --full`): every property checked against a full rebuild and written whole where it differs.
    public var mode: Synchronizer.Mode = .incremental
    /// How many properties sync side by side, each worker on its own connection, taking turns to write (`sync
    /// --parallel`); 1: one after the other, each in one transaction.
    public var parallel = 1
    /// This host's name, recorded in etl_runs.host (`OWNERDASH_HOST_NAME`, else the machine's).
    public var hostName = LockHolder.hostName()

    /// `chargeCategories`: the configuration's charge code -> ledger category map; `glCategories`: its GL account ->
    /// expense category map.
    public init(dataDirectory: DataDirectory, chargeCategories: ChargeCategories = .standard,
                glCategories: GLCategories = .standard) {
        self.dataDirectory = dataDirectory
        self.chargeCategories = chargeCategories
        self.glCategories = glCategories
    }

    /// Syncs each property in its own transaction under the data directory's lock; throws `IngestLockBusy` when
    /// another process holds it. Returns the run id and every property's outcome.
    public func run(_ properties: [Property], commandLine: String, trigger: String = "sync",
                    log: Diagnostics) throws -> (runID: RunID, outcomes: [PropertySyncOutcome]) {
        let runID = RunID.new()
        try dataDirectory.create()
        let lock = try IngestRun.acquire(dataDirectory: dataDirectory, log: log, refused: RunJournal.Start(
            runID: runID.value, trigger: trigger, commandLine: commandLine, asOf: nil, properties: properties.count,
            holder: LockHolder(command: "sync", runID: runID.value, host: hostName)))
        defer { lock.release() }
        log.runID = runID.value
        let store = try UnifiedStore(dataDirectory: dataDirectory)
        _ = try IngestRun.takeOver(lock, database: store, runID: runID, log: log)
        let journal = try RunJournal(database: store.database, start: RunJournal.Start(
            runID: runID.value, trigger: trigger, commandLine: commandLine, asOf: nil, properties: properties.count,
            holder: lock.holder))
        // A property whose unified rows are what a sync would write now (nothing loaded for it since its last sync,
        // the same build, registry entry and category maps) is not synced again, as the nightly ingest skips it:
        // `sync` after loading one property's files costs that property's sync. `--full` checks every property.
        var unchanged: [String: PropertySyncOutcome] = [:]
        if mode == .incremental {
            let synchronizer = Synchronizer(store: store, runID: runID.value, chargeCategories: chargeCategories,
                                            glCategories: glCategories)
            for property in properties {
                guard let (syncedBy, item) = IngestRun.leaveUnchanged(property, synchronizer: synchronizer, publication: publication,
                                                                      database: store.database, log: log, label: property.key)
                else { continue }
                var outcome = synchronizer.unchanged(property, since: syncedBy)
                outcome.error = item.status == .failed ? item.error : nil
                try journal.record(item)
                unchanged[property.key] = outcome
            }
        }
        let changed = properties.filter { unchanged[$0.key] == nil }
        var synced: [PropertySyncOutcome] = []
        if !changed.isEmpty {
            let workers = try SyncWorkers(store: store, dataDirectory: dataDirectory, width: min(parallel, changed.count)) {
                Synchronizer(store: $0, runID: runID.value, chargeCategories: chargeCategories, glCategories: glCategories,
                             mode: mode, logsChanges: publication != nil, turns: $1, keepsTwins: true)
            }
            do {
                synced = try workers.sync(changed, log: log) { outcome, database in
                    if let publication, outcome.error == nil,
                       let failure = publication.publish(outcome.property, from: database, changesNoted: true) {
                        outcome.error = failure
                    }
                    try journal.record(IngestRun.syncItem(outcome, property: outcome.property))
                }
            } catch let failure as SyncWorkers.Failure {
                try? journal.finish(status: .failed, warnings: failure.outcomes.reduce(0) { $0 + $1.warnings.count })
                throw failure.error
            }
        }
        // In the order asked.
        var byProperty = unchanged
        for outcome in synced { byProperty[outcome.property] = outcome }
        let outcomes = properties.compactMap { byProperty[$0.key] }
        let failed = outcomes.filter { $0.error != nil }.count
        let status: RunStatus = failed == 0 ? .succeeded : failed == outcomes.count ? .failed : .partial
        try journal.finish(status: status, warnings: outcomes.reduce(0) { $0 + $1.warnings.count })
        publication?.publishRun(runID, from: store.database, log: log)
        return (runID, outcomes)
    }
}

/// A run that could not go on (its records could not be written); the run is recorded `failed`.
public struct IngestError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

