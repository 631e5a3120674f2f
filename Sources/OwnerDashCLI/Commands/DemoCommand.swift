import Fetch
import Foundation
import Ingest
import Metrics
import OwnerDashCore
import Render
import Sync

/// `ownerdash demo`: the whole pipeline against the bundled PMS simulator, on a machine with no PMS account.
struct DemoCommand: Command {
    static let names = ["demo"]
    static let unifiedAccess = UnifiedAccess.writesLocally
    static let abstract = "Run the whole pipeline against the bundled PMS simulator: ingest its portfolio, print the portfolio summary, write the dashboard."
    static let arguments: [ArgumentSpec] = [
        .option("--as-of", "YYYY-MM-DD", help: "the simulated property date (default \(defaultAsOf.iso), the simulator's)"),
        .option("--seed", "N", help: "the simulator's seed (default 7): another seed is another portfolio"),
        .option("--parallel", "N", help: "downloads at a time, 1-32 (default 8)"),
    ]
    static let discussion = """
        Starts scripts/pms_sim (Python 3, standard library only) on an ephemeral loopback port, with every
        property of the registry (RealPage and Yardi), then runs one ingest of the whole portfolio into the
        data directory (fetch -> landing zone, load -> realpage_raw.db and yardi_raw.db, sync -> unified.db;
        recorded in etl_runs with trigger 'demo'), stops the simulator, prints the portfolio summary
        (as 'ownerdash query summary --portfolio') and writes the dashboard to <data-dir>/dashboard.html.
        The simulator's ground truth is left in <data-dir>/simulator/truth.json to compare against.
        Without --config it runs ./report_definitions.json, or where there is none (an installed package run
        from any directory) the package's example, /usr/share/ownerdash/report_definitions.json; the simulator
        is scripts/pms_sim beside that file, else the package's /usr/share/ownerdash/scripts/pms_sim.
        Credentials and endpoints of the environment are ignored: the demo talks to the simulator only.
        """

    /// The simulator's default property date (scripts/pms_sim/cli.py DEFAULT_AS_OF): the demo's numbers are the
    /// same on every day it is run.
    static let defaultAsOf = LocalDate(year: 2026, month: 11, day: 20)!

    let global: GlobalOptions
    let asOf: LocalDate
    let seed: Int
    let parallel: Int

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        if let text = parsed.value("--as-of") {
            guard let date = LocalDate(iso: text) else {
                throw UsageError("ownerdash demo: --as-of must be a date YYYY-MM-DD, not \"\(text)\"")
            }
            asOf = date
        } else {
            asOf = Self.defaultAsOf
        }
        if let text = parsed.value("--seed") {
            guard let value = Int(text), value >= 0 else {
                throw UsageError("ownerdash demo: --seed must be a whole number, not \"\(text)\"")
            }
            seed = value
        } else {
            seed = 7
        }
        parallel = try parsed.number("--parallel", in: 1...32, default: 8, command: "ownerdash demo")
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let executable = DemoFiles.executable
        let configPath = URL(fileURLWithPath: DemoFiles.configPath(
            named: global.configNamed ? global.configPath : nil,
            currentDirectory: FileManager.default.currentDirectoryPath, executable: executable)).standardizedFileURL.path
        _ = try Configuration.load(path: configPath)  // a bad registry fails before the simulator starts
        let package = try DemoFiles.simulator(configPath: configPath, executable: executable)
        try global.dataDirectory.create()
        let started = Date()
        log.info(nil, "starting the PMS simulator (seed \(seed), property date \(asOf.iso))")
        let simulator = try DemoSimulator(package: package, configPath: configPath,
                                          directory: global.dataDirectory.path("simulator"), seed: seed, asOf: asOf)
        defer { simulator.stop() }
        // The simulator's report ids and stand-in keys (its report_catalogue.json) over the registry: the shipped
        // catalogue carries only keys seen on RealPage, and marks the others unknown.
        let demoConfigPath = (simulator.directory as NSString).appendingPathComponent("report_definitions.json")
        try ReportCatalogueOverlay.write(configPath: configPath, overlayPath: simulator.catalogue, to: demoConfigPath)
        let configuration = try Configuration.load(path: demoConfigPath)

        let request = IngestRequest(properties: configuration.properties, asOf: asOf, parallel: parallel, trigger: "demo",
                                    commandLine: "ownerdash demo --as-of \(asOf.iso) --seed \(seed)",
                                    environment: Self.environment(simulator: simulator))
        let ingest = IngestRun(dataDirectory: global.dataDirectory, configuration: configuration, configPath: demoConfigPath)
        let plan: FetchPlan
        do {
            plan = try ingest.plan(request)
        } catch let error as FetchSelectionError {
            throw ConfigurationError("ownerdash demo: \(error.description)")
        }
        let output = StandardOutput()
        defer { output.flush() }
        let result: IngestResult
        do {
            result = try ingest.run(request, plan: plan, log: log) { runID in
                output.write("run \(runID.value)\n")
                output.flush()
            }
        } catch let busy as IngestLockBusy {
            log.error(nil, busy.description)
            return .failure
        }
        simulator.stop()
        output.write(IngestCommand.summary(result))

        output.write("\nPortfolio as of \(asOf.iso):\n")
        let unified = try UnifiedStore.openForReading(dataDirectory: global.dataDirectory)
        let summary = try Metrics.run(MetricQuery(metric: .summary, portfolio: true, asOf: asOf), database: unified)
        output.write(MetricOutput.render(summary, as: .table))
        let dashboard = global.dataDirectory.path("dashboard.html")
        try DashboardCommand.write(to: dashboard, dataDirectory: global.dataDirectory, configuration: configuration,
                                   properties: configuration.properties, asOf: asOf, log: log)
        output.write("\ndashboard        \(dashboard)\n")
        output.write("unified.db       \(global.dataDirectory.unifiedDatabase)\n")
        output.write("simulator truth  \((simulator.directory as NSString).appendingPathComponent("truth.json"))\n")
        log.info(nil, String(format: "demo finished in %.1f s", Date().timeIntervalSince(started)))
        return ExitCode(rawValue: result.exitCode) ?? .failure
    }

    /// The process environment without any real PMS endpoint or credential, plus the simulator's.
    static func environment(simulator: DemoSimulator) -> [String: String] {
        let foreign = ["REALPAGE_", "YARDI_", "OWNERDASH_REALPAGE_", "OWNERDASH_YARDI_", "OWNERDASH_CREDENTIALS"]
        var environment = ProcessInfo.processInfo.environment.filter { key, _ in
            !foreign.contains { key.hasPrefix($0) }
        }
        environment.merge(simulator.environment) { $1 }
        return environment
    }
}
