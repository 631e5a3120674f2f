import OwnerDashCore
import SQLiteKit

/// One month of an audit window, as day numbers for the possession and proration arithmetic.
struct AuditMonth: Sendable, Equatable {
    /// `YYYY-MM`, as unified_charges.period and audit_results.month spell it.
    let name: String
    /// Months since year 0 (year x 12 + month - 1): how a charge's period finds its month without a lookup.
    let index: Int
    let firstDay: Int
    let lastDay: Int
    let days: Int

    init(name: String) throws {
        guard let index = AuditMonth.index(of: name), let first = LocalDate(year: index / 12, month: index % 12 + 1, day: 1) else {
            throw AuditError("\"\(name)\" is not a month (YYYY-MM)")
        }
        self.name = name
        self.index = index
        days = LocalDate.daysIn(month: first.month, year: first.year)
        firstDay = first.daysSinceEpoch
        lastDay = firstDay + days - 1
    }

    /// `YYYY-MM` -> year x 12 + month - 1, read straight from the bytes (this runs for every posted charge); nil
    /// when the text is not seven characters of that shape.
    static func index(of text: String) -> Int? { index(bytes: text.utf8) }

    /// The first ten bytes `YYYY-MM-DD` as days since 1970-01-01 (LocalDate's count), read without making a String
    /// (this runs for every date of every schedule line); nil when they are not a real date.
    static func day(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        var value = [0, 0, 0]
        for (part, range) in [(0, 0..<4), (1, 5..<7), (2, 8..<10)] {
            for position in range {
                let byte = bytes[position]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value[part] = value[part] * 10 + Int(byte - UInt8(ascii: "0"))
            }
        }
        return LocalDate(year: value[0], month: value[1], day: value[2])?.daysSinceEpoch
    }

    static func index<Bytes: Sequence<UInt8>>(bytes: Bytes) -> Int? {
        var utf8 = bytes.makeIterator()
        var year = 0, month = 0
        for position in 0..<7 {
            guard let byte = utf8.next() else { return nil }
            if position == 4 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            if position < 4 { year = year * 10 + Int(byte - UInt8(ascii: "0")) } else { month = month * 10 + Int(byte - UInt8(ascii: "0")) }
        }
        guard utf8.next() == nil, (1...12).contains(month) else { return nil }
        return year * 12 + month - 1
    }
}

/// One property's part of an audit run (ChargeAudit says the rules): its schedule and its posted charges are each
/// read in one pass, held per (lease, charge code) for the window's months only, and only exceptions and the
/// per-(lease, code) counts are written. Memory is one property's (lease, code) lines, whatever the portfolio's size.
struct PropertyAudit {
    let property: String
    /// The last day charges are judged due by (audit_run_properties.as_of_date).
    let dueBy: String
    let window: [AuditMonth]

    /// A lease and a charge code it schedules, with the cents expected and posted in each month of the window.
    struct LeaseCode: Sendable {
        let lease: String
        let code: String
        let resident: String?
        let unit: String?
        /// Expected from the rent the lease states (it has no schedule line), not from its schedule.
        let fromLeaseRent: Bool
        /// nil: nothing of this code expected that month (a line only if something was posted).
        var expected: [Int64?]
        /// Posted total (0 when nothing was posted: a charge and its reversal are nothing posted).
        var posted: [Int64]
    }

    struct LeaseCodeKey: Hashable {
        let lease: String
        let code: String
    }

    /// The reading statements of a run, prepared once per connection and executed per property.
    final class Reads {
        let first: String
        let last: String
        let schedule: Statement
        let charges: Statement
        let leaseResidents: Statement

        init(database: Database, first: String, last: String) throws {
            self.first = first; self.last = last
            schedule = try database.prepare(PropertyAudit.schedule)
            charges = try database.prepare(PropertyAudit.charges)
            leaseResidents = try database.prepare(PropertyAudit.leaseResidents)
        }
    }

    /// The writing statements of a run, prepared once on the run's connection.
    final class Writes {
        let runID: Int64
        let insertResult: Statement
        let insertLeaseCharge: Statement
        let insertProperty: Statement

        init(database: Database, runID: Int64) throws {
            self.runID = runID
            insertResult = try database.prepare(PropertyAudit.insertResult)
            insertLeaseCharge = try database.prepare(PropertyAudit.insertLeaseCharge)
            insertProperty = try database.prepare(PropertyAudit.insertProperty)
        }
    }

    /// What the property's passes found, before anything is written: its (lease, code) lines and how many posted
    /// lines were not audited. Plain values, so a worker thread can compute it and the run's connection record it.
    struct Tally: Sendable {
        var lines: [LeaseCode]
        var notAudited: NotAudited
    }

    /// What was posted on leases without any schedule: (lease, code, month) lines, leases and cents, none judged.
    struct NotAudited: Sendable, Equatable {
        var lines = 0
        var leases = 0
        var cents: Int64 = 0
    }

    /// Reads the property's schedule and posted charges and holds them against each other.
    func tally(_ reads: Reads) throws -> Tally {
        guard let dueByDay = LocalDate(iso: dueBy.prefix(10))?.daysSinceEpoch else {
            throw AuditError("\(property): as-of date \"\(dueBy)\" is not a date (YYYY-MM-DD)")
        }
        var lines: [LeaseCode] = []
        var byKey: [LeaseCodeKey: Int] = [:]
        try expect(reads, dueByDay: dueByDay, into: &lines, byKey: &byKey)
        let notAudited = try post(reads, lines: &lines, byKey: byKey)
        return Tally(lines: lines, notAudited: notAudited)
    }

    // MARK: - Expected

    /// Reads the schedule, one row per line of unified_recurring_charges (or, for a lease without any, its rent as
    /// unified_leases states it: `LeaseCode.fromLeaseRent`), and adds each line's prorated cents to the months it is
    /// in effect on the first day of possession.
    private func expect(_ statements: Reads, dueByDay: Int, into lines: inout [LeaseCode],
                        byKey: inout [LeaseCodeKey: Int]) throws {
        let noMonths = [Int64?](repeating: nil, count: window.count)
        let nothingPosted = [Int64](repeating: 0, count: window.count)
        try statements.schedule.forEachRow([":property": .text(property)]) { row in
            let lease = row.text(at: 0) ?? "", code = row.text(at: 1) ?? ""
            let fromLeaseRent = row.int(at: 10) == 1
            let key = LeaseCodeKey(lease: lease, code: code)
            let index: Int
            if let known = byKey[key] {
                index = known
            } else {
                index = lines.count
                byKey[key] = index
                lines.append(LeaseCode(lease: lease, code: code, resident: row.text(at: 2), unit: row.text(at: 3),
                                       fromLeaseRent: fromLeaseRent, expected: noMonths, posted: nothingPosted))
            }
            let field = { (column: Int, name: String) throws -> Int? in
                let day = row.withTextBytes(at: column) { $0.map { AuditMonth.day(bytes: $0) } }
                guard let day else { return nil }
                guard let day else {
                    throw AuditError("\(property): lease \(lease), charge code \(code): \(name) \"\(row.text(at: column) ?? "")\" is not a date (YYYY-MM-DD)")
                }
                return day
            }
            guard let start = try field(4, "schedule start_date"), let moveIn = try field(7, "move-in date") else {
                throw AuditError("\(property): lease \(lease), charge code \(code): the schedule line has no start_date")
            }
            // A month-to-month or held-over lease keeps billing its last scheduled amount after the term, until move-out.
            var end: Int?
            if row.int(at: 9) != 1 { end = try field(5, "schedule end_date") }
            let moveOut = try field(8, "move-out date")
            let cents = Int64(row.int(at: 6) ?? 0)
            for (month, m) in window.enumerated() {
                // Possession in the month: from max(move-in, month start) to min(move-out, month end). The line in
                // effect on its first day is the month's; a first day after the as-of date is not due yet.
                let firstDay = max(moveIn, m.firstDay)
                let lastDay = min(moveOut ?? m.lastDay, m.lastDay)
                guard firstDay >= start, end.map({ firstDay <= $0 }) ?? true, firstDay <= lastDay, firstDay <= dueByDay else {
                    continue
                }
                let amount = Self.prorated(cents, days: Int64(lastDay - firstDay + 1), of: Int64(m.days))
                lines[index].expected[month] = (lines[index].expected[month] ?? 0) + amount
            }
        }
    }

    /// amount x days / days in month, rounded half up to the cent: the floor of (n + half) with a true floor, so
    /// that credits (negative amounts) round half up too. A whole month is never prorated.
    static func prorated(_ cents: Int64, days: Int64, of monthDays: Int64) -> Int64 {
        guard days < monthDays else { return cents }
        let n = cents * days + monthDays / 2
        let remainder = ((n % monthDays) + monthDays) % monthDays
        return (n - remainder) / monthDays
    }

    // MARK: - Posted

    /// Reads the window's posted charges once and adds each to its (lease, code, month); a charge without a lease
    /// id goes to its resident's lease expecting that code that month, else the first (by id) scheduling the code.
    /// Returns what was posted (non-zero (lease, code, month) lines, their leases and cents) on leases without any
    /// schedule.
    ///
    /// This runs for every posted charge of the portfolio, so the usual case is read from the column bytes without
    /// making a String: the index hands a lease's charges over one after another, so its codes are looked up once
    /// per lease, and a charge's code is compared (ASCII case-insensitively, as SQLite's upper()) with that lease's few.
    ///
    /// On a lease audited for its rent only (`LeaseCode.fromLeaseRent`: no schedule kept, its rent from
    /// unified_leases), the other codes posted have nothing to be held against either: counted as not audited, as on
    /// a lease without any.
    private func post(_ statements: Reads, lines: inout [LeaseCode], byKey: [LeaseCodeKey: Int]) throws -> NotAudited {
        guard let firstIndex = window.first?.index else { return NotAudited() }
        let rentOnly = Set(lines.filter(\.fromLeaseRent).map(\.lease))
        var codesOfLease: [String: [(code: [UInt8], line: Int)]] = [:]
        for (index, line) in lines.enumerated() { codesOfLease[line.lease, default: []].append((Array(line.code.utf8), index)) }
        var unscheduled: [LeaseCodeKey: [Int64]] = [:]
        var household: [String: [String]]?
        var lease: [UInt8] = [], codes: [(code: [UInt8], line: Int)]? = nil, leaseIsRentOnly = false
        // The property's own window (the run's, or the part of it a period-limited ledger covers, ChargeAudit).
        try statements.charges.forEachRow([":property": .text(property), ":first": .text(window.first?.name ?? statements.first),
                                           ":last": .text(window.last?.name ?? statements.last)]) { row in
            let fast: Int? = try row.withTextBytes(at: 0) { leaseBytes in
                guard let leaseBytes else { return nil }
                if !leaseBytes.elementsEqual(lease) {
                    lease = Array(leaseBytes)
                    let name = String(decoding: leaseBytes, as: UTF8.self)
                    codes = codesOfLease[name]
                    leaseIsRentOnly = rentOnly.contains(name)
                }
                guard let codes else { return nil }  // a lease without any schedule: counted below
                let line = row.withTextBytes(at: 2) { code in
                    codes.first { Self.equalIgnoringASCIICase(code, $0.code) }?.line
                }
                // A code the lease never schedules: not a recurring charge, not audited; on a lease audited for its
                // rent only, counted as not audited below.
                guard let line else { return leaseIsRentOnly ? nil : -1 }
                guard let month = row.withTextBytes(at: 3, { $0.flatMap { AuditMonth.index(bytes: $0) } }),
                      window.indices.contains(month - firstIndex) else {
                    throw AuditError("\(property): a \(lines[line].code) charge of lease \(lines[line].lease) has period \"\(row.text(at: 3) ?? "")\", not a month of the window (YYYY-MM)")
                }
                lines[line].posted[month - firstIndex] += Self.cents(row.double(at: 4) ?? 0)
                return -1
            }
            if fast != nil { return }
            let code = Self.asciiUppercased(row.text(at: 2) ?? "")
            let period = row.text(at: 3) ?? ""
            let line: Int
            if let lease = row.text(at: 0) {
                // Only leases without any schedule, and the other codes of those audited for rent only, come here
                // (see the fast path above).
                if let index = AuditMonth.index(of: period), window.indices.contains(index - firstIndex) {
                    unscheduled[LeaseCodeKey(lease: lease, code: code), default: Array(repeating: 0, count: window.count)][
                        index - firstIndex] += Self.cents(row.double(at: 4) ?? 0)
                }
                return
            } else {
                if household == nil { household = try self.household(statements, lines: lines) }
                guard let resident = row.text(at: 1), let leases = household?[resident] else { return }
                let candidates = leases.compactMap { byKey[LeaseCodeKey(lease: $0, code: code)] }
                guard let fallback = candidates.first else { return }
                let month = AuditMonth.index(of: period).map { $0 - firstIndex }
                line = candidates.first { candidate in
                    month.map { window.indices.contains($0) && lines[candidate].expected[$0] != nil } ?? false
                } ?? fallback
            }
            guard let index = AuditMonth.index(of: period), window.indices.contains(index - firstIndex) else {
                throw AuditError("\(property): a \(code) charge of lease \(lines[line].lease) has period \"\(period)\", not a month of the window (YYYY-MM)")
            }
            lines[line].posted[index - firstIndex] += Self.cents(row.double(at: 4) ?? 0)
        }
        var notAudited = NotAudited()
        var leases = Set<String>()
        for (key, months) in unscheduled {
            let posted = months.filter { $0 != 0 }
            guard !posted.isEmpty else { continue }
            notAudited.lines += posted.count
            notAudited.cents += posted.reduce(0, +)
            leases.insert(key.lease)
        }
        notAudited.leases = leases.count
        return notAudited
    }

    /// Dollars to cents as SQLite's CAST(round(x * 100) AS INTEGER) does it (add a half, truncate, sign apart),
    /// so that amounts round here exactly as in every other query of the ledger.
    static func cents(_ dollars: Double) -> Int64 {
        let r = dollars * 100
        return r >= 0 ? Int64(r + 0.5) : -Int64(-r + 0.5)
    }

    /// SQLite's upper(): ASCII letters only.
    static func asciiUppercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// `bytes` equals `upper` (already upper-cased) once its ASCII letters are upper-cased.
    static func equalIgnoringASCIICase(_ bytes: UnsafeBufferPointer<UInt8>?, _ upper: [UInt8]) -> Bool {
        guard let bytes, bytes.count == upper.count else { return false }
        for (byte, other) in zip(bytes, upper) where (byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte) != other {
            return false
        }
        return true
    }

    /// Resident -> the leases they may be billed for (as head of household or on unified_lease_residents), lease
    /// ids in byte order; read only when the property has a charge without a lease id.
    private func household(_ statements: Reads, lines: [LeaseCode]) throws -> [String: [String]] {
        var pairs = Set<LeaseCodeKey>()  // (resident, lease), spelled with the same two-string key
        var scheduled = Set<String>()
        for line in lines {
            scheduled.insert(line.lease)
            if let resident = line.resident { pairs.insert(LeaseCodeKey(lease: resident, code: line.lease)) }
        }
        try statements.leaseResidents.forEachRow([":property": .text(property)]) { row in
            guard let lease = row.text(at: 0), let resident = row.text(at: 1), scheduled.contains(lease) else { return }
            pairs.insert(LeaseCodeKey(lease: resident, code: lease))
        }
        var leases: [String: [String]] = [:]
        for pair in pairs { leases[pair.lease, default: []].append(pair.code) }
        return leases.mapValues { $0.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
    }

    // MARK: - Lines

    /// Classifies every line of the tally and writes the exceptions, the per-(lease, code) counts and the property's
    /// totals.
    func record(_ tally: Tally, _ statements: Writes) throws {
        let lines = tally.lines, notAudited = tally.notAudited
        let run = SQLValue.integer(statements.runID), property = SQLValue.text(property)
        var leases = Set<String>()
        var count = 0, matched = 0, missing = 0, unexpected = 0, undercharge = 0, overcharge = 0
        var underTotal: Int64 = 0, overTotal: Int64 = 0
        for line in lines {
            var months = 0, lineMatched = 0, expectedTotal: Int64 = 0, postedTotal: Int64 = 0
            for (month, m) in window.enumerated() {
                let posted = line.posted[month]
                let kind: String
                if let expected = line.expected[month] {
                    if posted == expected { kind = "matched" } else if posted == 0 { kind = "missing" } else {
                        kind = posted < expected ? "undercharge" : "overcharge"
                    }
                } else if posted != 0 {
                    kind = "unexpected"
                } else {
                    continue
                }
                let expected = line.expected[month] ?? 0
                months += 1; expectedTotal += expected; postedTotal += posted
                underTotal += max(expected - posted, 0); overTotal += max(posted - expected, 0)
                switch kind {
                case "matched": lineMatched += 1; continue
                case "missing": missing += 1
                case "unexpected": unexpected += 1
                case "undercharge": undercharge += 1
                default: overcharge += 1
                }
                try statements.insertResult.execute([
                    ":run": run, ":property": property, ":lease": .text(line.lease), ":resident": SQLValue(line.resident),
                    ":unit": SQLValue(line.unit), ":code": .text(line.code), ":month": .text(m.name),
                    ":expected": .real(Double(expected) / 100), ":posted": .real(Double(posted) / 100),
                    ":variance": .real(Double(posted - expected) / 100), ":kind": .text(kind),
                ])
            }
            guard months > 0 else { continue }
            leases.insert(line.lease)
            count += months; matched += lineMatched
            try statements.insertLeaseCharge.execute([
                ":run": run, ":property": property, ":lease": .text(line.lease), ":resident": SQLValue(line.resident),
                ":unit": SQLValue(line.unit), ":code": .text(line.code), ":months": .integer(Int64(months)),
                ":matched": .integer(Int64(lineMatched)), ":exceptions": .integer(Int64(months - lineMatched)),
                ":expected_total": .real(Double(expectedTotal) / 100), ":posted_total": .real(Double(postedTotal) / 100),
                ":expected_from": .text(line.fromLeaseRent ? "lease rent" : "schedule"),
            ])
        }
        try statements.insertProperty.execute([
            ":run": run, ":property": property, ":as_of": .text(dueBy), ":leases": .integer(Int64(leases.count)),
            ":lines": .integer(Int64(count)), ":matched": .integer(Int64(matched)), ":missing": .integer(Int64(missing)),
            ":unexpected": .integer(Int64(unexpected)), ":undercharge": .integer(Int64(undercharge)),
            ":overcharge": .integer(Int64(overcharge)), ":undercharge_total": .real(Double(underTotal) / 100),
            ":overcharge_total": .real(Double(overTotal) / 100), ":not_audited": .integer(Int64(notAudited.lines)),
            ":not_audited_leases": .integer(Int64(notAudited.leases)),
            ":not_audited_amount": .real(Double(notAudited.cents) / 100),
        ])
    }

    // MARK: - SQL

    // The property's schedule, one row per line, grouped by lease and charge code (case-insensitive) in start order,
    // with the household (resident) and unit of each (lease, code), its possession dates and whether the line
    // bills on after the term: the last line of a month-to-month lease, or of the household's latest lease (a
    // holdover: the household stays on past the term with no new lease, and is billed the last amount until it moves
    // out). A lease followed by a later one of the same household (a renewal) ends with its term.
    //
    // A lease without any schedule line (RPX sends the schedule of current leases only, so a renewed or former lease
    // has none) is held, for its rent only, against the rent unified_leases states for it, under a rent code of the
    // property (a code of category RENT its schedules use): the one the lease itself posted most, else the one the
    // schedules use most (a lease that posted no rent then shows it missing), from its start date to its end date
    // (billing on, like a scheduled line, when month-to-month or the household's latest); `basis` 1 marks such a line.
    static let schedule = """
        WITH lease AS (
            SELECT lease_id, resident_id, unit_number, start_date, end_date, move_in_date, is_month_to_month, rent_amount,
                   resident_id IS NOT NULL AND start_date >= max(start_date) OVER (PARTITION BY resident_id) AS is_latest
            FROM unified_leases WHERE unified_property_id = :property
        ),
        rent_code AS (
            SELECT upper(charge_code) AS code, count(*) AS lines FROM unified_recurring_charges
            WHERE unified_property_id = :property AND category = 'RENT'
            GROUP BY upper(charge_code)
        ),
        unscheduled AS (
            SELECT * FROM lease l
            WHERE l.rent_amount > 0 AND l.start_date IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM unified_recurring_charges rc
                              WHERE rc.unified_property_id = :property AND rc.lease_id = l.lease_id)
        ),
        line AS (
            SELECT rc.lease_id, upper(rc.charge_code) AS charge_code, rc.start_date, rc.end_date,
                   CAST(round(rc.amount * 100) AS INTEGER) AS cents,
                   coalesce(min(rc.resident_id) OVER code, l.resident_id) AS resident_id,
                   coalesce(min(rc.unit_number) OVER code, l.unit_number) AS unit_number,
                   coalesce(l.move_in_date, l.start_date, rc.start_date) AS lease_move_in,
                   (l.is_month_to_month = 1 OR l.is_latest) AND rc.start_date = max(rc.start_date) OVER code AS bills_on
            FROM unified_recurring_charges rc
            LEFT JOIN lease l ON l.lease_id = rc.lease_id
            WHERE rc.unified_property_id = :property
            WINDOW code AS (PARTITION BY rc.lease_id, upper(rc.charge_code))
        ),
        leased AS (
            SELECT l.lease_id,
                   coalesce((SELECT upper(c.charge_code) FROM unified_charges c JOIN rent_code r ON r.code = upper(c.charge_code)
                             WHERE c.unified_property_id = :property AND c.lease_id = l.lease_id
                             GROUP BY upper(c.charge_code) ORDER BY count(*) DESC, upper(c.charge_code) LIMIT 1),
                            (SELECT code FROM rent_code ORDER BY lines DESC, code LIMIT 1)) AS charge_code,
                   l.start_date, l.end_date, CAST(round(l.rent_amount * 100) AS INTEGER) AS cents, l.resident_id,
                   l.unit_number, coalesce(l.move_in_date, l.start_date) AS lease_move_in,
                   l.is_month_to_month = 1 OR l.is_latest AS bills_on
            FROM unscheduled l
            WHERE EXISTS (SELECT 1 FROM rent_code)
        ),
        every_line AS (
            SELECT lease_id, charge_code, resident_id, unit_number, start_date, end_date, cents, lease_move_in, bills_on,
                   0 AS basis
            FROM line
            UNION ALL
            SELECT lease_id, charge_code, resident_id, unit_number, start_date, end_date, cents, lease_move_in, bills_on,
                   1 AS basis
            FROM leased
        )
        SELECT line.lease_id, line.charge_code, line.resident_id, line.unit_number, line.start_date, line.end_date,
               line.cents, coalesce(r.move_in_date, line.lease_move_in), r.move_out_date, line.bills_on, line.basis
        FROM every_line line
        LEFT JOIN unified_residents r ON r.unified_property_id = :property AND r.resident_id = line.resident_id
        ORDER BY line.lease_id, line.charge_code, line.start_date
        """

    // The window's posted charges of the property, in one pass over the covering index unified_charges_by_lease
    // (a lease's charges one after another); codes compared case-insensitively and amounts made cents in the pass.
    static let charges = """
        SELECT lease_id, resident_id, charge_code, period, amount
        FROM unified_charges
        WHERE unified_property_id = :property AND period BETWEEN :first AND :last
        """

    static let leaseResidents = """
        SELECT lease_id, resident_id FROM unified_lease_residents WHERE unified_property_id = :property
        """

    static let insertResult = """
        INSERT INTO audit_results (run_id, unified_property_id, lease_id, resident_id, unit_number, charge_code, month,
                                   expected, posted, variance, kind)
        VALUES (:run, :property, :lease, :resident, :unit, :code, :month, :expected, :posted, :variance, :kind)
        """

    static let insertLeaseCharge = """
        INSERT INTO audit_lease_charges (run_id, unified_property_id, lease_id, resident_id, unit_number, charge_code,
                                         months, matched, exceptions, expected_total, posted_total, expected_from)
        VALUES (:run, :property, :lease, :resident, :unit, :code, :months, :matched, :exceptions, :expected_total,
                :posted_total, :expected_from)
        """

    static let insertProperty = """
        INSERT INTO audit_run_properties (run_id, unified_property_id, has_ledger, as_of_date, leases, lines, matched,
                                          missing, unexpected, undercharge, overcharge, undercharge_total, overcharge_total,
                                          not_audited, not_audited_leases, not_audited_amount)
        VALUES (:run, :property, 1, :as_of, :leases, :lines, :matched, :missing, :unexpected, :undercharge, :overcharge,
                :undercharge_total, :overcharge_total, :not_audited, :not_audited_leases, :not_audited_amount)
        """
}
