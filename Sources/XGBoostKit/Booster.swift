import CXGBoost

/// A trained XGBoost model (BoosterHandle, owned): trained from a labelled `FeatureMatrix`, or loaded from the JSON
/// bytes `modelJSON()` saved; predicts probabilities, margins and each feature's contribution (SHAP values).
public final class Booster {
    let handle: BoosterHandle
    /// The number of features the model was trained on.
    public let featureCount: Int

    /// Trains `rounds` boosting rounds on `training` with XGBoost's parameters (`objective`, `max_depth`, `eta`,
    /// `booster`, ...), each set by name. A parameter XGBoost refuses (unknown objective, a negative depth) is an
    /// `XGBoostError` naming it.
    public init(training: FeatureMatrix, parameters: [(name: String, value: String)], rounds: Int) throws {
        precondition(rounds > 0, "at least one boosting round")
        var out: BoosterHandle?
        var matrices: [DMatrixHandle?] = [training.handle]
        try XGBoostError.check(XGBoosterCreate(&matrices, 1, &out), "creating a booster")
        guard let out else { throw XGBoostError(message: "no booster returned", context: "creating a booster") }
        handle = out
        featureCount = training.columnCount
        // Quiet unless something fails: XGBoost's warnings go to the terminal, where they would interleave with a
        // command's answer; a failure still comes back through XGBGetLastError.
        try set("verbosity", "0")
        for parameter in parameters { try set(parameter.name, parameter.value) }
        let described = parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
        for round in 0..<rounds {
            // XGBoost checks most parameters only when the first round configures the learner.
            try XGBoostError.check(XGBoosterUpdateOneIter(handle, Int32(round), training.handle),
                                   "training round \(round + 1) of \(rounds) (\(described))")
        }
    }

    /// Loads a model saved by `modelJSON()`.
    public init(modelJSON bytes: [UInt8]) throws {
        var out: BoosterHandle?
        try XGBoostError.check(XGBoosterCreate(nil, 0, &out), "creating a booster to load a model into")
        guard let out else { throw XGBoostError(message: "no booster returned", context: "creating a booster") }
        var features: bst_ulong = 0
        do {
            try bytes.withUnsafeBufferPointer { buffer in
                try XGBoostError.check(XGBoosterLoadModelFromBuffer(out, buffer.baseAddress, bst_ulong(buffer.count)),
                                       "loading a model of \(bytes.count) bytes")
            }
            try XGBoostError.check(XGBoosterGetNumFeature(out, &features), "reading the loaded model's feature count")
        } catch {
            // Not yet self's: deinit does not run for an object whose init failed, so the handle is freed here.
            XGBoosterFree(out)
            throw error
        }
        handle = out
        featureCount = Int(features)
    }

    deinit { XGBoosterFree(handle) }

    private func set(_ name: String, _ value: String) throws {
        try XGBoostError.check(XGBoosterSetParam(handle, name, value), "setting parameter \(name)=\(value)")
    }

    /// The model as XGBoost's JSON document (portable across XGBoost versions, unlike its binary format).
    public func modelJSON() throws -> [UInt8] {
        var length: bst_ulong = 0
        var bytes: UnsafePointer<CChar>?
        try XGBoostError.check(XGBoosterSaveModelToBuffer(handle, #"{"format": "json"}"#, &length, &bytes), "saving the model")
        guard let bytes else { throw XGBoostError(message: "no bytes returned", context: "saving the model") }
        // The buffer belongs to the booster (valid until its next call): copied out at once.
        return bytes.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
    }

    /// The model's output per row: for `binary:logistic`, the probability of label 1.
    public func predict(_ matrix: FeatureMatrix) throws -> [Float] {
        try run(matrix, optionMask: 0, what: "predicting")
    }

    /// The untransformed score per row (log-odds for `binary:logistic`).
    public func margins(_ matrix: FeatureMatrix) throws -> [Float] {
        try run(matrix, optionMask: 1, what: "predicting margins")
    }

    /// Each row's SHAP values: one per feature and the bias last (`columnCount + 1` numbers per row), which add up to
    /// the row's margin.
    public func contributions(_ matrix: FeatureMatrix) throws -> [[Float]] {
        let flat = try run(matrix, optionMask: 4, what: "computing contributions")
        let width = matrix.columnCount + 1
        guard flat.count == matrix.rowCount * width else {
            throw XGBoostError(message: "expected \(matrix.rowCount * width) contributions, got \(flat.count)",
                               context: "computing contributions")
        }
        return (0..<matrix.rowCount).map { Array(flat[($0 * width)..<(($0 + 1) * width)]) }
    }

    private func run(_ matrix: FeatureMatrix, optionMask: Int32, what: String) throws -> [Float] {
        guard matrix.columnCount == featureCount else {
            throw XGBoostError(message: "the model was trained on \(featureCount) features, the matrix has \(matrix.columnCount)",
                               context: "\(what) for \(matrix.rowCount) rows")
        }
        var length: bst_ulong = 0
        var result: UnsafePointer<Float>?
        try XGBoostError.check(XGBoosterPredict(handle, matrix.handle, optionMask, 0, 0, &length, &result),
                               "\(what) for \(matrix.rowCount) rows")
        guard let result else { return [] }
        // Owned by the booster until its next call: copied out at once.
        return Array(UnsafeBufferPointer(start: result, count: Int(length)))
    }
}

/// The libxgboost this process runs.
public enum XGBoostLibrary {
    /// `major.minor.patch` (Debian 12: 1.7.4).
    public static var version: String {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        XGBoostVersion(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }
}
