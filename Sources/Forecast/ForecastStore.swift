import Foundation
import OwnerDashCore
import SQLiteKit
import XGBoostKit

/// A trained forecast as stored in unified.db (`forecast_models`, unified migration 48): the trees and what they
/// were trained on.
public struct StoredForecast {
    public var modelID: Int64
    public var trainedAt: String
    public var properties: [String]
    /// First and last month end of the training examples.
    public var trainingFrom: String
    public var trainingTo: String
    /// The last next-month end the training examples saw.
    public var outcomesTo: String
    public var householdMonths: Int
    public var behind: Int
    public var features: [String]
    public var xgboostVersion: String
    public var trainingSeconds: Double
    public var model: DelinquencyModel
    /// The backtest run before training, nil when none was.
    public var backtest: BacktestVerdict?
}

/// Trains the forecast on a portfolio's ledgers and keeps it in unified.db; reads the latest one back.
public enum ForecastStore {
    /// Trains on every example whose next month end has come and stores the model; returns it as stored.
    /// `backtest`: first run the rolling backtest on the same examples and store its verdict with the model.
    public static func train(_ ledgers: [PropertyLedgers], database: Database, backtest: Bool = false,
                             now: Date = Date()) throws -> StoredForecast {
        let examples = ledgers.flatMap { $0.examples() }.filter { $0.outcomeCents != nil }
        let months = Set(examples.map(\.featureDay))
        guard months.count >= Backtest.minimumTrainingMonths else {
            throw ForecastError("too few months to train: \(months.count) month end\(months.count == 1 ? "" : "s") with a known next month end in \(ledgers.map(\.property).joined(separator: ", ")); the forecast needs at least \(Backtest.minimumTrainingMonths)")
        }
        let verdict = backtest ? try Backtest.run(examples).verdict : nil
        let started = Date()
        let model = try DelinquencyModel.train(examples)
        let seconds = Date().timeIntervalSince(started)
        let stored = StoredForecast(
            modelID: 0, trainedAt: Timestamp.iso(now), properties: ledgers.map(\.property),
            trainingFrom: MonthEnd.iso(months.min() ?? 0), trainingTo: MonthEnd.iso(months.max() ?? 0),
            outcomesTo: MonthEnd.iso(examples.map(\.outcomeDay).max() ?? 0), householdMonths: examples.count,
            behind: examples.filter { $0.behindNext == true }.count, features: Feature.allCases.map(\.name),
            xgboostVersion: XGBoostLibrary.version, trainingSeconds: seconds, model: model, backtest: verdict)
        try database.prepare("""
            INSERT INTO forecast_models (trained_at, properties, training_from, training_to, outcomes_to, household_months,
                                         behind, features, xgboost_version, training_seconds, model_json,
                                         backtest_months, backtest_auc, baseline, baseline_auc, backtest_passes)
            VALUES (:trained_at, :properties, :training_from, :training_to, :outcomes_to, :household_months,
                    :behind, :features, :xgboost_version, :training_seconds, :model_json,
                    :backtest_months, :backtest_auc, :baseline, :baseline_auc, :backtest_passes)
            """).execute([
                ":trained_at": .text(stored.trainedAt), ":properties": .text(try json(stored.properties)),
                ":training_from": .text(stored.trainingFrom), ":training_to": .text(stored.trainingTo),
                ":outcomes_to": .text(stored.outcomesTo), ":household_months": .integer(Int64(stored.householdMonths)),
                ":behind": .integer(Int64(stored.behind)), ":features": .text(try json(stored.features)),
                ":xgboost_version": .text(stored.xgboostVersion), ":training_seconds": .real(seconds),
                ":model_json": .blob(try model.modelJSON()),
                ":backtest_months": SQLValue(verdict?.months), ":backtest_auc": SQLValue(verdict?.forecastAUC),
                ":baseline": SQLValue(verdict?.baseline), ":baseline_auc": SQLValue(verdict?.baselineAUC),
                ":backtest_passes": SQLValue(verdict.map { $0.passes ? 1 : 0 }),
            ])
        var result = stored
        result.modelID = database.lastInsertRowID
        return result
    }

    /// The latest stored model, or nil when none was trained; a model of another feature list is an error that
    /// says to train again.
    public static func latest(database: Database) throws -> StoredForecast? {
        let statement = try database.prepare("""
            SELECT model_id, trained_at, properties, training_from, training_to, outcomes_to, household_months, behind,
                   features, xgboost_version, training_seconds, model_json,
                   backtest_months, backtest_auc, baseline, baseline_auc, backtest_passes
            FROM forecast_models ORDER BY model_id DESC LIMIT 1
            """)
        var found: StoredForecast?
        try statement.forEachRow { row in
            let features = try strings(row.text("features"))
            guard features == Feature.allCases.map(\.name) else {
                throw ForecastError("the stored forecast model \(row.int("model_id") ?? 0) reads the features \(features.joined(separator: ", ")), this ownerdash computes \(Feature.allCases.map(\.name).joined(separator: ", ")): train it again (ownerdash forecast train)")
            }
            guard case .blob(let bytes) = row.value(at: row.columnIndex("model_json")) else {
                throw ForecastError("the stored forecast model \(row.int("model_id") ?? 0) has no model document: train it again (ownerdash forecast train)")
            }
            var verdict: BacktestVerdict?
            if let months = row.int("backtest_months"), let auc = row.double("backtest_auc"),
               let baseline = row.text("baseline"), let baselineAUC = row.double("baseline_auc"),
               let passes = row.int("backtest_passes") {
                verdict = BacktestVerdict(months: months, forecastAUC: auc, baseline: baseline, baselineAUC: baselineAUC,
                                          passes: passes == 1)
            }
            found = StoredForecast(
                modelID: Int64(row.int("model_id") ?? 0), trainedAt: row.text("trained_at") ?? "",
                properties: try strings(row.text("properties")), trainingFrom: row.text("training_from") ?? "",
                trainingTo: row.text("training_to") ?? "", outcomesTo: row.text("outcomes_to") ?? "",
                householdMonths: row.int("household_months") ?? 0, behind: row.int("behind") ?? 0, features: features,
                xgboostVersion: row.text("xgboost_version") ?? "", trainingSeconds: row.double("training_seconds") ?? 0,
                model: try DelinquencyModel(modelJSON: bytes), backtest: verdict)
        }
        return found
    }

    private static func json(_ strings: [String]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: strings), as: UTF8.self)
    }

    private static func strings(_ text: String?) throws -> [String] {
        guard let data = text?.data(using: .utf8),
              let array = try JSONSerialization.jsonObject(with: data) as? [String] else {
            throw ForecastError("forecast_models holds a list that is not a JSON array of names: \(text ?? "NULL")")
        }
        return array
    }
}
