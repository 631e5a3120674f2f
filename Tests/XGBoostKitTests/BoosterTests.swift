import Foundation
import Testing
@testable import XGBoostKit

/// A toy problem a model must learn: label 1 exactly when the first feature is above 0.5; the second feature is
/// noise. Deterministic (a fixed linear congruential sequence), so a failure reproduces.
private func separable(count: Int) -> (rows: [[Float]], labels: [Float]) {
    var state: UInt64 = 42
    func next() -> Float {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(state >> 40) / Float(1 << 24)
    }
    var rows: [[Float]] = []
    var labels: [Float] = []
    for _ in 0..<count {
        let signal = next(), noise = next()
        rows.append([signal, noise])
        labels.append(signal > 0.5 ? 1 : 0)
    }
    return (rows, labels)
}

private let trees: [(name: String, value: String)] = [
    ("objective", "binary:logistic"), ("max_depth", "3"), ("eta", "0.3"), ("nthread", "1"), ("seed", "1"),
]

@Suite struct BoosterTests {
    @Test func learnsASeparableProblem() throws {
        let train = separable(count: 400)
        let booster = try Booster(training: try FeatureMatrix(rows: train.rows, labels: train.labels), parameters: trees, rounds: 20)
        // Rows the model never saw, on both sides of the boundary and away from it.
        let unseen: [[Float]] = [[0.05, 0.9], [0.2, 0.1], [0.8, 0.9], [0.95, 0.1]]
        let probabilities = try booster.predict(try FeatureMatrix(rows: unseen))
        #expect(probabilities.count == 4)
        #expect(probabilities[0] < 0.1 && probabilities[1] < 0.1)
        #expect(probabilities[2] > 0.9 && probabilities[3] > 0.9)
    }

    @Test func contributionsAddUpToTheMarginAndBlameTheSignal() throws {
        let train = separable(count: 400)
        let booster = try Booster(training: try FeatureMatrix(rows: train.rows, labels: train.labels), parameters: trees, rounds: 20)
        let matrix = try FeatureMatrix(rows: [[0.9, 0.3], [0.1, 0.7], [0.6, 0.5]])
        let margins = try booster.margins(matrix)
        let contributions = try booster.contributions(matrix)
        #expect(contributions.count == 3)
        for (row, margin) in zip(contributions, margins) {
            #expect(row.count == 3) // two features and the bias
            #expect(abs(row.reduce(0, +) - margin) < 1e-4)
            // The label depends on the first feature only, so it carries (nearly) all of the explanation.
            #expect(abs(row[0]) > 10 * abs(row[1]))
        }
        // And the margin is the log-odds of the probability.
        let probabilities = try booster.predict(matrix)
        for (p, m) in zip(probabilities, margins) { #expect(abs(p - 1 / (1 + exp(-m))) < 1e-5) }
    }

    @Test func aModelRoundTripsThroughItsJSONBytes() throws {
        let train = separable(count: 300)
        let booster = try Booster(training: try FeatureMatrix(rows: train.rows, labels: train.labels), parameters: trees, rounds: 10)
        let bytes = try booster.modelJSON()
        #expect(bytes.first == UInt8(ascii: "{"))
        let loaded = try Booster(modelJSON: bytes)
        #expect(loaded.featureCount == 2)
        let matrix = try FeatureMatrix(rows: [[0.3, 0.2], [0.7, 0.8], [0.51, 0.0]])
        #expect(try loaded.predict(matrix) == booster.predict(matrix))
        #expect(try loaded.contributions(matrix) == booster.contributions(matrix))
    }

    @Test func theLinearBoosterIsALogisticRegression() throws {
        let train = separable(count: 400)
        let linear: [(name: String, value: String)] = [("booster", "gblinear"), ("objective", "binary:logistic"),
                                                       ("eta", "0.5"), ("lambda", "0"), ("nthread", "1")]
        let model = try Booster(training: try FeatureMatrix(rows: train.rows, labels: train.labels), parameters: linear, rounds: 200)
        let p = try model.predict(try FeatureMatrix(rows: [[0.0, 0.5], [0.5, 0.5], [1.0, 0.5]]))
        // Monotone in the signal, and on the right side of one half at both ends.
        #expect(p[0] < p[1] && p[1] < p[2])
        #expect(p[0] < 0.2 && p[2] > 0.8)
    }

    @Test func aBadParameterIsATypedErrorNamingIt() throws {
        let train = separable(count: 50)
        let matrix = try FeatureMatrix(rows: train.rows, labels: train.labels)
        let error = #expect(throws: XGBoostError.self) {
            _ = try Booster(training: matrix, parameters: [("objective", "binary:nonsense")], rounds: 1)
        }
        #expect(error?.message.contains("binary:nonsense") == true)
        #expect(error?.context.contains("objective=binary:nonsense") == true)
        #expect(error.map { !$0.message.contains("Stack trace") } == true)
    }

    @Test func aMatrixOfTheWrongWidthIsRefusedBeforeXGBoostSeesIt() throws {
        let train = separable(count: 50)
        let booster = try Booster(training: try FeatureMatrix(rows: train.rows, labels: train.labels), parameters: trees, rounds: 2)
        let error = #expect(throws: XGBoostError.self) { _ = try booster.predict(try FeatureMatrix(rows: [[0.1, 0.2, 0.3]])) }
        #expect(error?.message == "the model was trained on 2 features, the matrix has 3")
    }

    @Test func aModelFromBadBytesIsATypedError() throws {
        #expect(throws: XGBoostError.self) { _ = try Booster(modelJSON: Array("{\"not\": \"a model\"}".utf8)) }
    }
}
