import Foundation
import SimulatorSupport
import SQLiteKit
import Testing

/// The documented commands run as the pages show them, against the demo's data directory: every `ingest` and `fetch`
/// narrowed to some properties or reports (against the simulator, as the vendors), `load --run`, `query`, `report`,
/// `runs`, `audit run` and `audit show`, `dashboard`, `sync --property`, `prune --dry-run`, `completion`, `sheet dump`
/// of a workbook an earlier command wrote, and `--version`; from a directory holding the checkout's
/// report_definitions.json (with the simulator's report ids), as a reader in the checkout would. The vendors' commands
/// go first, then each `audit run` (the pages show `audit show` before it), then each `publish` (the pages show a
/// reader's `query --database-url` before it), then the rest in page order; a command two pages show alike runs once.
/// Each must end with status 0 (2: done, with warnings) and write the file its `--out` names. `users` runs too, and,
/// given a PostgreSQL server standing in for the pages' `postgresql://` ones, `publish` and `query --database-url`.
/// DemoTests runs them after the demo.
///
/// The rest are parsed only (`DocumentedCommandsTests.everyDocumentedCommandParses`): commands that reach another kind
/// of host (`notices send` by e-mail, webhook or Telegram, `ingest --notices-webhook`), fetch the whole portfolio (an
/// `ingest`, `fetch` or `backfill` not narrowed: minutes), read files the reader brings (`load FILE`, a `sheet dump`
/// of a download), change what the demo holds for good (`prune` without `--dry-run`, `audit resolve`), take minutes
/// (`demo`, a `sync` of the whole portfolio), name the operator's own paths (`/etc`, `/srv`, `/var`), need the
/// sign-in set up with an OpenID provider (`serve`), or set up roles, which are the whole PostgreSQL cluster's
/// (`logins`: run here, in two full runs a set-up deadlocked (40P01) with another session on the cluster, once three
/// times over, after `AnalystLogins` retries a lost race; LoginsCommandTests and AnalystLoginsTests run them, two
/// databases at once included). Example values stand for the reader's own: a run id is the latest run, an audit run
/// the latest, a `--resident` one of the property's residents.
enum DocumentedAnswers {
    /// The command families run; the first words after `ownerdash`.
    static let families: [[String]] = [
        ["ingest"], ["fetch"], ["load", "--run"], ["query"], ["report"], ["runs"], ["audit", "run"], ["audit", "show"],
        ["dashboard"], ["sync"], ["prune"], ["completion"], ["sheet", "dump"], ["--version"], ["users"], ["publish"],
    ]

    /// The commands that ask the vendors (the simulator stands in for them).
    static func asksTheVendors(_ command: [String]) -> Bool { ["ingest", "fetch"].contains(command.first) }

    /// Why a documented command is not run, or nil to run it (in `directory`, where earlier commands wrote their files;
    /// `server`: a PostgreSQL server standing in for the pages' `postgresql://` ones).
    static func skipped(_ command: [String], in directory: URL, server: String?) -> String? {
        guard families.contains(where: { command.starts(with: $0) }) else { return "not among the families run" }
        if command.contains(where: { $0.contains("://") && !($0.hasPrefix("postgresql://") && server != nil) }) {
            return "reaches another host"
        }
        if command.contains(where: { ["/etc", "/srv", "/var"].contains(where: $0.hasPrefix) }) { return "the operator's own paths" }
        if command.contains("--data-dir") { return "names its own data directory" }
        if command.first == "sync" && !command.contains("--property") { return "re-syncs the whole portfolio" }
        if asksTheVendors(command) && !command.contains(where: { ["--property", "--pms", "--reports"].contains($0) }) {
            return "fetches the whole portfolio"
        }
        if command.first == "prune" && !command.contains("--dry-run") { return "deletes the demo's history" }
        if command.starts(with: ["sheet", "dump"]),
           let file = command.dropFirst(2).first(where: { !$0.hasPrefix("-") && $0.contains(".") }),
           !FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path) {
            return "reads \(file), a file the reader brings"
        }
        return nil
    }

    /// Runs every documented answer against `data` (the demo's data directory), recording each failure as an issue
    /// naming the page, the line and the command. Returns how many ran.
    @discardableResult
    static func run(against data: URL, server: String? = nil) throws -> Int {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("documented-answers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: URL(fileURLWithPath: simulatorConfig()),
                                         to: directory.appendingPathComponent("report_definitions.json"))
        let simulator = try PMSSimulator()
        defer { simulator.stop() }
        let unified = try Database(path: data.appendingPathComponent("unified.db").path, mode: .readOnly)
        var documented: [(page: String, line: Int, command: [String])] = []
        for document in try DocumentedCommandsTests.documents() {
            for (line, command) in DocumentedCommandsTests.commands(in: try DocumentedCommandsTests.text(document)) {
                documented.append((document, line, command))
            }
        }
        var ran = 0
        var seen: Set<[String]> = []
        func order(_ command: [String]) -> Int {
            asksTheVendors(command) ? 0 : command.starts(with: ["audit", "run"]) ? 1 : command.first == "publish" ? 2 : 3
        }
        for (document, line, documented) in documented.enumerated().sorted(by: {
            (order($0.element.command), $0.offset) < (order($1.element.command), $1.offset) }).map(\.element) {
            guard skipped(documented, in: directory, server: server) == nil else { continue }
            var command = try standingIn(documented, unified: unified).map { word in
                word.hasPrefix("postgresql://") ? server ?? word : word
            }
            guard seen.insert(command).inserted else { continue }
            if !["--version", "completion"].contains(command[0]) { command += ["--data-dir", data.path] }
            let result = try OwnerDash.run(command, in: directory,
                                           environment: asksTheVendors(command) ? simulator.environment() : [:])
            ran += 1
            let shown = "\(document):\(line): ownerdash \(documented.joined(separator: " "))"
            guard result.status == 0 || result.status == 2 else {
                Issue.record("\(shown): exit \(result.status): \(result.stderr.suffix(400))")
                continue
            }
            if let out = command.firstIndex(of: "--out").map({ command[$0 + 1] }),
               !FileManager.default.fileExists(atPath: directory.appendingPathComponent(out).path) {
                Issue.record("\(shown): wrote no \(out)")
            }
        }
        return ran
    }

    /// `command` with the example values that stand for the reader's own replaced by the demo's: a run id by the latest
    /// run, an audit run by the latest, a `--resident` by a resident with charges at the command's property.
    static func standingIn(_ command: [String], unified: Database) throws -> [String] {
        let runID = try unified.scalar("SELECT run_id FROM etl_runs ORDER BY started_at DESC LIMIT 1")?.textValue ?? "latest"
        var result = command.map { $0.range(of: #"^\d{8}T\d{6}Z-[0-9a-f]{4}$"#, options: .regularExpression) != nil ? runID : $0 }
        if result.starts(with: ["runs", "show"]), result.count > 2, result[2] != "latest", result[2] != runID { result[2] = runID }
        if result.starts(with: ["load", "--run"]), result.count > 2 {
            // The latest run that landed something (a sync's run has nothing to load).
            let landing = URL(fileURLWithPath: unified.path).deletingLastPathComponent().appendingPathComponent("landing")
            for row in try unified.query("SELECT run_id FROM etl_runs ORDER BY started_at DESC") {
                guard let run = row[0].textValue else { continue }
                if FileManager.default.fileExists(atPath: landing.appendingPathComponent("\(run)/manifest.json").path) {
                    result[2] = run
                    break
                }
            }
        }
        if result.starts(with: ["audit", "show"]), result.count > 2, Int(result[2]) != nil,
           let latest = try unified.scalar("SELECT max(run_id) FROM audit_runs")?.integerValue {
            result[2] = String(latest)
        }
        if let index = result.firstIndex(of: "--resident"), index + 1 < result.count {
            let property = result.firstIndex(of: "--property").map { result[$0 + 1] }
            result[index + 1] = try unified.scalar("""
                SELECT resident_id FROM unified_charges
                WHERE :property IS NULL OR unified_property_id = :property
                ORDER BY unified_property_id, resident_id LIMIT 1
                """, [":property": SQLValue(property)])?.textValue ?? result[index + 1]
        }
        return result
    }
}
