import Metrics
import OwnerDashCore
import SQLiteKit

/// The forecast's answers as metric results, for every output format (table, JSON, CSV, workbook).
public enum ForecastAnswers {
    /// `ownerdash forecast backtest`: one row per model (the forecast first, then its baselines), and one per
    /// predicted month with its training window.
    public static func backtest(_ backtest: Backtest, properties: [String]) -> MetricResult {
        func number(_ value: Double, _ places: Double) -> SQLValue {
            value.isNaN ? .null : .real((value * places).rounded() / places)
        }
        let scores = MetricTable(
            name: "rows", title: "Rolling backtest: behind more than 30 days at the next month end",
            columns: [.init("model", .text), .init("roc_auc", .decimal(3)), .init("brier", .decimal(4)),
                      .init("top_10pct_dollars_pct", .percent), .init("training_seconds", .decimal(1))],
            rows: backtest.scores.map { score in
                [.text(score.model), number(score.rocAUC, 1000), number(score.brier, 10000),
                 number(score.topDecileDollarShare * 100, 100), number(score.trainingSeconds, 10)]
            })
        let months = MetricTable(
            name: "months", title: "Months predicted, each by models trained on the months before it",
            columns: [.init("month_end", .date), .init("households", .count), .init("behind_next_month", .count),
                      .init("training_from", .date), .init("training_to", .date),
                      .init("training_outcomes_to", .date), .init("training_household_months", .count)],
            rows: backtest.months.map { month in
                [.text(MonthEnd.iso(month.featureDay)), .integer(Int64(month.households)), .integer(Int64(month.behindNext)),
                 .text(MonthEnd.iso(month.trainingFirstDay)), .text(MonthEnd.iso(month.trainingLastDay)),
                 .text(MonthEnd.iso(month.trainingLastOutcomeDay)), .integer(Int64(month.trainingExamples))]
            })
        var warnings: [String] = []
        if !backtest.skipped.isEmpty {
            warnings.append("\(backtest.skipped.count) first month end\(backtest.skipped.count == 1 ? "" : "s") not predicted (fewer than \(Backtest.minimumTrainingMonths) earlier months to train on): \(backtest.skipped.map(MonthEnd.iso).joined(separator: ", "))")
        }
        return MetricResult(metric: "forecast backtest", parameters: [
            .init("properties", .list(properties)),
            .init("forecast_passes", .bool(backtest.forecastPasses)),
            .init("required_auc_margin", .text(String(Backtest.requiredAUCMargin))),
        ], tables: [scores, months], warnings: warnings)
    }
}
