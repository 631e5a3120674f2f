import Foundation
import LibCryptoKit

/// Why a token was refused; every case is a 401 (the message goes to the log, never to the client).
public enum TokenError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)
    /// `alg` other than RS256 / ES256 (`none` included).
    case algorithmNotAllowed(String)
    /// No key with this `kid` in the provider's JWKS, even after fetching it again.
    case unknownKey(String)
    case badSignature
    case wrongIssuer(String)
    case wrongAudience
    case expired
    case notYetValid
    case wrongNonce
    case noEmail
    /// The provider's keys could not be fetched.
    case keysUnavailable(String)

    public var description: String {
        switch self {
        case .malformed(let why): "malformed token: \(why)"
        case .algorithmNotAllowed(let alg): "algorithm \"\(alg)\" is not accepted (RS256 or ES256)"
        case .unknownKey(let kid): "no key \"\(kid)\" in the provider's JWKS"
        case .badSignature: "the signature does not verify"
        case .wrongIssuer(let issuer): "issued by \"\(issuer)\", not the configured issuer"
        case .wrongAudience: "not issued for this client id"
        case .expired: "expired"
        case .notYetValid: "not valid yet (nbf)"
        case .wrongNonce: "nonce does not match the sign-in"
        case .noEmail: "no email claim"
        case .keysUnavailable(let why): "the provider's keys are unavailable: \(why)"
        }
    }
}

/// The claims OwnerDash reads from a verified ID token.
public struct IDClaims: Sendable, Equatable {
    public var subject: String
    /// Lower-cased: users are kept by e-mail, compared case-insensitively.
    public var email: String
    public var expiresAt: Int
}

/// A compact JWS split and decoded, not yet trusted.
struct CompactJWT {
    let algorithm: String
    let keyID: String?
    let claims: [String: Any]
    let signingInput: [UInt8]
    let signature: [UInt8]

    init(_ token: String) throws(TokenError) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("not three dot-separated parts") }
        guard let headerBytes = Base64URL.decode(parts[0]),
              let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any] else {
            throw .malformed("header is not base64url JSON")
        }
        guard let payloadBytes = Base64URL.decode(parts[1]),
              let claims = try? JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any] else {
            throw .malformed("payload is not base64url JSON")
        }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("signature is not base64url") }
        algorithm = header["alg"] as? String ?? ""
        keyID = header["kid"] as? String
        self.claims = claims
        signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        self.signature = signature
    }
}

/// Checks ID tokens (and bearer tokens) the way RFC 7519 and OpenID Connect Core 3.1.3.7 ask: RS256 or ES256 only, a
/// key of the provider's JWKS by `kid`, `iss` equal to the issuer, `aud` holding the client id, `exp` and `nbf` within
/// a small clock skew, and the sign-in's `nonce` when there is one.
public struct TokenVerifier: Sendable {
    public let issuer: String
    public let clientID: String
    public let skewSeconds: Int
    /// The key with this `kid`, fetching the JWKS again when it is unknown (rotation).
    let key: @Sendable (String?) throws(TokenError) -> PublicKey

    public func verify(_ token: String, nonce: String? = nil, now: Int = Int(Date().timeIntervalSince1970)) throws(TokenError) -> IDClaims {
        let jwt = try CompactJWT(token)
        guard let algorithm = PublicKey.Algorithm(rawValue: jwt.algorithm) else { throw .algorithmNotAllowed(jwt.algorithm) }
        let publicKey = try key(jwt.keyID)
        guard publicKey.algorithm == algorithm, publicKey.verify(signature: jwt.signature, message: jwt.signingInput) else {
            throw .badSignature
        }
        let claims = jwt.claims
        let tokenIssuer = claims["iss"] as? String ?? ""
        guard tokenIssuer == issuer else { throw .wrongIssuer(tokenIssuer) }
        let audiences: [String] = (claims["aud"] as? String).map { [$0] } ?? (claims["aud"] as? [String] ?? [])
        guard audiences.contains(clientID) else { throw .wrongAudience }
        if audiences.count > 1, let party = claims["azp"] as? String, party != clientID { throw .wrongAudience }
        guard let expires = (claims["exp"] as? NSNumber)?.intValue else { throw .malformed("no exp") }
        guard now < expires + skewSeconds else { throw .expired }
        if let notBefore = (claims["nbf"] as? NSNumber)?.intValue, now + skewSeconds < notBefore { throw .notYetValid }
        if let nonce {
            guard let tokenNonce = claims["nonce"] as? String,
                  LibCrypto.constantTimeEqual(Array(tokenNonce.utf8), Array(nonce.utf8)) else { throw .wrongNonce }
        }
        guard let email = claims["email"] as? String, email.contains("@") else { throw .noEmail }
        if let verified = claims["email_verified"] as? Bool, !verified { throw .noEmail }
        return IDClaims(subject: claims["sub"] as? String ?? "", email: email.lowercased(), expiresAt: expires)
    }
}
