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
    /// Writes `text` to `path`, replacing what was there once it is written whole.
    public static func write(_ text: String, to path: String) throws(ResultFileError) {
        let partial = path + ".partial-\(getpid())"
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ResultFileError(path: path, reason: Self.reason(errno), kind: .cannotCreate) }
        var failure: Int32?
        var text = text
        text.withUTF8 { raw in
            var offset = 0
            while offset < raw.count, failure == nil, let base = raw.baseAddress {
                let written = Glibc.write(descriptor, base + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { failure = written < 0 ? errno : EIO } else { offset += written }
            }
        }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(partial, path) != 0 { failure = errno }
        if let failure {
            unlink(partial)
            throw ResultFileError(path: path, reason: Self.reason(failure), kind: .cutShort)
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
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
