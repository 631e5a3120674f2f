import Metrics
import OwnerDashCore
import SQLiteKit

/// The forecast's answers as metric results, for every output format (table, JSON, CSV, workbook).
public enum ForecastAnswers {
    /// `ownerdash forecast backtest`: one row per model (the forecast first, then its baselines), and one per
    /// predicted month with its training window. `from`: the first month end it was asked to predict (`--from`).
    public static func backtest(_ backtest: Backtest, properties: [String], from: LocalDate? = nil) -> MetricResult {
        func number(_ value: Double, _ places: Double) -> SQLValue {
            value.isNaN ? .null : .real((value * places).rounded() / places)
        }
        let scores = MetricTable(
            name: "rows", title: "Rolling backtest: behind more than 30 days at the next month end",
            columns: [.init("model", .text), .init("roc_auc", .decimal(4)), .init("brier", .decimal(4)),
                      .init("top_10pct_dollars_pct", .percent), .init("training_seconds", .decimal(1))],
            rows: backtest.scores.map { score in
                [.text(score.model), number(score.rocAUC, 10000), number(score.brier, 10000),
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
        if !backtest.skippedNoneBehind.isEmpty {
            let count = backtest.skippedNoneBehind.count
            warnings.append("\(count) month end\(count == 1 ? "" : "s") not predicted (in the months before, no household was behind at a next month end, or every one was: nothing to learn from): \(backtest.skippedNoneBehind.map(MonthEnd.iso).joined(separator: ", "))")
        }
        var parameters: [MetricResult.Parameter] = [
            .init("properties", .list(properties)),
            .init("forecast_passes", .bool(backtest.forecastPasses)),
            .init("required_auc_margin", .text(String(Backtest.requiredAUCMargin))),
        ]
        // Only when asked: a whole backtest's answer stays as it was.
        if let from { parameters.insert(.init("predicted_from", .text(from.iso)), at: 1) }
        return MetricResult(metric: "forecast backtest", parameters: parameters, tables: [scores, months], warnings: warnings)
    }
}

extension ForecastAnswers {
    /// `property ridian has no charges ...; left out`: a property not scored, in one line naming it once.
    public static func leftOutLine(_ leftOut: (property: String, reason: String)) -> String {
        (leftOut.reason.hasPrefix("property \(leftOut.property)") ? "" : "property \(leftOut.property): ") + leftOut.reason + "; left out"
    }

    /// The columns of `forecast delinquency`'s households table (`rows`).
    public static let householdColumns: [MetricResult.Column] = [
        .init("property", .text), .init("unit", .text), .init("resident_id", .text), .init("name", .text),
        .init("probability_pct", .percent), .init("balance", .money), .init("over_30_now", .money),
        .init("expected_over_30", .money), .init("reason_1", .text), .init("reason_2", .text), .init("reason_3", .text),
    ]

    /// The columns of its properties table (`properties`, with the portfolio's total).
    public static let propertyColumns: [MetricResult.Column] = [
        .init("property", .text), .init("described_on", .date), .init("predicting", .date), .init("households", .count),
        .init("expected_behind", .decimal(1)), .init("over_30_now", .money), .init("expected_over_30", .money),
    ]

    /// `ownerdash forecast delinquency`: the households, most likely behind first, then each property's and the
    /// portfolio's expected households and dollars behind. `leftOut`: properties asked for that were not scored, and
    /// why (warnings, so a missing property is not read as one nobody owes at).
    public static func delinquency(_ forecast: DelinquencyForecast, stored: StoredForecast, properties: [String],
                                   asOf: LocalDate?, leftOut: [(property: String, reason: String)] = []) -> MetricResult {
        func dollars(_ cents: Int64) -> SQLValue { .real(Double(cents) / 100) }
        let households = MetricTable(
            name: "rows", title: "Probability of owing more than 30 days at the next month end",
            columns: householdColumns,
            rows: forecast.households.map { household in
                let reasons = (0..<3).map { household.reasons.indices.contains($0) ? SQLValue.text(household.reasons[$0].text) : .null }
                return [.text(household.property), SQLValue(household.unit), .text(household.residentID), SQLValue(household.name),
                        .real((household.probability * 10_000).rounded() / 100), dollars(household.balanceCents),
                        dollars(household.over30Cents), dollars(household.expectedOver30Cents)] + reasons
            })
        func propertyRow(_ label: String, _ rows: [DelinquencyForecast.Property]) -> [SQLValue] {
            let days = Set(rows.map(\.describedOn))
            return [.text(label), days.count == 1 ? .text(MonthEnd.iso(days.first ?? 0)) : .null,
                    days.count == 1 ? .text(MonthEnd.iso(MonthEnd.next(after: days.first ?? 0))) : .null,
                    .integer(Int64(rows.reduce(0) { $0 + $1.households })),
                    .real((rows.reduce(0) { $0 + $1.expectedBehind } * 10).rounded() / 10),
                    dollars(rows.reduce(0) { $0 + $1.over30NowCents }),
                    dollars(rows.reduce(0) { $0 + $1.expectedOver30Cents })]
        }
        let totals = MetricTable(
            name: "properties", title: "Expected behind more than 30 days at the next month end",
            columns: propertyColumns,
            rows: forecast.properties.map { propertyRow($0.property, [$0]) },
            total: propertyRow("portfolio", forecast.properties))
        return MetricResult(metric: "forecast delinquency", parameters: [
            .init("properties", .list(properties)),
            .init("as_of", asOf.map { .text($0.iso) } ?? .null),
            .init("model_id", .integer(Int(stored.modelID))),
            .init("model_trained_at", .text(stored.trainedAt)),
            .init("model_training_window", .text("\(stored.trainingFrom) to \(stored.trainingTo), outcomes to \(stored.outcomesTo)")),
            .init("backtest_passes", stored.backtest.map { .bool($0.passes) } ?? .null),
        ], tables: [households, totals], warnings: leftOut.map(leftOutLine) + forecast.warnings)
    }
}
