import OwnerDashCore
import SQLiteKit

/// One household's tenant ledger and residence facts, read from unified.db, with every date as a day number
/// (`LocalDate.daysSinceEpoch`) so that the features can be computed as of any day without parsing text again.
///
/// Only facts dated on or before a feature's day are ever used for it (`HouseholdFeatures`): unified_residents and
/// unified_leases are current state, so a notice or a move-out dated later is what the future held, not a feature.
public struct HouseholdLedger: Sendable {
    /// One posted charge: the day it counts from (charge date, else due date, else its period's first day, as the
    /// debtors report and the aging count it), the day it fell due, its period and amount.
    public struct Charge: Sendable {
        public var posted: Int
        public var due: Int
        public var period: String
        public var cents: Int64
        /// A returned-payment (NSF) charge: the PMS charges the household when a payment bounces.
        public var isReturnedPayment: Bool
        /// A late fee.
        public var isLateFee: Bool
    }

    /// One payment; a negative amount is a payment reversed (returned).
    public struct Payment: Sendable {
        public var day: Int
        public var cents: Int64
    }

    /// One lease of the household, as far as the ledger's leases say.
    public struct Lease: Sendable {
        public var start: Int?
        public var end: Int?
        public var monthToMonth: Bool
        public var rentCents: Int64?
        /// Everyone on the lease but guarantors; nil when the PMS lists nobody.
        public var people: Int?
    }

    public var property: String
    public var residentID: String
    public var unit: String?
    public var name: String?
    /// Oldest first.
    public var charges: [Charge]
    /// Oldest first.
    public var payments: [Payment]
    public var moveIn: Int?
    public var notice: Int?
    public var moveOut: Int?
    public var leases: [Lease]
    /// The unit's market rent (current state: the only one unified.db keeps).
    public var marketRentCents: Int64?
}

/// Reads every household's ledger of a property (unified_charges, unified_payments, unified_residents,
/// unified_leases, unified_lease_residents, unified_units), read-only.
public enum LedgerHistory {
    /// The households of `property` that have at least one charge, in resident order. `residents`: only these (the
    /// households a report lists: a tenth of a property's postings to read); nil: every household.
    public static func households(database: Database, property: String, residents: [String]? = nil) throws -> [HouseholdLedger] {
        var parameters: [String: SQLValue] = [":property": .text(property)]
        let only = residents != nil
        if let residents {
            parameters[":residents"] = .jsonArray(residents)
        }
        var byResident: [String: HouseholdLedger] = [:]
        var order: [String] = []
        func household(_ resident: String) -> String {
            if byResident[resident] == nil {
                order.append(resident)
                byResident[resident] = HouseholdLedger(property: property, residentID: resident, unit: nil, name: nil,
                                                       charges: [], payments: [], moveIn: nil, notice: nil, moveOut: nil,
                                                       leases: [], marketRentCents: nil)
            }
            return resident
        }
        // Columns are looked up by name once per statement (a lookup by name per row would build a String for
        // every column it compares, and a portfolio has about a million postings). The rows come by household, so
        // each household's postings are gathered in a local array and handed over when the next one starts.
        let charges = try database.prepare(chargesSQL(only: only))
        let (chargeResident, chargeUnit, chargePeriod, chargePosted, chargeDue, chargeCents, chargeReturned, chargeLateFee) = (
            charges.columnIndex("resident_id"), charges.columnIndex("unit_number"), charges.columnIndex("period"),
            charges.columnIndex("posted_day"), charges.columnIndex("due_day"), charges.columnIndex("cents"),
            charges.columnIndex("is_returned_payment"), charges.columnIndex("is_late_fee"))
        var current: (resident: String, unit: String?, charges: [HouseholdLedger.Charge])?
        func handOverCharges() {
            guard let done = current else { return }
            byResident[household(done.resident)]?.charges = done.charges
            byResident[done.resident]?.unit = done.unit
        }
        try charges.forEachRow(parameters) { row in
            guard let resident = row.text(at: chargeResident), let posted = row.int(at: chargePosted) else { return }
            if current?.resident != resident {
                handOverCharges()
                current = (resident, nil, [])
            }
            current?.charges.append(HouseholdLedger.Charge(
                posted: posted, due: row.int(at: chargeDue) ?? posted, period: row.text(at: chargePeriod) ?? "",
                cents: Int64(row.int(at: chargeCents) ?? 0),
                isReturnedPayment: row.int(at: chargeReturned) == 1, isLateFee: row.int(at: chargeLateFee) == 1))
            if current?.unit == nil { current?.unit = row.text(at: chargeUnit) }
        }
        handOverCharges()
        let payments = try database.prepare(paymentsSQL(only: only))
        let (paymentResident, paymentDay, paymentCents) = (payments.columnIndex("resident_id"), payments.columnIndex("payment_day"),
                                                           payments.columnIndex("cents"))
        var paying: (resident: String, payments: [HouseholdLedger.Payment])?
        func handOverPayments() {
            guard let done = paying else { return }
            byResident[household(done.resident)]?.payments = done.payments
        }
        try payments.forEachRow(parameters) { row in
            guard let resident = row.text(at: paymentResident), let day = row.int(at: paymentDay) else { return }
            if paying?.resident != resident {
                handOverPayments()
                paying = (resident, [])
            }
            paying?.payments.append(.init(day: day, cents: Int64(row.int(at: paymentCents) ?? 0)))
        }
        handOverPayments()
        try database.prepare(residentsSQL(only: only)).forEachRow(parameters) { row in
            guard let resident = row.text("resident_id"), byResident[resident] != nil else { return }
            byResident[resident]?.name = row.text("name")
            byResident[resident]?.moveIn = row.int("move_in_day")
            byResident[resident]?.notice = row.int("notice_day")
            byResident[resident]?.moveOut = row.int("move_out_day")
            byResident[resident]?.marketRentCents = row.int("market_rent_cents").map(Int64.init)
            if let unit = row.text("unit_number") { byResident[resident]?.unit = unit }
        }
        try database.prepare(leasesSQL(only: only)).forEachRow(parameters) { row in
            guard let resident = row.text("resident_id"), byResident[resident] != nil else { return }
            byResident[resident]?.leases.append(.init(start: row.int("start_day"), end: row.int("end_day"),
                                                      monthToMonth: row.int("is_month_to_month") == 1,
                                                      rentCents: row.int("rent_cents").map(Int64.init),
                                                      people: row.int("people")))
        }
        // A household with payments and no charge (a deposit, a credit moved in) has no ledger to learn from.
        return order.compactMap { byResident[$0] }.filter { !$0.charges.isEmpty }
    }

    /// With `only`: the households of `:residents` alone (a JSON array of resident ids), through the
    /// (property, resident) indexes.
    static func only(_ only: Bool, _ column: String = "resident_id") -> String {
        only ? "AND \(column) IN (SELECT value FROM json_each(:residents))" : ""
    }

    // Days since 1970-01-01: julianday counts from noon, 4714 BC; 2440587.5 is 1970-01-01 00:00.
    static func chargesSQL(only filtered: Bool) -> String { """
        SELECT resident_id, unit_number, period,
               -- A returned payment: OneSite and Voyager both post a charge (NSF, returned check) when a check or
               -- an ACH debit bounces; a late fee's code says LATE. LIKE ignores ASCII case.
               (charge_code LIKE '%NSF%' OR charge_code LIKE '%RETURN%' OR charge_code LIKE '%BOUNCE%') AS is_returned_payment,
               charge_code LIKE '%LATE%' AS is_late_fee,
               CAST(julianday(coalesce(charge_date, due_date, period || '-01')) - 2440587.5 AS INTEGER) AS posted_day,
               CAST(julianday(coalesce(due_date, charge_date, period || '-01')) - 2440587.5 AS INTEGER) AS due_day,
               CAST(round(amount * 100) AS INTEGER) AS cents
        FROM unified_charges
        WHERE unified_property_id = :property \(only(filtered))
        ORDER BY resident_id, posted_day, charge_id
        """
    }

    static func paymentsSQL(only filtered: Bool) -> String { """
        SELECT resident_id, CAST(julianday(payment_date) - 2440587.5 AS INTEGER) AS payment_day,
               CAST(round(amount * 100) AS INTEGER) AS cents
        FROM unified_payments
        WHERE unified_property_id = :property AND julianday(payment_date) IS NOT NULL \(only(filtered))
        ORDER BY resident_id, payment_day, payment_id
        """
    }

    static func residentsSQL(only filtered: Bool) -> String { """
        SELECT r.resident_id, r.unit_number, r.name,
               CAST(julianday(r.move_in_date) - 2440587.5 AS INTEGER)  AS move_in_day,
               CAST(julianday(r.notice_date) - 2440587.5 AS INTEGER)   AS notice_day,
               CAST(julianday(r.move_out_date) - 2440587.5 AS INTEGER) AS move_out_day,
               CAST(round(u.market_rent * 100) AS INTEGER)             AS market_rent_cents
        FROM unified_residents r
        LEFT JOIN unified_units u ON u.unified_property_id = r.unified_property_id AND u.unit_number = r.unit_number
        WHERE r.unified_property_id = :property \(only(filtered, "r.resident_id"))
        """
    }

    // A lease belongs to its resident_id, and to each household listed on it (unified_lease_residents).
    static func leasesSQL(only filtered: Bool) -> String { """
        WITH members AS (
            SELECT lease_id, resident_id FROM unified_lease_residents
            WHERE unified_property_id = :property AND role <> 'guarantor'
        ),
        households AS (
            SELECT lease_id, resident_id FROM unified_leases WHERE unified_property_id = :property AND resident_id IS NOT NULL
            UNION
            SELECT lease_id, resident_id FROM members
        ),
        -- Counted once per lease (a count per joined row would scan every member for each).
        people AS (SELECT lease_id, count(*) AS people FROM members GROUP BY lease_id)
        SELECT h.resident_id, l.is_month_to_month,
               CAST(julianday(l.start_date) - 2440587.5 AS INTEGER) AS start_day,
               CAST(julianday(l.end_date) - 2440587.5 AS INTEGER)   AS end_day,
               CAST(round(l.rent_amount * 100) AS INTEGER)          AS rent_cents,
               p.people
        FROM households h
        JOIN unified_leases l ON l.unified_property_id = :property AND l.lease_id = h.lease_id
        LEFT JOIN people p ON p.lease_id = h.lease_id
        WHERE 1 \(only(filtered, "h.resident_id"))
        ORDER BY h.resident_id, start_day
        """
    }
}
