import CurlKit
import Foundation
import LibCryptoKit
import OwnerDashCore
import SimulatorSupport
import Testing
import ZipKit

extension PMSSimulator {
    /// Fault-free, seed 7, property date 2026-11-20 (the simulator's default).
    static let clean = Result { try PMSSimulator() }
    /// `ridian` failing on every request; the first create of each property's Box Score answered 429 (Retry-After
    /// 0) and of its Activity 503, so every property retries twice for sure; and random 429s and 503s at 2 % each on
    /// top, which a request survives with its 5 attempts but about once in ten million.
    static let faulty = Result {
        try PMSSimulator(flags: ["--fault-first", "429:^POST .*/reports/4238/report-instances/?$",
                                 "--fault-first", "5xx:^POST .*/reports/3837/report-instances/?$",
                                 "--fault-429-rate", "0.02", "--retry-after", "0", "--fault-5xx-rate", "0.02",
                                 "--fail-property", "ridian"])
    }

    /// The calls of quirk yardi_error_answers (truth.json `quirk_details`): property, operation and error shape.
    func errorAnswers() throws -> [(property: String, operation: String, shape: String)] {
        let data = try Data(contentsOf: URL(fileURLWithPath: truthPath))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let details = (root?["quirk_details"] as? [String: Any])?["yardi_error_answers"] as? [[String: String]] ?? []
        return details.map { ($0["property"] ?? "", $0["operation"] ?? "", $0["shape"] ?? "") }
    }

    /// `GET /_sim/stats`: the requests the simulator answered (its `/_sim/` controls aside) and the faults it injected
    /// by kind.
    func stats() throws -> (requests: Int, faults: [String: Int]) {
        let response = try HTTPClient().send(HTTPRequest(url: base + "/_sim/stats"))
        let root = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return (root?["requests"] as? Int ?? 0, root?["faults"] as? [String: Int] ?? [:])
    }
}

/// A temporary data directory and the built `ownerdash` binary to run against it.
struct Workspace {
    private let scratch: ScratchDirectory
    var root: URL { scratch.url }
    var data: URL { root.appendingPathComponent("data") }

    init() throws {
        scratch = try ScratchDirectory(prefix: "fetch")
    }

    /// Runs `ownerdash ARGS --data-dir <tmp>/data --config CONFIG` with only the given variables (plus PATH), so
    /// the developer's own tokens never leak into a test. CONFIG: the repository's report_definitions.json with the
    /// simulator's report catalogue laid over it (`simulatorConfigPath`), unless `config` names another.
    func ownerdash(_ arguments: [String], environment: [String: String],
                   config: String = simulatorConfigPath) throws -> CommandResult {
        try RunningCommand.run(arguments + ["--data-dir", data.path, "--config", config], environment: environment, in: root)
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
        let digest = SHA256()
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

/// A fresh simulator token (any `sim-token-` string is valid) that tests then look for in outputs.
func freshToken() -> String { "sim-token-test-\(UUID().uuidString.lowercased())" }

/// The reports the simulator's catalogue names.
let allReports = ["box_score", "rent_roll", "delinquency", "activity", "monthly_summary", "lease_expiration",
                  "make_ready_summary", "closed_make_ready", "income_statement", "projected_occupancy",
                  "monthly_transaction_summary", "lost_rent_summary", "renewal_detail", "lease_details"]

/// What a default fetch from it requests: those the shipped registry fetches nightly (its `"nightly": false` reports,
/// which no answer reads, only when named).
let nightlyReports = allReports.filter { !UnknownReportKeyTests.fetchedWhenNamed.contains($0) }
