import Foundation
import Metrics
import OwnerDashCore
import Render

/// One table per CSV file (issue 17): a report of several tables (debtors: people, units, months) printed as CSV
/// gives one table, the one `--table NAME` asks for (names are the JSON keys), else the first, with a line on stderr
/// naming the others; `--out DIR/` writes one file per table instead (`DIR/rows.csv`, `DIR/units.csv`, ...). Tables
/// stacked in one file with blank lines between them are not CSV any reader accepts.
enum CSVTables {
    /// The option line of the commands that print several tables.
    static let option = ArgumentSpec.option("--table", "NAME",
                                            help: "csv: the table to print, by its JSON key (default: the first); --out DIR/ writes one file per table")

    /// Whether `out` names a directory to write one file per table into: it ends with `/` or is an existing directory.
    static func isDirectory(_ out: String?) -> Bool {
        guard let out else { return false }
        var directory: ObjCBool = false
        return out.hasSuffix("/") || (FileManager.default.fileExists(atPath: out, isDirectory: &directory) && directory.boolValue)
    }

    /// The CSV of one table of `result`: `name`, else the first (a note on stderr names the others).
    static func render(_ result: MetricResult, table name: String?, command: String, log: Diagnostics) throws -> String {
        let names = result.tables.map(\.name)
        let chosen: MetricTable
        if let name {
            guard let table = result.tables.first(where: { $0.name == name }) else {
                throw UsageError("\(command): no table \"\(name)\" (tables: \(names.joined(separator: ", ")))")
            }
            chosen = table
        } else {
            guard let first = result.tables.first else { return "" }
            chosen = first
            if names.count > 1 {
                log.info(nil, "\(command): csv of table \(first.name); the others (\(names.dropFirst().joined(separator: ", "))) with --table NAME, or all with --out DIR/")
            }
        }
        return MetricOutput.render(single(chosen, of: result), as: .csv)
    }

    /// Writes `directory/<table>.csv` for every table of `result` (the directory is created); returns the paths.
    static func writeFiles(_ result: MetricResult, directory: String, command: String) throws -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw UsageError("\(command): cannot write --out \(directory): \(error.localizedDescription)")
        }
        return try result.tables.map { table in
            let path = (directory as NSString).appendingPathComponent("\(table.name).csv")
            let text = MetricOutput.render(single(table, of: result), as: .csv)
            do {
                try ResultFile.write(text, to: path)
            } catch let error as ResultFileError {
                throw ResultNotWritten.error(error, command: command, out: path)
            }
            return path
        }
    }

    private static func single(_ table: MetricTable, of result: MetricResult) -> MetricResult {
        MetricResult(metric: result.metric, parameters: result.parameters, tables: [table], warnings: [])
    }
}
