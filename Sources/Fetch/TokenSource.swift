import CurlKit
import Foundation
import OwnerDashCore

/// A missing, unreadable or refused credential; the message names the variable to set, never the secret.
public struct CredentialError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The RealPage bearer token: `REALPAGE_TOKEN`, or the stdout of `REALPAGE_TOKEN_COMMAND`, refreshable.
///
/// When both are set the token variable is used first and the command supplies fresh ones.
/// Every token seen is kept in `redactor`, so an old token cannot leak through a late error either.
public final class TokenSource: Sendable {
    /// Where tokens come from.
    public enum Origin: Sendable, Equatable {
        case fixed(String)
        case command(String)
        case fixedThenCommand(String, command: String)
    }

    public static let tokenVariable = "REALPAGE_TOKEN"
    public static let commandVariable = "REALPAGE_TOKEN_COMMAND"

    private let origin: Origin
    private let commandTimeout: Double
    private let state = Locked<(current: String?, seen: [String])>((nil, []))

    public init(origin: Origin, commandTimeout: Double = 60) {
        self.origin = origin
        self.commandTimeout = commandTimeout
    }

    /// Reads the two variables; neither set is a configuration error naming both.
    public convenience init(environment: [String: String]) throws {
        let token = environment[Self.tokenVariable].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let command = environment[Self.commandVariable].map { $0.trimmingCharacters(in: .whitespaces) }
        switch (token, command) {
        case let (token?, command?) where !token.isEmpty && !command.isEmpty:
            self.init(origin: .fixedThenCommand(token, command: command))
        case let (token?, _) where !token.isEmpty:
            self.init(origin: .fixed(token))
        case let (_, command?) where !command.isEmpty:
            self.init(origin: .command(command))
        default:
            throw CredentialError("no RealPage token: set \(Self.tokenVariable) or \(Self.commandVariable) (a command that prints one)")
        }
    }

    /// The current token, obtained on first use.
    public func token() throws -> String {
        try state.withLock { state in
            if let current = state.current { return current }
            let first: String
            switch origin {
            case .fixed(let token), .fixedThenCommand(let token, _): first = token
            case .command(let command): first = try Self.run(command, timeout: commandTimeout)
            }
            state.current = first
            state.seen.append(first)
            return first
        }
    }

    /// A token to use after `stale` was refused. If another thread already replaced `stale`, its
    /// replacement is returned without asking again, so one expiry costs one refresh for all threads.
    /// Without a command the same token comes back: the caller's retry then fails with a clear message.
    public func refresh(replacing stale: String) throws -> String {
        try state.withLock { state in
            if let current = state.current, current != stale { return current }
            let fresh: String
            switch origin {
            case .fixed(let token): fresh = token
            case .command(let command), .fixedThenCommand(_, let command): fresh = try Self.run(command, timeout: commandTimeout)
            }
            state.current = fresh
            if !state.seen.contains(fresh) { state.seen.append(fresh) }
            return fresh
        }
    }

    /// Replaces every token seen so far with `***`.
    public var redactor: Redactor {
        Redactor(secrets: state.withLock { $0.seen })
    }

    /// The directory the command is started in: nil (this process's) when this user may enter it, else `/`. An
    /// operator typing `sudo -u ownerdash ownerdash doctor` in their home directory leaves the service user in a
    /// directory it may not enter, and the command could not be started there at all ("You don't have permission").
    static func workingDirectory(current: String = FileManager.default.currentDirectoryPath) -> URL? {
        access(current, X_OK) == 0 ? nil : URL(fileURLWithPath: "/")
    }

    /// Runs the command through `/bin/sh -c`; its stdout, trimmed, is the token. Its stderr is read and dropped:
    /// a failing credential helper may print the secret it was handling, and its lines would break `--log-format
    /// json`. A failure is summarized in one line (exit status, how much it wrote), never with its output.
    static func run(_ command: String, timeout: Double) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        process.currentDirectoryURL = workingDirectory()
        do {
            try process.run()
        } catch {
            throw CredentialError("\(commandVariable) could not be started: \(error.localizedDescription)")
        }
        // Read both pipes before waiting: a command that prints more than a pipe buffer would block otherwise.
        let reader = Locked(Data()), errorBytes = Locked(Data())
        let done = DispatchSemaphore(value: 0)
        for (pipe, sink) in [(output, reader), (errors, errorBytes)] {
            Thread {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                sink.withLock { $0 = data }
                done.signal()
            }.start()
        }
        let deadline = DispatchTime.now() + timeout
        if done.wait(timeout: deadline) == .timedOut || done.wait(timeout: deadline) == .timedOut {
            process.terminate()
            throw CredentialError("\(commandVariable) did not finish within \(Int(timeout)) s")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let written = errorBytes.withLock { $0 }
            let said = written.isEmpty ? "" : "; its error output (\(written.count) bytes) is not shown, it may hold a secret: run the command yourself to read it"
            throw CredentialError("\(commandVariable) failed with exit status \(process.terminationStatus)\(said)")
        }
        let text = String(decoding: reader.withLock { $0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw CredentialError("\(commandVariable) printed no token") }
        guard !text.contains(where: \.isNewline) else {
            // A multi-line answer is most likely a message, not a token; do not echo it (it may hold the token).
            throw CredentialError("\(commandVariable) printed more than one line; it must print only the token")
        }
        return text
    }
}
