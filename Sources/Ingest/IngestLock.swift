import Foundation
import OwnerDashCore

/// Who holds (or last held) a data directory's ingest lock, as written in `data/ingest.lock`.
public struct LockHolder: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The command holding it: `ingest`, `sync` or `load`.
    public var command: String
    /// The run the holder records in etl_runs (nil for `load`, which records none).
    public var runID: String?
    public var pid: Int32
    public var host: String
    /// ISO-8601 UTC.
    public var startedAt: String

    enum CodingKeys: String, CodingKey {
        case command, pid, host
        case runID = "run_id"
        case startedAt = "started_at"
    }

    public init(command: String, runID: String?, pid: Int32 = getpid(), host: String = LockHolder.hostName(),
                startedAt: String = Timestamp.iso()) {
        self.command = command; self.runID = runID; self.pid = pid; self.host = host; self.startedAt = startedAt
    }

    /// `ingest is running: run R, pid P on host H since T`.
    public var description: String {
        "\(command) is running: \(runID.map { "run \($0), " } ?? "")pid \(pid) on host \(host) since \(startedAt)"
    }

    /// This machine's name (gethostname: no DNS lookup).
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Another process holds the data directory's lock: nothing was done (exit 3).
public struct IngestLockBusy: Error, CustomStringConvertible, Sendable {
    /// The holder the lock file names; nil when it could not be read (it was being written).
    public var holder: LockHolder?
    public var path: String
    /// The run recorded `refused` in etl_runs for this attempt (ingest and sync record one); nil when none was.
    public var refusedRunID: String?

    public var description: String {
        holder?.description ?? "another ownerdash process holds \(path) (its holder could not be read)"
    }
}

/// One writer per data directory (docs/contracts.md, "Reliability"): `data/ingest.lock`, held with flock(2) while a
/// command that writes the databases (ingest, sync, load) runs. Readers (query, dashboard, runs) never take it.
///
/// The kernel lock is the truth: it goes away when its holder's process dies, however it dies, so a lock left by a
/// killed process is never "held". The file's contents (holder's command, run id, pid, host, start time) are for
/// messages: a clean release empties the file, so contents found by a new holder belong to a process that died
/// holding it (`staleHolder`), whose run is then marked abandoned. The file itself is never deleted: unlinking a
/// flock file lets a process lock the old inode while another locks a new one.
public final class IngestLock {
    /// The lock file of a data directory.
    public static func path(in dataDirectory: DataDirectory) -> String { dataDirectory.path("ingest.lock") }

    public let path: String
    public let holder: LockHolder
    /// What a process that died holding the lock left in the file (taken over); nil after a clean release.
    public let staleHolder: LockHolder?
    /// The file held something that is not a holder record (a process died while writing it, or an edit).
    public let staleUnreadable: Bool
    private var descriptor: Int32

    private init(path: String, holder: LockHolder, staleHolder: LockHolder?, staleUnreadable: Bool, descriptor: Int32) {
        self.path = path; self.holder = holder; self.staleHolder = staleHolder
        self.staleUnreadable = staleUnreadable; self.descriptor = descriptor
    }

    deinit { release() }

    /// Takes the data directory's lock without waiting; throws `IngestLockBusy` naming the holder when another
    /// process (or another handle in this one) has it. The data directory must exist.
    public static func acquire(dataDirectory: DataDirectory, holder: LockHolder) throws -> IngestLock {
        let path = Self.path(in: dataDirectory)
        // CLOEXEC: a child (a token command) must not inherit the lock and keep it after ownerdash dies.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ConfigurationError("\(path): cannot open the lock file: \(String(cString: strerror(errno)))")
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(descriptor)
            guard code == EWOULDBLOCK else {
                throw ConfigurationError("\(path): cannot lock: \(String(cString: strerror(code)))")
            }
            throw IngestLockBusy(holder: readHolder(path: path, patiently: true), path: path)
        }
        let previous = readAll(descriptor)
        let stale = previous.isEmpty ? nil : decode(previous)
        let record: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            record = try encoder.encode(holder) + Data("\n".utf8)
        } catch {
            close(descriptor)
            throw ConfigurationError("\(path): cannot encode the lock holder: \(error)")
        }
        guard ftruncate(descriptor, 0) == 0, writeAll(descriptor, record) else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ConfigurationError("\(path): cannot write the lock file: \(reason)")
        }
        return IngestLock(path: path, holder: holder, staleHolder: stale, staleUnreadable: !previous.isEmpty && stale == nil,
                          descriptor: descriptor)
    }

    /// Who the lock file names, without taking the lock (a reader's view; nil when it is empty or unreadable).
    /// The holder may have died since: only `acquire` can tell.
    public static func recordedHolder(dataDirectory: DataDirectory) -> LockHolder? {
        readHolder(path: path(in: dataDirectory), patiently: false)
    }

    /// Empties the file (a clean release leaves nothing stale) and unlocks; safe to call twice.
    public func release() {
        guard descriptor >= 0 else { return }
        _ = ftruncate(descriptor, 0)
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    // MARK: - File contents

    /// Reads the holder; `patiently` retries for a moment, since a new holder writes the file just after it locks.
    private static func readHolder(path: String, patiently: Bool) -> LockHolder? {
        for attempt in 0..<(patiently ? 40 : 1) {
            if attempt > 0 { usleep(25_000) }
            if let data = FileManager.default.contents(atPath: path), let holder = decode(data) { return holder }
        }
        return nil
    }

    private static func decode(_ data: Data) -> LockHolder? {
        try? JSONDecoder().decode(LockHolder.self, from: data)
    }

    private static func readAll(_ descriptor: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var offset: off_t = 0
        while true {
            let count = pread(descriptor, &buffer, buffer.count, offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
            offset += off_t(count)
        }
        return data
    }

    private static func writeAll(_ descriptor: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let written = pwrite(descriptor, base + offset, raw.count - offset, off_t(offset))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }
}
