import Foundation
import Ledger
import Metrics
import OwnerDashCore
import Render
import SQLiteKit

/// `ownerdash report debtors`: the people who owe money, grouped across all their units, largest total first.
struct DebtorsReportCommand: Command {
    static let names = ["report", "debtors"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "Residents with debt, grouped by person across their units: each unit's debt and months, the total."
    static let arguments: [ArgumentSpec] = [
        .option("--min-debt", "DOLLARS", help: "only people owing at least this much in total (default: any debt)"),
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every synced property"),
        .flag("--portfolio", help: "every synced property (the default)"),
        .option("--as-of", "YYYY-MM-DD", help: "count postings up to this date (default: each property's date)"),
        LedgerReportOptions.formatHelp,
        .option("--out", "FILE", help: "write the report to FILE instead of stdout"),
        CSVTables.option,
    ]
    static let discussion = """
        A unit's debt is every charge posted up to the as-of date less every payment up to it, per household;
        listed when positive. Its months are the months of its most recent charges that make up the debt
        (payments settle the oldest charges first), so the month amounts add up to the debt. One person is
        the same e-mail; without one, the same name (any word order, case and punctuation ignored) and the
        same phone; else the household alone. Three tables: the people (with the portfolio total), each
        unit's debt, the months each covers (JSON keys rows, units, months; csv prints one: --table NAME,
        or --out DIR/ for a file each). A property without a tenant ledger is named on stderr, never
        shown as zeros. Exit 1: bad usage (unknown property, --min-debt not an amount); 3: no unified.db.
        """

    let global: GlobalOptions
    let minDebt: Double?
    let properties: [String]
    let asOf: LocalDate?
    let formatName: String
    let out: String?
    /// `--table NAME`: the table a csv prints.
    let table: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        let command = Self.commandLine
        minDebt = try Self.minDebt(parsed, command: command)
        let options = try LedgerReportOptions(parsed, command: command)
        properties = options.properties
        asOf = options.asOf
        formatName = options.formatName
        out = options.out
        table = options.table
    }

    /// `--min-debt`, shared with `notices generate|send`.
    static func minDebt(_ parsed: ParsedArguments, command: String) throws -> Double? {
        guard let text = parsed.value("--min-debt") else { return nil }
        guard let value = Double(text), value >= 0, value.isFinite else {
            throw UsageError("\(command): --min-debt \"\(text)\" is not an amount (0 or more)")
        }
        return value
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let session = try LedgerReportSession(command: Self.commandLine, dataDirectory: global.dataDirectory,
                                                    asked: properties, log: log)
        else { return .failure }
        let (report, result, risk) = try ReportAnswers.debtors(database: session.database, properties: session.properties,
                                                         asOf: asOf, minDebt: minDebt)
        session.warn(result)
        try session.write(result, format: formatName, title: "Debtors", to: out, table: table) {
            DebtorsPage.render(report, propertyNames: (try? Self.propertyNames(session.database)) ?? [:],
                               generatedAt: Timestamp.minute(Date()), risk: risk)
        }
        return .success
    }

    /// Registry key -> property name, as synced.
    static func propertyNames(_ database: Database) throws -> [String: String] {
        var names: [String: String] = [:]
        for row in try database.query("SELECT unified_property_id, name FROM unified_properties") {
            names[row[0].textValue ?? ""] = row[1].textValue
        }
        return names
    }
}
