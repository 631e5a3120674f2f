import Foundation
import OwnerDashCore
import PostgresUnified

/// The `ownerdash` command tree: finds the command, parses its arguments, runs it, exits with its code.
public enum CLI {
    /// Every command, in the order `ownerdash --help` lists them.
    static let commands: [any Command.Type] = [
        IngestCommand.self,
        FetchCommand.self,
        LoadCommand.self,
        SyncCommand.self,
        PruneCommand.self,
        BackfillCommand.self,
        PublishCommand.self,
        LoginsCommand.self,
        CompletionCommand.self,
        DoctorCommand.self,
        QueryCommand.self,
        DashboardCommand.self,
        LeaseStatusReportCommand.self,
        RentalTrackerReportCommand.self,
        StatementReportCommand.self,
        TenantHistoryReportCommand.self,
        DebtorsReportCommand.self,
        MaintenanceReportCommand.self,
        ExpensesReportCommand.self,
        ForecastTrainCommand.self,
        ForecastBacktestCommand.self,
        ForecastDelinquencyCommand.self,
        AuditRunCommand.self,
        AuditShowCommand.self,
        AuditResolveCommand.self,
        AuditReopenCommand.self,
        NoticesGenerateCommand.self,
        NoticesSendCommand.self,
        RunsCommand.self,
        SheetDumpCommand.self,
        DemoCommand.self,
        ServeCommand.self,
        UsersCommand.self,
    ]

    /// Runs the process's command line and exits with its code.
    public static func main() {
        StandardStreams.outputFailureEndsProcess = true
        var code = run(Array(CommandLine.arguments.dropFirst()))
        // A result cut short on its way out (stdout on a full disk) is an error a script must see, not exit 0.
        if let reason = StandardStreams.outputFailure() {
            StandardStreams.reportOutputFailure(reason)
            if code == .success { code = .failure }
        }
        exit(code.rawValue)
    }

    /// Runs one command line and returns its exit code (tests call this in-process).
    public static func run(_ arguments: [String], diagnostics: Diagnostics? = nil) -> ExitCode {
        // `-h` is `--help`, and `help [COMMAND...]` is `[COMMAND...] --help`, as other CLIs have them.
        var arguments = arguments.map { $0 == "-h" ? "--help" : $0 }
        if arguments.first == "help" && arguments.count > 1 {
            arguments = Array(arguments.dropFirst().filter { $0 != "--help" }) + ["--help"]
        }
        if arguments.isEmpty || arguments == ["--help"] || arguments == ["help"] {
            print(overview, terminator: "")
            return arguments.isEmpty ? .usage : .success
        }
        if arguments == ["--version"] {
            print("ownerdash \(ToolVersion.current)")
            return .success
        }
        // The longest run of leading words that names a command ("sheet dump" before "sheet"), aliases included.
        let spellings = commands.flatMap { command in ([command.names] + command.aliases).map { (command, $0) } }
        guard let (command, spelling) = spellings
            .filter({ arguments.starts(with: $0.1) })
            .max(by: { $0.1.count < $1.1.count }) else {
            let word = arguments[0]
            let log = diagnostics ?? Diagnostics()
            if let group = groupHelp(word) {
                if arguments.contains("--help") {
                    print(group, terminator: "")
                    return .success
                }
                let subcommands = commands.filter { $0.names.count > 1 && $0.names[0] == word }.map { $0.names[1] }
                log.error(nil, "ownerdash \(word): missing subcommand: one of \(subcommands.joined(separator: ", ")) (see ownerdash \(word) --help)")
            } else {
                log.error(nil, "unknown command \"\(word)\" (see ownerdash --help)")
            }
            return .usage
        }
        let rest = Array(arguments.dropFirst(spelling.count))
        if rest.contains("--help") {
            print(command.help, terminator: "")
            return .success
        }
        var log = diagnostics ?? Diagnostics()
        do {
            let parsed = try ParsedArguments(rest, specs: command.arguments + GlobalOptions.specs,
                                             command: command.commandLine)
            var global = try GlobalOptions(parsed, command: command.commandLine)
            if diagnostics == nil {
                log = Diagnostics(format: global.logFormat, quiet: global.quiet, verbose: global.verbose,
                                  timestamps: global.logTimestamps)
            }
            var writer: ScopeWriter?
            switch command.unifiedAccess {
            case .reads: try global.readFromServer(log: log)
            case .writesThrough(let scope):
                if let url = global.databaseURL {
                    writer = try ScopeWriter(url: url, scope: scope, host: global.hostName)
                    try global.readFromServer(log: log)
                }
            case .writesLocally where global.databaseURL != nil:
                throw UsageError("\(command.commandLine) writes the local unified.db only and cannot run with --database-url yet (the unified data on \(global.databaseURL!) would not see it)")
            case .none, .publishes, .writesLocally: break
            }
            let instance = try command.init(parsed, global: global)
            try instance.validate()
            let code = try instance.run(log)
            if let writer, code == .success || code == .partial {
                try writer.publish(from: global.dataDirectory.unifiedDatabase)
            }
            return code
        } catch let error as UsageError {
            log.error(nil, error.description)
            return .usage
        } catch let error as ConfigurationError {
            log.error(nil, error.description)
            return .usage
        } catch let error as ResultNotWritten {
            log.error(nil, error.description)
            return .failure
        } catch {
            log.error(nil, "\(command.commandLine): \(error)")
            return .failure
        }
    }

    /// The help of a group of commands (`ownerdash report --help`): its subcommands and what each does; nil when
    /// `word` names no group.
    static func groupHelp(_ word: String) -> String? {
        let members = commands.filter { $0.names.count > 1 && $0.names[0] == word }
        guard !members.isEmpty else { return nil }
        var lines = ["OVERVIEW: ownerdash \(word): \(members.count) subcommands.", "",
                     "USAGE: ownerdash \(word) <subcommand> [options]", "", "SUBCOMMANDS:"]
        let width = members.map { $0.names[1].count }.max() ?? 0
        for command in members {
            lines.append("  \(command.names[1].padding(toLength: width, withPad: " ", startingAt: 0))  \(command.abstract)")
        }
        lines += ["", "See 'ownerdash \(word) <subcommand> --help' (or 'ownerdash help \(word) <subcommand>') for a subcommand's options."]
        return lines.joined(separator: "\n") + "\n"
    }

    static var overview: String {
        var lines = [
            "OVERVIEW: OwnerDash — RealPage and Yardi data for multifamily owners, in SQLite.",
            "",
            "USAGE: ownerdash <command> [options]",
            "",
            "COMMANDS:",
        ]
        let width = commands.map { $0.names.joined(separator: " ").count }.max() ?? 0
        for command in commands {
            let name = command.names.joined(separator: " ")
            lines.append("  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(command.abstract)")
        }
        lines += ["", "See 'ownerdash <command> --help' (or -h, or 'ownerdash help <command>') for a command's options;",
                  "'ownerdash report --help' lists a group's subcommands. 'ownerdash --version' prints the version."]
        return lines.joined(separator: "\n") + "\n"
    }
}
