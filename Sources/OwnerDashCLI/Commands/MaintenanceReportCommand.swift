import Foundation
import Metrics
import OwnerDashCore
import Render

/// `ownerdash report maintenance`: open and closed work orders, days to complete, aged open work orders.
struct MaintenanceReportCommand: Command {
    static let names = ["report", "maintenance"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "Work orders per property: open, closed, days to complete, by category; open ones aging."
    static let arguments: [ArgumentSpec] = [
        .option("--months", "N", help: "window for closed work orders and days to complete, 1-24 (default 3)"),
        .option("--older-than", "DAYS", help: "list open work orders opened more than DAYS ago (default 30)"),
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every synced property"),
        .flag("--portfolio", help: "every synced property (the default)"),
        .option("--as-of", "YYYY-MM-DD", help: "count as of this date (default: each property's date)"),
        LedgerReportOptions.formatHelp,
        CSVTables.option,
        .option("--out", "FILE", help: "write the report to FILE instead of stdout"),
    ]
    static let discussion = """
        Work orders are RealPage make-ready turns (Make Ready and Closed Make Ready Summary reports) and Yardi
        service requests. On the as-of date: open = opened by then and not completed; closed in the window =
        completed in the --months months ending then; days to complete = completed − opened (median and average
        over the window); aged = open and opened more than --older-than days before. A property without a
        work-order source is named on stderr and in the no_work_order_source table, never shown as zeros.
        Exit 1: bad usage or unknown property; 3: no unified.db.
        """

    let global: GlobalOptions
    let months: Int
    let olderThan: Int
    let options: LedgerReportOptions

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        let command = "ownerdash report maintenance"
        let monthsText = parsed.value("--months") ?? "3"
        guard let months = Int(monthsText), (1...24).contains(months) else {
            throw UsageError("\(command): --months \"\(monthsText)\" must be a whole number from 1 to 24")
        }
        self.months = months
        let olderText = parsed.value("--older-than") ?? "30"
        guard let older = Int(olderText), older >= 0 else {
            throw UsageError("\(command): --older-than \"\(olderText)\" is not a number of days (0 or more)")
        }
        olderThan = older
        options = try LedgerReportOptions(parsed, command: command)
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let session = try LedgerReportSession(command: "ownerdash report maintenance",
                                                    dataDirectory: global.dataDirectory, asked: options.properties, log: log)
        else { return .failure }
        let result = try ReportAnswers.maintenance(database: session.database, properties: session.properties,
                                                   asOf: options.asOf, months: months, olderThanDays: olderThan)
        session.warn(result)
        try session.write(result, format: options.formatName, title: "Maintenance", to: options.out, table: options.table)
        return .success
    }
}

/// `ownerdash report expenses`: operating expenses per property by GL category and month.
struct ExpensesReportCommand: Command {
    static let names = ["report", "expenses"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "Operating expenses per property: GL category × month, with totals (RealPage income statements, Yardi invoice registers)."
    static let arguments: [ArgumentSpec] = [
        .option("--start", "YYYY-MM", help: "first month (default: the --months months ending with the latest synced)"),
        .option("--months", "N|all", help: "how many months, 1-24, or all: every month synced (default 3)"),
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every synced property"),
        .flag("--portfolio", help: "every synced property (the default)"),
        LedgerReportOptions.formatHelp,
        CSVTables.option,
        .option("--out", "FILE", help: "write the report to FILE instead of stdout"),
    ]
    static let discussion = """
        RealPage: each month from one report, the first loaded of Income Statement, Monthly Income Summary (income
        only), Cash Basis G/L Distribution; the operating table adds income and net operating income (RealPage
        only) and the sources table names the report of each month. Yardi: the accounts-payable invoice lines posted
        to the month (Yardi GetInvoiceRegister, by post month), summed per GL category (gl_categories in
        report_definitions.json over the defaults by account range: 61xx Payroll, 62xx Administrative, 63xx Repairs
        & Maintenance, 64xx Turnover, 65xx Contract Services, 66xx Marketing, 67xx Utilities, 68xx Insurance, 69xx
        Taxes, 70xx Management Fees; unknown accounts count as Other). One line per category and an all-categories
        line per property, a column per month and the total; json and csv add every GL account line. A month
        without a statement is "-", never 0; a property without an expense source is named on stderr and in the
        no_expense_source table. Exit 1: bad usage or unknown property; 3: no unified.db.
        """

    let global: GlobalOptions
    let start: String?
    /// nil: `--months all`.
    let months: Int?
    let options: LedgerReportOptions

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        let command = "ownerdash report expenses"
        if let start = parsed.value("--start") {
            let parts = start.split(separator: "-", omittingEmptySubsequences: false)
            guard start.count == 7, parts.count == 2, parts[0].count == 4, let year = Int(parts[0]), year >= 1900,
                  let month = Int(parts[1]), (1...12).contains(month) else {
                throw UsageError("\(command): --start \"\(start)\" is not a month (YYYY-MM, e.g. 2026-09)")
            }
            self.start = start
        } else {
            start = nil
        }
        let monthsText = parsed.value("--months") ?? "3"
        if monthsText == "all" {
            months = nil
        } else {
            guard let months = Int(monthsText), (1...24).contains(months) else {
                throw UsageError("\(command): --months \"\(monthsText)\" must be a whole number from 1 to 24, or all")
            }
            self.months = months
        }
        options = try LedgerReportOptions(parsed, command: command)
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let session = try LedgerReportSession(command: "ownerdash report expenses",
                                                    dataDirectory: global.dataDirectory, asked: options.properties, log: log)
        else { return .failure }
        let result = try ReportAnswers.expenses(database: session.database, properties: session.properties, start: start,
                                                months: months)
        session.warn(result)
        try session.write(result, format: options.formatName, title: "Operating expenses", to: options.out, table: options.table)
        return .success
    }
}

