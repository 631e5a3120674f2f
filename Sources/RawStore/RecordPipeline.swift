import Foundation
import Parse

/// Inserts records on a writer thread while the parser reads the next rows on the caller's thread.
///
/// Parsing a sheet and writing SQLite pages each take a good part of a large load; on two
/// cores they overlap. Records travel in batches through a bounded channel, so memory stays
/// flat however many rows a sheet has. The writer thread starts with the first full batch: a
/// sheet of fewer rows (most of a night's: a Box Score, a month's summary) is written by the
/// caller at `finish`, without a thread started and waited for. The database is touched by one
/// thread at a time: the writer thread from its start to `finish`/`abort`, the caller's otherwise.
final class RecordPipeline: @unchecked Sendable {
    // @unchecked: `writer` and `writeError` belong to the writer thread until `done` is signalled;
    // `batch` belongs to the caller's thread.
    private let channel = BatchChannel<ReportRecord>(capacity: 4)
    // Unchecked: each thread keeps to its own (see above), and a dynamic check per record inserted showed in profiles.
    @exclusivity(unchecked) private var writer: RawReportWriter
    private var writeError: (any Error)?
    private let done = DispatchSemaphore(value: 0)
    private var joined = false
    @exclusivity(unchecked) private var batch: [ReportRecord] = []
    private let batchSize = 2048
    /// Whether the writer thread was started (by the first full batch).
    private var started = false

    init(writer: RawReportWriter) {
        self.writer = writer
        batch.reserveCapacity(batchSize)
    }

    /// Queues a record; throws the writer's error as soon as it has failed.
    func append(_ record: ReportRecord) throws {
        batch.append(record)
        if batch.count >= batchSize { try send() }
    }

    /// Writes what is queued, waits for the writer thread, and returns the rows inserted.
    func finish() throws -> Int {
        guard started else {
            // Fewer records than a batch: written here, the writer never started.
            for record in batch { try writer.insert(record) }
            batch.removeAll()
            return writer.rowCount
        }
        do {
            try send()
        } catch {
            abort()
            throw error
        }
        channel.close()
        join()
        if let writeError { throw writeError }
        return writer.rowCount
    }

    /// The hash of the rows written; read after `finish`, when the writer thread has ended.
    func rowsSHA256() -> String {
        var digest = writer.digest
        return digest.hex()
    }

    /// Stops the writer thread without waiting for queued records (the transaction is rolled back anyway).
    /// Safe to call after `finish`, and more than once.
    func abort() {
        channel.close(failure: ChannelClosed())
        join()
    }

    /// Waits for the writer thread once; later calls return at once.
    private func join() {
        guard !joined, started else { return }
        done.wait()
        joined = true
    }

    private func send() throws {
        guard !batch.isEmpty else { return }
        if !started {
            started = true
            let thread = Thread { [self] in drain() }
            thread.name = "ownerdash-raw-writer"
            thread.start()
        }
        try channel.put(batch)
        batch.removeAll(keepingCapacity: true)
    }

    private func drain() {
        defer { done.signal() }
        do {
            while let next = try channel.take() {
                for record in next { try writer.insert(record) }
            }
        } catch is ChannelClosed {
            // Aborted by the caller: nothing to report.
        } catch {
            writeError = error
            channel.close(failure: error)
        }
    }
}
