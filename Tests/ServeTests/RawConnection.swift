import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a loopback port, for requests an HTTP client library would refuse to send (huge
/// headers, a body trickled byte by byte, a connection left idle).
final class RawConnection {
    private let socket: Int32

    init(port: UInt16) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(socket); throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(socket) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Everything the server sends until it closes the connection (or 10 s pass).
    func readAll() -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The status code of the first response line, e.g. 431 from `HTTP/1.1 431 ...`.
    static func status(of response: String) -> Int? {
        let parts = response.split(separator: " ", maxSplits: 2)
        return parts.count > 1 ? Int(parts[1]) : nil
    }
}

/// One request over its own connection, nothing followed (redirects are what the sign-in tests look at).
struct RawResponse {
    let status: Int
    let headers: [(name: String, value: String)]
    let body: String

    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    func headers(_ name: String) -> [String] { headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value) }

    static func send(port: UInt16, _ method: String, _ path: String, headers: [(String, String)] = [], body: String = "") throws -> RawResponse {
        let connection = try RawConnection(port: port)
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if method == "POST" { request += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n" }
        connection.send(request + "\r\n" + body)
        let text = connection.readAll()
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first?.components(separatedBy: "\r\n") ?? []
        var fields: [(name: String, value: String)] = []
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return RawResponse(status: RawConnection.status(of: text) ?? 0, headers: fields,
                           body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}

/// `http://127.0.0.1:PORT/path?query` split for `RawResponse.send`.
func splitURL(_ url: String) -> (port: UInt16, target: String)? {
    guard let components = URLComponents(string: url), let port = components.port else { return nil }
    return (UInt16(port), components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? ""))
}
