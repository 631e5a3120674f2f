import Foundation
import OwnerDashCore
import SQLiteKit
import SimulatorSupport
import Testing

extension PMSSimulator {
    /// pms_sim (seed 7, property date 2026-11-20) with `ridian` failing every request, started once per test process.
    static let shared = Result { try PMSSimulator(flags: ["--fail-property", "ridian"]) }
    static let asOf = PMSSimulator.defaultAsOf

    /// The endpoints and the simulator's credentials with a fixed token the tests look for in outputs.
    var environment: [String: String] { environment(token: "sim-token-ingest-tests") }
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
        port = firstLine(of: output)
        guard Int(port) != nil else { throw SupportError("the silent server did not start: \"\(port)\"") }
    }

    deinit {
        // Ended by a signal, not by closing its stdin alone: a process started meanwhile by another test (the shared
        // simulator, a PostgreSQL server) can hold the pipe's other end open for as long as it lives, and waiting for
        // the end of the input then hung the test process.
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Enough for an ingest of RealPage reports to get as far as its first download.
    var environment: [String: String] {
        ["OWNERDASH_REALPAGE_REPORTS_URL": "http://127.0.0.1:\(port)/realpage/reports/v1", "REALPAGE_TOKEN": "silent-token"]
    }
}

/// A temporary directory with a data directory in it, and the built binary to run against it.
struct DataDir {
    private let scratch: ScratchDirectory
    var root: URL { scratch.url }
    var data: DataDirectory { DataDirectory(root: root.appendingPathComponent("data").path) }

    init() throws {
        scratch = try ScratchDirectory(prefix: "ingest")
    }

    /// `ownerdash ARGS --data-dir <tmp>/data --config CONFIG`, with only the given variables (plus PATH), so the
    /// developer's own tokens never reach a test; CONFIG = the repository's registry with the simulator's report
    /// catalogue laid over it (`simulatorConfigPath`).
    func ownerdash(_ arguments: [String], environment: [String: String] = [:],
                   config: String = simulatorConfigPath) throws -> CommandResult {
        try start(arguments, environment: environment, config: config).wait()
    }

    /// The same, in the background.
    func start(_ arguments: [String], environment: [String: String] = [:],
               config: String = simulatorConfigPath) throws -> RunningCommand {
        try RunningCommand(arguments + ["--data-dir", data.root, "--config", config],
                           environment: environment, in: root)
    }

    /// unified.db, read-only.
    func unified() throws -> Database { try Database(path: data.unifiedDatabase, mode: .readOnly) }

    /// A fresh data directory holding copies of this one's raw databases (no unified.db yet): what a full sync of the
    /// same raw data starts from.
    func rawCopy() throws -> DataDir {
        let copy = try DataDir()
        try copy.data.create()
        for path in [data.realpageRawDatabase, data.yardiRawDatabase] {
            let target = path.replacingOccurrences(of: data.root, with: copy.data.root)
            try Database(path: path, mode: .readOnly).execute("VACUUM INTO '\(target)'")
        }
        return copy
    }

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
