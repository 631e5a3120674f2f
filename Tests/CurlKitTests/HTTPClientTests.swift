import Foundation
import Synchronization
import Testing
@testable import CurlKit

/// Starts scripts/fixtures/http_test_server.py on an ephemeral loopback port for one test.
final class LoopbackServer {
    let process = Process()
    let input = Pipe()
    let base: String

    init(extraArguments: [String] = []) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/fixtures/http_test_server.py").path] + extraArguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("listening on ") else { throw CocoaError(.fileReadUnknown) }
        base = String(text.dropFirst("listening on ".count))
    }

    deinit {
        // The server exits when its stdin closes (see the script), whatever wrapper started it.
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

@Suite(.serialized) struct HTTPClientTests {
    let server: LoopbackServer
    let client: HTTPClient

    init() throws {
        server = try LoopbackServer()
        var settings = HTTPClientSettings()
        settings.totalTimeout = 5
        settings.retry = RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxDelay: 0.05)
        client = HTTPClient(settings: settings, redactor: Redactor(secrets: ["s3cret-token"]))
    }

    @Test func getReturnsStatusHeadersAndBody() throws {
        let response = try client.send(HTTPRequest(url: server.base + "/ok"))
        #expect(response.status == 200)
        #expect(response.bodyText == "hello")
        #expect(response.headers["content-length"] == "5")
    }

    @Test func aClientSendsItsNextRequestOnTheConnectionItOpened() throws {
        // One connection for a night's requests to a host instead of one each (a TCP and TLS handshake apiece). A
        // pool of the test's own: the process's is shared with the suites running meanwhile.
        let pool = HandlePool()
        let client = HTTPClient(settings: client.settings, redactor: client.redactor, handles: pool)
        let first = try client.send(HTTPRequest(url: server.base + "/peer")).bodyText
        let second = try client.send(HTTPRequest(url: server.base + "/peer")).bodyText
        #expect(!first.isEmpty && first == second, "the same client port: \(first), \(second)")
        // A client made for the next request goes on the same connection too (the fetch makes one per request).
        let next = try HTTPClient(settings: HTTPClientSettings(), redactor: Redactor(secrets: []), handles: pool)
            .send(HTTPRequest(url: server.base + "/peer")).bodyText
        #expect(next == first)
        // A connection the server closed is not used again: the next request opens another and is answered.
        #expect(throws: HTTPError.self) { try client.send(HTTPRequest(url: server.base + "/truncated")) }
        #expect(try client.send(HTTPRequest(url: server.base + "/ok")).bodyText == "hello")
        // Transfers at the same time each have a handle of their own (a connection each), and all are answered.
        let answers = Mutex<[String]>([])
        let shared = client, slow = server.base + "/slow/50"
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let text = (try? shared.send(HTTPRequest(url: slow)).bodyText) ?? "failed"
            answers.withLock { $0.append(text) }
        }
        #expect(answers.withLock { $0 } == Array(repeating: "slow", count: 8))
    }

    @Test func gzipBodiesAreDecoded() throws {
        let response = try client.send(HTTPRequest(url: server.base + "/gzip"))
        #expect(response.bodyText == "compressed hello")
    }

    @Test func postSendsBodyAndHeaders() throws {
        let body = Array(#"{"reportKey": "A6F6"}"#.utf8)
        let response = try client.send(HTTPRequest(method: "POST", url: server.base + "/echo",
                                                    headers: [("Content-Type", "application/json")], body: body))
        #expect(response.body == body)
        let headers = try client.send(HTTPRequest(url: server.base + "/headers", headers: [("X-Sim-Fault", "none")]))
        #expect(headers.bodyText.contains("X-Sim-Fault: none"))
    }

    @Test func bodyStreamsToAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let response = try client.send(HTTPRequest(url: server.base + "/ok"), to: .file(path))
        #expect(response.body.isEmpty)
        #expect(response.bodySize == 5)
        #expect(FileManager.default.contents(atPath: path) == Data("hello".utf8))
    }

    @Test func aBodyOfSeveralMegabytesReachesItsFileWhole() throws {
        // Larger than the sink's write buffer and not a multiple of it: every byte in its place, the last part too.
        let body = (0..<(3 * TransferSink.bufferSize + 12_345)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let response = try client.send(HTTPRequest(method: "POST", url: server.base + "/echo", body: body), to: .file(path))
        #expect(response.bodySize == body.count)
        #expect(FileManager.default.contents(atPath: path) == Data(body))
    }

    @Test func transient503And429AreRetriedThenSucceed() throws {
        let (response, attempts) = try client.sendRetrying(HTTPRequest(url: server.base + "/flaky/a/2/503"), sleep: { _ in })
        #expect(response.status == 200)
        #expect(response.bodyText == "recovered")
        #expect(attempts == 3)
        var waits: [Double] = []
        let (limited, tries) = try client.sendRetrying(HTTPRequest(url: server.base + "/flaky/b/1/429"), sleep: { waits.append($0) })
        #expect(limited.status == 200)
        #expect(tries == 2)
        #expect(waits == [0])  // the server's Retry-After: 0, not the backoff
    }

    @Test func clientErrorsAreNotRetried() throws {
        let (response, attempts) = try client.sendRetrying(HTTPRequest(url: server.base + "/flaky/c/5/404"), sleep: { _ in })
        #expect(response.status == 404)
        #expect(attempts == 1)
    }

    @Test func retriesStopAtTheLimit() throws {
        let (response, attempts) = try client.sendRetrying(HTTPRequest(url: server.base + "/flaky/d/9/500"), sleep: { _ in })
        #expect(response.status == 500)
        #expect(attempts == 3)
    }

    @Test func aRefusedConnectionIsATransientErrorWithARedactedURL() throws {
        // Port 9 (discard) is closed on loopback here; the URL carries a secret that must not leak.
        #expect {
            try client.send(HTTPRequest(url: "http://127.0.0.1:9/report?token=s3cret-token"))
        } throws: { error in
            guard let error = error as? HTTPError else { return false }
            return error.kind == .connection && error.isTransient && !error.description.contains("s3cret")
                && error.description.contains("token=***")
        }
    }

    @Test func aTruncatedBodyIsAnError() throws {
        #expect(throws: HTTPError.self) { try client.send(HTTPRequest(url: server.base + "/truncated")) }
    }

    @Test func aSlowServerTimesOut() throws {
        var settings = HTTPClientSettings()
        settings.totalTimeout = 0.3
        let impatient = HTTPClient(settings: settings)
        #expect {
            try impatient.send(HTTPRequest(url: server.base + "/slow/2000"))
        } throws: { error in
            (error as? HTTPError)?.kind == .timeout
        }
    }
    /// A 307 to another host would re-send the SOAP body (the RPX license key, the Yardi password): refused, and the
    /// other host receives nothing.
    @Test func aRedirectToAnotherOriginIsRefusedAndNothingIsSentThere() throws {
        let other = try LoopbackServer()
        let to = other.base + "/inbox/stolen/0"
        let request = HTTPRequest(method: "POST", url: server.base + "/redirect/307?to=" + percentEncoded(to),
                                  headers: [("Content-Type", "text/xml")], body: Array("<licensekey>s3cret-token</licensekey>".utf8))
        #expect { _ = try client.send(request) } throws: { error in
            guard let error = error as? HTTPError else { return false }
            return error.kind == .usage && error.message == "refused to follow a redirect to another origin (credentials are only sent to the host configured): \(to)"
        }
        #expect(try client.send(HTTPRequest(url: other.base + "/inbox/stolen")).bodyText == "[]")
    }

    /// A redirect on the same origin is followed: 307 repeats the POST and its body.
    @Test func aRedirectOnTheSameOriginIsFollowed() throws {
        let request = HTTPRequest(method: "POST", url: server.base + "/redirect/307?to=%2Fecho", body: Array("same body".utf8))
        let response = try client.send(request)
        #expect(response.status == 200 && response.bodyText == "same body")
        let get = try client.send(HTTPRequest(url: server.base + "/redirect/302?to=" + percentEncoded(server.base + "/ok")))
        #expect(get.status == 200 && get.bodyText == "hello")
    }

    /// https -> http would send the credentials in clear; http -> https on the same host is an upgrade.
    @Test func aRedirectToAWeakerSchemeIsRefused() throws {
        let redactor = Redactor(secrets: [])
        #expect { _ = try HTTPClient.redirectTarget(from: "https://gateway.example.com/svc", location: "http://gateway.example.com/svc",
                                                    redactor: redactor) } throws: { error in
            (error as? HTTPError)?.message == "refused to follow a redirect from https to plain http (credentials would travel in clear): http://gateway.example.com/svc"
        }
        #expect(try HTTPClient.redirectTarget(from: "http://gateway.example.com/svc", location: "https://gateway.example.com/svc2",
                                              redactor: redactor) == "https://gateway.example.com/svc2")
        #expect(try HTTPClient.redirectTarget(from: "https://gateway.example.com/a/b", location: "c?x=1",
                                              redactor: redactor) == "https://gateway.example.com/a/c?x=1")
        #expect(throws: HTTPError.self) {
            _ = try HTTPClient.redirectTarget(from: "https://gateway.example.com/a", location: "https://gateway.example.com:8443/a",
                                              redactor: redactor)
        }
    }

    private func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}

/// TLS is verified: a certificate nobody vouches for is refused, and accepted once its CA bundle is named.
@Suite struct TLSVerificationTests {
    @Test func aSelfSignedServerIsRefusedUnlessItsCABundleIsGiven() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cert = directory.appendingPathComponent("cert.pem").path, key = directory.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0)
        let server = try LoopbackServer(extraArguments: ["--tls", cert, key])
        #expect(server.base.hasPrefix("https://"))

        #expect {
            try HTTPClient().send(HTTPRequest(url: server.base + "/ok"))
        } throws: { error in
            (error as? HTTPError)?.description.contains("certificate") == true
        }
        var settings = HTTPClientSettings()
        settings.caBundle = cert
        let response = try HTTPClient(settings: settings).send(HTTPRequest(url: server.base + "/ok"))
        #expect(response.status == 200 && response.bodyText == "hello")
    }
}

@Suite struct RetryPolicyTests {
    @Test func backoffGrowsExponentiallyWithJitterAndIsCapped() {
        let policy = RetryPolicy(maxAttempts: 6, baseDelay: 1, maxDelay: 10)
        #expect(policy.delay(afterAttempt: 1, retryAfter: nil, random: 1) == 1)
        #expect(policy.delay(afterAttempt: 3, retryAfter: nil, random: 1) == 4)
        #expect(policy.delay(afterAttempt: 3, retryAfter: nil, random: 0) == 2)
        #expect(policy.delay(afterAttempt: 9, retryAfter: nil, random: 1) == 10)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 7, random: 0) == 7)
    }

    @Test func retryAfterAcceptsSecondsAndHTTPDates() {
        #expect(RetryPolicy.retryAfterSeconds("120") == 120)
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(RetryPolicy.retryAfterSeconds("Tue, 14 Nov 2023 22:13:50 GMT", now: now) == 30)
        #expect(RetryPolicy.retryAfterSeconds(nil) == nil)
    }

    @Test func redactionHidesEverySecret() {
        let redactor = Redactor(secrets: ["hunter22", "LICENSE-KEY-123"])
        #expect(redactor.redact("pw=hunter22&key=LICENSE-KEY-123") == "pw=***&key=***")
    }

}
