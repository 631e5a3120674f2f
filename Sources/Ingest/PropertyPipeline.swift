import Fetch
import Foundation
import OwnerDashCore
import RunRecords
import SQLiteKit
import Sync

/// The ingest's load and sync stages: each property is loaded (RunLoad) as soon as the last of its artifacts has ended,
/// then synced (Synchronizer), while the fetch of the next goes on; one property loads while the one before it syncs.
///
/// The fetch spends most of its time waiting on the sources (a RealPage report is built by the server, a Yardi
/// ledger by the gateway), and the load and sync are CPU work on this machine: run after the fetch, a 30-property
/// churned night was 10 s of fetch, then 5 s of load and 9 s of sync, one core idle all along. The fetch hands its
/// artifacts over property by property (FetchPlan orders its jobs so). The load writes the raw databases and the sync
/// writes unified.db, reading the raw databases as the property's load committed them (WAL: a reader never waits for
/// the writer), so each has a thread of its own.
///
/// What a stage did for a property is as before: its artifacts are loaded in the order the load stage always used
/// (reports, then RPX, then Yardi responses), a property nothing of which loaded is not synced, one of whose last sync
/// read what a sync would read now is skipped as `unchanged`. The raw stores are used on the load queue only, the
/// sync's unified.db connection on the sync queue only; the run journal has its own connection, which waits out a
/// property's sync, and the load hands its items to the journal's thread (`recordSoon`): recorded on the load queue,
/// each waited for the sync's transaction, and the loads went in step with the syncs.
final class PropertyPipeline: @unchecked Sendable {
    private let loadQueue = DispatchQueue(label: "ownerdash.ingest.load")
    private let syncQueue = DispatchQueue(label: "ownerdash.ingest.sync")
    private let properties: [Property]
    private let dataDirectory: DataDirectory
    private let configuration: Configuration
    private let runID: RunID
    private let landing: LandingZone
    private let journal: RunJournal
    private let publication: UnifiedPublication?
    private let log: Diagnostics
    /// Artifacts still being fetched, per property.
    private let pending: Locked<[String: Int]>
    /// The first error that stops the stages (a journal that cannot record, a raw database that cannot be opened).
    private let failure = Locked<(any Error)?>(nil)

    // Touched on `loadQueue` only (and by `finish` once it has drained).
    private let runLoad: RunLoad
    private var loads: [ArtifactLoad] = []
    private var loadItems: [RunItem] = []
    /// Properties handed over by the fetch with something landed.
    private var handled: Set<String> = []
    // Touched on `syncQueue` only.
    private var store: UnifiedStore?
    private let fullSync: Set<String>
    private var syncs: [PropertySyncOutcome] = []
    private var syncItems: [RunItem] = []

    /// `artifacts`: how many artifacts the fetch will end per property (its jobs); `fullSync`: the properties whose
    /// sync is checked against a full rebuild tonight (their ledger's refresh night).
    init(properties: [Property], artifacts: [String: Int], dataDirectory: DataDirectory, configuration: Configuration,
         runID: RunID, landing: LandingZone, journal: RunJournal, publication: UnifiedPublication? = nil,
         fullSync: Set<String> = [], log: Diagnostics) {
        self.properties = properties
        self.fullSync = fullSync
        self.dataDirectory = dataDirectory
        self.configuration = configuration
        self.runID = runID
        self.landing = landing
        self.journal = journal
        self.publication = publication
        self.log = log
        pending = Locked(artifacts)
        runLoad = RunLoad(dataDirectory: dataDirectory, configuration: configuration, runID: runID,
                          manifest: landing.snapshot)
    }

    /// Called as each fetched artifact ends (by the fetch's workers): the property's last hands it to the queue.
    func ended(_ entry: ManifestEntry) {
        let last = pending.withLock { counts -> Bool in
            guard let left = counts[entry.property] else { return false }
            counts[entry.property] = left - 1
            return left == 1
        }
        if last { loadQueue.async { self.load(entry.property) } }
    }

    /// What the stages did, once the fetch has ended: waits for the properties handed over, then syncs any property
    /// a load named that was not handed over, and says of each other property that it was not synced. A run that
    /// landed nothing loads and syncs nothing. Loads and syncs come back in the selection's order.
    func finish(anythingLanded: Bool) throws -> (loads: [ArtifactLoad], syncs: [PropertySyncOutcome], items: [RunItem]) {
        // Every property handed over is loaded and its sync queued; nothing adds to the load queue's state after this.
        loadQueue.sync {}
        do {
            try journal.drain()
        } catch {
            throw IngestError("cannot record the load in \(dataDirectory.unifiedDatabase): \(error)")
        }
        defer { checkpointRawDatabases() }
        return try syncQueue.sync {
            if let failure = failure.withLock({ $0 }) { throw failure }
            if anythingLanded {
                let loaded = Set(loads.filter { $0.error == nil }.map(\.property))
                for property in properties where !handled.contains(property.key) {
                    if loaded.contains(property.key) { try sync(property) } else { try notSynced(property.key) }
                }
            }
            // Each property's synchronizer kept the TEMP twins for the next (`keepsTwins`): the syncs are done.
            if let store { Synchronizer.dropTwins(store) }
            return (properties.inSelectionOrder(loads, property: \.property),
                    properties.inSelectionOrder(syncs, property: \.property),
                    properties.inSelectionOrder(loadItems, property: \.property)
                        + properties.inSelectionOrder(syncItems, property: \.property))
        }
    }

    /// The raw databases' WAL copied into their files, the loads and syncs done: SQLite checkpoints only every 32 MiB
    /// of WAL (`Database.walBytesBetweenCheckpoints`), and the last connection to let go of them, the sync's read-only
    /// attachment, cannot checkpoint them on close.
    private func checkpointRawDatabases() {
        loadQueue.sync {
            do {
                try runLoad.checkpoint()
            } catch {
                log.warning(nil, "load: the raw databases' write-ahead log could not be copied into their files (they stay whole: SQLite reads the log with them): \(error)")
            }
        }
    }

    // MARK: - On the load queue

    /// Loads a property whose artifacts have all ended, then queues its sync.
    private func load(_ key: String) {
        guard failure.withLock({ $0 }) == nil, let property = properties.first(where: { $0.key == key }) else { return }
        // A property none of whose artifacts landed is said not synced at the end, unless the run landed nothing.
        let manifest = landing.snapshot
        guard manifest.artifacts.contains(where: { $0.property == key && $0.outcome == .landed }) else { return }
        handled.insert(key)
        do {
            let loaded = try load(key, manifest: manifest).contains { $0.error == nil && $0.property == key }
            syncQueue.async { self.syncAfterLoad(property, loaded: loaded) }
        } catch {
            failure.withLock { $0 = $0 ?? error }
        }
    }

    private func load(_ key: String, manifest: RunManifest) throws -> [ArtifactLoad] {
        try runLoad.property(key, of: manifest).load(log: log) { artifact in
            let item = IngestRun.loadItem(artifact)
            if artifact.error == nil {
                log.info(nil, "load: [\(loads.count + 1)] \(artifact.name) \(artifact.property) \(artifact.rows) rows\(artifact.alreadyLoaded ? " (already loaded)" : "")\(artifact.unchangedSinceRun.map { " (unchanged since run \($0))" } ?? "")",
                         LogFields(stage: "load", property: artifact.property, artifact: item.artifact, rows: artifact.rows,
                                   durationMilliseconds: item.durationMilliseconds))
            }
            loads.append(artifact)
            loadItems.append(item)
            // By the journal's thread: recorded here, the item would wait for the sync's transaction on unified.db,
            // and the next property's load with it.
            journal.recordSoon(item)
        }
    }

    // MARK: - On the sync queue

    private func syncAfterLoad(_ property: Property, loaded: Bool) {
        guard failure.withLock({ $0 }) == nil else { return }
        do {
            if loaded { try sync(property) } else { try notSynced(property.key) }
        } catch {
            failure.withLock { $0 = $0 ?? error }
        }
        Self.returnFreedMemory()
    }

    /// glibc's `malloc_trim` (not in Swift's Glibc module; nil where the C library has none, e.g. macOS).
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim")
        .map { unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self) }

    /// Hands the pages freed by a property's fetch, load and sync back to the system, once it is synced. The live heap
    /// stays small (63 MB at most at 40 properties, heaptrack: one ledger's inflated XML at a time), but the fetch's
    /// 32 workers and the stages' threads allocate in up to 8 glibc arenas per core, each of which kept the pages of the
    /// largest buffers it ever held (ledgers, workbooks) as its holes were reused only in part: peak RSS grew faster
    /// than the properties (197 MiB at 12, 391 MiB at 168, 1,394 MiB at 500).
    private static func returnFreedMemory() {
        _ = mallocTrim?(0)
    }

    /// Syncs one property, or skips it when its unified rows are what a sync would give now (nothing new loaded since:
    /// the same bytes again, ledger windows that merged without a change).
    private func sync(_ property: Property) throws {
        let store = try syncStore()
        let synchronizer = Synchronizer(store: store, runID: runID.value, chargeCategories: configuration.chargeCategories,
                                        glCategories: configuration.glCategories,
                                        mode: fullSync.contains(property.key) ? .full : .incremental,
                                        logsChanges: publication != nil, keepsTwins: true)
        let item: RunItem
        if let (_, skipped) = IngestRun.leaveUnchanged(property, synchronizer: synchronizer, publication: publication,
                                                       database: store.database, log: log,
                                                       label: "\(position(property.key)) \(property.key)") {
            item = skipped
        } else {
            var outcomes = synchronizer.sync([property], log: log)
            if let publication, outcomes.first?.error == nil,
               let failure = publication.publish(property.key, from: store.database, changesNoted: true) {
                outcomes[0].error = failure
                log.error(property.key, "sync: \(failure)", LogFields(stage: "sync", property: property.key))
            }
            syncs += outcomes
            item = IngestRun.syncItem(outcomes.first, property: property.key)
            if item.status == .succeeded {
                let changed = outcomes.first?.rowsChanged ?? 0
                log.info(nil, "sync: \(position(property.key)) \(property.key) \(item.rows ?? 0) units, \(changed) row\(changed == 1 ? "" : "s") changed"
                              + (fullSync.contains(property.key) ? " (checked against a full rebuild)" : ""),
                         LogFields(stage: "sync", property: property.key, rows: item.rows,
                                   durationMilliseconds: item.durationMilliseconds))
            }
        }
        try record(sync: item)
    }

    /// A property nothing of which loaded: its sync item is `skipped`.
    private func notSynced(_ key: String) throws {
        try record(sync: RunItem(stage: .sync, property: key, status: .skipped,
                                 error: "not synced: nothing of this property was loaded in this run"))
        log.info(nil, "sync: \(position(key)) \(key) skipped: nothing of it was loaded in this run",
                 LogFields(stage: "sync", property: key))
    }

    private func record(sync item: RunItem) throws {
        syncItems.append(item)
        // After the items the loads handed to the journal's thread (`recordSoon`), this property's among them: a sync
        // that failed at once was recorded before its own load's items.
        try journal.drain()
        try journal.record(item)
    }

    /// unified.db with the raw databases attached, opened once the first property is loaded (its load creates the
    /// raw database it needs); a raw database created since is attached before the next sync.
    private func syncStore() throws -> UnifiedStore {
        if let store {
            try store.attachRawDatabases(of: dataDirectory)
            return store
        }
        let opened = try UnifiedStore(dataDirectory: dataDirectory)
        store = opened
        return opened
    }

    /// `[3/30]`: where the property stands in the selection.
    private func position(_ key: String) -> String {
        "[\((properties.firstIndex { $0.key == key } ?? 0) + 1)/\(properties.count)]"
    }
}
