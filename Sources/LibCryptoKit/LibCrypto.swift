import CCrypto

/// Why a key could not be built or a primitive failed (libcrypto's own reason attached).
public struct CryptoError: Error, CustomStringConvertible, Sendable {
    public var description: String

    init(_ what: String) {
        let code = ERR_get_error()
        var buffer = [UInt8](repeating: 0, count: 256)
        if code != 0 { buffer.withUnsafeMutableBufferPointer { ERR_error_string_n(code, $0.baseAddress, $0.count) } }
        ERR_clear_error()
        let reason = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        description = code == 0 ? what : "\(what): \(reason)"
    }
}

/// The few primitives of OpenSSL's libcrypto OwnerDash uses: SHA-256, HMAC-SHA256, random bytes, constant-time compare.
public enum LibCrypto {
    /// SHA-256 of `bytes` (32 bytes).
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = bytes.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &digest, &length, EVP_sha256(), nil) }
        return Array(digest.prefix(Int(length)))
    }

    /// HMAC-SHA256 of `message` under `key` (32 bytes).
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                     messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count, &mac, &length)
            }
        }
        return Array(mac.prefix(Int(length)))
    }

    /// `count` bytes from the system's cryptographically secure generator.
    public static func randomBytes(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else { throw CryptoError("RAND_bytes") }
        return bytes
    }

    /// Whether two byte strings are equal, in time independent of where they differ (MACs, CSRF tokens).
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, x.count) == 0 } }
    }
}

/// A public key (RSA or EC P-256) held as libcrypto's EVP_PKEY, freed in `deinit`; verifies JWS signatures.
public final class PublicKey: @unchecked Sendable {
    // @unchecked: the EVP_PKEY is never changed after init; verifying with it from several threads is safe (OpenSSL 3).
    private let key: OpaquePointer

    /// The signature algorithms OwnerDash accepts (JWS names).
    public enum Algorithm: String, Sendable {
        /// RSASSA-PKCS1-v1_5 with SHA-256.
        case rs256 = "RS256"
        /// ECDSA on P-256 with SHA-256; the JWS signature is r || s (64 bytes).
        case es256 = "ES256"
    }

    public let algorithm: Algorithm

    private init(subjectPublicKeyInfo der: [UInt8], algorithm: Algorithm) throws {
        var pointer: UnsafePointer<UInt8>? = nil
        let key: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            pointer = buffer.baseAddress
            return d2i_PUBKEY(nil, &pointer, buffer.count)
        }
        guard let key else { throw CryptoError("not a valid \(algorithm.rawValue) public key") }
        self.key = key
        self.algorithm = algorithm
    }

    deinit { EVP_PKEY_free(key) }

    /// An RSA key from its modulus and public exponent (big-endian bytes, as a JWK's `n` and `e`).
    public convenience init(rsaModulus modulus: [UInt8], exponent: [UInt8]) throws {
        guard modulus.count >= 256 else { throw CryptoError("RSA modulus of \(modulus.count * 8) bits: at least 2048 are required") }
        let publicKey = DER.sequence(DER.integer(modulus) + DER.integer(exponent))
        let algorithm = DER.sequence(DER.rsaEncryption + DER.null)
        try self.init(subjectPublicKeyInfo: DER.sequence(algorithm + DER.bitString(publicKey)), algorithm: .rs256)
    }

    /// A P-256 key from its coordinates (32 bytes each, as a JWK's `x` and `y`).
    public convenience init(p256X x: [UInt8], y: [UInt8]) throws {
        guard x.count == 32, y.count == 32 else { throw CryptoError("P-256 coordinates must be 32 bytes each") }
        let algorithm = DER.sequence(DER.ecPublicKey + DER.prime256v1)
        try self.init(subjectPublicKeyInfo: DER.sequence(algorithm + DER.bitString([0x04] + x + y)), algorithm: .es256)
    }

    /// Whether `signature` (JWS form) signs `message` with this key.
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        var signed = signature
        if algorithm == .es256 {
            guard signature.count == 64 else { return false }
            signed = DER.sequence(DER.integer(Array(signature[0..<32])) + DER.integer(Array(signature[32..<64])))
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context); ERR_clear_error() }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return signed.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { msg in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, msg.baseAddress, msg.count) == 1
            }
        }
    }
}

/// Just enough DER to write a SubjectPublicKeyInfo and an ECDSA signature.
enum DER {
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 { bytes.insert(UInt8(rest & 0xFF), at: 0); rest >>= 8 }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func tagged(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }
    static func sequence(_ content: [UInt8]) -> [UInt8] { tagged(0x30, content) }
    static func bitString(_ content: [UInt8]) -> [UInt8] { tagged(0x03, [0x00] + content) }

    /// A non-negative INTEGER from big-endian bytes: leading zeros dropped, a 0 added when the top bit is set.
    static func integer(_ bytes: [UInt8]) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty { value = [0] }
        if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return tagged(0x02, value)
    }

    static let null: [UInt8] = [0x05, 0x00]
    /// 1.2.840.113549.1.1.1
    static let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    /// 1.2.840.10045.2.1
    static let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    /// 1.2.840.10045.3.1.7
    static let prime256v1: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
}
