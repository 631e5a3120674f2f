import OwnerDashCore
import Testing
@testable import Forecast

/// Examples of `households` households over `months` month ends from 2025-01-31. Household h is behind next month
/// when its first feature ("days late last month") is above 10; that feature follows a habit per household, with
/// a deterministic wobble, so the trees have something to learn and "behind now" is a fair but weaker guess.
func syntheticExamples(households: Int, months: Int) -> [Example] {
    var ends: [Int] = [MonthEnd.of(day("2025-01-15"))]
    while ends.count < months + 1 { ends.append(MonthEnd.next(after: ends[ends.count - 1])) }
    var state: UInt64 = 7
    func next() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
    var examples: [Example] = []
    for h in 0..<households {
        let habit = Double(h % 10) // 0...9: households 8 and 9 of every ten are often late
        var behindSoFar = 0
        for m in 0..<months {
            let daysLate = Float(max(0, habit * 2 + (next() - 0.5) * 12))
            let nextLate = habit * 2 + (next() - 0.5) * 12
            var features = [Float](repeating: .nan, count: Feature.allCases.count)
            features[0] = daysLate
            features[1] = Float(habit)
            let behindNow = daysLate > 10
            if behindNow { behindSoFar += 1 }
            examples.append(Example(property: "p", residentID: "r\(h)", unit: nil, name: nil, featureDay: ends[m],
                                    outcomeDay: ends[m + 1], features: features,
                                    outcomeCents: nextLate > 10 ? Int64(1000 * (h + 1)) : 0,
                                    behindNow: behindNow, owesNow: daysLate > 5,
                                    lateShareSoFar: Double(behindSoFar) / Double(m + 1)))
        }
    }
    return examples
}

@Suite struct BacktestTests {
    @Test func noModelIsEverTrainedOnTheMonthItPredictsOrOnAnOutcomeNotYetKnown() throws {
        let examples = syntheticExamples(households: 60, months: 12)
        // A model that records what it was trained on and what it was asked to score.
        let calls = Locked<[(trainingFeatureDays: Set<Int>, trainingOutcomeDays: Set<Int>, predicted: Set<Int>)]>([])
        let spy = BacktestModel(name: "spy") { training in
            { predicted in
                calls.withLock { $0.append((Set(training.map(\.featureDay)), Set(training.map(\.outcomeDay)),
                                             Set(predicted.map(\.featureDay)))) }
                return predicted.map { _ in 0.5 }
            }
        }
        let backtest = try Backtest.run(examples, models: [spy, BacktestModel.behindNow])
        let recorded = calls.withLock { $0 }
        #expect(recorded.count == backtest.months.count)
        #expect(backtest.months.count == 12 - Backtest.minimumTrainingMonths)
        for call in recorded {
            #expect(call.predicted.count == 1)
            let predicted = try #require(call.predicted.first)
            #expect(call.trainingFeatureDays.allSatisfy { $0 < predicted })
            #expect(call.trainingOutcomeDays.allSatisfy { $0 <= predicted })
            #expect(!call.trainingFeatureDays.isEmpty)
        }
        // The windows the answer reports say the same.
        for month in backtest.months {
            #expect(month.trainingLastDay < month.featureDay)
            #expect(month.trainingLastOutcomeDay <= month.featureDay)
        }
        // And the months go in order, each training on every earlier month whose outcome had come.
        #expect(backtest.months.map(\.featureDay) == backtest.months.map(\.featureDay).sorted())
        #expect(zip(backtest.months, backtest.months.dropFirst()).allSatisfy { $0.trainingExamples < $1.trainingExamples })
    }

    /// A window long enough with no household behind in it is skipped for that reason, not for its length: the
    /// warning a user reads says why the first months were not predicted.
    @Test func monthsWithNobodyBehindBeforeThemAreSkippedForThatReason() throws {
        let ends = Set(syntheticExamples(households: 60, months: 14).map(\.featureDay)).sorted()
        // Nobody behind at a next month end until the ninth month end's outcome.
        let examples = syntheticExamples(households: 60, months: 14).map { example in
            var example = example
            if example.featureDay < ends[8] { example.outcomeCents = 0 }
            return example
        }
        let backtest = try Backtest.run(examples, models: [BacktestModel.behindNow])
        #expect(backtest.skipped == Array(ends.prefix(Backtest.minimumTrainingMonths)))
        #expect(backtest.skippedNoneBehind == Array(ends[Backtest.minimumTrainingMonths..<9]))
        #expect(backtest.months.first?.featureDay == ends[9])
    }

    /// `--from`: the month ends before it are not predicted, yet still learnt from; the months predicted from it are
    /// the whole backtest's, trained on the same windows.
    @Test func aBacktestFromAMonthPredictsOnlyFromItTrainedOnEverythingBefore() throws {
        let examples = syntheticExamples(households: 60, months: 12)
        let whole = try Backtest.run(examples, models: [BacktestModel.behindNow])
        let from = whole.months[3].featureDay
        let part = try Backtest.run(examples, models: [BacktestModel.behindNow], from: from)
        #expect(part.months == Array(whole.months.dropFirst(3)))
        #expect(part.months.first?.trainingFirstDay ?? from < from, "months before --from train the first one predicted")
        #expect(part.skipped.isEmpty)
        let beyond = MonthEnd.next(after: examples.map(\.featureDay).max() ?? 0)
        let error = #expect(throws: ForecastError.self) { try Backtest.run(examples, models: [BacktestModel.behindNow], from: beyond) }
        #expect(error?.description == "no month end on or after \(MonthEnd.iso(beyond)) has a known next month end to predict")
    }

    @Test func theTreesLearnAHabitTheNaiveBaselinesOnlyApproximate() throws {
        let backtest = try Backtest.run(syntheticExamples(households: 200, months: 10))
        let scores = Dictionary(uniqueKeysWithValues: backtest.scores.map { ($0.model, $0) })
        let trees = try #require(scores["xgboost trees"])
        let behindNow = try #require(scores["baseline: behind now"])
        #expect(trees.rocAUC > behindNow.rocAUC)
        #expect(trees.rocAUC > 0.8)
        #expect(trees.brier < behindNow.brier)
        #expect(backtest.scores.map(\.model) == BacktestModel.standard.map(\.name))
    }

    @Test func tooFewMonthsIsSaidNotAnsweredWithZeros() throws {
        let error = #expect(throws: ForecastError.self) { try Backtest.run(syntheticExamples(households: 50, months: 4)) }
        #expect(error?.description.contains("too few months to backtest: 4 month ends") == true)
    }

    @Test func measures() {
        let outcomes = [false, false, true, true]
        #expect(Backtest.rocAUC([0.1, 0.2, 0.8, 0.9], outcomes) == 1)
        #expect(Backtest.rocAUC([0.9, 0.8, 0.2, 0.1], outcomes) == 0)
        #expect(Backtest.rocAUC([0.5, 0.5, 0.5, 0.5], outcomes) == 0.5)
        // One positive (0.4) ranked below one negative (0.6): 3 of 4 pairs in order.
        #expect(Backtest.rocAUC([0.1, 0.6, 0.4, 0.9], outcomes) == 0.75)
        #expect(Backtest.brier([0, 0, 1, 1], outcomes) == 0)
        #expect(abs(Backtest.brier([0.5, 0.5, 0.5, 0.5], outcomes) - 0.25) < 1e-12)
        // Ten households in one month: the top one (rounded up from 10 %) owes 300 of 400 dollars.
        let month = (0..<10).map { i in (behind: i >= 8, cents: Int64(i == 9 ? 300 : i == 8 ? 100 : 0), month: 1) }
        let scores = (0..<10).map { Double($0) }
        #expect(Backtest.topDecileShare(scores, month) == 0.75)
        #expect(Backtest.topDecileShare(scores.reversed(), month) == 0)
    }
}
