import CurlKit
import Foundation
@testable import HTTPServer
import HTTPTestSupport
import Testing

/// A server on an ephemeral loopback port that echoes what it was given, as text lines.
private func echoServer(_ settings: (inout ServerSettings) -> Void = { _ in }) throws -> HTTPServer {
    var config = ServerSettings(host: "127.0.0.1", port: 0)
    config.threads = 2
    settings(&config)
    return try HTTPServer(settings: config) { request in
        var lines = ["method=\(request.method)", "path=\(request.path)"]
        lines += request.query.map { "query \($0.name)=\($0.value)" }
        lines += request.cookies.sorted { $0.key < $1.key }.map { "cookie \($0.key)=\($0.value)" }
        lines.append("x-thing=\(request.header("X-Thing") ?? "-")")
        lines.append("body=\(String(decoding: request.body, as: UTF8.self))")
        lines.append("client=\(request.clientAddress)")
        return ServerResponse(status: request.path == "/missing" ? 404 : 200, contentType: "text/plain; charset=utf-8",
                              text: lines.joined(separator: "\n") + "\n", headers: [("X-Answer", "42")])
    }
}

@Suite struct HTTPServerTests {
    let client = HTTPClient()

    @Test func requestsArriveAsTypedValues() throws {
        let server = try echoServer()
        #expect(server.port > 0)
        let response = try client.send(HTTPRequest(
            url: "http://127.0.0.1:\(server.port)/a%20b/c?x=1&y=two%20words&x=3",
            headers: [("X-Thing", "yes"), ("Cookie", "session=abc; theme=dark")]))
        #expect(response.status == 200)
        #expect(response.headers["x-answer"] == "42")
        let lines = response.bodyText.split(separator: "\n").map(String.init)
        #expect(lines.contains("method=GET"))
        #expect(lines.contains("path=/a b/c"))
        #expect(lines.filter { $0.hasPrefix("query ") } == ["query x=1", "query y=two words", "query x=3"])
        #expect(lines.contains("cookie session=abc"))
        #expect(lines.contains("cookie theme=dark"))
        #expect(lines.contains("x-thing=yes"))
        #expect(lines.contains("client=127.0.0.1"))
    }

    @Test func postBodyAndStatus() throws {
        let server = try echoServer()
        let posted = try client.send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(server.port)/form",
                                                 headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                                 body: Array("a=1&b=hello+there".utf8)))
        #expect(posted.status == 200)
        #expect(posted.bodyText.contains("body=a=1&b=hello+there"))
        let missing = try client.send(HTTPRequest(url: "http://127.0.0.1:\(server.port)/missing"))
        #expect(missing.status == 404)
    }

    @Test func anAdoptedSocketIsServedLikeAnAcceptedOne() throws {
        // The HTTP fuzzer's way in: raw bytes through one end of a socketpair, no TCP port per input.
        let server = try echoServer()
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]) }
        #expect(server.adopt(socket: pair[1]))
        let request = "GET /adopted?x=1 HTTP/1.1\r\nHost: x\r\nX-Thing: raw\r\n\r\n"
        #expect(request.utf8.count == Array(request.utf8).withUnsafeBytes { send(pair[0], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) })
        shutdown(pair[0], Int32(SHUT_WR))   // the client is done: the server answers, then closes
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(pair[0], &buffer, buffer.count, 0)
            guard count > 0 else { break }
            answer += buffer[0..<count]
        }
        let text = String(decoding: answer, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200"), "\(text)")
        #expect(text.contains("path=/adopted") && text.contains("query x=1") && text.contains("x-thing=raw"))
        #expect(text.contains("client=127.0.0.1"))
        server.stop()
        var late: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &late) == 0)
        defer { close(late[0]) }
        #expect(!server.adopt(socket: late[1]))   // a stopped server takes (and closes) nothing
    }

    @Test func formFieldsDecode() {
        let request = ServerRequest(method: "POST", path: "/", body: Array("fix=posted+water&key=a%3Ab%3AC&empty=".utf8))
        #expect(request.formFields == ["fix": "posted water", "key": "a:b:C", "empty": ""])
    }

    @Test func oversizedHeadersAre431() throws {
        let server = try echoServer { $0.maxHeaderBytes = 2048 }
        // Over the handler's limit, within libmicrohttpd's memory: the handler's 431.
        let big = try client.send(HTTPRequest(url: "http://127.0.0.1:\(server.port)/",
                                              headers: [("X-Thing", String(repeating: "a", count: 4000))]))
        #expect(big.status == 431)
        #expect(big.headers["content-type"] == "application/problem+json")
        // Far over the connection's memory too: libmicrohttpd refuses it before any handler runs.
        let raw = try RawConnection(port: server.port)
        raw.send("GET / HTTP/1.1\r\nHost: x\r\nX-Thing: \(String(repeating: "b", count: 200_000))\r\n\r\n")
        let answer = raw.readAll()
        #expect([431, 413, 414].contains(RawConnection.status(of: answer) ?? 0), "got: \(answer.prefix(80))")
        // The server still answers afterwards.
        #expect(try client.send(HTTPRequest(url: "http://127.0.0.1:\(server.port)/")).status == 200)
    }

    @Test func oversizedBodiesAre413() throws {
        let server = try echoServer { $0.maxBodyBytes = 1000 }
        let declared = try client.send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(server.port)/",
                                                   body: [UInt8](repeating: 65, count: 5000)))
        #expect(declared.status == 413)
        // Chunked, so no Content-Length to refuse up front: read, dropped, then refused.
        let raw = try RawConnection(port: server.port)
        let chunk = String(repeating: "z", count: 600)
        raw.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                 + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n")
        #expect(RawConnection.status(of: raw.readAll()) == 413)
        let small = try client.send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(server.port)/", body: Array("ok".utf8)))
        #expect(small.status == 200)
    }

    @Test func slowClientIsCutOffAndOthersAreServed() throws {
        let server = try echoServer { $0.timeoutSeconds = 1; $0.threads = 1 }
        let slow = try RawConnection(port: server.port)
        slow.send("GET / HTTP/1.1\r\nHost: x\r\n")   // never finishes its headers
        let started = Date()
        #expect(try client.send(HTTPRequest(url: "http://127.0.0.1:\(server.port)/")).status == 200)
        #expect(slow.readAll().isEmpty)                // closed by the server without an answer
        #expect(Date().timeIntervalSince(started) < 8)
    }

    @Test func anUnknownTransferCodingIs501AtOnce() throws {
        // Found by fuzzing: libmicrohttpd waited for a body it could not delimit until the connection timed out.
        let server = try echoServer()
        let raw = try RawConnection(port: server.port)
        let started = Date()
        raw.send("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunxed\r\n\r\n")
        let answer = raw.readAll()
        #expect(RawConnection.status(of: answer) == 501, "\(answer)")
        #expect(answer.contains("the only transfer coding accepted is chunked"))
        #expect(Date().timeIntervalSince(started) < 5)
        let chunked = try RawConnection(port: server.port)
        chunked.send("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        let body = chunked.readAll()
        #expect(RawConnection.status(of: body) == 200 && body.contains("body=hello"), "\(body)")
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        let server = try echoServer()
        let raw = try RawConnection(port: server.port)
        raw.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let answer = raw.readAll()
        #expect(answer.components(separatedBy: "HTTP/1.1 200").count == 3)
        #expect(answer.contains("path=/one") && answer.contains("path=/two"))
    }

    @Test func aTakenPortIsOneClearError() throws {
        let first = try echoServer()
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(settings: ServerSettings(host: "127.0.0.1", port: first.port)) { _ in ServerResponse(status: 200) }
        }
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(settings: ServerSettings(host: "localhost", port: 0)) { _ in ServerResponse(status: 200) }
        }
    }
}

/// TLS served by libmicrohttpd itself, with a self-signed certificate for 127.0.0.1 made by the openssl command.
@Suite struct HTTPServerTLSTests {
    @Test func servesHTTPSWithTheGivenCertificate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem").path, certificate = directory.appendingPathComponent("cert.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        #expect(openssl.terminationStatus == 0)
        let server = try echoServer {
            $0.tlsKeyPEM = try? String(contentsOfFile: key, encoding: .utf8)
            $0.tlsCertificatePEM = try? String(contentsOfFile: certificate, encoding: .utf8)
        }
        var settings = HTTPClientSettings()
        settings.caBundle = certificate
        let response = try HTTPClient(settings: settings).send(HTTPRequest(url: "https://127.0.0.1:\(server.port)/secure?x=1"))
        #expect(response.status == 200)
        #expect(response.bodyText.contains("path=/secure"))
        // Without trusting the certificate the client refuses (verification is never off).
        #expect(throws: HTTPError.self) { _ = try HTTPClient().send(HTTPRequest(url: "https://127.0.0.1:\(server.port)/")) }
        // Only a certificate, or a key that does not load: one clear error.
        #expect(throws: HTTPServerError.self) { _ = try echoServer { $0.tlsCertificatePEM = "x" } }
        #expect(throws: HTTPServerError.self) { _ = try echoServer { $0.tlsCertificatePEM = "x"; $0.tlsKeyPEM = "y" } }
    }
}
