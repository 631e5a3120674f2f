#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Something that yields an entry's inflated bytes in order: `ZipEntryReader`, or its prefetching wrapper.
public protocol EntryByteStream: AnyObject {
    /// The entry being read.
    var entry: ZipEntry { get }
    /// Fills `buffer` with the next bytes; 0 only at the end of the entry, after its checks passed.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension ZipEntryReader: EntryByteStream {}

/// Inflates an entry on a background thread a few chunks ahead of the reader, so that inflating and
/// parsing a big worksheet overlap on two cores. Reads, errors and the CRC check behave as `ZipEntryReader`'s.
public final class PrefetchingEntryReader: EntryByteStream {
    public let entry: ZipEntry
    private let pipeline: Pipeline
    private var thread: pthread_t
    private var current: Pipeline.Chunk?
    private var offset = 0

    /// Starts inflating `reader` ahead into `depth` buffers of `chunkSize` bytes.
    public init(_ reader: ZipEntryReader, chunkSize: Int = 256 << 10, depth: Int = 4) throws {
        entry = reader.entry
        pipeline = Pipeline(reader: reader, chunkSize: chunkSize, depth: depth)
        let context = Unmanaged.passRetained(pipeline).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t? = nil
        #endif
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let pipeline = Unmanaged<Pipeline>.fromOpaque(context).takeRetainedValue()
            pipeline.produce()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Pipeline>.fromOpaque(context).release()
            throw ZipError.readFailed(reason: "cannot start the inflating thread (error \(status))")
        }
        #if canImport(Glibc)
        self.thread = thread
        #else
        guard let thread else { throw ZipError.readFailed(reason: "cannot start the inflating thread") }
        self.thread = thread
        #endif
    }

    deinit {
        pipeline.cancel()
        pthread_join(thread, nil)
    }

    /// Entries at least this big (uncompressed, as the archive declares) are inflated ahead on a thread of their own.
    public static let threshold: UInt64 = 1 << 20

    /// `reader`'s bytes, inflated ahead on a second thread when its entry is at least `threshold` bytes, else on the
    /// reader's own: a thread and its four 256 KiB buffers cost a small part more than the overlap gives back, and a
    /// night's report workbooks are 340 such parts of 12 KB (the median; the largest 350 KB), each of which started
    /// and joined a thread. A size the archive understates only leaves that entry unprefetched: the reader still
    /// checks what it inflates against the entry's declared size and CRC.
    public static func stream(_ reader: ZipEntryReader) throws -> any EntryByteStream {
        reader.entry.uncompressedSize >= threshold ? try PrefetchingEntryReader(reader) : reader
    }

    /// Fills `buffer` with the next inflated bytes; 0 only at the end of the entry (after the CRC check).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard buffer.count > 0, let destination = buffer.baseAddress else { return 0 }
        var filled = 0
        while filled < buffer.count {
            if current == nil || offset == current?.count {
                current = try pipeline.next(returning: current)
                offset = 0
                guard current != nil else { break }
            }
            guard let chunk = current, let source = chunk.buffer.baseAddress else { break }
            let n = min(buffer.count - filled, chunk.count - offset)
            (destination + filled).copyMemory(from: source + offset, byteCount: n)
            offset += n
            filled += n
        }
        return filled
    }
}

/// The buffers and state shared by the inflating thread and the reader, guarded by one mutex.
private final class Pipeline: @unchecked Sendable {
    // @unchecked: every mutable field is touched only while `mutex` is held, except `reader`,
    // which only the inflating thread uses after init.
    struct Chunk {
        var buffer: UnsafeMutableRawBufferPointer
        var count: Int
    }

    private let reader: ZipEntryReader
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var free: [UnsafeMutableRawBufferPointer] = []
    private var ready: [Chunk] = []
    private var readyStart = 0
    private var finished = false
    private var cancelled = false
    private var failure: (any Error)?
    private var all: [UnsafeMutableRawBufferPointer] = []

    init(reader: ZipEntryReader, chunkSize: Int, depth: Int) {
        self.reader = reader
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
        for _ in 0..<max(depth, 2) {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 4096), alignment: 64)
            free.append(buffer)
            all.append(buffer)
        }
    }

    deinit {
        for buffer in all { buffer.deallocate() }
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    /// The inflating thread's loop: fill a free buffer, hand it over, until the end, an error or cancellation.
    func produce() {
        pthread_mutex_lock(mutex)
        while true {
            while free.isEmpty && !cancelled { pthread_cond_wait(changed, mutex) }
            if cancelled { break }
            let buffer = free.removeLast()
            pthread_mutex_unlock(mutex)
            let result: Result<Int, any Error> = Result { try reader.read(into: buffer) }
            pthread_mutex_lock(mutex)
            switch result {
            case .success(let n) where n > 0:
                ready.append(Chunk(buffer: buffer, count: n))
            case .success:
                free.append(buffer)
                finished = true
            case .failure(let error):
                free.append(buffer)
                failure = error
                finished = true
            }
            pthread_cond_broadcast(changed)
            if finished { break }
        }
        pthread_mutex_unlock(mutex)
    }

    /// Gives back the chunk the reader is done with and waits for the next; nil at the end.
    func next(returning used: Chunk?) throws -> Chunk? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let used {
            free.append(used.buffer)
            pthread_cond_broadcast(changed)
        }
        while readyStart == ready.count && !finished { pthread_cond_wait(changed, mutex) }
        if readyStart < ready.count {
            let chunk = ready[readyStart]
            readyStart += 1
            if readyStart == ready.count {
                ready.removeAll(keepingCapacity: true)
                readyStart = 0
            }
            return chunk
        }
        if let failure { throw failure }
        return nil
    }

    func cancel() {
        pthread_mutex_lock(mutex)
        cancelled = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}
