import Foundation
import Ingest
import OwnerDashCore
import Sync

/// `ownerdash backfill`: month-end occupancy for past months, reconstructed from resident history, as one run.
struct BackfillCommand: Command {
    static let names = ["backfill"]
    static let unifiedAccess = UnifiedAccess.publishes
    static let abstract = "Give the trends past month ends on the first day: occupancy rebuilt from resident history."
    static let arguments: [ArgumentSpec] = [
        .option("--months", "N", help: "month ends to backfill before each property's latest snapshot, 1-120 (default 24)"),
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every property"),
        .option("--pms", "realpage|yardi", help: "only properties on this source system; default: both"),
        .option("--through", "YYYY-MM-DD", help: "backfill the month ends before this date (default: each property's latest synced snapshot)"),
    ]
    static let discussion = """
        Run it once after the first ingest. Neither PMS hands out a past unit-status list, but both hand out
        every resident, former ones included, with move-in, notice and move-out dates and the lease signing
        dates: each month end's occupancy (occupied, on notice, vacant leased, leased %) is rebuilt from them
        into unified_occupancy_history, and the trends draw those points as backfilled. A synced snapshot of
        the same date wins; month ends before the first move-in the history holds are left out (named on
        stderr). The move-in/move-out series and renewal rates are counted from the same dates, so they reach
        back as far as the history without a backfill.

        Recorded as a run with trigger 'backfill' ('ownerdash runs'), one item per property. Takes the data
        directory's lock. stdout: the run id, then one line per property. Exit 0, or 2 when a property
        could not be backfilled (never synced, or no resident history).
        """

    let global: GlobalOptions
    let selection: PropertySelection
    let months: Int
    let through: LocalDate?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        selection = try PropertySelection(parsed, command: "ownerdash backfill")
        if let text = parsed.value("--months") {
            guard let value = Int(text), (1...120).contains(value) else {
                throw UsageError("ownerdash backfill: --months must be a number from 1 to 120, not \"\(text)\"")
            }
            months = value
        } else {
            months = 24
        }
        if let text = parsed.value("--through") {
            guard let date = LocalDate(iso: text) else {
                throw UsageError("ownerdash backfill: --through must be a date YYYY-MM-DD, not \"\(text)\"")
            }
            through = date
        } else {
            through = nil
        }
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let configuration = try global.configuration()
        let properties = try selection.resolve(configuration, configPath: global.configPath, command: "ownerdash backfill")
        var words = ["ownerdash", "backfill", "--months", String(months)]
        for key in selection.keys { words += ["--property", key] }
        if let pms = selection.pms { words += ["--pms", pms.rawValue] }
        if let through { words += ["--through", through.iso] }
        let result: (runID: RunID, status: RunStatus, outcomes: [BackfillOutcome])
        do {
            var backfill = BackfillRun(dataDirectory: global.dataDirectory, publication: try global.publication())
            backfill.hostName = global.hostName
            result = try backfill.run(properties, months: months, through: through, commandLine: words.joined(separator: " "), log: log)
        } catch let busy as IngestLockBusy {
            throw WriterLockRefused(busy: busy, command: "backfill")
        }
        let output = StandardOutput()
        defer { output.flush() }
        output.write("run \(result.runID.value)\n")
        let rows = result.outcomes.map { outcome in
            [outcome.property, String(outcome.months.count), outcome.months.first?.iso ?? "", outcome.months.last?.iso ?? "",
             outcome.failure == nil ? "backfilled" : "failed"]
        }
        output.write(TextTable.render(header: ["property", "month ends", "from", "to", "result"], rows: rows))
        switch result.status {
        case .succeeded: return .success
        case .failed where result.outcomes.count > 0: return .partial
        default: return result.outcomes.contains { $0.failure != nil } ? .partial : .success
        }
    }
}
