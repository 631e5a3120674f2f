#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Writing to stdout and stderr without ever trapping: Foundation's `FileHandle.write(_:)` stops the process on a write
/// error, so a log line to a stderr file on a full disk (`2>> night.log`, the disk full) killed a whole ingest with
/// SIGILL, mid-run and without a word. stderr is written through C stdio and a failure there is ignored (there is
/// nowhere left to report it); stdout's failure is an error, not a silent success: found as it is written
/// (`StandardOutput`) or, for what `print` wrote, once at exit (`outputFailure`).
public enum StandardStreams {
    /// Whether a stdout that cannot be written ends the process: set by the `ownerdash` executable (`CLI.main`), where
    /// it is the command's own output (`| head` closing the pipe stops the work quietly, exit 0; a full disk, exit 3).
    /// A command run in-process (the tests, `CLI.run`) shares stdout with everything else there: an `exit(0)` from a
    /// write once ended a whole `swift test` run mid-way with status 0 and no summary, a CI run that ran no test. There
    /// the failure is said and the rest of that output dropped. Set once, before any command runs.
    nonisolated(unsafe) public static var outputFailureEndsProcess = false

    /// Writes `text` to stderr as it is (no line break added); a write that fails is dropped.
    public static func writeError(_ text: String) {
        _ = fputs(text, stderr)
    }

    /// The one line saying a result was cut short (`stdout: error: the output could not be written whole: REASON`).
    public static func reportOutputFailure(_ reason: String) {
        Diagnostics().error("stdout", "the output could not be written whole: \(reason)")
    }

    /// Flushes stdout; the reason it could not be written whole (`No space left on device`), nil when it was.
    public static func outputFailure() -> String? {
        let flushed = fflush(stdout) == 0
        let reason = errno
        guard !flushed || ferror(stdout) != 0 else { return nil }
        return flushed ? "an earlier write to it failed" : String(cString: strerror(reason))
    }
}

/// Buffered writes to stdout: large results (a CSV dump) are written in big blocks.
public final class StandardOutput {
    private var buffer: [UInt8] = []
    private let capacity: Int
    private let descriptor: Int32
    private let report: @Sendable (String) -> Void
    /// The error number of the write that failed (EPIPE: the reader left), nil while all went; what follows is dropped.
    public private(set) var failure: Int32?

    /// Writes to `descriptor` and says a failed write with `report`: stdout and its one line on stderr unless a test
    /// gives others.
    public init(capacity: Int = 1 << 16, descriptor: Int32 = 1,
                report: @escaping @Sendable (String) -> Void = StandardStreams.reportOutputFailure) {
        self.capacity = capacity
        self.descriptor = descriptor
        self.report = report
        buffer.reserveCapacity(capacity)
    }

    deinit { flush() }

    /// Queues text for stdout.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flush() }
    }

    /// Queues bytes for stdout.
    public func write(bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    /// Writes everything queued.
    public func flush() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil,
              let failure = buffer.withUnsafeBufferPointer({ ResultFile.writeAll($0, to: descriptor) }) else { return }
        self.failure = failure
        // The executable's stdout closed (e.g. piped into `head`): stop quietly, like other CLI tools. Any other
        // failure (a full disk) leaves the result cut short: said, and not a success.
        let endsProcess = StandardStreams.outputFailureEndsProcess
        if endsProcess && failure == EPIPE { exit(0) }
        report(String(cString: strerror(failure)))
        if endsProcess { exit(3) }  // ExitCode.failure
    }
}
