import Foundation
import HTTPServer
import OwnerDashCore
import PostgresKit
import PostgresUnified
import Serve

/// `ownerdash serve`: the read-only API over unified.db, behind OpenID Connect sign-in.
struct ServeCommand: Command {
    static let names = ["serve"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "Serve the read-only API over unified.db on HTTP, behind OpenID Connect sign-in."
    static let arguments: [ArgumentSpec] = [
        .option("--listen", "HOST:PORT", help: "address to listen on (default 127.0.0.1:8080; [::1]:8080 for IPv6)"),
        .option("--threads", "N", help: "worker threads, 1-64 (default: one per core, at least 2)"),
        .option("--tls-cert", "FILE", help: "serve HTTPS with this PEM certificate chain (with --tls-key); else plain HTTP behind a proxy"),
        .option("--tls-key", "FILE", help: "the certificate's PEM private key (readable only by the service user)"),
        .option("--refresh-seconds", "N", help: "with --database-url: how often to copy what the server published (default 30)"),
        .flag("--check", help: "check the sign-in configuration (discovery, client id, cookie key, users) and exit"),
        .flag("--no-sign-in", help: "serve everything to everyone as an owner: only on a loopback address, for trying it out"),
    ]
    static let discussion = """
        Sign-in (OpenID Connect, authorization code + PKCE) is configured in the "serve": {"oidc": {...}} section of
        the configuration file (--config), each setting overridden by its environment variable:
          issuer              OWNERDASH_OIDC_ISSUER         the provider's issuer URL (discovery under it)
          client_id           OWNERDASH_OIDC_CLIENT_ID      the client id registered with the provider
          redirect_uri        OWNERDASH_OIDC_REDIRECT_URL   this server's https://HOST/auth/callback, as registered
          client_secret_file  OWNERDASH_OIDC_CLIENT_SECRET(_FILE)  its secret, if it has one (or client_secret_env:
                                                            the name of a variable holding it)
          cookie_key_file     OWNERDASH_COOKIE_KEY(_FILE)   32+ random bytes, base64 (openssl rand -base64 32):
                                                            signs the sessions (or cookie_key_env)
          clock_skew_seconds  OWNERDASH_OIDC_CLOCK_SKEW_SECONDS  allowed clock difference, 0-300 (default 60)
          session_hours       OWNERDASH_SESSION_HOURS       how long a sign-in lasts, 1-168 (default 8)
        Secrets never go in the file itself: only a file path (chmod 600) or a variable's name.
        Users are added with ownerdash users add. Serves the dashboard's pages, /healthz, and the JSON API under
        /api/v2 (the same JSON as the CLI's --format json; query parameters are the CLI options' names with
        underscores), every endpoint of which, with its parameters, answers and errors (RFC 9457 problem
        details), is in /api/v2/openapi.json (OpenAPI 3.1) and on the page /api/docs. Runs until SIGINT or SIGTERM.
        Exit 1: bad usage or configuration (each problem on its own line); 3: cannot listen.
        """

    let global: GlobalOptions
    let host: String
    let port: UInt16
    let threads: Int
    let check: Bool
    let noSignIn: Bool
    let tlsCertificate: String?
    let tlsKey: String?
    let mirrorRefreshSeconds: Double
    /// --config was given: a missing file is then a problem (the default ./report_definitions.json may be absent).
    let configNamed: Bool

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        let listen = parsed.value("--listen") ?? "127.0.0.1:8080"
        guard let (host, port) = Self.address(listen) else {
            throw UsageError("ownerdash serve: --listen \"\(listen)\" must be HOST:PORT with an IP address (127.0.0.1:8080, [::1]:8080)")
        }
        self.host = host
        self.port = port
        // One per core: answers mostly come from memory (the answer cache), so more threads than cores only queue
        // behind each other (p99 on 2 cores: 21.6 ms with 2 threads, 29.6 ms with 4, issue 16's benchmark).
        let threadsText = parsed.value("--threads") ?? String(min(64, max(2, ProcessInfo.processInfo.activeProcessorCount)))
        guard let threads = Int(threadsText), (1...64).contains(threads) else {
            throw UsageError("ownerdash serve: --threads \"\(threadsText)\" must be a whole number from 1 to 64")
        }
        self.threads = threads
        check = parsed.flag("--check")
        configNamed = parsed.value("--config") != nil
        noSignIn = parsed.flag("--no-sign-in")
        tlsCertificate = parsed.value("--tls-cert")
        tlsKey = parsed.value("--tls-key")
        let refreshText = parsed.value("--refresh-seconds") ?? "30"
        guard let refresh = Double(refreshText), refresh >= 1 else {
            throw UsageError("ownerdash serve: --refresh-seconds \"\(refreshText)\" must be a number of seconds, at least 1")
        }
        mirrorRefreshSeconds = refresh
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw UsageError("ownerdash serve: --tls-cert and --tls-key go together")
        }
    }

    func validate() throws {
        if noSignIn && !["127.0.0.1", "::1"].contains(host) {
            throw UsageError("ownerdash serve: --no-sign-in serves tenants' data to anyone: only on 127.0.0.1 or ::1, not \(host)")
        }
        if noSignIn && check { throw UsageError("ownerdash serve: --check checks the sign-in; it does not go with --no-sign-in") }
    }

    /// `127.0.0.1:8080` or `[::1]:8080` as host and port.
    static func address(_ text: String) -> (String, UInt16)? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }

    /// The sign-in from the environment: discovery fetched, the JWKS read, users.db opened; every problem one line.
    private func signIn(_ log: Diagnostics) throws -> SignIn {
        var problems: [String] = []
        var provider: OIDCProvider?
        switch SignInConfiguration.resolve(environment: ProcessInfo.processInfo.environment, configPath: global.configPath,
                                           configRequired: configNamed) {
        case .failure(let error):
            problems += error.problems
        case .success(let settings):
            do {
                provider = try OIDCProvider(settings: settings)
            } catch let error as SignInConfigurationError {
                problems += error.problems
            } catch {
                problems.append("discovery \(settings.issuer): \(error)")
            }
        }
        var users: UserStore?
        do {
            // With --database-url the users and their sessions are on the server, shared by every replica.
            users = try global.databaseURL.map(UserStore.init(server:)) ?? UserStore(dataDirectory: global.dataDirectory, create: false)
            if try users?.list().contains(where: { $0.role == .owner }) != true {
                problems.append("no owner in users.db yet (ownerdash users add EMAIL --role owner)")
            }
        } catch {
            problems.append("\(error)")
        }
        guard problems.isEmpty, let provider, let users else {
            for problem in problems { log.error(nil, "ownerdash serve: \(problem)") }
            throw UsageError("ownerdash serve: sign-in is not ready (\(problems.count) problem\(problems.count == 1 ? "" : "s") above; "
                             + "ownerdash serve --help lists the settings)")
        }
        return SignIn(provider: provider, users: users, log: log)
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        if check {
            let signIn = try signIn(log)
            let settings = signIn.provider.settings
            print("sign-in: issuer \(settings.issuer), client \(settings.clientID), redirect \(settings.redirectURL): ok")
            for (setting, origin) in settings.origins.sorted(by: { $0.key < $1.key }) { print("  \(setting): from \(origin)") }
            print("users: \(try signIn.users.list().count)")
            return .success
        }
        // Blocked before the server's threads start, so they inherit the mask and only sigwait below receives them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var settings = ServerSettings(host: host, port: port)
        settings.threads = threads
        if let tlsCertificate, let tlsKey {
            for (option, path) in [("--tls-cert", tlsCertificate), ("--tls-key", tlsKey)] where !FileManager.default.isReadableFile(atPath: path) {
                throw UsageError("ownerdash serve: \(option) \(path): cannot read it")
            }
            settings.tlsCertificatePEM = try String(contentsOfFile: tlsCertificate, encoding: .utf8)
            settings.tlsKeyPEM = try String(contentsOfFile: tlsKey, encoding: .utf8)
        }
        let server: DashboardServer
        do {
            if noSignIn {
                server = try DashboardServer(dataDirectory: global.dataDirectory, settings: settings, log: log) { _ in
                    .signedIn(Viewer(email: "local", role: .owner), csrf: nil)
                }
            } else {
                server = try DashboardServer(dataDirectory: global.dataDirectory, settings: settings, log: log,
                                             signIn: try signIn(log))
            }
        } catch let error as HTTPServerError {
            log.error(nil, "ownerdash serve: \(error.description)")
            return .failure
        }
        if let url = global.databaseURL { try keepMirrorCurrent(url, log: log) }
        let shown = host.contains(":") ? "[\(host)]" : host
        log.info(nil, "ownerdash serve: listening on \(tlsKey == nil ? "http" : "https")://\(shown):\(server.port) (data \(global.dataDirectory.root))"
                 + (noSignIn ? ", without sign-in" : ""))
        var received: Int32 = 0
        sigwait(&signals, &received)
        log.info(nil, "ownerdash serve: stopping")
        server.stop()
        return .success
    }

    /// With `--database-url`: the pages and the API read the local mirror, which a thread brings up to date every
    /// `mirrorRefreshSeconds` (one cheap query when nothing was published; only the changed properties otherwise).
    private func keepMirrorCurrent(_ url: DatabaseURL, log: Diagnostics) throws {
        let mirror = try UnifiedMirror(url: url, dataDirectory: DataDirectory(root: global.dataDirectory.root))
        let seconds = mirrorRefreshSeconds
        Thread.detachNewThread {
            while true {
                Thread.sleep(forTimeInterval: seconds)
                do {
                    let refresh = try mirror.refresh()
                    if refresh.changed {
                        log.info(nil, "ownerdash serve: \(refresh.propertiesCopied.count) propert\(refresh.propertiesCopied.count == 1 ? "y" : "ies") updated from \(url)\(refresh.runsCopied ? ", and the run journal" : "")\(refresh.scopesCopied.map { ", and the \($0) scope" }.joined())")
                    }
                } catch {
                    log.error(nil, "ownerdash serve: could not refresh from \(url) (the pages show what was read last): \(error)")
                }
            }
        }
    }
}

/// `ownerdash users add|list|remove`: who may sign in to `ownerdash serve`, and what they see.
struct UsersCommand: Command {
    static let names = ["users"]
    static let abstract = "Add, list or remove the users of ownerdash serve (owner: every property; manager: theirs)."
    static let arguments: [ArgumentSpec] = [
        .positional("add|list|remove", help: "what to do"),
        .positional("EMAIL", optional: true, help: "the user's e-mail, as the OpenID provider asserts it (add, remove)"),
        .option("--role", "owner|manager", help: "add: owner sees every property, manager only their --property KEYs"),
        .option("--property", "KEY", repeating: true, help: "add: a manager's property (repeatable)"),
    ]
    static let discussion = """
        Kept in users.db in the data directory, or with --database-url on the PostgreSQL server, where every serve
        replica reads them. Adding an existing e-mail replaces its role and properties. A manager
        sees only their properties everywhere (lists, portfolio, API): another property's id answers 404. Removing a
        user, or changing their role or properties, ends their open browser sessions at once.
        Example: ownerdash users add dana@example.com --role manager --property nexus_east --property ridian
        """

    let global: GlobalOptions
    let action: String
    let email: String?
    let role: Viewer.Role?
    let properties: [String]

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        action = parsed.value("add|list|remove") ?? ""
        email = parsed.value("EMAIL")
        properties = parsed.values("--property")
        if let text = parsed.value("--role") {
            guard let role = Viewer.Role(rawValue: text) else { throw UsageError("ownerdash users: --role \"\(text)\" must be owner or manager") }
            self.role = role
        } else {
            role = nil
        }
    }

    func validate() throws {
        switch action {
        case "add":
            guard email != nil else { throw UsageError("ownerdash users add: missing EMAIL") }
            guard role != nil else { throw UsageError("ownerdash users add: --role owner|manager is required") }
        case "remove":
            guard email != nil else { throw UsageError("ownerdash users remove: missing EMAIL") }
        case "list":
            guard email == nil else { throw UsageError("ownerdash users list: takes no EMAIL") }
        default:
            throw UsageError("ownerdash users: unknown action \"\(action)\" (add, list or remove)")
        }
        if action != "add" && (role != nil || !properties.isEmpty) {
            throw UsageError("ownerdash users \(action): --role and --property go with add only")
        }
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let store = try global.databaseURL.map(UserStore.init(server:)) ?? UserStore(dataDirectory: global.dataDirectory, create: true)
        switch action {
        case "add":
            guard let email, let role else { return .usage }
            let revoked: Int
            do {
                revoked = try store.add(email: email, role: role, properties: properties, at: Timestamp.iso(Date()))
            } catch let error as UserError {
                throw UsageError("ownerdash users add: \(error.description)")
            }
            print("\(email.lowercased()): \(role.rawValue)" + (properties.isEmpty ? "" : " of \(properties.joined(separator: ", "))")
                  + (revoked > 0 ? " (\(revoked) open session\(revoked == 1 ? "" : "s") ended: signs in again)" : ""))
        case "remove":
            guard let email else { return .usage }
            let sessions = try store.sessionCount(email: email, now: Int(Date().timeIntervalSince1970))
            guard try store.remove(email: email) else { throw UsageError("ownerdash users remove: no user \(email)") }
            print("\(email.lowercased()): removed" + (sessions > 0 ? " (\(sessions) open session\(sessions == 1 ? "" : "s") ended)" : ""))
        default:
            let users = try store.list()
            print(TextTable.render(header: ["email", "role", "properties"],
                                   rows: users.map { [$0.email, $0.role.rawValue, $0.role == .owner ? "(all)" : $0.properties.joined(separator: ", ")] }),
                  terminator: "")
        }
        return .success
    }
}
