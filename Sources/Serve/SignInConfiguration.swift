import Foundation
import OwnerDashCore

/// The `serve.oidc` section of report_definitions.json and the environment, merged into `SignInSettings`: each
/// setting from its environment variable when that is set, else from the file. Secrets (the client secret, the cookie
/// key) are never in the file itself, only where to find them: a file path or the name of an environment variable.
public enum SignInConfiguration {
    /// One setting: its key in `serve.oidc` and the environment variable that overrides it.
    struct Setting {
        let key: String
        let variable: String
    }

    static let issuer = Setting(key: "issuer", variable: "OWNERDASH_OIDC_ISSUER")
    static let clientID = Setting(key: "client_id", variable: "OWNERDASH_OIDC_CLIENT_ID")
    static let redirectURI = Setting(key: "redirect_uri", variable: "OWNERDASH_OIDC_REDIRECT_URL")
    static let clockSkew = Setting(key: "clock_skew_seconds", variable: "OWNERDASH_OIDC_CLOCK_SKEW_SECONDS")
    static let sessionHours = Setting(key: "session_hours", variable: "OWNERDASH_SESSION_HOURS")
    /// A secret: its value in the environment, or a file holding it (path in the environment or in the file), or the
    /// name of another environment variable holding it (in the file).
    struct Secret {
        let name: String
        let variable: String
        var fileVariable: String { variable + "_FILE" }
        var fileKey: String
        var envKey: String
    }

    static let clientSecret = Secret(name: "the client secret", variable: "OWNERDASH_OIDC_CLIENT_SECRET",
                                     fileKey: "client_secret_file", envKey: "client_secret_env")
    static let cookieKey = Secret(name: "the cookie key", variable: "OWNERDASH_COOKIE_KEY",
                                  fileKey: "cookie_key_file", envKey: "cookie_key_env")

    static let knownKeys: Set<String> = [issuer.key, clientID.key, redirectURI.key, clockSkew.key, sessionHours.key,
                                         clientSecret.fileKey, clientSecret.envKey, cookieKey.fileKey, cookieKey.envKey]
    /// Keys someone might reach for, refused with where the secret goes instead.
    static let secretKeys = ["client_secret": clientSecret, "cookie_key": cookieKey, "secret": clientSecret]

    /// The settings, or every missing or wrong one, one line each. `configPath`: report_definitions.json (nil: none);
    /// `configRequired`: it was named with --config, so a missing file is a problem (the default path may be absent).
    public static func resolve(environment: [String: String], configPath: String?,
                               configRequired: Bool = false) -> Result<SignInSettings, SignInConfigurationError> {
        var problems: [String] = []
        var section: [String: Any] = [:]
        var shownPath = "report_definitions.json"
        if let configPath {
            shownPath = configPath
            switch readSection(configPath, required: configRequired) {
            case .success(let found): section = found
            case .failure(let error): problems += error.problems
            }
        }
        for key in section.keys.sorted() where !knownKeys.contains(key) {
            if let secret = secretKeys[key] {
                problems.append("\(shownPath): serve.oidc.\(key): a secret never goes in the configuration file; name a file "
                                + "holding it (\(secret.fileKey)) or an environment variable (\(secret.envKey), or set \(secret.variable))")
            } else {
                problems.append("\(shownPath): serve.oidc.\(key): unknown setting (known: \(knownKeys.sorted().joined(separator: ", ")))")
            }
        }
        var origins: [String: String] = [:]

        /// The environment's value (trimmed, non-empty) or the file's; nil when neither. A file value of the wrong type
        /// is a problem.
        func text(_ setting: Setting) -> String? {
            if let value = environment[setting.variable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                origins[setting.key] = setting.variable
                return value
            }
            guard let raw = section[setting.key] else { return nil }
            guard let value = (raw as? String)?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                problems.append("\(shownPath): serve.oidc.\(setting.key) must be a non-empty string")
                return nil
            }
            origins[setting.key] = "serve.oidc.\(setting.key) in \(shownPath)"
            return value
        }
        func where_(_ setting: Setting) -> String { origins[setting.key] ?? setting.variable }
        func missing(_ setting: Setting, _ what: String) -> String {
            "\(setting.variable) is not set, nor serve.oidc.\(setting.key) in \(shownPath) (\(what))"
        }
        func number(_ setting: Setting, in range: ClosedRange<Int>) -> Int? {
            if let value = environment[setting.variable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                guard let number = Int(value), range.contains(number) else {
                    problems.append("\(setting.variable) \"\(value)\" must be a whole number from \(range.lowerBound) to \(range.upperBound)")
                    return nil
                }
                return number
            }
            guard let raw = section[setting.key] else { return nil }
            guard let number = (raw as? NSNumber).flatMap({ Int(exactly: $0.doubleValue) }), !(raw is Bool), range.contains(number) else {
                problems.append("\(shownPath): serve.oidc.\(setting.key) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
                return nil
            }
            return number
        }

        let issuerValue = text(issuer)
        if let issuerValue {
            if !(issuerValue.hasPrefix("https://") || issuerValue.hasPrefix("http://127.0.0.1") || issuerValue.hasPrefix("http://localhost")) {
                problems.append("\(where_(issuer)) must be an https URL")
            }
        } else {
            problems.append(missing(issuer, "the provider's issuer URL"))
        }
        let clientIDValue = text(clientID)
        if clientIDValue == nil { problems.append(missing(clientID, "the client id registered with the provider")) }
        let redirect = text(redirectURI)
        if let redirect {
            if !redirect.hasSuffix("/auth/callback") { problems.append("\(where_(redirectURI)) must end with /auth/callback") }
        } else {
            problems.append(missing(redirectURI, "this server's /auth/callback URL as registered"))
        }
        let skew = number(clockSkew, in: 0...300)
        let hours = number(sessionHours, in: 1...168)

        let secret = read(clientSecret, environment: environment, section: section, shownPath: shownPath, problems: &problems)
        var key: [UInt8] = []
        let reported = problems.count
        if let (text, origin) = read(cookieKey, environment: environment, section: section, shownPath: shownPath, problems: &problems) {
            key = Base64URL.decode(text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "=", with: "")) ?? []
            if key.count < 32 { problems.append("\(origin) must be at least 32 random bytes, base64 (openssl rand -base64 32)") }
            origins["cookie_key"] = origin
        } else if problems.count == reported && section["cookie_key"] == nil {
            problems.append("\(cookieKey.variable) is not set, nor serve.oidc.\(cookieKey.fileKey) in \(shownPath) "
                            + "(openssl rand -base64 32 > FILE; chmod 600 FILE)")
        }
        if let secret { origins["client_secret"] = secret.origin }

        guard problems.isEmpty, let issuerValue, let clientIDValue, let redirect else {
            return .failure(SignInConfigurationError(problems: problems))
        }
        var settings = SignInSettings(issuer: issuerValue, clientID: clientIDValue, clientSecret: secret?.value,
                                      redirectURL: redirect, cookieKey: key)
        // The redirect URL is the public address browsers use: an https one means every cookie must be Secure.
        settings.secureCookies = redirect.lowercased().hasPrefix("https://")
        if let skew { settings.skewSeconds = skew }
        if let hours { settings.sessionSeconds = hours * 3600 }
        settings.origins = origins
        return .success(settings)
    }

    /// `serve.oidc` of the configuration file; empty when the file has no such section (or is absent and not required).
    static func readSection(_ path: String, required: Bool) -> Result<[String: Any], SignInConfigurationError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            if !required && !FileManager.default.fileExists(atPath: path) { return .success([:]) }
            return .failure(SignInConfigurationError(problems: ["\(path): cannot read the configuration file"]))
        }
        guard let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return .failure(SignInConfigurationError(problems: ["\(path): not a JSON object"]))
        }
        guard let serve = document["serve"] else { return .success([:]) }
        guard let serveObject = serve as? [String: Any] else {
            return .failure(SignInConfigurationError(problems: ["\(path): serve must be an object"]))
        }
        guard let oidc = serveObject["oidc"] else { return .success([:]) }
        guard let section = oidc as? [String: Any] else {
            return .failure(SignInConfigurationError(problems: ["\(path): serve.oidc must be an object"]))
        }
        return .success(section)
    }

    /// A secret and where it came from: `VARIABLE`, `VARIABLE_FILE`, then the file's `*_env` (a variable's name) or
    /// `*_file` (a path). A file named but unreadable, or readable by every user, is a problem.
    static func read(_ secret: Secret, environment: [String: String], section: [String: Any], shownPath: String,
                     problems: inout [String]) -> (value: String, origin: String)? {
        func set(_ name: String) -> String? {
            environment[name].flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        }
        func fromFile(_ path: String, origin: String) -> (String, String)? {
            do {
                return (try SecretFile.read(path, origin: origin, holding: secret.name), "\(origin) (\(path))")
            } catch {
                problems.append("\(error)")
                return nil
            }
        }
        if let value = set(secret.variable) { return (value.trimmingCharacters(in: .whitespacesAndNewlines), secret.variable) }
        if let path = set(secret.fileVariable) { return fromFile(path, origin: secret.fileVariable) }
        if let raw = section[secret.envKey] {
            guard let name = raw as? String, !name.isEmpty else {
                problems.append("\(shownPath): serve.oidc.\(secret.envKey) must name an environment variable")
                return nil
            }
            guard let value = set(name) else {
                problems.append("\(shownPath): serve.oidc.\(secret.envKey) names \(name), which is not set (\(secret.name))")
                return nil
            }
            return (value.trimmingCharacters(in: .whitespacesAndNewlines), "\(name) (serve.oidc.\(secret.envKey))")
        }
        if let raw = section[secret.fileKey] {
            guard let path = raw as? String, !path.isEmpty else {
                problems.append("\(shownPath): serve.oidc.\(secret.fileKey) must be a file path")
                return nil
            }
            return fromFile(path, origin: "serve.oidc.\(secret.fileKey) in \(shownPath)")
        }
        return nil
    }
}
