import CurlKit
import Foundation
import OwnerDashCore
import SOAP

/// One cheap authenticated call per vendor the registry uses, with the clients and credentials a fetch would use,
/// nothing landed and no tenant data asked for: for `ownerdash doctor`.
///
/// - RealPage reports: a bearer token (`REALPAGE_TOKEN`, or `REALPAGE_TOKEN_COMMAND` run once).
/// - RealPage RPX: `getsitelist` for the first RealPage property (the PMC's site list).
/// - Yardi Voyager: `GetPropertyConfigurations` (the database's property list).
public enum CredentialProbe {
    /// One vendor's answer: what was tried and why it failed, in one line.
    public struct Outcome: Sendable, Equatable {
        public var vendor: String
        public var failure: String?
        public var detail: String
    }

    /// Probes every vendor the configuration's properties are on; each outcome names what to fix.
    public static func run(configuration: Configuration, configPath: String, environment: [String: String],
                           asOf: LocalDate) -> [Outcome] {
        let credentials: Credentials
        do {
            credentials = try Credentials(environment: environment)
        } catch {
            return [Outcome(vendor: "credentials", failure: "\(error)", detail: "")]
        }
        var outcomes: [Outcome] = []
        if let property = configuration.properties.first(where: { $0.pms == .realpage }) {
            outcomes.append(probe("RealPage reports") {
                let tokens = try TokenSource(environment: credentials.values)
                _ = try tokens.token()
                return "a bearer token was issued"
            })
            outcomes.append(probe("RealPage RPX") {
                let client = try FetchPlan.rpxClient(configuration, configPath: configPath, credentials: credentials,
                                                     environment: environment, caBundle: nil)
                let request = try client.request(.getsitelist, property: property, asOf: asOf)
                try call(request, operation: RPXOperation.getsitelist.name, root: RPXOperation.getsitelist.payloadRoot,
                         redactor: credentials.redactor)
                return "getsitelist answered for \(property.key)"
            })
        }
        if let property = configuration.properties.first(where: { $0.pms == .yardi }) {
            outcomes.append(probe("Yardi") {
                let operation = YardiOperation.getPropertyConfigurations
                let client = try FetchPlan.yardiClient(configuration, configPath: configPath, credentials: credentials,
                                                       operations: [operation], environment: environment, caBundle: nil)
                let request = try client.request(operation, property: property, asOf: asOf)
                try call(request, operation: operation.name, root: operation.payloadRoot, redactor: credentials.redactor)
                return "\(operation.name) answered"
            })
        }
        return outcomes
    }

    /// Runs one probe; its error, redacted to one line, is the failure.
    static func probe(_ vendor: String, _ body: () throws -> String) -> Outcome {
        do {
            return Outcome(vendor: vendor, failure: nil, detail: try body())
        } catch {
            let line = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
            return Outcome(vendor: vendor, failure: line, detail: "")
        }
    }

    /// Sends a SOAP request once and checks the answer as a fetch would (a fault, a login refused, a wrong root).
    static func call(_ request: SOAPRequest, operation: String, root: String, redactor: Redactor) throws {
        var settings = HTTPClientSettings()
        settings.totalTimeout = 60
        let client = HTTPClient(settings: settings, redactor: redactor)
        let response = try client.send(HTTPRequest(method: "POST", url: request.url, headers: request.headers, body: request.body))
        _ = try SOAPResponse(bytes: response.body, status: response.status, operation: operation, expectedRoot: root)
    }
}
