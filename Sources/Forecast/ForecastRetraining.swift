import Foundation
import OwnerDashCore
import SQLiteKit

/// When the nightly ingest retrains the delinquency forecast: when a month has closed since the latest model's last
/// outcome (its training could learn one more month), when the latest model reads other features than this version
/// computes (it can no longer be used), or when there is no model and the ledgers hold enough months to train one. Decided from two small queries, so a night with nothing to learn costs nothing.
public enum ForecastRetraining {
    /// Whether to retrain, and why, in words for the ingest's line.
    public enum Decision: Sendable, Equatable {
        case due(String)
        case notDue(String)
    }

    /// The decision for the ledgers in `database` (only properties with a tenant ledger count).
    public static func decide(database: Database) throws -> Decision {
        var newestDate: Int?
        var firstMonth: String?
        try database.prepare(ledgerSpanSQL).forEachRow { row in
            newestDate = row.int("newest_day")
            firstMonth = row.text("first_period")
        }
        guard let newestDate, let firstMonth, let firstDay = LocalDate(iso: firstMonth + "-01")?.daysSinceEpoch else {
            return .notDue("no tenant ledger synced")
        }
        // The newest month end whose month has closed by the newest property date: the last outcome training can see.
        let closed = MonthEnd.of(newestDate) == newestDate ? newestDate
            : LocalDate(daysSinceEpoch: newestDate).adding(days: -LocalDate(daysSinceEpoch: newestDate).day).daysSinceEpoch
        var lastOutcome: Int?
        var modelID: Int64?
        var features: String?
        try database.prepare(latestModelSQL).forEachRow { row in
            modelID = row.int("model_id").map(Int64.init)
            lastOutcome = row.text("outcomes_to").flatMap { LocalDate(iso: $0)?.daysSinceEpoch }
            features = row.text("features")
        }
        if let modelID, let features, let data = features.data(using: .utf8),
           (try? JSONSerialization.jsonObject(with: data)) as? [String] != Feature.allCases.map(\.name) {
            return .due("model \(modelID) reads other features than this version computes")
        }
        if let modelID, let lastOutcome {
            guard closed > lastOutcome else {
                return .notDue("model \(modelID) has seen every closed month (outcomes to \(MonthEnd.iso(lastOutcome)))")
            }
            return .due("\(MonthEnd.month(of: closed)) closed since model \(modelID), which saw outcomes to \(MonthEnd.iso(lastOutcome))")
        }
        // No model: the month ends whose next month end has closed, from the first posting's month on.
        var months = 0
        var end = MonthEnd.of(firstDay)
        while MonthEnd.next(after: end) <= closed {
            months += 1
            end = MonthEnd.next(after: end)
        }
        guard months >= Backtest.minimumTrainingMonths else {
            return .notDue("no model yet, and \(months) month end\(months == 1 ? "" : "s") with a closed next month to learn from (needs \(Backtest.minimumTrainingMonths))")
        }
        return .due("no model yet, and \(months) month ends with a closed next month to learn from")
    }

    // The newest property date and the first charge month of the properties with a tenant ledger.
    static let ledgerSpanSQL = """
        SELECT (SELECT CAST(julianday(max(as_of_date)) - 2440587.5 AS INTEGER) FROM unified_properties
                WHERE ledger_source IS NOT NULL)                                                  AS newest_day,
               (SELECT min(c.period) FROM unified_charges c
                JOIN unified_properties p ON p.unified_property_id = c.unified_property_id
                WHERE p.ledger_source IS NOT NULL)                                                AS first_period
        """

    static let latestModelSQL = """
        SELECT model_id, outcomes_to, features FROM forecast_models ORDER BY model_id DESC LIMIT 1
        """
}
