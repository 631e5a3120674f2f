import OwnerDashCore

/// `ownerdash dashboard`: Write the portfolio dashboard as one self-contained HTML file.
struct DashboardCommand: Command {
    static let names = ["dashboard"]
    static let abstract = "Write the portfolio dashboard as one self-contained HTML file."
    static let arguments: [ArgumentSpec] = []

    let global: GlobalOptions

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        throw ConfigurationError("ownerdash dashboard: not available yet in this build")
    }
}
