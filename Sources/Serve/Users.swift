import Foundation
import LibCryptoKit
import OwnerDashCore
import SQLiteKit

/// Why a user could not be added or removed.
public struct UserError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
}

/// One user of `ownerdash serve`.
public struct User: Sendable, Equatable {
    public var email: String
    public var role: Viewer.Role
    /// A manager's properties, sorted.
    public var properties: [String]

    public var viewer: Viewer { Viewer(email: email, role: role, properties: Set(properties)) }
}

/// A signed-in browser's session as the server keeps it: whose it is and the CSRF token its pages carry.
public struct Session: Sendable, Equatable {
    public var email: String
    public var csrf: String
    /// Unix seconds.
    public var expiresAt: Int
}

/// The users who may sign in, kept in `users.db` in the data directory (beside, never inside, unified.db, which a
/// sync rebuilds): who they are (by e-mail, case-insensitive), their role, a manager's properties, and their open
/// sessions. A session lives here, not in the cookie, so that sign-out, `users remove` and a role change end it on
/// the server: a copied cookie replayed afterwards is no session.
public final class UserStore: @unchecked Sendable {
    // @unchecked: the one connection is used under `lock`.
    private let database: Database
    private let lock = NSLock()

    static let migrations = [
        Migration(version: 1, name: "users", sql: """
            CREATE TABLE users (
                email       TEXT PRIMARY KEY,
                role        TEXT NOT NULL CHECK (role IN ('owner', 'manager')),
                added_at    TEXT NOT NULL
            ) STRICT;
            CREATE TABLE user_properties (
                email       TEXT NOT NULL REFERENCES users ON DELETE CASCADE,
                property    TEXT NOT NULL,
                PRIMARY KEY (email, property)
            ) STRICT;
            """),
        // The cookie holds a random session id; this table holds only its SHA-256, so a copy of users.db (a backup)
        // carries no live session. A user's sessions go with the user (ON DELETE CASCADE).
        Migration(version: 2, name: "sessions", sql: """
            CREATE TABLE sessions (
                id_sha256   TEXT PRIMARY KEY,
                email       TEXT NOT NULL REFERENCES users ON DELETE CASCADE,
                csrf        TEXT NOT NULL,
                created_at  INTEGER NOT NULL,
                expires_at  INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX sessions_by_email ON sessions (email);
            """),
    ]

    /// `users.db` in the data directory, created when `create` (`ownerdash users`); else it must exist (the server,
    /// which writes the sessions). Migrated either way, so a server started on an older users.db gains the sessions.
    public init(dataDirectory: DataDirectory, create: Bool) throws {
        let path = URL(fileURLWithPath: dataDirectory.root).appendingPathComponent("users.db").path
        if create {
            try FileManager.default.createDirectory(atPath: dataDirectory.root, withIntermediateDirectories: true)
        } else if !FileManager.default.fileExists(atPath: path) {
            throw UserError(description: "\(path): no users yet (add one with ownerdash users add EMAIL --role owner)")
        }
        database = try Database(path: path)
        try database.migrate(Self.migrations)
    }

    /// The user with this e-mail, or nil.
    public func user(_ email: String) throws -> User? {
        lock.lock()
        defer { lock.unlock() }
        let key = email.lowercased()
        guard let role = try database.scalar("SELECT role FROM users WHERE email = :email", [":email": .text(key)])?.textValue
            .flatMap(Viewer.Role.init(rawValue:)) else { return nil }
        let properties = try database.namedRows("SELECT property FROM user_properties WHERE email = :email ORDER BY property",
                                                [":email": .text(key)]).compactMap { $0["property"]?.textValue }
        return User(email: key, role: role, properties: properties)
    }

    public func list() throws -> [User] {
        let emails = try lock.withLock { try database.namedRows("SELECT email FROM users ORDER BY email").compactMap { $0["email"]?.textValue } }
        return try emails.compactMap { try user($0) }
    }

    /// Adds or replaces a user. A manager needs at least one property; an owner takes none. When an existing user's
    /// role or properties change, their sessions end (they sign in again under the new rights); returns how many.
    @discardableResult
    public func add(email: String, role: Viewer.Role, properties: [String], at timestamp: String) throws -> Int {
        let key = email.lowercased().trimmingCharacters(in: .whitespaces)
        guard key.count <= 254, key.split(separator: "@").count == 2, !key.contains(where: { $0.isWhitespace }) else {
            throw UserError(description: "\"\(email)\" is not an e-mail address")
        }
        if role == .manager && properties.isEmpty { throw UserError(description: "a manager needs at least one --property KEY") }
        if role == .owner && !properties.isEmpty { throw UserError(description: "an owner sees every property: no --property") }
        let before = try user(key)
        let after = User(email: key, role: role, properties: Array(Set(properties)).sorted())
        return try lock.withLock {
            try database.withTransaction {
                var revoked = 0
                if let before, before != after {
                    try database.prepare("DELETE FROM sessions WHERE email = :email").execute([":email": .text(key)])
                    revoked = database.changes
                }
                // An upsert, not DELETE + INSERT: deleting the row would cascade to the user's sessions every time.
                try database.prepare("""
                    INSERT INTO users (email, role, added_at) VALUES (:email, :role, :at)
                    ON CONFLICT (email) DO UPDATE SET role = excluded.role, added_at = excluded.added_at
                    """).execute([":email": .text(key), ":role": .text(role.rawValue), ":at": .text(timestamp)])
                try database.prepare("DELETE FROM user_properties WHERE email = :email").execute([":email": .text(key)])
                let insert = try database.prepare("INSERT OR IGNORE INTO user_properties (email, property) VALUES (:email, :property)")
                for property in properties { try insert.execute([":email": .text(key), ":property": .text(property)]) }
                return revoked
            }
        }
    }

    /// Removes a user and with them their sessions; false when there was none.
    public func remove(email: String) throws -> Bool {
        try lock.withLock {
            try database.prepare("DELETE FROM users WHERE email = :email").execute([":email": .text(email.lowercased())])
            return database.changes > 0
        }
    }

    // MARK: - Sessions

    /// Opens a session for a user and returns its id (the cookie's secret). Sessions past their expiry are deleted
    /// on the way, so the table holds only live ones.
    public func openSession(email: String, csrf: String, expiresAt: Int, now: Int) throws -> String {
        let id = Base64URL.encode(try LibCrypto.randomBytes(32))
        try lock.withLock {
            try database.withTransaction {
                try database.prepare("DELETE FROM sessions WHERE expires_at <= :now").execute([":now": .integer(Int64(now))])
                try database.prepare("""
                    INSERT INTO sessions (id_sha256, email, csrf, created_at, expires_at)
                    VALUES (:id, :email, :csrf, :now, :expires)
                    """).execute([":id": .text(Self.digest(id)), ":email": .text(email.lowercased()), ":csrf": .text(csrf),
                                  ":now": .integer(Int64(now)), ":expires": .integer(Int64(expiresAt))])
            }
        }
        return id
    }

    /// Stores a session under a chosen id, replacing one there: for the fuzz harness, whose seed requests carry
    /// fixed session ids (a real session's id is `openSession`'s random one).
    public func keepSession(id: String, email: String, csrf: String, expiresAt: Int, now: Int) throws {
        try lock.withLock {
            try database.prepare("""
                INSERT OR REPLACE INTO sessions (id_sha256, email, csrf, created_at, expires_at)
                VALUES (:id, :email, :csrf, :now, :expires)
                """).execute([":id": .text(Self.digest(id)), ":email": .text(email.lowercased()), ":csrf": .text(csrf),
                              ":now": .integer(Int64(now)), ":expires": .integer(Int64(expiresAt))])
        }
    }

    /// The live session with this id, or nil (never opened, signed out, revoked, expired, or its user removed).
    public func session(id: String, now: Int) throws -> Session? {
        try lock.withLock {
            try database.namedRows("""
                SELECT email, csrf, expires_at FROM sessions WHERE id_sha256 = :id AND expires_at > :now
                """, [":id": .text(Self.digest(id)), ":now": .integer(Int64(now))]).first.flatMap { row in
                guard let email = row["email"]?.textValue, let csrf = row["csrf"]?.textValue,
                      let expires = row["expires_at"]?.integerValue else { return nil }
                return Session(email: email, csrf: csrf, expiresAt: Int(expires))
            }
        }
    }

    /// Ends one session (sign-out); false when it was not open.
    @discardableResult
    public func closeSession(id: String) throws -> Bool {
        try lock.withLock {
            try database.prepare("DELETE FROM sessions WHERE id_sha256 = :id").execute([":id": .text(Self.digest(id))])
            return database.changes > 0
        }
    }

    /// How many live sessions a user has (for `users list` and tests).
    public func sessionCount(email: String, now: Int) throws -> Int {
        try lock.withLock {
            Int(try database.scalar("SELECT count(*) FROM sessions WHERE email = :email AND expires_at > :now",
                                    [":email": .text(email.lowercased()), ":now": .integer(Int64(now))])?.integerValue ?? 0)
        }
    }

    private static func digest(_ id: String) -> String {
        LibCrypto.sha256(Array(id.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
