import Foundation

/// Runs numbered work items on a fixed number of threads; returns when every item is done.
///
/// Threads rather than Swift tasks because each item blocks: in libcurl, in polling sleeps and token commands (the
/// fetch), in SQLite (a sync's rules): blocking the cooperative pool would starve it.
public enum WorkerPool {
    public static func run(items count: Int, width: Int, _ body: @escaping @Sendable (Int) -> Void) {
        run(items: count, width: width) { item, _ in body(item) }
    }

    /// The same, telling `body` which of the threads runs the item (`worker`, from 0): what one thread owns, such as a
    /// database connection, is then used by that thread alone without handing it around.
    public static func run(items count: Int, width: Int, _ body: @escaping @Sendable (_ item: Int, _ worker: Int) -> Void) {
        guard count > 0 else { return }
        let next = Locked(0)
        let group = DispatchGroup()
        for worker in 0..<max(1, min(width, count)) {
            group.enter()
            let thread = Thread {
                while true {
                    let index: Int = next.withLock { value in
                        defer { value += 1 }
                        return value
                    }
                    guard index < count else { break }
                    body(index, worker)
                }
                group.leave()
            }
            // Opening a workbook to inspect a download recurses through XML; the default secondary
            // thread stack (512 KiB on some platforms) is too tight for that.
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
    }
}
