import Foundation

/// Where a run reads and writes: the data directory and the fixed names inside it (docs/contracts.md, "Stages and
/// the data directory").
public struct DataDirectory: Sendable {
    public var root: String
    /// The unified database readers open instead of `unified.db`: the local mirror of the unified data held on
    /// PostgreSQL (`--database-url`); nil for the data directory's own.
    public var readerUnifiedDatabase: String?

    public init(root: String, readerUnifiedDatabase: String? = nil) {
        self.root = root
        self.readerUnifiedDatabase = readerUnifiedDatabase
    }

    /// `--data-dir`, else `OWNERDASH_DATA_DIR`, else `./data`.
    public static func resolve(option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> DataDirectory {
        DataDirectory(root: option ?? environment["OWNERDASH_DATA_DIR"] ?? "data")
    }

    public var realpageRawDatabase: String { path("realpage_raw.db") }
    public var yardiRawDatabase: String { path("yardi_raw.db") }
    public var unifiedDatabase: String { readerUnifiedDatabase ?? path("unified.db") }
    public var landing: String { path("landing") }

    /// A file inside the data directory.
    public func path(_ name: String) -> String {
        (root as NSString).appendingPathComponent(name)
    }

    /// Creates the directory if needed; the error names it.
    public func create() throws {
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw ConfigurationError("\(root): cannot create the data directory: \(error.localizedDescription)")
        }
    }
}

/// A run's identifier: UTC start time plus a random suffix, sortable and unique (`20261122T040512Z-3f9a`).
public struct RunID: Sendable, Hashable, CustomStringConvertible {
    public var value: String

    public init(_ value: String) { self.value = value }

    /// Now, or the instant `OWNERDASH_CLOCK` names (`2027-03-01T02:30:00Z`): a simulated clock for fast-forwarded
    /// runs (scripts/bench/year.sh), so run ids and prune's retention count simulated nights, not seconds.
    public static func clock(environment: [String: String] = ProcessInfo.processInfo.environment) -> Date {
        guard let text = environment["OWNERDASH_CLOCK"], !text.isEmpty else { return Date() }
        return Timestamp.date(text) ?? Date()
    }

    /// A fresh id for a run starting now.
    public static func new(now: Date = RunID.clock()) -> RunID {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now)
        func pad(_ v: Int?, _ w: Int = 2) -> String {
            let s = String(v ?? 0); return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        let suffix = String(UInt16.random(in: 0...UInt16.max), radix: 16)
        let stamp = "\(pad(c.year, 4))\(pad(c.month))\(pad(c.day))T\(pad(c.hour))\(pad(c.minute))\(pad(c.second))Z"
        return RunID("\(stamp)-\(String(repeating: "0", count: 4 - suffix.count))\(suffix)")
    }

    public var description: String { value }
}
