import CurlKit
import Foundation
import ZipKit
import OwnerDashCore
import Testing

/// The repository root, from this file's location.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The pms_sim simulator on an ephemeral loopback port; it exits when this process closes its stdin
/// (`--exit-on-stdin-eof`), so a crashed test run leaves no server behind.
final class Simulator: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    let base: String
    let directory: URL

    /// Fault-free, seed 7, property date 2026-11-20 (the simulator's default).
    static let clean = Result { try Simulator(flags: []) }
    /// Random 429s (Retry-After 0) and 503s, and `ridian` failing on every request.
    static let faulty = Result {
        try Simulator(flags: ["--fault-429-rate", "0.08", "--retry-after", "0", "--fault-5xx-rate", "0.08",
                              "--fail-property", "ridian"])
    }

    init(flags: [String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pms_sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("scripts/pms_sim").path,
                             "--port", "0", "--seed", "7", "--dir", directory.path, "--no-ledger-truth",
                             "--exit-on-stdin-eof"] + flags
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
        guard text.hasPrefix("listening on ") else {
            throw HarnessError("the simulator did not start (stdout: \"\(text)\")")
        }
        base = String(text.dropFirst("listening on ".count))
        // pms_sim loads its OneSite layout module on the first report it builds, without a lock: requests
        // racing that first load get the built-in layouts instead. One report first, alone, avoids the race.
        _ = try? Workspace().ownerdash(["fetch", "--property", "nexus_east", "--reports", "box_score", "--as-of", "2026-11-20",
                                        "--parallel", "1", "--quiet"],
                                       environment: ["OWNERDASH_REALPAGE_REPORTS_URL": reportsURL, "REALPAGE_TOKEN": freshToken()])
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    var reportsURL: String { base + "/realpage/reports/v1" }

    /// The properties showing a vendor quirk (truth.json `quirks`, scripts/pms_sim/quirks.py).
    func quirks(_ quirk: String) throws -> [String] {
        let data = try Data(contentsOf: directory.appendingPathComponent("truth.json"))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (root?["quirks"] as? [String: Any])?[quirk] as? [String] ?? []
    }

    /// The simulator's ground truth for a property (truth.json, written before it started listening).
    func truth(_ property: String) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent("truth.json"))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard let properties = root?["properties"] as? [String: Any], let truth = properties[property] as? [String: Any] else {
            throw HarnessError("no truth for \(property)")
        }
        return truth
    }

    /// `GET /_sim/stats`: request and injected-fault counts.
    func faultCounts() throws -> [String: Int] {
        let response = try HTTPClient().send(HTTPRequest(url: base + "/_sim/stats"))
        let root = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return root?["faults"] as? [String: Int] ?? [:]
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
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

/// A temporary data directory and the built `ownerdash` binary to run against it.
struct Workspace {
    let root: URL
    var data: URL { root.appendingPathComponent("data") }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// The `ownerdash` executable built beside this test bundle.
    static var binary: URL {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("ownerdash")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundleDirectory.appendingPathComponent("ownerdash")
    }

    /// Runs `ownerdash ARGS --data-dir <tmp>/data --config CONFIG` with only the given variables (plus PATH), so
    /// the developer's own tokens never leak into a test. CONFIG: the repository's report_definitions.json with the
    /// simulator's report catalogue laid over it (`simulatorConfigPath`), unless `config` names another.
    func ownerdash(_ arguments: [String], environment: [String: String],
                   config: String = simulatorConfigPath) throws -> CommandResult {
        let process = Process()
        process.executableURL = Self.binary
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw HarnessError("\(Self.binary.path) is missing: build the package (swift build) before the tests")
        }
        process.arguments = arguments + ["--data-dir", data.path, "--config", config]
        var env = environment
        env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = env
        process.currentDirectoryURL = repositoryRoot
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain both pipes concurrently: a full stderr pipe would otherwise block the child.
        let errData = OnceBox<Data>()
        let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errData.isSet { Thread.sleep(forTimeInterval: 0.005) }
        return CommandResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData.value ?? Data(), as: UTF8.self))
    }

    func runDirectory(_ runID: String) -> URL { data.appendingPathComponent("landing/\(runID)") }

    /// The run's manifest.json, parsed as plain JSON (what an operator's script would see).
    func manifest(_ runID: String) throws -> (text: String, artifacts: [[String: Any]]) {
        let data = try Data(contentsOf: runDirectory(runID).appendingPathComponent("manifest.json"))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (String(decoding: data, as: UTF8.self), root?["artifacts"] as? [[String: Any]] ?? [])
    }

    /// The file a manifest artifact names and its bytes, after checking them against the manifest's sha256.
    func landedBytes(of artifact: [String: Any], in run: URL,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> (path: String, bytes: Data) {
        let path = try #require(artifact["path"] as? String, sourceLocation: sourceLocation)
        let object = try #require(artifact["object"] as? String, sourceLocation: sourceLocation)
        let file = run.deletingLastPathComponent().appendingPathComponent(object).path
        var bytes = Data()
        if object.hasSuffix(".z") {
            try DeflatedFile.inflate(file) { bytes.append(contentsOf: $0) }
        } else {
            bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        }
        var digest = SHA256()
        digest.update([UInt8](bytes))
        #expect(artifact["sha256"] as? String == digest.finalizeHex(), "\(path)", sourceLocation: sourceLocation)
        return (path, bytes)
    }

    /// The run directory's files (only its manifest, in the objects layout) and the artifacts its manifest says landed,
    /// each checked to have its object in the landing directory: what `files(under:)` gave in the old layout.
    func landedFiles(_ runID: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let run = runDirectory(runID)
        var result = files(under: run)
        for artifact in try manifest(runID).artifacts {
            guard let path = artifact["path"] as? String else { continue }
            let object = artifact["object"] as? String ?? ""
            #expect(FileManager.default.fileExists(atPath: run.deletingLastPathComponent().appendingPathComponent(object).path),
                    "\(path): its object \(object) is in the landing directory", sourceLocation: sourceLocation)
            result.append(path)
        }
        return result.sorted()
    }

    /// Every file under a directory, relative paths, sorted.
    func files(under url: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        var result: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.appendingPathComponent(path).path, isDirectory: &isDirectory),
               !isDirectory.boolValue {
                result.append(path)
            }
        }
        return result.sorted()
    }
}

/// A value written once by another thread.
final class OnceBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    func set(_ value: Value) { lock.lock(); stored = value; lock.unlock() }
    var value: Value? { lock.lock(); defer { lock.unlock() }; return stored }
    var isSet: Bool { value != nil }
}

/// A fresh simulator token (any `sim-token-` string is valid) that tests then look for in outputs.
func freshToken() -> String { "sim-token-test-\(UUID().uuidString.lowercased())" }

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

/// The reports the simulator's catalogue names (what a default fetch from it requests).
let allReports = ["box_score", "rent_roll", "delinquency", "activity", "monthly_summary", "lease_expiration",
                  "make_ready_summary", "closed_make_ready", "income_statement", "projected_occupancy",
                  "monthly_transaction_summary", "lost_rent_summary", "renewal_detail", "lease_details"]
