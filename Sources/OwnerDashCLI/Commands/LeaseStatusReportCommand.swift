import Foundation
import Ledger
import Metrics
import OwnerDashCore
import Render
import SQLiteKit
import Sync

/// `ownerdash report lease-status`: the monthly rent / utilities payment status of every lease, from unified.db.
struct LeaseStatusReportCommand: Command {
    static let names = ["report", "lease-status"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "Monthly rent and utility payment status per lease (PAID, OVERDUE, PARTIAL, PENDING), from the tenant ledger."
    static let arguments: [ArgumentSpec] = [
        .option("--start", "YYYY-MM", help: "first month of the grid (required)"),
        .option("--months", "N", help: "how many months, 1-12 (default 3)"),
        .flag("--include-inactive", help: "also former and future households that were billed in those months"),
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every synced property"),
        .flag("--portfolio", help: "every synced property (the default)"),
        .option("--as-of", "YYYY-MM-DD", help: "judge 'past due' on this date (default: each property's date)"),
        .option("--format", "table|json|csv|xlsx|html", help: "output format (default table); xlsx a workbook (needs --out), html a printable page"),
        .option("--out", "FILE", help: "write the report to FILE instead of stdout"),
    ]
    static let discussion = """
        One line per lease (a household in a unit), by floor and unit, with its tenants; for each month and for RENT
        and UTILITIES billings (charge_categories in report_definitions.json) a status, by precedence:
          PAID     every billing of that month and kind is paid
          OVERDUE  else, any is past due (due before the as-of date) and not paid
          PARTIAL  else, any is partly paid
          PENDING  else (billed, not yet due)
        blank when there was no such billing. The table shows both statuses per month (R = rent, U = utilities);
        json and csv add billed, paid, balance and due date per month and kind; html is one self-contained,
        printable page with colored badges whose tooltips give those figures; xlsx (with --out FILE) is a
        workbook with a sheet per property, the status cells filled in the badge colors and a comment on
        each with those figures. A property without a tenant ledger is named on stderr and in the no_ledger
        table (the "No ledger" sheet), never shown as zeros. A ledger the nightly windows have brought past
        its last whole pull is named, with that pull's date, in the ledger_whole_as_of table (under the page's
        grid, in the sheet's heading): an adjustment since, dated before the windows, shows from the next one.
        Exit 1: bad usage (--start not YYYY-MM, --months not 1-12, unknown property, xlsx without --out);
        3: no unified.db.
        """

    let global: GlobalOptions
    let start: String
    let months: Int
    let includeInactive: Bool
    let properties: [String]
    let asOf: LocalDate?
    /// nil: the HTML page or the workbook (`formatName`).
    let format: OutputFormat?
    let formatName: String
    let out: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        let command = "ownerdash report lease-status"
        guard let start = parsed.value("--start") else { throw UsageError("\(command): --start YYYY-MM is required") }
        guard LocalDate.isMonth(start) else {
            throw UsageError("\(command): --start \"\(start)\" is not a month (YYYY-MM, e.g. 2026-09)")
        }
        self.start = start
        let monthsText = parsed.value("--months") ?? "3"
        guard let months = Int(monthsText), (1...12).contains(months) else {
            throw UsageError("\(command): --months \"\(monthsText)\" must be a whole number from 1 to 12")
        }
        self.months = months
        includeInactive = parsed.flag("--include-inactive")
        let options = try LedgerReportOptions(parsed, command: command, formats: ["table", "json", "csv", LedgerReportOptions.workbook, "html"])
        properties = options.properties
        asOf = options.asOf
        format = OutputFormat(rawValue: options.formatName)
        formatName = options.formatName
        out = options.out
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let session = try LedgerReportSession(command: "ownerdash report lease-status",
                                                    dataDirectory: global.dataDirectory, asked: properties, log: log)
        else { return .failure }
        let (report, result) = try ReportAnswers.leaseStatus(
            database: session.database, properties: session.properties, start: start, months: months, asOf: asOf,
            includeInactive: includeInactive, detailed: format != .table)
        session.warn(result)
        if formatName == LedgerReportOptions.workbook, let out {
            try session.writeWorkbook(to: out) {
                try LeaseStatusWorkbook.write(report, generatedAt: Timestamp.minute(Date()), to: $0)
            }
            return .success
        }
        // csv: one table (CSVTables), never the properties without a ledger stacked under it.
        let text = try format.map { $0 == .csv ? try CSVTables.render(result, table: nil, command: "ownerdash report lease-status", log: log)
                                               : MetricOutput.render(result, as: $0) }
            ?? LeaseStatusPage.render(report, generatedAt: Timestamp.minute(Date()))
        try session.write(text, to: out)
        return .success
    }
}
