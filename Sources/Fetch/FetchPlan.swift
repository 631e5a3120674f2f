import CurlKit
import Foundation
import OwnerDashCore
import SOAP

/// A `--reports` selection that names nothing fetchable; the CLI prints it as a usage error (exit 1).
public struct FetchSelectionError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What one fetch run downloads and the clients it needs, from the registry, `--reports` and the credentials.
///
/// Shared by `ownerdash fetch` and `ownerdash ingest`, so both select artifacts and build clients the same way.
/// Every configuration problem (no token, no endpoint, a bad credentials file) is found here, before a run
/// directory exists.
public struct FetchPlan {
    /// Every artifact to fetch: reports, then RPX operations, then Yardi operations.
    public let jobs: [FetchJob]
    /// The RealPage reporting client; nil when no report is fetched.
    public let reports: RealPageReportClient?
    /// The RPX SOAP client; nil when no RPX operation is fetched.
    public let rpx: RPXClient?
    /// The Yardi SOAP client; nil when no Yardi operation is fetched.
    public let yardi: YardiClient?
    /// Catalogue reports left out of a default run because their id or key is unknown: one line each, naming what
    /// to configure (`ReportDefinition.fetchRefusal`).
    public let refused: [String]
    /// Each property's ledger fetch as planned (empty: every ledger whole, as a bare `fetch`).
    public let ledger: [String: LedgerFetch]

    /// Plans the fetch of `properties`. `reportNames` is the `--reports` list (nil: every report and RPX operation fetched
    /// nightly, the latter when an RPX license key is configured, and every Yardi operation). Throws `FetchSelectionError` for a selection
    /// that names nothing or an unknown artifact, `ConfigurationError` for missing credentials or endpoints.
    /// `ledger`: each property's ledger fetch (`LedgerPlanner.plan`, from the run history); a property without one gets
    /// its whole ledger, as a bare `fetch` does.
    public init(configuration: Configuration, configPath: String, properties: [Property], reportNames: [String]?,
                environment: [String: String], caBundle: String? = nil, ledger: [String: LedgerFetch] = [:]) throws {
        let credentials: Credentials
        do {
            credentials = try Credentials(environment: environment)
        } catch let error as CredentialError {
            throw ConfigurationError(error.description)
        }
        self.ledger = ledger
        let (selected, rpxOperations, operations) = try Self.selectedArtifacts(configuration, names: reportNames,
                                                                               credentials: credentials)
        // Named in --reports, a report that cannot be requested is refused outright; in a default run it is left out.
        if reportNames != nil, let refusal = selected.lazy.compactMap({ $0.fetchRefusal(configPath: configPath) }).first {
            throw FetchSelectionError(refusal)
        }
        let reports = selected.filter { $0.fetchRefusal(configPath: configPath) == nil }
        refused = selected.compactMap { $0.fetchRefusal(configPath: configPath) }
        let realpage = properties.filter { $0.pms == .realpage }
        let reportJobs = RealPageFetch.jobs(properties: realpage, reports: reports)
        let rpxJobs = realpage.flatMap { RPXJob.jobs(property: $0, operations: rpxOperations, ledger: ledger[$0.key]) }
        let yardiJobs = YardiFetch.jobs(properties: properties.filter { $0.pms == .yardi }, operations: operations,
                                        ledger: ledger)
        guard !reportJobs.isEmpty || !rpxJobs.isEmpty || !yardiJobs.isEmpty else {
            throw FetchSelectionError("nothing to fetch: --reports names no artifact of the selected properties' PMS")
        }
        self.reports = reportJobs.isEmpty ? nil
            : try Self.reportClient(configuration, configPath: configPath, credentials: credentials,
                                    environment: environment, caBundle: caBundle)
        rpx = rpxJobs.isEmpty ? nil
            : try Self.rpxClient(configuration, configPath: configPath, credentials: credentials,
                                 environment: environment, caBundle: caBundle)
        yardi = yardiJobs.isEmpty ? nil
            : try Self.yardiClient(configuration, configPath: configPath, credentials: credentials, operations: operations,
                                   environment: environment, caBundle: caBundle)
        // Property by property: the ingest loads and syncs a property as soon as its last artifact has ended, while the
        // next ones are fetched (IngestRun), so the first properties must end first. The properties whose ledger is
        // pulled whole on its refresh night come first, then the rest, each group in the selection's order: their
        // syncs are checked against a full rebuild, whose TEMP twins of the charges and payments a sync by change
        // does without (Synchronizer.prepareTwins), and each switch from one kind to the other made and dropped those
        // twins, after which SQLite compiled every rule again (a night's 30 properties: 1,763 recompiles in ten such
        // switches, 727-955 grouped). The largest answers also start first.
        let refreshFirst = properties.filter { ledger[$0.key]?.isRefresh == true }
            + properties.filter { ledger[$0.key]?.isRefresh != true }
        jobs = refreshFirst.inSelectionOrder(reportJobs.map(FetchJob.report) + rpxJobs.map(FetchJob.rpx)
                                             + yardiJobs.map(FetchJob.yardi), property: \.propertyKey)
    }

    /// Fetches every job into `landing`, `parallel` at a time; `progress` is called as each artifact ends.
    public func run(asOf: LocalDate, landing: LandingZone, parallel: Int,
                    progress: @escaping @Sendable (ManifestEntry, Int) -> Void = { _, _ in }) throws -> [ManifestEntry] {
        try FetchBatch.run(jobs, asOf: asOf, reports: reports, rpx: rpx, yardi: yardi, landing: landing,
                           parallel: parallel, progress: progress)
    }

    // MARK: - Selection

    /// The RealPage reports, RPX operations and Yardi operations named by --reports. Default: every report fetched
    /// nightly (`ReportDefinition.nightly`) and every Yardi operation, and the RPX operations fetched nightly
    /// (`RPXOperation.fetchedNightly`) when an RPX license key is configured.
    private static func selectedArtifacts(_ configuration: Configuration, names: [String]?,
                                          credentials: Credentials) throws -> ([ReportDefinition], [RPXOperation], [YardiOperation]) {
        let catalogue = configuration.realpage.reports
        guard let names else {
            let rpx = credentials["REALPAGE_RPX_LICENSE_KEY"] == nil ? [] : RPXOperation.allCases.filter(\.fetchedNightly)
            return (catalogue.filter(\.fetchedNightly), rpx, YardiOperation.catalogue)
        }
        guard !names.isEmpty else { throw FetchSelectionError("--reports needs at least one report type or operation") }
        var reports: [ReportDefinition] = []
        var rpx: [RPXOperation] = []
        var operations: [YardiOperation] = []
        for name in names {
            if let report = catalogue.first(where: { $0.parser == name }) {
                if !reports.contains(report) { reports.append(report) }
            } else if name.lowercased() == "rpx" {
                rpx += RPXOperation.allCases.filter { !rpx.contains($0) }
            } else if let operation = RPXOperation(rawValue: name.lowercased()) {
                if !rpx.contains(operation) { rpx.append(operation) }
            } else if let operation = YardiOperation.catalogue.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
                if !operations.contains(operation) { operations.append(operation) }
            } else {
                throw FetchSelectionError("unknown report or operation \"\(name)\" (reports: \(catalogue.map(\.parser).joined(separator: ", ")); "
                                          + "RPX: rpx or \(RPXOperation.allCases.map(\.name).joined(separator: ", ")); "
                                          + "Yardi operations: \(YardiOperation.catalogue.map(\.name).joined(separator: ", ")))")
            }
        }
        return (reports, rpx, operations)
    }

    // MARK: - Clients

    static func rpxClient(_ configuration: Configuration, configPath: String, credentials: Credentials,
                                  environment: [String: String], caBundle: String?) throws -> RPXClient {
        guard let url = Credentials.rpxURL(configured: configuration.realpage.rpxURL, environment: environment),
              url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw ConfigurationError("no http(s) RPX endpoint: set OWNERDASH_REALPAGE_RPX_URL or realpage.rpx_url in \(configPath)")
        }
        try EndpointPolicy.requireSecure(url, what: "RPX endpoint (OWNERDASH_REALPAGE_RPX_URL or realpage.rpx_url)",
                                         environment: environment)
        do {
            return try RPXClient(url: url, pmcID: configuration.pmcID, credentials: credentials, caBundle: caBundle)
        } catch let error as CredentialError {
            throw ConfigurationError(error.description)
        }
    }

    static func reportClient(_ configuration: Configuration, configPath: String, credentials: Credentials,
                                     environment: [String: String], caBundle: String?) throws -> RealPageReportClient {
        let tokens: TokenSource
        do {
            tokens = try TokenSource(environment: credentials.values)
        } catch let error as CredentialError {
            throw ConfigurationError(error.description)
        }
        var settings = RealPageReportSettings(baseURL: RealPageReportSettings.baseURL(configuration: configuration,
                                                                                       environment: environment),
                                              pmcID: configuration.pmcID)
        settings.http.caBundle = caBundle
        guard settings.baseURL.hasPrefix("http://") || settings.baseURL.hasPrefix("https://") else {
            throw ConfigurationError("RealPage reports URL \"\(settings.baseURL)\" is not an http(s) URL (OWNERDASH_REALPAGE_REPORTS_URL or realpage.reports_url)")
        }
        try EndpointPolicy.requireSecure(settings.baseURL, what: "RealPage reports URL (OWNERDASH_REALPAGE_REPORTS_URL or realpage.reports_url)",
                                         environment: environment)
        return RealPageReportClient(settings: settings, tokens: tokens)
    }

    static func yardiClient(_ configuration: Configuration, configPath: String, credentials: Credentials,
                                    operations: [YardiOperation], environment: [String: String],
                                    caBundle: String?) throws -> YardiClient {
        guard let base = Credentials.yardiBaseURL(configured: configuration.yardi?.url, environment: environment),
              base.hasPrefix("http://") || base.hasPrefix("https://") else {
            throw ConfigurationError("no http(s) Yardi web-services URL: set OWNERDASH_YARDI_URL or yardi.url in \(configPath)")
        }
        try EndpointPolicy.requireSecure(base, what: "Yardi web-services URL (OWNERDASH_YARDI_URL or yardi.url)",
                                         environment: environment)
        var settings = YardiFetchSettings(baseURL: base, configured: configuration.yardi?.interfaces ?? [:])
        settings.http.caBundle = caBundle
        do {
            return try YardiClient(settings: settings, credentials: credentials, operations: operations)
        } catch let error as CredentialError {
            throw ConfigurationError(error.description)
        }
    }
}

/// Where credentials may be sent: every request carries one (a bearer token, the RPX license key, the Yardi password
/// in the SOAP body), so a plain http:// endpoint is accepted only on this machine (loopback: 127.0.0.0/8, ::1,
/// localhost), or when the operator sets `OWNERDASH_ALLOW_INSECURE_HTTP=1` (a test gateway on a private network).
/// Redirects are checked by CurlKit's HTTPClient (never to another origin or from https to http).
public enum EndpointPolicy {
    /// The variable that lets http:// reach a host other than this machine.
    public static let allowInsecureVariable = "OWNERDASH_ALLOW_INSECURE_HTTP"

    /// Throws a `ConfigurationError` naming the endpoint when `url` is http:// to a host other than loopback and the
    /// operator has not allowed it.
    public static func requireSecure(_ url: String, what: String, environment: [String: String]) throws {
        guard url.lowercased().hasPrefix("http://"), !isLoopback(HTTPRequest(url: url).host) else { return }
        if ["1", "true", "yes"].contains((environment[allowInsecureVariable] ?? "").lowercased()) { return }
        throw ConfigurationError("""
            \(what) is plain http:// to \(HTTPRequest(url: url).host): credentials would travel in clear; use https://, \
            or set \(allowInsecureVariable)=1 to allow it
            """)
    }

    /// `host` (with or without a port) names this machine.
    static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if let at = name.lastIndex(of: "@") { name = String(name[name.index(after: at)...]) }
        if name.hasPrefix("["), let end = name.firstIndex(of: "]") {
            name = String(name[name.index(after: name.startIndex)..<end])
        } else if let colon = name.lastIndex(of: ":") {
            name = String(name[..<colon])
        }
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }
}
