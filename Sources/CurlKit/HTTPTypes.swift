/// An HTTP request: method, URL, headers, optional body.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?

    public init(method: String = "GET", url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method; self.url = url; self.headers = headers; self.body = body
    }

    /// The host part of the URL, for per-host limits.
    public var host: String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        return String(rest.prefix { $0 != "/" && $0 != "?" })
    }
}

/// A complete HTTP response (the body in memory, or written to a file when one was given).
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names lowercased; the last value wins when a header repeats.
    public var headers: [String: String]
    /// The body, empty when it was streamed to a file.
    public var body: [UInt8]
    /// Bytes received for the body (in memory or on disk).
    public var bodySize: Int
    /// Wall time of the transfer, seconds.
    public var seconds: Double

    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// Where a response body goes.
public enum ResponseDestination: Sendable {
    case memory
    /// Streamed to this path (the caller renames it into place once checked).
    case file(String)
}

/// A transfer that did not produce an HTTP response, or a response the caller treats as failure.
public struct HTTPError: Error, CustomStringConvertible, Sendable {
    /// Why the request failed.
    public enum Kind: Sendable, Equatable {
        /// DNS, refused connection, reset, TLS: worth retrying.
        case connection
        case timeout
        /// A status the caller did not accept (after retries, if any).
        case status(Int)
        /// Writing the body failed (disk full, bad path).
        case localIO
        /// A bad URL or option: not worth retrying.
        case usage
    }

    public var kind: Kind
    /// libcurl's code, when the failure came from libcurl.
    public var curlCode: Int32?
    public var message: String
    /// The URL with secrets redacted.
    public var url: String

    public var description: String { "\(message) (\(url))" }

    /// Connection failures, timeouts, 429 and 5xx are transient; other statuses are answers.
    public var isTransient: Bool {
        switch kind {
        case .connection, .timeout: return true
        case .status(let code): return code == 429 || (500...599).contains(code)
        case .localIO, .usage: return false
        }
    }
}
