import Foundation
import OwnerDashCore
import RawStore
import SQLiteKit

/// `ownerdash demo`: the pipeline on the bundled sample reports (the simulator-driven demo replaces this later).
struct DemoCommand: Command {
    static let names = ["demo"]
    static let abstract = "Load the bundled sample RealPage reports and print what was loaded."
    static let arguments: [ArgumentSpec] = [
        .option("--samples", "DIR", help: "directory of sample report files (default: data/samples beside the configuration file)"),
    ]
    static let discussion = """
        Loads every .xlsx in the samples directory into realpage_raw.db in the data directory,
        then prints, per property and report, the rows loaded and the headline numbers they hold.
        """

    let global: GlobalOptions
    let samples: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        samples = parsed.value("--samples")
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let configuration = try global.configuration()
        let directory = samples ?? URL(fileURLWithPath: global.configPath).deletingLastPathComponent()
            .appendingPathComponent("data/samples").path
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".xlsx") }.sorted().map { (directory as NSString).appendingPathComponent($0) }
        guard !files.isEmpty else {
            throw ConfigurationError("\(directory): no sample .xlsx files (pass --samples DIR)")
        }
        try global.dataDirectory.create()
        let store = try RealPageRawStore(path: global.dataDirectory.realpageRawDatabase)
        let loader = ReportFileLoader(store: store, configuration: configuration, runID: RunID.new())
        let result = ReportBatch.load(files, loader: loader, hints: ReportFileHints(), log: log)

        let output = StandardOutput()
        defer { output.flush() }
        output.write("Loaded into \(global.dataDirectory.realpageRawDatabase):\n")
        let rows = result.loaded.map { outcome in
            [outcome.propertyKey, outcome.report.rawValue, outcome.asOf.iso, String(outcome.rows),
             outcome.alreadyLoaded ? "already loaded" : "loaded", (outcome.artifact as NSString).lastPathComponent]
        }
        output.write(TextTable.render(header: ["property", "report", "as of", "rows", "result", "file"], rows: rows))
        output.write("\n" + (try headline(store.database)))
        return result.exitCode
    }

    /// The numbers an owner would look at first, straight from the raw tables.
    private func headline(_ database: Database) throws -> String {
        let rows = try database.query("""
            SELECT b.property_id, b.as_of_date, sum(b.total_units), sum(b.occupied_units),
                   round(100.0 * sum(b.occupied_units) / sum(b.total_units), 2),
                   (SELECT round(sum(d.current_balance), 2) FROM realpage_delinquency d
                     WHERE d.property_id = b.property_id AND d.as_of_date = b.as_of_date),
                   (SELECT count(*) FROM realpage_rent_roll r
                     WHERE r.property_id = b.property_id AND r.as_of_date = b.as_of_date)
            FROM realpage_box_score b
            GROUP BY b.property_id, b.as_of_date
            ORDER BY b.property_id, b.as_of_date
            """)
        let table = rows.map { row in row.map { $0.textValue ?? "" } }
        return "Box score and delinquency by property:\n"
            + TextTable.render(header: ["property", "as of", "units", "occupied", "occupancy %", "net delinquent $", "rent roll rows"],
                               rows: table)
    }
}

/// A plain aligned text table (numbers right-aligned) for terminal output.
enum TextTable {
    static func render(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func isNumber(_ s: String) -> Bool { !s.isEmpty && Double(s.replacingOccurrences(of: ",", with: "")) != nil }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                return isNumber(cell) ? pad + cell : cell + pad
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        var lines = [line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        lines += rows.map(line)
        return lines.joined(separator: "\n") + "\n"
    }
}
