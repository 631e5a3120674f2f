import Foundation
import LibCryptoKit
import OwnerDashCore
import PostgresKit
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
/// sync rebuilds), or with `--database-url` on the PostgreSQL server (`serve_users`, `serve_user_properties`,
/// `serve_sessions`), where every replica of `serve` behind a proxy reads the same ones: who they are (by e-mail,
/// case-insensitive), their role, a manager's properties, and their open sessions. A session lives here, not in the
/// cookie, so that sign-out, `users remove` and a role change end it on the server: a copied cookie replayed
/// afterwards is no session, on any replica.
public final class UserStore: @unchecked Sendable {
    // @unchecked: the one connection is used under `lock`.
    private let tables: UserTables
    private let lock = NSLock()

    public static let migrations = [
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

    /// The same tables on PostgreSQL, prefixed `serve_` among the unified tables; created when missing.
    static let serverSchema = """
        CREATE TABLE IF NOT EXISTS serve_users (
            email    text PRIMARY KEY,
            role     text NOT NULL CHECK (role IN ('owner', 'manager')),
            added_at text NOT NULL
        );
        CREATE TABLE IF NOT EXISTS serve_user_properties (
            email    text NOT NULL REFERENCES serve_users ON DELETE CASCADE,
            property text NOT NULL,
            PRIMARY KEY (email, property)
        );
        CREATE TABLE IF NOT EXISTS serve_sessions (
            id_sha256  text   PRIMARY KEY,
            email      text   NOT NULL REFERENCES serve_users ON DELETE CASCADE,
            csrf       text   NOT NULL,
            created_at bigint NOT NULL,
            expires_at bigint NOT NULL
        );
        CREATE INDEX IF NOT EXISTS serve_sessions_by_email ON serve_sessions (email);
        COMMENT ON TABLE serve_sessions IS 'Signed-in browsers of ownerdash serve: the SHA-256 of each session id (the cookie holds the id), whose it is, its CSRF token and expiry (Unix seconds). Shared by every serve replica.';
        """

    /// `users.db` in the data directory, created when `create` (`ownerdash users`); else it must exist (the server,
    /// which writes the sessions). Migrated either way, so a server started on an older users.db gains the sessions.
    public init(dataDirectory: DataDirectory, create: Bool) throws {
        let path = URL(fileURLWithPath: dataDirectory.root).appendingPathComponent("users.db").path
        if create {
            try FileManager.default.createDirectory(atPath: dataDirectory.root, withIntermediateDirectories: true)
        } else if !FileManager.default.fileExists(atPath: path) {
            throw UserError(description: "\(path): no users yet (add one with ownerdash users add EMAIL --role owner)")
        }
        let database = try Database(path: path)
        try database.migrate(Self.migrations)
        tables = SQLiteUserTables(database: database)
    }

    /// The users and sessions on the PostgreSQL server (`--database-url`), shared by every replica; the tables are
    /// created when missing.
    public init(server url: DatabaseURL) throws {
        let connection = try PostgresConnection(url: url, applicationName: "ownerdash serve users")
        try connection.execute(Self.serverSchema)
        tables = PostgresUserTables(connection: connection)
    }

    private var users: String { tables.prefix + "users" }
    private var userProperties: String { tables.prefix + "user_properties" }
    private var sessions: String { tables.prefix + "sessions" }

    /// The user with this e-mail, or nil.
    public func user(_ email: String) throws -> User? {
        lock.lock()
        defer { lock.unlock() }
        let key = email.lowercased()
        guard let role = try tables.rows("SELECT role FROM \(users) WHERE email = :email", ["email": .text(key)])
            .first?["role"].flatMap(Viewer.Role.init(rawValue:)) else { return nil }
        let properties = try tables.rows("SELECT property FROM \(userProperties) WHERE email = :email ORDER BY property",
                                         ["email": .text(key)]).compactMap { $0["property"] }
        return User(email: key, role: role, properties: properties)
    }

    public func list() throws -> [User] {
        let emails = try lock.withLock { try tables.rows("SELECT email FROM \(users) ORDER BY email", [:]).compactMap { $0["email"] } }
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
            try tables.transaction {
                var revoked = 0
                if let before, before != after {
                    revoked = try tables.execute("DELETE FROM \(sessions) WHERE email = :email", ["email": .text(key)])
                }
                // An upsert, not DELETE + INSERT: deleting the row would cascade to the user's sessions every time.
                try tables.execute("""
                    INSERT INTO \(users) (email, role, added_at) VALUES (:email, :role, :at)
                    ON CONFLICT (email) DO UPDATE SET role = excluded.role, added_at = excluded.added_at
                    """, ["email": .text(key), "role": .text(role.rawValue), "at": .text(timestamp)])
                try tables.execute("DELETE FROM \(userProperties) WHERE email = :email", ["email": .text(key)])
                for property in properties {
                    try tables.execute("INSERT INTO \(userProperties) (email, property) VALUES (:email, :property) ON CONFLICT DO NOTHING",
                                       ["email": .text(key), "property": .text(property)])
                }
                return revoked
            }
        }
    }

    /// Removes a user and with them their sessions; false when there was none.
    public func remove(email: String) throws -> Bool {
        try lock.withLock {
            try tables.execute("DELETE FROM \(users) WHERE email = :email", ["email": .text(email.lowercased())]) > 0
        }
    }

    // MARK: - Sessions

    /// Opens a session for a user and returns its id (the cookie's secret). Sessions past their expiry are deleted
    /// on the way, so the table holds only live ones.
    public func openSession(email: String, csrf: String, expiresAt: Int, now: Int) throws -> String {
        let id = Base64URL.encode(try LibCrypto.randomBytes(32))
        try lock.withLock {
            try tables.transaction {
                try tables.execute("DELETE FROM \(sessions) WHERE expires_at <= :now", ["now": .integer(Int64(now))])
                try tables.execute("""
                    INSERT INTO \(sessions) (id_sha256, email, csrf, created_at, expires_at)
                    VALUES (:id, :email, :csrf, :now, :expires)
                    """, ["id": .text(Self.digest(id)), "email": .text(email.lowercased()), "csrf": .text(csrf),
                          "now": .integer(Int64(now)), "expires": .integer(Int64(expiresAt))])
            }
        }
        return id
    }

    /// Stores a session under a chosen id, replacing one there: for the fuzz harness, whose seed requests carry
    /// fixed session ids (a real session's id is `openSession`'s random one).
    public func keepSession(id: String, email: String, csrf: String, expiresAt: Int, now: Int) throws {
        try lock.withLock {
            _ = try tables.execute("""
                INSERT INTO \(sessions) (id_sha256, email, csrf, created_at, expires_at)
                VALUES (:id, :email, :csrf, :now, :expires)
                ON CONFLICT (id_sha256) DO UPDATE SET email = excluded.email, csrf = excluded.csrf,
                    created_at = excluded.created_at, expires_at = excluded.expires_at
                """, ["id": .text(Self.digest(id)), "email": .text(email.lowercased()), "csrf": .text(csrf),
                      "now": .integer(Int64(now)), "expires": .integer(Int64(expiresAt))])
        }
    }

    /// The live session with this id, or nil (never opened, signed out, revoked, expired, or its user removed).
    public func session(id: String, now: Int) throws -> Session? {
        try lock.withLock {
            try tables.rows("""
                SELECT email, csrf, expires_at FROM \(sessions) WHERE id_sha256 = :id AND expires_at > :now
                """, ["id": .text(Self.digest(id)), "now": .integer(Int64(now))]).first.flatMap { row in
                guard let email = row["email"], let csrf = row["csrf"], let expires = row["expires_at"].flatMap({ Int($0) }) else {
                    return nil
                }
                return Session(email: email, csrf: csrf, expiresAt: expires)
            }
        }
    }

    /// Ends one session (sign-out); false when it was not open.
    @discardableResult
    public func closeSession(id: String) throws -> Bool {
        try lock.withLock {
            try tables.execute("DELETE FROM \(sessions) WHERE id_sha256 = :id", ["id": .text(Self.digest(id))]) > 0
        }
    }

    /// How many live sessions a user has (for `users list` and tests).
    public func sessionCount(email: String, now: Int) throws -> Int {
        try lock.withLock {
            Int(try tables.rows("SELECT count(*) AS sessions FROM \(sessions) WHERE email = :email AND expires_at > :now",
                                ["email": .text(email.lowercased()), "now": .integer(Int64(now))]).first?["sessions"] ?? "0") ?? 0
        }
    }

    private static func digest(_ id: String) -> String {
        SHA256.hexDigest(of: id)
    }
}

/// A value of the users' tables: text or a whole number.
enum UserValue {
    case text(String)
    case integer(Int64)
}

/// Where the users' tables are: the same SQL (`:named` parameters, `ON CONFLICT`) runs on SQLite and PostgreSQL.
protocol UserTables {
    /// `serve_` on the server, among the unified tables; none in users.db.
    var prefix: String { get }
    /// Runs a statement; the rows it changed.
    @discardableResult
    func execute(_ sql: String, _ values: [String: UserValue]) throws -> Int
    /// Runs a query; each row's values as text by column name (NULL left out).
    func rows(_ sql: String, _ values: [String: UserValue]) throws -> [[String: String]]
    func transaction<T>(_ body: () throws -> T) throws -> T
}

/// users.db.
struct SQLiteUserTables: UserTables {
    let database: Database
    var prefix: String { "" }

    private func bound(_ values: [String: UserValue]) -> [String: SQLValue] {
        Dictionary(uniqueKeysWithValues: values.map { key, value in
            switch value {
            case .text(let text): (":" + key, SQLValue.text(text))
            case .integer(let number): (":" + key, SQLValue.integer(number))
            }
        })
    }

    func execute(_ sql: String, _ values: [String: UserValue]) throws -> Int {
        try database.prepare(sql).execute(bound(values))
        return database.changes
    }

    func rows(_ sql: String, _ values: [String: UserValue]) throws -> [[String: String]] {
        try database.namedRows(sql, bound(values)).map { row in
            row.compactMapValues { value in value.textValue ?? value.integerValue.map(String.init) }
        }
    }

    func transaction<T>(_ body: () throws -> T) throws -> T { try database.withTransaction(body) }
}

/// The server's `serve_*` tables.
struct PostgresUserTables: UserTables {
    let connection: PostgresConnection
    var prefix: String { "serve_" }

    private func bound(_ values: [String: UserValue]) -> [String: PostgresValue] {
        values.mapValues { value in
            switch value {
            case .text(let text): .text(text)
            case .integer(let number): .integer(number)
            }
        }
    }

    func execute(_ sql: String, _ values: [String: UserValue]) throws -> Int {
        try connection.execute(sql, bound(values))
    }

    func rows(_ sql: String, _ values: [String: UserValue]) throws -> [[String: String]] {
        let result = try connection.query(sql, bound(values))
        return result.values.map { row in
            var named: [String: String] = [:]
            for (column, value) in zip(result.columns, row) { if let value { named[column] = value } }
            return named
        }
    }

    func transaction<T>(_ body: () throws -> T) throws -> T { try connection.transaction(body) }
}
