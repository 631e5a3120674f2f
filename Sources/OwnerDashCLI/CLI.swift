import Foundation
import OwnerDashCore

/// The `ownerdash` command tree: finds the command, parses its arguments, runs it, exits with its code.
public enum CLI {
    public static let version = "0.1.0"

    /// Every command, in the order `ownerdash --help` lists them.
    static let commands: [any Command.Type] = [
        IngestCommand.self,
        FetchCommand.self,
        LoadCommand.self,
        SyncCommand.self,
        PruneCommand.self,
        BackfillCommand.self,
        QueryCommand.self,
        DashboardCommand.self,
        LeaseStatusReportCommand.self,
        RentalTrackerReportCommand.self,
        StatementReportCommand.self,
        TenantHistoryReportCommand.self,
        DebtorsReportCommand.self,
        MaintenanceReportCommand.self,
        ExpensesReportCommand.self,
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
        let code = run(Array(CommandLine.arguments.dropFirst()))
        exit(code.rawValue)
    }

    /// Runs one command line and returns its exit code (tests call this in-process).
    public static func run(_ arguments: [String], diagnostics: Diagnostics? = nil) -> ExitCode {
        if arguments.isEmpty || arguments == ["--help"] || arguments == ["help"] {
            print(overview, terminator: "")
            return arguments.isEmpty ? .usage : .success
        }
        if arguments == ["--version"] {
            print("ownerdash \(version)")
            return .success
        }
        // The longest run of leading words that names a command ("sheet dump" before "sheet"), aliases included.
        let spellings = commands.flatMap { command in ([command.names] + command.aliases).map { (command, $0) } }
        guard let (command, spelling) = spellings
            .filter({ arguments.starts(with: $0.1) })
            .max(by: { $0.1.count < $1.1.count }) else {
            let known = Set(spellings.map { $0.1[0] })
            let word = arguments[0]
            let log = diagnostics ?? Diagnostics()
            if known.contains(word) {
                log.error(nil, "ownerdash \(word): missing subcommand (see ownerdash --help)")
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
            let global = try GlobalOptions(parsed, command: command.commandLine)
            if diagnostics == nil {
                log = Diagnostics(format: global.logFormat, quiet: global.quiet, verbose: global.verbose)
            }
            let instance = try command.init(parsed, global: global)
            try instance.validate()
            return try instance.run(log)
        } catch let error as UsageError {
            log.error(nil, error.description)
            return .usage
        } catch let error as ConfigurationError {
            log.error(nil, error.description)
            return .usage
        } catch {
            log.error(nil, "\(command.commandLine): \(error)")
            return .failure
        }
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
        lines += ["", "See 'ownerdash <command> --help' for a command's options. 'ownerdash --version' prints the version."]
        return lines.joined(separator: "\n") + "\n"
    }
}
