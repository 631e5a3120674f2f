import CCurl
import Foundation

/// Settings shared by every transfer of a client.
public struct HTTPClientSettings: Sendable {
    public var connectTimeout: Double = 10
    /// Whole-transfer limit, seconds.
    public var totalTimeout: Double = 120
    /// A CA bundle to verify TLS against instead of the system's; verification is never turned off.
    public var caBundle: String?
    public var userAgent = "ownerdash/0.1"
    public var retry = RetryPolicy()

    public init() {}
}

/// Exponential backoff with full jitter for transient failures (connection errors, 429, 5xx).
public struct RetryPolicy: Sendable {
    /// Attempts in total, the first included.
    public var maxAttempts = 4
    public var baseDelay = 0.5
    public var maxDelay = 30.0

    public init(maxAttempts: Int = 4, baseDelay: Double = 0.5, maxDelay: Double = 30) {
        self.maxAttempts = maxAttempts; self.baseDelay = baseDelay; self.maxDelay = maxDelay
    }

    /// Seconds to wait before attempt `attempt + 1` (attempt counts from 1); a server's Retry-After wins when given.
    public func delay(afterAttempt attempt: Int, retryAfter: Double?, random: Double = Double.random(in: 0...1)) -> Double {
        if let retryAfter { return min(max(0, retryAfter), maxDelay) }
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        return ceiling * (0.5 + random / 2)
    }

    /// Parses Retry-After: delta-seconds or an HTTP date.
    public static func retryAfterSeconds(_ value: String?, now: Date = Date()) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value) { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }
}

/// Replaces known secret values with `***` in anything that may be logged or stored.
public struct Redactor: Sendable {
    private var secrets: [String]

    public init(secrets: [String]) {
        // Longest first, so a secret containing another is replaced whole; short values would redact noise.
        self.secrets = secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
    }

    /// The text with every known secret replaced by `***`.
    public func redact(_ text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }
}

/// An HTTP client over libcurl: retries for transient failures; its transfers reuse the process's idle easy
/// handles, and so the connections those keep open (`HandlePool`).
public final class HTTPClient: Sendable {
    public let settings: HTTPClientSettings
    public let redactor: Redactor
    private let handles: HandlePool

    public convenience init(settings: HTTPClientSettings = HTTPClientSettings(), redactor: Redactor = Redactor(secrets: [])) {
        self.init(settings: settings, redactor: redactor, handles: .shared)
    }

    /// A client taking its handles from `handles` (a test's own pool, so no other test's transfer takes them).
    init(settings: HTTPClientSettings, redactor: Redactor, handles: HandlePool) {
        self.settings = settings
        self.redactor = redactor
        self.handles = handles
    }

    /// Redirects followed per attempt at most.
    public static let maxRedirects = 5

    /// One attempt. Any HTTP status is a response; only transport failures throw.
    ///
    /// Redirects are followed here, not by libcurl, because the request carries secrets (a bearer token header, a
    /// SOAP body holding the RPX license key or the Yardi password): a redirect is followed only to the same origin
    /// (scheme, host and port), or from http:// to https:// on the same host. One to another host, port or a weaker
    /// scheme is refused with an error naming where it pointed, and nothing is sent there. 307/308 repeat the method
    /// and body; 301/302/303 after a POST continue as a GET without the body (what browsers and libcurl do).
    public func send(_ request: HTTPRequest, to destination: ResponseDestination = .memory) throws -> HTTPResponse {
        var current = request
        for _ in 0...Self.maxRedirects {
            let response = try sendOnce(current, to: destination)
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["location"] else {
                return response
            }
            let next = try Self.redirectTarget(from: current.url, location: location, redactor: redactor)
            if response.status == 303 || ((response.status == 301 || response.status == 302) && current.method == "POST") {
                current = HTTPRequest(method: "GET", url: next, headers: current.headers.filter {
                    !["content-type", "content-length", "soapaction"].contains($0.name.lowercased())
                })
            } else {
                current.url = next
            }
        }
        throw HTTPError(kind: .usage, curlCode: nil, message: "more than \(Self.maxRedirects) redirects",
                        url: redactor.redact(request.url))
    }

    /// The absolute URL a redirect from `from` to `location` leads to, when following it keeps the secrets where
    /// they were sent: same origin, or http -> https on the same host. Otherwise an error naming both.
    public static func redirectTarget(from: String, location: String, redactor: Redactor) throws -> String {
        guard let base = URL(string: from), let target = URL(string: location, relativeTo: base)?.absoluteURL,
              let fromScheme = base.scheme?.lowercased(), let toScheme = target.scheme?.lowercased() else {
            throw HTTPError(kind: .usage, curlCode: nil, message: "redirect to an unreadable location \"\(redactor.redact(location))\"",
                            url: redactor.redact(from))
        }
        func port(_ url: URL, _ scheme: String) -> Int { url.port ?? (scheme == "https" ? 443 : 80) }
        let sameHost = base.host?.lowercased() == target.host?.lowercased()
        let sameOrigin = sameHost && fromScheme == toScheme && port(base, fromScheme) == port(target, toScheme)
        let upgrade = sameHost && fromScheme == "http" && toScheme == "https"
        guard sameOrigin || upgrade else {
            let why = toScheme == "http" && fromScheme == "https" ? "from https to plain http (credentials would travel in clear)"
                : "to another origin (credentials are only sent to the host configured)"
            throw HTTPError(kind: .usage, curlCode: nil,
                            message: "refused to follow a redirect \(why): \(redactor.redact(target.absoluteString))",
                            url: redactor.redact(from))
        }
        return target.absoluteString
    }

    /// One request and its response, redirects not followed.
    private func sendOnce(_ request: HTTPRequest, to destination: ResponseDestination) throws -> HTTPResponse {
        let easy = try handles.take()
        // Given back after the transfer below has let go of it (its deinit resets the handle).
        defer { handles.give(easy) }
        return try send(request, to: destination, on: easy)
    }

    /// One request on `easy`.
    private func send(_ request: HTTPRequest, to destination: ResponseDestination, on easy: CurlEasy) throws -> HTTPResponse {
        let safeURL = redactor.redact(request.url)
        let sink = try TransferSink(destination: destination)
        let transfer = try CurlTransfer(sink: sink, easy: easy)
        do {
            try transfer.set(CURLOPT_URL, request.url)
            try transfer.set(CURLOPT_NOSIGNAL, 1)  // threads: no SIGALRM-based DNS timeouts
            try transfer.set(CURLOPT_CONNECTTIMEOUT_MS, Int(settings.connectTimeout * 1000))
            try transfer.set(CURLOPT_TIMEOUT_MS, Int(settings.totalTimeout * 1000))
            try transfer.set(CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl can decode (gzip, deflate)
            try transfer.set(CURLOPT_USERAGENT, settings.userAgent)
            try transfer.set(CURLOPT_SSL_VERIFYPEER, 1)
            try transfer.set(CURLOPT_SSL_VERIFYHOST, 2)
            try transfer.set(CURLOPT_FOLLOWLOCATION, 0)  // followed by send(), which checks where they lead
            if let caBundle = settings.caBundle { try transfer.set(CURLOPT_CAINFO, caBundle) }
            try transfer.setHeaders(request.headers)
            if let body = request.body { try transfer.setBody(body) }
            if request.method == "GET" {
                try transfer.set(CURLOPT_HTTPGET, 1)
            } else if request.method != "POST" || request.body == nil {
                try transfer.set(CURLOPT_CUSTOMREQUEST, request.method)
            }
            try transfer.installCallbacks()
        } catch var error as HTTPError {
            error.url = safeURL
            throw error
        }
        let code = transfer.perform()
        if sink.writeFailed {
            throw HTTPError(kind: .localIO, curlCode: Int32(code.rawValue), message: "could not write the response body", url: safeURL)
        }
        guard code == CURLE_OK else {
            let kind: HTTPError.Kind = switch code {
            case CURLE_OPERATION_TIMEDOUT: .timeout
            case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: .usage
            default: .connection
            }
            let reason = redactor.redact(String(cString: curl_easy_strerror(code)))
            throw HTTPError(kind: kind, curlCode: Int32(code.rawValue), message: "\(request.method) failed: \(reason)", url: safeURL)
        }
        do {
            try sink.finish()
        } catch {
            throw HTTPError(kind: .localIO, curlCode: nil, message: "could not finish writing the response body: \(error)", url: safeURL)
        }
        return HTTPResponse(status: transfer.responseCode(), headers: sink.headers, body: sink.body,
                            bodySize: sink.bodySize, seconds: transfer.totalSeconds())
    }

    /// Sends with retries: connection errors, timeouts, 429 (honouring Retry-After) and 5xx are retried
    /// with exponential backoff and jitter; any other status is returned to the caller as is.
    public func sendRetrying(_ request: HTTPRequest, to destination: ResponseDestination = .memory,
                             sleep: (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }) throws -> (response: HTTPResponse, attempts: Int) {
        var attempt = 0
        while true {
            attempt += 1
            do {
                let response = try send(request, to: destination)
                let transient = response.status == 429 || (500...599).contains(response.status)
                guard transient, attempt < settings.retry.maxAttempts else { return (response, attempt) }
                sleep(settings.retry.delay(afterAttempt: attempt,
                                           retryAfter: RetryPolicy.retryAfterSeconds(response.headers["retry-after"])))
            } catch let error as HTTPError where error.isTransient && attempt < settings.retry.maxAttempts {
                sleep(settings.retry.delay(afterAttempt: attempt, retryAfter: nil))
            }
        }
    }
}
