import Foundation
import Ingest
import OwnerDashCore
import Parse
import RawStore

/// `ownerdash load FILE ...` or `load --run RUN_ID`: parse RealPage report files into realpage_raw.db, and a run's
/// landed Yardi SOAP responses into yardi_raw.db, one transaction per file.
struct LoadCommand: Command {
    static let names = ["load"]
    static let abstract = "Load RealPage report files (.xlsx, .xls, HTML or CSV), or a fetch run's landed artifacts, into realpage_raw.db and yardi_raw.db."
    static let arguments: [ArgumentSpec] = [
        .positional("FILE", repeating: true, optional: true, help: "report files to load; each is loaded in its own transaction"),
        .option("--run", "RUN_ID", help: "load every report a fetch run landed (report, property and as-of date from its manifest)"),
        .option("--report", "TYPE", help: "report type (\(ReportType.allCases.map(\.rawValue).joined(separator: "|"))); default: detected from the title and header"),
        .option("--property", "KEY", help: "property registry key; default: matched from the title block's property name"),
        .option("--as-of", "YYYY-MM-DD", help: "snapshot date; default: the title block's \"As of\" date"),
        .option("--pms", "realpage", help: "source system of the files (only realpage report files for now)"),
        .flag("--reload", help: "with --run: parse again files whose bytes were loaded before (after a parser fix)"),
    ]
    static let discussion = """
        A file that fails (corrupt, unknown layout, missing column) is named on stderr with the reason;
        nothing from it is written, the other files still load, and the exit code is 2.
        Loading the same file again changes nothing. A newer file for the same report, property and
        as-of date replaces the earlier snapshot.

        With --run RUN_ID the files are the run's landed RealPage reports and Yardi SOAP responses, read
        from data/landing/RUN_ID/manifest.json; their rows carry RUN_ID. Yardi responses go to
        yardi_raw.db (one table per operation), as of the run's requested date. --property selects
        among them; --report selects RealPage reports only. A landed file whose bytes no longer match the
        manifest's sha256 is refused.

        After a parser fix, 'load --run RUN_ID --reload' parses the run's files again (the same bytes are
        otherwise skipped as already loaded) and replaces their snapshots; then 'ownerdash sync' carries
        the corrected rows into unified.db. load takes the data directory's lock (data/ingest.lock): while
        an ingest runs, it exits 3 naming it.
        """

    let files: [String]
    let run: String?
    let reload: Bool
    let hints: ReportFileHints
    let global: GlobalOptions

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        files = parsed.values("FILE")
        run = parsed.value("--run")
        reload = parsed.flag("--reload")
        if reload && run == nil {
            throw UsageError("ownerdash load: --reload needs --run RUN_ID (a file given by name is parsed every time it changes)")
        }
        if run == nil && files.isEmpty {
            throw UsageError("ownerdash load: missing FILE (or --run RUN_ID)")
        }
        if run != nil && !files.isEmpty {
            throw UsageError("ownerdash load: give either FILE ... or --run RUN_ID, not both")
        }
        if run != nil && parsed.value("--as-of") != nil {
            throw UsageError("ownerdash load: --as-of cannot be used with --run (the manifest records each file's date)")
        }
        var hints = ReportFileHints()
        if let report = parsed.value("--report") {
            guard let type = ReportType(rawValue: report) else {
                throw UsageError("ownerdash load: unknown --report \"\(report)\" (one of \(ReportType.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            hints.report = type
        }
        hints.propertyKey = parsed.value("--property")
        if let date = parsed.value("--as-of") {
            guard let day = LocalDate(iso: date) else {
                throw UsageError("ownerdash load: --as-of must be a date YYYY-MM-DD, not \"\(date)\"")
            }
            hints.asOf = day
        }
        if let pms = parsed.value("--pms"), pms != "realpage" {
            throw UsageError("ownerdash load: only RealPage report files can be loaded from files (--pms realpage)")
        }
        self.hints = hints
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let configuration = try global.configuration()
        if let run {
            return try loadRun(RunID(run), configuration: configuration, log: log)
        }
        let lock = try global.writerLock(command: "load", log: log)
        defer { lock.release() }
        let store = try RealPageRawStore(path: global.dataDirectory.realpageRawDatabase)
        let loader = ReportFileLoader(store: store, configuration: configuration, runID: RunID.new())
        let output = StandardOutput()
        defer { output.flush() }
        let outcomes = ReportBatch.load(files, loader: loader, hints: hints, log: log)
        for outcome in outcomes.loaded {
            let verb = outcome.alreadyLoaded ? "already loaded" : "loaded"
            output.write("\(verb)  \(outcome.report.rawValue)  \(outcome.propertyKey)  \(outcome.asOf.iso)  \(outcome.rows) rows  \(outcome.artifact)"
                         + (outcome.unchangedSinceRun.map { "  (unchanged since run \($0))" } ?? "") + "\n")
        }
        return outcomes.exitCode
    }

    /// `load --run`: the run's landed reports, then its RPX and Yardi responses (`RunLoad`), a line each on stdout.
    private func loadRun(_ runID: RunID, configuration: Configuration, log: Diagnostics) throws -> ExitCode {
        let runLoad: RunLoad
        do {
            runLoad = try RunLoad(dataDirectory: global.dataDirectory, configuration: configuration, runID: runID,
                                  report: hints.report, propertyKey: hints.propertyKey, reload: reload)
        } catch let error as RunLoadError {
            throw UsageError("ownerdash load: \(error.description)")
        }
        let lock = try global.writerLock(command: "load", log: log)
        defer { lock.release() }
        let output = StandardOutput()
        defer { output.flush() }
        let loads = try runLoad.load(log: log) { artifact in
            if artifact.error == nil { output.write(artifact.summaryLine + "\n") }
        }
        return loads.contains { $0.error != nil } ? .partial : .success
    }
}

/// Loads a list of files, keeping going after a bad one, and says how the batch ended.
/// (A fetch run's landed files are loaded by `RunLoad`, which also checks them against the manifest.)
enum ReportBatch {
    struct Result {
        var loaded: [ReportLoadOutcome] = []
        var failed: [(file: String, reason: String)] = []

        /// Bad files make the batch partial (2), even when none loaded: the run itself finished.
        var exitCode: ExitCode { failed.isEmpty ? .success : .partial }
    }

    static func load(_ files: [String], loader: ReportFileLoader, hints: ReportFileHints, log: Diagnostics) -> Result {
        var result = Result()
        for file in files {
            do {
                for outcome in try loader.load(path: file, hints: hints).all {
                    for warning in outcome.warnings { log.warning(file, warning) }
                    for note in outcome.notes { log.info(file, note) }
                    result.loaded.append(outcome)
                }
            } catch {
                log.error(file, "\(error)")
                result.failed.append((file, "\(error)"))
            }
        }
        if !result.failed.isEmpty {
            log.error(nil, "\(result.failed.count) of \(files.count) file(s) failed: \(result.failed.map(\.file).joined(separator: ", "))")
        }
        return result
    }
}
