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
    ])
    func helpTexts(arguments: [String], snapshot: String) throws {
        let result = try OwnerDash.run(arguments)
        #expect(result.status == 0)
        try Snapshot.check(result.stdout, named: snapshot)
    }
}
