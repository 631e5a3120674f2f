import Foundation

/// Runs one closure on its own thread while the caller does something else; `result()` waits for it.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `outcome` is written once by the worker before `done` is signalled and read only after.
    private var outcome: Result<Value, any Error>?
    private let done = DispatchSemaphore(value: 0)

    /// Work already done: `value`, without a thread.
    init(finished value: Value) {
        outcome = .success(value)
        done.signal()
    }

    init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            outcome = Result { try work() }
            done.signal()
        }
        thread.start()
    }

    /// The closure's value or error, once it has finished (callable more than once).
    func result() throws -> Value {
        done.wait()
        done.signal()
        guard let outcome else { preconditionFailure("BackgroundWork finished without an outcome") }
        return try outcome.get()
    }
}
