import OwnerDashCore

/// `ownerdash runs`: List the recorded ingest runs, or show what one did.
struct RunsCommand: Command {
    static let names = ["runs"]
    static let abstract = "List the recorded ingest runs, or show what one did."
    static let arguments: [ArgumentSpec] = []

    let global: GlobalOptions

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        throw ConfigurationError("ownerdash runs: not available yet in this build")
    }
}
