import Foundation
import Ledger
import Metrics
import OwnerDashCore
import Render

/// `ownerdash report rental-tracker`: the residents behind on rent, what they owe and what they paid.
struct RentalTrackerReportCommand: Command {
    static let names = ["report", "rental-tracker"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "Residents behind on rent: balance, months missing, what they owe and what they paid."
    static let arguments: [ArgumentSpec] = [
        .option("--min-balance", "DOLLARS", help: "only residents owing at least this much (default: any balance)"),
        .option("--min-months-behind", "N", help: "only residents with at least N months of rent unpaid and past due (default 1)"),
        .option("--sort", "balance|name|unit", help: "order of the residents (default balance, largest first)"),
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every synced property"),
        .flag("--portfolio", help: "every synced property (the default)"),
        .option("--as-of", "YYYY-MM-DD", help: "judge 'past due' on this date (default: each property's date)"),
        LedgerReportOptions.formatHelp,
        CSVTables.option,
        .option("--out", "FILE", help: "write the report to FILE instead of stdout"),
    ]
    static let discussion = """
        A month is missing when its RENT billing is past due (due before the as-of date) and not fully paid; the
        balance is every charge less every payment of the household. Three tables: the residents (with the total
        balance), what they owe (each charge with something left: due date, period, code, amount) and what they paid
        since their first missing month (date, reference, amount, period, unit). A property without a tenant ledger
        is named on stderr, never shown as zeros. html is the three tables as one printable page; xlsx (with --out
        FILE) is a workbook of two sheets: the residents, and their open charges and payments.
        """

    let global: GlobalOptions
    let minBalance: Double?
    let minMonthsBehind: Int
    let sort: RentalTracker.Sort
    let properties: [String]
    let asOf: LocalDate?
    /// One of LedgerReportOptions.allFormats.
    let format: String
    let out: String?
    let table: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        let command = "ownerdash report rental-tracker"
        if let text = parsed.value("--min-balance") {
            guard let value = Double(text), value >= 0 else { throw UsageError("\(command): --min-balance \"\(text)\" is not an amount (0 or more)") }
            minBalance = value
        } else {
            minBalance = nil
        }
        let monthsText = parsed.value("--min-months-behind") ?? "1"
        guard let months = Int(monthsText), months >= 0 else {
            throw UsageError("\(command): --min-months-behind \"\(monthsText)\" is not a count (0 or more)")
        }
        minMonthsBehind = months
        let sortText = parsed.value("--sort") ?? "balance"
        guard let sort = RentalTracker.Sort(rawValue: sortText) else {
            throw UsageError("\(command): --sort \"\(sortText)\" must be balance, name or unit")
        }
        self.sort = sort
        let options = try LedgerReportOptions(parsed, command: command)
        properties = options.properties
        asOf = options.asOf
        format = options.formatName
        out = options.out
        table = options.table
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let session = try LedgerReportSession(command: "ownerdash report rental-tracker",
                                                    dataDirectory: global.dataDirectory, asked: properties, log: log)
        else { return .failure }
        let (tracker, result) = try ReportAnswers.rentalTracker(
            database: session.database, properties: session.properties, asOf: asOf, minBalance: minBalance,
            minMonthsBehind: minMonthsBehind, sort: sort)
        for warning in result.warnings { log.warning(nil, "ownerdash report rental-tracker: \(warning)") }
        if format == LedgerReportOptions.workbook {
            guard let out else { return .usage }   // LedgerReportOptions refuses xlsx without --out
            try session.writeWorkbook(to: out) {
                try RentalTrackerWorkbook.write(tracker, result: result, generatedAt: Timestamp.minute(Date()), to: $0)
            }
            return .success
        }
        try session.write(result, format: format, title: "Rental tracker", to: out, table: table)
        return .success
    }
}
