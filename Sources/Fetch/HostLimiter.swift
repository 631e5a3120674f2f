import CurlKit
import Foundation
import OwnerDashCore

/// Caps concurrent requests per host, whatever the number of worker threads, and remembers the hosts nobody answered.
final class HostLimiter: @unchecked Sendable {
    private let limit: Int
    private let semaphores = Locked<[String: DispatchSemaphore]>([:])
    /// Host -> why it is taken as down for the rest of the run: a request found nobody there on every attempt.
    private let unreachable = Locked<[String: String]>([:])

    /// Why `host` is taken as down (a later request is then not sent), nil while it is not.
    func unreachableReason(_ host: String) -> String? { unreachable.withLock { $0[host] } }

    /// Notes a request to `host` that failed on every attempt; when nobody was there (the name did not resolve or the
    /// connection was refused: curl 6 and 7, not a timeout or a reset, which a busy host may recover from), every
    /// later request of the run to that host fails at once instead of retrying for half a minute, so a night whose
    /// source is down ends in seconds with each artifact named.
    func noteFailure(_ host: String, _ error: HTTPError, attempts: Int) {
        guard let code = error.curlCode, code == 6 || code == 7 else { return }
        unreachable.withLock { table in
            if table[host] == nil {
                table[host] = "\(host) could not be reached by an earlier request of this run (\(error.message), after \(attempts) attempts)"
            }
        }
    }

    init(perHost limit: Int) { self.limit = max(1, limit) }

    func withPermit<Result>(host: String, _ body: () throws -> Result) rethrows -> Result {
        let semaphore = semaphores.withLock { table in
            if let existing = table[host] { return existing }
            let created = DispatchSemaphore(value: limit)
            table[host] = created
            return created
        }
        semaphore.wait()
        defer { semaphore.signal() }
        return try body()
    }
}
