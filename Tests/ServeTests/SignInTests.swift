import CurlKit
import Foundation
import HTTPServer
import LibCryptoKit
import OwnerDashCore
import PostgresKit
import PostgresTestSupport
import Testing
@testable import Serve

/// scripts/oidc/provider.py on an ephemeral loopback port, for one test: it exits when its stdin closes.
final class TestProvider {
    let process = Process()
    let input = Pipe()
    let issuer: String
    let http = HTTPClient()

    init() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/oidc/provider.py").path,
                             "--client-id", "ownerdash", "--client-secret", "test-secret"]
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
        issuer = String(text.dropFirst("listening on ".count))
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// A token straight from the provider (`kind`: valid, es256, expired, wrong_aud, ...).
    func token(_ kind: String, email: String = "owner@example.com") throws -> String {
        try http.send(HTTPRequest(url: "\(issuer)/issue?kind=\(kind)&email=\(email)")).bodyText
    }

    func rotate() throws { _ = try http.send(HTTPRequest(method: "POST", url: "\(issuer)/rotate", body: [])) }

    func stat(_ name: String) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(try http.send(HTTPRequest(url: "\(issuer)/stats")).body)) as? [String: Int]
        return object?[name] ?? -1
    }
}

/// A server behind sign-in with the test provider; users: owner@example.com (owner), manager@example.com (yp only).
final class SignedInServer {
    let fixture: ServeFixture
    let provider: TestProvider
    let server: DashboardServer
    var port: UInt16 { server.port }

    /// `users`: where the users and sessions are (default the fixture's users.db); `cookieKey`: the key replicas
    /// behind one proxy share.
    init(keyRefetchSeconds: Double = 10, secureCookies: Bool = true, users makeUsers: ((DataDirectory) throws -> UserStore)? = nil,
         cookieKey: [UInt8]? = nil) throws {
        fixture = try ServeFixture()
        provider = try TestProvider()
        let openUsers = makeUsers ?? { try UserStore(dataDirectory: $0, create: true) }
        let users = try openUsers(fixture.dataDirectory)
        try users.add(email: "Owner@Example.com", role: .owner, properties: [], at: "2026-11-22T00:00:00Z")
        try users.add(email: "manager@example.com", role: .manager, properties: ["yp"], at: "2026-11-22T00:00:00Z")
        var settings = SignInSettings(issuer: provider.issuer, clientID: "ownerdash", clientSecret: "test-secret",
                                      redirectURL: "http://127.0.0.1/auth/callback", cookieKey: try cookieKey ?? LibCrypto.randomBytes(32))
        settings.keyRefetchSeconds = keyRefetchSeconds
        settings.secureCookies = secureCookies
        let oidc = try OIDCProvider(settings: settings)
        var serverSettings = ServerSettings(host: "127.0.0.1", port: 0)
        serverSettings.threads = 2
        server = try DashboardServer(dataDirectory: fixture.dataDirectory, settings: serverSettings, log: Diagnostics(quiet: true),
                                     signIn: SignIn(provider: oidc, users: try makeUsers?(fixture.dataDirectory)
                                                        ?? UserStore(dataDirectory: fixture.dataDirectory, create: false),
                                                    log: Diagnostics(quiet: true)))
    }

    func get(_ path: String, headers: [(String, String)] = []) throws -> RawResponse {
        try RawResponse.send(port: port, "GET", path, headers: headers)
    }

    func post(_ path: String, headers: [(String, String)] = [], body: String = "") throws -> RawResponse {
        try RawResponse.send(port: port, "POST", path, headers: headers, body: body)
    }

    /// Signs in through the whole browser flow (provider login form included) and returns the session cookie.
    func signIn(email: String, next: String = "/") throws -> (cookie: String, landing: RawResponse, callback: String, flow: String) {
        let start = try get("/auth/signin?next=\(FormEncoding.encode(next))")
        let flow = try #require(start.headers("Set-Cookie").first { $0.hasPrefix("od_flow=") })
        let location = try #require(start.header("Location"))
        let (providerPort, authorize) = try #require(splitURL(location))
        let form = try RawResponse.send(port: providerPort, "GET", authorize)
        #expect(form.status == 200 && form.body.contains("id=\"email\""))
        let query = try #require(URLComponents(string: "http://x\(authorize)")?.queryItems)
        let fields = query.map { "\(FormEncoding.encode($0.name))=\(FormEncoding.encode($0.value ?? ""))" } + ["email=\(FormEncoding.encode(email))"]
        let login = try RawResponse.send(port: providerPort, "POST", "/authorize", body: fields.joined(separator: "&"))
        let redirect = try #require(login.header("Location"))
        // The registered redirect is http://127.0.0.1/auth/callback; the server under test listens on its own port.
        let callback = String(redirect.dropFirst("http://127.0.0.1".count))
        let flowCookie = String(flow.prefix { $0 != ";" })
        let landing = try get(callback, headers: [("Cookie", flowCookie)])
        let session = landing.headers("Set-Cookie").first { $0.hasPrefix("od_session=") }.map { String($0.prefix { $0 != ";" }) } ?? ""
        return (session, landing, callback, flowCookie)
    }
}


@Suite struct BearerTokenTests {
    @Test func validTokensOfBothAlgorithmsAreAccepted() throws {
        let signed = try SignedInServer()
        for kind in ["valid", "es256"] {
            let response = try signed.get("/api/v2/properties", headers: [("Authorization", "Bearer \(try signed.provider.token(kind))")])
            #expect(response.status == 200, "\(kind): \(response.body)")
            #expect(response.body.contains("\"property\": \"rp\""))
        }
    }

    @Test(arguments: ["expired", "not_yet_valid", "wrong_aud", "wrong_iss", "alg_none", "bad_signature", "unknown_kid", "no_email"])
    func refusedTokensAre401(kind: String) throws {
        let signed = try SignedInServer()
        let response = try signed.get("/api/v2/properties", headers: [("Authorization", "Bearer \(try signed.provider.token(kind))")])
        #expect(response.status == 401, "\(kind)")
        #expect(response.header("WWW-Authenticate")?.contains("invalid_token") == true)
        #expect(!response.body.contains("rp"))
    }

    @Test func garbageAndOtherSchemesAre401AndAStrangerIs403() throws {
        let signed = try SignedInServer()
        for value in ["Bearer not.a.token", "Bearer ", "Basic b3duZXI6cGFzcw==", "Bearer \(String(repeating: "a.", count: 2))"] {
            #expect(try signed.get("/api/v2/properties", headers: [("Authorization", value)]).status == 401, "\(value)")
        }
        let stranger = try signed.provider.token("valid", email: "stranger@example.com")
        #expect(try signed.get("/api/v2/properties", headers: [("Authorization", "Bearer \(stranger)")]).status == 403)
    }

    @Test func aRotatedKeyIsFetchedOnItsFirstToken() throws {
        let signed = try SignedInServer(keyRefetchSeconds: 0)
        let before = try signed.provider.stat("jwks_fetches")
        #expect(try signed.get("/api/v2/properties", headers: [("Authorization", "Bearer \(try signed.provider.token("valid"))")]).status == 200)
        #expect(try signed.provider.stat("jwks_fetches") == before)   // cached
        try signed.provider.rotate()
        let rotated = try signed.provider.token("valid")
        #expect(try signed.get("/api/v2/properties", headers: [("Authorization", "Bearer \(rotated)")]).status == 200)
        #expect(try signed.provider.stat("jwks_fetches") == before + 1)
    }

    @Test func unknownKidsDoNotHammerTheProvider() throws {
        let signed = try SignedInServer()   // at most one JWKS fetch per 10 s
        let before = try signed.provider.stat("jwks_fetches")
        for _ in 0..<5 {
            #expect(try signed.get("/api/v2/properties", headers: [("Authorization", "Bearer \(try signed.provider.token("unknown_kid"))")]).status == 401)
        }
        #expect(try signed.provider.stat("jwks_fetches") - before <= 1)
    }
}

@Suite struct SessionTests {
    @Test func nothingButHealthzBeforeSignIn() throws {
        let signed = try SignedInServer()
        #expect(try signed.get("/healthz").status == 200)
        let page = try signed.get("/?tab=1")
        #expect(page.status == 302)
        #expect(page.header("Location") == "/auth/signin?next=%2F%3Ftab%3D1")
        #expect(try signed.get("/anything").status == 302)
        let api = try signed.get("/api/v2/properties/yp/summary")
        #expect(api.status == 401)
        #expect(!api.body.contains("Yardi"))
    }

    @Test func authorizationCodeFlowWithPKCEStateAndNonce() throws {
        let signed = try SignedInServer()
        let start = try signed.get("/auth/signin?next=%2Fapi%2Fv2%2Fproperties")
        #expect(start.status == 302)
        let location = try #require(start.header("Location"))
        let query = Dictionary(uniqueKeysWithValues: (URLComponents(string: location)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(location.hasPrefix(signed.provider.issuer + "/authorize?"))
        #expect(query["response_type"] == "code" && query["client_id"] == "ownerdash" && query["code_challenge_method"] == "S256")
        #expect((query["state"]?.count ?? 0) >= 32 && (query["nonce"]?.count ?? 0) >= 32 && query["code_challenge"]?.count == 43)
        let flowCookie = try #require(start.headers("Set-Cookie").first { $0.hasPrefix("od_flow=") })
        #expect(flowCookie.contains("HttpOnly") && flowCookie.contains("SameSite=Lax"))

        let (session, landing, _, _) = try signed.signIn(email: "owner@example.com", next: "/api/v2/properties")
        #expect(landing.status == 303)
        #expect(landing.header("Location") == "/api/v2/properties")
        let setCookie = try #require(landing.headers("Set-Cookie").first { $0.hasPrefix("od_session=") })
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && setCookie.contains("; Secure"))
        let api = try signed.get("/api/v2/properties", headers: [("Cookie", session)])
        #expect(api.status == 200)
        #expect(api.body.contains("\"property\": \"rp\""))
        let home = try signed.get("/", headers: [("Cookie", session)])
        #expect(home.status == 200 && home.body.contains("owner@example.com"))
        #expect(try signed.provider.stat("token_requests") == 1)
    }

    @Test func aForgedStateOrAReplayedCodeIsRefused() throws {
        let signed = try SignedInServer()
        let start = try signed.get("/auth/signin")
        let flow = String(try #require(start.headers("Set-Cookie").first { $0.hasPrefix("od_flow=") }).prefix { $0 != ";" })
        #expect(try signed.get("/auth/callback?code=x&state=forged", headers: [("Cookie", flow)]).status == 400)
        #expect(try signed.get("/auth/callback?code=x&state=forged").status == 400)   // no flow cookie at all
        // A real code used twice: the provider refuses the second exchange.
        let (_, landing, callback, flowCookie) = try signed.signIn(email: "owner@example.com")
        #expect(landing.status == 303)
        let replay = try signed.get(callback, headers: [("Cookie", flowCookie)])
        #expect(replay.status == 401)
        #expect(!replay.headers("Set-Cookie").contains { $0.hasPrefix("od_session=") })
        #expect(try signed.get("/auth/callback?error=access_denied").status == 401)
    }

    @Test func aTamperedOrForeignSessionIsNoSession() throws {
        let signed = try SignedInServer()
        let (session, _, _, _) = try signed.signIn(email: "manager@example.com")
        #expect(try signed.get("/api/v2/properties", headers: [("Cookie", session)]).status == 200)
        // Change the session id or stretch the expiry inside the payload: the MAC no longer matches.
        let value = session.dropFirst("od_session=".count)
        let parts = value.split(separator: ".")
        // A sign-in that failed leaves no cookie: an issue, not an index out of range ending the whole test process.
        try #require(parts.count == 2, "session cookie: \(session)")
        let payload = try #require(Base64URL.decode(parts[0]))
        var fields = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        let id = try #require(fields["i"] as? String)
        for change in [["i": String(id.reversed())], ["x": Int(Date().timeIntervalSince1970) + 86_400 * 365]] as [[String: Any]] {
            fields.merge(change) { $1 }
            let json = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
            let forged = "od_session=\(Base64URL.encode(Array(json))).\(parts[1])"
            #expect(try signed.get("/api/v2/properties", headers: [("Cookie", forged)]).status == 401)
            #expect(try signed.get("/", headers: [("Cookie", forged)]).status == 302)
        }
        // The same session id signed with another server's key.
        let other = SignedCookie(key: try LibCrypto.randomBytes(32)).seal(["i": id, "x": Int(Date().timeIntervalSince1970) + 600])
        #expect(try signed.get("/api/v2/properties", headers: [("Cookie", "od_session=\(other)")]).status == 401)
    }

    @Test func signOutNeedsTheCSRFToken() throws {
        let signed = try SignedInServer()
        let (session, _, _, _) = try signed.signIn(email: "owner@example.com")
        let home = try signed.get("/", headers: [("Cookie", session)])
        let csrf = try #require(home.body.components(separatedBy: "name=\"csrf\" value=\"").dropFirst().first?.prefix { $0 != "\"" })
        #expect(try signed.post("/auth/signout", headers: [("Cookie", session)]).status == 403)
        #expect(try signed.post("/auth/signout", headers: [("Cookie", session)], body: "csrf=wrong").status == 403)
        let out = try signed.post("/auth/signout", headers: [("Cookie", session)], body: "csrf=\(csrf)")
        #expect(out.status == 303)
        #expect(out.header("Location")?.hasPrefix(signed.provider.issuer + "/end_session") == true)
        #expect(out.headers("Set-Cookie").contains { $0.hasPrefix("od_session=;") && $0.contains("Max-Age=0") })
    }

    /// The CSRF token the server's home page carries for this session.
    private func csrf(_ signed: SignedInServer, _ session: String) throws -> String {
        let home = try signed.get("/", headers: [("Cookie", session)])
        return String(try #require(home.body.components(separatedBy: "name=\"csrf\" value=\"").dropFirst().first?.prefix { $0 != "\"" }))
    }

    /// `serve --database-url` as two replicas behind a proxy: the users and sessions are on PostgreSQL, so a browser
    /// signed in on one is signed in on the other, and a sign-out on either ends it on both.
    @Test func replicasOnPostgreSQLShareSessionsAndASignOutEndsItOnAll() throws {
        let server = try TestPostgres.freshDatabase("sessions")
        let key = try LibCrypto.randomBytes(32)
        let first = try SignedInServer(users: { _ in try UserStore(server: server) }, cookieKey: key)
        let second = try SignedInServer(users: { _ in try UserStore(server: server) }, cookieKey: key)
        let (session, _, _, _) = try first.signIn(email: "owner@example.com")
        #expect(try second.get("/api/v2/properties", headers: [("Cookie", session)]).status == 200)
        // No users.db anywhere: the server holds them.
        #expect(!FileManager.default.fileExists(atPath: first.fixture.dataDirectory.path("users.db")))
        let out = try second.post("/auth/signout", headers: [("Cookie", session)], body: "csrf=\(try csrf(second, session))")
        #expect(out.status == 303)
        #expect(try first.get("/api/v2/properties", headers: [("Cookie", session)]).status == 401)
        #expect(try second.get("/api/v2/properties", headers: [("Cookie", session)]).status == 401)
        // A user removed on the server (ownerdash users remove --database-url, from anywhere) is signed out everywhere.
        let manager = try first.signIn(email: "manager@example.com").cookie
        #expect(try second.get("/api/v2/properties", headers: [("Cookie", manager)]).status == 200)
        #expect(try UserStore(server: server).remove(email: "manager@example.com"))
        #expect(try first.get("/api/v2/properties", headers: [("Cookie", manager)]).status == 401)
    }

    @Test func aSignedOutSessionReplayedIsNoSession() throws {
        let signed = try SignedInServer()
        let (session, _, _, _) = try signed.signIn(email: "owner@example.com")
        #expect(try signed.get("/api/v2/properties", headers: [("Cookie", session)]).status == 200)
        let out = try signed.post("/auth/signout", headers: [("Cookie", session)], body: "csrf=\(try csrf(signed, session))")
        #expect(out.status == 303)
        // The browser dropped its cookie; a copy of it (another tab's jar, a proxy's log) comes back.
        let api = try signed.get("/api/v2/properties", headers: [("Cookie", session)])
        #expect(api.status == 401, "\(api.body)")
        let page = try signed.get("/debtors", headers: [("Cookie", session)])
        #expect(page.status == 302 && page.header("Location")?.hasPrefix("/auth/signin") == true)
        // Signing in again opens a new session; the old cookie stays dead.
        let (again, _, _, _) = try signed.signIn(email: "owner@example.com")
        #expect(again != session)
        #expect(try signed.get("/api/v2/properties", headers: [("Cookie", again)]).status == 200)
        #expect(try signed.get("/api/v2/properties", headers: [("Cookie", session)]).status == 401)
    }

    @Test func removingAUserOrChangingTheirRoleEndsTheirSessions() throws {
        let signed = try SignedInServer()
        let manager = try signed.signIn(email: "manager@example.com").cookie
        let owner = try signed.signIn(email: "owner@example.com").cookie
        let ownerElsewhere = try signed.signIn(email: "owner@example.com").cookie
        // `ownerdash users` runs in another process: its own connection to users.db.
        let store = try UserStore(dataDirectory: signed.fixture.dataDirectory, create: true)
        let now = Int(Date().timeIntervalSince1970)
        #expect(try store.sessionCount(email: "owner@example.com", now: now) == 2)
        // The same role and properties again change nothing: the session goes on.
        #expect(try store.add(email: "manager@example.com", role: .manager, properties: ["yp"], at: "t") == 0)
        #expect(try signed.get("/api/v2/properties", headers: [("Cookie", manager)]).status == 200)
        // A manager made an owner signs in again under the new role.
        #expect(try store.add(email: "manager@example.com", role: .owner, properties: [], at: "t") == 1)
        #expect(try signed.get("/api/v2/properties", headers: [("Cookie", manager)]).status == 401)
        #expect(try signed.get("/api/v2/properties", headers: [("Cookie", owner)]).status == 200)
        // A removed user's every session ends.
        #expect(try store.remove(email: "owner@example.com"))
        for cookie in [owner, ownerElsewhere] {
            #expect(try signed.get("/api/v2/properties", headers: [("Cookie", cookie)]).status == 401)
        }
        #expect(try store.sessionCount(email: "owner@example.com", now: now) == 0)
    }

    @Test func usersDBHoldsNoLiveSessionID() throws {
        let fixture = try ServeFixture()
        let store = try UserStore(dataDirectory: fixture.dataDirectory, create: true)
        try store.add(email: "owner@example.com", role: .owner, properties: [], at: "t")
        let now = Int(Date().timeIntervalSince1970)
        let id = try store.openSession(email: "owner@example.com", csrf: "token", expiresAt: now + 60, now: now)
        #expect(try store.session(id: id, now: now) == Session(email: "owner@example.com", csrf: "token", expiresAt: now + 60))
        #expect(try store.session(id: id, now: now + 60) == nil)   // expired
        #expect(try store.session(id: id + "x", now: now) == nil)
        let path = URL(fileURLWithPath: fixture.dataDirectory.root).appendingPathComponent("users.db").path
        for file in [path, path + "-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            #expect(bytes.range(of: Data(id.utf8)) == nil, "\(file) holds the session id")
        }
        #expect(try store.closeSession(id: id))
        #expect(try !store.closeSession(id: id))
    }

    @Test(arguments: [true, false])
    func cookiesAreSecureExactlyWhenThePublicURLIsHTTPS(secure: Bool) throws {
        let signed = try SignedInServer(secureCookies: secure)
        let start = try signed.get("/auth/signin?next=/")
        let (_, landing, _, _) = try signed.signIn(email: "owner@example.com")
        let cookies = start.headers("Set-Cookie") + landing.headers("Set-Cookie")
        #expect(cookies.contains { $0.hasPrefix("od_session=") } && cookies.contains { $0.hasPrefix("od_flow=") })
        for cookie in cookies { #expect(cookie.hasSuffix("; Secure") == secure, "\(cookie)") }
    }

    @Test func nextIsAlwaysALocalPath() {
        #expect(SignIn.localPath("/api/v2/properties?x=1") == "/api/v2/properties?x=1")
        for hostile in ["https://evil.example.com", "//evil.example.com", "/\\evil.example.com", "javascript:alert(1)", nil] {
            #expect(SignIn.localPath(hostile) == "/")
        }
    }
}

/// Users and roles: a manager sees only their properties, everywhere; state changes carry the CSRF token.
@Suite struct RoleTests {
    @Test func aManagerSeesOnlyTheirProperties() throws {
        let signed = try SignedInServer()
        let bearer = [("Authorization", "Bearer \(try signed.provider.token("valid", email: "manager@example.com"))")]
        let list = try signed.get("/api/v2/properties", headers: bearer)
        #expect(list.status == 200)
        #expect(list.body.contains("\"property\": \"yp\"") && !list.body.contains("\"rp\""))
        let own = try signed.get("/api/v2/properties/yp/summary", headers: bearer)
        #expect(own.status == 200)
        // Another property's id answers exactly like one that does not exist.
        let other = try signed.get("/api/v2/properties/rp/summary", headers: bearer)
        let missing = try signed.get("/api/v2/properties/zz/summary", headers: bearer)
        #expect(other.status == 404 && missing.status == 404)
        #expect(other.body.replacingOccurrences(of: "rp", with: "zz") == missing.body)
        for path in ["/api/v2/properties/rp/residents/raw", "/api/v2/properties/rp/debtors", "/api/v2/properties/rp/units/1/history"] {
            #expect(try signed.get(path, headers: bearer).status == 404, "\(path)")
        }
        let portfolio = try signed.get("/api/v2/portfolio/summary", headers: bearer)
        #expect(portfolio.status == 200)
        #expect(portfolio.body.contains("\"property\": \"yp\"") && !portfolio.body.contains("\"property\": \"rp\""))
        #expect(try signed.get("/api/v2/runs", headers: bearer).status == 403)
        #expect(try signed.get("/api/v2/audit/runs", headers: bearer).status == 403)
    }

    @Test func auditChangesCarryTheCSRFTokenAndStayInScope() throws {
        let signed = try SignedInServer()
        let (session, _, _, _) = try signed.signIn(email: "owner@example.com")
        let home = try signed.get("/", headers: [("Cookie", session)])
        let csrf = String(try #require(home.body.components(separatedBy: "name=\"csrf\" value=\"").dropFirst().first?.prefix { $0 != "\"" }))
        let path = "/api/v2/audit/exceptions/yp:L1:WATER:2026-10/resolve"
        let form = "fix=posted&action=charge"
        #expect(try signed.post(path, headers: [("Cookie", session)], body: form).status == 403)
        #expect(try signed.post(path, headers: [("Cookie", session), ("X-CSRF-Token", "nope")], body: form).status == 403)
        // With the token the request reaches the audit, which has no run yet: 409, nothing recorded.
        let withToken = try signed.post(path, headers: [("Cookie", session), ("X-CSRF-Token", csrf)], body: form)
        #expect(withToken.status == 409, "\(withToken.body)")
        #expect(try signed.post(path, headers: [("Cookie", session)], body: form + "&csrf=\(csrf)").status == 409)
        // A bearer token is never sent by a browser on its own: no CSRF token needed.
        let bearer = [("Authorization", "Bearer \(try signed.provider.token("valid"))")]
        #expect(try signed.post(path, headers: bearer, body: form).status == 409)
        // Missing fields name themselves; a manager cannot touch another property's exception.
        let noFix = try signed.post("/api/v2/audit/exceptions/yp:L1:WATER:2026-10/resolve", headers: bearer, body: "action=charge")
        #expect(noFix.status == 400 && noFix.body.contains("\"name\": \"fix\""))
        let manager = [("Authorization", "Bearer \(try signed.provider.token("valid", email: "manager@example.com"))")]
        #expect(try signed.post("/api/v2/audit/exceptions/rp:L9:RENT:2026-10/resolve", headers: manager, body: form).status == 404)
        #expect(try signed.post("/api/v2/audit/exceptions/not-a-key/resolve", headers: bearer, body: form).status == 400)
    }

    @Test func usersAreKeptByEMailCaseInsensitively() throws {
        let fixture = try ServeFixture()
        let store = try UserStore(dataDirectory: fixture.dataDirectory, create: true)
        try store.add(email: "Dana@Example.com", role: .manager, properties: ["yp", "rp"], at: "t")
        #expect(try store.user("dana@example.COM") == User(email: "dana@example.com", role: .manager, properties: ["rp", "yp"]))
        #expect(throws: UserError.self) { try store.add(email: "x@example.com", role: .manager, properties: [], at: "t") }
        #expect(throws: UserError.self) { try store.add(email: "not an email", role: .owner, properties: [], at: "t") }
        #expect(try store.remove(email: "DANA@example.com"))
        #expect(try store.user("dana@example.com") == nil)
        #expect(try !store.remove(email: "dana@example.com"))
    }
}
