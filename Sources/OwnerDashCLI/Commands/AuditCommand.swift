import Foundation
import Ledger
import Metrics
import OwnerDashCore
import Render
import SQLiteKit
import Sync

// `ownerdash audit run | show | resolve | reopen`: the lease-charge audit (Sources/Ledger/ChargeAudit.swift says the
// rules). `run`, `resolve` and `reopen` write the audit tables of unified.db (migrating it forward first); `show`
// (and its report spelling `report audit`) only reads.

/// `ownerdash audit run`: audits the tenant ledger and records the run.
struct AuditRunCommand: Command {
    static let names = ["audit", "run"]
    static let unifiedAccess = UnifiedAccess.writesThrough(scope: "audit")
    static let abstract = "Lease-charge audit: each lease's recurring charges, expected vs. posted, recorded as a run."
    static let arguments: [ArgumentSpec] = [
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every synced property"),
        .flag("--portfolio", help: "every synced property (the default)"),
        .option("--as-of", "YYYY-MM-DD", help: "last day charges are due by (default: the latest property date)"),
        .option("--months", "N", help: "months audited, ending with the as-of month, 1-120 (default 12)"),
    ]
    static let discussion = """
        For every lease, charge code and month: expected = the lease's recurring charge in effect on the first day
        of possession that month, prorated for a partial month at move-in or move-out (amount x days in possession /
        days in month, rounded half up to the cent); posted = the charges of that lease (or its residents), code and
        period. Each line is matched, or an exception: missing, undercharge, overcharge, or unexpected (posted in a
        month the lease schedules nothing of that code; codes a lease never schedules, such as late fees, are not
        audited). A lease whose schedule the PMS no longer sends (a former or renewed lease) is audited for its rent
        against the rent the lease states; its other charges are counted as not audited, with their amount. Prints
        the run id and, per property, leases, lines, exceptions and the under- and overcharge totals. Runs are kept;
        see them with ownerdash audit show [RUN].
        Example: ownerdash audit run --property nexus_east --as-of 2026-11-20 --months 6
        Exit 1: bad usage or unknown property; 2: a property has posted charges in the months but no schedule line
        to audit them against (named on stderr; the run is recorded); 3: no unified.db.
        """

    let global: GlobalOptions
    let properties: [String]
    let asOf: LocalDate?
    let months: Int

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        let command = Self.commandLine
        properties = parsed.values("--property")
        if parsed.flag("--portfolio") && !properties.isEmpty {
            throw UsageError("\(command): --portfolio and --property exclude each other")
        }
        if let text = parsed.value("--as-of") {
            guard let date = LocalDate(iso: text) else { throw UsageError("\(command): --as-of \"\(text)\" is not a date (YYYY-MM-DD)") }
            asOf = date
        } else {
            asOf = nil
        }
        let monthsText = parsed.value("--months") ?? "12"
        guard let months = Int(monthsText), (1...120).contains(months) else {
            throw UsageError("\(command): --months \"\(monthsText)\" must be a whole number from 1 to 120")
        }
        self.months = months
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let database = try AuditDatabase.openForWriting(command: Self.commandLine, global.dataDirectory, log) else {
            return .failure
        }
        let keys = try LedgerReportSession.properties(database, asked: properties, command: Self.commandLine)
        let run = try ChargeAudit.run(database: database, properties: keys, asOf: asOf, months: months,
                                      now: { Timestamp.iso(Date()) })
        let report = try AuditReport.load(database: database, runID: run.runID, details: false)
        for key in report.noLedger { log.warning(key, "\(Self.commandLine): no tenant ledger synced for this property (not audited)") }
        for key in report.partialLedger {
            log.warning(key, "\(Self.commandLine): partial ledger, schedule only, no posted charges (not audited)")
        }
        // Posted charges and nothing to hold them against: 0 exceptions there would say "all matched". Named, exit 2.
        let unaudited = try ChargeAudit.unaudited(database: database, runID: run.runID)
        for property in unaudited {
            let first = run.months.first ?? "", last = run.months.last ?? ""
            let schedule = property.scheduleLines == 0 ? "no recurring-charge schedule was synced"
                : "none of the \(property.scheduleLines) recurring-charge lines falls in those months"
            log.error(property.property, "\(Self.commandLine): \(property.postedCharges) charges posted from \(first) to "
                + "\(last) but \(schedule), so nothing was audited (0 leases, 0 lines is not a pass); sync its lease "
                + "charges (Yardi GetResidentLeaseCharges_Login, RPX getscheduledcharges) and run the audit again")
        }
        let result = report.result(exceptionsOnly: true, parameters: [])
        let output = StandardOutput()
        output.write("audit run \(run.runID): \(run.months.first ?? "") to \(run.months.last ?? ""), as of \(run.asOf.iso)\n")
        output.write(MetricOutput.render(MetricResult(metric: "audit", parameters: [], tables: [result.tables[0]]), as: .table))
        output.flush()
        return unaudited.isEmpty ? .success : .partial
    }
}

/// `ownerdash audit show` (also `ownerdash report audit`): a recorded run, its exceptions and their status.
struct AuditShowCommand: Command {
    static let names = ["audit", "show"]
    static let unifiedAccess = UnifiedAccess.reads
    static let aliases = [["report", "audit"]]
    static let abstract = "A recorded lease-charge audit run: per property, per lease and charge code, and the exceptions."
    static let arguments: [ArgumentSpec] = [
        .positional("RUN", optional: true, help: "audit run id (default: the latest run)"),
        .flag("--exceptions-only", help: "only the property totals and the exceptions, not every lease and code"),
        LedgerReportOptions.formatHelp,
        CSVTables.option,
        .option("--out", "FILE", help: "write the report to FILE instead of stdout"),
    ]
    static let discussion = """
        Three tables: properties (leases, lines, matched, exceptions by kind, under- and overcharge totals), leases
        (per lease and charge code: months, matched, exceptions, status Passed / Open / Resolved) and exceptions,
        each with the KEY to resolve it by (property:lease:code:YYYY-MM), the amounts, its status and the latest
        resolution or reopening of that key recorded against this run or an earlier one (historical = yes when it
        was recorded against an earlier run; the latest event wins).
        Example: ownerdash audit show --exceptions-only --format csv --out audit.csv
        Exit 1: bad usage, no such run; 3: no unified.db.
        """

    /// Formats this command writes; xlsx joins here once the report writer has it (planned for every report).
    let global: GlobalOptions
    let runID: Int64?
    let exceptionsOnly: Bool
    let formatName: String
    let out: String?
    let table: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        let command = Self.commandLine
        if let text = parsed.value("RUN") {
            guard let id = Int64(text), id > 0 else { throw UsageError("\(command): RUN \"\(text)\" is not an audit run id (a number)") }
            runID = id
        } else {
            runID = nil
        }
        exceptionsOnly = parsed.flag("--exceptions-only")
        (formatName, out) = try LedgerReportOptions.output(parsed, command: command)
        table = parsed.value("--table")
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let session = try LedgerReportSession(command: Self.commandLine, dataDirectory: global.dataDirectory,
                                                    asked: [], log: log) else { return .failure }
        let report: AuditReport
        let result: MetricResult
        do {
            (report, result) = try ReportAnswers.audit(database: session.database, runID: runID, exceptionsOnly: exceptionsOnly)
        } catch let error as AuditError {
            throw UsageError("\(Self.commandLine): \(error.description)")
        }
        session.warn(result)
        try session.write(result, format: formatName, title: "Lease-charge audit", to: out, table: table) {
            AuditPage.render(report, exceptionsOnly: exceptionsOnly, generatedAt: Timestamp.minute(Date()))
        }
        return .success
    }
}

/// `ownerdash audit resolve`: records what was done about an exception.
struct AuditResolveCommand: Command {
    static let names = ["audit", "resolve"]
    static let unifiedAccess = UnifiedAccess.writesThrough(scope: "audit")
    static let abstract = "Records the resolution of a lease-charge audit exception (kept across runs)."
    static let arguments: [ArgumentSpec] = [
        .positional("KEY", help: "the exception, property:lease:charge code:YYYY-MM as audit show prints it"),
        .option("--fix", "LABEL", help: "what was done, in a few words (required)"),
        .option("--action", "TYPE", help: "charge|credit|schedule|waive|none (required)"),
        .option("--by", "NAME", help: "who resolved it (required)"),
        .option("--note", "TEXT", help: "anything else worth keeping"),
    ]
    static let discussion = """
        KEY must be an exception of the latest run that audited its property. Actions: charge (the missing or short
        amount was posted), credit (the overcharge was credited back), schedule (the lease's recurring charges were
        corrected), waive (forgiven on purpose), none (the posted amount is right). Resolutions are never
        overwritten: a later resolve or reopen of the same key is a new event, and the latest one wins in this and
        every later run.
        Example: ownerdash audit resolve nexus_east:L123:WATER:2026-09 --fix "posted water" --action charge --by dana
        """

    let global: GlobalOptions
    let key: AuditKey
    let fix: String
    let action: AuditResolutions.Action
    let by: String
    let note: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        let command = Self.commandLine
        key = try AuditDatabase.key(parsed, command: command)
        guard let fix = parsed.value("--fix"), !fix.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw UsageError("\(command): --fix LABEL is required (what was done)")
        }
        self.fix = fix
        guard let actionText = parsed.value("--action") else {
            throw UsageError("\(command): --action TYPE is required (\(AuditResolutions.Action.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let action = AuditResolutions.Action(rawValue: actionText) else {
            throw UsageError("\(command): --action \"\(actionText)\" must be one of \(AuditResolutions.Action.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.action = action
        by = try AuditDatabase.by(parsed, command: command)
        note = parsed.value("--note")
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let database = try AuditDatabase.openForWriting(command: Self.commandLine, global.dataDirectory, log) else {
            return .failure
        }
        let run = try AuditDatabase.usage(Self.commandLine) {
            try AuditResolutions.resolve(database: database, key: key, fix: fix, action: action, by: by, note: note,
                                         at: Timestamp.iso(Date()))
        }
        print("\(key): resolved (\(action.rawValue): \(fix)) by \(by), recorded against audit run \(run)")
        return .success
    }
}

/// `ownerdash audit reopen`: makes a resolved exception Open again.
struct AuditReopenCommand: Command {
    static let names = ["audit", "reopen"]
    static let unifiedAccess = UnifiedAccess.writesThrough(scope: "audit")
    static let abstract = "Reopens a resolved lease-charge audit exception (the resolution stays in the history)."
    static let arguments: [ArgumentSpec] = [
        .positional("KEY", help: "the exception, property:lease:charge code:YYYY-MM as audit show prints it"),
        .option("--by", "NAME", help: "who reopened it (required)"),
        .option("--note", "TEXT", help: "why"),
    ]
    static let discussion = """
        KEY must be an exception of the latest run that audited its property, and resolved now.
        Example: ownerdash audit reopen nexus_east:L123:WATER:2026-09 --by dana --note "water still not posted"
        """

    let global: GlobalOptions
    let key: AuditKey
    let by: String
    let note: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        key = try AuditDatabase.key(parsed, command: Self.commandLine)
        by = try AuditDatabase.by(parsed, command: Self.commandLine)
        note = parsed.value("--note")
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let database = try AuditDatabase.openForWriting(command: Self.commandLine, global.dataDirectory, log) else {
            return .failure
        }
        let run = try AuditDatabase.usage(Self.commandLine) {
            try AuditResolutions.reopen(database: database, key: key, by: by, note: note, at: Timestamp.iso(Date()))
        }
        print("\(key): reopened by \(by), recorded against audit run \(run)")
        return .success
    }
}

/// What the audit commands share: unified.db opened for writing, the properties, the key and `--by` checks.
enum AuditDatabase {
    /// unified.db opened read-write and migrated forward; nil (after logging why) when there is none yet (exit 3).
    static func openForWriting(command: String, _ dataDirectory: DataDirectory, _ log: Diagnostics) throws -> Database? {
        guard FileManager.default.fileExists(atPath: dataDirectory.unifiedDatabase) else {
            log.error(nil, "\(command): \(dataDirectory.unifiedDatabase): no unified database yet (run ownerdash sync or ownerdash ingest first)")
            return nil
        }
        let database = try Database(path: dataDirectory.unifiedDatabase)
        try database.migrate(UnifiedSchema.migrations)
        return database
    }

    static func key(_ parsed: ParsedArguments, command: String) throws -> AuditKey {
        try usage(command) { try AuditKey(parsing: parsed.value("KEY") ?? "") }
    }

    static func by(_ parsed: ParsedArguments, command: String) throws -> String {
        guard let by = parsed.value("--by"), !by.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw UsageError("\(command): --by NAME is required (who did it)")
        }
        return by
    }

    /// Runs `body`, turning an audit error (unknown key, not resolved) into a one-line usage error (exit 1).
    static func usage<T>(_ command: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as AuditError {
            throw UsageError("\(command): \(error.description)")
        }
    }

}
