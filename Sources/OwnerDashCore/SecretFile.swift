import Foundation

/// A secret kept in a file (the OIDC client secret, the cookie key, the database password): read and trimmed; refused,
/// naming where it was configured and the file, when it cannot be read, when every user may read it, or when empty.
public enum SecretFile {
    /// `origin`: where the path came from (a variable, a configuration key); `what`: the secret, in words.
    public static func read(_ path: String, origin: String, holding what: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("\(origin): cannot read \(path) (\(what))")
        }
        if let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber,
           mode.intValue & 0o004 != 0 {
            throw ConfigurationError("\(origin): \(path) is readable by every user; chmod 600 it (it holds \(what))")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw ConfigurationError("\(origin): \(path) is empty (\(what))") }
        return text
    }
}
