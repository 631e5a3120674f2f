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
///   on that day are added. A month-to-month lease, and a household's latest lease when it stays on past the term
///   (a holdover), keep billing their last scheduled amount after the term's end, until move-out; a lease followed
///   by a later lease of the same household (a renewal) ends with its term.
///   A month whose first day of possession is after the as-of date is not due yet and is not audited.
/// - posted: the sum of unified_charges of that lease, code (case-insensitive) and period; a charge without a lease
///   id counts for its resident's lease (the household head or anyone on unified_lease_residents).
/// - matched when equal to the cent; else missing (something expected, nothing posted), undercharge or overcharge
///   (variance = posted - expected), or unexpected: posted in a month where nothing of that code was scheduled, for
///   a code the lease schedules in some other month. Codes a lease never schedules (late fees, cleaning, damages,
///   one-off fees) are not recurring charges and are not audited. A lease without any schedule line (a PMS that sends
///   the schedule of current leases only has none for older leases) is audited for its rent only, against the rent
///   unified_leases states for it under a rent code of the property (PropertyAudit.schedule); its other codes, and every
///   line of a lease without a schedule or a stated rent, are counted as not audited (audit_run_properties.not_audited). A posted total of zero with nothing
///   scheduled (a charge and its reversal) is nothing posted.
/// - totals: undercharge = what was expected but not posted (missing and short amounts), overcharge = what was posted
///   beyond the schedule (over amounts and unexpected charges), both as positive dollars.
///
/// The work is one pass per property over its schedule and one over its posted charges in the window (statements
/// prepared once per run, PropertyAudit), the (lease, code, month) lines held in memory for that property only, and
/// only exceptions and per-(lease, code) counts written, all inside one transaction: a run is recorded whole or not
/// at all. With more than one core the passes of several properties run side by side on worker threads with their own
/// read-only connections (AuditWorkers); the run's connection records each property in the run's order. (A first version joined temp tables of every line in SQL: about 27 µs of CPU per line, minutes for a
/// 500-property portfolio; the passes run in well under the 30 s target, see docs/contributors.md, "Ledger benchmark".) Properties without a tenant ledger
/// (`unified_properties.ledger_source` NULL) are recorded with `has_ledger` 0 and no counts, never zeros; so are those
/// whose ledger is partial (`ledger_coverage` 'partial': a schedule, no posted charges), with that reason. A ledger read
/// from Transaction Detail by Code (`periodLimitedLedger`) is audited over the part of the window its fiscal periods
/// cover only: a month it has no report for is unknown, not a month of missing charges.
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
        /// (lease, code, month) lines posted on leases without any schedule: not audited, counted.
        public var notAudited: Int = 0
        /// The leases those lines are on, and what was posted on them (nil for runs recorded before it was kept).
        public var notAuditedLeases: Int? = nil
        public var notAuditedAmount: Money? = nil
        /// The as-of date of the property's last whole ledger answer when nightly windows had brought the ledger past
        /// it at the run (`LedgerWholeAsOf`): a posting entered since and dated before the windows was not audited.
        public var ledgerWholeAsOf: String? = nil

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
    /// `workers`: threads for the passes (0 or 1: the run's own connection does them all); nil: one per core.
    public static func run(database: Database, properties: [String], asOf: LocalDate?, months count: Int,
                           workers: Int? = nil, now: () -> String) throws -> Run {
        try database.withTransaction {
            let started = now()
            var ledger: [(key: String, date: String)] = [], noLedger: [String] = []
            let known = try PartialLedger.sources(database)
            for key in properties {
                guard let info = known[key] else { throw AuditError("property \"\(key)\" has not been synced") }
                // A partial ledger has a schedule but no posted charge: nothing to hold it against, so not audited.
                if info.ledger == nil || info.partial { noLedger.append(key) } else { ledger.append((key, info.asOf ?? "")) }
            }
            let latest = ledger.map(\.date).max().flatMap { LocalDate(iso: $0) }
            guard let date = asOf ?? latest ?? LocalDate(iso: String(started.prefix(10))) else {
                throw AuditError("no as-of date: pass --as-of YYYY-MM-DD")
            }
            let months = window(endingAt: date, months: count)
            guard let first = months.first, let last = months.last else { throw AuditError("the window has no month") }

            try database.prepare(Self.insertRun).execute([
                ":started_at": .text(started), ":as_of": .text(date.iso), ":first": .text(first), ":last": .text(last),
                ":properties": .jsonArray(properties),
            ])
            let runID = database.lastInsertRowID
            let window = try months.map { try AuditMonth(name: $0) }
            // Charges post on their day: a property synced before the run's date is judged on its own date.
            let covered = try coveredPeriods(database, properties: ledger.map(\.key).filter {
                known[$0]?.ledger == Self.periodLimitedLedger
            })
            let audits = ledger.map { key, propertyDate in
                PropertyAudit(property: key, dueBy: propertyDate.isEmpty ? date.iso : min(propertyDate, date.iso),
                              window: covered[key].map { Self.trim(window, to: $0) } ?? window)
            }
            let writes = try PropertyAudit.Writes(database: database, runID: runID)
            let workers = AuditWorkers.count(properties: audits.count, path: database.path,
                                             cores: workers ?? ProcessInfo.processInfo.activeProcessorCount)
            if workers == 0 {
                let reads = try PropertyAudit.Reads(database: database, first: first, last: last)
                for audit in audits { try audit.record(try audit.tally(reads), writes) }
            } else {
                let pool = AuditWorkers(path: database.path, audits: audits, workers: workers, first: first, last: last)
                defer { pool.finish() }
                for (index, audit) in audits.enumerated() { try audit.record(try pool.tally(at: index), writes) }
            }
            let noLedgerRow = try database.prepare("""
                INSERT INTO audit_run_properties (run_id, unified_property_id, has_ledger, not_audited_reason)
                SELECT :run, :property, 0, CASE WHEN ledger_coverage = 'partial' THEN '\(Self.scheduleOnly)' ELSE 'no tenant ledger' END
                FROM unified_properties WHERE unified_property_id = :property
                """)
            for key in noLedger { try noLedgerRow.execute([":run": .integer(runID), ":property": .text(key)]) }
            try database.prepare(Self.recordWholeAsOf).execute([":run": .integer(runID)])
            try database.prepare(Self.finishRun).execute([":run": .integer(runID), ":finished_at": .text(now())])
            return Run(runID: runID, asOf: date, months: months,
                       properties: try totals(database: database, runID: runID), noLedger: noLedger)
        }
    }

    /// Each audited property's `unified_properties.ledger_whole_as_of` (`LedgerWholeAsOf`), kept with the run:
    /// `audit show` tells later which months followed the vendor as of which day.
    static let recordWholeAsOf = """
        UPDATE audit_run_properties SET ledger_whole_as_of = (
            SELECT p.ledger_whole_as_of FROM unified_properties p
            WHERE p.unified_property_id = audit_run_properties.unified_property_id)
        WHERE run_id = :run AND has_ledger = 1
        """

    /// The ledger a RealPage site without RPX gets from Transaction Detail by Code (Sync's
    /// `RealPageTransactionLedger.source`; Ledger does not import Sync): it holds only the fiscal periods loaded, so a
    /// month outside them is unknown, not missing.
    static let periodLimitedLedger = "realpage_onesite_transaction_detail"

    /// Per property, the periods its report-read ledger posts charges in (its balance-forward line aside).
    static func coveredPeriods(_ database: Database, properties: [String]) throws -> [String: [String]] {
        let statement = try database.prepare("""
            SELECT DISTINCT period FROM unified_charges
            WHERE unified_property_id = :property AND charge_id NOT LIKE 'balance-forward:%' ORDER BY period
            """)
        var covered: [String: [String]] = [:]
        for key in properties {
            covered[key] = try statement.query([":property": .text(key)]).compactMap { $0.first?.textValue }
        }
        return covered
    }

    /// The part of the run's window from the first to the last covered period (months between two covered periods
    /// that were not loaded are still audited: the window is one run of months); empty when none is in the window.
    static func trim(_ window: [AuditMonth], to periods: [String]) -> [AuditMonth] {
        guard let first = periods.first(where: { period in window.contains { $0.name == period } }),
              let last = periods.last(where: { period in window.contains { $0.name == period } }),
              let start = window.firstIndex(where: { $0.name == first }),
              let end = window.firstIndex(where: { $0.name == last }) else { return [] }
        return Array(window[start...end])
    }

    /// The per-property totals of a recorded run, for the properties that have a ledger.
    public static func totals(database: Database, runID: Int64) throws -> [PropertyTotals] {
        var properties: [PropertyTotals] = []
        try database.prepare("""
            SELECT unified_property_id, as_of_date, leases, lines, matched, missing, unexpected, undercharge, overcharge,
                   CAST(round(undercharge_total * 100) AS INTEGER) AS undercharge_cents,
                   CAST(round(overcharge_total * 100) AS INTEGER) AS overcharge_cents,
                   not_audited, not_audited_leases, CAST(round(not_audited_amount * 100) AS INTEGER) AS not_audited_cents,
                   ledger_whole_as_of
            FROM audit_run_properties WHERE run_id = :run AND has_ledger = 1 ORDER BY unified_property_id
            """).forEachRow([":run": .integer(runID)]) { row in
            let count = { (column: String) in row.int(column) ?? 0 }
            let money = { (column: String) in Money(cents: Int64(row.int(column) ?? 0)) }
            var totals = PropertyTotals(property: row.text("unified_property_id") ?? "", asOf: row.text("as_of_date") ?? "",
                                        leases: count("leases"), lines: count("lines"), matched: count("matched"),
                                        missing: count("missing"), unexpected: count("unexpected"),
                                        undercharge: count("undercharge"), overcharge: count("overcharge"),
                                        underchargeTotal: money("undercharge_cents"), overchargeTotal: money("overcharge_cents"))
            totals.notAudited = count("not_audited")
            totals.notAuditedLeases = row.int("not_audited_leases")
            totals.notAuditedAmount = row.int("not_audited_cents").map { Money(cents: Int64($0)) }
            totals.ledgerWholeAsOf = row.text("ledger_whole_as_of")
            properties.append(totals)
        }
        return properties
    }

    /// A property of the run whose schedule gave nothing to audit (no lease and charge code with a month in the
    /// window) although charges were posted in the window: the audit's 0 exceptions there would be a silent answer.
    public struct Unaudited: Sendable, Equatable {
        public var property: String
        /// Charges posted in the run's months.
        public var postedCharges: Int
        /// Lines of the property's recurring-charge schedule (unified_recurring_charges), whatever their dates.
        public var scheduleLines: Int

        public init(property: String, postedCharges: Int, scheduleLines: Int) {
            self.property = property; self.postedCharges = postedCharges; self.scheduleLines = scheduleLines
        }
    }

    /// The properties of run `runID` audited with no line although charges were posted in its months.
    public static func unaudited(database: Database, runID: Int64) throws -> [Unaudited] {
        var unaudited: [Unaudited] = []
        try database.prepare("""
            SELECT p.unified_property_id,
                   (SELECT count(*) FROM unified_charges c
                    WHERE c.unified_property_id = p.unified_property_id AND c.period BETWEEN r.first_month AND r.last_month)
                       AS posted_charges,
                   (SELECT count(*) FROM unified_recurring_charges rc WHERE rc.unified_property_id = p.unified_property_id)
                       AS schedule_lines
            FROM audit_run_properties p JOIN audit_runs r ON r.run_id = p.run_id
            WHERE p.run_id = :run AND p.has_ledger = 1 AND coalesce(p.lines, 0) = 0
            ORDER BY p.unified_property_id
            """).forEachRow([":run": .integer(runID)]) { row in
            let posted = row.int("posted_charges") ?? 0
            guard posted > 0, let property = row.text("unified_property_id") else { return }
            unaudited.append(Unaudited(property: property, postedCharges: posted, scheduleLines: row.int("schedule_lines") ?? 0))
        }
        return unaudited
    }

    // MARK: - SQL

    /// Why charges posted on a lease without any schedule are not audited (shown with their count and amount).
    public static let unscheduledReason = "posted on leases without any recurring-charge schedule, whose rent is held "
        + "against the rent the lease states: these are their other charges, and all of a lease that states no rent, "
        + "with nothing to hold them against (RealPage RPX getscheduledcharges sends the schedule of current "
        + "residents' current leases only, so past and former leases have none; Yardi's is read from the monthly "
        + "GetResidentLeaseCharges_Login statements fetched, so a month before them has none)"

    /// Why a partial-ledger property is not audited (audit_run_properties.not_audited_reason).
    static let scheduleOnly = "schedule only, no posted charges"

    static let insertRun = """
        INSERT INTO audit_runs (started_at, as_of_date, first_month, last_month, properties)
        VALUES (:started_at, :as_of, :first, :last, :properties)
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
