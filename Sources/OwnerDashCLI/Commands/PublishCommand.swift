import Foundation
import Ingest
import OwnerDashCore
import PostgresUnified
import SQLiteKit
import Sync

/// `ownerdash publish`: Copy the data directory's unified.db to the PostgreSQL server named by --database-url.
struct PublishCommand: Command {
    static let names = ["publish"]
    static let abstract = "Copy this data directory's unified.db to the PostgreSQL server of --database-url."
    static let arguments: [ArgumentSpec] = [
        .option("--property", "KEY", repeating: true, help: "publish only this property (repeatable); default: every property and the run journal"),
    ]
    static let discussion = """
        For moving an existing installation to PostgreSQL, or publishing again after the server was unreachable:
        sync and ingest with --database-url publish each property as it syncs, and a later night publishes again a
        property whose publication failed. Each property is replaced on the server in one transaction (COPY), so
        readers see it whole; other properties, and other hosts publishing theirs, are not touched. Without
        --property, the delinquency forecast's models go too while the server holds none (models there were
        trained on the server's data since, and are kept). The server's schema is created or brought up to date
        first. A property the server holds as another host's sync is left as it is, said in a line (exit 2): the
        host that syncs a property publishes it. Publish takes the data directory's lock (data/ingest.lock) and
        records in unified.db what it published.
        """

    let global: GlobalOptions
    let keys: [String]

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        keys = parsed.values("--property")
        guard global.databaseURL != nil else {
            throw UsageError("ownerdash publish: no server: give --database-url postgresql://... (or set OWNERDASH_DATABASE_URL)")
        }
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let url = global.databaseURL else { return .usage }
        // A writer: a property another host published since this unified.db's last publication has its history on the
        // server taken into unified.db first (UnifiedPublisher), and what was published is recorded there.
        _ = try UnifiedStore.openForReading(dataDirectory: global.dataDirectory)
        let lock = try global.writerLock(command: "publish", log: log)
        defer { lock.release() }
        let database = try UnifiedStore(dataDirectory: global.dataDirectory).database
        let publisher = try UnifiedPublisher(url: url, host: global.hostName)
        let output = StandardOutput()
        defer { output.flush() }
        if keys.isEmpty {
            let published = try publisher.publishAll(from: database) { key, rows in
                output.write("\(key)  \(rows) rows\n")
            }
            for line in published.left { output.write(line + "\n") }
            output.write("published \(published.properties) propert\(published.properties == 1 ? "y" : "ies") and \(published.runs) run(s) to \(url)\n")
            if let models = published.models {
                output.write("published \(models) forecast model(s): readers on the server score as this unified.db does\n")
            } else if try database.scalar("SELECT count(*) FROM forecast_models")?.integerValue ?? 0 > 0 {
                output.write("the forecast models of this unified.db were not sent: the server holds models of its own (trained there since)\n")
            }
            return published.left.isEmpty ? .success : .partial
        }
        let known = Set(try database.query("SELECT unified_property_id FROM unified_properties").compactMap { $0[0].textValue })
        if let unknown = keys.first(where: { !known.contains($0) }) {
            throw UsageError("ownerdash publish: \(unknown) is not in \(global.dataDirectory.unifiedDatabase) (synced properties: \(known.sorted().joined(separator: ", ")))")
        }
        var published = 0
        for key in keys {
            do {
                output.write("\(key)  \(try publisher.publishProperty(key, from: database, keepingOtherHosts: true)) rows\n")
                published += 1
            } catch let elsewhere as UnifiedPublisher.PublishedElsewhere {
                output.write("\(elsewhere)\n")
            }
        }
        output.write("published \(published) propert\(published == 1 ? "y" : "ies") to \(url)\n")
        return published == keys.count ? .success : .partial
    }
}
