import Foundation
import OwnerDashCore
import SQLiteKit
import Testing

/// The repository root, from this file's location.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The `ownerdash` executable built beside this test bundle.
var ownerdashBinary: URL {
    let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
        let url = candidate.appendingPathComponent("ownerdash")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return bundleDirectory.appendingPathComponent("ownerdash")
}

/// pms_sim on an ephemeral loopback port (seed 7, property date 2026-11-20) with `ridian` failing every request;
/// it exits when this process closes its stdin, so a crashed test run leaves no server behind.
final class Simulator: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    let base: String
    /// The truth file the simulator wrote at start-up (facts computed from its world, not from served bytes).
    let truthPath: String

    /// Started once per test process.
    static let shared = Result { try Simulator() }
    static let asOf = "2026-11-20"

    private init() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        truthPath = directory.appendingPathComponent("truth.json").path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("scripts/pms_sim").path, "--port", "0",
                             "--seed", "7", "--as-of", Self.asOf, "--dir", directory.path, "--no-ledger-truth",
                             "--exit-on-stdin-eof", "--fail-property", "ridian"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("listening on ") else { throw HarnessError("the simulator did not start: \"\(text)\"") }
        base = String(text.dropFirst("listening on ".count))
        // pms_sim builds its OneSite layouts on the first report without a lock: one report alone first.
        let warmup = try DataDir()
        _ = try warmup.ownerdash(["fetch", "--property", "nexus_east", "--reports", "box_score", "--as-of", Self.asOf,
                                  "--parallel", "1", "--quiet"], environment: environment)
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The endpoints and the simulator's credentials (the names of docs/contracts.md, "Configuration and secrets"),
    /// nothing from the developer's shell.
    var environment: [String: String] {
        [
            "OWNERDASH_REALPAGE_REPORTS_URL": base + "/realpage/reports/v1",
            "OWNERDASH_REALPAGE_RPX_URL": base + "/realpage/rpx/partner/OwnerDash/OwnerDash.svc",
            "OWNERDASH_YARDI_URL": base + "/yardi/webservices",
            "REALPAGE_TOKEN": "sim-token-ingest-tests",
            "REALPAGE_RPX_LICENSE_KEY": "sim-rpx-license-key",
            "YARDI_USERNAME": "simuser", "YARDI_PASSWORD": "simpass", "YARDI_SERVER_NAME": "sim_sql",
            "YARDI_DATABASE": "sim_voyager", "YARDI_INTERFACE_ENTITY": "OwnerDash",
            "YARDI_INTERFACE_LICENSE": "sim-yardi-license",
        ]
    }
}

/// A loopback server that accepts connections and never answers: an ingest pointed at it holds its lock,
/// stuck in its first download, until the test kills it.
final class SilentServer: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    let port: String

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import socket, sys, threading
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(64)
            print(s.getsockname()[1], flush=True)
            held = []
            def serve():
                while True:
                    held.append(s.accept()[0])
            threading.Thread(target=serve, daemon=True).start()
            sys.stdin.read()
            """]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        port = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard Int(port) != nil else { throw HarnessError("the silent server did not start: \"\(port)\"") }
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Enough for an ingest of RealPage reports to get as far as its first download.
    var environment: [String: String] {
        ["OWNERDASH_REALPAGE_REPORTS_URL": "http://127.0.0.1:\(port)/realpage/reports/v1", "REALPAGE_TOKEN": "silent-token"]
    }
}

/// What one run of the `ownerdash` binary printed and how it exited.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String

    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    /// The run id from the first stdout line (`run <id>`).
    var runID: String? {
        stdoutLines.first.flatMap { $0.hasPrefix("run ") ? String($0.dropFirst(4)) : nil }
    }
}

/// An `ownerdash` process started in the background, its output going to files.
final class RunningCommand {
    let process = Process()
    let stdoutFile: URL
    let stderrFile: URL

    init(_ arguments: [String], environment: [String: String], in directory: URL) throws {
        process.executableURL = ownerdashBinary
        guard FileManager.default.isExecutableFile(atPath: ownerdashBinary.path) else {
            throw HarnessError("\(ownerdashBinary.path) is missing: build the package (swift build) before the tests")
        }
        process.arguments = arguments
        var env = environment
        env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = env
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

    var pid: Int32 { process.processIdentifier }

    /// Waits for the exit and returns what it printed.
    func wait() throws -> CommandResult {
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus,
                             stdout: String(decoding: try Data(contentsOf: stdoutFile), as: UTF8.self),
                             stderr: String(decoding: try Data(contentsOf: stderrFile), as: UTF8.self))
    }

    /// Waits up to `seconds` for the process to end; true when it did.
    func ended(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return !process.isRunning
    }

    func killHard() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// A temporary directory with a data directory in it, and the built binary to run against it.
struct DataDir {
    let root: URL
    var data: DataDirectory { DataDirectory(root: root.appendingPathComponent("data").path) }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// `ownerdash ARGS --data-dir <tmp>/data --config CONFIG`, with only the given variables (plus PATH), so the
    /// developer's own tokens never reach a test; CONFIG = the repository's registry with the simulator's report
    /// catalogue laid over it (`simulatorConfigPath`).
    func ownerdash(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try start(arguments, environment: environment).wait()
    }

    /// The same, in the background.
    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> RunningCommand {
        try RunningCommand(arguments + ["--data-dir", data.root, "--config", simulatorConfigPath],
                           environment: environment, in: root)
    }

    /// unified.db, read-only.
    func unified() throws -> Database { try Database(path: data.unifiedDatabase, mode: .readOnly) }

    /// The run's etl_runs row as column -> value.
    func runRow(_ runID: String) throws -> [String: SQLValue] {
        let statement = try unified().prepare("SELECT * FROM etl_runs WHERE run_id = :run")
        var row: [String: SQLValue] = [:]
        try statement.forEachRow([":run": .text(runID)]) { statement in
            for index in 0..<statement.columnCount { row[statement.columnName(index)] = statement.value(at: index) }
        }
        return row
    }

    /// The run's etl_run_items rows as column -> value, in the order recorded.
    func items(_ runID: String) throws -> [[String: SQLValue]] {
        let statement = try unified().prepare("SELECT * FROM etl_run_items WHERE run_id = :run ORDER BY id")
        var rows: [[String: SQLValue]] = []
        try statement.forEachRow([":run": .text(runID)]) { statement in
            var row: [String: SQLValue] = [:]
            for index in 0..<statement.columnCount { row[statement.columnName(index)] = statement.value(at: index) }
            rows.append(row)
        }
        return rows
    }

    /// The landing zone's run directories (not its shared `objects` and `.staging` folders).
    func landedRuns() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: data.landing)) ?? [])
            .filter { $0 != "objects" && $0 != ".staging" }.sorted()
    }

    /// The lock file's holder, once it names a holder with this pid (an ingest writes it just after it locks).
    func waitForLockHolder(pid: Int32, seconds: Double = 20) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let data = FileManager.default.contents(atPath: data.path("ingest.lock")),
               let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
               (object["pid"] as? Int).map(Int32.init) == pid {
                return object
            }
            usleep(20_000)
        }
        return nil
    }
}

extension Dictionary where Key == String, Value == SQLValue {
    func text(_ column: String) -> String? { self[column]?.textValue }
    func int(_ column: String) -> Int? { self[column]?.integerValue.map(Int.init) }
}

/// The repository's report_definitions.json with the simulator's report catalogue (`python3 scripts/pms_sim
/// catalogue`: the report ids it serves and their stand-in keys) laid over it, written once per test process.
let simulatorConfigPath: String = {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pms_sim-config-\(UUID().uuidString)")
    let overlay = directory.appendingPathComponent("report_catalogue.json")
    let config = directory.appendingPathComponent("report_definitions.json")
    do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("scripts/pms_sim").path, "catalogue"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try data.write(to: overlay)
        try ReportCatalogueOverlay.write(configPath: repositoryRoot.appendingPathComponent("report_definitions.json").path,
                                         overlayPath: overlay.path, to: config.path)
    } catch {
        fatalError("cannot write the simulator's configuration: \(error)")
    }
    return config.path
}()
