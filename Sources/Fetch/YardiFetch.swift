import CurlKit
import Foundation
import OwnerDashCore
import SOAP

/// Where and how Yardi is called: web-services base, interface names, retries.
public struct YardiFetchSettings: Sendable {
    /// `https://host/webshare/webservices` (no trailing slash); `<base>/<Interface>.asmx` is posted to.
    public var baseURL: String
    /// `.asmx` names per interface (the configuration's `yardi.interfaces`, else Yardi's standard names).
    public var interfaceNames: [YardiOperation.Interface: String]
    public var http: HTTPClientSettings
    /// Concurrent requests allowed to one host, whatever the number of worker threads.
    public var perHostLimit = 8

    /// Settings for a base URL; `interfaces` are the configuration's `yardi.interfaces`.
    public init(baseURL: String, configured interfaces: [String: String] = [:]) {
        var trimmed = baseURL
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.baseURL = trimmed
        var names: [YardiOperation.Interface: String] = [:]
        for interface in YardiOperation.Interface.allCases {
            names[interface] = interfaces[interface.rawValue] ?? interface.defaultName
        }
        interfaceNames = names
        var http = HTTPClientSettings()
        http.connectTimeout = 10
        http.totalTimeout = 300  // a full 24-month ledger is tens of MB
        http.retry = RetryPolicy(maxAttempts: 4, baseDelay: 0.5, maxDelay: 30)
        self.http = http
    }

    /// The `.asmx` name to call for an interface.
    public func interfaceName(_ interface: YardiOperation.Interface) -> String {
        interfaceNames[interface] ?? interface.defaultName
    }
}

/// One Yardi call of a run: an operation for one property (for GetResidentLeaseCharges_Login, one PostMonth).
public struct YardiJob: Sendable, Equatable {
    public var property: Property
    public var operation: YardiOperation
    /// 0: the run's as-of month; n: the month n months earlier (GetResidentLeaseCharges_Login's PostMonth).
    public var monthsBack: Int
    /// The days a windowed ledger call asks for (`FromDate`, `ToDate`); nil for every other call.
    public var window: LedgerWindow?

    /// One operation for one property; `monthsBack` months before the run's as-of month.
    public init(property: Property, operation: YardiOperation, monthsBack: Int = 0, window: LedgerWindow? = nil) {
        self.property = property; self.operation = operation; self.monthsBack = monthsBack; self.window = window
    }
}

/// Yardi Voyager SOAP calls into the landing zone: each response lands as `yardi/<property>/<Operation>.xml`
/// once it is HTTP 200, parses as XML and carries its payload without a fault or error message.
public final class YardiClient: Sendable {
    public let settings: YardiFetchSettings
    private let logins: [YardiOperation.Interface: YardiLogin]
    private let redactor: Redactor
    private let limiter: HostLimiter

    /// Resolves the credential block of every interface up front, so a missing variable is one clear error.
    public init(settings: YardiFetchSettings, credentials: Credentials, operations: [YardiOperation] = YardiOperation.catalogue) throws {
        self.settings = settings
        var logins: [YardiOperation.Interface: YardiLogin] = [:]
        // In catalogue order, so a missing variable is reported the same way every run.
        for interface in YardiOperation.Interface.allCases where operations.contains(where: { $0.interface == interface }) {
            logins[interface] = try credentials.yardiLogin(interface: settings.interfaceName(interface))
        }
        self.logins = logins
        redactor = credentials.redactor
        limiter = HostLimiter(perHost: settings.perHostLimit)
    }

    /// The request for one operation and property (the body holds the credentials: never log it).
    public func request(_ operation: YardiOperation, property: Property, asOf: LocalDate,
                        window: LedgerWindow? = nil) throws -> SOAPRequest {
        guard let code = property.propertyCode else {
            throw LandingError("property \(property.key) has no Yardi property_code in the registry")
        }
        guard let login = logins[operation.interface] else {
            throw LandingError("no Yardi credentials resolved for \(settings.interfaceName(operation.interface))")
        }
        return operation.request(baseURL: settings.baseURL, interfaceName: settings.interfaceName(operation.interface),
                                 login: login, propertyCode: code, asOfYear: asOf.year, asOfMonth: asOf.month,
                                 window: window.map { ($0.from.iso, $0.to.iso) })
    }

    /// Calls one operation and lands its response; records the entry in the manifest and returns it
    /// (with `error` set when nothing landed). Never throws: a batch goes on.
    /// `monthsBack` > 0 asks for an earlier month (GetResidentLeaseCharges_Login's PostMonth): the response lands as
    /// `<Operation>.<YYYY-MM>.xml` with the first of that month as its as-of date, a snapshot of its own. The as-of
    /// month's lease charges are dated its first too (the answer is the schedule in effect that day): each night's
    /// answer replaces the month's snapshot instead of adding one per night.
    /// A windowed ledger call (`window`) lands as `<Operation>.<from>_<to>.xml`, as of the window's last day, with the
    /// window in its manifest entry (`ledger_from`, `ledger_to`): the loader merges it into the ledger.
    public func fetch(_ operation: YardiOperation, property: Property, asOf: LocalDate, into landing: LandingZone,
                      monthsBack: Int = 0, window: LedgerWindow? = nil) -> ManifestEntry {
        let index = asOf.year * 12 + asOf.month - 1 - monthsBack
        let firstOfMonth = LocalDate(year: index / 12, month: index % 12 + 1, day: 1) ?? asOf
        var month = operation == .getResidentLeaseCharges || monthsBack > 0 ? firstOfMonth : asOf
        var artifact = monthsBack == 0 ? nil : "\(operation.name).\(month.iso.prefix(7)).xml"
        if let window {
            month = window.to
            artifact = "\(operation.name).\(window).xml"
        }
        // ItfServiceRequests and ItfVendorInvoicing are licensed apart from the resident interfaces: an entity without
        // one has no work orders (or expenses) from Yardi (the entry is skipped, the run does not fail).
        return SOAPLanding.fetch(pms: .yardi, property: property.key, operation: operation.name,
                                 expectedRoot: operation.payloadRoot, records: operation.listedRecord, asOf: month,
                                 landing: landing, http: settings.http, limiter: limiter, redactor: redactor,
                                 optional: operation.interface.isLicensedApart, artifact: artifact,
                                 ledger: window.map { LedgerScope(operation == .getResidentTransactionsByApplicationDate ? .applied : .dated,
                                                                   window: $0) }) {
            try request(operation, property: property, asOf: month, window: window)
        }
    }
}

/// Runs a batch of Yardi calls on a bounded number of threads.
public enum YardiFetch {
    /// Every (property, operation) pair, properties in the given order, operations in catalogue order;
    /// GetResidentLeaseCharges_Login once per month of its window (`leaseChargeMonths`), the as-of month first — on an
    /// incremental night only the months the ledger window touches (`leaseChargeMonths(for:)`).
    /// GetResidentTransactions_Login of a property whose `ledger` plan is incremental becomes the windowed calls
    /// instead: by charge date, then by application date, each in windows of at most 31 days (the WSDL's limit),
    /// oldest first; a full plan that reconciles makes those calls and the full one. A property with no plan gets the
    /// full ledger.
    public static func jobs(properties: [Property], operations: [YardiOperation],
                            ledger: [String: LedgerFetch] = [:]) -> [YardiJob] {
        properties.flatMap { property in
            operations.flatMap { operation -> [YardiJob] in
                if operation == .getResidentTransactions, let plan = ledger[property.key] {
                    // 31 days from FromDate to ToDate at most, both counted: a span of 30.
                    let windows = plan.windowedCalls.map { LedgerPlanner.chunks($0, maxSpan: YardiOperation.ledgerWindowDays - 1) } ?? []
                    let windowed = [YardiOperation.getResidentTransactionsByChargeDate, .getResidentTransactionsByApplicationDate]
                        .flatMap { windowed in windows.map { YardiJob(property: property, operation: windowed, window: $0) } }
                    return windowed + (plan.isFull ? [YardiJob(property: property, operation: operation)] : [])
                }
                let months = operation == .getResidentLeaseCharges ? leaseChargeMonths(for: ledger[property.key]) : 1
                return (0..<months).map { YardiJob(property: property, operation: operation, monthsBack: $0) }
            }
        }
    }

    /// How many post months of lease charges to ask for, the as-of month first: all `leaseChargeMonths` on a full
    /// pull (the first night, the scheduled refresh, a bare fetch); on an incremental night only the months from the
    /// window's first day to its last (a closed month's charges do not change, and the sync reads each charge as its
    /// latest snapshot stated it, so the earlier months stand from the last full pull). A failed night widens the
    /// window, and with it the months asked for.
    static func leaseChargeMonths(for plan: LedgerFetch?) -> Int {
        guard let window = plan?.window else { return YardiOperation.leaseChargeMonths }
        let months = (window.to.year * 12 + window.to.month) - (window.from.year * 12 + window.from.month) + 1
        return min(YardiOperation.leaseChargeMonths, max(1, months))
    }

    /// Fetches every job into `landing`, `parallel` at a time; `progress` is called once per job as it ends.
    public static func run(_ jobs: [YardiJob], asOf: LocalDate, client: YardiClient, landing: LandingZone, parallel: Int,
                           progress: @escaping @Sendable (ManifestEntry, Int) -> Void = { _, _ in }) -> [ManifestEntry] {
        let results = Locked([ManifestEntry?](repeating: nil, count: jobs.count))
        let done = Locked(0)
        WorkerPool.run(items: jobs.count, width: parallel) { index in
            let job = jobs[index]
            let entry = client.fetch(job.operation, property: job.property, asOf: asOf, into: landing, monthsBack: job.monthsBack,
                                     window: job.window)
            results.withLock { $0[index] = entry }
            done.withLock { count in
                count += 1
                progress(entry, count)
            }
        }
        return results.withLock { $0.compactMap { $0 } }
    }
}
