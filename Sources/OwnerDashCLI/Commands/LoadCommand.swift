import Foundation
import OwnerDashCore
import Parse
import RawStore

/// `ownerdash load FILE ...`: parse RealPage report files into realpage_raw.db, one transaction per file.
struct LoadCommand: Command {
    static let names = ["load"]
    static let abstract = "Load RealPage report files (.xlsx) into realpage_raw.db."
    static let arguments: [ArgumentSpec] = [
        .positional("FILE", repeating: true, help: "report files to load; each is loaded in its own transaction"),
        .option("--report", "TYPE", help: "report type (\(ReportType.allCases.map(\.rawValue).joined(separator: "|"))); default: detected from the title and header"),
        .option("--property", "KEY", help: "property registry key; default: matched from the title block's property name"),
        .option("--as-of", "YYYY-MM-DD", help: "snapshot date; default: the title block's \"As of\" date"),
        .option("--pms", "realpage", help: "source system of the files (only realpage report files for now)"),
    ]
    static let discussion = """
        A file that fails (corrupt, unknown layout, missing column) is named on stderr with the reason;
        nothing from it is written, the other files still load, and the exit code is 2.
        Loading the same file again changes nothing. A newer file for the same report, property and
        as-of date replaces the earlier snapshot.
        """

    let files: [String]
    let hints: ReportFileHints
    let global: GlobalOptions

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        files = parsed.values("FILE")
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
        try global.dataDirectory.create()
        let store = try RealPageRawStore(path: global.dataDirectory.realpageRawDatabase)
        let loader = ReportFileLoader(store: store, configuration: configuration, runID: RunID.new())
        let output = StandardOutput()
        defer { output.flush() }
        let outcomes = ReportBatch.load(files, loader: loader, hints: hints, log: log)
        for outcome in outcomes.loaded {
            let verb = outcome.alreadyLoaded ? "already loaded" : "loaded"
            output.write("\(verb)  \(outcome.report.rawValue)  \(outcome.propertyKey)  \(outcome.asOf.iso)  \(outcome.rows) rows  \(outcome.artifact)\n")
        }
        return outcomes.exitCode
    }
}

/// Loads a list of files, keeping going after a bad one, and says how the batch ended.
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
                let outcome = try loader.load(path: file, hints: hints)
                for warning in outcome.warnings { log.warning(file, warning) }
                result.loaded.append(outcome)
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
