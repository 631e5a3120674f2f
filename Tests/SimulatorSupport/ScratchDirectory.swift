import Foundation
import Synchronization

/// A fresh directory under the system's temporary directory, removed with everything in it when the last reference
/// goes. Test data directories hold whole ingests (an ingest test's is tens of megabytes): a suite run left about
/// 400 MB in /tmp before they were removed.
public final class ScratchDirectory: Sendable {
    /// The directory, created by `init`.
    public let url: URL

    /// Creates `<tmp>/<prefix>-<uuid>`.
    public init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Removes `url` when the test process exits: for what a process-wide shared fixture holds (a static is never
    /// deinitialized).
    public static func removeAtExit(_ url: URL) {
        atExit.withLock { pending in
            if pending.isEmpty {
                atexit { ScratchDirectory.atExit.withLock { $0.forEach { try? FileManager.default.removeItem(at: $0) } } }
            }
            pending.append(url)
        }
    }

    private static let atExit = Mutex<[URL]>([])
}
