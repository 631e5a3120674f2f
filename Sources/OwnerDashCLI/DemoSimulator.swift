import Foundation
import OwnerDashCore

/// The bundled PMS simulator (scripts/pms_sim) on an ephemeral loopback port, for `ownerdash demo`.
///
/// It is started with `--exit-on-stdin-eof` and this process holds its stdin: however the demo ends (error,
/// Ctrl-C, kill -9), the simulator sees end-of-file and exits, so no server is left behind.
final class DemoSimulator {
    private let process = Process()
    private let input = Pipe()
    /// `http://127.0.0.1:PORT`.
    let base: String
    /// Where the simulator wrote its ground truth (truth.json).
    let directory: String
    /// The simulator's package directory (`scripts/pms_sim`, found by `DemoFiles.simulator`).
    private let package: String

    /// Starts `python3 <package>` for the registry at `configPath` and waits until it listens.
    init(package: String, configPath: String, directory: String, seed: Int, asOf: LocalDate) throws {
        self.package = package
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.directory = directory
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", package, "--port", "0", "--seed", String(seed), "--as-of", asOf.iso,
                             "--dir", directory, "--config", configPath, "--no-ledger-truth", "--exit-on-stdin-eof",
                             // The demo shows a clean run of every form OneSite sends but the PDF, which OwnerDash
                             // refuses (one failed artifact: a partial run); IngestTests show that refusal.
                             "--no-quirk", "report_form_pdf"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        do {
            try process.run()
        } catch {
            throw ConfigurationError("cannot start the PMS simulator with python3: \(error.localizedDescription)")
        }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("listening on ") else {
            let stderr = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
            process.terminate()
            throw ConfigurationError("the PMS simulator did not start: \((stderr.isEmpty ? text : stderr).prefix(300))")
        }
        base = String(text.dropFirst("listening on ".count))
        // Nobody reads the simulator's stderr from here on; a full pipe must never stall it.
        errors.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
    }

    deinit { stop() }

    /// The report catalogue overlay the simulator wrote beside its truth: the report ids and keys it serves.
    var catalogue: String { (directory as NSString).appendingPathComponent("report_catalogue.json") }

    /// The endpoint overrides and the simulator's credentials, under the names of docs/contracts.md, "Configuration
    /// and secrets".
    var environment: [String: String] {
        [
            "OWNERDASH_REALPAGE_REPORTS_URL": base + "/realpage/reports/v1",
            "OWNERDASH_REALPAGE_RPX_URL": base + "/realpage/rpx/partner/OwnerDash/OwnerDash.svc",
            "OWNERDASH_YARDI_URL": base + "/yardi/webservices",
            "REALPAGE_TOKEN_COMMAND": "python3 '\(package)' token",
            "REALPAGE_RPX_LICENSE_KEY": "sim-rpx-license-key",
            "YARDI_USERNAME": "simuser", "YARDI_PASSWORD": "simpass", "YARDI_SERVER_NAME": "sim_sql",
            "YARDI_DATABASE": "sim_voyager", "YARDI_INTERFACE_ENTITY": "OwnerDash",
            "YARDI_INTERFACE_LICENSE": "sim-yardi-license",
        ]
    }

    /// Closes the simulator's stdin and waits for it to exit.
    func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// Where `ownerdash demo` finds its registry and the simulator: in a checkout (the registry in the current directory,
/// `scripts/` beside it), else where the Debian package puts them (scripts/package.sh): `<prefix>/share/ownerdash`
/// for the binary `<prefix>/bin/ownerdash`, i.e. /usr/share/ownerdash. Found from the executable rather than a fixed
/// path, so a copy unpacked under another prefix finds its own files.
enum DemoFiles {
    /// `<prefix>/share/ownerdash` for the binary `<prefix>/bin/ownerdash`.
    static func installedShare(executable: String) -> String {
        URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/ownerdash").path
    }

    /// This process's binary with symbolic links resolved (`/proc/self/exe`), so a link on the PATH still finds the
    /// prefix the binary was installed under.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The registry the demo runs: `--config` when given; else `report_definitions.json` in the current directory
    /// (a checkout); else the package's example; else the default name, whose absence Configuration.load reports.
    static func configPath(named: String?, currentDirectory: String, executable: String) -> String {
        if let named { return named }
        let local = (currentDirectory as NSString).appendingPathComponent("report_definitions.json")
        if FileManager.default.fileExists(atPath: local) { return local }
        let installed = (installedShare(executable: executable) as NSString).appendingPathComponent("report_definitions.json")
        return FileManager.default.fileExists(atPath: installed) ? installed : local
    }

    /// The simulator's package directory: `scripts/pms_sim` beside the registry (a checkout, or the package's
    /// example, which has its scripts beside it), else the package's copy (the registry is the operator's own).
    static func simulator(configPath: String, executable: String) throws -> String {
        let candidates = [
            URL(fileURLWithPath: configPath).deletingLastPathComponent().appendingPathComponent("scripts/pms_sim").path,
            (installedShare(executable: executable) as NSString).appendingPathComponent("scripts/pms_sim"),
        ]
        for candidate in candidates
        where FileManager.default.fileExists(atPath: (candidate as NSString).appendingPathComponent("__main__.py")) {
            return candidate
        }
        throw ConfigurationError("the PMS simulator is missing: ownerdash demo runs scripts/pms_sim beside the configuration file or the package's copy, and found neither \(candidates.joined(separator: " nor "))")
    }
}
