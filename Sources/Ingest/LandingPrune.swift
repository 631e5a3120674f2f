import Fetch
import Foundation
import OwnerDashCore

/// How many landed runs `ownerdash prune` keeps: every run of the last `keepDays` days, the last run of each of the
/// last `keepMonthly` calendar months (this month included), and always the newest run.
public struct RetentionPolicy: Sendable, Equatable {
    public var keepDays: Int
    public var keepMonthly: Int

    /// 14 days of nightly runs and 12 month-end runs: two weeks to replay any night, a year of month ends.
    public static let standard = RetentionPolicy(keepDays: 14, keepMonthly: 12)

    public init(keepDays: Int, keepMonthly: Int) {
        self.keepDays = keepDays; self.keepMonthly = keepMonthly
    }
}

/// One landed run as prune sees it.
public struct LandedRun: Sendable, Equatable {
    public var runID: String
    /// When the run started (its id's UTC stamp, else its manifest's `started_at`).
    public var startedAt: Date
    /// Objects (relative to the landing directory) its manifest refers to.
    public var objects: Set<String>
    /// No `finished_at` and its manifest written within the grace period: a run landing now.
    public var running: Bool = false
    /// Bytes under the run's own directory (the manifest; the files themselves in runs landed before objects).
    public var directoryBytes: Int64
}

/// What prune removed (or, dry, would remove).
public struct PruneResult: Sendable {
    /// A removed run and the bytes its removal frees: its directory plus the objects no kept run (and no run
    /// listed before it) refers to.
    public struct RemovedRun: Sendable, Equatable {
        public var runID: String
        public var day: String
        public var bytes: Int64
        public var objects: Int
    }
    public var kept: [String] = []
    public var removed: [RemovedRun] = []
    /// Objects no run at all referred to (left by a killed run, or by an earlier prune interrupted half-way).
    public var strayObjects = 0
    public var strayBytes: Int64 = 0
    public var totalBytes: Int64 { removed.reduce(strayBytes) { $0 + $1.bytes } }
}

/// Removes landed runs a `RetentionPolicy` no longer keeps, then the objects no kept run refers to. Run it under the
/// data directory's lock (the caller's job), so no run is landing meanwhile and every object a kept run needs stays.
///
/// The databases are not touched here: `ownerdash prune` then applies the policy to the raw snapshots
/// (`RawRetention`, counted in property dates); the unified metric rows the trends read always stay.
public struct LandingPrune {
    public let dataDirectory: DataDirectory
    public let policy: RetentionPolicy
    /// Objects written or reused, and unfinished runs' manifests written, less than this long ago (by the wall
    /// clock) are never removed: `fetch` lands without the data directory's lock, so a run may be landing now and
    /// name them in a moment.
    public let grace: TimeInterval

    public init(dataDirectory: DataDirectory, policy: RetentionPolicy, grace: TimeInterval = 6 * 3600) {
        self.dataDirectory = dataDirectory; self.policy = policy; self.grace = grace
    }

    /// Runs of the landing directory (folders holding a manifest.json), oldest first; an unreadable manifest throws
    /// naming it, since its objects cannot be known and pruning could remove them.
    public func landedRuns() throws -> [LandedRun] {
        let landing = dataDirectory.landing
        let names = (try? FileManager.default.contentsOfDirectory(atPath: landing)) ?? []
        var runs: [LandedRun] = []
        for name in names where name != LandingZone.objectsFolder && name != LandingZone.stagingFolder {
            let directory = (landing as NSString).appendingPathComponent(name)
            let manifestPath = (directory as NSString).appendingPathComponent("manifest.json")
            guard FileManager.default.fileExists(atPath: manifestPath) else { continue }
            let manifest = try RunManifest.read(path: manifestPath)
            guard let started = Self.runDate(runID: name) ?? Timestamp.date(manifest.startedAt) else {
                throw LandingError("\(manifestPath): cannot tell when run \(name) started (no date in its id or manifest)")
            }
            var run = LandedRun(runID: name, startedAt: started, objects: Set(manifest.artifacts.compactMap(\.object)),
                                directoryBytes: Self.bytes(under: directory))
            run.running = manifest.finishedAt == nil && Self.isRecent(manifestPath, grace: grace)
            runs.append(run)
        }
        return runs.sorted { ($0.startedAt, $0.runID) < ($1.startedAt, $1.runID) }
    }

    /// The run ids the policy keeps among `runs` (oldest first), as of `now`.
    public func keep(_ runs: [LandedRun], now: Date) -> Set<String> {
        var kept = Set<String>()
        if let newest = runs.last { kept.insert(newest.runID) }
        for run in runs where run.running { kept.insert(run.runID) }
        let dayCutoff = now.addingTimeInterval(-Double(policy.keepDays) * 86_400)
        for run in runs where run.startedAt > dayCutoff { kept.insert(run.runID) }
        let months = Set((0..<max(policy.keepMonthly, 0)).map { Self.monthKey(Self.calendar.date(byAdding: .month, value: -$0, to: now)!) })
        var lastOfMonth: [String: String] = [:]
        for run in runs { lastOfMonth[Self.monthKey(run.startedAt)] = run.runID }
        for (month, runID) in lastOfMonth where months.contains(month) { kept.insert(runID) }
        return kept
    }

    /// Removes (or with `dryRun` only lists) the runs not kept and the objects no kept run refers to.
    public func run(now: Date = Date(), dryRun: Bool) throws -> PruneResult {
        let runs = try landedRuns()
        let kept = keep(runs, now: now)
        let needed = runs.filter { kept.contains($0.runID) }.reduce(into: Set<String>()) { $0.formUnion($1.objects) }
        var result = PruneResult()
        result.kept = runs.filter { kept.contains($0.runID) }.map(\.runID)
        var counted = Set<String>()
        for run in runs where !kept.contains(run.runID) {
            let freed = run.objects.subtracting(needed).subtracting(counted)
                .filter { !Self.isRecent(objectPath($0), grace: grace) }
            counted.formUnion(freed)
            var bytes = run.directoryBytes
            for object in freed { bytes += Self.fileSize(objectPath(object)) }
            result.removed.append(.init(runID: run.runID, day: Self.dayString(run.startedAt), bytes: bytes, objects: freed.count))
            if !dryRun {
                // The manifest goes first: a prune killed here leaves objects no run names, removed by the next one.
                let directory = (dataDirectory.landing as NSString).appendingPathComponent(run.runID)
                do {
                    try FileManager.default.removeItem(atPath: directory)
                } catch {
                    throw LandingError("\(directory): cannot remove the run: \(error.localizedDescription)")
                }
            }
        }
        // Every object on disk that no kept run needs: those of the removed runs, and strays no run names.
        for object in allObjects() where !needed.contains(object) && !Self.isRecent(objectPath(object), grace: grace) {
            if !counted.contains(object) {
                result.strayObjects += 1
                result.strayBytes += Self.fileSize(objectPath(object))
            }
            if !dryRun { unlink(objectPath(object)) }
        }
        return result
    }

    private func objectPath(_ object: String) -> String {
        (dataDirectory.landing as NSString).appendingPathComponent(object)
    }

    /// Every object file, relative to the landing directory (temporary files of a landing in progress excluded).
    private func allObjects() -> [String] {
        let root = LandingZone.objectsDirectory(in: dataDirectory)
        var objects: [String] = []
        for fan in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where !fan.hasPrefix(".") {
            let directory = (root as NSString).appendingPathComponent(fan)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where !name.hasPrefix(".") {
                objects.append("\(LandingZone.objectsFolder)/\(fan)/\(name)")
            }
        }
        return objects
    }

    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    /// `20261122T023000Z-1a2b` -> that instant (UTC), as `RunID.new` writes it.
    static func runDate(runID: String) -> Date? {
        let stamp = runID.prefix(16)
        guard stamp.count == 16, stamp.dropFirst(8).first == "T", stamp.last == "Z" else { return nil }
        let digits = stamp.filter(\.isNumber)
        guard digits.count == 14 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int {
            Int(digits[digits.index(digits.startIndex, offsetBy: from)..<digits.index(digits.startIndex, offsetBy: from + count)])!
        }
        return calendar.date(from: DateComponents(year: number(0, 4), month: number(4, 2), day: number(6, 2),
                                                  hour: number(8, 2), minute: number(10, 2), second: number(12, 2)))
    }

    static func monthKey(_ date: Date) -> String { String(dayString(date).prefix(7)) }

    static func dayString(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// Modified less than `grace` seconds ago by the wall clock.
    static func isRecent(_ path: String, grace: TimeInterval) -> Bool {
        guard grace > 0, let modified = FileStatus.modified(atPath: path) else { return false }
        return Date().timeIntervalSince(modified) < grace
    }

    static func fileSize(_ path: String) -> Int64 {
        Int64(FileStatus.size(atPath: path) ?? 0)
    }

    static func bytes(under directory: String) -> Int64 {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return 0 }
        var total: Int64 = 0
        while let relative = walker.nextObject() as? String {
            total += fileSize((directory as NSString).appendingPathComponent(relative))
        }
        return total
    }
}
