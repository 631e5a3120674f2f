import Foundation
import Metrics
import OwnerDashCore
import Render
import SQLiteKit
import Sync
import XLSXKit

/// What every `ownerdash report ...` command does around its report: open unified.db read-only, check the properties
/// asked for, and write the output to stdout or `--out FILE`.
struct LedgerReportSession {
    let command: String
    let database: Database
    /// The properties to report on: those asked for, else every synced one.
    let properties: [String]
    let log: Diagnostics

    /// nil (after logging why) when there is no unified.db to read: the command exits 3.
    init?(command: String, dataDirectory: DataDirectory, asked: [String], log: Diagnostics) throws {
        self.command = command
        self.log = log
        do {
            database = try UnifiedStore.openForReading(dataDirectory: dataDirectory)
        } catch let error as ConfigurationError {
            log.error(nil, "\(command): \(error.description)")
            return nil
        }
        properties = try Self.properties(database, asked: asked, command: command)
    }

    /// The properties asked for (each must be synced, each once), else every synced one. A unified.db that has no
    /// property yet is an error (exit 3), not an empty report: "(no rows)" would read as "nobody owes anything".
    static func properties(_ database: Database, asked: [String], command: String) throws -> [String] {
        let synced = try database.query("SELECT unified_property_id FROM unified_properties ORDER BY 1").compactMap { $0[0].textValue }
        guard !synced.isEmpty else { throw NothingSynced() }
        for key in asked where !synced.contains(key) {
            throw UsageError("\(command): property \"\(key)\" has not been synced (synced: \(synced.prefix(8).joined(separator: ", "))\(synced.count > 8 ? ", ..." : ""))")
        }
        var seen = Set<String>()
        return asked.isEmpty ? synced : asked.filter { seen.insert($0).inserted }
    }

    /// unified.db exists but no property has been synced into it yet.
    struct NothingSynced: Error, CustomStringConvertible {
        var description: String { "no property in unified.db yet (run ownerdash sync or ownerdash ingest first)" }
    }

    /// The result's warnings on stderr, one line each after the command's name (`warning: ownerdash report debtors: ...`).
    func warn(_ result: MetricResult) {
        for warning in result.warnings { log.warning(nil, "\(command): \(warning)") }
    }

    /// Writes the report text to `out`, or to stdout.
    func write(_ text: String, to out: String?) throws {
        guard let out else {
            let output = StandardOutput()
            output.write(text)
            output.flush()
            return
        }
        do {
            try ResultFile.write(text, to: out)
        } catch {
            throw ResultNotWritten.error(error, command: command, out: out)
        }
    }

    /// Writes `result` as `format` asks: `xlsx` as a workbook of one sheet per table (ReportWorkbook), `html` as `page`
    /// (default: the generic printable page titled `title`), anything else as MetricOutput text.
    func write(_ result: MetricResult, format: String, title: String, to out: String?, table: String? = nil,
               page: (() -> String)? = nil) throws {
        switch format {
        case LedgerReportOptions.workbook:
            guard let out else { throw UsageError("\(command): --format xlsx needs --out FILE") }
            try writeWorkbook(to: out) { try ReportWorkbook.write(result, to: $0) }
        case "html":
            try write(page?() ?? ReportPage.render(result, title: title, generatedAt: Timestamp.minute(Date())), to: out)
        case "csv":
            // One table per CSV (CSVTables): `--table NAME`, else the first; `--out DIR/` writes a file per table.
            if CSVTables.isDirectory(out), let out {
                _ = try CSVTables.writeFiles(result, directory: out, command: command)
            } else {
                try write(try CSVTables.render(result, table: table, command: command, log: log), to: out)
            }
        default:
            try write(MetricOutput.render(result, as: OutputFormat(rawValue: format) ?? .table), to: out)
        }
    }

    /// Writes a workbook to `out` through `body` (ReportWorkbook, LeaseStatusWorkbook ...); a failure is one line
    /// naming the file, and nothing is left under its name.
    func writeWorkbook(to out: String, _ body: (String) throws -> Void) throws {
        try Self.writeWorkbook(to: out, command: command, body)
    }

    /// The same for any command (`ownerdash query ... --format xlsx`): `command` names it in the error line.
    static func writeWorkbook(to out: String, command: String, _ body: (String) throws -> Void) throws {
        do {
            try body(out)
        } catch let error as XLSXWriteError {
            switch error {
            case .notWrittenWhole(let detail): throw ResultNotWritten(description: "\(command): cannot write --out \(detail)")
            case .io(let detail): throw UsageError("\(command): cannot write --out \(detail)")
            default: throw UsageError("\(command): cannot write --out \(out): \(error.description)")
            }
        }
    }
}

/// The options every ledger report takes: which properties, the as-of date, the output format and file.
struct LedgerReportOptions {
    let properties: [String]
    let asOf: LocalDate?
    /// The `--format` value, one of `formats`.
    let formatName: String
    let out: String?
    /// `--table NAME` (CSVTables.option): the table a csv prints.
    let table: String?

    /// Every format a report writes, in the order errors list them.
    static let allFormats = ["table", "json", "csv", "xlsx", "html"]

    /// `formats`: the formats this report writes, in the order the error lists them.
    init(_ parsed: ParsedArguments, command: String, formats: [String] = allFormats) throws {
        properties = parsed.values("--property")
        if let text = parsed.value("--as-of") {
            guard let date = LocalDate(iso: text) else { throw UsageError("\(command): --as-of \"\(text)\" is not a date (YYYY-MM-DD)") }
            asOf = date
        } else {
            asOf = nil
        }
        (formatName, out) = try Self.output(parsed, command: command, formats: formats)
        table = parsed.value("--table")
    }

    /// `--format` (checked against `formats`) and `--out`, which a workbook needs.
    static func output(_ parsed: ParsedArguments, command: String, formats: [String] = allFormats) throws -> (String, String?) {
        let format = parsed.value("--format") ?? "table"
        guard formats.contains(format) else {
            throw UsageError("\(command): unknown --format \"\(format)\" (one of \(formats.joined(separator: ", ")))")
        }
        let out = parsed.value("--out")
        if format == workbook && out == nil {
            throw UsageError("\(command): --format xlsx needs --out FILE (a workbook is never written to the terminal)")
        }
        return (format, out)
    }

    /// The `--format` option line of a report that writes every format.
    static let formatHelp = ArgumentSpec.option("--format", "table|json|csv|xlsx|html",
                                                help: "output format (default table); html is a printable page, xlsx a workbook (needs --out)")

    /// The `--format` value of the .xlsx workbook, which only goes to `--out FILE`.
    static let workbook = "xlsx"
}
