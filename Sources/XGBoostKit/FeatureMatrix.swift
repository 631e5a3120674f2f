import CXGBoost

/// A dense table of features (rows × columns of Float), optionally with a label per row: XGBoost's DMatrix, owned.
///
/// NaN is a missing value (XGBoost learns which branch a missing value takes), so a feature that cannot be
/// computed for a row is NaN, never a made-up zero.
public final class FeatureMatrix {
    let handle: DMatrixHandle
    /// Number of rows (examples).
    public let rowCount: Int
    /// Number of columns (features).
    public let columnCount: Int

    /// Copies `values` (row-major, `rowCount` × `columnCount`) and the labels (one per row, 0 or 1 for a
    /// classifier) into a new DMatrix.
    public init(values: [Float], rowCount: Int, columnCount: Int, labels: [Float]? = nil,
                weights: [Float]? = nil) throws {
        precondition(values.count == rowCount * columnCount, "values must hold rowCount × columnCount floats")
        precondition(labels.map { $0.count == rowCount } ?? true, "one label per row")
        precondition(weights.map { $0.count == rowCount } ?? true, "one weight per row")
        guard rowCount > 0, columnCount > 0 else {
            throw XGBoostError(message: "a feature matrix needs at least one row and one column (got \(rowCount) × \(columnCount))",
                               context: "creating a feature matrix")
        }
        var out: DMatrixHandle?
        try values.withUnsafeBufferPointer { buffer in
            try XGBoostError.check(XGDMatrixCreateFromMat(buffer.baseAddress, bst_ulong(rowCount), bst_ulong(columnCount),
                                                          Float.nan, &out),
                                   "creating a \(rowCount) × \(columnCount) feature matrix")
        }
        guard let out else {
            throw XGBoostError(message: "no matrix returned", context: "creating a \(rowCount) × \(columnCount) feature matrix")
        }
        handle = out
        self.rowCount = rowCount
        self.columnCount = columnCount
        // From here the handle is ours: deinit frees it even if setting the labels throws.
        if let labels { try setFloatInfo("label", labels) }
        if let weights { try setFloatInfo("weight", weights) }
    }

    /// Builds a matrix from rows of equal length.
    public convenience init(rows: [[Float]], labels: [Float]? = nil, weights: [Float]? = nil) throws {
        let columns = rows.first?.count ?? 0
        precondition(rows.allSatisfy { $0.count == columns }, "every row must have the same number of columns")
        try self.init(values: rows.flatMap { $0 }, rowCount: rows.count, columnCount: columns, labels: labels, weights: weights)
    }

    deinit { XGDMatrixFree(handle) }

    private func setFloatInfo(_ field: String, _ values: [Float]) throws {
        try values.withUnsafeBufferPointer { buffer in
            try XGBoostError.check(XGDMatrixSetFloatInfo(handle, field, buffer.baseAddress, bst_ulong(values.count)),
                                   "setting the \(field) of \(rowCount) rows")
        }
    }
}
