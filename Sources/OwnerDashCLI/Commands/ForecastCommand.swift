import Forecast
import Foundation
import OwnerDashCore
import Render
import SQLiteKit
import Sync

/// `ownerdash forecast backtest`: the rolling backtest of the delinquency forecast against its baselines.
struct ForecastBacktestCommand: Command {
    static let names = ["forecast", "backtest"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "How well the delinquency forecast would have done: each month predicted from the months before it."
    static let arguments: [ArgumentSpec] = [
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every synced property with a tenant ledger"),
        .option("--from", "YYYY-MM-DD", help: "predict only the month ends on or after this date (trained on every month end before each, as always)"),
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
        --from measures a stretch of the ledgers alone: month ends before it train, but are not predicted.
        Exit 1: bad usage (unknown property, --from not a date); 3: no unified.db or too few months to backtest.
        """

    let global: GlobalOptions
    let properties: [String]
    let from: LocalDate?
    let formatName: String
    let out: String?
    let table: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        properties = parsed.values("--property")
        if let text = parsed.value("--from") {
            guard let date = LocalDate(iso: text) else { throw UsageError("\(Self.commandLine): --from \"\(text)\" is not a date (YYYY-MM-DD)") }
            from = date
        } else {
            from = nil
        }
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
            backtest = try Backtest.run(examples, from: from?.daysSinceEpoch)
        } catch let error as ForecastError {
            log.error(nil, "\(Self.commandLine): \(error.description)")
            return .failure
        }
        let result = ForecastAnswers.backtest(backtest, properties: ledgers.map(\.property), from: from)
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
        var leftOut: [(property: String, reason: String)] = []
        let ledgers = try read(database, properties: properties, asked: asked, leftOut: &leftOut)
        for property in leftOut { log.warning(nil, "\(command): \(ForecastAnswers.leftOutLine(property))") }
        return ledgers
    }

    /// The same, the properties left out (and why) returned in `leftOut` instead of logged: `forecast delinquency`
    /// puts them among its answer's warnings, as the API does.
    static func read(_ database: Database, properties: [String], asked: Bool,
                     leftOut: inout [(property: String, reason: String)]) throws -> [PropertyLedgers] {
        let (ledgers, unscored) = try ShownForecast.ledgers(database: database, properties: properties)
        if asked, let first = unscored.first { throw ForecastError(first.reason) }
        leftOut += unscored
        guard !ledgers.isEmpty else { throw ForecastError("no property has a tenant ledger to learn from") }
        return ledgers
    }
}

/// `ownerdash forecast train`: trains the delinquency forecast on the portfolio's ledgers and keeps it in unified.db (on the server with --database-url).
struct ForecastTrainCommand: Command {
    static let names = ["forecast", "train"]
    // With --database-url: trained on the server's data (the mirror, under the forecast's lock, so two hosts
    // training take turns) and the models published back, so every reader on every host scores with it.
    static let unifiedAccess = UnifiedAccess.writesThrough(scope: "forecast")
    static let abstract = "Train the delinquency forecast on every month of the portfolio's ledgers and store it in unified.db (or on the server)."
    static let arguments: [ArgumentSpec] = [
        .option("--property", "KEY", repeating: true, help: "learn from these properties only (repeatable); default: every synced property with a tenant ledger"),
        .flag("--backtest", help: "first run the rolling backtest and store its verdict with the model (users see only a model that passed)"),
    ]
    static let discussion = """
        Every household in residence at a month end whose next month end has come is an example: its
        features on that month end (docs/forecast.md) and whether it owed more than 30 days at the next.
        The model (XGBoost trees) is stored in forecast_models with the properties, the month ends it
        learned from and its feature list; `ownerdash forecast delinquency` uses the latest. Prints the
        model's id, window and size. With --backtest, the rolling backtest of `ownerdash forecast backtest`
        runs first on the same months and its verdict is stored with the model (the forecast's AUC against
        the best naive baseline's; passing needs 0.02 more). With --database-url it learns from the server's
        data and stores the model there, where every reader (forecast delinquency, the reports' risk column,
        serve, the dashboard) on any host finds it.
        Exit 1: bad usage; 3: no unified.db, no ledger or too few months to train.
        """

    let global: GlobalOptions
    let properties: [String]
    let backtest: Bool

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        properties = parsed.values("--property")
        backtest = parsed.flag("--backtest")
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard FileManager.default.fileExists(atPath: global.dataDirectory.unifiedDatabase) else {
            log.error(nil, "\(Self.commandLine): \(global.dataDirectory.unifiedDatabase): no unified database yet (run ownerdash sync or ownerdash ingest first)")
            return .failure
        }
        let store = try UnifiedStore(dataDirectory: global.dataDirectory)
        let keys = try LedgerReportSession.properties(store.database, asked: properties, command: Self.commandLine)
        do {
            let started = Date()
            let ledgers = try ForecastInputs.read(store.database, properties: keys, asked: !properties.isEmpty, log: log,
                                                  command: Self.commandLine)
            let stored = try ForecastStore.train(ledgers, database: store.database, backtest: backtest)
            let output = StandardOutput()
            output.write("""
                model \(stored.modelID): \(stored.householdMonths) household month ends of \(stored.properties.count) propert\(stored.properties.count == 1 ? "y" : "ies"), \(stored.behind) behind at the next month end
                learned from month ends \(stored.trainingFrom) to \(stored.trainingTo) (outcomes to \(stored.outcomesTo)), \(stored.features.count) features, XGBoost \(stored.xgboostVersion)
                trained in \(String(format: "%.1f", stored.trainingSeconds)) s (\(String(format: "%.1f", Date().timeIntervalSince(started))) s with reading the ledgers\(backtest ? " and the backtest" : ""))

                """ + (stored.backtest.map { "backtest: \($0.summary)\n" } ?? ""))
            output.flush()
            return .success
        } catch let error as ForecastError {
            log.error(nil, "\(Self.commandLine): \(error.description)")
            return .failure
        }
    }
}

/// `ownerdash forecast delinquency`: who is likely to be behind more than 30 days at the next month end.
struct ForecastDelinquencyCommand: Command {
    static let names = ["forecast", "delinquency"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "Each household's probability of owing more than 30 days at the next month end, with its three largest reasons."
    static let arguments: [ArgumentSpec] = [
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every synced property with a tenant ledger"),
        .option("--as-of", "YYYY-MM-DD", help: "describe households on the last month end on or before this date (default: each property's date)"),
        .option("--format", "table|json|csv|xlsx", help: "output format (default table); xlsx a workbook (needs --out)"),
        .option("--out", "FILE", help: "write the forecast to FILE instead of stdout"),
        CSVTables.option,
    ]
    static let discussion = """
        Households in residence at the property's last month end on or before the as-of date, scored by
        the latest model of `ownerdash forecast train` for the next month end, most likely first. Each
        names the three features that moved its forecast most (XGBoost's SHAP values, in log-odds: + is
        towards behind). Expected over-30 dollars = probability × the balance on that month end (what
        could be over 30 days old by the next month end). Two tables: the households (rows) and each
        property with the portfolio total (properties; csv prints one: --table NAME). The backtest
        (`ownerdash forecast backtest`) says how far to trust it; docs/forecast.md lists the features.
        Exit 1: bad usage (unknown property, --as-of not a date); 3: no unified.db, no model, or a date
        after a property's data.
        """

    let global: GlobalOptions
    let options: LedgerReportOptions

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        options = try LedgerReportOptions(parsed, command: Self.commandLine, formats: ["table", "json", "csv", "xlsx"])
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let session = try LedgerReportSession(command: Self.commandLine, dataDirectory: global.dataDirectory,
                                                    asked: options.properties, log: log)
        else { return .failure }
        do {
            guard let stored = try ForecastStore.latest(database: session.database) else {
                throw ForecastError(global.databaseURL == nil
                    ? "no forecast model in unified.db yet: run ownerdash forecast train"
                    : "no forecast model on the server yet: run ownerdash forecast train --database-url (or ownerdash publish of a unified.db that has one)")
            }
            let started = Date()
            var leftOut: [(property: String, reason: String)] = []
            let ledgers = try ForecastInputs.read(session.database, properties: session.properties, asked: !options.properties.isEmpty,
                                                  leftOut: &leftOut)
            let read = Date()
            let forecast = try DelinquencyForecast.run(ledgers, stored: stored, asOf: options.asOf)
            log.debug(nil, "\(Self.commandLine): ledgers read in \(String(format: "%.2f", read.timeIntervalSince(started))) s, \(forecast.households.count) households scored in \(String(format: "%.2f", Date().timeIntervalSince(read))) s (features \(String(format: "%.2f", forecast.featureSeconds)) s, XGBoost \(String(format: "%.2f", forecast.modelSeconds)) s)")
            let result = ForecastAnswers.delinquency(forecast, stored: stored, properties: ledgers.map(\.property), asOf: options.asOf,
                                                     leftOut: leftOut)
            for warning in result.warnings { log.warning(nil, "\(Self.commandLine): \(warning)") }
            try session.write(result, format: options.formatName, title: "Delinquency forecast", to: options.out,
                              table: options.table)
            return .success
        } catch let error as ForecastError {
            log.error(nil, "\(Self.commandLine): \(error.description)")
            return .failure
        }
    }
}
