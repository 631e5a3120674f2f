import Foundation
import OwnerDashCore
import PostgresKit

/// Where the unified data lives, read once for every command: `--database-url`, else `OWNERDASH_DATABASE_URL`, else
/// `database_url` in the configuration file; none of them: `<data-dir>/unified.db` alone, as always.
///
/// The password is never part of the configuration file: it is in the URL given on the command line or in the
/// environment, or it comes from `OWNERDASH_DATABASE_PASSWORD`, from a file (`OWNERDASH_DATABASE_PASSWORD_FILE` or the
/// file's `database_password_file`, readable by its owner only) or from a variable the file names
/// (`database_password_env`). It is handed to libpq on its own and never printed (`DatabaseURL` redacts).
enum DatabaseLocation {
    static let variable = "OWNERDASH_DATABASE_URL"

    /// The server's URL, or nil for unified.db. `configPath`: the configuration file, read here only for its
    /// `database_*` keys (absent is fine unless `configNamed`).
    static func resolve(option: String?, environment: [String: String], configPath: String,
                        configNamed: Bool) throws -> DatabaseURL? {
        let settings = try configurationSettings(configPath, required: configNamed)
        let uri: String
        let origin: String
        if let option, !option.isEmpty {
            (uri, origin) = (option, "--database-url")
        } else if let value = environment[variable], !value.isEmpty {
            (uri, origin) = (value, variable)
        } else if let value = settings["database_url"] {
            guard let text = value as? String, !text.isEmpty else {
                throw ConfigurationError("\(configPath): database_url must be a postgresql:// URL")
            }
            guard DatabaseURL.redact(text) == text else {
                throw ConfigurationError("\(configPath): database_url holds a password; a secret never goes in the configuration file: name a file holding it (database_password_file) or an environment variable (database_password_env)")
            }
            (uri, origin) = (text, "database_url in \(configPath)")
        } else {
            return nil
        }
        let password = try readPassword(environment: environment, settings: settings, configPath: configPath)
        do {
            return try DatabaseURL(uri, password: password, option: origin)
        } catch let error as PostgresError {
            throw ConfigurationError(error.message)
        }
    }

    /// The password kept apart from the URL, or nil (then libpq's own sources: the URL, ~/.pgpass, PGPASSWORD).
    /// A password kept in a file (`SecretFile`), on one line.
    static func passwordFile(_ path: String, origin: String, what: String = "the database password") throws -> String {
        let text = try SecretFile.read(path, origin: origin, holding: what)
        guard !text.contains("\n") else {
            throw ConfigurationError("\(origin): \(path) must hold \(what) on one line")
        }
        return text
    }

    static func readPassword(environment: [String: String], settings: [String: Any], configPath: String) throws -> String? {
        let fromFile = { (path: String, origin: String) in try passwordFile(path, origin: origin) }
        if let value = environment["OWNERDASH_DATABASE_PASSWORD"], !value.isEmpty { return value }
        if let path = environment["OWNERDASH_DATABASE_PASSWORD_FILE"], !path.isEmpty {
            return try fromFile(path, "OWNERDASH_DATABASE_PASSWORD_FILE")
        }
        if let raw = settings["database_password_env"] {
            guard let name = raw as? String, !name.isEmpty else {
                throw ConfigurationError("\(configPath): database_password_env must name an environment variable")
            }
            guard let value = environment[name], !value.isEmpty else {
                throw ConfigurationError("\(configPath): database_password_env names \(name), which is not set (the database password)")
            }
            return value
        }
        if let raw = settings["database_password_file"] {
            guard let path = raw as? String, !path.isEmpty else {
                throw ConfigurationError("\(configPath): database_password_file must be a file path")
            }
            return try fromFile(path, "database_password_file in \(configPath)")
        }
        return nil
    }

    /// The configuration file's `database_*` keys; empty when it has none or cannot be read (a command that needs the
    /// file says so in its own words). A file that is there but not JSON is an error: its database_url, if it has
    /// one, must not be silently ignored.
    static func configurationSettings(_ path: String, required: Bool) throws -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        guard let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ConfigurationError("\(path): not a JSON object")
        }
        if document["database_password"] != nil {
            throw ConfigurationError("\(path): database_password: a secret never goes in the configuration file; name a file holding it (database_password_file) or an environment variable (database_password_env)")
        }
        return document.filter { $0.key.hasPrefix("database_") }
    }
}
