import CurlKit
import Foundation
import LibCryptoKit

/// Sign-in settings, from report_definitions.json's `serve.oidc` and the environment (`SignInConfiguration`); secrets
/// never in the configuration file itself, never logged.
public struct SignInSettings: Sendable {
    /// The provider's issuer URL (`https://cognito-idp.<region>.amazonaws.com/<pool>`); discovery is under it.
    public var issuer: String
    public var clientID: String
    public var clientSecret: String?
    /// This server's callback URL as registered with the provider (`https://dash.example.com/auth/callback`).
    public var redirectURL: String
    /// The key sessions are signed with (32 bytes or more).
    public var cookieKey: [UInt8]
    /// Allowed clock difference with the provider for `exp` / `nbf`.
    public var skewSeconds = 60
    /// How long a session lasts after sign-in.
    public var sessionSeconds = 8 * 3600
    /// The least time between two JWKS fetches for an unknown `kid`.
    public var keyRefetchSeconds: Double = 10
    /// Set the cookies' `Secure` attribute (off only for plain-http tests on loopback).
    public var secureCookies = true

    public init(issuer: String, clientID: String, clientSecret: String?, redirectURL: String, cookieKey: [UInt8]) {
        self.issuer = issuer; self.clientID = clientID; self.clientSecret = clientSecret; self.redirectURL = redirectURL
        self.cookieKey = cookieKey
    }

    /// Where each setting came from (`OWNERDASH_OIDC_ISSUER`, `serve.oidc.issuer in report_definitions.json`), for
    /// `serve --check`; never the secrets' values.
    public var origins: [String: String] = [:]

    /// The settings from the environment alone (no configuration file).
    public static func fromEnvironment(_ environment: [String: String]) -> Result<SignInSettings, SignInConfigurationError> {
        SignInConfiguration.resolve(environment: environment, configPath: nil)
    }
}

/// What is missing or wrong in the sign-in configuration, one line each.
public struct SignInConfigurationError: Error, Sendable {
    public var problems: [String]
}

/// The OpenID provider as discovered: its endpoints, and its signing keys cached and fetched again on an unknown
/// `kid` (at most once per `keyRefetchSeconds`, so a stream of forged kids cannot make the server hammer the provider).
public final class OIDCProvider: @unchecked Sendable {
    // @unchecked: `keys` and `lastFetch` are only touched under `lock`.
    public let settings: SignInSettings
    public let authorizationEndpoint: String
    public let tokenEndpoint: String
    public let jwksURI: String
    public let endSessionEndpoint: String?
    private let client: HTTPClient
    private let lock = NSLock()
    private var keys: [String: PublicKey] = [:]
    private var lastFetch: Date = .distantPast

    /// Fetches `{issuer}/.well-known/openid-configuration` and the JWKS; throws with what was wrong.
    public init(settings: SignInSettings, client: HTTPClient = HTTPClient()) throws {
        self.settings = settings
        self.client = client
        let url = settings.issuer.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/.well-known/openid-configuration"
        let response = try client.send(HTTPRequest(url: url))
        guard response.status == 200,
              let document = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else {
            throw SignInConfigurationError(problems: ["discovery \(url) answered \(response.status), not an OpenID configuration"])
        }
        guard document["issuer"] as? String == settings.issuer else {
            throw SignInConfigurationError(problems: ["discovery names issuer \"\(document["issuer"] as? String ?? "")\", not \(settings.issuer)"])
        }
        guard let authorize = document["authorization_endpoint"] as? String, let token = document["token_endpoint"] as? String,
              let jwks = document["jwks_uri"] as? String else {
            throw SignInConfigurationError(problems: ["discovery \(url) lacks authorization_endpoint, token_endpoint or jwks_uri"])
        }
        authorizationEndpoint = authorize
        tokenEndpoint = token
        jwksURI = jwks
        endSessionEndpoint = document["end_session_endpoint"] as? String
        try refreshKeys()
    }

    /// The verifier for this provider's ID tokens.
    public var verifier: TokenVerifier {
        TokenVerifier(issuer: settings.issuer, clientID: settings.clientID, skewSeconds: settings.skewSeconds) { [self] kid throws(TokenError) in
            try key(kid)
        }
    }

    func key(_ kid: String?) throws(TokenError) -> PublicKey {
        lock.lock()
        let cached = kid.flatMap { keys[$0] } ?? (kid == nil && keys.count == 1 ? keys.values.first : nil)
        let mayRefetch = Date().timeIntervalSince(lastFetch) >= settings.keyRefetchSeconds
        lock.unlock()
        if let cached { return cached }
        guard mayRefetch else { throw .unknownKey(kid ?? "") }
        do {
            try refreshKeys()
        } catch {
            throw .keysUnavailable("\(error)")
        }
        lock.lock()
        defer { lock.unlock() }
        guard let fresh = kid.flatMap({ keys[$0] }) ?? (kid == nil && keys.count == 1 ? keys.values.first : nil) else {
            throw .unknownKey(kid ?? "")
        }
        return fresh
    }

    /// Fetches the JWKS and replaces the cached keys (RSA and P-256 signing keys; others are skipped).
    func refreshKeys() throws {
        let response = try client.send(HTTPRequest(url: jwksURI))
        guard response.status == 200, let document = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let list = document["keys"] as? [[String: Any]] else {
            throw SignInConfigurationError(problems: ["JWKS \(jwksURI) answered \(response.status), not a key set"])
        }
        var fresh: [String: PublicKey] = [:]
        for jwk in list where (jwk["use"] as? String ?? "sig") == "sig" {
            let kid = jwk["kid"] as? String ?? ""
            func bytes(_ name: String) -> [UInt8]? { (jwk[name] as? String).flatMap { Base64URL.decode($0) } }
            switch jwk["kty"] as? String {
            case "RSA":
                if let n = bytes("n"), let e = bytes("e"), let key = try? PublicKey(rsaModulus: n, exponent: e) { fresh[kid] = key }
            case "EC" where jwk["crv"] as? String == "P-256":
                if let x = bytes("x"), let y = bytes("y"), let key = try? PublicKey(p256X: x, y: y) { fresh[kid] = key }
            default:
                continue
            }
        }
        lock.lock()
        keys = fresh
        lastFetch = Date()
        lock.unlock()
    }

    /// Exchanges an authorization code (with its PKCE verifier) for the ID token.
    func exchange(code: String, verifier: String) throws -> String {
        let fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", settings.redirectURL),
                      ("client_id", settings.clientID), ("code_verifier", verifier)]
        var headers: [(name: String, value: String)] = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")]
        if let secret = settings.clientSecret {
            // client_secret_basic, which every provider supports (Cognito among them).
            let credentials = Data("\(FormEncoding.encode(settings.clientID)):\(FormEncoding.encode(secret))".utf8).base64EncodedString()
            headers.append(("Authorization", "Basic \(credentials)"))
        }
        let body = fields.map { "\($0.0)=\(FormEncoding.encode($0.1))" }.joined(separator: "&")
        let response = try client.send(HTTPRequest(method: "POST", url: tokenEndpoint, headers: headers, body: Array(body.utf8)))
        guard response.status == 200, let document = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let idToken = document["id_token"] as? String else {
            throw TokenError.malformed("the token endpoint answered \(response.status) without an id_token")
        }
        return idToken
    }
}

/// `application/x-www-form-urlencoded` / query value encoding (RFC 3986 unreserved characters kept).
enum FormEncoding {
    static func encode(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
