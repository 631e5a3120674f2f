import Foundation
import PostgresKit

/// Read-only PostgreSQL logins for analysts and their BI tools, scoped as `serve` scopes its users: an `owner` login
/// reads every row; a `manager` login reads only its properties' rows, in every table and view (row-level security;
/// the views run with the reader's rights, `security_invoker`). Nobody but the publishing role writes.
///
/// Two group roles carry the rights: `ownerdash_readers` (every login: `SELECT`, scoped by the policies) and
/// `ownerdash_owners` (owner logins: every row). `ownerdash_logins` and `ownerdash_login_properties` say who sees what.
public enum AnalystLogins {
    /// The role a login has, as in `serve`'s users.db.
    public enum Role: String, Sendable, CaseIterable {
        case owner, manager
    }

    /// One login and the properties it reads (empty for an owner: every property).
    public struct Login: Sendable, Equatable {
        public var name: String
        public var role: Role
        public var properties: [String]

        public init(name: String, role: Role, properties: [String]) {
            self.name = name; self.role = role; self.properties = properties
        }
    }

    /// Creates or updates a login: its password (given, never printed), its role and properties; installs the roles
    /// and policies first. Needs a server URL whose user may create roles (CREATEROLE) and owns the unified tables.
    public static func add(_ login: Login, password: String, on connection: PostgresConnection) throws {
        guard login.name.range(of: #"^[a-z_][a-z0-9_]{0,62}$"#, options: .regularExpression) != nil else {
            throw PostgresError(message: "\(login.name): a login name is lower-case letters, digits and _ (starting with a letter), at most 63",
                                context: "adding a login")
        }
        try PostgresSchema.migrate(connection)
        try retryingRaces {
            try connection.transaction {
                try install(on: connection)
                let exists = try connection.scalar("SELECT count(*) FROM pg_roles WHERE rolname = :name", ["name": .text(login.name)]) != "0"
                // CREATE ROLE takes no parameters: the password goes in as a literal, hashed here (SCRAM-SHA-256), so the
                // clear text never reaches the server or its statement log.
                let literal = PostgresSchema.literal(try connection.encryptedPassword(password, user: login.name))
                try connection.execute("\(exists ? "ALTER" : "CREATE") ROLE \(login.name) LOGIN PASSWORD \(literal)")
                try connection.execute("GRANT ownerdash_readers TO \(login.name)")
                try connection.execute(login.role == .owner ? "GRANT ownerdash_owners TO \(login.name)"
                                                            : "REVOKE ownerdash_owners FROM \(login.name)")
                try connection.execute("""
                    INSERT INTO ownerdash_logins (login, role) VALUES (:name, :role)
                    ON CONFLICT (login) DO UPDATE SET role = EXCLUDED.role
                    """, ["name": .text(login.name), "role": .text(login.role.rawValue)])
                try connection.execute("DELETE FROM ownerdash_login_properties WHERE login = :name", ["name": .text(login.name)])
                for property in login.role == .manager ? login.properties : [] {
                    try connection.execute("INSERT INTO ownerdash_login_properties (login, unified_property_id) VALUES (:name, :property)",
                                           ["name": .text(login.name), "property": .text(property)])
                }
            }
        }
    }

    /// Runs `body` (one transaction) again, up to three times in all, when it lost a race with another database of the
    /// same cluster setting up the roles at the same time: roles and their grants are the cluster's, shared by every
    /// database, so two set-ups can deadlock (40P01) or both create the same role (23505 on pg_authid); the second
    /// attempt finds the roles there.
    static func retryingRaces(_ body: () throws -> Void) throws {
        for attempt in 1...3 {
            do {
                return try body()
            } catch let error as PostgresError where attempt < 3 && ["40P01", "40001", "23505"].contains(error.sqlState ?? "") {
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
            }
        }
    }

    /// Drops a login (its rights go with it).
    public static func remove(_ name: String, on connection: PostgresConnection) throws {
        try connection.transaction {
            guard try connection.execute("DELETE FROM ownerdash_logins WHERE login = :name", ["name": .text(name)]) > 0 else {
                throw PostgresError(message: "\(name) is not an OwnerDash login (ownerdash logins list)", context: "removing a login")
            }
            try connection.execute("DELETE FROM ownerdash_login_properties WHERE login = :name", ["name": .text(name)])
            try connection.execute("DROP ROLE IF EXISTS \(name)")
        }
    }

    /// Every login, by name.
    public static func list(on connection: PostgresConnection) throws -> [Login] {
        try PostgresSchema.migrate(connection)
        return try connection.query("""
            SELECT l.login, l.role, coalesce(string_agg(p.unified_property_id, ',' ORDER BY p.unified_property_id), '') AS properties
            FROM ownerdash_logins l LEFT JOIN ownerdash_login_properties p ON p.login = l.login
            GROUP BY l.login, l.role ORDER BY l.login
            """).map { row in
            Login(name: row["login"] ?? "", role: Role(rawValue: row["role"] ?? "") ?? .manager,
                  properties: (row["properties"] ?? "").split(separator: ",").map(String.init))
        }
    }

    /// Whether the group roles exist (a login was ever added): then every migration re-applies the policies, so a new
    /// table is scoped like the others.
    static func isInstalled(on connection: PostgresConnection) throws -> Bool {
        try connection.scalar("SELECT count(*) FROM pg_roles WHERE rolname = 'ownerdash_readers'") != "0"
    }

    /// The roles, grants and policies, for every table and view of the current schema (idempotent).
    static func install(on connection: PostgresConnection, shape: UnifiedShape = .current) throws {
        for role in ["ownerdash_readers", "ownerdash_owners"] {
            if try connection.scalar("SELECT count(*) FROM pg_roles WHERE rolname = :r", ["r": .text(role)]) == "0" {
                try connection.execute("CREATE ROLE \(role) NOLOGIN")
            }
        }
        try connection.execute("""
            GRANT USAGE ON SCHEMA public TO ownerdash_readers;
            GRANT SELECT ON ownerdash_login_properties TO ownerdash_readers;
            ALTER TABLE ownerdash_login_properties ENABLE ROW LEVEL SECURITY;
            DROP POLICY IF EXISTS ownerdash_own_rows ON ownerdash_login_properties;
            CREATE POLICY ownerdash_own_rows ON ownerdash_login_properties FOR SELECT TO ownerdash_readers
                USING (login = current_user);
            """)
        let owners = "pg_has_role(current_user, 'ownerdash_owners', 'MEMBER')"
        for table in shape.tables {
            let scope: String
            if table.isPropertyScoped {
                scope = "\(owners) OR unified_property_id IN (SELECT unified_property_id FROM ownerdash_login_properties WHERE login = current_user)"
            } else if table.columns.contains(where: { $0.name == "property_id" }) {
                scope = "\(owners) OR property_id IN (SELECT unified_property_id FROM ownerdash_login_properties WHERE login = current_user)"
            } else {
                // Rows of no one property (the run journal, notices, audit runs): owners only.
                scope = owners
            }
            try connection.execute("""
                GRANT SELECT ON \(table.name) TO ownerdash_readers;
                ALTER TABLE \(table.name) ENABLE ROW LEVEL SECURITY;
                DROP POLICY IF EXISTS ownerdash_scope ON \(table.name);
                CREATE POLICY ownerdash_scope ON \(table.name) FOR SELECT TO ownerdash_readers USING (\(scope));
                """)
        }
        for view in shape.views {
            try connection.execute("ALTER VIEW \(view.name) SET (security_invoker = true); GRANT SELECT ON \(view.name) TO ownerdash_readers")
        }
    }
}
