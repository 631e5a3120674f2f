import CurlKit
import Foundation
import OwnerDashCore
import SOAP

/// Calling one SOAP operation and landing its response as `<pms>/<property>/<operation>.xml`.
enum SOAPLanding {
    /// Lands the response only when it is HTTP 200, XML, free of faults and error messages, and has its payload root
    /// (a list answer's records held to their frame: `SOAPResponse.check(path:records:)`); records the manifest entry
    /// either way. Never throws.
    /// `optional`: the operation is licensed separately, so a "not authorized" fault means the property has no such
    /// data (the entry is `skipped`), not that the run failed. `artifact`: the landed file's name when one property
    /// calls the operation more than once in a run (default `<operation>.xml`). `records`: the element the payload
    /// lists its records in, which the check frames the answer by (`SOAPResponse.check(path:records:)`).
    static func fetch(pms: PMS, property: String, operation: String, expectedRoot: String, records: String? = nil,
                      asOf: LocalDate, landing: LandingZone, http: HTTPClientSettings, limiter: HostLimiter,
                      redactor: Redactor,
                      optional: Bool = false, artifact: String? = nil, ledger: LedgerScope? = nil,
                      request makeRequest: () throws -> SOAPRequest) -> ManifestEntry {
        let started = Date()
        var entry = ManifestEntry(pms: pms.rawValue, property: property, operation: operation,
                                  asOfRequested: asOf.iso, startedAt: Timestamp.iso(started, milliseconds: true))
        entry.asOf = asOf.iso
        entry.ledger = ledger
        do {
            let request = try makeRequest()
            entry.url = redactor.redact(request.url)
            // The body goes straight to the staging file and is checked from there, streamed: a ledger of any size is
            // never held in memory, so the fetch's memory stays flat however many run at once.
            let name = artifact ?? operation + ".xml"
            let staged = try landing.stagingPath(pms: pms, property: property, name: name)
            defer { landing.discard(staged: staged) }
            var tries = 0
            var landed: LandedArtifact?
            var digest: LandingZone.StagedDigest?
            while true {
                tries += 1
                let (response, attempts) = try SOAPTransport.send(request, to: staged, settings: http, limiter: limiter,
                                                                  redactor: redactor)
                entry.attempts += attempts
                entry.httpStatus = response.status
                digest = response.status == 200 ? landing.digest(staged: staged) : nil
                if let digest, let earlier = landing.alreadyLanded(digest, pms: pms, property: property, name: name) {
                    landed = earlier
                    break
                }
                do {
                    // Checked before landing: a fault or an error message in a 200 is a failure, not an artifact.
                    try SOAPResponse.check(path: staged, status: response.status, operation: operation,
                                           expectedRoot: expectedRoot, property: property, records: records)
                    break
                } catch let error as SOAPError {
                    // A 200 whose body is not XML was cut or garbled on the way: the same call usually comes back
                    // whole (three more times at most). Faults and error messages are answers, not accidents.
                    guard case .notXML = error.kind, response.status == 200, tries < 4 else { throw error }
                    entry.notes.append("a 200 answer was not XML (\(error.reason)); asked again")
                }
            }
            let artifact = try landed ?? landing.commit(staged: staged, pms: pms, property: property, name: name, digest: digest)
            entry.path = artifact.relativePath
            entry.object = artifact.object
            entry.size = artifact.size
            entry.sha256 = artifact.sha256
        } catch let error as SOAPError {
            if optional, case let .fault(_, message, detail) = error.kind, Self.isNotAuthorized(message + " " + (detail ?? "")) {
                entry.skipped = "the license key is not authorized for \(operation) at this site (\(redactor.redact(message)))"
            } else if optional, case let .fault(code, _, _) = error.kind, Self.isNotInContract(code) {
                entry.skipped = "the partner contract does not include \(operation) (fault \(code): the gateway does not "
                    + "offer it to this license)"
            } else if optional, Self.isUnlicensedInterface(error.kind) {
                entry.skipped = "the Yardi interface entity holds no license for \(operation) (\(redactor.redact(error.reason)))"
            } else {
                entry.error = redactor.redact(error.reason)
            }
        } catch {
            entry.error = redactor.redact("\(error)")
        }
        let finished = Date()
        entry.finishedAt = Timestamp.iso(finished, milliseconds: true)
        entry.seconds = (finished.timeIntervalSince(started) * 1000).rounded() / 1000
        do {
            try landing.record(entry)
        } catch {
            entry.error = (entry.error.map { $0 + "; " } ?? "") + "\(error)"
        }
        return entry
    }

    /// Yardi's refusal of an interface the entity is not licensed for (docs/yardi-soap.md: Messages "Interface Entity
    /// or license error", or the bare result code -3).
    static func isUnlicensedInterface(_ kind: SOAPError.Kind) -> Bool {
        switch kind {
        case .errorMessage(let message):
            message.range(of: "license error", options: .caseInsensitive) != nil
                || message.range(of: "not licensed", options: .caseInsensitive) != nil
        case .resultCode(let code):
            code == -3
        default:
            false
        }
    }

    /// RPX's refusal of an operation the license does not cover (docs/rpx-soap.md, "Errors").
    static func isNotAuthorized(_ text: String) -> Bool {
        text.range(of: "not authorized", options: .caseInsensitive) != nil
    }

    /// RPX's answer to an operation outside the partner's contract: WCF's `ActionNotSupported` fault (docs/rpx-soap.md,
    /// "Errors"); for an optional operation such as getunitlist it means the data is not offered, as a refusal does.
    static func isNotInContract(_ code: String) -> Bool {
        code.hasSuffix("ActionNotSupported")
    }
}

/// Posting a SOAP request with retries that know SOAP: connection errors, 429 and 5xx are retried,
/// except a 500 carrying a client fault (`soap:Client`, RPX `inv_Param`, `ActionNotSupported`) —
/// the same request would only fail the same way.
enum SOAPTransport {
    /// Posts `request` until it gets an answer worth keeping, each attempt's body written over the file at `path`.
    static func send(_ request: SOAPRequest, to path: String, settings: HTTPClientSettings, limiter: HostLimiter,
                     redactor: Redactor) throws -> (HTTPResponse, Int) {
        let http = HTTPRequest(method: "POST", url: request.url, headers: request.headers, body: request.body)
        let client = HTTPClient(settings: settings, redactor: redactor)
        if let reason = limiter.unreachableReason(http.host) { throw LandingError("not tried: \(redactor.redact(reason))") }
        var attempt = 0
        while true {
            attempt += 1
            do {
                let response = try limiter.withPermit(host: http.host) { try client.send(http, to: .file(path)) }
                let transient = response.status == 429
                    || ((500...599).contains(response.status) && !isClientFault(SOAPResponse.head(ofFile: path, count: 2048)))
                guard transient, attempt < settings.retry.maxAttempts else { return (response, attempt) }
                Thread.sleep(forTimeInterval: settings.retry.delay(
                    afterAttempt: attempt, retryAfter: RetryPolicy.retryAfterSeconds(response.headers["retry-after"])))
            } catch let error as HTTPError {
                guard error.isTransient, attempt < settings.retry.maxAttempts else {
                    limiter.noteFailure(http.host, error, attempts: attempt)
                    throw LandingError("\(redactor.redact(error.message)) (\(redactor.redact(request.url)), after \(attempt) attempt\(attempt == 1 ? "" : "s"))")
                }
                Thread.sleep(forTimeInterval: settings.retry.delay(afterAttempt: attempt, retryAfter: nil))
            }
        }
    }

    /// A fault whose code says the request itself is wrong: SOAP 1.1's `faultcode` `Client` (RPX: `inv_Param`,
    /// `ActionNotSupported`), or SOAP 1.2's `Code/Value` `Sender`, its name for the same thing.
    static func isClientFault(_ body: [UInt8]) -> Bool {
        let head = String(decoding: body.prefix(2048), as: UTF8.self)
        if let code = elementText("faultcode", in: head) {
            return code.contains("Client") || code.contains("inv_Param") || code.contains("ActionNotSupported")
        }
        guard let fault = head.range(of: "Fault>"), let code = elementText("Value", in: String(head[fault.upperBound...]))
        else { return false }
        return code.hasSuffix("Sender")
    }

    /// The text of the first `<name>` or `<prefix:name>` element (attributes allowed) in `head`; nil when there is
    /// none or it is cut off.
    private static func elementText(_ name: String, in head: String) -> Substring? {
        var from = head.startIndex
        while let found = head.range(of: name, range: from..<head.endIndex) {
            from = found.upperBound
            guard let tag = head[..<found.lowerBound].lastIndex(of: "<"),
                  let after = head[found.upperBound...].first, after == ">" || after.isWhitespace else { continue }
            let prefix = head[head.index(after: tag)..<found.lowerBound]
            guard prefix.isEmpty || (prefix.hasSuffix(":") && prefix.dropLast().allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" })
            else { continue }
            guard let open = head[found.upperBound...].firstIndex(of: ">"),
                  let end = head.range(of: "</", range: head.index(after: open)..<head.endIndex) else { return nil }
            return head[head.index(after: open)..<end.lowerBound]
        }
        return nil
    }
}
