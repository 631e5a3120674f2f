import CurlKit
import Foundation
import SOAP

/// Every secret and endpoint setting (docs/contracts.md, "Configuration and secrets"), from the environment or a
/// 0600 JSON file.
///
/// `OWNERDASH_CREDENTIALS` names a JSON object whose keys are the variable names
/// (`{"YARDI_USERNAME": "...", "YARDI_PASSWORD": "..."}`); a variable set in the environment wins
/// over the file. The file is refused unless only its owner can read it (mode 0600 or 0400).
/// Every secret value read is in `redactor`, so none reaches a log line, error or manifest.
public struct Credentials: Sendable {
    /// The variable naming the credentials file.
    public static let fileVariable = "OWNERDASH_CREDENTIALS"

    /// Variable name -> value, file first, then the environment over it.
    public let values: [String: String]

    /// Variables whose values are secrets (the Yardi username too: it names an account on the client's server).
    static let secretNames: Set<String> = [
        "REALPAGE_TOKEN", "REALPAGE_LICENSE_KEY", "REALPAGE_RPX_LICENSE_KEY", "REALPAGE_RPX_USERNAME", "REALPAGE_RPX_PASSWORD",
        "YARDI_USERNAME", "YARDI_PASSWORD", "YARDI_INTERFACE_LICENSE",
    ]

    /// Credentials from explicit values (tests, embedding).
    public init(values: [String: String]) {
        self.values = values
    }

    /// Reads `OWNERDASH_CREDENTIALS` (if set) and overlays the environment.
    public init(environment: [String: String]) throws {
        var merged: [String: String] = [:]
        if let path = environment[Self.fileVariable], !path.isEmpty {
            merged = try Self.readFile(path)
        }
        for (name, value) in environment where !value.isEmpty { merged[name] = value }
        values = merged
    }

    /// A value, trimmed; nil when unset or blank.
    public subscript(name: String) -> String? {
        guard let value = values[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// Replaces every secret value (passwords, licenses, tokens, per-interface licenses) with `***`.
    public var redactor: Redactor {
        Redactor(secrets: values.compactMap { name, value in
            Self.secretNames.contains(name) || name.hasPrefix("YARDI_INTERFACE_LICENSE_") ? value : nil
        })
    }

    // MARK: - Yardi

    /// The Yardi credential block for one interface (`ItfILSGuestCard`): `YARDI_INTERFACE_ENTITY_<INTERFACE>` and
    /// `YARDI_INTERFACE_LICENSE_<INTERFACE>` (interface upper-cased) win over the shared ones.
    public func yardiLogin(interface: String) throws -> YardiLogin {
        let suffix = "_" + interface.uppercased()
        var missing: [String] = []
        func need(_ name: String, alternative: String? = nil) -> String {
            if let alternative, let value = self[alternative] { return value }
            if let value = self[name] { return value }
            missing.append(alternative.map { "\(name) (or \($0))" } ?? name)
            return ""
        }
        let login = YardiLogin(
            username: need("YARDI_USERNAME"), password: need("YARDI_PASSWORD"), serverName: need("YARDI_SERVER_NAME"),
            database: need("YARDI_DATABASE"), platform: self["YARDI_PLATFORM"] ?? "SQL Server",
            interfaceEntity: need("YARDI_INTERFACE_ENTITY", alternative: "YARDI_INTERFACE_ENTITY" + suffix),
            interfaceLicense: need("YARDI_INTERFACE_LICENSE", alternative: "YARDI_INTERFACE_LICENSE" + suffix))
        guard missing.isEmpty else {
            throw CredentialError("no Yardi credentials for \(interface): set \(missing.joined(separator: ", ")) "
                                  + "in the environment or in the \(Self.fileVariable) file")
        }
        return login
    }

    /// `OWNERDASH_YARDI_URL` (the web-services base; `<base>/<Interface>.asmx`), else the configuration's `yardi.url`.
    public static func yardiBaseURL(configured: String?, environment: [String: String]) -> String? {
        if let url = environment["OWNERDASH_YARDI_URL"], !url.isEmpty { return url }
        return configured
    }

    /// `OWNERDASH_REALPAGE_RPX_URL` (the full partner endpoint), else the configuration's `realpage.rpx_url`.
    public static func rpxURL(configured: String?, environment: [String: String]) -> String? {
        if let url = environment["OWNERDASH_REALPAGE_RPX_URL"], !url.isEmpty { return url }
        return configured
    }

    // MARK: - The file

    /// Reads the credentials file after checking that only its owner may read it.
    static func readFile(_ path: String) throws -> [String: String] {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CredentialError("\(fileVariable) names \(path), which cannot be read: \(String(cString: strerror(errno)))")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw CredentialError("credentials file \(path) has mode 0\(String(mode, radix: 8)); it must be readable by its owner "
                                  + "only (0600): run chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CredentialError("credentials file \(path) cannot be read")
        }
        // The parser's own message could quote the file's text, secrets included: say only where it broke.
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CredentialError("credentials file \(path) is not a JSON object of \"NAME\": \"value\" pairs")
        }
        var values: [String: String] = [:]
        for (name, value) in object {
            guard let text = value as? String else {
                throw CredentialError("credentials file \(path): the value of \(name) must be a string")
            }
            values[name] = text
        }
        return values
    }
}
