import Foundation

/// The `ownerdash` executable built beside this test bundle.
public var ownerdashBinary: URL {
    let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
        let url = candidate.appendingPathComponent("ownerdash")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return bundleDirectory.appendingPathComponent("ownerdash")
}

/// What one run of the `ownerdash` binary printed and how it exited.
public struct CommandResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    /// The run id from the first stdout line (`run <id>`).
    public var runID: String? {
        stdoutLines.first.flatMap { $0.hasPrefix("run ") ? String($0.dropFirst(4)) : nil }
    }
}

/// An `ownerdash` process started in the background from the repository root, with only the given variables (plus
/// PATH), so the developer's own tokens never reach a test; its output goes to files (no pipe to fill and block it).
public final class RunningCommand {
    private let process = Process()
    private let stdoutFile: URL
    private let stderrFile: URL

    /// Starts `ownerdash ARGUMENTS`; its output files go to `directory`.
    public init(_ arguments: [String], environment: [String: String], in directory: URL) throws {
        guard FileManager.default.isExecutableFile(atPath: ownerdashBinary.path) else {
            throw SupportError("\(ownerdashBinary.path) is missing: build the package (swift build) before the tests")
        }
        process.executableURL = ownerdashBinary
        process.arguments = arguments
        var variables = environment
        variables["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = variables
        process.currentDirectoryURL = repositoryRoot
        let id = UUID().uuidString
        stdoutFile = directory.appendingPathComponent("out-\(id)")
        stderrFile = directory.appendingPathComponent("err-\(id)")
        _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    /// Why it ended (a signal, for one killed).
    public var terminationReason: Process.TerminationReason { process.terminationReason }

    /// Waits for the exit and returns what it printed.
    public func wait() throws -> CommandResult {
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: stdoutFile); try? FileManager.default.removeItem(at: stderrFile) }
        return CommandResult(status: process.terminationStatus,
                             stdout: String(decoding: try Data(contentsOf: stdoutFile), as: UTF8.self),
                             stderr: String(decoding: try Data(contentsOf: stderrFile), as: UTF8.self))
    }

    /// Waits up to `seconds` for the process to end; true when it did.
    public func ended(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return !process.isRunning
    }

    /// SIGKILL, as a crash or an operator's `kill -9` would end it.
    public func killHard() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Runs `ownerdash ARGUMENTS` to its end.
    public static func run(_ arguments: [String], environment: [String: String], in directory: URL) throws -> CommandResult {
        try RunningCommand(arguments, environment: environment, in: directory).wait()
    }
}
