import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Ledger
import Sync
import Testing

/// The per-property passes (PropertyAudit) against the set-based SQL they replaced, kept here as the reference: on a
/// generated ledger full of the rules' corner cases (move-ins and move-outs mid-month, credits, month-to-month
/// leases, schedule changes and overlapping lines, lower-case codes, charges without a lease id for heads and
/// co-residents, reversals, unexpected months, leases without a schedule, months not due yet, a property synced
/// before the run's date), both must write the same exceptions, the same per-(lease, code) counts and the same totals.
@Suite struct PropertyAuditTests {
    @Test func thePassesWriteWhatTheSetBasedSQLWrote() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("audit-ref-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try UnifiedStore(dataDirectory: DataDirectory(root: directory.path))
        let database = store.database
        var random = SeededGenerator(seed: 20261120)
        try Self.generate(database, properties: ["pa", "pb", "pc"], leases: 60, random: &random)
        let asOf = LocalDate(iso: "2026-11-20")
        let run = try ChargeAudit.run(database: database, properties: ["pa", "pb", "pc"], asOf: asOf, months: 14,
                                      now: { "2026-11-21T00:00:00Z" })
        let reference = try Self.referenceRun(database, asOf: "2026-11-20", months: run.months)

        let totals = try #require(run.properties.first { $0.property == "pa" })
        #expect(totals.lines > 1_000 && totals.exceptions > 50 && totals.matched > 50, "the ledger must exercise the rules: \(totals)")
        #expect(try database.scalar("SELECT count(DISTINCT kind) FROM audit_results WHERE run_id = :r",
                                    [":r": .integer(run.runID)])?.integerValue == 4)
        for (table, columns) in [
            ("audit_results", "unified_property_id, lease_id, resident_id, unit_number, charge_code, month, expected, posted, variance, kind"),
            ("audit_lease_charges", "unified_property_id, lease_id, resident_id, unit_number, charge_code, months, matched, exceptions, expected_total, posted_total"),
            ("audit_run_properties", "unified_property_id, has_ledger, as_of_date, leases, lines, matched, missing, unexpected, undercharge, overcharge, undercharge_total, overcharge_total"),
        ] {
            let count = { (runID: Int64) in
                try database.scalar("SELECT count(*) FROM \(table) WHERE run_id = :r", [":r": .integer(runID)])?.integerValue ?? -1
            }
            let differing = try database.scalar("""
                SELECT count(*) FROM (
                    SELECT \(columns) FROM \(table) WHERE run_id = :new EXCEPT SELECT \(columns) FROM \(table) WHERE run_id = :old)
                """, [":new": .integer(run.runID), ":old": .integer(reference)])?.integerValue
            #expect(try count(run.runID) == count(reference) && count(run.runID) > 0, "\(table): row counts")
            #expect(differing == 0, "\(table): rows the passes wrote differently from the reference")
        }
    }

    // MARK: - The generated ledger

    static func generate(_ database: Database, properties: [String], leases: Int, random: inout SeededGenerator) throws {
        let resident = try database.prepare("""
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status, move_in_date, move_out_date)
            VALUES (:p, :id, :unit, 'R', 'current', :in, :out)
            """)
        let lease = try database.prepare("""
            INSERT INTO unified_leases (unified_property_id, lease_id, unit_number, resident_id, start_date, end_date, status,
                                        is_renewal, is_month_to_month)
            VALUES (:p, :id, :unit, :resident, :start, :end, 'current', 0, :mtm)
            """)
        let member = try database.prepare("""
            INSERT INTO unified_lease_residents (unified_property_id, lease_id, resident_id, role) VALUES (:p, :lease, :resident, :role)
            """)
        let schedule = try database.prepare("""
            INSERT INTO unified_recurring_charges (unified_property_id, lease_id, resident_id, unit_number, charge_code, category,
                                                   category_known, amount, start_date, end_date)
            VALUES (:p, :lease, :resident, :unit, :code, 'OTHER', 1, :amount, :start, :end)
            """)
        let charge = try database.prepare("""
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                                         category, category_known, period, amount, amount_paid, balance)
            VALUES (:p, :id, :resident, :lease, :unit, :code, 'OTHER', 1, :period, :amount, 0, :amount)
            """)
        func day(_ offset: Int) -> String { LocalDate(iso: "2025-06-01")!.adding(days: offset).iso }
        var chargeID = 0
        for (n, property) in properties.enumerated() {
            // The last property was synced before the run's date: it is judged on its own date.
            try database.execute("""
                INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
                VALUES ('\(property)', 'P', 'yardi', '\(n == properties.count - 1 ? "2026-10-05" : "2026-11-20")', 'test')
                """)
            for l in 0..<leases {
                let id = "L\(l)", head = "t\(l)", co = "c\(l)", unit = "\(100 + l)"
                let moveIn = Int.random(in: -200...560, using: &random)
                let moveOut: Int? = Bool.random(using: &random) ? nil : moveIn + Int.random(in: 20...400, using: &random)
                let termEnd = moveIn + Int.random(in: 90...365, using: &random)
                let monthToMonth = Int.random(in: 0..<4, using: &random) == 0
                let p = SQLValue.text(property)
                try resident.execute([":p": p, ":id": .text(head), ":unit": .text(unit), ":in": .text(day(moveIn)),
                                      ":out": SQLValue(moveOut.map(day))])
                try resident.execute([":p": p, ":id": .text(co), ":unit": .text(unit), ":in": .text(day(moveIn)), ":out": .null])
                try lease.execute([":p": p, ":id": .text(id), ":unit": .text(unit), ":resident": .text(head),
                                   ":start": .text(day(moveIn)), ":end": .text(day(termEnd)), ":mtm": .integer(monthToMonth ? 1 : 0)])
                try member.execute([":p": p, ":lease": .text(id), ":resident": .text(head), ":role": .text("head")])
                try member.execute([":p": p, ":lease": .text(id), ":resident": .text(co), ":role": .text("co_resident")])
                if l % 6 == 1 {
                    // A renewal: a later lease of the same household, from the day after the term.
                    try lease.execute([":p": p, ":id": .text("R\(l)"), ":unit": .text(unit), ":resident": .text(head),
                                       ":start": .text(day(termEnd + 1)), ":end": .text(day(termEnd + 365)), ":mtm": .integer(0)])
                    try schedule.execute([":p": p, ":lease": .text("R\(l)"), ":resident": .text(head), ":unit": .text(unit),
                                          ":code": .text("rent"), ":amount": .real(1_999.99), ":start": .text(day(termEnd + 1)),
                                          ":end": .text(day(termEnd + 365))])
                }
                let unscheduled = l % 15 == 14
                var codes: [(String, Int64)] = [("rent", Int64.random(in: 90_000...250_000, using: &random)),
                                                ("WATER", Int64.random(in: 1_000...9_999, using: &random))]
                if l % 5 == 0 { codes.append(("Concession", -Int64.random(in: 1_000...9_999, using: &random))) }
                if !unscheduled {
                    for (code, cents) in codes {
                        // A rent change part-way through the term; now and then an overlapping second line.
                        let change = moveIn + Int.random(in: 30...200, using: &random)
                        let lines: [(Int, Int?, Int64)] = l % 7 == 3
                            ? [(moveIn, termEnd, cents), (moveIn + 40, termEnd, Int64(1_234))]
                            : [(moveIn, change - 1, cents), (change, termEnd, cents + 5_000)]
                        for (start, end, amount) in lines {
                            try schedule.execute([":p": p, ":lease": .text(id), ":resident": .text(head), ":unit": .text(unit),
                                                  ":code": .text(code), ":amount": .real(Double(amount) / 100),
                                                  ":start": .text(day(start)), ":end": SQLValue(end.map(day))])
                        }
                    }
                }
                for month in ChargeAudit.window(endingAt: LocalDate(iso: "2026-11-20")!, months: 16) {
                    for (code, cents) in codes + [("LATEFEE", 5_000)] {
                        guard Int.random(in: 0..<3, using: &random) > 0 else { continue }
                        var amount = cents
                        switch Int.random(in: 0..<10, using: &random) {
                        case 0: amount -= 1_000
                        case 1: amount += 777
                        case 2: amount = cents * Int64.random(in: 1...30, using: &random) / 30
                        default: break
                        }
                        // The head, a co-resident without a lease id, or the head without one; sometimes reversed.
                        let who = Int.random(in: 0..<6, using: &random)
                        let payer = who == 5 ? co : head
                        let leaseID: String? = who >= 4 ? nil : id
                        let reversals = Int.random(in: 0..<12, using: &random) == 0 ? [amount, -amount] : [amount]
                        for value in reversals {
                            chargeID += 1
                            try charge.execute([":p": p, ":id": .text("c\(chargeID)"), ":resident": .text(payer),
                                                ":lease": SQLValue(leaseID), ":unit": .text(unit),
                                                ":code": .text(Bool.random(using: &random) ? code.lowercased() : code),
                                                ":period": .text(month), ":amount": .real(Double(value) / 100)])
                        }
                    }
                }
            }
        }
    }

    /// A small deterministic generator (SplitMix64), so the ledger is the same every run.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    // MARK: - The reference: the set-based SQL of the first version, run under a run of its own

    static func referenceRun(_ database: Database, asOf: String, months: [String]) throws -> Int64 {
        try database.withTransaction {
            try database.prepare("""
                INSERT INTO audit_runs (started_at, as_of_date, first_month, last_month, properties)
                VALUES ('reference', :as_of, :first, :last, '[]')
                """).execute([":as_of": .text(asOf), ":first": .text(months[0]), ":last": .text(months[months.count - 1])])
            let runID = database.lastInsertRowID
            try database.execute(temporaryTables)
            for month in months {
                guard let first = LocalDate(iso: month + "-01") else { throw AuditError("\(month): not a month") }
                let days = LocalDate.daysIn(month: first.month, year: first.year)
                try database.prepare("INSERT INTO temp.audit_window VALUES (:m, :f, :l, :d)").execute([
                    ":m": .text(month), ":f": .text(first.iso), ":l": .text(first.adding(days: days - 1).iso), ":d": .integer(Int64(days))])
            }
            try database.prepare("""
                INSERT INTO temp.audit_scope SELECT unified_property_id, min(as_of_date, :as_of) FROM unified_properties
                WHERE ledger_source IS NOT NULL
                """).execute([":as_of": .text(asOf)])
            for sql in [insertCodes, insertHousehold, insertExpected] { try database.prepare(sql).execute() }
            let range: [String: SQLValue] = [":first": .text(months[0]), ":last": .text(months[months.count - 1])]
            try database.prepare(insertPostedByLease).execute(range)
            try database.prepare(insertPostedByResident).execute(range)
            try database.prepare(insertLines).execute()
            for sql in [insertResults, insertLeaseCharges, insertPropertyTotals] {
                try database.prepare(sql).execute([":run": .integer(runID)])
            }
            return runID
        }
    }

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
                   -- A month-to-month or held-over lease (the household's latest) keeps billing its last scheduled
                   -- amount after the term, until move-out.
                   CASE WHEN (l.is_month_to_month = 1
                              OR (l.resident_id IS NOT NULL AND NOT EXISTS (
                                      SELECT 1 FROM unified_leases n WHERE n.unified_property_id = l.unified_property_id
                                        AND n.resident_id = l.resident_id AND n.start_date > l.start_date)))
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

}
