import Foundation
import HTTPTestSupport

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
