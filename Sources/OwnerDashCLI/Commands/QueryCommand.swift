import Metrics
import OwnerDashCore
import Render
import SQLiteKit
import Sync

/// `ownerdash query`: answers an owner's question from unified.db, opened read-only (never waits on a sync).
struct QueryCommand: Command {
    static let names = ["query"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "Answer occupancy, exposure, pricing, delinquency, funnel and activity questions from unified.db."
    static let arguments: [ArgumentSpec] = [
        .positional("METRIC", help: MetricQuery.Metric.allCases.map(\.rawValue).joined(separator: "|")),
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: the portfolio"),
        .flag("--portfolio", help: "every synced property, with the portfolio roll-up (the default)"),
        .option("--pms", "realpage|yardi", help: "only the portfolio's properties on this source system"),
        .option("--as-of", "YYYY-MM-DD", help: "read each property's latest snapshot on or before this date (default: the latest)"),
        .option("--from", "YYYY-MM-DD", help: "start of a trend (occupancy, exposure), the funnel, activity or trade-out range"),
        .option("--to", "YYYY-MM-DD", help: "end of that range (inclusive)"),
        .option("--top", "N", help: "delinquency: how many residents to list by balance owed (default 10; 0: none)"),
        .option("--format", "table|json|csv|xlsx", help: "output format (default table); xlsx needs --out"),
        .option("--out", "FILE", help: "xlsx: the workbook to write (one sheet per table, printable)"),
        CSVTables.option,
    ]
    static let discussion = """
        Metrics (formulas in docs/analysts.md, "Querying"):
          occupancy    occupancy %, leased % (RealPage Net Leased), vacant ready / not ready, aged vacant > 90 days
                       and their vacancy cost, on notice, pre-leased; with --from/--to the series of snapshots
          exposure     exposure now / 30 / 60 days, units and % of units; with --from/--to the series
          pricing      by floorplan: units, avg sq ft, in-place and asking rent, per sq ft, loss-to-lease, trade-out
                       of the leases starting --from..--to (default the 90 days ending at the as-of date)
          delinquency  aging 0-30 / 31-60 / 61-90 / 90+, prepaid, net; the --top residents by balance owed
          funnel       leads, tours, applications, approvals, leases and conversions over --from..--to (default the
                       30 days ending at the as-of date), and leads by source
          activity     per month of --from..--to (default 12 months): move-ins, move-outs, net absorption, notices,
                       renewals, leases expiring, renewal %
          summary      one line per property: units, occupancy, leased, exposure 30/60, vacant ready, aged vacant,
                       delinquent, net delinquent, 30-day leads and leases, move-ins/outs of the month
        Without --property the answer covers every synced property and adds the portfolio roll-up (counts and
        amounts summed, percentages recomputed from the sums). --as-of reads, per property, the latest snapshot on
        or before the date. json and csv print nothing but the result on stdout; xlsx writes a workbook to --out
        (a sheet per table, headers in words, landscape one page wide with the header row on every page). Exit 1:
        bad usage or unknown property; 3: nothing to read (no unified.db, no snapshot at that date).
        """

    let global: GlobalOptions
    let query: MetricQuery
    /// nil: `--format xlsx` (a workbook to `out`, not text on stdout).
    let format: OutputFormat?
    /// `--out FILE`: where the xlsx workbook goes.
    let out: String?
    /// `--table NAME`: the table a csv prints.
    let table: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        let command = "ownerdash query"
        let metricName = parsed.value("METRIC") ?? ""
        guard let metric = MetricQuery.Metric(rawValue: metricName) else {
            throw UsageError("\(command): unknown metric \"\(metricName)\" (one of \(MetricQuery.Metric.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        func date(_ option: String) throws -> LocalDate? {
            guard let text = parsed.value(option) else { return nil }
            guard let date = LocalDate(iso: text) else {
                throw UsageError("\(command): \(option) \"\(text)\" is not a date (YYYY-MM-DD)")
            }
            return date
        }
        var top: Int?
        if let text = parsed.value("--top") {
            guard let number = Int(text), number >= 0 else {
                throw UsageError("\(command): --top \"\(text)\" is not a count (0 or more)")
            }
            top = number
        }
        let pms = parsed.value("--pms")
        if let pms, PMS(rawValue: pms) == nil {
            throw UsageError("\(command): --pms must be realpage or yardi, not \"\(pms)\"")
        }
        let formatName = parsed.value("--format") ?? "table"
        out = parsed.value("--out")
        if formatName == "xlsx" {
            guard out != nil else { throw UsageError("\(command): --format xlsx needs --out FILE (a workbook is never written to the terminal)") }
            format = nil
        } else {
            guard let format = OutputFormat(rawValue: formatName) else {
                throw UsageError("\(command): unknown --format \"\(formatName)\" (one of table, json, csv, xlsx)")
            }
            if out != nil { throw UsageError("\(command): --out is for --format xlsx (the other formats print on stdout)") }
            self.format = format
        }
        table = parsed.value("--table")
        query = MetricQuery(metric: metric, properties: parsed.values("--property"), portfolio: parsed.flag("--portfolio"),
                            pms: pms, asOf: try date("--as-of"), from: try date("--from"), to: try date("--to"), top: top)
    }

    func validate() throws {
        do {
            try query.validate()
        } catch let error as MetricsError {
            throw UsageError("ownerdash \(error)")
        }
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let database: Database
        do {
            database = try UnifiedStore.openForReading(dataDirectory: global.dataDirectory)
        } catch let error as ConfigurationError {
            // No unified.db (or one this build cannot read): nothing to answer from.
            log.error(nil, "ownerdash query: \(error.description)")
            return .failure
        }
        let result: MetricResult
        do {
            result = try Metrics.run(query, database: database)
        } catch let error as MetricsError {
            log.error(nil, "ownerdash query \(query.metric.rawValue): \(error)")
            switch error {
            case .unknownProperty, .wrongPMS, .invalidQuery: return .usage
            case .nothingSynced, .noSnapshot, .noSnapshotBetween, .noUnitData: return .failure
            }
        }
        for warning in result.warnings { log.warning(nil, "ownerdash query \(query.metric.rawValue): \(warning)") }
        guard let format else {
            try LedgerReportSession.writeWorkbook(to: out ?? "", command: "ownerdash query \(query.metric.rawValue)") {
                try ReportWorkbook.write(result, to: $0)
            }
            return .success
        }
        let output = StandardOutput()
        output.write(format == .csv ? try CSVTables.render(result, table: table, command: "ownerdash query \(query.metric.rawValue)", log: log)
                                    : MetricOutput.render(result, as: format))
        output.flush()
        return .success
    }
}
