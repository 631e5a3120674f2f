import CurlKit
import Foundation
import OwnerDashCore
import SOAP

/// One RPX call of a run: an operation for one RealPage property.
public struct RPXJob: Sendable, Equatable {
    public var property: Property
    public var operation: RPXOperation

    /// One operation for one property.
    public init(property: Property, operation: RPXOperation) {
        self.property = property; self.operation = operation
    }
}

/// RealPage RPX SOAP calls into the landing zone: each response lands as `realpage/<property>/<operation>.xml`.
public final class RPXClient: Sendable {
    /// The full partner endpoint (`.../rpxgateway/partner/<Partner>/<Partner>.svc`).
    public let url: String
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
    public func request(_ operation: RPXOperation, property: Property, asOf: LocalDate) throws -> SOAPRequest {
        guard let siteID = property.siteID else {
            throw LandingError("property \(property.key) has no RealPage site_id in the registry")
        }
        let auth = RPXAuth(pmcID: pmcID, siteID: siteID, licenseKey: licenseKey, username: username, password: password)
        return operation.request(url: url, auth: auth, asOf: asOf.iso)
    }

    /// Calls one operation and lands its response; never throws (the entry carries the error).
    public func fetch(_ operation: RPXOperation, property: Property, asOf: LocalDate, into landing: LandingZone) -> ManifestEntry {
        SOAPLanding.fetch(pms: .realpage, property: property.key, operation: operation.name, expectedRoot: operation.payloadRoot,
                          asOf: asOf, landing: landing, http: http, limiter: limiter, redactor: redactor,
                          optional: operation.isOptional) {
            try request(operation, property: property, asOf: asOf)
        }
    }
}
