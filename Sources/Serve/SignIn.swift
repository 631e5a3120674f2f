import Foundation
import HTTPServer
import LibCryptoKit
import OwnerDashCore

/// Who a request comes from.
public enum Access: Sendable {
    /// A known user. `csrf`: the session's token that state-changing requests must carry; nil for a bearer token
    /// (sent explicitly by an API client, never attached by a browser, so no cross-site request can carry it).
    case signedIn(Viewer, csrf: String?)
    /// No credentials: the API answers 401, pages redirect to sign-in.
    case anonymous
    /// Credentials that were refused (401) or a person who is not a user (403).
    case refused(Problem)
}

/// OpenID Connect sign-in: `/auth/signin` (authorization code flow with PKCE, state and nonce), `/auth/callback`,
/// `/auth/signout`; the session cookie (a signed session id; the session itself is kept in `users.db`, so sign-out
/// ends it); bearer tokens. Users must be in `users.db`.
public final class SignIn: Sendable {
    public let provider: OIDCProvider
    public let users: UserStore
    let log: Diagnostics
    private let cookie: SignedCookie
    private let verifier: TokenVerifier

    static let sessionCookie = "od_session"
    static let flowCookie = "od_flow"

    public init(provider: OIDCProvider, users: UserStore, log: Diagnostics) {
        self.provider = provider
        self.users = users
        self.log = log
        cookie = SignedCookie(key: provider.settings.cookieKey)
        verifier = provider.verifier
    }

    static func now() -> Int { Int(Date().timeIntervalSince1970) }

    // MARK: - Who is asking

    public func access(_ request: ServerRequest) -> Access {
        if let authorization = request.header("Authorization") {
            guard authorization.lowercased().hasPrefix("bearer ") else {
                return .refused(unauthorized("only Bearer tokens are accepted"))
            }
            let token = String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
            do {
                let claims = try verifier.verify(token)
                return user(claims.email, csrf: nil)
            } catch {
                log.warning(nil, "serve: bearer token refused: \(error)")
                return .refused(unauthorized("the bearer token was refused"))
            }
        }
        guard let value = request.cookies[Self.sessionCookie] else { return .anonymous }
        // The cookie is signed (a forged one costs no database lookup) and names a session the server keeps; a
        // cookie whose session was signed out, revoked or has expired is no session: sign in again.
        guard let fields = cookie.open(value, now: Self.now()), let id = fields["i"] as? String else { return .anonymous }
        let session: Session?
        do {
            session = try users.session(id: id, now: Self.now())
        } catch {
            log.error(nil, "serve: users.db: \(error)")
            return .refused(Problem(status: 500, title: "Internal Server Error", detail: "the sessions could not be read"))
        }
        guard let session else { return .anonymous }
        return user(session.email, csrf: session.csrf)
    }

    private func user(_ email: String, csrf: String?) -> Access {
        do {
            guard let user = try users.user(email) else {
                return .refused(Problem(status: 403, title: "Forbidden", detail: "\(email) is not a user of this dashboard (ask an owner: ownerdash users add)"))
            }
            return .signedIn(user.viewer, csrf: csrf)
        } catch {
            log.error(nil, "serve: users.db: \(error)")
            return .refused(Problem(status: 500, title: "Internal Server Error", detail: "the user list could not be read"))
        }
    }

    private func unauthorized(_ detail: String) -> Problem {
        Problem(status: 401, title: "Unauthorized", detail: detail,
                headers: ["WWW-Authenticate": "Bearer realm=\"ownerdash\", error=\"invalid_token\""])
    }

    // MARK: - /auth/...

    /// Answers `/auth/signin`, `/auth/callback` and `/auth/signout`.
    func respond(_ request: ServerRequest, action: String) -> ServerResponse {
        switch (request.method, action) {
        case ("GET", "signin"): return start(request)
        case ("GET", "callback"): return callback(request)
        case ("POST", "signout"): return signOut(request)
        default: return Problem.notFound("nothing at \(Parameters.clip(request.path))").response
        }
    }

    /// Where a page sends a visitor who is not signed in.
    static func redirectToSignIn(_ request: ServerRequest) -> ServerResponse {
        var next = request.path
        if !request.query.isEmpty {
            next += "?" + request.query.map { "\(FormEncoding.encode($0.name))=\(FormEncoding.encode($0.value))" }.joined(separator: "&")
        }
        return ServerResponse(status: 302, headers: [("Location", "/auth/signin?next=" + FormEncoding.encode(next)),
                                                     ("Cache-Control", "no-store")])
    }

    private func start(_ request: ServerRequest) -> ServerResponse {
        guard let state = try? Base64URL.encode(LibCrypto.randomBytes(24)), let nonce = try? Base64URL.encode(LibCrypto.randomBytes(24)),
              let codeVerifier = try? Base64URL.encode(LibCrypto.randomBytes(32)) else {
            return Problem(status: 500, title: "Internal Server Error", detail: "no randomness").response
        }
        let next = Self.localPath(request.queryValue("next"))
        let challenge = Base64URL.encode(LibCrypto.sha256(Array(codeVerifier.utf8)))
        let flow = cookie.seal(["s": state, "n": nonce, "v": codeVerifier, "r": next, "x": Self.now() + 600])
        let query = [
            ("response_type", "code"), ("client_id", provider.settings.clientID), ("redirect_uri", provider.settings.redirectURL),
            ("scope", "openid email"), ("state", state), ("nonce", nonce), ("code_challenge", challenge),
            ("code_challenge_method", "S256"),
        ].map { "\($0.0)=\(FormEncoding.encode($0.1))" }.joined(separator: "&")
        let separator = provider.authorizationEndpoint.contains("?") ? "&" : "?"
        return ServerResponse(status: 302, headers: [
            ("Location", provider.authorizationEndpoint + separator + query),
            ("Set-Cookie", setCookie(Self.flowCookie, flow, path: "/auth", maxAge: 600)),
            ("Cache-Control", "no-store"),
        ])
    }

    private func callback(_ request: ServerRequest) -> ServerResponse {
        let clearFlow = ("Set-Cookie", setCookie(Self.flowCookie, "", path: "/auth", maxAge: 0))
        func refuse(_ status: Int, _ detail: String) -> ServerResponse {
            var response = Problem(status: status, title: status == 403 ? "Forbidden" : "Sign-in failed", detail: detail).response
            response.headers.append(clearFlow)
            return response
        }
        if let error = request.queryValue("error") {
            return refuse(401, "the provider refused the sign-in: \(Parameters.clip(error))")
        }
        guard let flow = cookie.open(request.cookies[Self.flowCookie], now: Self.now()),
              let state = flow["s"] as? String, let nonce = flow["n"] as? String, let codeVerifier = flow["v"] as? String else {
            return refuse(400, "no sign-in in progress in this browser (or it took over 10 minutes): start again at /auth/signin")
        }
        guard let returned = request.queryValue("state"), LibCrypto.constantTimeEqual(Array(returned.utf8), Array(state.utf8)) else {
            return refuse(400, "state does not match the sign-in started in this browser")
        }
        guard let code = request.queryValue("code"), !code.isEmpty else { return refuse(400, "code: missing") }
        let claims: IDClaims
        do {
            let idToken = try provider.exchange(code: code, verifier: codeVerifier)
            claims = try verifier.verify(idToken, nonce: nonce)
        } catch {
            log.warning(nil, "serve: sign-in refused: \(error)")
            return refuse(401, "the provider's answer was refused (see the server log)")
        }
        guard (try? users.user(claims.email)) ?? nil != nil else {
            log.warning(nil, "serve: \(claims.email) signed in but is not a user")
            return refuse(403, "\(claims.email) is not a user of this dashboard (ask an owner: ownerdash users add)")
        }
        guard let csrf = try? Base64URL.encode(LibCrypto.randomBytes(24)) else { return refuse(500, "no randomness") }
        let expires = min(Self.now() + provider.settings.sessionSeconds, claims.expiresAt + provider.settings.sessionSeconds)
        let id: String
        do {
            id = try users.openSession(email: claims.email, csrf: csrf, expiresAt: expires, now: Self.now())
        } catch {
            log.error(nil, "serve: users.db: the session could not be stored: \(error)")
            return refuse(500, "the session could not be stored (see the server log)")
        }
        let session = cookie.seal(["i": id, "x": expires])
        log.info(nil, "serve: \(claims.email) signed in")
        return ServerResponse(status: 303, headers: [
            ("Location", Self.localPath(flow["r"] as? String)),
            ("Set-Cookie", setCookie(Self.sessionCookie, session, path: "/", maxAge: expires - Self.now())),
            clearFlow, ("Cache-Control", "no-store"),
        ])
    }

    private func signOut(_ request: ServerRequest) -> ServerResponse {
        guard case .signedIn(let viewer, let csrf?) = access(request), Self.carriesToken(request, csrf) else {
            return Problem(status: 403, title: "Forbidden", detail: "sign-out needs the page's CSRF token").response
        }
        // access() found the session, so the cookie opens and names it.
        if let id = cookie.open(request.cookies[Self.sessionCookie], now: Self.now())?["i"] as? String {
            do {
                try users.closeSession(id: id)
            } catch {
                log.error(nil, "serve: users.db: the session could not be ended: \(error)")
                return Problem(status: 500, title: "Internal Server Error", detail: "the session could not be ended; try again").response
            }
        }
        log.info(nil, "serve: \(viewer.email) signed out")
        return ServerResponse(status: 303, headers: [
            ("Location", provider.endSessionEndpoint.map { "\($0)?client_id=\(FormEncoding.encode(provider.settings.clientID))" } ?? "/"),
            ("Set-Cookie", setCookie(Self.sessionCookie, "", path: "/", maxAge: 0)), ("Cache-Control", "no-store"),
        ])
    }

    /// Whether a state-changing request carries the session's CSRF token (header `X-CSRF-Token` or form field `csrf`).
    static func carriesToken(_ request: ServerRequest, _ csrf: String) -> Bool {
        let sent = request.header("X-CSRF-Token") ?? request.formFields["csrf"] ?? ""
        return LibCrypto.constantTimeEqual(Array(sent.utf8), Array(csrf.utf8))
    }

    /// A path on this server to return to after sign-in; anything else (another host, `//evil`, `/\evil`) is `/`.
    static func localPath(_ text: String?) -> String {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.hasPrefix("/\\"),
              !text.contains(where: { $0.isNewline || $0 == "\\" }) else { return "/" }
        return text
    }

    private func setCookie(_ name: String, _ value: String, path: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(max(0, maxAge)); HttpOnly; SameSite=Lax" + (provider.settings.secureCookies ? "; Secure" : "")
    }
}
