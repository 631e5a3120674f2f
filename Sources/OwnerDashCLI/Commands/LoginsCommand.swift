import Foundation
import OwnerDashCore
import PostgresKit
import PostgresUnified

/// `ownerdash logins add|list|remove`: read-only PostgreSQL logins for analysts and BI tools, scoped like serve's users.
struct LoginsCommand: Command {
    static let names = ["logins"]
    static let abstract = "Add, list or remove read-only PostgreSQL logins for analysts (owner: every row; manager: their properties')."
    static let arguments: [ArgumentSpec] = [
        .positional("add|list|remove", help: "what to do"),
        .positional("NAME", optional: true, help: "the login's name: lower-case letters, digits and _ (add, remove)"),
        .option("--role", "owner|manager", help: "add: owner reads every row, manager only their --property KEYs' rows"),
        .option("--property", "KEY", repeating: true, help: "add: a manager's property (repeatable)"),
        .option("--password-file", "FILE", help: "add: the file holding the login's password (readable by its owner only)"),
    ]
    static let discussion = """
        Needs --database-url (or OWNERDASH_DATABASE_URL) naming a user that owns the unified tables and may create
        roles. A login reads the unified tables and views and nothing else; row-level security gives a manager
        login the rows of its properties only, in every table and view (the run journal and other portfolio-wide
        tables: owners only). Adding an existing name replaces its password, role and properties. The password is
        read from --password-file and never printed. (docs/postgresql.md, "Connecting an analyst's tool".)
        Example: ownerdash logins add dana_bi --role manager --property nexus_east --password-file ./dana.pw --database-url postgresql://ownerdash@db/portfolio
        """

    let global: GlobalOptions
    let action: String
    let name: String?
    let role: AnalystLogins.Role?
    let properties: [String]
    let passwordFile: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        action = parsed.value("add|list|remove") ?? ""
        name = parsed.value("NAME")
        properties = parsed.values("--property")
        passwordFile = parsed.value("--password-file")
        if let text = parsed.value("--role") {
            guard let role = AnalystLogins.Role(rawValue: text) else { throw UsageError("ownerdash logins: --role \"\(text)\" must be owner or manager") }
            self.role = role
        } else {
            role = nil
        }
    }

    func validate() throws {
        switch action {
        case "add":
            guard name != nil else { throw UsageError("ownerdash logins add: missing NAME") }
            guard let role else { throw UsageError("ownerdash logins add: --role owner|manager is required") }
            guard passwordFile != nil else { throw UsageError("ownerdash logins add: --password-file FILE is required (the password is never typed on a command line)") }
            if role == .manager && properties.isEmpty { throw UsageError("ownerdash logins add: a manager needs at least one --property KEY") }
            if role == .owner && !properties.isEmpty { throw UsageError("ownerdash logins add: an owner reads every property; --property goes with --role manager") }
        case "remove":
            guard name != nil else { throw UsageError("ownerdash logins remove: missing NAME") }
        case "list":
            guard name == nil else { throw UsageError("ownerdash logins list: takes no NAME") }
        default:
            throw UsageError("ownerdash logins: unknown action \"\(action)\" (add, list or remove)")
        }
        if action != "add" && (role != nil || !properties.isEmpty || passwordFile != nil) {
            throw UsageError("ownerdash logins \(action): --role, --property and --password-file go with add only")
        }
        guard global.databaseURL != nil else {
            throw UsageError("ownerdash logins: no server: give --database-url postgresql://... (or set OWNERDASH_DATABASE_URL)")
        }
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let url = global.databaseURL else { return .usage }
        let connection = try PostgresConnection(url: url, applicationName: "ownerdash logins")
        let output = StandardOutput()
        defer { output.flush() }
        switch action {
        case "add":
            guard let name, let role, let passwordFile else { return .usage }
            let password = try Self.password(passwordFile)
            try AnalystLogins.add(.init(name: name, role: role, properties: properties), password: password, on: connection)
            output.write("\(name): \(role.rawValue)\(role == .manager ? " of " + properties.joined(separator: ", ") : ", every property") on \(url)\n")
        case "remove":
            guard let name else { return .usage }
            try AnalystLogins.remove(name, on: connection)
            output.write("\(name): removed from \(url)\n")
        default:
            for login in try AnalystLogins.list(on: connection) {
                output.write("\(login.name)  \(login.role.rawValue)  \(login.role == .owner ? "every property" : login.properties.joined(separator: ", "))\n")
            }
        }
        return .success
    }

    /// The password in `path` (one line, the file not readable by every user).
    static func password(_ path: String) throws -> String {
        try DatabaseLocation.passwordFile(path, origin: "--password-file", what: "the login's password")
    }
}
