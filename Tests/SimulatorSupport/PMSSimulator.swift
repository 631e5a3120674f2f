import Foundation
import OwnerDashCore

/// The repository root, from this file's location (Tests/SimulatorSupport/PMSSimulator.swift).
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A test harness failure: the simulator or the binary could not be run, or said something unexpected.
public struct SupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The first line a child process writes to `pipe` (what a server prints once it listens), without its newline;
/// what there was when the child closed the pipe first.
public func firstLine(of pipe: Pipe) -> String {
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
        let chunk = pipe.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        line.append(chunk)
    }
    return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// pms_sim (scripts/pms_sim) on an ephemeral loopback port. It exits when this process closes its stdin
/// (`--exit-on-stdin-eof`), so a crashed test run leaves no server behind.
public final class PMSSimulator: @unchecked Sendable {
    /// The simulator's default property date, which every harness fetches as of.
    public static let defaultAsOf = "2026-11-20"

    private let process = Process()
    private let input = Pipe()
    /// `http://127.0.0.1:<port>`.
    public let base: String
    /// Where it wrote truth.json and its state (removed with this harness).
    public var directory: URL { scratch.url }
    private let scratch: ScratchDirectory
    /// The truth file written before it started listening (facts computed from its world, not from served bytes).
    public var truthPath: String { directory.appendingPathComponent("truth.json").path }

    /// Seed 7 and the given property date; `flags` add faults (`--fail-property`, `--fault-429-rate`, ...); `config`
    /// serves another registry than the repository's; `ledgerTruth` writes the ledger's truth too (slower start).
    public init(flags: [String] = [], asOf: String = defaultAsOf, config: URL? = nil, ledgerTruth: Bool = false) throws {
        let scratch = try ScratchDirectory(prefix: "pms_sim")
        self.scratch = scratch
        ScratchDirectory.removeAtExit(scratch.url)   // a shared simulator is a static, never deinitialized
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("scripts/pms_sim").path,
                             "--port", "0", "--seed", "7", "--as-of", asOf, "--dir", scratch.url.path,
                             "--exit-on-stdin-eof"] + (config.map { ["--config", $0.path] } ?? []) + (ledgerTruth ? [] : ["--no-ledger-truth"])
            + flags
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        let text = firstLine(of: output)
        guard text.hasPrefix("listening on ") else { throw SupportError("the simulator did not start (stdout: \"\(text)\")") }
        base = String(text.dropFirst("listening on ".count))
    }

    deinit { stop() }

    /// Closes its stdin and waits for it to exit; killed after 10 s. A child another test started at the same moment
    /// can hold a copy of the stdin pipe's write end, so the simulator never reads end of file: a run once hung at
    /// exit, this deinit waiting for a simulator that waited for the shared one, which lives until the run ends.
    public func stop() {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    public var reportsURL: String { base + "/realpage/reports/v1" }
    public var rpxURL: String { base + "/realpage/rpx/partner/OwnerDash/OwnerDash.svc" }
    public var yardiURL: String { base + "/yardi/webservices" }

    /// The endpoints and the simulator's credentials (the names of docs/contracts.md, "Configuration and secrets"),
    /// nothing from the developer's shell. A `token` is given as REALPAGE_TOKEN (tests then look for it in outputs);
    /// without one, REALPAGE_TOKEN_COMMAND asks the simulator for one, as a scheduled ingest would.
    public func environment(token: String? = nil) -> [String: String] {
        var variables = [
            "OWNERDASH_REALPAGE_REPORTS_URL": reportsURL,
            "OWNERDASH_REALPAGE_RPX_URL": rpxURL,
            "OWNERDASH_YARDI_URL": yardiURL,
            "REALPAGE_RPX_LICENSE_KEY": "sim-rpx-license-key",
            "YARDI_USERNAME": "simuser", "YARDI_PASSWORD": "simpass", "YARDI_SERVER_NAME": "sim_sql",
            "YARDI_DATABASE": "sim_voyager", "YARDI_INTERFACE_ENTITY": "OwnerDash",
            "YARDI_INTERFACE_LICENSE": "sim-yardi-license",
        ]
        if let token {
            variables["REALPAGE_TOKEN"] = token
        } else {
            variables["REALPAGE_TOKEN_COMMAND"] = "python3 \(repositoryRoot.appendingPathComponent("scripts/pms_sim").path) token"
        }
        return variables
    }

    /// The properties showing a vendor quirk (truth.json `quirks`, scripts/pms_sim/quirks.py).
    public func quirks(_ quirk: String) throws -> [String] {
        (try truthRoot()["quirks"] as? [String: Any])?[quirk] as? [String] ?? []
    }

    /// The simulator's ground truth for a property (scripts/pms_sim/truth.py says how each number is made).
    public func truth(_ property: String) throws -> [String: Any] {
        guard let properties = try truthRoot()["properties"] as? [String: Any],
              let truth = properties[property] as? [String: Any] else {
            throw SupportError("truth.json has no property \(property)")
        }
        return truth
    }

    /// Moves the property date `days` forward with the clock's churn (`POST /_sim/advance`, scripts/pms_sim/clock.py),
    /// as a year of nights does; returns the new property date.
    @discardableResult
    public func advance(days: Int) throws -> String {
        let post = Process()
        post.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        post.arguments = ["python3", "-c", """
            import json, sys, urllib.request
            answer = urllib.request.urlopen(urllib.request.Request(sys.argv[1], data=b"", method="POST"), timeout=600)
            print(json.load(answer)["as_of"])
            """, "\(base)/_sim/advance?days=\(days)"]
        let output = Pipe()
        post.standardOutput = output
        try post.run()
        let asOf = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        post.waitUntilExit()
        guard post.terminationStatus == 0, LocalDate(iso: asOf) != nil else {
            throw SupportError("the simulator did not advance \(days) days (exit \(post.terminationStatus), \"\(asOf)\")")
        }
        return asOf
    }

    private func truthRoot() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: truthPath))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The simulator's report catalogue (`python3 scripts/pms_sim catalogue`: the report ids it serves and their
    /// stand-in keys), as the JSON overlay `ReportCatalogueOverlay` lays over a registry; `with` adds the optional
    /// reports it names (`leasing_activity_detail`).
    public static func catalogueOverlay(with optional: [String] = []) throws -> Data {
        let catalogue = Process()
        catalogue.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        catalogue.arguments = ["python3", repositoryRoot.appendingPathComponent("scripts/pms_sim").path, "catalogue"]
            + optional.flatMap { ["--with", $0] }
        let output = Pipe()
        catalogue.standardOutput = output
        try catalogue.run()
        let overlay = output.fileHandleForReading.readDataToEndOfFile()
        catalogue.waitUntilExit()
        guard catalogue.terminationStatus == 0 else { throw SupportError("pms_sim catalogue exited \(catalogue.terminationStatus)") }
        return overlay
    }
}

/// The repository's report_definitions.json with the simulator's report catalogue laid over it, written once per
/// test process: the `--config` every harness passes to the binary.
public let simulatorConfigPath: String = simulatorConfig()

/// The repository's report_definitions.json with the simulator's catalogue, plus the optional reports named, laid
/// over it: a new file's path.
public func simulatorConfig(with optional: [String] = []) -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pms_sim-config-\(UUID().uuidString)")
    ScratchDirectory.removeAtExit(directory)   // tests hold the path for the whole process
    let overlay = directory.appendingPathComponent("report_catalogue.json")
    let config = directory.appendingPathComponent("report_definitions.json")
    do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try PMSSimulator.catalogueOverlay(with: optional).write(to: overlay)
        try ReportCatalogueOverlay.write(configPath: repositoryRoot.appendingPathComponent("report_definitions.json").path,
                                         overlayPath: overlay.path, to: config.path)
    } catch {
        fatalError("cannot write the simulator's configuration: \(error)")
    }
    return config.path
}
