import Foundation
import PostgresKit

/// The test suites' PostgreSQL server: the throwaway cluster scripts/test.sh starts (`OWNERDASH_TEST_DATABASE_URL`),
/// or, for a bare `swift test`, one started here by scripts/pg_test_cluster.sh and stopped when the process exits.
/// Each test gets a database of its own, so suites run side by side.
public enum TestPostgres {
    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The cluster's maintenance URL (database `ownerdash_test`); started once per process when not given.
    public static let serverURL: DatabaseURL = {
        if let given = ProcessInfo.processInfo.environment["OWNERDASH_TEST_DATABASE_URL"], !given.isEmpty {
            return try! DatabaseURL(given)
        }
        let started = startCluster()
        return try! DatabaseURL(started)
    }()

    /// A new empty database on the test server; its URL. Dropped when the cluster stops.
    public static func freshDatabase(_ label: String = "t") throws -> DatabaseURL {
        let name = "\(label.lowercased().filter { $0.isLetter || $0.isNumber })_\(UUID().uuidString.prefix(8).lowercased())"
        let admin = try PostgresConnection(url: serverURL)
        try admin.execute("CREATE DATABASE \(name)")
        return try DatabaseURL(replacingDatabase(of: serverURL.uri, with: name))
    }

    /// `uri` with its database path replaced.
    public static func replacingDatabase(of uri: String, with name: String) -> String {
        guard let scheme = uri.range(of: "://") else { return uri }
        let rest = uri[scheme.upperBound...]
        let pathStart = rest.firstIndex(of: "/") ?? rest.endIndex
        let queryStart = rest.firstIndex(of: "?") ?? rest.endIndex
        return String(uri[..<pathStart]) + "/" + name + String(rest[queryStart...])
    }

    nonisolated(unsafe) private static var startedDirectory: String?

    /// Runs `scripts/pg_test_cluster.sh start`, reads the URL it exports and stops the cluster at exit.
    /// Through system(3) with the output in a file: the server it starts inherits the descriptor (a pipe would never
    /// reach its end), and Foundation's Process waits on a run loop that a test thread blocked here may never turn.
    private static func startCluster() -> String {
        let script = repositoryRoot.appendingPathComponent("scripts/pg_test_cluster.sh").path
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("pg-cluster-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = system("bash '\(script)' start > '\(outputPath)' < /dev/null")
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        var exports: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("export ") {
            let pair = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { exports[String(pair[0])] = String(pair[1]).trimmingCharacters(in: CharacterSet(charactersIn: "'\"")) }
        }
        guard status == 0, let url = exports["OWNERDASH_TEST_DATABASE_URL"] else {
            fatalError("scripts/pg_test_cluster.sh start failed (status \(status)): \(text)")
        }
        startedDirectory = exports["OWNERDASH_TEST_PG_DIR"]
        atexit {
            guard let directory = TestPostgres.startedDirectory else { return }
            let script = TestPostgres.repositoryRoot.appendingPathComponent("scripts/pg_test_cluster.sh").path
            _ = system("bash '\(script)' stop '\(directory)' > /dev/null 2>&1")
        }
        return url
    }
}
