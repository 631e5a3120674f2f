import Foundation
import LibCryptoKit

/// A cookie value the browser holds but cannot change: base64url(JSON) "." base64url(HMAC-SHA256(key, first part)).
struct SignedCookie {
    let key: [UInt8]

    func seal(_ fields: [String: Any]) -> String {
        let json = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
        let payload = Base64URL.encode(Array(json))
        return payload + "." + Base64URL.encode(LibCrypto.hmacSHA256(key: key, message: Array(payload.utf8)))
    }

    /// The fields, if the MAC verifies and `x` (expiry, Unix seconds) is still ahead; nil otherwise.
    func open(_ value: String?, now: Int) -> [String: Any]? {
        guard let value else { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let mac = Base64URL.decode(parts[1]),
              LibCrypto.constantTimeEqual(mac, LibCrypto.hmacSHA256(key: key, message: Array(parts[0].utf8))),
              let json = Base64URL.decode(parts[0]),
              let fields = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
              let expires = (fields["x"] as? NSNumber)?.intValue, now < expires else { return nil }
        return fields
    }
}
