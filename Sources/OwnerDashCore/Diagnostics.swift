import Foundation

/// What a log line is about, as fields a machine reads without parsing the message (the JSON keys `stage`,
/// `property`, `artifact`, `rows`, `duration_ms`; `run_id` comes from `Diagnostics.runID`).
public struct LogFields: Sendable, Equatable {
    public var stage: String?
    public var property: String?
    public var artifact: String?
    public var rows: Int?
    public var durationMilliseconds: Int?

    public init(stage: String? = nil, property: String? = nil, artifact: String? = nil, rows: Int? = nil,
                durationMilliseconds: Int? = nil) {
        self.stage = stage; self.property = property; self.artifact = artifact; self.rows = rows
        self.durationMilliseconds = durationMilliseconds
    }
}

/// Progress, warnings and errors on stderr, one line each, as text or JSON lines.
///
/// Errors name what failed (`nexus_east/rent_roll.xlsx: no header row found ...`);
/// stdout is left to results, so machine formats stay clean. JSON lines carry the run, stage, property, artifact,
/// rows and duration as fields of their own; text lines start with a UTC timestamp when `timestamps` is on
/// (`--log-timestamps`, `OWNERDASH_LOG_TIMESTAMPS=1`: a log that cron appends to one file).
public final class Diagnostics: @unchecked Sendable {
    /// How each stderr line is written.
    public enum Format: Sendable { case text, json }

    /// Severity of one line.
    public enum Level: String, Sendable { case error, warning, info, debug }

    public let format: Format
    public let quiet: Bool
    public let verbose: Bool
    /// Text lines start with `2026-11-23T02:30:04Z `.
    public let timestamps: Bool
    private let lock = NSLock()
    private var currentRunID: String?
    /// The run the lines belong to (the JSON `run_id`), set once a run has its id.
    public var runID: String? {
        get { lock.lock(); defer { lock.unlock() }; return currentRunID }
        set { lock.lock(); currentRunID = newValue; lock.unlock() }
    }
    private let sink: (String) -> Void
    public private(set) var errorCount = 0
    public private(set) var warningCount = 0

    public init(format: Format = .text, quiet: Bool = false, verbose: Bool = false, timestamps: Bool = false,
                sink: @escaping (String) -> Void = { StandardStreams.writeError($0 + "\n") }) {
        self.format = format; self.quiet = quiet; self.verbose = verbose; self.timestamps = timestamps; self.sink = sink
    }

    /// `subject` is what the line is about: a file, `property/artifact`, or a stage.
    public func error(_ subject: String?, _ message: String, _ fields: LogFields = LogFields()) { log(.error, subject, message, fields) }
    /// A problem that did not stop the work (counted, always printed).
    public func warning(_ subject: String?, _ message: String, _ fields: LogFields = LogFields()) { log(.warning, subject, message, fields) }
    /// Progress; silenced by --quiet.
    public func info(_ subject: String?, _ message: String, _ fields: LogFields = LogFields()) { log(.info, subject, message, fields) }
    /// Detail; printed only with --verbose.
    public func debug(_ subject: String?, _ message: String) { log(.debug, subject, message) }

    /// Writes one line at a level (errors and warnings are counted).
    public func log(_ level: Level, _ subject: String?, _ message: String, _ fields: LogFields = LogFields()) {
        lock.lock(); defer { lock.unlock() }
        switch level {
        case .error: errorCount += 1
        case .warning: warningCount += 1
        case .info: if quiet { return }
        case .debug: if !verbose || quiet { return }
        }
        // One line each, whatever the message holds.
        let flat = message.replacingOccurrences(of: "\n", with: " ")
        switch format {
        case .text:
            let prefix = level == .warning ? "warning: " : level == .error ? "error: " : ""
            let time = timestamps ? Timestamp.iso() + " " : ""
            sink(time + (subject.map { "\($0): " } ?? "") + prefix + flat)
        case .json:
            var object: [String: Any] = ["level": level.rawValue, "message": flat,
                                         "time": Timestamp.iso()]
            if let subject { object["subject"] = subject }
            if let currentRunID { object["run_id"] = currentRunID }
            if let stage = fields.stage { object["stage"] = stage }
            if let property = fields.property { object["property"] = property }
            if let artifact = fields.artifact { object["artifact"] = artifact }
            if let rows = fields.rows { object["rows"] = rows }
            if let duration = fields.durationMilliseconds { object["duration_ms"] = duration }
            if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
               let line = String(data: data, encoding: .utf8) {
                sink(line)
            }
        }
    }
}
