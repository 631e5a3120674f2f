import Foundation
import Testing

/// Golden files for what people read: `--help` texts (the demo's output: DemoTests).
///
/// `OWNERDASH_RECORD_SNAPSHOTS=1 swift test` rewrites them and fails the run, so nothing is
/// recorded silently; review the diff and run again.
enum Snapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["OWNERDASH_RECORD_SNAPSHOTS"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("recorded \(file.path); run again without OWNERDASH_RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("no snapshot \(file.path); record it with OWNERDASH_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "\(name) differs from its snapshot", sourceLocation: sourceLocation)
    }
}

@Suite struct SnapshotTests {
    @Test(arguments: [
        (["--help"], "help.txt"),
        (["load", "--help"], "load-help.txt"),
        (["sheet", "dump", "--help"], "sheet-dump-help.txt"),
        // As users of other CLIs expect: -h, help, help CMD, and a group's help listing its subcommands.
        (["-h"], "help.txt"),
        (["help"], "help.txt"),
        (["help", "load"], "load-help.txt"),
        (["load", "-h"], "load-help.txt"),
        (["help", "sheet", "dump"], "sheet-dump-help.txt"),
        (["report", "--help"], "report-help.txt"),
        (["help", "report"], "report-help.txt"),
        (["report", "-h"], "report-help.txt"),
        (["audit", "--help"], "audit-help.txt"),
        (["runs", "--help"], "runs-help.txt"),
        (["ingest", "--help"], "ingest-help.txt"),
    ])
    func helpTexts(arguments: [String], snapshot: String) throws {
        let result = try OwnerDash.run(arguments)
        #expect(result.status == 0)
        try Snapshot.check(result.stdout, named: snapshot)
    }

    /// A group without its subcommand is a usage error that names the subcommands; an unknown help topic is one line.
    @Test func aGroupWithoutSubcommandListsThem() throws {
        let result = try OwnerDash.run(["report"])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr == "error: ownerdash report: missing subcommand: one of lease-status, rental-tracker, statement, tenant-history, debtors, maintenance, expenses (see ownerdash report --help)\n")
        let unknown = try OwnerDash.run(["help", "frobnicate"])
        #expect(unknown.status == 1 && unknown.stderr == "error: unknown command \"frobnicate\" (see ownerdash --help)\n")
    }
}
