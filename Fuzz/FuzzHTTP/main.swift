import CFuzzDriver
import Foundation
import HTTPServer
import OwnerDashCore
import Serve
import SQLiteKit
import Sync

/// libFuzzer entry point over `ownerdash serve`'s request handling: each input is the raw bytes a client sends (request
/// line, headers, body), fed through one end of a socketpair to the real server (`HTTPServer.adopt`), so everything
/// that turns them into typed values runs as in production: libmicrohttpd's parsing, the header and body limits, path
/// segments, query parameters of every endpoint, cookies (the signed session, the sign-in flow), the bearer token's
/// JWT (base64url, JSON, algorithm, key id, RS256 / ES256 verification), the If-None-Match list, form bodies and
/// the CSRF check. Behind it: a small unified.db, a users.db (an owner and a manager), and an in-process stand-in
/// for the OpenID provider (discovery and a JWKS of fixed public keys).
///
/// Seeds (scripts/fuzz.sh) carry a session cookie signed with `cookieKey` below and naming a session kept in
/// users.db (`keepSessions`), so mutated requests get past sign-in and reach the pages and the API. A 500 answer, a response that is not HTTP, or an answer (or a whole
/// request's answer) not finished within 8 s is a finding (the process aborts with the request). An incomplete
/// request gets no answer (libmicrohttpd waits for the rest until its timeout, as for a slow client): the harness
/// gives it 20 ms and moves on.
enum FuzzHTTP {
    /// The session key the seeds' cookies are signed with (scripts/fuzz.sh computes the same HMAC); fuzzing only.
    static let cookieKey = Array("ownerdash-fuzz-cookie-key-32byte".utf8)

    final class World: @unchecked Sendable {
        let provider: HTTPServer
        let server: DashboardServer
        let directory: String
        let users: UserStore

        init() throws {
            directory = NSTemporaryDirectory() + "ownerdash-fuzz-http-\(getpid())"
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let data = DataDirectory(root: directory)
            try FuzzHTTP.makeData(data)
            users = try UserStore(dataDirectory: data, create: true)
            try users.add(email: "owner@example.com", role: .owner, properties: [], at: "2026-11-22T00:00:00Z")
            try users.add(email: "manager@example.com", role: .manager, properties: ["yp"], at: "2026-11-22T00:00:00Z")
            try World.keepSessions(users)

            // The provider stand-in: discovery and the JWKS; the token endpoint answers 404 (a refused exchange).
            let jwks = """
                {"keys": [{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": "rsa1", "e": "AQAB", "n": "\(FuzzHTTP.rsaModulus)"},
                          {"kty": "EC", "use": "sig", "alg": "ES256", "kid": "ec1", "crv": "P-256", "x": "\(FuzzHTTP.ecX)", "y": "\(FuzzHTTP.ecY)"}]}
                """
            final class Issuer: @unchecked Sendable { var url = "" }
            let issuer = Issuer()
            provider = try HTTPServer(settings: ServerSettings(host: "127.0.0.1", port: 0)) { request in
                switch request.path {
                case "/.well-known/openid-configuration":
                    let base = issuer.url
                    return ServerResponse(status: 200, contentType: "application/json", text: """
                        {"issuer": "\(base)", "authorization_endpoint": "\(base)/authorize", "token_endpoint": "\(base)/token",
                         "jwks_uri": "\(base)/jwks", "end_session_endpoint": "\(base)/logout"}
                        """)
                case "/jwks":
                    return ServerResponse(status: 200, contentType: "application/json", text: jwks)
                default:
                    return ServerResponse(status: 404, contentType: "text/plain", text: "no\n")
                }
            }
            issuer.url = "http://127.0.0.1:\(provider.port)"
            var settings = SignInSettings(issuer: issuer.url, clientID: "ownerdash", clientSecret: "fuzz",
                                          redirectURL: "http://127.0.0.1/auth/callback", cookieKey: FuzzHTTP.cookieKey)
            settings.secureCookies = false
            settings.keyRefetchSeconds = 3600   // an unknown kid must not make every input fetch the JWKS again
            // The server's errors only (what a 500 points to); a refused token or sign-in per input would bury them.
            let log = Diagnostics(quiet: true) { line in
                if line.contains("error: ") { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            }
            let signIn = SignIn(provider: try OIDCProvider(settings: settings), users: try UserStore(dataDirectory: data, create: false), log: log)
            var serverSettings = ServerSettings(host: "127.0.0.1", port: 0)
            serverSettings.threads = 2
            // Inputs the server rightly leaves waiting (see `expectsAnswer`) are dropped by the harness; the server
            // closes them after this long, and the limits leave room for those not yet closed.
            serverSettings.timeoutSeconds = 2
            serverSettings.connectionLimit = 600
            serverSettings.connectionsPerIP = 600
            server = try DashboardServer(dataDirectory: data, settings: serverSettings, log: log, signIn: signIn)
        }

        /// The sessions the seeds' cookies name (scripts/fuzz/http_seeds.py), stored again after an input that may
        /// have signed one out, so every input meets the same server.
        static func keepSessions(_ users: UserStore) throws {
            let far = 4_102_444_800   // 2100-01-01, as the seeds' cookies
            try users.keepSession(id: "fuzz-session-owner", email: "owner@example.com", csrf: "csrf-owner", expiresAt: far, now: 0)
            try users.keepSession(id: "fuzz-session-manager", email: "manager@example.com", csrf: "csrf-manager", expiresAt: far, now: 0)
        }
    }

    nonisolated(unsafe) static var world: World?

    static func run(_ bytes: [UInt8]) {
        if world == nil {
            do {
                world = try World()
            } catch {
                fatalError("FuzzHTTP: cannot set up the server: \(error)")
            }
        }
        guard let world else { return }
        defer {
            if bytes.count >= 7, String(decoding: bytes, as: UTF8.self).lowercased().contains("signout") {
                do { try World.keepSessions(world.users) } catch { fatalError("FuzzHTTP: users.db: \(error)") }
            }
        }
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { fatalError("socketpair: \(errno)") }
        let client = pair[0]
        defer { close(client) }
        guard world.server.adopt(socket: pair[1]) else { fatalError("the server did not take the connection") }
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        var response: [UInt8] = []
        var sent = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        let started = Date()
        var firstByte: Date?
        var allSent: Date?
        let deadline = started.addingTimeInterval(8)
        // How long to wait for the first byte once everything is sent: libmicrohttpd ignores a client's half-close
        // while a request is incomplete and waits for the rest until its timeout (as for any slow client), so an
        // input that cannot be a whole request gets a short look (long enough to parse what came), others 2 s.
        let patience: TimeInterval = expectsAnswer(bytes) ? 2 : 0.02
        if bytes.isEmpty {
            shutdown(client, Int32(SHUT_WR))
            allSent = started
        }
        // Write and read together: the server may answer (413, 431) and stop reading before the input is all sent.
        while true {
            var poll_ = pollfd(fd: client, events: Int16(POLLIN) | (sent < bytes.count ? Int16(POLLOUT) : 0), revents: 0)
            let ready = poll(&poll_, 1, 5)
            if response.isEmpty, let allSent, Date().timeIntervalSince(allSent) > patience { break }
            if Date() > deadline {
                fatalError("FuzzHTTP: no answer within 8 s to \(bytes.count) bytes: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
            }
            guard ready > 0 else { continue }
            if poll_.revents & Int16(POLLOUT) != 0, sent < bytes.count {
                let written = bytes.withUnsafeBytes { send(client, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
                if written > 0 {
                    sent += written
                    if sent == bytes.count {
                        shutdown(client, Int32(SHUT_WR))
                        allSent = Date()
                    }
                } else if written < 0 && errno != EAGAIN {
                    sent = bytes.count   // the server closed its end: read what it said
                    shutdown(client, Int32(SHUT_WR))
                    allSent = Date()
                }
            }
            if poll_.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = recv(client, &buffer, buffer.count, 0)
                if count > 0 {
                    if firstByte == nil { firstByte = Date() }
                    response.append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EAGAIN {
                    break
                }
            }
        }
        if trace { print("FuzzHTTP: \(bytes.count) bytes, first byte after \(firstByte.map { String(format: "%.1f ms", $0.timeIntervalSince(started) * 1000) } ?? "-"), closed after \(String(format: "%.1f ms", Date().timeIntervalSince(started) * 1000))") }
        check(response, request: bytes)
    }

    /// FUZZ_HTTP_TRACE=1: one line per input with the time to the first answer byte and to the close (is it fast?).
    static let trace = ProcessInfo.processInfo.environment["FUZZ_HTTP_TRACE"] != nil

    /// Whether the input holds at least one whole request: the header block ends (a blank line), and the body
    /// declared by Content-Length, or chunked up to its last chunk, is all there. Only decides how long to wait.
    static func expectsAnswer(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") ?? text.range(of: "\n\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        let body = text[end.upperBound...]
        if head.contains("transfer-encoding:") { return body.contains("0\r\n\r\n") || body.contains("0\n\n") }
        if let field = head.range(of: "content-length:") {
            let value = head[field.upperBound...].prefix { $0 != "\r" && $0 != "\n" }.trimmingCharacters(in: .whitespaces)
            if let length = Int(value), length > body.utf8.count { return length > 64 * 1024 }   // over the limit: 413 at once
        }
        return true
    }

    /// Every answer is HTTP; none is a 500 (an error the server did not expect).
    static func check(_ response: [UInt8], request: [UInt8]) {
        guard !response.isEmpty else { return }   // the library dropped a request it could not parse
        let head = String(decoding: response.prefix(12), as: UTF8.self)
        guard head.hasPrefix("HTTP/1.") else {
            fatalError("FuzzHTTP: not an HTTP response: \(head) to \(String(decoding: request.prefix(300), as: UTF8.self))")
        }
        if head.hasSuffix(" 500") || head.hasSuffix(" 502") {
            let body = String(decoding: response.suffix(400), as: UTF8.self)
            fatalError("FuzzHTTP: \(head) to \(String(decoding: request.prefix(300), as: UTF8.self)) -> \(body)")
        }
    }

    /// A small unified.db: a Yardi property `yp` with a ledger, a RealPage property `rp` without, snapshots, work
    /// orders and expenses, one finished run (the tests' ServeFixture, smaller).
    static func makeData(_ data: DataDirectory) throws {
        let store = try UnifiedStore(dataDirectory: data)
        try store.database.execute("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source, total_units, as_of_date, ledger_source,
                                            work_order_source, expense_source)
            VALUES ('yp', 'Yardi Place', 'yardi', 2, '2026-11-20', 'yardi: test', 'yardi: test', 'yardi: test'),
                   ('rp', 'RealPage Place', 'realpage', 10, '2026-11-20', NULL, NULL, NULL);
            INSERT INTO unified_units (unified_property_id, unit_number, floor, floorplan, status, market_rent)
            VALUES ('yp', '201', '2', 'B1', 'occupied', 1900), ('yp', '101', '1', 'A1', 'occupied', 1400),
                   ('rp', '1', '1', 'A1', 'vacant', 1200);
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, email, phone, status)
            VALUES ('yp', 't1', '101', 'Lee, Ann', 'ann@example.com', '555-0101', 'current'),
                   ('yp', 't2', '201', 'Ito, Ken', NULL, NULL, 'current');
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES ('yp', 'c1', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 1400, 1400, 0),
                   ('yp', 'c3', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 1400, 500, 900);
            INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date,
                period, amount, reference, payment_type)
            VALUES ('yp', 'p1', 't1', 'L1', '101', '2026-10-03', '2026-10', 1400, 'CHK 1001', 'Check');
            INSERT INTO unified_leases (unified_property_id, lease_id, unit_number, resident_id, start_date, end_date,
                                        status, is_renewal, is_month_to_month)
            VALUES ('yp', 'L1', '101', 't1', '2026-10-01', '2027-09-30', 'current', 0, 0);
            INSERT INTO unified_recurring_charges (unified_property_id, lease_id, resident_id, unit_number, charge_code,
                category, category_known, amount, start_date, end_date)
            VALUES ('yp', 'L1', 't1', '101', 'rent', 'RENT', 1, 1400, '2026-10-01', '2027-09-30');
            INSERT INTO unified_occupancy_metrics (
                unified_property_id, as_of_date, total_units, occupied_units, vacant_units, vacant_leased,
                vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90, aged_vacancy_cost, on_notice,
                notice_leased, notice_not_leased, pre_leased, model_units, down_units, leased_units,
                physical_occupancy, leased_pct, exposure_now, exposure_30, exposure_60,
                exposure_now_pct, exposure_30_pct, exposure_60_pct, source)
            VALUES ('yp', '2026-11-20', 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 100, 100, 0, 0, 1, 0, 0, 50, 'test'),
                   ('rp', '2026-11-20', 10, 9, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 90, 90, 1, 1, 2, 10, 10, 20, 'test');
            INSERT INTO unified_work_orders (unified_property_id, work_order_id, unit_number, category, description, status,
                opened_date, completed_date, days_to_complete, source)
            VALUES ('yp', 'w1', '101', 'Plumbing', 'leak', 'open', '2026-09-01', NULL, NULL, 'test'),
                   ('yp', 'w2', '201', 'HVAC', 'filter', 'closed', '2026-11-01', '2026-11-03', 2, 'test');
            INSERT INTO unified_expenses (unified_property_id, month, gl_account, account_name, gl_category, category_known,
                amount, source)
            VALUES ('yp', '2026-10', '6310', 'Repairs', 'Repairs & Maintenance', 1, 812.5, 'test');
            INSERT INTO etl_runs (run_id, trigger, started_at, finished_at, status, properties, properties_synced)
            VALUES ('20261120T020000Z-ab12', 'ingest', '2026-11-20T02:00:00Z', '2026-11-20T02:04:00Z', 'succeeded', 2, 2);
            INSERT INTO etl_run_items (run_id, property_id, stage, status, rows, duration_ms)
            VALUES ('20261120T020000Z-ab12', 'yp', 'sync', 'succeeded', 2, 40);
            """)
    }

    // Public halves of two fixed test keys (their private halves were discarded: no input can carry a valid
    // signature, so the fuzzer exercises everything up to and including the signature check).
    static let rsaModulus = "yI4KL7I6coqO3TAieyt8d4UhAAr0ohN_wdevaADQn2nQTDXCWUjke0h0uXvInFB7kZF7qHH3it8zJM-T66K0rsJqEdNfWT_sPKkEWV133eQa8ZgNA2KtfNOcE6xfmfbI64prLnwJtWYaLSs_muxbXya3wh0LSZInsWQIQtxmfFs6wt2lslbx9EiHz5pB4FybwZE1Ba4QDnDsAlji_p5oli760JyQv6msu7DolUvbEUPYqMEwDEvLOLBw4wk8A-EVfmmPmH6kKUWJfDE-6nNADH1-GSmhXGib1ZS39_IPGggGHGqMnCXbte7GlKxR4yoqrdoBUAfGyzGYH6topmux0w"
    static let ecX = "y21G4TZOXmivjzu9Uxnh3Wsd_SFBcWhWqhKx6NoZLao"
    static let ecY = "QhcoEuLGBfFk_0ZbhFDwxaTCGIlZswqEdy2eFh2D8M0"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzHTTP.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// SwiftPM names an executable's entry point `<Target>_main` and makes it the process's `main`.
@_cdecl("FuzzHTTP_main")
public func fuzzHTTPMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzHTTPOneInput)
}
