import Fetch
import Foundation
import OwnerDashCore
import Parse
import RawStore
import SOAP

/// `ownerdash load FILE ...` or `load --run RUN_ID`: parse RealPage report files into realpage_raw.db, and a run's
/// landed Yardi SOAP responses into yardi_raw.db, one transaction per file.
struct LoadCommand: Command {
    static let names = ["load"]
    static let abstract = "Load RealPage report files (.xlsx), or a fetch run's landed artifacts, into realpage_raw.db and yardi_raw.db."
    static let arguments: [ArgumentSpec] = [
        .positional("FILE", repeating: true, optional: true, help: "report files to load; each is loaded in its own transaction"),
        .option("--run", "RUN_ID", help: "load every report a fetch run landed (report, property and as-of date from its manifest)"),
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

        With --run RUN_ID the files are the run's landed RealPage reports and Yardi SOAP responses, read
        from data/landing/RUN_ID/manifest.json; their rows carry RUN_ID. Yardi responses go to
        yardi_raw.db (one table per operation), as of the run's requested date. --property selects
        among them; --report selects RealPage reports only. A landed file whose bytes no longer match the
        manifest's sha256 is refused.
        """

    let files: [String]
    let run: String?
    let hints: ReportFileHints
    let global: GlobalOptions

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        files = parsed.values("FILE")
        run = parsed.value("--run")
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
        var items = files.map { (file: $0, hints: hints, sha256: String?.none) }
        var runID = RunID.new()
        if let run {
            runID = RunID(run)
            items = try landedReports(of: runID, log: log)
        }
        try global.dataDirectory.create()
        let store = try RealPageRawStore(path: global.dataDirectory.realpageRawDatabase)
        let loader = ReportFileLoader(store: store, configuration: configuration, runID: runID)
        let output = StandardOutput()
        defer { output.flush() }
        let outcomes = ReportBatch.load(items, loader: loader, log: log)
        for outcome in outcomes.loaded {
            let verb = outcome.alreadyLoaded ? "already loaded" : "loaded"
            output.write("\(verb)  \(outcome.report.rawValue)  \(outcome.propertyKey)  \(outcome.asOf.iso)  \(outcome.rows) rows  \(outcome.artifact)\n")
        }
        guard run != nil else { return outcomes.exitCode }
        let soap = try landedSOAP(of: runID, configuration: configuration, log: log)
        let rpx = try loadRPX(soap.filter { $0.rpx != nil }, store: store, runID: runID, log: log, output: output)
        let yardi = try loadYardi(soap.filter { $0.yardi != nil }, runID: runID, log: log, output: output)
        return outcomes.exitCode == .success && rpx && yardi ? .success : .partial
    }

    /// A landed SOAP response (RPX or Yardi) and what the manifest says about it.
    private struct SOAPItem {
        var file: String
        var rpx: RPXOperation?
        var yardi: YardiOperation?
        var property: Property
        var asOf: LocalDate
        var sha256: String?
    }

    /// The run's landed RPX and Yardi responses (filtered by --property; none when --report names a report type).
    private func landedSOAP(of runID: RunID, configuration: Configuration, log: Diagnostics) throws -> [SOAPItem] {
        guard hints.report == nil else { return [] }
        let manifest = try RunManifest.read(path: LandingZone.manifestPath(in: global.dataDirectory, runID: runID))
        let directory = LandingZone.runDirectory(in: global.dataDirectory, runID: runID)
        var items: [SOAPItem] = []
        var notFetched = 0
        for entry in manifest.artifacts {
            guard let name = entry.operation, let pms = PMS(rawValue: entry.pms) else { continue }
            let rpx = pms == .realpage ? RPXOperation(rawValue: name) : nil
            let yardi = pms == .yardi ? YardiOperation(rawValue: name) : nil
            guard rpx != nil || yardi != nil else { continue }
            if let wanted = hints.propertyKey, wanted != entry.property { continue }
            guard entry.error == nil, let relative = entry.path else {
                notFetched += 1
                continue
            }
            guard let property = configuration.property(key: entry.property), property.pms == pms else {
                log.error("\(pms.rawValue)/\(entry.property)/\(name).xml", "property \(entry.property) is not a \(pms.rawValue) property of the registry")
                continue
            }
            guard let asOf = (entry.asOf ?? entry.asOfRequested).flatMap({ LocalDate(iso: $0) }) else {
                log.error(relative, "the manifest records no as-of date for this artifact")
                continue
            }
            items.append(SOAPItem(file: (directory as NSString).appendingPathComponent(relative), rpx: rpx, yardi: yardi,
                                  property: property, asOf: asOf, sha256: entry.sha256))
        }
        if notFetched > 0 {
            log.info(nil, "\(notFetched) SOAP response(s) of run \(runID.value) failed to fetch and are not loaded (see its manifest)")
        }
        return items
    }

    /// Loads RPX responses into realpage_raw.db, one transaction each; false when any failed.
    private func loadRPX(_ items: [SOAPItem], store: RealPageRawStore, runID: RunID, log: Diagnostics,
                         output: StandardOutput) throws -> Bool {
        let loader = RPXArtifactLoader(store: store, runID: runID)
        return loadEach(items, source: "RPX", log: log, output: output) { item in
            guard let operation = item.rpx else { return nil }
            return try loader.load(path: item.file, operation: operation, property: item.property,
                                   asOf: item.asOf, expectedSHA256: item.sha256)
        }
    }

    /// Loads Yardi responses into yardi_raw.db, one transaction each; false when any failed.
    private func loadYardi(_ items: [SOAPItem], runID: RunID, log: Diagnostics, output: StandardOutput) throws -> Bool {
        guard !items.isEmpty else { return true }
        let loader = YardiArtifactLoader(store: try YardiRawStore(path: global.dataDirectory.yardiRawDatabase), runID: runID)
        return loadEach(items, source: "Yardi", log: log, output: output) { item in
            guard let operation = item.yardi else { return nil }
            return try loader.load(path: item.file, operation: operation, property: item.property,
                                   asOf: item.asOf, expectedSHA256: item.sha256)
        }
    }

    /// Loads items one by one, a line each on stdout, keeping going after a bad one; false when any failed.
    /// Landed bytes are never edited: the loaders refuse a file whose sha256 differs from the manifest's.
    private func loadEach(_ items: [SOAPItem], source: String, log: Diagnostics, output: StandardOutput,
                          load: (SOAPItem) throws -> (any SOAPLoadOutcome)?) -> Bool {
        var failed: [String] = []
        for item in items {
            do {
                guard let outcome = try load(item) else { continue }
                let verb = outcome.alreadyLoaded ? "already loaded" : "loaded"
                output.write("\(verb)  \(outcome.operationName)  \(outcome.propertyKey)  \(outcome.asOf.iso)  \(outcome.rows) rows  \(outcome.artifact)\n")
            } catch {
                log.error(item.file, "\(error)")
                failed.append(item.file)
            }
        }
        if !failed.isEmpty {
            log.error(nil, "\(failed.count) of \(items.count) \(source) response(s) failed: \(failed.joined(separator: ", "))")
        }
        return failed.isEmpty
    }

    /// The run's landed RealPage reports, with hints from the manifest (filtered by --report/--property).
    private func landedReports(of runID: RunID, log: Diagnostics) throws -> [ReportBatch.Item] {
        guard !runID.value.isEmpty, !runID.value.contains("/"), !runID.value.hasPrefix(".") else {
            throw UsageError("ownerdash load: \"\(runID.value)\" is not a run id")
        }
        let path = LandingZone.manifestPath(in: global.dataDirectory, runID: runID)
        guard FileManager.default.fileExists(atPath: path) else {
            throw UsageError("ownerdash load: no run \(runID.value) in \(global.dataDirectory.landing) (no \(path))")
        }
        let manifest = try RunManifest.read(path: path)
        let directory = LandingZone.runDirectory(in: global.dataDirectory, runID: runID)
        var items: [ReportBatch.Item] = []
        var notFetched = 0
        for entry in manifest.artifacts where entry.pms == PMS.realpage.rawValue {
            guard let reportName = entry.report, let report = ReportType(rawValue: reportName) else { continue }
            if let wanted = hints.report, wanted != report { continue }
            if let wanted = hints.propertyKey, wanted != entry.property { continue }
            guard entry.error == nil, let relative = entry.path else {
                notFetched += 1
                continue
            }
            // The report's own title says which property date it was run for; the manifest's date is a fallback.
            let hints = ReportFileHints(report: report, propertyKey: entry.property,
                                        fallbackAsOf: entry.asOf.flatMap { LocalDate(iso: $0) })
            items.append(((directory as NSString).appendingPathComponent(relative), hints, entry.sha256))
        }
        if notFetched > 0 {
            log.info(nil, "\(notFetched) report(s) of run \(runID.value) failed to fetch and are not loaded (see its manifest)")
        }
        if items.isEmpty && !manifest.artifacts.contains(where: { $0.operation != nil }) {
            log.info(nil, "run \(runID.value) landed no RealPage reports to load")
        }
        return items
    }
}

/// Loads a list of files, keeping going after a bad one, and says how the batch ended.
enum ReportBatch {
    /// A file, what is known about it, and the sha256 its bytes must have (from a run's manifest).
    typealias Item = (file: String, hints: ReportFileHints, sha256: String?)

    struct Result {
        var loaded: [ReportLoadOutcome] = []
        var failed: [(file: String, reason: String)] = []

        /// Bad files make the batch partial (2), even when none loaded: the run itself finished.
        var exitCode: ExitCode { failed.isEmpty ? .success : .partial }
    }

    static func load(_ files: [String], loader: ReportFileLoader, hints: ReportFileHints, log: Diagnostics) -> Result {
        load(files.map { ($0, hints, nil) }, loader: loader, log: log)
    }

    static func load(_ items: [Item], loader: ReportFileLoader, log: Diagnostics) -> Result {
        var result = Result()
        for (file, hints, expectedSHA256) in items {
            do {
                if let expectedSHA256 {
                    // Landed bytes are never edited; a mismatch means someone did, so the file is not trusted.
                    let actual = try? SHA256.hexDigest(ofFile: file)
                    guard actual == expectedSHA256 else {
                        throw ReportLoadError(actual == nil ? "cannot read the landed file"
                                              : "the file's sha256 differs from the run's manifest (edited after it landed?)")
                    }
                }
                let outcome = try loader.load(path: file, hints: hints)
                for warning in outcome.warnings { log.warning(file, warning) }
                result.loaded.append(outcome)
            } catch {
                log.error(file, "\(error)")
                result.failed.append((file, "\(error)"))
            }
        }
        if !result.failed.isEmpty {
            log.error(nil, "\(result.failed.count) of \(items.count) file(s) failed: \(result.failed.map(\.file).joined(separator: ", "))")
        }
        return result
    }
}
