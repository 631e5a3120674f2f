import Foundation

/// A bounded queue of batches between one producing and one consuming thread.
///
/// The producer blocks while `capacity` batches wait; either side can close it, with an
/// error the other side then receives, so a failure on one thread stops the other.
final class BatchChannel<Element>: @unchecked Sendable {
    // @unchecked: `queue`, `closed` and `failure` are touched only while holding `condition`.
    private let condition = NSCondition()
    private var queue: [[Element]] = []
    private var closed = false
    private var failure: (any Error)?
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Hands over a batch, waiting for room; throws the consumer's error, or `ChannelClosed` once it has gone away.
    func put(_ batch: [Element]) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && !closed { condition.wait() }
        if let failure { throw failure }
        if closed { throw ChannelClosed() }
        queue.append(batch)
        condition.broadcast()
    }

    /// The next batch; nil once the producer closed the channel and everything was taken; throws the producer's error.
    func take() throws -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !closed { condition.wait() }
        if !queue.isEmpty {
            condition.broadcast()
            return queue.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Ends the stream: the producer when done (or failed), the consumer when it stops listening (or failed).
    func close(failure: (any Error)? = nil) {
        condition.lock()
        // The first error wins: it is the cause; later ones are consequences.
        if self.failure == nil { self.failure = failure }
        closed = true
        if failure != nil { queue.removeAll() }
        condition.broadcast()
        condition.unlock()
    }
}

/// The other side closed the channel without an error (it needs nothing more).
struct ChannelClosed: Error {}
