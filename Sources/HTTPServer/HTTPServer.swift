import CMicroHTTPD
import Foundation

/// How a server listens and what it accepts; each limit protects the process from one kind of client.
public struct ServerSettings: Sendable {
    /// An IPv4 or IPv6 address literal (`127.0.0.1`, `::1`, `0.0.0.0`).
    public var host = "127.0.0.1"
    /// 0: any free port (tests); read the chosen one from `HTTPServer.port`.
    public var port: UInt16 = 8080
    /// Worker threads, each polling its share of the connections.
    public var threads = 4
    /// Open connections at once; more are refused at accept.
    public var connectionLimit = 512
    /// Open connections from one IP address at once.
    public var connectionsPerIP = 128
    /// A connection idle (or trickling bytes) this long is closed: a slow client holds no thread.
    public var timeoutSeconds = 30
    /// The request line and header fields together; more is 431.
    public var maxHeaderBytes = 8 * 1024
    /// A request body; more is 413.
    public var maxBodyBytes = 64 * 1024
    /// Per-connection memory of libmicrohttpd (request line, headers and read buffer must fit; beyond it the library
    /// itself refuses the request). Larger than `maxHeaderBytes`, so the handler's own 431 is what a client sees.
    public var connectionMemory = 64 * 1024
    /// TLS: the certificate chain and its private key, PEM text (both, or neither for plain HTTP).
    public var tlsCertificatePEM: String?
    public var tlsKeyPEM: String?

    public init(host: String = "127.0.0.1", port: UInt16 = 8080) {
        self.host = host
        self.port = port
    }
}

/// Why a server could not start.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// An HTTP/1.1 server over GNU libmicrohttpd: owns the daemon (stopped in `deinit`), its thread pool and limits, and
/// calls `handler` with typed requests on the pool's threads (so the handler must be thread-safe).
public final class HTTPServer: @unchecked Sendable {
    // @unchecked: `daemon` is written once in init and cleared under `lock` in `stop()`; libmicrohttpd is thread-safe.
    public let settings: ServerSettings
    let handler: @Sendable (ServerRequest) -> ServerResponse
    private var daemon: OpaquePointer?
    private let lock = NSLock()
    /// The PEM texts as C strings, alive as long as the daemon (freed in deinit, after it stops).
    private var tlsKey: UnsafeMutablePointer<CChar>?
    private var tlsCertificate: UnsafeMutablePointer<CChar>?
    /// The port listened on (the system's choice when `settings.port` was 0).
    public private(set) var port: UInt16 = 0

    public init(settings: ServerSettings, handler: @escaping @Sendable (ServerRequest) -> ServerResponse) throws {
        self.settings = settings
        self.handler = handler
        let limits = ownerdash_mhd_limits(
            threads: UInt32(max(1, settings.threads)), connections: UInt32(max(1, settings.connectionLimit)),
            connections_per_ip: UInt32(max(1, settings.connectionsPerIP)),
            timeout_seconds: UInt32(max(1, settings.timeoutSeconds)), connection_memory: settings.connectionMemory)
        guard (settings.tlsKeyPEM == nil) == (settings.tlsCertificatePEM == nil) else {
            throw HTTPServerError(description: "TLS needs both a certificate and its key")
        }
        tlsKey = settings.tlsKeyPEM.map { strdup($0) }
        tlsCertificate = settings.tlsCertificatePEM.map { strdup($0) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let daemon = ownerdash_mhd_start(settings.host, settings.port, limits, tlsKey, tlsCertificate,
                                               accessHandler, requestCompleted, context) else {
            // deinit (which runs for a class whose init throws once it is whole) frees the PEM copies.
            throw HTTPServerError(description: "cannot listen on \(settings.host):\(settings.port) "
                + "(not an IP address literal, the port is in use, it needs privileges"
                + (tlsKey == nil ? ")" : ", or the TLS certificate and key do not load or match)"))
        }
        self.daemon = daemon
        port = ownerdash_mhd_bound_port(daemon)
    }

    deinit {
        stop()
        free(tlsKey)
        free(tlsCertificate)
    }

    /// Stops accepting, finishes nothing further and joins the threads. Idempotent.
    public func stop() {
        lock.lock()
        let running = daemon
        daemon = nil
        lock.unlock()
        if let running { MHD_stop_daemon(running) }
    }

    /// Serves a socket connected elsewhere (one end of a `socketpair`, through which the HTTP fuzzer sends raw request
    /// bytes without using a TCP port per input) as a client at 127.0.0.1. The server owns and closes it.
    public func adopt(socket: Int32) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let daemon else {
            close(socket)
            return false
        }
        return ownerdash_mhd_adopt(daemon, socket) != 0
    }

    // MARK: - One request

    /// What is kept between the calls libmicrohttpd makes for one request: the body so far, or the refusal.
    final class Exchange {
        var body: [UInt8] = []
        var refusal: ServerResponse?
        /// The header fields, read once on the first call (the request's are complete by then).
        var headers: [(name: String, value: String)] = []
    }

    func handle(_ connection: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?,
                uploadSize: UnsafeMutablePointer<Int>, state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let existing = state.pointee else {
            // First call: the request line and headers are in; refuse now what is too big, before reading a body.
            let exchange = Exchange()
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
            let headers = Self.values(connection, .HEADER_KIND)
            exchange.headers = headers
            let headerBytes = url.utf8.count + method.utf8.count + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            if headerBytes > settings.maxHeaderBytes {
                return queue(connection, Self.refusal(431, "Request Header Fields Too Large",
                                                      "the request line and headers exceed \(settings.maxHeaderBytes) bytes"))
            }
            // A transfer coding other than chunked (RFC 9112 6.1: 501): libmicrohttpd would otherwise wait for a body
            // it cannot delimit until the connection times out (found by fuzzing: `Transfer-Encoding: chunxed`).
            if let coding = headers.first(where: { $0.name.lowercased() == "transfer-encoding" })?.value,
               coding.trimmingCharacters(in: .whitespaces).lowercased() != "chunked" {
                return queue(connection, Self.refusal(501, "Not Implemented", "the only transfer coding accepted is chunked"))
            }
            if let length = headers.first(where: { $0.name.lowercased() == "content-length" }).map({ $0.value }),
               let declared = Int(length.trimmingCharacters(in: .whitespaces)), declared > settings.maxBodyBytes {
                return queue(connection, Self.refusal(413, "Content Too Large",
                                                      "the request body exceeds \(settings.maxBodyBytes) bytes"))
            }
            return .YES
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(existing).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            // A body without (or beyond) its declared length: read and drop the rest, answer 413 at the end.
            if exchange.refusal == nil, let upload {
                if exchange.body.count + uploadSize.pointee > settings.maxBodyBytes {
                    exchange.refusal = Self.refusal(413, "Content Too Large", "the request body exceeds \(settings.maxBodyBytes) bytes")
                    exchange.body = []
                } else {
                    upload.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                        exchange.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                    }
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        if let refusal = exchange.refusal { return queue(connection, refusal) }
        var cookies: [String: String] = [:]
        for cookie in Self.values(connection, .COOKIE_KIND) where cookies[cookie.name] == nil {
            cookies[cookie.name] = cookie.value
        }
        var address = [CChar](repeating: 0, count: 64)
        ownerdash_mhd_client_address(connection, &address, socklen_t(address.count))
        let request = ServerRequest(
            method: method, path: url, query: Self.values(connection, .GET_ARGUMENT_KIND),
            headers: exchange.headers, cookies: cookies, body: exchange.body,
            clientAddress: String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        return queue(connection, handler(request))
    }

    private func queue(_ connection: OpaquePointer, _ response: ServerResponse) -> MHD_Result {
        let made = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            MHD_ResponseMemoryMode(rawValue: 2)!)
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        for header in response.headers {
            // A header value carrying CR or LF would split the response; such a value is a bug, so it is dropped.
            guard !header.value.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
            _ = MHD_add_response_header(made, header.name, header.value)
        }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }

    static func refusal(_ status: Int, _ title: String, _ detail: String) -> ServerResponse {
        ServerResponse(status: status, contentType: "application/problem+json",
                       text: "{\"type\": \"about:blank\", \"title\": \"\(title)\", \"status\": \(status), \"detail\": \"\(detail)\"}\n",
                       headers: [("Connection", "close")])
    }

    /// Every key/value of one kind (headers, cookies, query arguments), in order.
    static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(name: String, value: String)] {
        final class Collected { var items: [(name: String, value: String)] = [] }
        let collected = Collected()
        _ = withExtendedLifetime(collected) {
            MHD_get_connection_values(connection, kind, { context, _, key, value in
                let collected = Unmanaged<Collected>.fromOpaque(context!).takeUnretainedValue()
                collected.items.append((key.map { String(cString: $0) } ?? "", value.map { String(cString: $0) } ?? ""))
                return .YES
            }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.items
    }
}

/// libmicrohttpd's access handler: finds the server and hands the call to it.
private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, state in
    guard let context, let connection, let uploadSize, let state else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    return server.handle(connection, url: url.map { String(cString: $0) } ?? "/",
                         method: method.map { String(cString: $0) } ?? "GET",
                         upload: upload, uploadSize: uploadSize, state: state)
}

/// Called once per request when it is over (answered, timed out or the client gone): releases its exchange.
private let requestCompleted: MHD_RequestCompletedCallback = { _, _, state, _ in
    guard let state, let exchange = state.pointee else { return }
    Unmanaged<HTTPServer.Exchange>.fromOpaque(exchange).release()
    state.pointee = nil
}
