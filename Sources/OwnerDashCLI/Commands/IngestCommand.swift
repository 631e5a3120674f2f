import OwnerDashCore

/// `ownerdash ingest`: Fetch, load and sync the selected properties as one recorded run.
struct IngestCommand: Command {
    static let names = ["ingest"]
    static let abstract = "Fetch, load and sync the selected properties as one recorded run."
    static let arguments: [ArgumentSpec] = []

    let global: GlobalOptions

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        throw ConfigurationError("ownerdash ingest: not available yet in this build")
    }
}
