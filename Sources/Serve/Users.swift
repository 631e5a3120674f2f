import Foundation
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

/// The users who may sign in, kept in `users.db` in the data directory (beside, never inside, unified.db, which a
/// sync rebuilds): who they are (by e-mail, case-insensitive), their role, a manager's properties.
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
    ]

    /// `users.db` in the data directory, created and migrated when `create`; else opened read-only (the server).
    public init(dataDirectory: DataDirectory, create: Bool) throws {
        let path = URL(fileURLWithPath: dataDirectory.root).appendingPathComponent("users.db").path
        if create {
            try FileManager.default.createDirectory(atPath: dataDirectory.root, withIntermediateDirectories: true)
            database = try Database(path: path)
            try database.migrate(Self.migrations)
        } else {
            guard FileManager.default.fileExists(atPath: path) else {
                throw UserError(description: "\(path): no users yet (add one with ownerdash users add EMAIL --role owner)")
            }
            database = try Database(path: path, mode: .readOnly)
        }
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

    /// Adds or replaces a user. A manager needs at least one property; an owner takes none.
    public func add(email: String, role: Viewer.Role, properties: [String], at timestamp: String) throws {
        let key = email.lowercased().trimmingCharacters(in: .whitespaces)
        guard key.count <= 254, key.split(separator: "@").count == 2, !key.contains(where: { $0.isWhitespace }) else {
            throw UserError(description: "\"\(email)\" is not an e-mail address")
        }
        if role == .manager && properties.isEmpty { throw UserError(description: "a manager needs at least one --property KEY") }
        if role == .owner && !properties.isEmpty { throw UserError(description: "an owner sees every property: no --property") }
        try lock.withLock {
            try database.withTransaction {
                try database.prepare("DELETE FROM users WHERE email = :email").execute([":email": .text(key)])
                try database.prepare("INSERT INTO users (email, role, added_at) VALUES (:email, :role, :at)")
                    .execute([":email": .text(key), ":role": .text(role.rawValue), ":at": .text(timestamp)])
                let insert = try database.prepare("INSERT OR IGNORE INTO user_properties (email, property) VALUES (:email, :property)")
                for property in properties { try insert.execute([":email": .text(key), ":property": .text(property)]) }
            }
        }
    }

    /// Removes a user; false when there was none.
    public func remove(email: String) throws -> Bool {
        try lock.withLock {
            try database.prepare("DELETE FROM users WHERE email = :email").execute([":email": .text(email.lowercased())])
            return database.changes > 0
        }
    }
}
