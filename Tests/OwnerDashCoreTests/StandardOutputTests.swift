import Foundation
import Synchronization
import Testing
@testable import OwnerDashCore

/// A command run in-process shares the test process's stdout: a write that fails there is said and the rest of that
/// output dropped, never an exit (an `exit(0)` on a closed pipe once ended a whole `swift test` run with status 0 and
/// no summary).
@Suite struct StandardOutputTests {
    /// A pipe whose reader has left, written on this thread with SIGPIPE held back, as libpq writes a socket: the write
    /// answers EPIPE instead of killing the process, and the pending signal is taken before it is let through again.
    @Test func aClosedReaderIsAFailureSaidOnceAndTheProcessGoesOn() throws {
        #expect(StandardStreams.outputFailureEndsProcess == false)
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var timeout = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&pipeSignal, nil, &timeout) == SIGPIPE {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        let said = Mutex<[String]>([])
        let output = StandardOutput(capacity: 16, descriptor: ends[1]) { reason in said.withLock { $0.append(reason) } }
        output.write("more than sixteen bytes, so it is written at once\n")
        output.write("and again, dropped: the reader is gone for good\n")
        output.flush()
        #expect(output.failure == EPIPE)
        #expect(said.withLock { $0 } == [String(cString: strerror(EPIPE))])
    }

    /// What was written before the failure arrived whole; nothing after it is tried again.
    @Test func writesGoWholeToTheirDescriptor() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let output = StandardOutput(capacity: 8, descriptor: ends[1]) { _ in Issue.record("no failure expected") }
        output.write("occupancy,")
        output.write("91.96\n")
        output.flush()
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(ends[0], &buffer, buffer.count)
        #expect(String(decoding: buffer[0..<max(count, 0)], as: UTF8.self) == "occupancy,91.96\n")
        #expect(output.failure == nil)
    }
}
