import Foundation
import Ingest
import OwnerDashCore
import PostgresUnified
import RawStore
import SQLiteKit
import Sync

/// `ownerdash prune`: removes landed runs the retention policy no longer keeps, and the objects only they used.
struct PruneCommand: Command {
    static let names = ["prune"]
    static let unifiedAccess = UnifiedAccess.publishes
    static let abstract = "Remove landed runs the retention policy no longer keeps (and the objects only they used)."
    static let arguments: [ArgumentSpec] = [
        .option("--keep-days", "N", help: "keep every run of the last N days (default: $OWNERDASH_KEEP_DAYS, else 14)"),
        .option("--keep-monthly", "N", help: "keep the last run of each of the last N months, this one included (default: $OWNERDASH_KEEP_MONTHLY, else 12)"),
        .option("--grace-hours", "H", help: "leave objects written or reused in the last H hours (default 6: a bare fetch may be landing)"),
        .flag("--dry-run", help: "only say what would be removed"),
    ]
    static let discussion = """
        The newest run is always kept. Objects (data/landing/objects) are removed when no kept run's manifest
        refers to them, so every kept run still replays with 'ownerdash load --run'. One line per removed run
        with the bytes its removal frees, then a total. In the raw databases, the unit, resident and lease lists
        and day reports of dates the same policy no longer keeps (counted in property dates) are removed and the
        free pages given back (incremental vacuum); ledgers, activity and financial reports, and the unified
        metric rows the trends read, stay. On Sundays (UTC, by the run clock) the prune also sweeps the lineage
        rows no raw row names any more (raw_lineage), a pass over every raw table. In unified.db, the households
        of each night's delinquency list (unified_delinquency) are kept for the same nights; every night's totals
        stay. With --database-url the nights removed are removed on the server too, by change; without it, a
        property this host publishes takes them there with its next publication. A property another host has
        synced since is left to that host on the server (said in a line). Like a load, prune first
        migrates the raw databases to this build's schema (not with --dry-run, which changes nothing). Prune
        takes the data directory's lock (data/ingest.lock): while an ingest runs, it exits 3 naming it.
        """

    let global: GlobalOptions
    let policy: RetentionPolicy
    let dryRun: Bool
    let graceHours: Double

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        func count(_ option: String, environment: String, fallback: Int) throws -> Int {
            let text = parsed.value(option) ?? ProcessInfo.processInfo.environment[environment].flatMap { $0.isEmpty ? nil : $0 }
            guard let text else { return fallback }
            guard let value = Int(text), value >= 0 else {
                throw UsageError("ownerdash prune: \(parsed.value(option) != nil ? option : environment) must be a whole number of 0 or more, not \"\(text)\"")
            }
            return value
        }
        policy = RetentionPolicy(
            keepDays: try count("--keep-days", environment: "OWNERDASH_KEEP_DAYS", fallback: RetentionPolicy.standard.keepDays),
            keepMonthly: try count("--keep-monthly", environment: "OWNERDASH_KEEP_MONTHLY", fallback: RetentionPolicy.standard.keepMonthly))
        dryRun = parsed.flag("--dry-run")
        graceHours = Double(try count("--grace-hours", environment: "OWNERDASH_PRUNE_GRACE_HOURS", fallback: 6))
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let lock = try global.writerLock(command: "prune", log: log)
        defer { lock.release() }
        let result = try LandingPrune(dataDirectory: global.dataDirectory, policy: policy, grace: graceHours * 3600)
            .run(now: RunID.clock(), dryRun: dryRun)
        let output = StandardOutput()
        defer { output.flush() }
        output.write(Self.render(result, dryRun: dryRun, policy: policy))
        let raw = RawSnapshotPolicy(keepDays: policy.keepDays, keepMonthly: policy.keepMonthly)
        // Each raw database with the column naming its snapshots' report or operation, and its store, whose opening
        // migrates it to the schema the retention rules are written for, as a load does: a prune right after an
        // upgrade, before any ingest, ran them on the old one (without raw migration 54 the make-ready rule read every
        // later snapshot). A dry run changes nothing, its schema neither.
        let rawDatabases: [(path: String, keyColumn: String, migrate: (String) throws -> Void)] = [
            (global.dataDirectory.realpageRawDatabase, "report_type", { _ = try RealPageRawStore(path: $0) }),
            (global.dataDirectory.yardiRawDatabase, "operation", { _ = try YardiRawStore(path: $0) }),
        ]
        let sweepLineage = RawRetention.sweepsLineage(at: RunID.clock())
        for (path, keyColumn, migrate) in rawDatabases where FileManager.default.fileExists(atPath: path) {
            if !dryRun { try migrate(path) }
            output.write(Self.render(try RawRetention.prune(path: path, keyColumn: keyColumn, policy: raw, dryRun: dryRun,
                                                            sweepLineage: sweepLineage),
                                     dryRun: dryRun))
        }
        if FileManager.default.fileExists(atPath: global.dataDirectory.unifiedDatabase) {
            let unified = try UnifiedRetention.pruneResidentDelinquency(path: global.dataDirectory.unifiedDatabase,
                                                                        dryRun: dryRun, kept: raw.kept)
            // Free pages stay in the file for the next nights' rows: unified.db stops growing instead of shrinking,
            // and readers (serve) are never locked out by a VACUUM.
            output.write("unified.db: \(dryRun ? "would remove" : "removed") the households of \(unified.nights) property "
                         + "night(s) of delinquency (\(unified.rows) rows) the policy no longer keeps; every night's totals stay\n")
            // With --database-url the server holds what this host synced: the properties trimmed go there as trimmed,
            // by change (the removed nights were noted; a property the server holds otherwise goes whole). Without it,
            // the noted nights travel with the property's next publication.
            if let url = global.databaseURL, !dryRun, !unified.properties.isEmpty {
                let publisher = try UnifiedPublisher(url: url, host: global.hostName)
                let database = try Database(path: global.dataDirectory.unifiedDatabase)
                var whole = 0, count = 0
                for key in unified.properties {
                    do {
                        if try publisher.publishChanges(key, from: database, keepingOtherHosts: true).whole { whole += 1 }
                        count += 1
                    } catch let elsewhere as UnifiedPublisher.PublishedElsewhere {
                        output.write("\(elsewhere)\n")
                    }
                }
                output.write("published the trimmed nights of \(count) propert\(count == 1 ? "y" : "ies") to \(url)"
                             + (whole > 0 ? " (\(whole) whole: the server did not hold them as this host last published them)" : "")
                             + "\n")
            }
        }
        return .success
    }

    /// `realpage_raw.db: removed 12 snapshot(s) (4810 rows) the policy no longer keeps; 41943040 -> 39845888 bytes`.
    static func render(_ result: RawPruneResult, dryRun: Bool) -> String {
        let name = (result.path as NSString).lastPathComponent
        let sizes = dryRun ? "\(result.bytesBefore) bytes now" : "\(result.bytesBefore) -> \(result.bytesAfter) bytes"
        return "\(name): \(dryRun ? "would remove" : "removed") \(result.snapshots) snapshot(s) (\(result.rows) rows) the policy no longer keeps; \(sizes)"
            + (result.convertedToIncremental ? " (switched to incremental vacuum by one full VACUUM)" : "")
            + (result.lineageRemoved.map { "; the week's sweep removed \($0) lineage row(s) no raw row names" } ?? "") + "\n"
    }

    static func render(_ result: PruneResult, dryRun: Bool, policy: RetentionPolicy) -> String {
        let verb = dryRun ? "would remove" : "removed"
        var lines = result.removed.map { "\(verb) run \($0.runID) (\($0.day)): \($0.bytes) bytes, \($0.objects) object(s) no kept run uses" }
        if result.strayObjects > 0 {
            lines.append("\(verb) \(result.strayObjects) object(s) no run refers to: \(result.strayBytes) bytes")
        }
        lines.append("\(dryRun ? "would free" : "freed") \(result.totalBytes) bytes: \(result.removed.count) run(s) \(dryRun ? "to remove" : "removed"), \(result.kept.count) kept (last \(policy.keepDays) day(s), last run of \(policy.keepMonthly) month(s), the newest)")
        return lines.joined(separator: "\n") + "\n"
    }
}
