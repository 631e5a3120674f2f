import OwnerDashCore
import SQLiteKit

/// Whether users see the delinquency forecast: only the latest stored model, and only when the rolling backtest run
/// before it (`forecast train --backtest`) passed (`forecast_models.backtest_passes = 1`: its AUC at least
/// `Backtest.requiredAUCMargin` above the best naive baseline's). Everywhere a user looks (the reports' "risk next
/// month" column, the API, the dashboard) asks this first; when it says hidden, those places show exactly what they
/// showed before the forecast existed. The operator's `forecast delinquency` shows any model, with a warning.
public enum ForecastVisibility: Sendable, Equatable {
    /// The latest model passed its backtest.
    case shown(modelID: Int64)
    /// No model has been trained.
    case noModel
    /// The latest model was trained without a backtest: how far to trust it is unmeasured.
    case notBacktested(modelID: Int64)
    /// The latest model's backtest did not beat the best naive baseline by the margin (`summary`: the figures).
    case failedBacktest(modelID: Int64, summary: String)

    /// Whether users see the forecast.
    public var isShown: Bool { if case .shown = self { true } else { false } }

    /// Why users see no forecast, in one sentence naming what to do; nil when they see it.
    public var reason: String? {
        switch self {
        case .shown: nil
        case .noModel:
            "no delinquency forecast model has been trained for this portfolio (ownerdash forecast train --backtest)"
        case .notBacktested(let id):
            "forecast model \(id) was trained without a backtest, so it is not shown (ownerdash forecast train --backtest)"
        case .failedBacktest(let id, let summary):
            "forecast model \(id) did not pass its backtest (\(summary)), so it is not shown"
        }
    }

    /// Reads the latest model's verdict (one row, without its trees).
    public static func read(database: Database) throws -> ForecastVisibility {
        var visibility = ForecastVisibility.noModel
        try database.prepare(latestVerdictSQL).forEachRow { row in
            let id = Int64(row.int("model_id") ?? 0)
            guard let passes = row.int("backtest_passes"), let months = row.int("backtest_months"),
                  let auc = row.double("backtest_auc"), let baseline = row.text("baseline"),
                  let baselineAUC = row.double("baseline_auc") else {
                visibility = .notBacktested(modelID: id)
                return
            }
            let verdict = BacktestVerdict(months: months, forecastAUC: auc, baseline: baseline, baselineAUC: baselineAUC,
                                          passes: passes == 1)
            visibility = verdict.passes ? .shown(modelID: id) : .failedBacktest(modelID: id, summary: verdict.summary)
        }
        return visibility
    }

    static let latestVerdictSQL = """
        SELECT model_id, backtest_months, backtest_auc, baseline, baseline_auc, backtest_passes
        FROM forecast_models ORDER BY model_id DESC LIMIT 1
        """
}

/// The forecast users see: the latest model when `ForecastVisibility` says shown, loaded once.
public enum ShownForecast {
    /// The model users may see, or why there is none. A stored model this version cannot read (another feature
    /// list) is hidden with the stored error's words, never an error of the report asking.
    public static func model(database: Database) throws -> Result<StoredForecast, ForecastHidden> {
        let visibility = try ForecastVisibility.read(database: database)
        guard visibility.isShown else { return .failure(ForecastHidden(visibility: visibility, detail: visibility.reason ?? "")) }
        do {
            guard let stored = try ForecastStore.latest(database: database) else {
                return .failure(ForecastHidden(visibility: .noModel, detail: ForecastVisibility.noModel.reason ?? ""))
            }
            return .success(stored)
        } catch let error as ForecastError {
            return .failure(ForecastHidden(visibility: visibility, detail: error.description))
        }
    }

    /// Each property's ledgers for scoring; a property that cannot be scored (no tenant ledger, no postings, never
    /// synced) is returned in `unscored` with why, not thrown: the reports list it without a forecast. `residents`:
    /// per property, only these households (nil: every household).
    public static func ledgers(database: Database, properties: [String], residents: [String: [String]]? = nil) throws
        -> (ledgers: [PropertyLedgers], unscored: [(property: String, reason: String)]) {
        var ledgers: [PropertyLedgers] = []
        var unscored: [(property: String, reason: String)] = []
        for property in properties {
            do {
                let ledger = try PropertyLedgers.read(database: database, property: property,
                                                      residents: residents.map { $0[property] ?? [] })
                guard !ledger.households.isEmpty else {
                    unscored.append((property, "property \(property) has no charges in unified_charges: nothing to learn from"))
                    continue
                }
                ledgers.append(ledger)
            } catch let error as ForecastError {
                unscored.append((property, error.description))
            }
        }
        return (ledgers, unscored)
    }

    /// Scores what can be scored of `ledgers` as of `asOf`: a property whose date is before `asOf`, or whose ledger
    /// starts after it, joins `unscored` with why.
    public static func forecast(_ ledgers: [PropertyLedgers], stored: StoredForecast, asOf: LocalDate?,
                                reasons: DelinquencyForecast.Reasons,
                                unscored: inout [(property: String, reason: String)]) throws -> DelinquencyForecast {
        var scorable: [PropertyLedgers] = []
        for ledger in ledgers {
            do {
                _ = try DelinquencyForecast.describedOn(ledger, asOf: asOf)
                scorable.append(ledger)
            } catch let error as ForecastError {
                unscored.append((ledger.property, error.description))
            }
        }
        return try DelinquencyForecast.run(scorable, stored: stored, asOf: asOf, reasons: reasons)
    }
}

/// Why users see no forecast: the visibility and one sentence for them.
public struct ForecastHidden: Error, Sendable, Equatable, CustomStringConvertible {
    public var visibility: ForecastVisibility
    public var detail: String
    public var description: String { detail }
}

/// "Risk next month", the column `report debtors` and `report rental-tracker` gain when the forecast is shown: each
/// household's probability of owing more than 30 days at the next month end, as `forecast delinquency` gives it
/// (households described on the last month end on or before the report's date). A household not in residence on
/// that month end, or of a property that cannot be scored, has none.
public struct RiskNextMonth: Sendable {
    public var modelID: Int64
    /// Property -> resident id -> probability (0 to 1).
    public var probabilities: [String: [String: Double]]
    /// Properties that could not be scored, with why.
    public var unscored: [(property: String, reason: String)]

    /// The household's probability, nil when it has none.
    public func probability(property: String, residentID: String) -> Double? {
        probabilities[property]?[residentID]
    }

    /// The risk of `households` (property -> resident ids: the households a report lists; only their ledgers are
    /// read) as of `asOf` (nil: each property's date); nil when users see no forecast (one query: the latest model's
    /// verdict). A household's risk does not depend on the others': its features are its own ledger's.
    public static func read(database: Database, households: [String: [String]], asOf: LocalDate?) throws -> RiskNextMonth? {
        guard case .success(let stored) = try ShownForecast.model(database: database) else { return nil }
        let properties = households.keys.sorted()
        var (ledgers, unscored) = try ShownForecast.ledgers(database: database, properties: properties, residents: households)
        let forecast = try ShownForecast.forecast(ledgers, stored: stored, asOf: asOf, reasons: .none, unscored: &unscored)
        var probabilities: [String: [String: Double]] = [:]
        for household in forecast.households {
            probabilities[household.property, default: [:]][household.residentID] = household.probability
        }
        return RiskNextMonth(modelID: stored.modelID, probabilities: probabilities, unscored: unscored)
    }
}
