import Foundation
import Ingest
import OwnerDashCore

/// `ownerdash prune`: removes landed runs the retention policy no longer keeps, and the objects only they used.
struct PruneCommand: Command {
    static let names = ["prune"]
    static let abstract = "Remove landed runs the retention policy no longer keeps (and the objects only they used)."
    static let arguments: [ArgumentSpec] = [
        .option("--keep-days", "N", help: "keep every run of the last N days (default: $OWNERDASH_KEEP_DAYS, else 14)"),
        .option("--keep-monthly", "N", help: "keep the last run of each of the last N months, this one included (default: $OWNERDASH_KEEP_MONTHLY, else 12)"),
        .flag("--dry-run", help: "only say what would be removed"),
    ]
    static let discussion = """
        The newest run is always kept. Objects (data/landing/objects) are removed when no kept run's manifest
        refers to them, so every kept run still replays with 'ownerdash load --run'. One line per removed run
        with the bytes its removal frees, then a total. The raw databases are not touched: they keep one
        snapshot per report or operation, property and date, which trends read. Prune takes the data
        directory's lock (data/ingest.lock): while an ingest runs, it exits 3 naming it.
        """

    let global: GlobalOptions
    let policy: RetentionPolicy
    let dryRun: Bool

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
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let lock = try global.writerLock(command: "prune", log: log)
        defer { lock.release() }
        let result = try LandingPrune(dataDirectory: global.dataDirectory, policy: policy).run(dryRun: dryRun)
        let output = StandardOutput()
        defer { output.flush() }
        output.write(Self.render(result, dryRun: dryRun, policy: policy))
        return .success
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
