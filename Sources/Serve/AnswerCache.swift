import Foundation
import Render

/// Answers kept in memory per data version: unified.db changes only through runs, so an answer is good until the
/// next run finishes, and its key holds the entity tag (run id + viewer) and the request's path and query. Bounded
/// in entries and bytes; everything from an older run is dropped as soon as a newer run is seen.
final class AnswerCache: @unchecked Sendable {
    // @unchecked: every field is touched under `lock`.
    private let lock = NSLock()
    private var answers: [String: String] = [:]
    private var bytes = 0
    private var run = ""
    let maxEntries: Int
    let maxBytes: Int

    init(maxEntries: Int = 1024, maxBytes: Int = 32 << 20) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    func answer(run: String, key: String) -> String? {
        lock.withLock { self.run == run ? answers[key] : nil }
    }

    func keep(_ body: String, run: String, key: String) {
        let size = body.utf8.count
        guard size <= maxBytes / 8 else { return }   // a huge answer (a whole ledger) is not worth holding
        lock.withLock {
            if self.run != run || answers.count >= maxEntries || bytes + size > maxBytes {
                answers.removeAll(keepingCapacity: true)
                bytes = 0
                self.run = run
            }
            if answers.updateValue(body, forKey: key) == nil { bytes += size }
        }
    }
}

/// The portfolio table's content per data version, as `AnswerCache` keeps answers: the summary of every property
/// costs most of the portfolio page (the 30-day activity of each), and a run is the only thing that changes it, so
/// paging, sorting and searching — and every other viewer — re-use it until the next run finishes. Keyed by the
/// synced properties and the as-of date; a few dozen entries at most, dropped as a newer run is seen.
final class PortfolioCache: @unchecked Sendable {
    // @unchecked: every field is touched under `lock`.
    private let lock = NSLock()
    private var portfolios: [String: Portfolio] = [:]
    private var run = ""
    let maxEntries: Int

    init(maxEntries: Int = 32) { self.maxEntries = maxEntries }

    func portfolio(run: String, key: String) -> Portfolio? {
        lock.withLock { self.run == run ? portfolios[key] : nil }
    }

    func keep(_ portfolio: Portfolio, run: String, key: String) {
        lock.withLock {
            if self.run != run || portfolios.count >= maxEntries {
                portfolios.removeAll(keepingCapacity: true)
                self.run = run
            }
            portfolios[key] = portfolio
        }
    }
}
