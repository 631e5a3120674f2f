#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A command's result written to the file `--out` names (a report's CSV or page, a dashboard page): whole or not at
/// all. The text goes to `PATH.partial-PID` beside it and is renamed into place, so a reader never finds half a file
/// under the name; a failed write leaves nothing.
///
/// Why it failed decides what the command says (docs/contracts.md, "Command line and exit codes"): a name that cannot
/// be created (no such directory, no permission) is the user's to fix before anything is done, `cannotCreate`; a
/// result cut short while being written (a full disk, a quota, an I/O error) is `cutShort`, a failure like stdout's.
/// Foundation's `String.write(toFile:atomically:)` said both in one localized sentence, and every command made it a
/// usage error (exit 1) whatever the reason.
public enum ResultFile {
    /// Writes `text` to `path`, replacing what was there once it is written whole (`ResultDestination`: a symbolic
    /// link's target is replaced, the link stays; a device or FIFO is written into).
    public static func write(_ text: String, to path: String) throws(ResultFileError) {
        let destination = ResultDestination(path)
        let file = destination.inPlace ? path : destination.partialPath
        let descriptor = open(file, destination.inPlace ? O_WRONLY | O_CLOEXEC : O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ResultFileError(path: path, reason: Self.reason(errno), kind: .cannotCreate) }
        var text = text
        var failure = text.withUTF8 { Self.writeAll($0, to: descriptor) }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, !destination.inPlace, rename(file, destination.target) != 0 { failure = errno }
        if let failure {
            if !destination.inPlace { unlink(file) }
            throw ResultFileError(path: path, reason: Self.reason(failure), kind: .cutShort)
        }
    }

    /// Copies the finished file `source` into `path`, an existing device or FIFO (`ResultDestination.inPlace`: a
    /// workbook written to `/dev/stdout`), and removes `source`.
    public static func copy(_ source: String, into path: String) throws(ResultFileError) {
        defer { unlink(source) }
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ResultFileError(path: path, reason: Self.reason(errno), kind: .cutShort) }
        defer { close(input) }
        let output = open(path, O_WRONLY | O_CLOEXEC)
        guard output >= 0 else { throw ResultFileError(path: path, reason: Self.reason(errno), kind: .cannotCreate) }
        var failure: Int32?
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while failure == nil {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { failure = errno }
            if count <= 0 { break }
            failure = chunk.withUnsafeBytes { Self.writeAll(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[0..<count]), to: output) }
        }
        if close(output) != 0, failure == nil { failure = errno }
        if let failure { throw ResultFileError(path: path, reason: Self.reason(failure), kind: .cutShort) }
    }

    /// Writes every byte of `bytes` to `descriptor` (again after EINTR); the error number of the write that failed
    /// (EIO for one that wrote nothing), nil when all went. Also `StandardOutput`'s.
    static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return written < 0 ? errno : EIO }
            offset += written
        }
        return nil
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// Where a result named `path` goes. A file (or no file yet) is replaced by renaming a finished file over it: through a
/// symbolic link, the link's target is what is replaced, so the link stays a link. An existing device or FIFO
/// (`--out /dev/stdout`, a named pipe) is written into: renaming over it would put a regular file in its place (as
/// root, in /dev) and leave its reader waiting.
public struct ResultDestination: Sendable {
    /// The name as given.
    public let path: String
    /// The file to replace: `path`, or the file its symbolic links lead to.
    public let target: String
    /// An existing file that is not a regular one: written into, not replaced.
    public let inPlace: Bool

    public init(_ path: String) {
        self.path = path
        var info = stat()
        guard stat(path, &info) == 0 else {
            (target, inPlace) = (path, false)
            return
        }
        inPlace = (info.st_mode & S_IFMT) != S_IFREG
        if !inPlace, let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        } else {
            target = path
        }
    }

    /// The finished file's name while it is written, beside the file it replaces.
    public var partialPath: String { target + ".partial-\(getpid())" }
}

/// Why a result file could not be written: `PATH: REASON`.
public struct ResultFileError: Error, CustomStringConvertible, Sendable {
    /// `cannotCreate`: the name cannot be made (nothing was written); `cutShort`: writing it failed part way.
    public enum Kind: Sendable { case cannotCreate, cutShort }

    public let path: String
    public let reason: String
    public let kind: Kind

    public init(path: String, reason: String, kind: Kind) {
        self.path = path
        self.reason = reason
        self.kind = kind
    }

    public var description: String { "\(path): \(reason)" }
}
