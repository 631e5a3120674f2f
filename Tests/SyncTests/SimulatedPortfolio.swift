import Foundation
import OwnerDashCore
import SimulatorSupport
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
        ScratchDirectory.removeAtExit(root)   // shared by every test of the process
        try Self.writeRegistry(to: root.appendingPathComponent("report_definitions.json"))
        configuration = try Configuration.load(path: root.appendingPathComponent("report_definitions.json").path)

        // A PDF report is refused and fails its artifact (IngestTests' ReportFormsIngestTests); these tests need the
        // whole portfolio landed.
        let simulator = try PMSSimulator(flags: ["--no-quirk", "report_form_pdf"],
                                         config: root.appendingPathComponent("report_definitions.json"), ledgerTruth: true)
        let environment = simulator.environment()
        let data = root.appendingPathComponent("data").path, config = root.appendingPathComponent("report_definitions.json").path
        let fetch = try Self.run(["fetch", "--as-of", Self.asOf, "--parallel", "4", "--quiet", "--data-dir", data,
                                  "--config", config], environment)
        guard let runLine = fetch.split(separator: "\n").first, runLine.hasPrefix("run ") else {
            throw SupportError("fetch printed no run id: \(fetch.prefix(200))")
        }
        try Self.run(["load", "--run", String(runLine.dropFirst(4)), "--quiet", "--data-dir", data, "--config", config],
                     environment)
        truthData = try Data(contentsOf: URL(fileURLWithPath: simulator.truthPath))
        simulator.stop()
    }

    /// The simulator's ground truth for one property (scripts/pms_sim/truth.py says how each number is made).
    func truth(_ key: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: truthData) as? [String: Any]
        guard let properties = object?["properties"] as? [String: Any], let truth = properties[key] as? [String: Any] else {
            throw SupportError("truth.json has no property \(key)")
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
        ScratchDirectory.removeAtExit(directory)   // the caller keeps only the DataDirectory value
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
            throw SupportError("\(source.path): not a registry")
        }
        object["properties"] = properties.filter { propertyKeys.contains($0["key"] as? String ?? "") }
        let overlay = try PMSSimulator.catalogueOverlay()
        let registry = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try ReportCatalogueOverlay.apply(configuration: registry, overlay: overlay, overlayPath: "pms_sim catalogue")
            .write(to: url)
    }

    /// Runs the built binary; throws with the end of stderr on failure.
    @discardableResult
    private static func run(_ arguments: [String], _ environment: [String: String]) throws -> String {
        let result = try RunningCommand.run(arguments, environment: environment, in: FileManager.default.temporaryDirectory)
        guard result.status == 0 else {
            throw SupportError("ownerdash \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr.suffix(600))")
        }
        return result.stdout
    }
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

