import Foundation

/// The RealPage report instances a run is waiting for, watched together: one poll of `/my/report-instances` (a page
/// of up to 100 instances, newest first) answers every report waiting at that moment, where each report used to poll
/// the list for itself. RealPageReportClient asks it after each of a report's waits.
final class ReportInstanceBoard: @unchecked Sendable {
    /// What a poll saw of one instance.
    struct Seen: Sendable, Equatable {
        var status: Int?
        var fileID: String?
    }

    private let condition = NSCondition()
    /// The instances being waited for (each by one report's thread).
    private var waiting: Set<String> = []
    /// What the latest poll listing each waited-for instance said of it.
    private var seen: [String: Seen] = [:]
    /// When the latest poll that answered had started (uptime nanoseconds).
    private var latestPollStarted: UInt64 = 0
    private var polling = false

    /// Starts watching `instance` (before its first wait), so that every poll from now on looks for it.
    func watch(_ instance: String) {
        condition.lock(); defer { condition.unlock() }
        waiting.insert(instance)
    }

    /// Stops watching `instance` (its report is ready, or given up).
    func forget(_ instance: String) {
        condition.lock(); defer { condition.unlock() }
        waiting.remove(instance)
        seen[instance] = nil
    }

    /// What the first poll started at or after `after` (uptime nanoseconds: when the report's wait ended) saw of
    /// `instance`; nil when that poll did not list it. When no such poll is under way, this thread runs one: `poll`
    /// gets every instance watched and returns what the list says of those it found. A poll that fails throws to the
    /// thread that ran it; the threads waiting on it run the next one.
    ///
    /// A poll that was under way when the wait ended does not answer: the answer is always newer than the wait.
    /// Answering with it would save polls, but on a gateway that builds a report while it is being listed (the
    /// simulator's model) it slowed a 30-property night's fetch from 9 to 16 s.
    func status(of instance: String, after: UInt64, poll: ([String]) throws -> [String: Seen]) throws -> Seen? {
        condition.lock(); defer { condition.unlock() }
        while true {
            if latestPollStarted >= after { return seen[instance] }
            if polling {
                condition.wait()
                continue
            }
            polling = true
            let started = DispatchTime.now().uptimeNanoseconds
            let instances = waiting.sorted()
            condition.unlock()
            let result = Result { try poll(instances) }
            condition.lock()
            polling = false
            condition.broadcast()
            seen.merge(try result.get()) { $1 }
            latestPollStarted = started
        }
    }
}

/// `--parallel` artifacts at work at once. A report waiting for the server to build it lends its place to another
/// artifact, so a night of reports is not `parallel` reports asleep at a time (each waits at least one poll interval).
final class WorkSlots: @unchecked Sendable {
    private let semaphore: DispatchSemaphore

    init(_ count: Int) { semaphore = DispatchSemaphore(value: max(1, count)) }

    /// Runs `body` holding a place.
    func withSlot<Result>(_ body: () throws -> Result) rethrows -> Result {
        semaphore.wait()
        defer { semaphore.signal() }
        return try body()
    }

    /// Runs `body` (a wait) with this thread's place lent to another artifact; takes a place again after it.
    func lending<Result>(_ body: () throws -> Result) rethrows -> Result {
        semaphore.signal()
        defer { semaphore.wait() }
        return try body()
    }
}
