import Foundation
import LibCryptoKit
import OwnerDashCore
import SQLiteKit

/// The rules that turn one PMS's raw tables into the unified current-state tables for one property.
///
/// A source reads `realpage_raw.*` or `yardi_raw.*` (attached read-only) and writes unified rows for exactly
/// one property; the `Synchronizer` has already cleared that property's current-state rows and will derive the
/// occupancy and pricing snapshots from `unified_units` afterwards, the same way for every PMS.
protocol PropertySource {
    /// The property date to sync, from the raw snapshots present (nil: nothing loaded for this property).
    func propertyDate(_ context: SyncContext) throws -> LocalDate?
    /// Fills unified_units, unified_residents, unified_leases, unified_lease_residents, unified_activity and
    /// the `asOf` rows of unified_delinquency; returns the rows written per table.
    func sync(_ context: SyncContext, asOf: LocalDate) throws -> SourceSyncResult
    /// Compares the unified result with the PMS's own totals (e.g. Box Score) and returns the disagreements.
    func crossCheck(_ context: SyncContext, asOf: LocalDate) throws -> [SyncWarning]
    /// For each current-state table whose rule this source skips while its inputs are unchanged (InputMarks): the
    /// raw state that rule reads for `asOf`, as fields to digest. Empty: every rule runs every time.
    func ruleInputs(_ context: SyncContext) throws -> [String: [String]]
}

extension PropertySource {
    func ruleInputs(_ context: SyncContext) throws -> [String: [String]] { [:] }
}

/// What a source wrote for one property.
struct SourceSyncResult {
    /// Rows written per unified table.
    var rows: [String: Int]
    /// Which raw table the unit statuses came from (`realpage_units (RPX unitlist)`), stored with the snapshot.
    var unitSource: String
    /// Where the tenant ledger came from; nil when the property has none (the ledger reports say so).
    var ledgerSource: String? = nil
    /// The night has a delinquency source (Yardi's ledger, RealPage's Delinquent and Prepaid report): without one no
    /// delinquency totals are written for it, since its delinquency is unknown, not zero.
    var hasDelinquency = true
    /// Set when the ledger is partial (balances and schedule, no posted charge or payment): what it can answer.
    var partialLedgerNote: String? = nil
    /// What a full ledger covers when it is not the PMS's own (periods, where the balance before them comes from).
    var ledgerNote: String? = nil
    /// For a ledger merged night by night from windows (RPX, Yardi) that windows have brought past its last whole
    /// answer: that answer's as-of date (`RealPageLedger.wholeAsOf`, `YardiLedger.wholeAsOf`), up to which postings
    /// dated before every window are known. nil when the latest ledger answer was whole, for a ledger read whole every
    /// night, or none.
    var ledgerWholeAsOf: String? = nil
    /// Where unified_work_orders came from; nil when the property has none (`report maintenance` says so).
    var workOrderSource: String? = nil
    /// Where unified_expenses came from; nil when the property has none (`report expenses` says so).
    var expenseSource: String? = nil
    /// Where unified_income came from; nil when the property has none (`report expenses` shows no income for it).
    var incomeSource: String? = nil
    /// With a ledger delta: the highest row id of each ledger table its `clear` left (`LedgerDelta.finish` reads it).
    var ledgerDeltaLeft: [String: Int64]? = nil
    /// RealPage: the days of report events computed (RealPageActivityDays), recorded with the write and limiting the
    /// diff of unified_activity to them.
    var activityDays: RealPageActivityDays? = nil
    /// The current-state tables the rules computed only in part, and main's rows their twins stand for (besides
    /// unified_activity's, `activityDays.scope`): RealPage's residents and leases by household (RealPageResidents.householdScope,
    /// RealPageLeases.householdScopes).
    var scopes: [String: CurrentStateDiff.Scope] = [:]
    /// Yardi: the households' sums (YardiHouseholds), kept with the write for the next sync by change.
    var yardiHouseholds: YardiHouseholds? = nil
    /// RealPage: the households' postings summed (RealPagePostings), kept the same way.
    var realpagePostings: RealPagePostings? = nil
    /// The snapshots the rules by snapshot read (RealPage's closed turns and expense months), recorded with the write;
    /// by change, `scopes` holds the tables they computed in part.
    var snapshotMarks: [SnapshotMark] = []

    /// Sets `ledgerWholeAsOf` to `whole`, the as-of date of the last whole ledger answer, when it is older than
    /// `merged`, the date the windows have brought the merged ledger to.
    mutating func noteWholeLedger(_ whole: String?, merged: String?) {
        if let whole, let merged, whole < merged { ledgerWholeAsOf = whole }
    }
}

/// What a source needs while it syncs one property: the unified connection (raw attached) and the property.
struct SyncContext {
    let database: Database
    let property: Property
    let runID: String
    /// Set when the ledger's charges and payments are written by change (LedgerDelta); nil: projected whole.
    var ledgerDelta: LedgerDelta? = nil
    /// Tonight's inputs of the tables a source can keep, and those kept as main holds them (InputMarks): their rules
    /// are skipped.
    var inputMarks: InputMarks = .none
    /// GL account -> expense category (report_definitions.json `gl_categories` over the defaults).
    var glCategories: GLCategories = .standard
    /// The property has stored rows and the sync is incremental: rules may compute only what changed.
    var byChange = false
    /// The first day of report events the sync computed (RealPageActivityDays), for the checks that read them; ""
    /// (every day) until decided.
    var activityFrom = ""
    /// The resident events were computed by household (RealPageEventHouseholds), for the check that counts them.
    var eventsByHousehold = false

    /// Named parameters every rule binds: the property key (`:property`) and its PMS id (`:pms_property_id`).
    var propertyParameters: [String: SQLValue] {
        [":property": .text(property.key), ":pms_property_id": SQLValue(property.siteID ?? property.propertyCode)]
    }

    /// Runs one rule statement for this property with `:property`, `:as_of` and any extra parameters
    /// (only those the SQL names are bound); returns the rows it changed.
    @discardableResult
    func run(_ sql: String, asOf: LocalDate? = nil, _ extra: [String: SQLValue] = [:]) throws -> Int {
        try profiled(sql) {
            let statement = try database.prepare(sql)
            var values = propertyParameters.merging(extra) { $1 }
            if let asOf { values[":as_of"] = .text(asOf.iso) }
            try statement.bind(values.filter { statement.hasParameter($0.key) })
            while try statement.step() {}
            return database.changes
        }
    }

    /// Runs one query (a check) with the property's parameters and `values`, binding only those its SQL names.
    func rows(_ sql: String, _ values: [String: SQLValue]) throws -> [[SQLValue]] {
        try profiled(sql) {
            let statement = try database.prepare(sql)
            let bound = propertyParameters.merging(values) { $1 }
            return try statement.query(bound.filter { statement.hasParameter($0.key) })
        }
    }

    /// Runs `body`, the statement `sql`, under the SQL profile (`SQLProfile`), with SQLite's plan for it when asked.
    func profiled<T>(_ sql: String, _ body: () throws -> T) throws -> T {
        // The plan is asked for before the statement runs: after it, a CREATE TABLE ... AS could not be explained (its
        // table exists), and a profiling aid must never fail the sync it watches.
        var plan: String? = nil
        if SQLProfile.threshold != nil && SQLProfile.plan {
            do { plan = try queryPlan(sql) } catch { plan = "    (no plan: \(error))\n" }
        }
        return try SQLProfile.measure(property.key, sql, plan: plan, body)
    }
}

/// `OWNERDASH_SQL_PROFILE_MS=N`: each rule, check or step of the diff (CurrentStateDiff's `diff walk unified_charges`,
/// `diff delete ...`) that took more than N ms of its thread's CPU is written to stderr with that time, the property
/// and the SQL's first words, to find what makes a sync slow (off when unset). CPU, not wall time: during an ingest
/// the loads of other properties share the cores.
enum SQLProfile {
    static let threshold: Double? = ProcessInfo.processInfo.environment["OWNERDASH_SQL_PROFILE_MS"].flatMap(Double.init)
    /// `OWNERDASH_SQL_PROFILE_PLAN=1` with the profile: each statement it prints is followed by SQLite's plan for it
    /// (`EXPLAIN QUERY PLAN`, one line per step, indented by depth), to see which index a slow rule reads by.
    static let plan = ProcessInfo.processInfo.environment["OWNERDASH_SQL_PROFILE_PLAN"] == "1"

    /// Runs `body`, and with the profile on prints its thread CPU under `label`'s first words (and `plan`).
    static func measure<T>(_ property: String, _ label: String, plan: String? = nil, _ body: () throws -> T) throws -> T {
        guard let threshold else { return try body() }
        func threadCPU() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
        }
        let started = threadCPU()
        let result = try body()
        let milliseconds = threadCPU() - started
        if milliseconds >= threshold {
            // Twelve words of the SQL's first 600 characters: split whole, a rule's text was 1.6 % of a profiled night.
            let words = label.prefix(600).split(whereSeparator: \.isWhitespace).prefix(12).joined(separator: " ")
            StandardStreams.writeError(String(format: "sql %8.1f ms  %@  %@\n", milliseconds, property, words))
            if let plan { StandardStreams.writeError(plan) }
        }
        return result
    }
}

extension SyncContext {
    /// SQLite's plan for `sql`, one line per step, each indented under its parent (`OWNERDASH_SQL_PROFILE_PLAN`).
    func queryPlan(_ sql: String) throws -> String {
        var depth: [Int64: Int] = [0: 0]
        var lines = ""
        for row in try database.query("EXPLAIN QUERY PLAN " + sql) {
            let id = row[0].integerValue ?? 0, parent = row[1].integerValue ?? 0
            let level = (depth[parent] ?? 0) + 1
            depth[id] = level
            lines += "    " + String(repeating: "  ", count: level) + (row[3].textValue ?? "") + "\n"
        }
        return lines
    }
}

/// A disagreement between two sources of one fact, beyond the rule's tolerance (kept, printed, never hidden).
public struct SyncWarning: Sendable, Equatable {
    public var check: String
    public var subject: String
    public var expected: String
    public var actual: String
    public var message: String

    public init(check: String, subject: String = "", expected: String, actual: String, message: String) {
        self.check = check; self.subject = subject; self.expected = expected; self.actual = actual; self.message = message
    }
}

/// What the sync of one property did.
public struct PropertySyncOutcome: Sendable {
    public var property: String
    public var asOf: LocalDate?
    public var rows: [String: Int]
    public var warnings: [SyncWarning]
    public var duration: TimeInterval
    /// Set when the property's transaction was rolled back; the unified rows are as before.
    public var error: String?
    /// The reconciliations (sync_checks) that failed, one line each.
    public var failedChecks: [String] = []
    /// The rows this sync deleted and inserted per current-state table: what changed since the last sync.
    public var changes: [String: RowChanges] = [:]
    /// Not synced again: its unified rows are what this run that synced them left (`Synchronizer.upToDateRun`), and
    /// `asOf` and `rows` (units and residents) are the stored ones.
    public var unchangedSinceRun: String?
    /// The current-state tables an incremental sync computed only in part, for what changed (RealPage's days of report
    /// events, and the resident events, residents and leases of the households whose rows moved), main keeping the
    /// rest: named in the verbose log, so that which rules went by change can be seen.
    public var computedInPart: [String] = []
    /// Current-state rows written, deletions and insertions together (an update counts twice).
    public var rowsChanged: Int { changes.values.reduce(0) { $0 + $1.deleted + $1.inserted } }
}

/// The rows a sync deleted and inserted in one unified table for one property.
public struct RowChanges: Sendable, Equatable {
    public var deleted = 0
    public var inserted = 0
}

/// Syncs properties raw -> unified, one transaction per property (docs/contracts.md, "Reliability").
public struct Synchronizer {
    /// How a sync writes a property's current state (docs/sync-rules.md, "Writing only what changed").
    public enum Mode: Sendable {
        /// The rows that differ from what is stored: deleted, inserted (the default).
        case incremental
        /// The same, then checked: the stored rows must equal a full rebuild's (before writing too, when the raw
        /// state is what the last sync read); every difference is a `sync_drift` warning naming table, key and
        /// column, and the property's rows are then written whole. `sync --full`, and the nights a ledger is
        /// pulled whole.
        case full
    }

    let store: UnifiedStore
    let runID: String
    let chargeCategories: ChargeCategories
    let glCategories: GLCategories
    let mode: Mode
    /// Whether each property's changed rows are noted for a publication to PostgreSQL (`unpublished_changes`).
    let logsChanges: Bool
    /// SHA-256 of what projects a ledger row into a charge or payment besides the row: the charge categories and the
    /// build. A ledger mark (LedgerDelta) left under other rules is void; the raw state's fingerprint counts it too.
    let ledgerRules: String
    /// The TEMP twins stay on the store's connection, empty, when `sync` returns, for the next property synced there
    /// (the ingest's pipeline and the sync workers, which sync one property per call): each property then finds the
    /// twins and scratch tables it needs made, and SQLite compiles the rules once per connection, not once per
    /// property (every TEMP table made or dropped makes it compile again each statement that reads a TEMP table:
    /// 9 % of a churned night's sync). The caller reads nothing unqualified on that connection until it calls
    /// `dropTwins(_:)`, since an unqualified name reads the (empty) twin.
    let keepsTwins: Bool
    /// Shared with the synchronizers working beside this one, each on its own connection (`RecordedSync`'s
    /// `parallel`): whose turn it is to write unified.db. Nil: this one syncs alone, a property in one transaction.
    let turns: WriteTurns?

    /// `chargeCategories`: report_definitions.json's charge code -> ledger category map; `glCategories`: its GL
    /// account -> expense category map; `logsChanges`: the synced properties are published (`--database-url`);
    /// `turns`: other synchronizers write the same unified.db at the same time (each property then computes its rows
    /// apart and writes them in its turn); `keepsTwins`: the TEMP twins outlive `sync` (the caller then calls
    /// `dropTwins(_:)` when its syncs are done).
    public init(store: UnifiedStore, runID: String, chargeCategories: ChargeCategories = .standard,
                glCategories: GLCategories = .standard, mode: Mode = .incremental, logsChanges: Bool = false,
                turns: WriteTurns? = nil, keepsTwins: Bool = false) {
        self.store = store
        self.keepsTwins = keepsTwins
        self.turns = turns
        self.runID = runID
        self.chargeCategories = chargeCategories
        self.glCategories = glCategories
        self.mode = mode
        self.logsChanges = logsChanges
        let hasher = SHA256()
        for (code, category) in chargeCategories.byCode.sorted(by: { $0.key < $1.key }) { hasher.update("c\(code)=\(category.rawValue)\n") }
        hasher.update(Self.executableDigest)
        ledgerRules = hasher.finalizeHex()
    }

    /// Syncs each property in its own transaction; a failure rolls back that property only and the rest go on.
    /// Without `keepsTwins`, the TEMP twins are dropped when it returns, and unqualified names mean main's tables again.
    public func sync(_ properties: [Property], log: Diagnostics) -> [PropertySyncOutcome] {
        defer { if !keepsTwins { Self.dropTwins(store) } }
        return properties.map { property in
            let started = Date()
            do {
                let outcome = try syncOne(property)
                let fields = LogFields(stage: "sync", property: property.key)
                let written = outcome.changes.filter { $0.value != RowChanges() }.sorted { $0.key < $1.key }
                log.debug(property.key, "sync: rows written: " + (written.isEmpty ? "none" : written.map {
                    "\($0.key) -\($0.value.deleted) +\($0.value.inserted)" }.joined(separator: ", "))
                    + (outcome.computedInPart.isEmpty ? "" : "; computed in part: " + outcome.computedInPart.joined(separator: ", ")))
                for warning in outcome.warnings { log.warning(property.key, warning.message, fields) }
                for failed in outcome.failedChecks { log.warning(property.key, "check failed: \(failed)", fields) }
                return outcome
            } catch {
                let message = "sync failed, unified rows left as before: \(error)"
                log.error(property.key, message, LogFields(stage: "sync", property: property.key,
                                                           durationMilliseconds: Int(Date().timeIntervalSince(started) * 1000)))
                return PropertySyncOutcome(property: property.key, asOf: nil, rows: [:], warnings: [],
                                           duration: Date().timeIntervalSince(started), error: message)
            }
        }
    }

    /// The run that synced `property` when its unified rows are what a sync now would give: the sync read the same
    /// raw state, registry entry, category maps and build (`fingerprint(for:)`). Nil: sync it. The nightly ingest
    /// asks this for every property it loaded something of, `ownerdash sync` for every property it is asked to sync
    /// but with `--full` (which checks the rows against a full rebuild whatever the fingerprint says).
    public func upToDateRun(_ property: Property) throws -> String? {
        guard try store.hasRaw(Self.rawSchema(property)) else { return nil }
        return try store.database.scalar("""
            SELECT last_run_id FROM unified_properties
            WHERE unified_property_id = :property AND sync_fingerprint = :fingerprint
            """, [":property": .text(property.key), ":fingerprint": .text(try fingerprint(for: property))])?.textValue
    }

    /// The outcome of a property left unsynced because `run` left its rows as a sync would write them now
    /// (`upToDateRun`): its stored property date, units and residents (none when they cannot be read), nothing written.
    public func unchanged(_ property: Property, since run: String) -> PropertySyncOutcome {
        var outcome = PropertySyncOutcome(property: property.key, asOf: nil, rows: [:], warnings: [], duration: 0, error: nil)
        outcome.unchangedSinceRun = run
        guard let stored = try? store.database.query("""
            SELECT as_of_date,
                   (SELECT count(*) FROM main.unified_units WHERE unified_property_id = :property) AS units,
                   (SELECT count(*) FROM main.unified_residents WHERE unified_property_id = :property) AS residents
            FROM main.unified_properties WHERE unified_property_id = :property
            """, [":property": .text(property.key)]).first, stored.count == 3 else { return outcome }
        let (asOf, units, residents) = (stored[0], stored[1], stored[2])
        outcome.asOf = asOf.textValue.flatMap(LocalDate.init(iso:))
        outcome.rows = ["unified_units": Int(units.integerValue ?? 0), "unified_residents": Int(residents.integerValue ?? 0)]
        return outcome
    }

    /// SHA-256 of everything a sync of `property` reads: its raw state (its `loaded_artifacts` rows, which each load
    /// that writes rows adds or updates and retention deletes with the rows, the size of its ledger's change log and
    /// how many rows its ledger lost), its registry entry, the charge and GL category maps, and the ownerdash
    /// executable (new rules, a new sync).
    ///
    /// A ledger answer merged without changing a row (`row_count` 0: every transaction as stored, the night run
    /// again, say) leaves the ledger as it was, so its row does not count while an answer of the same ledger that did
    /// write is dated the same day or later (an earlier date would move the ledger's snapshot date). Removals write
    /// no row but are logged in the change log, which counts.
    ///
    /// The artifact rows are digested through the property's token (RawStore's `RawStateTokens`, which their triggers
    /// renew on every change but such a ledger answer's); a raw database not loaded into since the token came (raw
    /// migrations 52 and 15) has none, and its rows are digested themselves.
    func fingerprint(for property: Property) throws -> String {
        let hasher = SHA256()
        func field(_ text: String) { hasher.updateField(text) }
        func value(_ value: SQLValue) { field(value.digestText) }
        let schema = Self.rawSchema(property)
        let (key, changes) = property.pms == .realpage ? ("report_type", "realpage_ledger_changes")
                                                       : ("operation", "yardi_transaction_changes")
        func hasTable(_ name: String) throws -> Bool {
            try store.database.scalar("SELECT count(*) FROM \(schema).sqlite_master WHERE name = :table",
                                      [":table": .text(name)])?.integerValue == 1
        }
        if try hasTable("raw_state_tokens") {
            field("token")
            value(try store.database.scalar("SELECT token FROM \(schema).raw_state_tokens WHERE property_id = :property",
                                            [":property": .text(property.key)]) ?? .null)
        } else {
            try digestArtifacts(of: property, schema: schema, key: key, into: hasher)
        }
        if try hasTable(changes) {
            let log = try store.database.query("SELECT count(*), max(id) FROM \(schema).\(changes) WHERE property_id = :property",
                                               [":property": .text(property.key)]).first ?? []
            field("changes")
            for column in log { value(column) }
        }
        // Rows gone from the merged ledger however they went (LedgerRemovals' trigger counts every delete), which the
        // change log names only for the deletes a load made.
        if try hasTable("ledger_removals") {
            field("removals")
            value(try store.database.scalar("SELECT removed FROM \(schema).ledger_removals WHERE property_id = :property",
                                            [":property": .text(property.key)]) ?? .null)
        }
        for text in [property.key, property.name, property.pms.rawValue, property.siteID ?? "", property.propertyCode ?? "",
                     property.address ?? ""] { field(text) }
        // The charge categories and the build, as the ledger's rules digest them.
        field(ledgerRules)
        for (prefix, category) in glCategories.byPrefix.sorted(by: { $0.key < $1.key }) { field("g\(prefix)=\(category)") }
        return hasher.finalizeHex()
    }

    /// The artifact rows themselves, for `fingerprint` where the raw database has no token yet.
    private func digestArtifacts(of property: Property, schema: String, key: String, into hasher: SHA256) throws {
        func ledger(_ alias: String) -> String {
            """
            CASE WHEN \(alias).\(key) LIKE 'getresidentledger%' THEN 'rpx ledger'
                 WHEN \(alias).\(key) LIKE 'GetResidentTransactions%' THEN 'yardi ledger' END
            """
        }
        // One pass for each ledger's latest answer that wrote (a correlated EXISTS per unwritten answer scanned the
        // table again for each: quadratic in the nights kept, 4.7 % of a churned night's CPU after 89 nights).
        try store.database.prepare("""
            WITH latest_written AS (
                SELECT \(ledger("b")) AS ledger, max(b.as_of_date) AS as_of_date
                FROM \(schema).loaded_artifacts b
                WHERE b.property_id = :property AND b.row_count > 0 AND \(ledger("b")) IS NOT NULL
                GROUP BY 1
            )
            SELECT a.* FROM \(schema).loaded_artifacts a
            LEFT JOIN latest_written w ON w.ledger = \(ledger("a"))
            WHERE a.property_id = :property
              AND NOT (a.row_count = 0 AND w.as_of_date IS NOT NULL AND w.as_of_date >= a.as_of_date)
            ORDER BY a.rowid
            """).forEachRow([":property": .text(property.key)]) { artifact in
            for column in artifact.currentRow() { hasher.updateField(column.digestText) }
            hasher.updateField("\n")
        }
    }

    static func rawSchema(_ property: Property) -> String { property.pms == .realpage ? "realpage_raw" : "yardi_raw" }

    /// Which ownerdash build is running: its GNU build ID (BuildIdentity), else the executable's SHA-256, read once
    /// per process ("unknown" where /proc is missing: never up to date across processes then, since the fingerprint
    /// cannot tell builds apart).
    static let executableDigest: String = BuildIdentity.label
        ?? (try? SHA256.hexDigest(ofFile: "/proc/self/exe")) ?? "unknown-\(UUID().uuidString)"

    private func source(for property: Property) -> any PropertySource {
        switch property.pms {
        case .realpage: RealPageSource()
        case .yardi: YardiSource()
        }
    }

    func syncOne(_ property: Property) throws -> PropertySyncOutcome {
        let started = Date()
        let database = store.database
        var context = SyncContext(database: database, property: property, runID: runID, glCategories: glCategories)
        let rawSchema = Self.rawSchema(property)
        guard try store.hasRaw(rawSchema) else {
            throw SyncError.noRawData(property: property.key, detail: "no \(rawSchema).db in the data directory")
        }
        // Every scratch table any property fills, made (empty) before this property's rules run when the connection
        // lacks it, so that no property after the first changes the TEMP schema for one (`TempTables.declare`).
        try TempTables.declare(Self.scratchTables, in: database) { try context.run($0) }
        // The rules write the property's current state into empty TEMP twins of its tables; what differs from the
        // stored rows is written at the end. Made or emptied outside the transaction (CurrentStateDiff). A
        // property with no stored rows (its first sync) has nothing to compare with: the rules write unified.db.
        let stored = try Self.currentStateTables.contains { table in
            try database.scalar("SELECT EXISTS (SELECT 1 FROM main.\(table) WHERE unified_property_id = :property)",
                                [":property": .text(property.key)])?.integerValue == 1
        }
        // The ledger by change where the last sync left a mark (LedgerDelta): its tables are written in main, so they
        // get no twin. A full sync rebuilds them too, to compare.
        let ledger: LedgerDelta.Ledger = property.pms == .realpage ? .realpage : .yardi
        if stored && mode != .full {
            context.ledgerDelta = try LedgerDelta.available(database, property: property.key, ledger: ledger, rules: ledgerRules)
        }
        context.byChange = stored && mode != .full
        context.inputMarks = try InputMarks.read(context, source: source(for: property), rules: ledgerRules,
                                                 mayKeep: context.byChange)
        guard let turns else { return try syncWhole(context, stored: stored, ledger: ledger, started: started) }
        // Side by side with other synchronizers: the rules run under no lock, into twins, and the property writes
        // unified.db in its turn. A ledger written by change is written in main as its rules run: that property
        // syncs whole in its turn (a night's few rows, where the rest is the costly whole projection).
        guard context.ledgerDelta == nil else {
            return try turns.take { try syncWhole(context, stored: stored, ledger: ledger, started: started) }
        }
        return try syncStaged(context, stored: stored, ledger: ledger, turns: turns, started: started)
    }

    /// One property in one transaction: the rules write the twins (main, on its first sync) and the writes follow.
    private func syncWhole(_ context: SyncContext, stored: Bool, ledger: LedgerDelta.Ledger,
                           started: Date) throws -> PropertySyncOutcome {
        let database = store.database
        let diff = stored ? try CurrentStateDiff(database, tables: Self.twinned(context)) : nil
        let twins = try Self.prepareTwins(context, tables: diff?.tables ?? [])
        defer { CurrentStateDiff.emptyTwins(database, names: twins) }
        return try database.withTransaction {
            // The property's row first: on a first sync the rules write main, whose rows refer to it.
            try upsertProperty(context)
            let computed = try compute(context) { try clearNight(context, asOf: $0) }
            return try finish(context, computed, diff: diff, firstSync: !stored, ledger: ledger, started: started)
        }
    }

    /// One property computed aside and written in its turn: the rules, its cross-checks and warnings write TEMP twins
    /// (every current-state table, and the night's unified_delinquency) inside a deferred transaction, which locks
    /// nothing other writers wait for; then, in its turn, one transaction writes unified.db as `syncWhole` would.
    private func syncStaged(_ context: SyncContext, stored: Bool, ledger: LedgerDelta.Ledger, turns: WriteTurns,
                            started: Date) throws -> PropertySyncOutcome {
        let database = store.database
        let diff = try CurrentStateDiff(database, tables: Self.twinned(context))
        let night = try CurrentStateDiff.table(Self.nightTwinned, in: database)
        let twins = try Self.prepareTwins(context, tables: diff.tables + [night])
        defer { CurrentStateDiff.emptyTwins(database, names: twins) }
        let computed = try database.withDeferredTransaction { try compute(context) { _ in } }
        return try turns.take {
            try database.withTransaction {
                try upsertProperty(context)
                try clearNight(context, asOf: computed.asOf)
                let names = night.columns.joined(separator: ", ")
                // The twin keeps its rows until the property is done: they are main's now, and what `finish` reads of
                // the night (the delinquency totals and checks, all of this property and night) reads the same there.
                try database.execute("INSERT INTO main.\(night.name) (\(names)) SELECT \(names) FROM temp.\(night.name) ORDER BY rowid")
                return try finish(context, computed, diff: diff, firstSync: !stored, ledger: ledger, started: started)
            }
        }
    }

    /// The current-state tables the rules write into twins: all but those written in main by change (LedgerDelta)
    /// and those kept as main holds them (InputMarks).
    private static func twinned(_ context: SyncContext) -> [String] {
        currentStateTables.filter {
            (context.ledgerDelta == nil || !LedgerDelta.tables.contains($0)) && !context.inputMarks.kept.contains($0)
        }
    }

    /// Makes the property's twins, empty (`CurrentStateDiff.prepareTwins`), and those of the tables kept as main holds
    /// them (InputMarks), filled with main's rows and left out of the diff: what reads them reads what main holds, as
    /// without a twin, and the TEMP schema is the one of a property that computes them (a Yardi property's kept
    /// recurring charges dropped that twin, and the property after it made it again: both compiled every rule again).
    /// Returns the twins' names.
    private static func prepareTwins(_ context: SyncContext, tables: [CurrentStateDiff.Table]) throws -> [String] {
        let database = context.database
        let kept = try context.inputMarks.kept.sorted().map { try CurrentStateDiff.table($0, in: database) }
        let twins = try CurrentStateDiff.prepareTwins(database, tables: tables + kept, universe: twinUniverse)
        for table in kept {
            let names = table.columns.joined(separator: ", ")
            try context.run("""
                INSERT INTO temp.\(table.name) (\(names)) SELECT \(names) FROM main.\(table.name) WHERE unified_property_id = :property
                """)
        }
        return twins
    }

    /// Every table a property's sync may twin.
    static let twinUniverse = currentStateTables + [nightTwinned]

    /// Drops the TEMP twins a sync left on `store`'s connection (`keepsTwins`): unqualified names mean main's tables
    /// again. The scratch tables stay (no unified table has their names).
    public static func dropTwins(_ store: UnifiedStore) {
        CurrentStateDiff.dropTwins(store.database, universe: twinUniverse)
    }

    /// The snapshot table the rules themselves write (the night's residents who owe): twinned when staged.
    static let nightTwinned = "unified_delinquency"

    /// What the rules made of one property, before its night's snapshots and the writes.
    private struct Computed {
        /// The raw state the rules read (`fingerprint(for:)`), and whether the last sync read the same.
        var fingerprint: String
        var rawAsLastSynced: Bool
        var asOf: LocalDate
        var result: SourceSyncResult
        var warnings: [SyncWarning]
    }

    /// Deletes the property's snapshot rows of `asOf` in main, which this sync writes again.
    private func clearNight(_ context: SyncContext, asOf: LocalDate) throws {
        for table in Self.snapshotTables {
            try context.run("DELETE FROM main.\(table) WHERE unified_property_id = :property AND as_of_date = :as_of", asOf: asOf)
        }
    }

    private func upsertProperty(_ context: SyncContext) throws {
        try context.run(Self.upsertProperty, [
            ":name": .text(context.property.name), ":pms": .text(context.property.pms.rawValue),
            ":address": SQLValue(context.property.address),
        ])
    }

    /// The rules: the property's current state, its household balances, cross-checks and warnings, written where the
    /// unqualified names lead (the twins, else main). `beforeRules` runs once the property date is known.
    private func compute(_ context: SyncContext, beforeRules: (LocalDate) throws -> Void) throws -> Computed {
        let property = context.property, database = context.database
        let source = source(for: property)
        // Read before anything is written: the raw state this sync starts from.
        let fingerprint = try fingerprint(for: property)
        let rawAsLastSynced = try database.scalar(
            "SELECT sync_fingerprint FROM unified_properties WHERE unified_property_id = :property",
            [":property": .text(property.key)])?.textValue == fingerprint
        try fillChargeCategories(database)
        guard let asOf = try source.propertyDate(context) else {
            let rawSchema = Self.rawSchema(property)
            throw SyncError.noRawData(property: property.key, detail: "nothing loaded in \(rawSchema).db for this property")
        }
        try beforeRules(asOf)
        var result = try source.sync(context, asOf: asOf)
        if result.ledgerSource != nil && result.partialLedgerNote == nil {
            // By change when the ledger was written by change from its own merged ledger (LedgerDelta) and the date did
            // not go back from the one the last sync summed up to (the property's row keeps it until `finish`); else
            // every household.
            if let delta = context.ledgerDelta, let left = result.ledgerDeltaLeft, result.ledgerSource == delta.ledger.source,
               let previousAsOf = try database.scalar(
                   "SELECT as_of_date FROM main.unified_properties WHERE unified_property_id = :property",
                   [":property": .text(property.key)])?.textValue.flatMap(LocalDate.init(iso:)),
               previousAsOf <= asOf {
                result.rows["unified_household_balances"] = try delta.rebalance(context, left: left, previous: previousAsOf,
                                                                               asOf: asOf)
            } else {
                result.rows["unified_household_balances"] = try context.run(HouseholdBalances.insert, asOf: asOf)
            }
        }
        var checked = context
        checked.activityFrom = result.activityDays?.from ?? ""
        checked.eventsByHousehold = result.activityDays?.households.byHousehold ?? false
        var warnings = try source.crossCheck(checked, asOf: asOf)
        warnings += try unknownChargeCodes(context)
        warnings += try UnknownGLAccounts.warnings(context)
        try record(warnings, property: property.key, asOf: asOf, sql: Self.insertWarning)
        return Computed(fingerprint: fingerprint, rawAsLastSynced: rawAsLastSynced, asOf: asOf, result: result,
                        warnings: warnings)
    }

    /// The night's snapshots from the current state, the property's row, its reconciliations, the ledger's mark and
    /// the current state's writes (`write`), inside the transaction that writes unified.db.
    private func finish(_ context: SyncContext, _ computed: Computed, diff: CurrentStateDiff?, firstSync: Bool,
                        ledger: LedgerDelta.Ledger, started: Date) throws -> PropertySyncOutcome {
        let property = context.property, database = context.database, asOf = computed.asOf, result = computed.result
        var rows = result.rows
        rows["unified_occupancy_metrics"] = try context.run(OccupancySnapshot.insert, asOf: asOf, [
            ":run_id": .text(runID), ":source": .text("\(property.pms.rawValue): \(result.unitSource)"),
        ])
        rows["unified_pricing_metrics"] = try context.run(PricingSnapshot.insert, asOf: asOf, [":run_id": .text(runID)])
        // A night without units still has its delinquency when the property has a ledger (Yardi's comes from the
        // ledger alone): the metrics read the night from here, not from the occupancy row. A night without a
        // delinquency source has no totals at all: zeros would read as "nobody owes" (the real Nexus East files
        // give a ledger from Transaction Detail by Code but no Delinquent and Prepaid report).
        if result.hasDelinquency && (rows["unified_occupancy_metrics", default: 0] > 0 || result.ledgerSource != nil) {
            rows["unified_delinquency_metrics"] = try context.run(DelinquencySnapshot.insert, asOf: asOf, [
                ":run_id": .text(runID), ":ledger_whole_as_of": SQLValue(result.ledgerWholeAsOf),
            ])
        }
        try context.run(Self.finishProperty, asOf: asOf, [
            ":run_id": .text(runID), ":synced_at": .text(Timestamp.iso()), ":ledger_source": SQLValue(result.ledgerSource),
            ":fingerprint": .text(computed.fingerprint),
            ":ledger_coverage": SQLValue(result.ledgerSource == nil ? nil : result.partialLedgerNote == nil ? "full" : "partial"),
            ":ledger_note": SQLValue(result.partialLedgerNote ?? result.ledgerNote),
            ":ledger_whole_as_of": SQLValue(result.ledgerWholeAsOf),
        ])
        try context.run(Self.recordMaintenanceSources, [
            ":work_order_source": SQLValue(result.workOrderSource), ":expense_source": SQLValue(result.expenseSource),
            ":income_source": SQLValue(result.incomeSource),
        ])
        try context.run(PropertyAddress.fromSite(property.pms), [":registry_address": SQLValue(property.address)])
        try context.run(UnitFloors.note(property.pms))
        // After finishProperty: the ledger check reads the property's ledger source and coverage.
        let checks = try SyncChecks.record(context, asOf: asOf)
        var ledgerChanges: [String: RowChanges] = [:]
        if let delta = context.ledgerDelta, let left = result.ledgerDeltaLeft {
            ledgerChanges = try delta.finish(context, left: left, logChanges: logsChanges)
        }
        try LedgerDelta.mark(database, property: property.key, ledger: ledger, rules: ledgerRules,
                             projected: result.ledgerSource == ledger.source)
        try context.inputMarks.record(database, property: property.key)
        try result.activityDays?.record(context)
        try result.yardiHouseholds?.record(context)
        try result.realpagePostings?.record(context)
        for mark in result.snapshotMarks { try mark.record(context) }
        var scopes = result.scopes
        scopes["unified_activity"] = result.activityDays?.scope
        var (changes, drift, inPart) = try write(diff, scopes: scopes, firstSync: firstSync, property: property.key,
                                                 asOf: asOf, rawAsLastSynced: computed.rawAsLastSynced)
        changes.merge(ledgerChanges) { $1 }
        var outcome = PropertySyncOutcome(property: property.key, asOf: asOf, rows: rows, warnings: computed.warnings + drift,
                                          duration: Date().timeIntervalSince(started), error: nil,
                                          failedChecks: checks.filter { $0.status == "failed" }.map {
                                              "\(property.key) \($0.check) \($0.measure): \($0.detail)" },
                                          changes: changes)
        outcome.computedInPart = inPart
        return outcome
    }

    /// Writes the twins' rows to main as `mode` says; returns what was written, in `.full` every drift found (also
    /// stored in unified_sync_warnings, as `sync_drift`), and the tables whose scope the write kept to (an incremental
    /// sync's; `PropertySyncOutcome.computedInPart`).
    /// `scopes`: the tables the rules computed only in part, and main's rows compared with them (an incremental sync).
    private func write(_ diff: CurrentStateDiff?, scopes: [String: CurrentStateDiff.Scope], firstSync: Bool,
                       property: String, asOf: LocalDate,
                       rawAsLastSynced: Bool) throws -> ([String: RowChanges], [SyncWarning], [String]) {
        let database = store.database
        guard let diff, !firstSync else {
            // A first sync: every row is new; its publication sends the property whole.
            try database.prepare(Self.forgetPublication).execute([":property": .text(property)])
            // Computed into the twins (a staged sync): written now, every one an insert.
            if let diff { return (try diff.replace(database, property: property), [], []) }
            var changes: [String: RowChanges] = [:]
            for table in Self.currentStateTables {
                let rows = try database.scalar("SELECT count(*) FROM \(table) WHERE unified_property_id = :property",
                                               [":property": .text(property)])?.integerValue ?? 0
                changes[table] = RowChanges(deleted: 0, inserted: Int(rows))
            }
            return (changes, [], [])
        }
        try notePublication(property: property, asOf: asOf)
        guard mode == .full else {
            return (try diff.apply(database, property: property, logChanges: logsChanges, scopes: scopes), [],
                    scopes.keys.sorted())
        }
        // Stored against rebuilt from the same raw state: any difference is one an incremental sync left.
        var found = rawAsLastSynced ? try diff.drift(database, property: property) : []
        var changes = try diff.apply(database, property: property, logChanges: logsChanges)
        // And what the write left against the rebuild, whatever the raw state: nothing unless a count says so.
        let left = try diff.countsMatch(database, property: property) ? [] : try diff.drift(database, property: property)
        if !(found.isEmpty && left.isEmpty) {
            found += left
            changes = try diff.replace(database, property: property)
            // Rewritten whole: so is its next publication.
            try database.prepare(Self.forgetPublication).execute([":property": .text(property)])
        }
        let warnings = found.map { drift in
            SyncWarning(check: "sync_drift", subject: "\(drift.table) \(drift.key)", expected: "the full rebuild's row",
                        actual: drift.detail,
                        message: "sync --full: \(drift.table) \(drift.key) differed from a full rebuild: \(drift.detail) (rewritten)")
        }
        try record(warnings, property: property, asOf: asOf, sql: Self.insertStoredWarning)
        return (changes, warnings, [])
    }

    /// Writes `warnings` of the property's night with `sql` (`insertWarning`: the twin the rules write; or
    /// `insertStoredWarning`: main's table, after the twins were written).
    private func record(_ warnings: [SyncWarning], property: String, asOf: LocalDate, sql: String) throws {
        let insert = try store.database.prepare(sql)
        for warning in warnings {
            try insert.execute([
                ":property": .text(property), ":as_of": .text(asOf.iso), ":check": .text(warning.check),
                ":subject": .text(warning.subject), ":expected": .text(warning.expected), ":actual": .text(warning.actual),
                ":message": .text(warning.message), ":run_id": .text(runID),
            ])
        }
    }

    /// Replaced per property on every sync (current-state tables: docs/contracts.md, "Databases"); children before
    /// parents (`CurrentStateDiff` deletes in this order and inserts in the reverse).
    static let currentStateTables = [
        "unified_lease_residents", "unified_leases", "unified_residents", "unified_units", "unified_activity",
        "unified_sync_warnings", "unified_charges", "unified_payments", "unified_recurring_charges",
        "unified_work_order_lines", "unified_work_orders", "unified_make_ready_periods", "unified_expenses", "unified_income", "unified_ledger_balances", "unified_household_balances",
    ]

    /// `temp.charge_category`, filled by `fillChargeCategories`.
    static let chargeCategoryTable = ScratchTable(name: "charge_category",
                                                  shape: .definition("(code TEXT PRIMARY KEY, category TEXT NOT NULL)"))

    /// Every scratch table a property's rules may fill, in the order they may be made (`TempTables.declare`); the
    /// ledger delta's set-aside rows are made by the first property written by change.
    static let scratchTables = [chargeCategoryTable, ExpenseAccountCategories.table, RealPageExpenses.incomeCategoryTable]
        + LedgerDelta.scratchTables + CurrentStateDiff.rowLists
        + RealPageScratch.tables + [RealPageScratch.reportActivity, RealPageMaintenance.closedTurn, YardiLedger.periodLeaseTable]
        + [RealPageClosedTurns.changedTurnsTable, RealPageExpenseMonths.changedMonthsTable]
        + YardiHouseholds.scratchTables + [RealPagePostings.table, RealPageEventHouseholds.table]

    /// `temp.charge_category` (code -> category), which the ledger rules join; per connection, refilled per property
    /// so that the table always matches this synchronizer's configuration.
    private func fillChargeCategories(_ database: Database) throws {
        try TempTables.empty(Self.chargeCategoryTable, in: database)
        let insert = try database.prepare("INSERT INTO temp.charge_category (code, category) VALUES (:code, :category)")
        for (code, category) in chargeCategories.byCode.sorted(by: { $0.key < $1.key }) {
            try insert.execute([":code": .text(code), ":category": .text(category.rawValue)])
        }
    }

    /// Charge codes no category names: counted as OTHER and listed, so the registry can name them.
    private func unknownChargeCodes(_ context: SyncContext) throws -> [SyncWarning] {
        let rows = try context.rows(Self.unknownCodes, [:])
        return rows.map { row in
            let code = row[0].textValue ?? ""
            let uses = row[1].integerValue ?? 0
            return SyncWarning(check: "charge_category", subject: code, expected: "a category", actual: "OTHER",
                               message: "charge code '\(code)' (\(uses) ledger row\(uses == 1 ? "" : "s")) is in no "
                                   + "charge_categories list of report_definitions.json: counted as OTHER")
        }
    }

    /// The charge codes no category names and their uses; the charges' on their partial index (unified migration 51).
    static let unknownCodes = """
        SELECT charge_code, count(*) FROM (
            SELECT charge_code FROM unified_charges WHERE unified_property_id = :property AND category_known = 0
            UNION ALL
            SELECT charge_code FROM unified_recurring_charges WHERE unified_property_id = :property AND category_known = 0
            UNION ALL
            SELECT charge_code FROM unified_ledger_balances WHERE unified_property_id = :property AND category_known = 0)
        GROUP BY charge_code ORDER BY charge_code
        """
    /// Replaced for the synced date only; other dates accumulate.
    /// The tables a sync writes one night of, the property date's: the snapshots and the reconciliations. A
    /// publication of the sync's changes replaces the noted nights of these (`UnifiedPublisher.publishChanges`).
    public static var nightTables: [String] { snapshotTables + ["sync_checks"] }

    static let snapshotTables = ["unified_occupancy_metrics", "unified_pricing_metrics", "unified_delinquency",
                                 "unified_delinquency_metrics"]

    // An upsert, never INSERT OR REPLACE: replacing the row would cascade-delete the property's snapshots.
    static let upsertProperty = """
        INSERT INTO unified_properties (unified_property_id, name, pms_source, pms_property_id, address)
        VALUES (:property, :name, :pms, :pms_property_id, :address)
        ON CONFLICT (unified_property_id) DO UPDATE SET
            name = excluded.name, pms_source = excluded.pms_source,
            pms_property_id = excluded.pms_property_id, address = coalesce(excluded.address, address)
        """

    static let finishProperty = """
        UPDATE unified_properties SET
            total_units = (SELECT count(*) FROM unified_units WHERE unified_property_id = :property),
            as_of_date = :as_of, last_synced_at = :synced_at, last_run_id = :run_id, ledger_source = :ledger_source,
            ledger_coverage = :ledger_coverage, ledger_note = :ledger_note, ledger_whole_as_of = :ledger_whole_as_of,
            sync_fingerprint = :fingerprint
        WHERE unified_property_id = :property
        """

    static let recordMaintenanceSources = """
        UPDATE unified_properties SET work_order_source = :work_order_source, expense_source = :expense_source,
                                      income_source = :income_source
        WHERE unified_property_id = :property
        """

    /// What a publication must send besides the current-state rows `CurrentStateDiff` notes: the property's row and
    /// its night's snapshots and checks. Without a publication, the server's copy (if any) can no longer be brought
    /// up to date by the changes alone: the next publication sends the property whole.
    private func notePublication(property: String, asOf: LocalDate) throws {
        let database = store.database
        guard logsChanges else {
            try database.prepare(Self.forgetPublication).execute([":property": .text(property)])
            return
        }
        let note = try database.prepare("""
            INSERT OR IGNORE INTO main.unpublished_changes (unified_property_id, table_name, row_key)
            VALUES (:property, :table, :key)
            """)
        try note.execute([":property": .text(property), ":table": .text("unified_properties"), ":key": .text("[]")])
        for table in Self.nightTables {
            try note.execute([":property": .text(property), ":table": .text(table), ":key": .text(asOf.iso)])
        }
    }

    static let forgetPublication = "DELETE FROM main.published_syncs WHERE unified_property_id = :property"

    /// A warning found after the twins were written (drift): into main's table, where the rows now are.
    static let insertStoredWarning = """
        INSERT OR IGNORE INTO main.unified_sync_warnings
            (unified_property_id, as_of_date, check_name, subject, expected, actual, message, run_id)
        VALUES (:property, :as_of, :check, :subject, :expected, :actual, :message, :run_id)
        """

    static let insertWarning = """
        INSERT INTO unified_sync_warnings
            (unified_property_id, as_of_date, check_name, subject, expected, actual, message, run_id)
        VALUES (:property, :as_of, :check, :subject, :expected, :actual, :message, :run_id)
        """
}

/// Why a property could not be synced.
public enum SyncError: Error, CustomStringConvertible {
    case noRawData(property: String, detail: String)

    public var description: String {
        switch self {
        case .noRawData(let property, let detail): "\(property): cannot sync: \(detail) (run ownerdash load or ingest first)"
        }
    }
}

