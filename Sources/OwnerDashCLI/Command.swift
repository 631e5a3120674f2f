import Foundation
import OwnerDashCore
import PostgresKit
import PostgresUnified
import Ingest

/// How a command ended (docs/contracts.md, "Command line and exit codes").
public enum ExitCode: Int32, Sendable {
    /// Everything succeeded.
    case success = 0
    /// Usage or configuration error.
    case usage = 1
    /// The run finished but some items failed; the good ones are committed.
    case partial = 2
    /// Nothing could be done (locked database, unreachable source, ...).
    case failure = 3
}

/// Options every command accepts (docs/contracts.md, "Command line and exit codes").
public struct GlobalOptions: Sendable {
    public static let specs: [ArgumentSpec] = [
        .option("--data-dir", "DIR", help: "data directory (default ./data, or $OWNERDASH_DATA_DIR)"),
        .option("--config", "FILE", help: "configuration file (default ./report_definitions.json)"),
        .option("--database-url", "URL", help: "unified data on PostgreSQL (postgresql://...; or $OWNERDASH_DATABASE_URL); default DIR/unified.db"),
        .flag("--quiet", help: "print errors only"),
        .flag("--verbose", help: "print more detail on stderr"),
        .option("--log-format", "text|json", help: "format of stderr log lines (default text)"),
        .flag("--log-timestamps", help: "start each text log line with its UTC time (or OWNERDASH_LOG_TIMESTAMPS=1)"),
        .flag("--help", help: "show this help"),
    ]

    public var dataDirectory: DataDirectory
    public var configPath: String
    /// Whether `--config` was given (`configPath` is otherwise the default name, which `demo` may look beyond).
    public var configNamed: Bool
    /// Where the unified data lives when not in `<data-dir>/unified.db` (DatabaseLocation); nil: unified.db.
    public var databaseURL: DatabaseURL?
    public var quiet: Bool
    public var verbose: Bool
    public var logFormat: Diagnostics.Format
    /// `--log-timestamps` or `OWNERDASH_LOG_TIMESTAMPS=1` (what cron, appending to one log file, sets).
    public var logTimestamps: Bool
    /// This host's name among the hosts sharing a server: `OWNERDASH_HOST_NAME`, else the machine's (`ingest
    /// --host-name` names it for one run). Recorded in etl_runs.host and ownerdash_publications.host.
    public var hostName: String

    init(_ parsed: ParsedArguments, command: String) throws {
        dataDirectory = DataDirectory.resolve(option: parsed.value("--data-dir"))
        configPath = parsed.value("--config") ?? "report_definitions.json"
        configNamed = parsed.value("--config") != nil
        databaseURL = try DatabaseLocation.resolve(option: parsed.value("--database-url"),
                                                   environment: ProcessInfo.processInfo.environment,
                                                   configPath: configPath, configNamed: configNamed)
        quiet = parsed.flag("--quiet")
        verbose = parsed.flag("--verbose")
        logTimestamps = parsed.flag("--log-timestamps") || ProcessInfo.processInfo.environment["OWNERDASH_LOG_TIMESTAMPS"] == "1"
        hostName = ProcessInfo.processInfo.environment["OWNERDASH_HOST_NAME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? LockHolder.hostName()
        switch parsed.value("--log-format") ?? "text" {
        case "text": logFormat = .text
        case "json": logFormat = .json
        case let other: throw UsageError("\(command): --log-format must be text or json, not \"\(other)\"")
        }
    }

    /// Reads the configuration file named by `--config`.
    func configuration() throws -> Configuration {
        try Configuration.load(path: configPath)
    }

    /// The data directory a reading command opens: with `--database-url`, its unified database is the local mirror of
    /// the server's data, brought up to date first (only what was published since it last looked is copied).
    mutating func readFromServer(log: Diagnostics) throws {
        guard let databaseURL else { return }
        let mirror = try UnifiedMirror(url: databaseURL, dataDirectory: dataDirectory)
        let refresh = try mirror.refresh()
        if refresh.changed {
            log.debug(nil, "read \(databaseURL): \(refresh.propertiesCopied.count) propert\(refresh.propertiesCopied.count == 1 ? "y" : "ies") copied, \(refresh.propertiesRemoved.count) removed\(refresh.runsCopied ? ", the run journal" : "") (\(refresh.rows) rows) into \(mirror.path)")
        }
        dataDirectory.readerUnifiedDatabase = mirror.path
    }

    /// A publication to the server for a command that syncs, or nil without `--database-url`.
    func publication() throws -> UnifiedPublication? {
        try databaseURL.map { try UnifiedPublication(url: $0, host: hostName) }
    }
}

/// What a command does with the unified data, which decides what `--database-url` means for it.
enum UnifiedAccess: Sendable {
    /// Never opens it (fetch, load, sheet dump).
    case none
    /// Reads it: from the server's mirror with `--database-url`.
    case reads
    /// Syncs into unified.db and publishes each property to the server with `--database-url`.
    case publishes
    /// Reads and writes a portfolio-wide scope (`audit`): with `--database-url`, under the scope's lock on the server,
    /// on the mirror, whose scope is published back when the command succeeded (`ScopeWriter`).
    case writesThrough(scope: String)
    /// Writes unified.db in ways not yet published to a server: refused with `--database-url` rather than
    /// writing a copy nobody reads.
    case writesLocally
}

/// One `ownerdash` command: its name, its one-line abstract, its arguments, and what it does.
protocol Command: SendableMetatype {
    /// Words after `ownerdash`, e.g. `["sheet", "dump"]`.
    static var names: [String] { get }
    /// Older spellings still accepted (scripts written against them keep working); not listed in `--help`.
    static var aliases: [[String]] { get }
    static var abstract: String { get }
    static var arguments: [ArgumentSpec] { get }
    /// Extra paragraphs for `--help` (examples, rules).
    static var discussion: String { get }
    /// What it does with the unified data (what `--database-url` means for it).
    static var unifiedAccess: UnifiedAccess { get }

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws
    /// Checks option values before anything runs; throws `UsageError`.
    func validate() throws
    func run(_ output: Diagnostics) throws -> ExitCode
}

extension Command {
    static var discussion: String { "" }
    static var aliases: [[String]] { [] }
    static var unifiedAccess: UnifiedAccess { .none }
    func validate() throws {}

    static var commandLine: String { "ownerdash " + names.joined(separator: " ") }

    /// `--help` text, generated from the declarations so it cannot drift from the parser.
    static var help: String {
        var lines = ["OVERVIEW: \(abstract)", ""]
        let usage = ([commandLine] + arguments.map(\.usage)).joined(separator: " ")
        lines.append("USAGE: \(usage)")
        if !discussion.isEmpty { lines += ["", discussion] }
        func section(_ title: String, _ specs: [ArgumentSpec]) {
            guard !specs.isEmpty else { return }
            lines += ["", title]
            let width = min(28, specs.map(\.label.count).max() ?? 0)
            for spec in specs {
                let padded = spec.label.padding(toLength: max(width, spec.label.count), withPad: " ", startingAt: 0)
                lines.append("  \(padded)  \(spec.help)")
            }
        }
        section("ARGUMENTS AND OPTIONS:", arguments)
        section("GLOBAL OPTIONS:", GlobalOptions.specs)
        return lines.joined(separator: "\n") + "\n"
    }
}
