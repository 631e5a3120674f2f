import Fetch
import Foundation
import OwnerDashCore
import SOAP

/// `ownerdash fetch`: download RealPage reports and Yardi SOAP responses into the landing zone (no load).
struct FetchCommand: Command {
    static let names = ["fetch"]
    static let abstract = "Download RealPage reports and Yardi SOAP data into data/landing/<run_id>/ (load them with 'load --run')."
    static let arguments: [ArgumentSpec] = [
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every property of the PMS"),
        .option("--pms", "realpage|yardi", help: "only properties on this source system; default: both"),
        .option("--reports", "a,b", help: "report types, RPX operations (or 'rpx' for all \(RPXOperation.allCases.count)) and Yardi operations, comma-separated; default: all but the catalogue's \"nightly\": false reports"),
        .option("--as-of", "YYYY-MM-DD", help: "report date (default: today); a date past the property date is retried up to 3 days earlier"),
        .option("--parallel", "N", help: "downloads at a time, 1-32 (default 4)"),
        .option("--ca-bundle", "FILE", help: "PEM file of CA certificates to verify TLS against (default: the system's); verification is never off"),
    ]
    static let discussion = """
        Each report is requested from the RealPage reporting API (create a report instance, poll until it
        is ready, download it) and lands in data/landing/<run_id>/realpage/<property>/<report>.xlsx only
        once complete and checked; manifest.json in the run directory lists every artifact with its url,
        status, size, sha256, timings and error. stdout: the run id, then one line per artifact. Without
        --reports, a report the catalogue marks "nightly": false (one no answer reads) is not requested.

        Yardi properties: each operation (GetPropertyConfigurations, GetUnitInformation,
        GetResidentsByStatus, GetResidentLeaseCharges_Login, GetResidentTransactions_Login,
        AvailableUnits_Login, GetYardiGuestActivity_Login, GetServiceRequest_Search, GetInvoiceRegister) lands as
        data/landing/<run_id>/yardi/<property>/<Operation>.xml once it is HTTP 200, XML, and free of SOAP
        faults and error messages; an entity without the ItfServiceRequests or ItfVendorInvoicing license
        skips that operation (not a failure). --reports takes report types and operation names alike.

        RealPage RPX SOAP (getsitelist, getbuildings, unitlist, getunitlist, getresidentlistinfo,
        getleaseinfo, getrentableitems, getresidentledger, getscheduledcharges) lands as
        data/landing/<run_id>/realpage/<property>/<operation>.xml beside the reports: by default whenever
        REALPAGE_RPX_LICENSE_KEY is set (all but \(RPXOperation.leftOutNightly), which no answer reads),
        or when --reports names them ("rpx" selects all \(RPXOperation.allCases.count)).
        Endpoint: OWNERDASH_REALPAGE_RPX_URL, else realpage.rpx_url.

        Credentials (environment, or a 0600 JSON file named by OWNERDASH_CREDENTIALS; the environment
        wins): REALPAGE_RPX_LICENSE_KEY (+ optional REALPAGE_RPX_USERNAME, REALPAGE_RPX_PASSWORD);
        REALPAGE_TOKEN, or REALPAGE_TOKEN_COMMAND (a command that prints a fresh token; it is run
        again when the token expires); YARDI_USERNAME, YARDI_PASSWORD, YARDI_SERVER_NAME, YARDI_DATABASE,
        YARDI_PLATFORM (default "SQL Server"), YARDI_INTERFACE_ENTITY, YARDI_INTERFACE_LICENSE (each of the
        last two may be overridden per interface with a _<INTERFACE> suffix, e.g.
        YARDI_INTERFACE_LICENSE_ITFILSGUESTCARD). Base URLs: OWNERDASH_REALPAGE_REPORTS_URL, else the
        configuration's realpage.reports_url; OWNERDASH_YARDI_URL, else yardi.url.

        Exit codes: 0 every artifact landed; 2 some failed (each named on stderr, the others landed);
        3 nothing landed.
        """

    let global: GlobalOptions
    let selection: PropertySelection
    let reportNames: [String]?
    let asOf: LocalDate
    let parallel: Int
    let caBundle: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        selection = try PropertySelection(parsed, command: "ownerdash fetch")
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
        parallel = try parsed.number("--parallel", in: 1...32, default: 4, command: "ownerdash fetch")
        caBundle = parsed.value("--ca-bundle")
        if let caBundle, !FileManager.default.isReadableFile(atPath: caBundle) {
            throw UsageError("ownerdash fetch: --ca-bundle \"\(caBundle)\" is not a readable file")
        }
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let configuration = try global.configuration()
        let properties = try selection.resolve(configuration, configPath: global.configPath, command: "ownerdash fetch")
        let plan: FetchPlan
        do {
            plan = try FetchPlan(configuration: configuration, configPath: global.configPath, properties: properties,
                                 reportNames: reportNames, environment: ProcessInfo.processInfo.environment,
                                 caBundle: caBundle)
        } catch let error as FetchSelectionError {
            throw UsageError("ownerdash fetch: \(error.description)")
        }

        for refusal in plan.refused { log.warning(nil, "not fetched: \(refusal)") }
        try global.dataDirectory.create()
        let runID = RunID.new()
        let landing = try LandingZone(dataDirectory: global.dataDirectory, runID: runID)
        let output = StandardOutput()
        output.write("run \(runID.value)\n")
        output.flush()

        log.info(nil, "fetching \(plan.jobs.count) artifact(s) for \(properties.count) propert\(properties.count == 1 ? "y" : "ies") as of \(asOf.iso), \(parallel) at a time, into \(landing.runDirectory)")
        let total = plan.jobs.count
        let entries = try plan.run(asOf: asOf, landing: landing, parallel: parallel) { entry, done in
            // One line per artifact as it ends, so a long run shows progress and failures at once.
            if let error = entry.error {
                log.error("\(entry.pms)/\(entry.subject)", error)
            } else if let skipped = entry.skipped {
                log.warning("\(entry.pms)/\(entry.subject)", "not fetched: \(skipped)")
            } else {
                log.info(nil, "[\(done)/\(total)] \(entry.pms)/\(entry.subject) \(entry.size ?? 0) bytes")
            }
            if let note = entry.reportIDNote { log.info("\(entry.pms)/\(entry.subject)", note) }
        }

        for entry in entries {
            if entry.outcome == .landed, let path = entry.path {
                let date = entry.asOf ?? asOf.iso
                output.write("landed  \(path)  as of \(date)  \(entry.size ?? 0) bytes\n")
            } else if entry.outcome == .skipped {
                output.write("skipped \(entry.pms)/\(entry.subject)\n")
            } else {
                output.write("failed  \(entry.pms)/\(entry.subject)\n")
            }
        }
        output.flush()
        let failed = entries.filter { $0.outcome == .failed }
        let counts = FetchCounts(entries)
        log.info(nil, "fetched \(counts.summary); manifest: \(landing.manifestPath)")
        if failed.isEmpty { return .success }
        log.error(nil, "\(failed.count) of \(entries.count) artifact(s) failed: \(failed.map { "\($0.pms)/\($0.subject)" }.joined(separator: ", "))")
        return counts.fetched == 0 ? .failure : .partial
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
