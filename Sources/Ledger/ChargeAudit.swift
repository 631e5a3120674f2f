import Foundation
import OwnerDashCore
import SQLiteKit

/// `ownerdash audit run`: every lease's recurring-charge schedule held against what was posted, month by month, with
/// the result kept as a numbered run in unified.db (audit_runs, audit_run_properties, audit_lease_charges,
/// audit_results).
///
/// The rules, for every lease, charge code and month of the window (PMS-agnostic: unified tables only):
/// - expected: the schedule line (unified_recurring_charges) of that lease and code in effect on the household's first
///   day of possession in the month (the day the month's charges post), prorated when the household holds the unit
///   for part of the month only: amount x days in possession / days in month, rounded half up to the cent, where
///   possession runs from max(move-in, month start) to min(move-out, month end). Several lines of one code in effect
///   on that day are added. A month-to-month lease keeps billing its last scheduled amount after the term's end.
///   A month whose first day of possession is after the as-of date is not due yet and is not audited.
/// - posted: the sum of unified_charges of that lease, code (case-insensitive) and period; a charge without a lease
///   id counts for its resident's lease (the household head or anyone on unified_lease_residents).
/// - matched when equal to the cent; else missing (something expected, nothing posted), undercharge or overcharge
///   (variance = posted - expected), or unexpected: posted in a month where nothing of that code was scheduled, for
///   a code the lease schedules in some other month. Codes a lease never schedules (late fees, cleaning, damages,
///   one-off fees) are not recurring charges and are not audited; nor are leases without any schedule (a PMS that
///   sends the schedule of current leases only cannot be judged on older leases). A posted total of zero with nothing
///   scheduled (a charge and its reversal) is nothing posted.
/// - totals: undercharge = what was expected but not posted (missing and short amounts), overcharge = what was posted
///   beyond the schedule (over amounts and unexpected charges), both as positive dollars.
///
/// The work is a handful of set-based statements over temp tables, prepared once per run and executed inside one
/// transaction: a run is recorded whole or not at all. Properties without a tenant ledger
/// (`unified_properties.ledger_source` NULL) are recorded with `has_ledger` 0 and no counts, never zeros; so are those
/// whose ledger is partial (`ledger_coverage` 'partial': a schedule, no posted charges), with that reason.
public enum ChargeAudit {
    /// What one run audited and found, per property.
    public struct Run: Sendable, Equatable {
        public var runID: Int64
        public var asOf: LocalDate
        public var months: [String]
        public var properties: [PropertyTotals]
        /// Properties asked for that have no tenant ledger.
        public var noLedger: [String]

        public init(runID: Int64, asOf: LocalDate, months: [String], properties: [PropertyTotals], noLedger: [String]) {
            self.runID = runID; self.asOf = asOf; self.months = months; self.properties = properties; self.noLedger = noLedger
        }
    }

    /// One property's totals in one run (audit_run_properties).
    public struct PropertyTotals: Sendable, Equatable {
        public var property: String
        public var asOf: String
        public var leases: Int
        /// (lease, charge code, month) lines audited.
        public var lines: Int
        public var matched: Int
        public var missing: Int
        public var unexpected: Int
        public var undercharge: Int
        public var overcharge: Int
        public var underchargeTotal: Money
        public var overchargeTotal: Money

        /// Lines that are not matched.
        public var exceptions: Int { missing + unexpected + undercharge + overcharge }

        public init(property: String, asOf: String, leases: Int, lines: Int, matched: Int, missing: Int, unexpected: Int,
                    undercharge: Int, overcharge: Int, underchargeTotal: Money, overchargeTotal: Money) {
            self.property = property; self.asOf = asOf; self.leases = leases; self.lines = lines; self.matched = matched
            self.missing = missing; self.unexpected = unexpected; self.undercharge = undercharge
            self.overcharge = overcharge; self.underchargeTotal = underchargeTotal; self.overchargeTotal = overchargeTotal
        }
    }

    /// The `count` months ending with the month of `asOf`, oldest first (`YYYY-MM`).
    public static func window(endingAt asOf: LocalDate, months count: Int) -> [String] {
        (0..<max(count, 0)).reversed().map { back in
            let index = asOf.year * 12 + (asOf.month - 1) - back
            return String(format: "%04d-%02d", index / 12, index % 12 + 1)
        }
    }

    /// Audits `properties` over the `months` months ending with the month of `asOf` and records the run.
    /// `asOf` nil: the latest property date among them. `now` stamps started_at and finished_at (ISO-8601 UTC).
    public static func run(database: Database, properties: [String], asOf: LocalDate?, months count: Int,
                           now: () -> String) throws -> Run {
        try database.withTransaction {
            let started = now()
            var ledger: [(key: String, date: String)] = [], noLedger: [String] = []
            let propertyInfo = try database.prepare("""
                SELECT ledger_source, as_of_date, ledger_coverage FROM unified_properties WHERE unified_property_id = :property
                """)
            for key in properties {
                guard let row = try propertyInfo.query([":property": .text(key)]).first else {
                    throw AuditError("property \"\(key)\" has not been synced")
                }
                // A partial ledger has a schedule but no posted charge: nothing to hold it against, so not audited.
                if row[0].isNull || row[2].textValue == "partial" { noLedger.append(key) } else { ledger.append((key, row[1].textValue ?? "")) }
            }
            let latest = ledger.map(\.date).max().flatMap { LocalDate(iso: $0) }
            guard let date = asOf ?? latest ?? LocalDate(iso: String(started.prefix(10))) else {
                throw AuditError("no as-of date: pass --as-of YYYY-MM-DD")
            }
            let months = window(endingAt: date, months: count)
            guard let first = months.first, let last = months.last else { throw AuditError("the window has no month") }

            try database.prepare(Self.insertRun).execute([
                ":started_at": .text(started), ":as_of": .text(date.iso), ":first": .text(first), ":last": .text(last),
                ":properties": .text(Self.jsonArray(properties)),
            ])
            let runID = database.lastInsertRowID
            try database.execute(Self.temporaryTables)
            let windowRow = try database.prepare("""
                INSERT INTO temp.audit_window (month, first_day, last_day, days) VALUES (:month, :first_day, :last_day, :days)
                """)
            for month in months {
                let parts = month.split(separator: "-").compactMap { Int($0) }
                let days = LocalDate.daysIn(month: parts[1], year: parts[0])
                try windowRow.execute([":month": .text(month), ":first_day": .text(month + "-01"),
                                       ":last_day": .text(month + String(format: "-%02d", days)), ":days": .integer(Int64(days))])
            }
            let scopeRow = try database.prepare("INSERT INTO temp.audit_scope (property, due_by) VALUES (:property, :due_by)")
            for (key, propertyDate) in ledger {
                // Charges post on their day: a property synced before the run's date is judged on its own date.
                let dueBy = propertyDate.isEmpty ? date.iso : min(propertyDate, date.iso)
                try scopeRow.execute([":property": .text(key), ":due_by": .text(dueBy)])
            }
            let range: [String: SQLValue] = [":first": .text(first), ":last": .text(last)]
            for sql in [Self.insertCodes, Self.insertHousehold, Self.insertExpected] {
                try database.prepare(sql).execute()
            }
            try database.prepare(Self.insertPostedByLease).execute(range)
            try database.prepare(Self.insertPostedByResident).execute(range)
            try database.prepare(Self.insertLines).execute()
            let run: [String: SQLValue] = [":run": .integer(runID)]
            for sql in [Self.insertResults, Self.insertLeaseCharges, Self.insertPropertyTotals] {
                try database.prepare(sql).execute(run)
            }
            let noLedgerRow = try database.prepare("""
                INSERT INTO audit_run_properties (run_id, unified_property_id, has_ledger, not_audited_reason)
                SELECT :run, :property, 0, CASE WHEN ledger_coverage = 'partial' THEN '\(Self.scheduleOnly)' ELSE 'no tenant ledger' END
                FROM unified_properties WHERE unified_property_id = :property
                """)
            for key in noLedger { try noLedgerRow.execute([":run": .integer(runID), ":property": .text(key)]) }
            try database.prepare(Self.finishRun).execute([":run": .integer(runID), ":finished_at": .text(now())])
            try database.execute(Self.clearTemporaryTables)
            return Run(runID: runID, asOf: date, months: months,
                       properties: try totals(database: database, runID: runID), noLedger: noLedger)
        }
    }

    /// The per-property totals of a recorded run, for the properties that have a ledger.
    public static func totals(database: Database, runID: Int64) throws -> [PropertyTotals] {
        try database.query("""
            SELECT unified_property_id, as_of_date, leases, lines, matched, missing, unexpected, undercharge, overcharge,
                   CAST(round(undercharge_total * 100) AS INTEGER), CAST(round(overcharge_total * 100) AS INTEGER)
            FROM audit_run_properties WHERE run_id = :run AND has_ledger = 1 ORDER BY unified_property_id
            """, [":run": .integer(runID)]).map { row in
            let count = { (index: Int) in Int(row[index].integerValue ?? 0) }
            return PropertyTotals(property: row[0].textValue ?? "", asOf: row[1].textValue ?? "", leases: count(2),
                                  lines: count(3), matched: count(4), missing: count(5), unexpected: count(6),
                                  undercharge: count(7), overcharge: count(8),
                                  underchargeTotal: Money(cents: row[9].integerValue ?? 0),
                                  overchargeTotal: Money(cents: row[10].integerValue ?? 0))
        }
    }

    static func jsonArray(_ values: [String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: values, options: [.withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: - SQL

    /// Why a partial-ledger property is not audited (audit_run_properties.not_audited_reason).
    static let scheduleOnly = "schedule only, no posted charges"

    static let insertRun = """
        INSERT INTO audit_runs (started_at, as_of_date, first_month, last_month, properties)
        VALUES (:started_at, :as_of, :first, :last, :properties)
        """

    // Per connection; emptied after each run. Amounts here are integer cents.
    static let temporaryTables = """
        CREATE TEMP TABLE IF NOT EXISTS audit_window (
            month TEXT PRIMARY KEY, first_day TEXT NOT NULL, last_day TEXT NOT NULL, days INTEGER NOT NULL);
        CREATE TEMP TABLE IF NOT EXISTS audit_scope (property TEXT PRIMARY KEY, due_by TEXT NOT NULL);
        CREATE TEMP TABLE IF NOT EXISTS audit_codes (
            property TEXT, lease_id TEXT, charge_code TEXT, resident_id TEXT, unit_number TEXT,
            PRIMARY KEY (property, lease_id, charge_code));
        CREATE TEMP TABLE IF NOT EXISTS audit_household (
            property TEXT, resident_id TEXT, lease_id TEXT, PRIMARY KEY (property, resident_id, lease_id));
        CREATE TEMP TABLE IF NOT EXISTS audit_expected (
            property TEXT, lease_id TEXT, charge_code TEXT, month TEXT, cents INTEGER NOT NULL,
            PRIMARY KEY (property, lease_id, charge_code, month));
        CREATE TEMP TABLE IF NOT EXISTS audit_posted (
            property TEXT, lease_id TEXT, charge_code TEXT, month TEXT, cents INTEGER NOT NULL,
            PRIMARY KEY (property, lease_id, charge_code, month));
        CREATE TEMP TABLE IF NOT EXISTS audit_lines (
            property TEXT, lease_id TEXT, charge_code TEXT, month TEXT, resident_id TEXT, unit_number TEXT,
            expected INTEGER, posted INTEGER, kind TEXT NOT NULL);
        """

    static let clearTemporaryTables = """
        DELETE FROM temp.audit_window; DELETE FROM temp.audit_scope; DELETE FROM temp.audit_codes;
        DELETE FROM temp.audit_household; DELETE FROM temp.audit_expected; DELETE FROM temp.audit_posted;
        DELETE FROM temp.audit_lines;
        """

    // The codes each lease schedules, with the household (resident) and unit the lease belongs to.
    static let insertCodes = """
        INSERT INTO temp.audit_codes (property, lease_id, charge_code, resident_id, unit_number)
        SELECT rc.unified_property_id, rc.lease_id, upper(rc.charge_code),
               coalesce(min(rc.resident_id), min(l.resident_id)), coalesce(min(rc.unit_number), min(l.unit_number))
        FROM unified_recurring_charges rc
        JOIN temp.audit_scope s ON s.property = rc.unified_property_id
        LEFT JOIN unified_leases l ON l.unified_property_id = rc.unified_property_id AND l.lease_id = rc.lease_id
        GROUP BY rc.unified_property_id, rc.lease_id, upper(rc.charge_code)
        """

    // Who may be billed for a lease: its household head and everyone on the lease.
    static let insertHousehold = """
        INSERT OR IGNORE INTO temp.audit_household (property, resident_id, lease_id)
        SELECT property, resident_id, lease_id FROM temp.audit_codes WHERE resident_id IS NOT NULL
        UNION
        SELECT lr.unified_property_id, lr.resident_id, lr.lease_id
        FROM unified_lease_residents lr
        WHERE EXISTS (SELECT 1 FROM temp.audit_codes k WHERE k.property = lr.unified_property_id AND k.lease_id = lr.lease_id)
        """

    // Expected cents per lease, code and month: the line in effect on the first day of possession, prorated. The
    // proration floors (n + days / 2) / days with a true floor so that credits (negative amounts) round half up too.
    static let insertExpected = """
        WITH line AS (
            SELECT rc.unified_property_id AS property, rc.lease_id, k.charge_code, rc.start_date,
                   CAST(round(rc.amount * 100) AS INTEGER) AS cents,
                   -- A month-to-month lease keeps billing its last scheduled amount after the term, until move-out.
                   CASE WHEN l.is_month_to_month = 1
                         AND rc.start_date = max(rc.start_date) OVER (
                                 PARTITION BY rc.unified_property_id, rc.lease_id, k.charge_code)
                        THEN NULL ELSE rc.end_date END AS end_date,
                   coalesce(r.move_in_date, l.move_in_date, l.start_date, rc.start_date) AS move_in,
                   r.move_out_date AS move_out, s.due_by
            FROM unified_recurring_charges rc
            JOIN temp.audit_scope s ON s.property = rc.unified_property_id
            JOIN temp.audit_codes k ON k.property = rc.unified_property_id AND k.lease_id = rc.lease_id
                                   AND k.charge_code = upper(rc.charge_code)
            LEFT JOIN unified_leases l ON l.unified_property_id = rc.unified_property_id AND l.lease_id = rc.lease_id
            LEFT JOIN unified_residents r ON r.unified_property_id = rc.unified_property_id AND r.resident_id = k.resident_id
        ),
        possession AS (
            SELECT line.property, line.lease_id, line.charge_code, line.cents, line.start_date, line.end_date,
                   line.due_by, w.month, w.days AS month_days,
                   max(line.move_in, w.first_day) AS first_day,
                   min(coalesce(line.move_out, w.last_day), w.last_day) AS last_day
            FROM line
            JOIN temp.audit_window w ON w.last_day >= line.start_date
                                    AND (line.end_date IS NULL OR w.first_day <= line.end_date)
        ),
        due AS (
            SELECT property, lease_id, charge_code, month, month_days, cents,
                   CAST(julianday(last_day) - julianday(first_day) AS INTEGER) + 1 AS days
            FROM possession
            WHERE first_day >= start_date AND (end_date IS NULL OR first_day <= end_date)
              AND first_day <= last_day AND first_day <= due_by
        ),
        prorated AS (
            SELECT property, lease_id, charge_code, month,
                   CASE WHEN days >= month_days THEN cents
                        ELSE (cents * days + month_days / 2
                              - (((cents * days + month_days / 2) % month_days) + month_days) % month_days) / month_days
                   END AS cents
            FROM due
        )
        INSERT INTO temp.audit_expected (property, lease_id, charge_code, month, cents)
        SELECT property, lease_id, charge_code, month, sum(cents) FROM prorated
        GROUP BY property, lease_id, charge_code, month
        """

    // Posted cents of the scheduled codes, by the charge's own lease id (through unified_charges_by_lease).
    static let insertPostedByLease = """
        INSERT INTO temp.audit_posted (property, lease_id, charge_code, month, cents)
        SELECT k.property, k.lease_id, k.charge_code, c.period, sum(CAST(round(c.amount * 100) AS INTEGER))
        FROM temp.audit_codes k
        JOIN unified_charges c ON c.unified_property_id = k.property AND c.lease_id = k.lease_id
                              AND c.period BETWEEN :first AND :last AND upper(c.charge_code) = k.charge_code
        GROUP BY k.property, k.lease_id, k.charge_code, c.period
        """

    // Charges without a lease id count for their resident's lease: the one expecting that code that month, else the
    // first of the resident's leases that schedules the code.
    static let insertPostedByResident = """
        WITH candidate AS (
            SELECT c.unified_property_id AS property, h.lease_id, k.charge_code, c.period AS month,
                   CAST(round(c.amount * 100) AS INTEGER) AS cents,
                   row_number() OVER (PARTITION BY c.rowid ORDER BY e.lease_id IS NULL, h.lease_id) AS rank
            FROM unified_charges c
            JOIN temp.audit_scope s ON s.property = c.unified_property_id
            JOIN temp.audit_household h ON h.property = c.unified_property_id AND h.resident_id = c.resident_id
            JOIN temp.audit_codes k ON k.property = h.property AND k.lease_id = h.lease_id
                                   AND k.charge_code = upper(c.charge_code)
            LEFT JOIN temp.audit_expected e ON e.property = h.property AND e.lease_id = h.lease_id
                                           AND e.charge_code = k.charge_code AND e.month = c.period
            WHERE c.lease_id IS NULL AND c.period BETWEEN :first AND :last
        )
        INSERT INTO temp.audit_posted (property, lease_id, charge_code, month, cents)
        SELECT property, lease_id, charge_code, month, sum(cents) FROM candidate
        WHERE rank = 1
        GROUP BY property, lease_id, charge_code, month
        ON CONFLICT (property, lease_id, charge_code, month) DO UPDATE SET cents = cents + excluded.cents
        """

    // Every expected line with what was posted, and every posted line nothing was scheduled for; classified.
    static let insertLines = """
        INSERT INTO temp.audit_lines (property, lease_id, charge_code, month, resident_id, unit_number, expected, posted, kind)
        SELECT property, lease_id, charge_code, month, resident_id, unit_number, expected, posted,
               CASE WHEN expected IS NULL THEN 'unexpected'
                    WHEN coalesce(posted, 0) = expected THEN 'matched'
                    WHEN coalesce(posted, 0) = 0 THEN 'missing'
                    WHEN posted < expected THEN 'undercharge'
                    ELSE 'overcharge' END
        FROM (
            SELECT e.property, e.lease_id, e.charge_code, e.month, k.resident_id, k.unit_number,
                   e.cents AS expected, p.cents AS posted
            FROM temp.audit_expected e
            JOIN temp.audit_codes k ON k.property = e.property AND k.lease_id = e.lease_id AND k.charge_code = e.charge_code
            LEFT JOIN temp.audit_posted p ON p.property = e.property AND p.lease_id = e.lease_id
                                         AND p.charge_code = e.charge_code AND p.month = e.month
            UNION ALL
            SELECT p.property, p.lease_id, p.charge_code, p.month, k.resident_id, k.unit_number, NULL, p.cents
            FROM temp.audit_posted p
            JOIN temp.audit_codes k ON k.property = p.property AND k.lease_id = p.lease_id AND k.charge_code = p.charge_code
            WHERE p.cents <> 0
              AND NOT EXISTS (SELECT 1 FROM temp.audit_expected e
                              WHERE e.property = p.property AND e.lease_id = p.lease_id
                                AND e.charge_code = p.charge_code AND e.month = p.month)
        )
        """

    static let insertResults = """
        INSERT INTO audit_results (run_id, unified_property_id, lease_id, resident_id, unit_number, charge_code, month,
                                   expected, posted, variance, kind)
        SELECT :run, property, lease_id, resident_id, unit_number, charge_code, month,
               coalesce(expected, 0) / 100.0, coalesce(posted, 0) / 100.0,
               (coalesce(posted, 0) - coalesce(expected, 0)) / 100.0, kind
        FROM temp.audit_lines WHERE kind <> 'matched'
        """

    static let insertLeaseCharges = """
        INSERT INTO audit_lease_charges (run_id, unified_property_id, lease_id, resident_id, unit_number, charge_code,
                                         months, matched, exceptions, expected_total, posted_total)
        SELECT :run, property, lease_id, min(resident_id), min(unit_number), charge_code, count(*),
               sum(kind = 'matched'), sum(kind <> 'matched'),
               sum(coalesce(expected, 0)) / 100.0, sum(coalesce(posted, 0)) / 100.0
        FROM temp.audit_lines GROUP BY property, lease_id, charge_code
        """

    static let insertPropertyTotals = """
        INSERT INTO audit_run_properties (run_id, unified_property_id, has_ledger, as_of_date, leases, lines, matched,
                                          missing, unexpected, undercharge, overcharge, undercharge_total, overcharge_total)
        SELECT :run, s.property, 1, s.due_by, count(DISTINCT l.lease_id), count(l.kind),
               coalesce(sum(l.kind = 'matched'), 0), coalesce(sum(l.kind = 'missing'), 0),
               coalesce(sum(l.kind = 'unexpected'), 0), coalesce(sum(l.kind = 'undercharge'), 0),
               coalesce(sum(l.kind = 'overcharge'), 0),
               coalesce(sum(max(coalesce(l.expected, 0) - coalesce(l.posted, 0), 0)), 0) / 100.0,
               coalesce(sum(max(coalesce(l.posted, 0) - coalesce(l.expected, 0), 0)), 0) / 100.0
        FROM temp.audit_scope s LEFT JOIN temp.audit_lines l ON l.property = s.property
        GROUP BY s.property
        """

    static let finishRun = """
        UPDATE audit_runs SET finished_at = :finished_at,
               leases = t.leases, lines = t.lines, matched = t.matched, missing = t.missing, unexpected = t.unexpected,
               undercharge = t.undercharge, overcharge = t.overcharge,
               undercharge_total = round(t.undercharge_total, 2), overcharge_total = round(t.overcharge_total, 2)
        FROM (SELECT coalesce(sum(leases), 0) AS leases, coalesce(sum(lines), 0) AS lines,
                     coalesce(sum(matched), 0) AS matched, coalesce(sum(missing), 0) AS missing,
                     coalesce(sum(unexpected), 0) AS unexpected, coalesce(sum(undercharge), 0) AS undercharge,
                     coalesce(sum(overcharge), 0) AS overcharge, coalesce(sum(undercharge_total), 0) AS undercharge_total,
                     coalesce(sum(overcharge_total), 0) AS overcharge_total
              FROM audit_run_properties WHERE run_id = :run) AS t
        WHERE run_id = :run
        """
}

/// A problem with an audit request or its data: one line naming the property, key or field.
public struct AuditError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
