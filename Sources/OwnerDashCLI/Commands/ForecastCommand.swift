import Forecast
import Foundation
import OwnerDashCore
import Render
import SQLiteKit

/// `ownerdash forecast backtest`: the rolling backtest of the delinquency forecast against its baselines.
struct ForecastBacktestCommand: Command {
    static let names = ["forecast", "backtest"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "How well the delinquency forecast would have done: each month predicted from the months before it."
    static let arguments: [ArgumentSpec] = [
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every synced property with a tenant ledger"),
        .option("--format", "table|json|csv|xlsx", help: "output format (default table); xlsx a workbook (needs --out)"),
        .option("--out", "FILE", help: "write the figures to FILE instead of stdout"),
        CSVTables.option,
    ]
    static let formats = ["table", "json", "csv", "xlsx"]
    static let discussion = """
        A household is behind at a month end when it owes charges posted more than 30 days before it (the
        31-60, 61-90 and over-90 aging buckets; payments settle the oldest charges first). Month ends in
        order: the households in residence at each are scored by models trained only on month ends whose
        next month end had come by then, and compared with what happened at their next month end. Figures
        over every predicted month: ROC AUC (0.5 is chance), Brier score (lower is better) and the share of
        next month's over-30 dollars owed by each month's top 10 % of households. The forecast (XGBoost
        trees) is shown beside a logistic regression on the same features and two naive baselines (behind
        now; the household's share of late month ends so far). docs/forecast.md lists the features.
        Exit 1: bad usage (unknown property); 3: no unified.db or too few months to backtest.
        """

    let global: GlobalOptions
    let properties: [String]
    let formatName: String
    let out: String?
    let table: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        properties = parsed.values("--property")
        (formatName, out) = try LedgerReportOptions.output(parsed, command: Self.commandLine, formats: Self.formats)
        table = parsed.value("--table")
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let session = try LedgerReportSession(command: Self.commandLine, dataDirectory: global.dataDirectory,
                                                    asked: properties, log: log)
        else { return .failure }
        let ledgers: [PropertyLedgers]
        do {
            ledgers = try ForecastInputs.read(session.database, properties: session.properties, asked: !properties.isEmpty, log: log,
                                              command: Self.commandLine)
        } catch let error as ForecastError {
            log.error(nil, "\(Self.commandLine): \(error.description)")
            return .failure
        }
        let started = Date()
        let examples = ledgers.flatMap { $0.examples() }
        log.debug(nil, "\(Self.commandLine): \(examples.count) household month ends from \(ledgers.count) properties in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        let backtest: Backtest
        do {
            backtest = try Backtest.run(examples)
        } catch let error as ForecastError {
            log.error(nil, "\(Self.commandLine): \(error.description)")
            return .failure
        }
        let result = ForecastAnswers.backtest(backtest, properties: ledgers.map(\.property))
        for warning in result.warnings { log.warning(nil, "\(Self.commandLine): \(warning)") }
        try session.write(result, format: formatName, title: "Forecast backtest", to: out, table: table)
        return .success
    }
}

/// The ledgers a forecast command reads.
enum ForecastInputs {
    /// Each property's ledgers. A property named with --property that has no tenant ledger is an error; one of
    /// the whole portfolio is left out with a warning (its ledger may simply not be fetched yet).
    static func read(_ database: Database, properties: [String], asked: Bool, log: Diagnostics, command: String) throws -> [PropertyLedgers] {
        var ledgers: [PropertyLedgers] = []
        for property in properties {
            do {
                let ledger = try PropertyLedgers.read(database: database, property: property)
                if ledger.households.isEmpty {
                    throw ForecastError("property \(property) has no charges in unified_charges: nothing to learn from")
                }
                ledgers.append(ledger)
            } catch let error as ForecastError where !asked {
                log.warning(nil, "\(command): \(error.description); left out")
            }
        }
        guard !ledgers.isEmpty else { throw ForecastError("no property has a tenant ledger to learn from") }
        return ledgers
    }
}
