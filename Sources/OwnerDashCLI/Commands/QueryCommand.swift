import OwnerDashCore

/// `ownerdash query`: Answer occupancy, exposure, pricing, delinquency, funnel and activity questions from unified.db.
struct QueryCommand: Command {
    static let names = ["query"]
    static let abstract = "Answer occupancy, exposure, pricing, delinquency, funnel and activity questions from unified.db."
    static let arguments: [ArgumentSpec] = []

    let global: GlobalOptions

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        throw ConfigurationError("ownerdash query: not available yet in this build")
    }
}
