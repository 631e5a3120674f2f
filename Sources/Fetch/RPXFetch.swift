import CurlKit
import Foundation
import OwnerDashCore
import SOAP

/// One RPX call of a run: an operation for one RealPage property.
public struct RPXJob: Sendable, Equatable {
    public var property: Property
    public var operation: RPXOperation
    /// The part of getresidentledger an incremental night asks for; nil: the whole ledger window (`ledgerMonths`).
    public var ledger: LedgerScope?

    /// One operation for one property.
    public init(property: Property, operation: RPXOperation, ledger: LedgerScope? = nil) {
        self.property = property; self.operation = operation; self.ledger = ledger
    }

    /// The RPX calls of one property: each operation once, getresidentledger of a property whose `ledger` plan is
    /// incremental as two calls instead: the transactions dated in the window, then every charge still open (a full
    /// plan that reconciles makes those two and the full one; a plan with households whole, those two and one call
    /// per household for its whole ledger window).
    public static func jobs(property: Property, operations: [RPXOperation], ledger: LedgerFetch?) -> [RPXJob] {
        operations.flatMap { operation -> [RPXJob] in
            guard operation == .getresidentledger, let ledger, let window = ledger.windowedCalls else {
                return [RPXJob(property: property, operation: operation)]
            }
            return [RPXJob(property: property, operation: operation, ledger: LedgerScope(.dated, window: window)),
                    RPXJob(property: property, operation: operation, ledger: LedgerScope(part: .openItems))]
                + (ledger.isFull ? [RPXJob(property: property, operation: operation)] : [])
                + ledger.wholeHouseholds.map { household in
                    RPXJob(property: property, operation: operation, ledger: LedgerScope(
                        part: .household, from: RPXOperation.ledgerStart(asOf: window.to.iso), to: window.to.iso,
                        household: household))
                }
        }
    }
}

/// RealPage RPX SOAP calls into the landing zone: each response lands as `realpage/<property>/<operation>.xml`.
public final class RPXClient: Sendable {
    /// The full partner endpoint (`.../rpxgateway/partner/<Partner>/<Partner>.svc`).
    public let url: String
    /// What a household's whole ledger's artifact name carries after `getresidentledger.`: `resh-<ReshID>.xml`.
    public static let householdArtifact = "resh-"
    private let pmcID: String
    private let licenseKey: String
    private let username: String?
    private let password: String?
    private let http: HTTPClientSettings
    private let redactor: Redactor
    private let limiter: HostLimiter

    /// `REALPAGE_RPX_LICENSE_KEY` is required; `REALPAGE_RPX_USERNAME`/`_PASSWORD` are sent when set.
    public init(url: String, pmcID: String, credentials: Credentials, perHostLimit: Int = 8, caBundle: String? = nil) throws {
        guard let key = credentials["REALPAGE_RPX_LICENSE_KEY"] else {
            throw CredentialError("no RPX license key: set REALPAGE_RPX_LICENSE_KEY in the environment or in the "
                                  + "\(Credentials.fileVariable) file")
        }
        self.url = url
        self.pmcID = pmcID
        licenseKey = key
        username = credentials["REALPAGE_RPX_USERNAME"]
        password = credentials["REALPAGE_RPX_PASSWORD"]
        var http = HTTPClientSettings()
        http.totalTimeout = 300
        http.caBundle = caBundle
        self.http = http
        redactor = credentials.redactor
        limiter = HostLimiter(perHost: perHostLimit)
    }

    /// The request for one operation and property (the body holds the license key: never log it).
    /// `ledger` (getresidentledger only): the part of the ledger to ask for instead of the whole window.
    public func request(_ operation: RPXOperation, property: Property, asOf: LocalDate,
                        ledger: LedgerScope? = nil) throws -> SOAPRequest {
        guard let siteID = property.siteID else {
            throw LandingError("property \(property.key) has no RealPage site_id in the registry")
        }
        let auth = RPXAuth(pmcID: pmcID, siteID: siteID, licenseKey: licenseKey, username: username, password: password)
        var arguments: [SOAPParameter]?
        if operation == .getresidentledger, let ledger {
            // allopen true makes RPX ignore the dates: the whole window is sent so the request stays well-formed.
            arguments = RPXOperation.ledgerArguments(from: ledger.from ?? RPXOperation.ledgerStart(asOf: asOf.iso),
                                                     to: ledger.to ?? asOf.iso, openItems: ledger.part == .openItems,
                                                     household: ledger.part == .household ? ledger.household : nil)
        }
        return operation.request(url: url, auth: auth, asOf: asOf.iso, arguments: arguments)
    }

    /// Calls one operation and lands its response; never throws (the entry carries the error). A part of the ledger
    /// (`ledger`) lands as `getresidentledger.<from>_<to>.xml`, `getresidentledger.open.xml` or
    /// `getresidentledger.resh-<ReshID>.xml`, with its scope in the manifest entry.
    public func fetch(_ operation: RPXOperation, property: Property, asOf: LocalDate, into landing: LandingZone,
                      ledger: LedgerScope? = nil) -> ManifestEntry {
        let artifact = ledger.map { scope in
            switch scope.part {
            case .openItems: "\(operation.name).open.xml"
            case .household: "\(operation.name).\(Self.householdArtifact)\(scope.household ?? "").xml"
            case .dated, .applied: "\(operation.name).\(scope.from ?? "")_\(scope.to ?? "").xml"
            }
        }
        return SOAPLanding.fetch(pms: .realpage, property: property.key, operation: operation.name,
                                 expectedRoot: operation.payloadRoot, records: operation.listedRecord, asOf: asOf,
                                 landing: landing, http: http, limiter: limiter, redactor: redactor,
                                 optional: operation.isOptional, artifact: artifact, ledger: ledger) {
            try request(operation, property: property, asOf: asOf, ledger: ledger)
        }
    }
}
