import Foundation

/// How a recorded run ended (etl_runs.status).
public enum RunStatus: String, Sendable, Codable, CaseIterable {
    /// Started and not finished: still going, or its process died (until the next run marks it abandoned).
    case running
    /// Every item succeeded.
    case succeeded
    /// Some items failed; everything else is committed (exit 2).
    case partial
    /// Nothing could be done: nothing landed, or the run stopped on an error (exit 3).
    case failed
    /// Its process died while running; the next run to take the lock found it so.
    case abandoned
    /// Asked for while another process held the data directory's lock: nothing was done (exit 3); `detail` names
    /// the holder.
    case refused
}

/// The stage of a run item (etl_run_items.stage).
public enum RunStage: String, Sendable, Codable, CaseIterable {
    case fetch, load, sync
}

/// One (stage, property, artifact) of a run: what it did, or why it failed.
public struct RunItem: Sendable, Equatable, Codable {
    /// Item outcome (etl_run_items.status).
    public enum Status: String, Sendable, Codable {
        case succeeded, failed, skipped
    }

    public var stage: RunStage
    public var property: String?
    /// The artifact's path in the run's landing directory (`realpage/nexus_east/rent_roll.xlsx`); nil for sync.
    public var artifact: String?
    public var status: Status
    /// Rows loaded (load), unit rows written (sync); nil for fetch.
    public var rows: Int?
    public var durationMilliseconds: Int?
    /// Why it failed, or why it was skipped.
    public var error: String?

    enum CodingKeys: String, CodingKey {
        case stage, property, artifact, status, rows, error
        case durationMilliseconds = "duration_ms"
    }

    public init(stage: RunStage, property: String?, artifact: String? = nil, status: Status, rows: Int? = nil,
                seconds: Double? = nil, error: String? = nil) {
        self.stage = stage; self.property = property; self.artifact = artifact; self.status = status; self.rows = rows
        durationMilliseconds = seconds.map { Int(($0 * 1000).rounded()) }
        self.error = error
    }

    /// Every field, with explicit nulls, so a reader of `runs show --format json` sees the same keys on every item.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stage, forKey: .stage)
        try container.encode(property, forKey: .property)
        try container.encode(artifact, forKey: .artifact)
        try container.encode(status, forKey: .status)
        try container.encode(rows, forKey: .rows)
        try container.encode(durationMilliseconds, forKey: .durationMilliseconds)
        try container.encode(error, forKey: .error)
    }
}
