import XGBoostKit

/// The forecast: gradient-boosted trees (XGBoost) over `Feature.allCases`, giving each household's probability of
/// being behind at the next month end and each feature's contribution to it (SHAP values, in log-odds).
public final class DelinquencyModel {
    let booster: Booster

    /// Shallow trees, a slow learning rate and a minimum leaf weight: a portfolio's ledger has a few thousand
    /// households a month, most never behind, and deep trees would learn single households by heart.
    static let parameters: [(name: String, value: String)] = [
        ("objective", "binary:logistic"), ("tree_method", "hist"), ("max_depth", "4"), ("eta", "0.1"),
        ("min_child_weight", "5"), ("lambda", "1"), ("seed", "38"), ("nthread", "2"),
    ]
    static let rounds = 150

    /// Trains on labelled examples; an outcome-less example is a programming error (the callers filter).
    public static func train(_ examples: [Example]) throws -> DelinquencyModel {
        let (matrix, _) = try TrainingSet.matrix(examples, transform: { $0 })
        return DelinquencyModel(booster: try Booster(training: matrix, parameters: parameters, rounds: rounds))
    }

    init(booster: Booster) { self.booster = booster }

    /// A model stored by `modelJSON()`; a model of another feature list is refused (it would read the columns wrongly).
    public convenience init(modelJSON: [UInt8]) throws {
        let booster = try Booster(modelJSON: modelJSON)
        guard booster.featureCount == Feature.allCases.count else {
            throw ForecastError("the stored model reads \(booster.featureCount) features, this version computes \(Feature.allCases.count): train it again (ownerdash forecast train)")
        }
        self.init(booster: booster)
    }

    /// XGBoost's JSON document of the trees.
    public func modelJSON() throws -> [UInt8] { try booster.modelJSON() }

    /// Each example's probability of being behind at its outcome day.
    public func probabilities(_ examples: [Example]) throws -> [Double] {
        guard !examples.isEmpty else { return [] }
        return try booster.predict(try FeatureMatrix(rows: examples.map(\.features))).map(Double.init)
    }

    /// Each example's contributions: one per feature (`Feature.allCases` order) and the bias last, in log-odds.
    public func contributions(_ examples: [Example]) throws -> [[Float]] {
        guard !examples.isEmpty else { return [] }
        return try booster.contributions(try FeatureMatrix(rows: examples.map(\.features)))
    }

    /// Each example's probability and, with `contributions`, its contributions, from one feature matrix: the
    /// probabilities are XGBoost's prediction (the same numbers whether or not reasons are asked for, so the reports'
    /// risk column and `forecast delinquency` agree to the last digit), the contributions one more call on it.
    public func score(_ examples: [Example], contributions: Bool) throws -> (probabilities: [Double], contributions: [[Float]]?) {
        guard !examples.isEmpty else { return ([], contributions ? [] : nil) }
        let width = Feature.allCases.count
        var values: [Float] = []
        values.reserveCapacity(examples.count * width)
        for example in examples { values += example.features }
        let matrix = try FeatureMatrix(values: values, rowCount: examples.count, columnCount: width)
        let probabilities = try booster.predict(matrix).map(Double.init)
        return (probabilities, contributions ? try booster.contributions(matrix) : nil)
    }
}

/// The logistic-regression baseline: XGBoost's linear booster with the logistic objective (a logistic regression
/// fitted by parallel coordinate descent) on features standardized by the training set; a missing feature is the training
/// mean (a linear model has no branch for missing values).
public final class LogisticBaseline {
    let booster: Booster
    let scaling: Standardization

    /// Fits the regression on labelled examples (the scaling from the same examples).
    public static func train(_ examples: [Example]) throws -> LogisticBaseline {
        let scaling = Standardization(examples.map(\.features))
        let (matrix, _) = try TrainingSet.matrix(examples, transform: scaling.apply)
        let booster = try Booster(training: matrix, parameters: [
            ("booster", "gblinear"), ("objective", "binary:logistic"), ("eta", "0.5"), ("lambda", "1"), ("nthread", "2"),
        ], rounds: 50)
        return LogisticBaseline(booster: booster, scaling: scaling)
    }

    init(booster: Booster, scaling: Standardization) { self.booster = booster; self.scaling = scaling }

    /// Each example's probability of being behind at its outcome day.
    public func probabilities(_ examples: [Example]) throws -> [Double] {
        guard !examples.isEmpty else { return [] }
        return try booster.predict(try FeatureMatrix(rows: examples.map { scaling.apply($0.features) })).map(Double.init)
    }
}

/// Each feature's mean and standard deviation over a training set, to put features on one scale.
struct Standardization {
    var means: [Float]
    var deviations: [Float]

    init(_ rows: [[Float]]) {
        let width = rows.first?.count ?? 0
        means = []; deviations = []
        for column in 0..<width {
            let values = rows.map { $0[column] }.filter { !$0.isNaN }
            let mean = values.isEmpty ? 0 : values.reduce(0, +) / Float(values.count)
            let variance = values.isEmpty ? 0 : values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Float(values.count)
            means.append(mean)
            deviations.append(variance > 0 ? variance.squareRoot() : 1)
        }
    }

    /// (value − mean) / deviation, missing as 0 (the mean).
    func apply(_ row: [Float]) -> [Float] {
        row.indices.map { row[$0].isNaN ? 0 : (row[$0] - means[$0]) / deviations[$0] }
    }
}

/// Labelled examples as an XGBoost matrix.
enum TrainingSet {
    /// The matrix and its labels; fewer than two classes is an error (there would be nothing to tell apart).
    static func matrix(_ examples: [Example], transform: ([Float]) -> [Float]) throws -> (FeatureMatrix, [Float]) {
        let labels = examples.map { ($0.behindNext ?? false) ? Float(1) : 0 }
        let behind = labels.filter { $0 == 1 }.count
        guard behind > 0, behind < labels.count else {
            throw ForecastError("the training months hold \(labels.count) household months and \(behind) of them behind at the next month end: a model needs both kinds")
        }
        return (try FeatureMatrix(rows: examples.map { transform($0.features) }, labels: labels), labels)
    }
}
