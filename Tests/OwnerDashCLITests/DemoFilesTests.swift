import Foundation
import OwnerDashCore
import Testing
@testable import OwnerDashCLI

/// Where `ownerdash demo` finds its registry and the simulator: a checkout's first, then the Debian package's
/// (`<prefix>/share/ownerdash` beside `<prefix>/bin/ownerdash`). scripts/package/install_test.sh runs the demo from
/// the installed package; these pin the search order on both layouts without one.
@Suite struct DemoFilesTests {
    let directory = DataDir()

    /// Creates `relative` (and its parents) under the test's directory; returns its path.
    @discardableResult
    func touch(_ relative: String) throws -> String {
        let url = directory.url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: url)
        return url.path
    }

    func path(_ relative: String) -> String { directory.url.appendingPathComponent(relative).path }

    /// A package unpacked under `prefix`: the binary's path (not created: only its location matters).
    func installed(under prefix: String) throws -> String {
        try touch("\(prefix)/share/ownerdash/report_definitions.json")
        try touch("\(prefix)/share/ownerdash/scripts/pms_sim/__main__.py")
        return path("\(prefix)/bin/ownerdash")
    }

    @Test func aCheckoutsRegistryAndSimulatorComeFirst() throws {
        try touch("checkout/report_definitions.json")
        try touch("checkout/scripts/pms_sim/__main__.py")
        let executable = try installed(under: "usr")
        let config = DemoFiles.configPath(named: nil, currentDirectory: path("checkout"), executable: executable)
        #expect(config == path("checkout/report_definitions.json"))
        #expect(try DemoFiles.simulator(configPath: config, executable: executable) == path("checkout/scripts/pms_sim"))
    }

    @Test func anInstalledPackageRunsItsExampleFromAnyDirectory() throws {
        let executable = try installed(under: "usr")
        try FileManager.default.createDirectory(atPath: path("empty"), withIntermediateDirectories: true)
        let config = DemoFiles.configPath(named: nil, currentDirectory: path("empty"), executable: executable)
        #expect(config == path("usr/share/ownerdash/report_definitions.json"))
        #expect(try DemoFiles.simulator(configPath: config, executable: executable) == path("usr/share/ownerdash/scripts/pms_sim"))
        #expect(DemoFiles.installedShare(executable: "/usr/bin/ownerdash") == "/usr/share/ownerdash")
    }

    @Test func anOperatorsOwnRegistryRunsOnThePackagesSimulator() throws {
        let executable = try installed(under: "usr")
        let own = try touch("etc/ownerdash/report_definitions.json")
        try touch("checkout/report_definitions.json")
        // --config wins over the current directory's registry, and with no scripts/ beside it the package's
        // simulator serves it.
        let config = DemoFiles.configPath(named: own, currentDirectory: path("checkout"), executable: executable)
        #expect(config == own)
        #expect(try DemoFiles.simulator(configPath: config, executable: executable) == path("usr/share/ownerdash/scripts/pms_sim"))
    }

    @Test func withNeitherTheMissingDefaultIsReportedAndTheSimulatorErrorNamesBothPlaces() throws {
        try FileManager.default.createDirectory(atPath: path("empty"), withIntermediateDirectories: true)
        let executable = path("nowhere/bin/ownerdash")
        let config = DemoFiles.configPath(named: nil, currentDirectory: path("empty"), executable: executable)
        #expect(config == path("empty/report_definitions.json"))
        do {
            _ = try DemoFiles.simulator(configPath: config, executable: executable)
            Issue.record("no simulator anywhere, yet one was found")
        } catch let error as ConfigurationError {
            #expect(error.description.contains(path("empty/scripts/pms_sim")))
            #expect(error.description.contains(path("nowhere/share/ownerdash/scripts/pms_sim")))
        }
    }
}
