import Foundation
import OwnerDashCore

/// `ownerdash forecast delinquency`: each household in residence at a property's last month end on or before the
/// as-of date, its probability of being behind more than 30 days at the next month end, and the three features
/// that moved it most; per property and for the portfolio, the households expected behind and the dollars.
///
/// The households are described on a month end, as in training and the backtest, so that the backtest's figures
/// are the figures of this forecast; payments since that month end are not in it.
///
/// Expected over-30 dollars of a household = probability × its balance on the month end (when positive): what it
/// could owe over 30 days at the next month end is at most that balance, since every later charge is then under 31
/// days old and every later payment only lowers it. An upper-bound reading, stated as such.
public struct DelinquencyForecast: Sendable {
    /// One household's forecast.
    public struct Household: Sendable {
        public var property: String
        public var unit: String?
        public var residentID: String
        public var name: String?
        public var probability: Double
        public var balanceCents: Int64
        public var over30Cents: Int64
        public var expectedOver30Cents: Int64
        /// Largest absolute contribution first.
        public var reasons: [Reason]
    }

    /// One feature's push on a household's forecast, in log-odds (positive: towards behind).
    public struct Reason: Sendable {
        public var feature: Feature
        public var value: Float
        public var contribution: Float

        /// `balance 1250.00 (+2.31)`: the feature's words, its value and its push.
        public var text: String {
            let shown = value.isNaN ? "unknown" : (value == value.rounded() ? String(Int(value)) : String(format: "%.2f", Double(value)))
            return "\(feature.label) \(shown) (\(contribution >= 0 ? "+" : "")\(String(format: "%.2f", Double(contribution))))"
        }
    }

    /// One property's totals.
    public struct Property: Sendable {
        public var property: String
        /// The month end the households are described on, and the month end predicted.
        public var describedOn: Int
        public var predicting: Int
        public var households: Int
        /// Σ probabilities: the number of households expected behind.
        public var expectedBehind: Double
        public var expectedOver30Cents: Int64
        public var over30NowCents: Int64
    }

    public var households: [Household]
    public var properties: [Property]
    /// Problems the answer leaves in (a model trained on later outcomes than the date asked): stderr lines.
    public var warnings: [String]
    /// Time spent computing the features, and in XGBoost (probabilities and contributions).
    public var featureSeconds = 0.0
    public var modelSeconds = 0.0

    /// Which households' reasons (SHAP contributions) to compute: TreeSHAP is most of XGBoost's time when scoring.
    public enum Reasons: Sendable, Equatable {
        /// Every household's three reasons (`forecast delinquency`, the API).
        case all
        /// Only the `count` households most likely behind of each property (the dashboard's panel).
        case mostLikely(Int)
        /// None: probabilities only (the reports' risk column).
        case none
    }

    /// The month end a property's households are described on for a forecast asked `asOf` (nil: the property's own
    /// date): the last month end on or before it. Throws, naming the property, when that day is after the property's
    /// data or before its ledger.
    public static func describedOn(_ ledger: PropertyLedgers, asOf: LocalDate?) throws -> Int {
        let asked = asOf?.daysSinceEpoch ?? ledger.asOf
        guard asked <= ledger.asOf else {
            throw ForecastError("property \(ledger.property): --as-of \(MonthEnd.iso(asked)) is after its data (\(MonthEnd.iso(ledger.asOf))); nothing is known about that day yet")
        }
        let day = MonthEnd.of(asked) == asked ? asked : LocalDate(daysSinceEpoch: asked).adding(days: -LocalDate(daysSinceEpoch: asked).day).daysSinceEpoch
        if let first = ledger.monthEnds.first, day < first {
            throw ForecastError("property \(ledger.property): no month end with ledger on or before \(MonthEnd.iso(asked)) (its ledger starts in \(MonthEnd.month(of: first)))")
        }
        return day
    }

    /// Scores the properties' households with `stored` as of `asOf` (default: each property's own date): every
    /// household of every property in one feature matrix, one prediction call on it, and one SHAP call for the
    /// reasons asked for (`reasons`).
    public static func run(_ ledgers: [PropertyLedgers], stored: StoredForecast, asOf: LocalDate?,
                           reasons: Reasons = .all) throws -> DelinquencyForecast {
        var result = DelinquencyForecast(households: [], properties: [], warnings: [])
        // How far to trust it, on stderr: the operator sees every forecast; users (API, dashboard, report columns) are
        // to see only a model whose backtest passed.
        if let verdict = stored.backtest {
            if !verdict.passes {
                result.warnings.append("model \(stored.modelID)'s backtest did not beat the best naive baseline by \(Backtest.requiredAUCMargin) in AUC (\(verdict.summary)): not to be shown to users")
            }
        } else {
            result.warnings.append("model \(stored.modelID) was trained without a backtest (ownerdash forecast train --backtest): how far to trust it is unmeasured")
        }
        let started = Date()
        var days: [Int] = []
        var examples: [Example] = []
        var ranges: [Range<Int>] = []
        for ledger in ledgers {
            let day = try describedOn(ledger, asOf: asOf)
            if let outcomesTo = LocalDate(iso: stored.outcomesTo)?.daysSinceEpoch, outcomesTo > day {
                result.warnings.append("property \(ledger.property): the model (trained \(stored.trainedAt)) saw outcomes up to \(stored.outcomesTo), after \(MonthEnd.iso(day)): a forecast of a past month is in sample and reads better than it would have")
            }
            let current = ledger.current(on: day)
            ranges.append(examples.count..<(examples.count + current.count))
            examples += current
            days.append(day)
        }
        let described = Date()
        let scored = try stored.model.score(examples, contributions: reasons == .all)
        var contributions = scored.contributions
        if case .mostLikely(let count) = reasons {
            // The few households each property shows first, in the answer's order (most likely first, then by unit),
            // get their reasons in one more, small, call.
            func first(_ a: Int, _ b: Int) -> Bool {
                (scored.probabilities[a], examples[b].unit ?? "", examples[b].residentID)
                    > (scored.probabilities[b], examples[a].unit ?? "", examples[a].residentID)
            }
            let chosen = ranges.flatMap { range in range.sorted(by: first).prefix(count) }
            let some = try stored.model.score(chosen.map { examples[$0] }, contributions: true).contributions ?? []
            var rows = [[Float]](repeating: [], count: examples.count)
            for (row, index) in chosen.enumerated() { rows[index] = some[row] }
            contributions = rows
        }
        result.featureSeconds = described.timeIntervalSince(started)
        result.modelSeconds = Date().timeIntervalSince(described)
        for (position, ledger) in ledgers.enumerated() {
            let day = days[position]
            let byResident = Dictionary(ledger.households.map { ($0.residentID, $0) }, uniquingKeysWith: { first, _ in first })
            var households: [Household] = []
            for index in ranges[position] {
                let example = examples[index]
                let household = byResident[example.residentID]
                let balance = household?.balanceCents(on: day) ?? 0
                let probability = scored.probabilities[index]
                let pushes = contributions?[index] ?? []
                let reasons = pushes.isEmpty ? [] : Feature.allCases.indices
                    .map { Reason(feature: Feature.allCases[$0], value: example.features[$0], contribution: pushes[$0]) }
                    .sorted { abs($0.contribution) > abs($1.contribution) }
                households.append(Household(
                    property: ledger.property, unit: example.unit, residentID: example.residentID, name: example.name,
                    probability: probability, balanceCents: balance,
                    over30Cents: household?.over30Cents(on: day) ?? 0,
                    expectedOver30Cents: Int64((probability * Double(max(0, balance))).rounded()),
                    reasons: Array(reasons.prefix(3))))
            }
            result.properties.append(Property(
                property: ledger.property, describedOn: day, predicting: MonthEnd.next(after: day), households: households.count,
                expectedBehind: households.reduce(0) { $0 + $1.probability },
                expectedOver30Cents: households.reduce(0) { $0 + $1.expectedOver30Cents },
                over30NowCents: households.reduce(0) { $0 + $1.over30Cents }))
            result.households += households
        }
        result.households.sort {
            ($0.probability, $1.property, $1.unit ?? "", $1.residentID) > ($1.probability, $0.property, $0.unit ?? "", $0.residentID)
        }
        return result
    }
}
