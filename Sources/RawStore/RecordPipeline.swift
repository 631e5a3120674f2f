import Foundation
import Parse

/// Inserts records on a writer thread while the parser reads the next rows on the caller's thread.
///
/// Parsing a sheet and writing SQLite pages each take about half of a large load; on two
/// cores they overlap. Records travel in batches through a bounded queue, so memory stays
/// flat however many rows a sheet has. The database is touched by one thread at a time:
/// the writer thread between `start` and `finish`/`abort`, the caller's thread otherwise.
final class RecordPipeline: @unchecked Sendable {
    // @unchecked: every mutable field below is read and written only while holding `condition`,
    // and `writer` only by the writer thread until `done` is signalled.
    private let condition = NSCondition()
    private var queue: [[ReportRecord]] = []
    private var closed = false
    private var failure: (any Error)?
    private var writer: RawReportWriter
    private let done = DispatchSemaphore(value: 0)
    private var batch: [ReportRecord] = []
    private let batchSize = 2048
    private let capacity = 4

    init(writer: RawReportWriter) {
        self.writer = writer
        batch.reserveCapacity(batchSize)
        let thread = Thread { [self] in drain() }
        thread.name = "ownerdash-raw-writer"
        thread.start()
    }

    /// Queues a record; throws the writer's error as soon as it has failed.
    func append(_ record: ReportRecord) throws {
        batch.append(record)
        if batch.count >= batchSize { try send() }
    }

    /// Writes what is queued, waits for the writer thread, and returns the rows inserted.
    func finish() throws -> Int {
        try send()
        close()
        done.wait()
        if let failure { throw failure }
        return writer.rowCount
    }

    /// Stops the writer thread without waiting for queued records (the transaction is rolled back anyway).
    func abort() {
        condition.lock()
        queue.removeAll()
        closed = true
        condition.broadcast()
        condition.unlock()
        done.wait()
    }

    private func send() throws {
        guard !batch.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && failure == nil { condition.wait() }
        if let failure { throw failure }
        queue.append(batch)
        batch.removeAll(keepingCapacity: true)
        condition.broadcast()
    }

    private func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func drain() {
        defer { done.signal() }
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty {
                condition.unlock()
                return
            }
            let next = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                for record in next { try writer.insert(record) }
            } catch {
                condition.lock()
                failure = error
                queue.removeAll()
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }
}
