import Foundation

/// One way of scoring households in the backtest: trained on the months before the one it predicts, then scoring
/// that month's households (a probability each).
public struct BacktestModel: Sendable {
    public var name: String
    /// Given the training examples (every outcome known), returns the scorer of a month's examples.
    public var train: @Sendable ([Example]) throws -> ([Example]) throws -> [Double]

    /// A model named as the backtest's table prints it.
    public init(name: String, train: @escaping @Sendable ([Example]) throws -> ([Example]) throws -> [Double]) {
        self.name = name; self.train = train
    }

    /// The forecast: gradient-boosted trees.
    public static let trees = BacktestModel(name: "xgboost trees") { training in
        let model = try DelinquencyModel.train(training)
        return { try model.probabilities($0) }
    }

    /// Logistic regression (XGBoost's linear booster) on the same features.
    public static let logistic = BacktestModel(name: "logistic regression") { training in
        let model = try LogisticBaseline.train(training)
        return { try model.probabilities($0) }
    }

    /// Naive: behind now means behind next month. The probability of each case is its rate in the training months,
    /// so that its Brier score is fair to it.
    public static let behindNow = byCase(name: "baseline: behind now", \.behindNow)

    /// Naive: the household's share of month ends so far on which it was behind (learns nothing from training).
    public static let lateShare = BacktestModel(name: "baseline: share of late months") { _ in
        { $0.map { $0.lateShareSoFar ?? 0 } }
    }

    /// Naive, and harder to beat than "behind now": owing anything now means behind next month, since this month's
    /// unpaid charges are more than 30 days old at the next month end unless paid in between. Probabilities are the
    /// training months' rates, as for `behindNow`.
    public static let owesNow = byCase(name: "baseline: owes now", \.owesNow)

    /// A naive baseline deciding by one yes/no fact of the household now: each case scores its rate of being behind
    /// next month in the training months.
    private static func byCase(name: String, _ fact: KeyPath<Example, Bool> & Sendable) -> BacktestModel {
        BacktestModel(name: name) { training in
            func rate(_ value: Bool) -> Double {
                let group = training.filter { $0[keyPath: fact] == value }
                return group.isEmpty ? 0 : Double(group.filter { $0.behindNext == true }.count) / Double(group.count)
            }
            let (yes, no) = (rate(true), rate(false))
            return { $0.map { $0[keyPath: fact] ? yes : no } }
        }
    }

    /// The forecast, the logistic regression and the naive baselines, in the order the table prints them.
    public static let standard = [trees, logistic, behindNow, lateShare, owesNow]

    /// The names of the naive baselines (what the forecast must beat to be shown).
    public static let naiveNames: Set<String> = [behindNow.name, lateShare.name, owesNow.name]
}

/// How a backtest went for the forecast: its AUC against the best naive baseline's, and whether it passed.
public struct BacktestVerdict: Sendable, Equatable {
    public var months: Int
    public var forecastAUC: Double
    /// The best naive baseline's name and AUC.
    public var baseline: String
    public var baselineAUC: Double
    /// The forecast's AUC is at least `Backtest.requiredAUCMargin` above the baseline's: users may see it.
    public var passes: Bool

    /// One line for a terminal: `8 months, AUC 0.9999 against 0.9996 (baseline: owes now): does not pass (needs +0.02)`.
    public var summary: String {
        func auc(_ value: Double) -> String { String(format: "%.4f", value) }
        return "\(months) month\(months == 1 ? "" : "s"), AUC \(auc(forecastAUC)) against \(auc(baselineAUC)) (\(baseline)): "
            + (passes ? "passes" : "does not pass (needs +\(Backtest.requiredAUCMargin))")
    }
}

/// The rolling backtest: month ends in order, each predicted by models trained only on examples whose outcome was
/// known by then (their next month end on or before the predicted month end), measured on what happened.
public struct Backtest: Sendable {
    /// One predicted month: the examples' month end and the training window used.
    public struct Month: Sendable, Equatable {
        public var featureDay: Int
        public var households: Int
        public var behindNext: Int
        /// The first and last month end of the training examples, and the last outcome day they saw.
        public var trainingFirstDay: Int
        public var trainingLastDay: Int
        public var trainingLastOutcomeDay: Int
        public var trainingExamples: Int
    }

    /// One model's figures over every predicted month together.
    public struct Score: Sendable, Equatable {
        public var model: String
        /// Probability that a household behind next month is ranked above one that is not (0.5 = chance).
        public var rocAUC: Double
        /// Mean squared difference between the probability and what happened (0 = perfect; lower is better).
        public var brier: Double
        /// Share of next month's over-30 dollars owed by the top 10 % of each month's households by score.
        public var topDecileDollarShare: Double
        /// Seconds spent training, over every month.
        public var trainingSeconds: Double
    }

    public var months: [Month]
    public var scores: [Score]
    /// Month ends skipped at the start because their training window was too short.
    public var skipped: [Int]
    /// Month ends skipped because in the months before them no household was behind at a next month end, or every
    /// one was: a window long enough, with nothing to tell the two apart from (the demo's first year, say).
    public var skippedNoneBehind: [Int] = []

    /// The fewest month ends of training examples a model is trained on.
    public static let minimumTrainingMonths = 6

    /// The forecast is shown where its AUC beats the better naive baseline's by at least this much.
    public static let requiredAUCMargin = 0.02

    /// Runs the backtest on `examples` (every outcome known) with `models`. `from`: predict only the month ends on
    /// or after this day (each still trained on every earlier month end whose outcome had come), to measure a stretch
    /// of the ledgers apart from the months before it, as the simulator's clock is from its start-up world.
    public static func run(_ examples: [Example], models: [BacktestModel] = BacktestModel.standard,
                           from: Int? = nil) throws -> Backtest {
        let labelled = examples.filter { $0.outcomeCents != nil }
        let byMonth = Dictionary(grouping: labelled, by: \.featureDay)
        let days = byMonth.keys.sorted().filter { $0 >= (from ?? .min) }
        var months: [Month] = []
        var skipped: [Int] = []
        var skippedNoneBehind: [Int] = []
        var predictions = [[Double]](repeating: [], count: models.count)
        var outcomes: [(behind: Bool, cents: Int64, month: Int)] = []
        var seconds = [Double](repeating: 0, count: models.count)
        for day in days {
            // Only what was known on `day`: examples whose outcome month end had come by then.
            let training = labelled.filter { $0.outcomeDay <= day }
            let trainingDays = Set(training.map(\.featureDay))
            let behind = training.filter { $0.behindNext == true }.count
            guard trainingDays.count >= minimumTrainingMonths else {
                skipped.append(day)
                continue
            }
            guard behind > 0, behind < training.count else {
                skippedNoneBehind.append(day)
                continue
            }
            let predicted = byMonth[day] ?? []
            for (index, model) in models.enumerated() {
                let start = Date()
                let score = try model.train(training)
                seconds[index] += Date().timeIntervalSince(start)
                predictions[index] += try score(predicted)
            }
            outcomes += predicted.map { ($0.behindNext == true, $0.outcomeCents ?? 0, day) }
            months.append(Month(featureDay: day, households: predicted.count,
                                behindNext: predicted.filter { $0.behindNext == true }.count,
                                trainingFirstDay: trainingDays.min() ?? day, trainingLastDay: trainingDays.max() ?? day,
                                trainingLastOutcomeDay: training.map(\.outcomeDay).max() ?? day,
                                trainingExamples: training.count))
        }
        guard !months.isEmpty else {
            if let from, days.isEmpty {
                throw ForecastError("no month end on or after \(MonthEnd.iso(from)) has a known next month end to predict")
            }
            throw ForecastError("too few months to backtest: \(days.count) month end\(days.count == 1 ? "" : "s") with a known next month end; each predicted month needs \(minimumTrainingMonths) earlier months of training, some households behind and some not, so at least \(minimumTrainingMonths + 1)")
        }
        let scores = models.indices.map { index in
            Score(model: models[index].name, rocAUC: Self.rocAUC(predictions[index], outcomes.map(\.behind)),
                  brier: Self.brier(predictions[index], outcomes.map(\.behind)),
                  topDecileDollarShare: Self.topDecileShare(predictions[index], outcomes),
                  trainingSeconds: seconds[index])
        }
        return Backtest(months: months, scores: scores, skipped: skipped, skippedNoneBehind: skippedNoneBehind)
    }

    /// Whether the forecast (the first score) beats the best naive baseline by `requiredAUCMargin` in AUC.
    public var forecastPasses: Bool { verdict?.passes ?? false }

    /// The forecast's AUC against the best naive baseline's; nil without a forecast or a naive baseline scored.
    public var verdict: BacktestVerdict? {
        guard let forecast = scores.first, !forecast.rocAUC.isNaN,
              let best = scores.filter({ BacktestModel.naiveNames.contains($0.model) && !$0.rocAUC.isNaN })
                .max(by: { $0.rocAUC < $1.rocAUC })
        else { return nil }
        return BacktestVerdict(months: months.count, forecastAUC: forecast.rocAUC, baseline: best.model, baselineAUC: best.rocAUC,
                               passes: forecast.rocAUC >= best.rocAUC + Self.requiredAUCMargin)
    }

    // MARK: - Measures

    /// ROC AUC by ranks (Mann-Whitney U), ties given their average rank; NaN without both outcomes.
    static func rocAUC(_ scores: [Double], _ outcomes: [Bool]) -> Double {
        let order = scores.indices.sorted { scores[$0] < scores[$1] }
        var ranks = [Double](repeating: 0, count: scores.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count, scores[order[end + 1]] == scores[order[start]] { end += 1 }
            let rank = Double(start + end) / 2 + 1
            for position in start...end { ranks[order[position]] = rank }
            start = end + 1
        }
        let positives = outcomes.filter { $0 }.count
        let negatives = outcomes.count - positives
        guard positives > 0, negatives > 0 else { return .nan }
        let rankSum = outcomes.indices.filter { outcomes[$0] }.reduce(0.0) { $0 + ranks[$1] }
        return (rankSum - Double(positives * (positives + 1)) / 2) / (Double(positives) * Double(negatives))
    }

    /// Mean of (probability − outcome)².
    static func brier(_ scores: [Double], _ outcomes: [Bool]) -> Double {
        guard !scores.isEmpty else { return .nan }
        return zip(scores, outcomes).reduce(0.0) { $0 + ($1.0 - ($1.1 ? 1 : 0)) * ($1.0 - ($1.1 ? 1 : 0)) } / Double(scores.count)
    }

    /// Over every month: the over-30 dollars of each month's top 10 % by score (rounded up, at least one household;
    /// ties broken by the household's order, so a constant score catches no more than chance) over all over-30 dollars.
    static func topDecileShare(_ scores: [Double], _ outcomes: [(behind: Bool, cents: Int64, month: Int)]) -> Double {
        var caught: Int64 = 0
        var total: Int64 = 0
        for month in Set(outcomes.map(\.month)) {
            let indices = outcomes.indices.filter { outcomes[$0].month == month }
            let top = (indices.count + 9) / 10
            let ranked = indices.sorted { scores[$0] > scores[$1] }
            caught += ranked.prefix(top).reduce(0) { $0 + outcomes[$1].cents }
            total += indices.reduce(0) { $0 + outcomes[$1].cents }
        }
        return total > 0 ? Double(caught) / Double(total) : .nan
    }
}
