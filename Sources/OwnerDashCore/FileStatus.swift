import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file's size and modification time from one `stat(2)`. Foundation's `attributesOfItem` also names the file's
/// owner and group, reading /etc/passwd and /etc/group on every call: two files opened and parsed per staged download
/// of a night (1,700 opens), for a size.
public enum FileStatus {
    /// The size in bytes of the file at `path`; nil when it cannot be stat'ed.
    public static func size(atPath path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// When the file at `path` was last modified; nil when it cannot be stat'ed.
    public static func modified(atPath path: String) -> Date? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
    }
}
