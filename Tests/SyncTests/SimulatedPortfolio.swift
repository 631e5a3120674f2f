import Foundation
import OwnerDashCore
import SQLiteKit

/// A small simulated portfolio (4 RealPage and 2 Yardi properties of the registry), served by pms_sim, fetched and
/// loaded by the built `ownerdash` binary once per test process; tests sync copies of its raw databases and compare
/// the unified answers with the simulator's ground truth.
///
/// The simulator seeds each property from its key, so a property generated here is the same building the full demo
/// portfolio holds.
final class SimulatedPortfolio: Sendable {
    /// Registry keys served and loaded.
    static let propertyKeys = ["nexus_east", "ridian", "edison_rino", "kalaco", "yp_riverwalk", "yp_cedar_bluff"]
    /// The simulator's property date, passed to fetch so every snapshot is as of it.
    static let asOf = "2026-11-20"

    /// Built on first use; every test of the process shares it (the fetch and load take a while in debug builds).
    static let shared = Result { try SimulatedPortfolio() }

    let root: URL
    let configuration: Configuration
    private let truthData: Data

    var configPath: String { root.appendingPathComponent("report_definitions.json").path }
    var loadedData: DataDirectory { DataDirectory(root: root.appendingPathComponent("data").path) }
    var properties: [Property] { configuration.properties }

    private init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("portfolio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Self.writeRegistry(to: root.appendingPathComponent("report_definitions.json"))
        configuration = try Configuration.load(path: root.appendingPathComponent("report_definitions.json").path)

        let simulator = try PortfolioSimulator(directory: root.appendingPathComponent("sim"),
                                               config: root.appendingPathComponent("report_definitions.json"))
        let environment = simulator.environment
        // The simulator builds its OneSite layouts on the first report without a lock: one report alone first.
        let data = root.appendingPathComponent("data").path, config = root.appendingPathComponent("report_definitions.json").path
        try Self.run(["fetch", "--property", "nexus_east", "--reports", "box_score", "--parallel", "1", "--quiet",
                      "--as-of", Self.asOf, "--data-dir", root.appendingPathComponent("warmup").path, "--config", config], environment)
        let fetch = try Self.run(["fetch", "--as-of", Self.asOf, "--parallel", "4", "--quiet", "--data-dir", data,
                                  "--config", config], environment)
        guard let runLine = fetch.split(separator: "\n").first, runLine.hasPrefix("run ") else {
            throw PortfolioError("fetch printed no run id: \(fetch.prefix(200))")
        }
        try Self.run(["load", "--run", String(runLine.dropFirst(4)), "--quiet", "--data-dir", data, "--config", config],
                     environment)
        truthData = try Data(contentsOf: root.appendingPathComponent("sim/truth.json"))
        simulator.stop()
    }

    /// The simulator's ground truth for one property (scripts/pms_sim/truth.py says how each number is made).
    func truth(_ key: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: truthData) as? [String: Any]
        guard let properties = object?["properties"] as? [String: Any], let truth = properties[key] as? [String: Any] else {
            throw PortfolioError("truth.json has no property \(key)")
        }
        return truth
    }

    /// The properties showing a vendor quirk (truth.json `quirks`, scripts/pms_sim/quirks.py).
    func quirks(_ quirk: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: truthData) as? [String: Any]
        return (object?["quirks"] as? [String: Any])?[quirk] as? [String] ?? []
    }

    /// A fresh data directory holding copies of the loaded raw databases, for one test to sync into.
    func copyOfLoadedData() throws -> DataDirectory {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("synced-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = DataDirectory(root: directory.path)
        for (from, to) in [(loadedData.realpageRawDatabase, copy.realpageRawDatabase),
                           (loadedData.yardiRawDatabase, copy.yardiRawDatabase)] {
            try FileManager.default.copyItem(atPath: from, toPath: to)
        }
        return copy
    }

    /// The repository's report_definitions.json with only `propertyKeys` in its registry and the simulator's report
    /// catalogue (`python3 scripts/pms_sim catalogue`: the ids it serves, with its stand-in keys) laid over it.
    private static func writeRegistry(to url: URL) throws {
        let source = repositoryRoot.appendingPathComponent("report_definitions.json")
        guard var object = try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any],
              let properties = object["properties"] as? [[String: Any]] else {
            throw PortfolioError("\(source.path): not a registry")
        }
        object["properties"] = properties.filter { propertyKeys.contains($0["key"] as? String ?? "") }
        let catalogue = Process()
        catalogue.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        catalogue.arguments = ["python3", repositoryRoot.appendingPathComponent("scripts/pms_sim").path, "catalogue"]
        let output = Pipe()
        catalogue.standardOutput = output
        try catalogue.run()
        let overlay = output.fileHandleForReading.readDataToEndOfFile()
        catalogue.waitUntilExit()
        let registry = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try ReportCatalogueOverlay.apply(configuration: registry, overlay: overlay, overlayPath: "pms_sim catalogue")
            .write(to: url)
    }

    /// Runs the built binary; throws with the end of stderr on failure.
    @discardableResult
    private static func run(_ arguments: [String], _ environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = ownerdashBinary
        process.arguments = arguments
        var env = environment
        env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = env
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("err-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        let stdout = String(decoding: try Data(contentsOf: out), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            let stderr = String(decoding: try Data(contentsOf: err), as: UTF8.self)
            throw PortfolioError("ownerdash \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(stderr.suffix(600))")
        }
        return stdout
    }
}

/// pms_sim on an ephemeral loopback port for the portfolio's registry; exits when its stdin closes.
private final class PortfolioSimulator {
    let process = Process()
    let input = Pipe()
    let base: String

    init(directory: URL, config: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("scripts/pms_sim").path, "--port", "0",
                             "--seed", "7", "--as-of", SimulatedPortfolio.asOf, "--dir", directory.path,
                             "--config", config.path, "--exit-on-stdin-eof",
                             // A PDF report is refused and fails its artifact (IngestTests' ReportFormsIngestTests);
                             // these tests need the whole portfolio landed.
                             "--no-quirk", "report_form_pdf"]
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
        guard text.hasPrefix("listening on ") else { throw PortfolioError("the simulator did not start: \"\(text)\"") }
        base = String(text.dropFirst("listening on ".count))
    }

    /// The endpoints and simulator credentials (the names of docs/contracts.md, "Configuration and secrets"), and
    /// nothing from the developer's shell.
    var environment: [String: String] {
        [
            "OWNERDASH_REALPAGE_REPORTS_URL": base + "/realpage/reports/v1",
            "OWNERDASH_REALPAGE_RPX_URL": base + "/realpage/rpx/partner/OwnerDash/OwnerDash.svc",
            "OWNERDASH_YARDI_URL": base + "/yardi/webservices",
            "REALPAGE_TOKEN_COMMAND": "python3 \(repositoryRoot.appendingPathComponent("scripts/pms_sim").path) token",
            "REALPAGE_RPX_LICENSE_KEY": "sim-rpx-license-key",
            "YARDI_USERNAME": "simuser", "YARDI_PASSWORD": "simpass", "YARDI_SERVER_NAME": "sim_sql",
            "YARDI_DATABASE": "sim_voyager", "YARDI_INTERFACE_ENTITY": "OwnerDash",
            "YARDI_INTERFACE_LICENSE": "sim-yardi-license",
        ]
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// The repository root, from this file's location.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The `ownerdash` executable built beside this test bundle.
var ownerdashBinary: URL {
    let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
        let url = candidate.appendingPathComponent("ownerdash")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return bundleDirectory.appendingPathComponent("ownerdash")
}

struct PortfolioError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension SimulatedPortfolio {
    /// How many current leases of the property that began by the first of the as-of month have no recurring RENT
    /// charge under their own lease id (both ledgers, full and partial, must schedule rent for every one).
    static func currentLeasesWithoutRent(_ database: Database, property: String) throws -> Int64? {
        try database.scalar("""
            SELECT count(*) FROM unified_leases l WHERE l.unified_property_id = :p AND l.status = 'current'
              AND l.start_date <= date(:as_of, 'start of month')
              AND NOT EXISTS (SELECT 1 FROM unified_recurring_charges r
                              WHERE r.unified_property_id = l.unified_property_id AND r.lease_id = l.lease_id
                                AND r.category = 'RENT')
            """, [":p": .text(property), ":as_of": .text(asOf)])?.integerValue
    }
}

