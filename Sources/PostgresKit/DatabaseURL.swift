/// A libpq connection URI (`postgresql://user@host:5432/db?sslmode=verify-full`) that never prints its password.
///
/// The password itself comes from elsewhere (a file or an environment variable named in the configuration) and is
/// handed to libpq as its own connection parameter, so it is never part of a string OwnerDash logs.
public struct DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    /// The URI as given; only libpq reads it.
    public let uri: String
    /// A password kept apart from the URI (from `password_file` / `password_env`), or nil.
    public let password: String?

    /// Accepts `postgresql://` and `postgres://` URIs; anything else is a one-line error naming the option.
    public init(_ uri: String, password: String? = nil, option: String = "--database-url") throws {
        guard uri.hasPrefix("postgresql://") || uri.hasPrefix("postgres://") else {
            throw PostgresError(message: "\(option): expected a postgresql:// URL, got \(Self.redact(uri))",
                                context: "reading the database URL")
        }
        self.uri = uri
        self.password = password
    }

    /// The URI with any password in it replaced by `***` (user info and a `password=` parameter).
    public var description: String { Self.redact(uri) }

    /// Replaces the password of `user:password@` and of `password=` query parameters with `***`.
    public static func redact(_ uri: String) -> String {
        var text = uri
        if let scheme = text.range(of: "://") {
            let rest = text[scheme.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@"),
               let colon = rest[..<at].firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: "***")
            }
        }
        var parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if parts.count == 2 {
            parts[1] = parts[1].split(separator: "&", omittingEmptySubsequences: false).map { pair in
                pair.lowercased().hasPrefix("password=") ? "password=***" : String(pair)
            }.joined(separator: "&")
            text = parts.joined(separator: "?")
        }
        return text
    }
}
