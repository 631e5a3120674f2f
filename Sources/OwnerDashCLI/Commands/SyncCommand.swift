import Foundation
import Ingest
import OwnerDashCore
import Sync

/// `ownerdash sync`: raw -> unified.db for the selected properties, one transaction per property.
struct SyncCommand: Command {
    static let names = ["sync"]
    static let unifiedAccess = UnifiedAccess.publishes
    static let abstract = "Normalize the raw RealPage and Yardi tables into unified.db, one transaction per property."
    static let arguments: [ArgumentSpec] = [
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every property"),
        .option("--pms", "realpage|yardi", help: "only properties on this source system; default: both"),
        .flag("--full", help: "check every property's rows against a full rebuild, warn of each difference, rewrite them"),
        .option("--parallel", "N", help: "properties synced side by side, 1-16 (default: the machine's cores, at most 4)"),
    ]
    static let discussion = """
        Each property is synced from its latest raw snapshots in its own transaction: its units, residents,
        leases, activity and ledger are computed whole and only the rows that differ from the stored ones
        are written (the `changed` column counts them: deleted plus inserted), and its occupancy, pricing
        and delinquency snapshot for the property date is written (other dates are kept, for trends).
        Other properties are not touched. Re-syncing gives the same rows, and a property nothing was loaded
        for since its last sync (the same raw state, build, registry entry and category maps) is not synced
        again: `unchanged`, its rows and warnings (unified_sync_warnings) as that run left them, so a sync
        after loading one property's files costs that property's sync. A property that fails is named
        on stderr, keeps its previous unified rows, and the exit code is 2. Disagreements between sources
        (e.g. Box Score totals vs RPX unit counts) are printed as warnings and kept in
        unified_sync_warnings.

        --full checks what the incremental writes left, for every property asked, unchanged or not: a
        property's stored rows are compared with a full rebuild (before writing too, when its raw data is
        what its last sync read), every difference is a `sync_drift` warning naming the table, the key and
        the column, and the property's rows are then written whole. (docs/sync-rules.md, "Writing only
        what changed".)

        --parallel N syncs N properties side by side, each on its own connection to unified.db: a property's
        rules run apart and its rows are written in its turn, one property's writes at a time, so each
        property is still one transaction. A property whose ledger is written by change (a night's few rows)
        syncs whole in its turn. --parallel 1 syncs one after the other.

        The sync is recorded as a run in etl_runs (trigger sync, one etl_run_items row per property; see
        'ownerdash runs'). It takes the data directory's lock (data/ingest.lock): while an ingest runs,
        sync exits 3 naming it.
        """

    let global: GlobalOptions
    let selection: PropertySelection
    let full: Bool
    let parallel: Int
    let parallelGiven: Bool

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        selection = try PropertySelection(parsed, command: "ownerdash sync")
        full = parsed.flag("--full")
        parallelGiven = parsed.value("--parallel") != nil
        parallel = try parsed.number("--parallel", in: 1...16, default: min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)),
                                     command: "ownerdash sync")
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let configuration = try global.configuration()
        let properties = try selection.resolve(configuration, configPath: global.configPath, command: "ownerdash sync")
        var words = ["ownerdash", "sync"]
        for key in selection.keys { words += ["--property", key] }
        if let pms = selection.pms { words += ["--pms", pms.rawValue] }
        if full { words.append("--full") }
        // As typed: the default follows the machine.
        if parallelGiven { words += ["--parallel", String(parallel)] }
        let outcomes: [PropertySyncOutcome]
        do {
            var sync = RecordedSync(dataDirectory: global.dataDirectory, chargeCategories: configuration.chargeCategories,
                                    glCategories: configuration.glCategories)
            sync.publication = try global.publication()
            sync.hostName = global.hostName
            sync.mode = full ? .full : .incremental
            sync.parallel = parallel
            outcomes = try sync.run(properties, commandLine: words.joined(separator: " "), log: log).outcomes
        } catch let busy as IngestLockBusy {
            throw WriterLockRefused(busy: busy, command: "sync")
        }
        let output = StandardOutput()
        defer { output.flush() }
        let rows = outcomes.map { outcome in
            // An unchanged property raised no warning now: its last sync's are in unified_sync_warnings. What is not
            // known is `-`, never 0 nor blank: a failed property's date, counts, changes and warnings (its transaction
            // rolled back what it had found).
            let failed = outcome.error != nil
            let result = failed ? "failed" : outcome.unchangedSinceRun != nil ? "unchanged" : "synced"
            return [outcome.property, outcome.asOf?.iso ?? "-", outcome.rows["unified_units"].map(String.init) ?? "-",
                    outcome.rows["unified_residents"].map(String.init) ?? "-",
                    failed ? "-" : String(outcome.rowsChanged),
                    failed || outcome.unchangedSinceRun != nil ? "-" : String(outcome.warnings.count), result]
        }
        output.write(TextTable.render(header: ["property", "as of", "units", "residents", "changed", "warnings", "result"],
                                      rows: rows))
        let failed = outcomes.filter { $0.error != nil }
        if !failed.isEmpty {
            log.error(nil, "\(failed.count) of \(outcomes.count) propert\(outcomes.count == 1 ? "y" : "ies") failed to sync: \(failed.map(\.property).joined(separator: ", "))")
            return failed.count == outcomes.count ? .failure : .partial
        }
        return .success
    }
}
