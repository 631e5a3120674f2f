import Fetch
import Foundation
import OwnerDashCore

/// `ownerdash fetch`: download RealPage reports into the landing zone (no load).
struct FetchCommand: Command {
    static let names = ["fetch"]
    static let abstract = "Download RealPage reports into data/landing/<run_id>/ (load them with 'load --run')."
    static let arguments: [ArgumentSpec] = [
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every property of the PMS"),
        .option("--pms", "realpage", help: "source system (only realpage for now; Yardi and RPX SOAP are not implemented yet)"),
        .option("--reports", "a,b", help: "report types to fetch, comma-separated; default: the whole catalogue"),
        .option("--as-of", "YYYY-MM-DD", help: "report date (default: today); a date past the property date is retried up to 3 days earlier"),
        .option("--parallel", "N", help: "downloads at a time, 1-32 (default 4)"),
    ]
    static let discussion = """
        Each report is requested from the RealPage reporting API (create a report instance, poll until it
        is ready, download it) and lands in data/landing/<run_id>/realpage/<property>/<report>.xlsx only
        once complete and checked; manifest.json in the run directory lists every artifact with its url,
        status, size, sha256, timings and error. stdout: the run id, then one line per artifact.

        Credentials: REALPAGE_TOKEN, or REALPAGE_TOKEN_COMMAND (a command that prints a fresh token; it
        is run again when the token expires). Base URL: OWNERDASH_REALPAGE_REPORTS_URL, else the
        configuration's realpage.reports_url.

        Exit codes: 0 every artifact landed; 2 some failed (each named on stderr, the others landed);
        3 nothing landed.
        """

    let global: GlobalOptions
    let propertyKeys: [String]
    let reportNames: [String]?
    let asOf: LocalDate
    let parallel: Int

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        if let pms = parsed.value("--pms") {
            switch pms {
            case "realpage": break
            case "yardi": throw UsageError("ownerdash fetch: fetching from Yardi (Voyager SOAP) is not implemented yet; only --pms realpage")
            default: throw UsageError("ownerdash fetch: unknown --pms \"\(pms)\" (realpage or yardi)")
            }
        }
        propertyKeys = parsed.values("--property")
        reportNames = parsed.value("--reports").map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let text = parsed.value("--as-of") {
            guard let date = LocalDate(iso: text) else {
                throw UsageError("ownerdash fetch: --as-of must be a date YYYY-MM-DD, not \"\(text)\"")
            }
            asOf = date
        } else {
            asOf = Self.today()
        }
        if let text = parsed.value("--parallel") {
            guard let value = Int(text), (1...32).contains(value) else {
                throw UsageError("ownerdash fetch: --parallel must be a number from 1 to 32, not \"\(text)\"")
            }
            parallel = value
        } else {
            parallel = 4
        }
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let configuration = try global.configuration()
        let properties = try selectedProperties(configuration)
        let reports = try selectedReports(configuration)
        let environment = ProcessInfo.processInfo.environment
        let tokens: TokenSource
        do {
            tokens = try TokenSource(environment: environment)
        } catch let error as CredentialError {
            throw ConfigurationError(error.description)
        }
        let settings = RealPageReportSettings(baseURL: RealPageReportSettings.baseURL(configuration: configuration,
                                                                                       environment: environment))
        guard settings.baseURL.hasPrefix("http://") || settings.baseURL.hasPrefix("https://") else {
            throw ConfigurationError("RealPage reports URL \"\(settings.baseURL)\" is not an http(s) URL (OWNERDASH_REALPAGE_REPORTS_URL or realpage.reports_url)")
        }
        let client = RealPageReportClient(settings: settings, tokens: tokens)

        try global.dataDirectory.create()
        let runID = RunID.new()
        let landing = try LandingZone(dataDirectory: global.dataDirectory, runID: runID)
        let output = StandardOutput()
        output.write("run \(runID.value)\n")
        output.flush()

        let jobs = RealPageFetch.jobs(properties: properties, reports: reports)
        log.info(nil, "fetching \(jobs.count) report(s) for \(properties.count) propert\(properties.count == 1 ? "y" : "ies") as of \(asOf.iso), \(parallel) at a time, into \(landing.runDirectory)")
        let total = jobs.count
        let entries = try RealPageFetch.run(jobs, asOf: asOf, client: client, landing: landing, parallel: parallel) { entry, done in
            // One line per artifact as it ends, so a long run shows progress and failures at once.
            if let error = entry.error {
                log.error("\(entry.pms)/\(entry.subject)", error)
            } else {
                log.info(nil, "[\(done)/\(total)] \(entry.pms)/\(entry.subject) \(entry.size ?? 0) bytes")
            }
        }

        for entry in entries {
            if let path = entry.path, entry.error == nil {
                let date = entry.asOf ?? asOf.iso
                output.write("landed  \(path)  as of \(date)  \(entry.size ?? 0) bytes\n")
            } else {
                output.write("failed  \(entry.pms)/\(entry.subject)\n")
            }
        }
        output.flush()
        let failed = entries.filter { $0.error != nil }
        let landed = entries.count - failed.count
        log.info(nil, "\(landed) of \(entries.count) artifact(s) landed; manifest: \(landing.manifestPath)")
        if failed.isEmpty { return .success }
        log.error(nil, "\(failed.count) of \(entries.count) artifact(s) failed: \(failed.map { "\($0.pms)/\($0.subject)" }.joined(separator: ", "))")
        return landed == 0 ? .failure : .partial
    }

    private func selectedProperties(_ configuration: Configuration) throws -> [Property] {
        guard !propertyKeys.isEmpty else {
            let all = configuration.properties.filter { $0.pms == .realpage }
            guard !all.isEmpty else { throw ConfigurationError("\(global.configPath): no RealPage properties in the registry") }
            return all
        }
        var seen = Set<String>()
        return try propertyKeys.filter { seen.insert($0).inserted }.map { key in
            guard let property = configuration.property(key: key) else {
                throw UsageError("ownerdash fetch: unknown property \"\(key)\" (not in \(global.configPath))")
            }
            guard property.pms == .realpage else {
                throw UsageError("ownerdash fetch: \(key) is a Yardi property; fetching from Yardi is not implemented yet")
            }
            return property
        }
    }

    private func selectedReports(_ configuration: Configuration) throws -> [ReportDefinition] {
        let catalogue = configuration.realpage.reports
        guard let names = reportNames else { return catalogue }
        guard !names.isEmpty else { throw UsageError("ownerdash fetch: --reports needs at least one report type") }
        return try names.map { name in
            guard let report = catalogue.first(where: { $0.parser == name }) else {
                throw UsageError("ownerdash fetch: unknown report \"\(name)\" (one of \(catalogue.map(\.parser).joined(separator: ", ")))")
            }
            return report
        }
    }

    /// Today's date on this machine's clock and time zone: the property dates RealPage keeps are local.
    static func today(now: Date = Date()) -> LocalDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return LocalDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? LocalDate(daysSinceEpoch: Int(now.timeIntervalSince1970 / 86_400))
    }
}
