import Metrics
import OwnerDashCore
import SQLiteKit

/// Where an exception, or a lease's charge code, stands in a run.
public enum AuditStatus: String, Sendable, CaseIterable {
    /// No exception in the run.
    case passed = "Passed"
    /// An exception nobody resolved, or one reopened since.
    case open = "Open"
    /// Every exception has a resolution (the latest event of its key is a resolution).
    case resolved = "Resolved"
}

/// `ownerdash audit show` (`report audit`): one recorded run read back, with each exception's status recomputed from
/// the resolutions recorded against that run or any earlier one (the latest event of a key wins; one row per
/// exception, however many events its key has). A resolution recorded against an earlier run is `historical`.
public struct AuditReport: Sendable {
    /// One exception with its key and where it stands.
    public struct Exception: Sendable, Equatable {
        public var key: AuditKey
        public var residentID: String?
        public var unit: String?
        public var kind: String
        public var expected: Money
        public var posted: Money
        public var variance: Money
        public var status: AuditStatus
        /// The latest resolution event of the key: resolved or reopened, with who, when and the run it was recorded against.
        public var event: String?
        public var fix: String?
        public var action: String?
        public var by: String?
        public var at: String?
        public var note: String?
        public var eventRun: Int64?
        /// The event was recorded against an earlier run than this one.
        public var historical: Bool { eventRun.map { $0 < runID } ?? false }
        public var runID: Int64
        /// What the expected amount came from, as its (lease, code) line records it (`LeaseCharge.expectedFrom`).
        public var expectedFrom: String? = nil
    }

    /// The exceptions table's columns, as `result` writes them and the API's schema declares them.
    public static let exceptionColumns: [MetricResult.Column] = [
        .init("key", .text), .init("unit", .text), .init("resident_id", .text), .init("kind", .text),
        .init("expected", .money), .init("posted", .money), .init("variance", .money), .init("status", .text),
        .init("fix", .text), .init("action", .text), .init("by", .text), .init("at", .text), .init("note", .text),
        .init("resolution_run", .count), .init("historical", .text), .init("expected_from", .text),
    ]

    /// One lease and charge code: months audited, matched and flagged, and its status.
    public struct LeaseCharge: Sendable, Equatable {
        public var property: String
        public var unit: String?
        public var leaseID: String
        public var residentID: String?
        public var chargeCode: String
        public var months: Int
        public var matched: Int
        public var exceptions: Int
        public var expectedTotal: Money
        public var postedTotal: Money
        public var status: AuditStatus
        /// What the expected amounts came from: `schedule`, or `lease rent` for a lease without any schedule line
        /// (nil: a run recorded before it was kept).
        public var expectedFrom: String? = nil
    }

    /// The per-lease table's columns, as `result` writes them and the API's schema declares them.
    public static let leaseColumns: [MetricResult.Column] = [
        .init("property", .text), .init("unit", .text), .init("lease_id", .text), .init("resident_id", .text),
        .init("charge_code", .text), .init("months", .count), .init("matched", .count), .init("exceptions", .count),
        .init("expected", .money), .init("posted", .money), .init("status", .text), .init("expected_from", .text),
    ]

    public var runID: Int64
    public var startedAt: String
    public var asOf: String
    public var firstMonth: String
    public var lastMonth: String
    public var properties: [ChargeAudit.PropertyTotals]
    public var noLedger: [String]
    /// Properties not audited because their ledger is partial (a schedule, no posted charges).
    public var partialLedger: [String] = []
    public var leaseCharges: [LeaseCharge]
    public var exceptions: [Exception]

    /// The audited properties whose ledger nightly windows had brought past its last whole pull, as the run recorded them.
    public var ledgerWholeAsOf: [String: LedgerWholeAsOf] {
        Dictionary(properties.compactMap { p in
            p.ledgerWholeAsOf.map { (p.property, LedgerWholeAsOf(asOf: p.asOf, wholeAsOf: $0)) }
        }) { $1 }
    }

    /// Reads run `runID`, or the latest run when nil; throws when there is no such run. `details` false reads the
    /// totals only (no leases, no exceptions): what `audit run` prints, without reading back a portfolio's rows.
    public static func load(database: Database, runID: Int64?, details: Bool = true) throws -> AuditReport {
        let id: Int64
        if let runID {
            id = runID
        } else {
            guard let latest = try database.scalar("SELECT max(run_id) FROM audit_runs")?.integerValue else {
                throw AuditError("no audit run yet (run ownerdash audit run first)")
            }
            id = latest
        }
        var run: (startedAt: String, asOf: String, firstMonth: String, lastMonth: String)?
        try database.prepare("""
            SELECT started_at, as_of_date, first_month, last_month FROM audit_runs WHERE run_id = :run
            """).forEachRow([":run": .integer(id)]) { row in
            run = (row.text("started_at") ?? "", row.text("as_of_date") ?? "", row.text("first_month") ?? "",
                   row.text("last_month") ?? "")
        }
        guard let run else {
            let latest = try database.scalar("SELECT max(run_id) FROM audit_runs")?.integerValue
            throw AuditError("no audit run \(id)\(latest.map { " (the latest is \($0))" } ?? " (no audit run yet)")")
        }
        let parameters: [String: SQLValue] = [":run": .integer(id)]
        // A portfolio's run reads back thousands of exceptions and lease charges: their columns are looked up by name
        // once per statement, not per row (a lookup by name builds a String for every column it compares).
        var exceptions: [Exception] = []
        if details {
            let statement = try database.prepare(exceptionsSQL)
            let column = (property: statement.columnIndex("unified_property_id"), lease: statement.columnIndex("lease_id"),
                          resident: statement.columnIndex("resident_id"), unit: statement.columnIndex("unit_number"),
                          chargeCode: statement.columnIndex("charge_code"), month: statement.columnIndex("month"),
                          kind: statement.columnIndex("kind"), expected: statement.columnIndex("expected_cents"),
                          posted: statement.columnIndex("posted_cents"), variance: statement.columnIndex("variance_cents"),
                          event: statement.columnIndex("event"), fix: statement.columnIndex("fix"),
                          action: statement.columnIndex("action"), by: statement.columnIndex("by_name"),
                          at: statement.columnIndex("at"), note: statement.columnIndex("note"),
                          eventRun: statement.columnIndex("event_run"), expectedFrom: statement.columnIndex("expected_from"))
            try statement.forEachRow(parameters) { row in
                let money = { (index: Int) in Money(cents: Int64(row.int(at: index) ?? 0)) }
                let event = row.text(at: column.event)
                exceptions.append(Exception(
                    key: AuditKey(property: row.text(at: column.property) ?? "", lease: row.text(at: column.lease) ?? "",
                                  chargeCode: row.text(at: column.chargeCode) ?? "", month: row.text(at: column.month) ?? ""),
                    residentID: row.text(at: column.resident), unit: row.text(at: column.unit),
                    kind: row.text(at: column.kind) ?? "",
                    expected: money(column.expected), posted: money(column.posted), variance: money(column.variance),
                    status: event == "resolved" ? .resolved : .open, event: event, fix: row.text(at: column.fix),
                    action: row.text(at: column.action), by: row.text(at: column.by), at: row.text(at: column.at),
                    note: row.text(at: column.note), eventRun: row.int(at: column.eventRun).map(Int64.init), runID: id,
                    expectedFrom: row.text(at: column.expectedFrom)))
            }
        }
        var open: Set<String> = [], flagged: Set<String> = []
        for exception in exceptions {
            let lease = [exception.key.property, exception.key.lease, exception.key.chargeCode].joined(separator: "\u{1}")
            flagged.insert(lease)
            if exception.status == .open { open.insert(lease) }
        }
        var leaseCharges: [LeaseCharge] = []
        if details {
            let statement = try database.prepare(leaseChargesSQL)
            let column = (property: statement.columnIndex("unified_property_id"), unit: statement.columnIndex("unit_number"),
                          lease: statement.columnIndex("lease_id"), resident: statement.columnIndex("resident_id"),
                          chargeCode: statement.columnIndex("charge_code"), months: statement.columnIndex("months"),
                          matched: statement.columnIndex("matched"), exceptions: statement.columnIndex("exceptions"),
                          expected: statement.columnIndex("expected_cents"), posted: statement.columnIndex("posted_cents"),
                          expectedFrom: statement.columnIndex("expected_from"))
            try statement.forEachRow(parameters) { row in
                let property = row.text(at: column.property) ?? "", leaseID = row.text(at: column.lease) ?? ""
                let chargeCode = row.text(at: column.chargeCode) ?? ""
                let lease = [property, leaseID, chargeCode].joined(separator: "\u{1}")
                let status: AuditStatus = open.contains(lease) ? .open : flagged.contains(lease) ? .resolved : .passed
                leaseCharges.append(LeaseCharge(
                    property: property, unit: row.text(at: column.unit), leaseID: leaseID,
                    residentID: row.text(at: column.resident), chargeCode: chargeCode,
                    months: row.int(at: column.months) ?? 0, matched: row.int(at: column.matched) ?? 0,
                    exceptions: row.int(at: column.exceptions) ?? 0,
                    expectedTotal: Money(cents: Int64(row.int(at: column.expected) ?? 0)),
                    postedTotal: Money(cents: Int64(row.int(at: column.posted) ?? 0)), status: status,
                    expectedFrom: row.text(at: column.expectedFrom)))
            }
        }
        var noLedger: [String] = [], partialLedger: [String] = []
        try database.prepare("""
            SELECT unified_property_id, not_audited_reason = '\(ChargeAudit.scheduleOnly)' AS schedule_only
            FROM audit_run_properties WHERE run_id = :run AND has_ledger = 0 ORDER BY 1
            """).forEachRow(parameters) { row in
            guard let property = row.text("unified_property_id") else { return }
            if row.int("schedule_only") == 1 { partialLedger.append(property) } else { noLedger.append(property) }
        }
        return AuditReport(runID: id, startedAt: run.startedAt, asOf: run.asOf, firstMonth: run.firstMonth,
                           lastMonth: run.lastMonth, properties: try ChargeAudit.totals(database: database, runID: id),
                           noLedger: noLedger, partialLedger: partialLedger, leaseCharges: leaseCharges,
                           exceptions: exceptions)
    }

    // Each exception with the latest resolution event of its key recorded against this run or an earlier one.
    static let exceptionsSQL = """
        SELECT r.unified_property_id, r.lease_id, r.resident_id, r.unit_number, r.charge_code, r.month, r.kind,
               CAST(round(r.expected * 100) AS INTEGER) AS expected_cents,
               CAST(round(r.posted * 100) AS INTEGER) AS posted_cents,
               CAST(round(r.variance * 100) AS INTEGER) AS variance_cents,
               e.event, e.fix, e.action, e.by_name, e.at, e.note, e.run_id AS event_run, lc.expected_from
        FROM audit_results r
        LEFT JOIN audit_lease_charges lc ON lc.run_id = r.run_id AND lc.unified_property_id = r.unified_property_id
                                        AND lc.lease_id = r.lease_id AND lc.charge_code = r.charge_code
        LEFT JOIN audit_resolutions e ON e.event_id = (
            SELECT max(x.event_id) FROM audit_resolutions x
            WHERE x.unified_property_id = r.unified_property_id AND x.lease_id = r.lease_id
              AND x.charge_code = r.charge_code AND x.month = r.month AND x.run_id <= r.run_id)
        WHERE r.run_id = :run
        ORDER BY r.unified_property_id, length(r.unit_number), r.unit_number, r.lease_id, r.charge_code, r.month
        """

    static let leaseChargesSQL = """
        SELECT unified_property_id, unit_number, lease_id, resident_id, charge_code, months, matched, exceptions,
               CAST(round(expected_total * 100) AS INTEGER) AS expected_cents,
               CAST(round(posted_total * 100) AS INTEGER) AS posted_cents, expected_from
        FROM audit_lease_charges WHERE run_id = :run
        ORDER BY unified_property_id, length(unit_number), unit_number, lease_id, charge_code
        """
}

extension AuditReport {
    /// The run as tables for the table / JSON / CSV writers: properties (totals), leases (per lease and charge
    /// code, left out with `exceptionsOnly`) and exceptions (with the key to resolve them by).
    public func result(exceptionsOnly: Bool, parameters: [MetricResult.Parameter]) -> MetricResult {
        func money(_ value: Money) -> SQLValue { .real(value.dollars) }
        var tables: [MetricTable] = []
        tables.append(MetricTable(
            name: "properties", title: "Lease-charge audit, run \(runID): \(firstMonth) to \(lastMonth), as of \(asOf)",
            columns: [.init("property", .text), .init("as_of", .date), .init("leases", .count), .init("lines", .count),
                      .init("matched", .count), .init("exceptions", .count), .init("missing", .count),
                      .init("unexpected", .count), .init("undercharge", .count), .init("overcharge", .count),
                      .init("undercharge_total", .money), .init("overcharge_total", .money),
                      .init("not_audited_lines", .count), .init("not_audited_amount", .money)],
            rows: properties.map { p in
                [.text(p.property), .text(p.asOf), .integer(Int64(p.leases)), .integer(Int64(p.lines)),
                 .integer(Int64(p.matched)), .integer(Int64(p.exceptions)), .integer(Int64(p.missing)),
                 .integer(Int64(p.unexpected)), .integer(Int64(p.undercharge)), .integer(Int64(p.overcharge)),
                 money(p.underchargeTotal), money(p.overchargeTotal), .integer(Int64(p.notAudited)),
                 p.notAuditedAmount.map(money) ?? .null]
            }))
        let unscheduled = properties.filter { $0.notAudited > 0 }
        if !unscheduled.isEmpty {
            tables.append(MetricTable(
                name: "not_audited", title: "Charges not audited (posted on leases without a schedule)",
                columns: [.init("property", .text), .init("leases", .count), .init("lines", .count),
                          .init("amount", .money), .init("reason", .text)],
                rows: unscheduled.map { p in
                    [.text(p.property), SQLValue(p.notAuditedLeases), .integer(Int64(p.notAudited)),
                     p.notAuditedAmount.map(money) ?? .null, .text(ChargeAudit.unscheduledReason)]
                }))
        }
        if !exceptionsOnly {
            tables.append(MetricTable(
                name: "leases", title: "Per lease and charge code",
                columns: Self.leaseColumns,
                rows: leaseCharges.map { l in
                    [.text(l.property), SQLValue(l.unit), .text(l.leaseID), SQLValue(l.residentID), .text(l.chargeCode),
                     .integer(Int64(l.months)), .integer(Int64(l.matched)), .integer(Int64(l.exceptions)),
                     money(l.expectedTotal), money(l.postedTotal), .text(l.status.rawValue), SQLValue(l.expectedFrom)]
                }))
        }
        tables.append(MetricTable(
            name: "exceptions", title: "Exceptions (resolve with: ownerdash audit resolve KEY --fix LABEL --action TYPE --by NAME)",
            columns: Self.exceptionColumns,
            rows: exceptions.map { e in
                [.text(e.key.description), SQLValue(e.unit), SQLValue(e.residentID), .text(e.kind), money(e.expected),
                 money(e.posted), money(e.variance), .text(e.status.rawValue), SQLValue(e.fix), SQLValue(e.action),
                 SQLValue(e.by), SQLValue(e.at), SQLValue(e.note), SQLValue(e.eventRun),
                 MetricResult.yesNo(e.eventRun == nil ? nil : e.historical), SQLValue(e.expectedFrom)]
            }))
        if !noLedger.isEmpty {
            tables.append(MetricTable(name: "no_ledger", title: "Properties without a tenant ledger (not audited, not zeros)",
                                      columns: [.init("property", .text)], rows: noLedger.map { [.text($0)] }))
        }
        if !partialLedger.isEmpty {
            tables.append(MetricTable(name: "partial_ledger", title: "Properties with a partial ledger (not audited)",
                                      columns: [.init("property", .text), .init("reason", .text)],
                                      rows: partialLedger.map { [.text($0), .text(ChargeAudit.scheduleOnly)] }))
        }
        if let table = LedgerWholeAsOf.table(ledgerWholeAsOf) { tables.append(table) }
        let warnings = unscheduled.map { p in
            "\(p.property): \(p.notAudited) charge lines (lease, code, month)"
                + (p.notAuditedLeases.map { " on \($0) leases" } ?? "")
                + (p.notAuditedAmount.map { ", $\($0) posted," } ?? "")
                + " not audited: \(ChargeAudit.unscheduledReason)"
        } + noLedger.map { "\($0): no tenant ledger synced for this property (not audited)" }
            + partialLedger.map { "\($0): partial ledger, \(ChargeAudit.scheduleOnly) (not audited)" }
        return MetricResult(metric: "audit", parameters: parameters, tables: tables, warnings: warnings)
    }
}
