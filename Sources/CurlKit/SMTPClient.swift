import CCurl
import Foundation

/// Where and how mail is submitted: one SMTP server, always over TLS.
public struct SMTPSettings: Sendable {
    /// `smtp://host[:port]` (STARTTLS; port 25 when omitted, submission is usually 587) or `smtps://host[:port]`
    /// (TLS from the first byte, default 465). Never with user:password in it: the credentials come from `username`/`password`.
    public var server: String
    public var username: String?
    public var password: String?
    /// A CA bundle to verify the server's certificate against instead of the system's; verification is never off.
    public var caBundle: String?
    public var connectTimeout: Double = 10
    /// Whole-message limit, seconds.
    public var totalTimeout: Double = 60

    public init(server: String, username: String? = nil, password: String? = nil, caBundle: String? = nil) {
        self.server = server; self.username = username; self.password = password; self.caBundle = caBundle
    }
}

/// A message the SMTP server did not take, or a server that could not be reached.
public struct SMTPError: Error, CustomStringConvertible, Sendable {
    /// Why the message was not taken.
    public enum Kind: Sendable, Equatable {
        /// DNS, refused connection, reset: worth retrying.
        case connection
        case timeout
        /// STARTTLS not offered, a handshake that failed or a certificate that did not verify.
        case tls
        /// The server refused the user name or password.
        case authentication
        /// The server answered a command with this reply code (4xx: try later; 5xx: never).
        case refused(Int)
        /// A bad server URL or option: not worth retrying.
        case usage
    }

    public var kind: Kind
    /// One line, secrets redacted.
    public var message: String
    /// The server URL (it never holds credentials).
    public var server: String

    public var description: String { "\(message) (\(server))" }

    /// Connection failures, timeouts and 4xx replies are transient; the rest will fail the same way again.
    public var isTransient: Bool {
        switch kind {
        case .connection, .timeout: return true
        case .refused(let code): return (400...499).contains(code)
        case .tls, .authentication, .usage: return false
        }
    }
}

/// Submits mail through an SMTP server with libcurl: STARTTLS (or implicit TLS) required, certificate verified, one
/// easy handle per message. The password is handed to libcurl only; every message an error carries is redacted.
public final class SMTPClient: Sendable {
    public let settings: SMTPSettings
    private let redactor: Redactor

    /// Refuses a server URL that is not smtp:// or smtps://, or that holds credentials.
    public init(settings: SMTPSettings) throws {
        try Self.checkServer(settings.server)
        self.settings = settings
        redactor = Redactor(secrets: [settings.password].compactMap { $0 })
    }

    /// The server URL as accepted: smtp:// or smtps://, a host, an optional port, nothing else.
    public static func checkServer(_ server: String) throws {
        let lower = server.lowercased()
        guard lower.hasPrefix("smtp://") || lower.hasPrefix("smtps://"), let url = URL(string: server),
              let host = url.host, !host.isEmpty else {
            throw SMTPError(kind: .usage, message: "\"\(server)\" is not an smtp://host[:port] or smtps://host[:port] URL",
                            server: server)
        }
        guard url.user == nil, url.password == nil else {
            throw SMTPError(kind: .usage, message: "the SMTP URL must not hold credentials (give them in the environment)",
                            server: "\(url.scheme ?? "smtp")://\(host)")
        }
    }

    /// Sends one message (`message`: the RFC 5322 text, CRLF line ends) from `from` to `recipients`; returns the
    /// server's last reply code (250 when taken). libcurl dot-stuffs the body and ends DATA itself.
    public func send(from: String, to recipients: [String], message: [UInt8]) throws -> Int {
        let server = settings.server
        func failure(_ kind: SMTPError.Kind, _ text: String) -> SMTPError {
            SMTPError(kind: kind, message: redactor.redact(text), server: server)
        }
        let transfer: CurlTransfer
        do {
            transfer = try CurlTransfer(sink: try TransferSink(destination: .memory))
            try transfer.keepErrorDetail()
            try transfer.set(CURLOPT_URL, server)
            try transfer.set(CURLOPT_NOSIGNAL, 1)
            try transfer.set(CURLOPT_CONNECTTIMEOUT_MS, Int(settings.connectTimeout * 1000))
            try transfer.set(CURLOPT_TIMEOUT_MS, Int(settings.totalTimeout * 1000))
            // STARTTLS or nothing: the password and the debtor's notice never travel in clear.
            try transfer.set(CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue))
            try transfer.set(CURLOPT_SSL_VERIFYPEER, 1)
            try transfer.set(CURLOPT_SSL_VERIFYHOST, 2)
            if let caBundle = settings.caBundle { try transfer.set(CURLOPT_CAINFO, caBundle) }
            if let username = settings.username { try transfer.set(CURLOPT_USERNAME, username) }
            if let password = settings.password { try transfer.set(CURLOPT_PASSWORD, password) }
            try transfer.set(CURLOPT_MAIL_FROM, "<\(from)>")
            try transfer.set(CURLOPT_MAIL_RCPT, list: recipients.map { "<\($0)>" })
            try transfer.setUpload(message)
            try transfer.installCallbacks()
        } catch let error as HTTPError {
            throw failure(.usage, error.message)
        }
        let code = transfer.perform()
        let reply = transfer.responseCode()
        guard code != CURLE_OK else { return reply }
        let detail = transfer.errorDetail ?? String(cString: curl_easy_strerror(code))
        // "RCPT failed: 550": the reply the server refused the command with, when libcurl names it.
        let refusedWith = Self.replyCode(in: detail) ?? ((400...599).contains(reply) ? reply : nil)
        switch code {
        case CURLE_LOGIN_DENIED:
            throw failure(.authentication, "the SMTP server refused the user name or password: \(detail)")
        case CURLE_USE_SSL_FAILED:
            throw failure(.tls, "the SMTP server does not offer STARTTLS (required: the password and notices never go in clear): \(detail)")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
            throw failure(.tls, "TLS with the SMTP server failed: \(detail)")
        case CURLE_OPERATION_TIMEDOUT:
            throw failure(.timeout, "the SMTP server did not answer in time: \(detail)")
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            throw failure(.usage, "cannot use the SMTP URL: \(detail)")
        default:
            if let refusedWith {
                throw failure(.refused(refusedWith), "the SMTP server refused the message: \(detail)")
            }
            throw failure(.connection, "could not talk to the SMTP server: \(detail)")
        }
    }

    /// The three-digit reply code after "failed: " in libcurl's message ("RCPT failed: 550").
    static func replyCode(in detail: String) -> Int? {
        guard let range = detail.range(of: "failed: ") else { return nil }
        let digits = detail[range.upperBound...].prefix { $0.isNumber }
        guard digits.count == 3, let code = Int(digits), (400...599).contains(code) else { return nil }
        return code
    }
}
