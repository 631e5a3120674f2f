import Fetch
import Foundation
import OwnerDashCore
import PostgresKit
import PostgresUnified
import RawStore
import Serve
import SQLiteKit
import Sync

/// `ownerdash doctor`: Check the installation, one line per check, each failure with what to do.
struct DoctorCommand: Command {
    static let names = ["doctor"]
    static let abstract = "Check the configuration, credentials, data directory, databases and the last run; one line each."
    static let arguments: [ArgumentSpec] = [
        .option("--min-free", "SIZE", help: "free disk space a night needs on the data directory's file system (default 2G; K, M, G, T)"),
        .flag("--offline", help: "skip the calls to the vendors (one cheap authenticated call each)"),
    ]
    static let discussion = """
        Checks, in order: the configuration file; every vendor the registry uses, with one cheap authenticated call
        and no tenant data (RealPage reports: a bearer token; RPX: getsitelist; Yardi: GetPropertyConfigurations);
        the data directory (it exists and this user can write it; free space against --min-free); each database
        (realpage_raw.db, yardi_raw.db, unified.db, users.db: SQLite's quick_check and the migration level); the
        last recorded run (how long ago, how it ended); with --database-url, the server. Each line starts with ok,
        warn or FAIL; a FAIL says what to do. Exit 0 when nothing failed, 2 when something did.
        """

    let global: GlobalOptions
    let minFree: Int64
    let offline: Bool

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        offline = parsed.flag("--offline")
        let text = parsed.value("--min-free") ?? "2G"
        guard let bytes = Self.bytes(text) else {
            throw UsageError("ownerdash doctor: --min-free \"\(text)\" must be a size such as 500M or 2G")
        }
        minFree = bytes
    }

    /// `500M`, `2G`, `1T` or a number of bytes.
    static func bytes(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        if let unit = text.last.flatMap({ units[Character($0.uppercased())] }), let number = Double(text.dropLast()), number >= 0 {
            return Int64(number * Double(unit))
        }
        return Int64(text).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// One check's line.
    struct Line {
        enum Status: String { case ok, warn, fail = "FAIL" }
        var status: Status
        var check: String
        var text: String
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        var lines: [Line] = []
        let output = StandardOutput()
        defer { output.flush() }
        func report(_ line: Line) {
            lines.append(line)
            output.write("\(line.status.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)) \(line.check): \(line.text)\n")
            output.flush()
        }
        let environment = ProcessInfo.processInfo.environment

        // The configuration, then each vendor it uses.
        do {
            let configuration = try global.configuration()
            let realpage = configuration.properties.filter { $0.pms == .realpage }.count
            report(Line(status: .ok, check: "configuration", text: "\(global.configPath): \(configuration.properties.count) properties (\(realpage) RealPage, \(configuration.properties.count - realpage) Yardi)"))
            if offline {
                report(Line(status: .warn, check: "credentials", text: "not checked (--offline)"))
            } else {
                for outcome in CredentialProbe.run(configuration: configuration, configPath: global.configPath,
                                                   environment: environment, asOf: FetchCommand.today()) {
                    if let failure = outcome.failure {
                        report(Line(status: .fail, check: outcome.vendor, text: "\(failure) — check its variables (docs/operators.md, \"Credentials and endpoints\")"))
                    } else {
                        report(Line(status: .ok, check: outcome.vendor, text: outcome.detail))
                    }
                }
            }
        } catch {
            report(Line(status: .fail, check: "configuration", text: "\(error) — fix \(global.configPath) or name another with --config"))
        }

        report(dataDirectory())
        for (name, path, migrations) in [("realpage_raw.db", global.dataDirectory.realpageRawDatabase, RealPageRawSchema.migrations),
                                         ("yardi_raw.db", global.dataDirectory.yardiRawDatabase, YardiRawSchema.migrations),
                                         ("unified.db", global.dataDirectory.path("unified.db"), UnifiedSchema.migrations),
                                         ("users.db", global.dataDirectory.path("users.db"), UserStore.migrations)] {
            if let line = database(name, path: path, migrations: migrations) { report(line) }
        }
        report(lastRun())
        if let url = global.databaseURL {
            do {
                let connection = try PostgresConnection(url: url, applicationName: "ownerdash doctor")
                try PostgresSchema.requireCurrent(connection)
                let properties = try connection.scalar("SELECT count(*) FROM ownerdash_publications WHERE scope LIKE 'property:%'") ?? "0"
                report(Line(status: .ok, check: "server", text: "\(url): schema current, \(properties) properties published"))
            } catch {
                report(Line(status: .fail, check: "server", text: "\(error) — docs/postgresql.md"))
            }
        }
        return lines.contains { $0.status == .fail } ? .partial : .success
    }

    /// The data directory: there, writable by this user, with room for a night.
    func dataDirectory() -> Line {
        let root = global.dataDirectory.root
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            return Line(status: .warn, check: "data directory", text: "\(root) does not exist yet: the first run creates it (or give --data-dir)")
        }
        let probe = (root as NSString).appendingPathComponent(".doctor-\(getpid())")
        guard FileManager.default.createFile(atPath: probe, contents: Data("x".utf8)) else {
            return Line(status: .fail, check: "data directory", text: "\(root): this user cannot write it — chown it to the user the nightly run is (ownerdash), or run as that user")
        }
        try? FileManager.default.removeItem(atPath: probe)
        let free = ((try? FileManager.default.attributesOfFileSystem(forPath: root))?[.systemFreeSize] as? NSNumber)?.int64Value ?? 0
        let shown = ByteCountFormatter.string(fromByteCount: free, countStyle: .binary)
        let needed = ByteCountFormatter.string(fromByteCount: minFree, countStyle: .binary)
        guard free >= minFree else {
            return Line(status: .fail, check: "data directory", text: "\(root): \(shown) free, below the \(needed) a night needs — free space (ownerdash prune removes old landed runs) or move --data-dir")
        }
        return Line(status: .ok, check: "data directory", text: "\(root): writable, \(shown) free")
    }

    /// A database: readable, intact (`PRAGMA quick_check`), at the migration level this ownerdash knows; nil when absent.
    func database(_ name: String, path: String, migrations: [Migration]) -> Line? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let known = migrations.map(\.version).max() ?? 0
        let repair = name == "unified.db"
            ? "move it aside and run ownerdash sync: it is rebuilt from the raw databases"
            : "restore it from a backup (docs/operators.md, \"Troubleshooting\")"
        do {
            let database = try Database(path: path, mode: .readOnly)
            let problems = try database.query("PRAGMA quick_check").compactMap { $0.first?.textValue }
            guard problems == ["ok"] else {
                // One problem may span lines (`*** in database main ***` over the pages it names): one line still.
                let found = problems.prefix(2).joined(separator: "; ").split(whereSeparator: \.isNewline).joined(separator: " ")
                return Line(status: .fail, check: name, text: "damaged: \(found) — \(repair)")
            }
            let version = Int(try database.userVersion())
            if version > known {
                return Line(status: .fail, check: name, text: "schema version \(version), newer than this ownerdash (\(known)) — upgrade ownerdash")
            }
            if version < known {
                return Line(status: .warn, check: name, text: "intact, schema version \(version) of \(known): the next run migrates it")
            }
            return Line(status: .ok, check: name, text: "intact, schema version \(version)" + (try pagesNote(name, database) ?? ""))
        } catch {
            let line = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
            return Line(status: .fail, check: name, text: "cannot be read: \(line) — \(repair)")
        }
    }

    /// unified.db made before it took large pages (`UnifiedStore.pageSize`): works as it is, but a first sync or a
    /// `sync --full` of many properties is slower, and only the operator can convert it (it takes the file whole).
    func pagesNote(_ name: String, _ database: Database) throws -> String? {
        guard name == "unified.db" else { return nil }
        let pageSize = try database.pageSize()
        guard pageSize < UnifiedStore.pageSize else { return nil }
        return "; in \(pageSize / 1024) KiB pages, where a new one has \(UnifiedStore.pageSize / 1024) KiB and syncs faster "
            + "(docs/operators.md, \"Upgrading\", says how to convert it)"
    }

    /// The last recorded run: when, and how it ended (a nightly timer that stopped shows here).
    func lastRun() -> Line {
        let path = global.dataDirectory.unifiedDatabase
        guard FileManager.default.fileExists(atPath: path),
              let database = try? Database(path: path, mode: .readOnly),
              let row = try? database.query("SELECT run_id, status, started_at FROM etl_runs ORDER BY started_at DESC, run_id DESC LIMIT 1").first else {
            return Line(status: .warn, check: "last run", text: "none recorded yet (ownerdash ingest; the nightly timer: docs/operators.md, \"Nightly ingest\")")
        }
        let runID = row[0].textValue ?? "", status = row[1].textValue ?? "", started = row[2].textValue ?? ""
        let hours = Timestamp.date(started).map { Date().timeIntervalSince($0) / 3600 } ?? 0
        let age = hours < 48 ? "\(Int(hours.rounded())) h ago" : "\(Int((hours / 24).rounded())) days ago"
        if hours > 26 {
            return Line(status: .warn, check: "last run", text: "\(runID) started \(age) (\(status)): is the nightly timer on? (systemctl list-timers 'ownerdash*')")
        }
        if status != "succeeded" && status != "running" {
            return Line(status: .warn, check: "last run", text: "\(runID) started \(age) and ended \(status): ownerdash runs show \(runID)")
        }
        return Line(status: .ok, check: "last run", text: "\(runID) started \(age), \(status)")
    }
}
