import Foundation
import Ledger
import Metrics
import OwnerDashCore
import Render

/// `ownerdash report statement`: one resident's ledger with a running balance.
struct StatementReportCommand: Command {
    static let names = ["report", "statement"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "One resident's statement: every charge and payment in date order with the running balance."
    static let arguments: [ArgumentSpec] = [
        .option("--resident", "ID", help: "the household's resident id (Yardi tenant code, RealPage ReshID), as other reports print it"),
        .option("--property", "KEY", help: "the property (needed only when several synced properties have that resident id)"),
        .option("--from", "YYYY-MM", help: "list from this month on; everything earlier is the opening balance"),
        .option("--as-of", "YYYY-MM-DD", help: "leave out postings after this date (default: the property's date)"),
        LedgerReportOptions.formatHelp,
        CSVTables.option,
        .option("--out", "FILE", help: "write the report to FILE instead of stdout"),
    ]
    static let discussion = """
        Charges are dated by their charge date, payments by their payment date; on one day charges come first. The
        balance column runs from the opening balance; the last line's balance is what the resident owes (negative: in
        credit). A property without a tenant ledger has no statement. A co-resident's id (RealPage's ReshID-MemberID)
        gives its household's statement, with a warning naming both.
        """

    let global: GlobalOptions
    let resident: String
    let from: String?
    let options: LedgerReportOptions

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        let command = "ownerdash report statement"
        guard let resident = parsed.value("--resident"), !resident.isEmpty else {
            throw UsageError("\(command): --resident ID is required")
        }
        self.resident = resident
        if let month = parsed.value("--from") {
            guard LocalDate.isMonth(month) else { throw UsageError("\(command): --from \"\(month)\" is not a month (YYYY-MM)") }
            from = month
        } else {
            from = nil
        }
        options = try LedgerReportOptions(parsed, command: command)
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let command = "ownerdash report statement"
        guard let session = try LedgerReportSession(command: command, dataDirectory: global.dataDirectory,
                                                    asked: options.properties, log: log)
        else { return .failure }
        let household: ResidentStatement.Household
        let result: MetricResult
        switch try ReportAnswers.statement(database: session.database, residentID: resident, properties: session.properties,
                                           from: from, asOf: options.asOf) {
        case .success(let answer):
            (household, result) = answer
        case .failure(.noResident):
            throw UsageError("\(command): no resident \"\(resident)\" in \(session.properties.count == 1 ? session.properties[0] : "the synced properties") (resident ids are those of unified_residents, as report rental-tracker prints them)")
        case .failure(.ambiguous(let properties)):
            throw UsageError("\(command): resident \"\(resident)\" is in several properties (\(properties.joined(separator: ", "))): add --property KEY")
        case .failure(.partialLedger(let property)):
            log.error(nil, "\(command): \(property): partial ledger (Delinquent and Prepaid balances, no posted charges or payments), so no statement")
            return .failure
        case .failure(.noLedger(let property)):
            log.error(nil, "\(command): \(property): no tenant ledger synced for this property, so no statement")
            return .failure
        }
        session.warn(result)
        try session.write(result, format: options.formatName, title: "Statement of \(household.name ?? resident)", to: options.out, table: options.table)
        return .success
    }
}

/// `ownerdash report tenant-history`: the households of one unit, past and present.
struct TenantHistoryReportCommand: Command {
    static let names = ["report", "tenant-history"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "Everyone who has lived in one unit: move-in, move-out, leases and balance, oldest first."
    static let arguments: [ArgumentSpec] = [
        .option("--property", "KEY", help: "the property registry key"),
        .option("--unit", "UNIT", help: "the unit number, as the other reports print it"),
        LedgerReportOptions.formatHelp,
        CSVTables.option,
        .option("--out", "FILE", help: "write the report to FILE instead of stdout"),
    ]
    static let discussion = """
        Two tables: the households (former, current and future residents of the unit, by move-in date, each with the
        co-residents on its leases) with their balance — from the tenant ledger where the property has one, else the
        PMS's own resident balance — and their leases on the unit: those the PMS lists, and those only the ledger's
        charges name (source ledger: the months posted). A household whose earliest lease the PMS lists is a renewal
        is named in a warning: the PMS no longer sends the leases before it.
        """

    let global: GlobalOptions
    let property: String
    let unit: String
    let formatName: String
    let out: String?
    let table: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        let command = "ownerdash report tenant-history"
        guard let property = parsed.value("--property") else { throw UsageError("\(command): --property KEY is required") }
        guard let unit = parsed.value("--unit"), !unit.isEmpty else { throw UsageError("\(command): --unit UNIT is required") }
        self.property = property
        self.unit = unit
        (formatName, out) = try LedgerReportOptions.output(parsed, command: command)
        table = parsed.value("--table")
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let command = "ownerdash report tenant-history"
        guard let session = try LedgerReportSession(command: command, dataDirectory: global.dataDirectory,
                                                    asked: [property], log: log)
        else { return .failure }
        guard let result = try ReportAnswers.tenantHistory(database: session.database, property: property, unit: unit) else {
            throw UsageError("\(command): \(property) has no unit \"\(unit)\"")
        }
        session.warn(result)
        try session.write(result, format: formatName, title: "Tenant history of \(property) unit \(unit)", to: out, table: table)
        return .success
    }
}
