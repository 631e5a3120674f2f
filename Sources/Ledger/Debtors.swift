import Metrics
import OwnerDashCore
import SQLiteKit

/// `ownerdash report debtors`: the people who owe money as of a date, each with every unit they owe on, the months
/// each unit's debt covers, and their total, largest first.
///
/// Definitions (unified_charges, unified_payments, unified_residents; read-only):
/// - a unit's debt = Σ charges posted on or before the as-of date (charge date, else due date, else the period's
///   first day) − Σ payments dated on or before it, per household (resident) of a property; listed when positive.
///   A credit on another unit is not netted against it (the credit is the PMS's to apply, not the report's).
/// - the months a debt covers: payments settle the oldest charges first, so the debt is made of the most recent
///   charges; walking them newest first until the debt is used up gives each month's share, and the month
///   amounts always add up to the unit's debt (what a notice lists line by line).
/// - one person = the same identity key (`Debtors.personKey`): the same e-mail (trimmed, lowercased); without an
///   e-mail, the same name (words lowercased, punctuation dropped, in any order: "Lee, Ann" = "Ann Lee") and the
///   same phone (its last 10 digits); with neither, the household alone. A person's units may be in several
///   properties; their total is the sum of their units' debts.
/// Listed when the person's total ≥ `minDebt` (default: any positive debt), sorted by total, largest first.
///
/// A property whose ledger is partial (`PartialLedger`: balances without postings) is read from
/// unified_ledger_balances instead, as of the balances' date whatever `asOf` says: a unit's debt is the household's
/// net balance (delinquent − prepaid, all codes), and the "months" it covers are the PMS's aging buckets (`0-30 days`
/// ... `over 90 days`), attributed newest first like charges; such properties are listed in `partialLedger`.
public struct Debtors: Sendable {
    /// One person who owes, across all their units.
    public struct Person: Sendable, Equatable {
        /// The identity key the units were grouped by (`email:…`, `name-phone:…`, `resident:property/id`).
        public var key: String
        public var name: String?
        public var email: String?
        public var phone: String?
        /// Largest debt first.
        public var units: [UnitDebt]
        public var totalCents: Int64
        /// Any of the person's units is under eviction: a notice of the debt is the eviction's business, not a
        /// reminder's (`notices` holds such people back).
        public var underEviction: Bool { units.contains { $0.underEviction == true } }
        /// The properties of the units, in order of first appearance.
        public var properties: [String] {
            units.reduce(into: [String]()) { if !$0.contains($1.property) { $0.append($1.property) } }
        }
    }

    /// One household's debt on one unit.
    public struct UnitDebt: Sendable, Equatable {
        public var property: String
        public var unit: String
        public var residentID: String
        public var name: String?
        public var status: String?
        public var balanceCents: Int64
        /// Oldest first; the amounts add up to `balanceCents`.
        public var months: [MonthDebt]
        /// The PMS marks the household under eviction at its latest delinquency snapshot on or before the date
        /// (unified_delinquency.under_eviction); nil: it says nothing.
        public var underEviction: Bool? = nil
        /// The account is placed with a collection agency at the same snapshot (unified_delinquency.in_collections,
        /// from RealPage's Collections Report); nil: no report says.
        public var inCollections: Bool? = nil
    }

    /// The share of a debt that falls in one month (`period`).
    public struct MonthDebt: Sendable, Equatable {
        public var period: String
        /// The earliest due date of the month's charges that make up this share.
        public var dueDate: String?
        public var amountCents: Int64
    }

    public var people: [Person]
    /// Properties asked for that have no tenant ledger (named, never shown as zeros).
    public var noLedger: [String]
    /// Properties asked for whose ledger is partial: their debts come from the Delinquent and Prepaid balances.
    public var partialLedger: [String] = []
    /// Properties whose ledger the nightly windows have brought past its last whole pull (`LedgerWholeAsOf`): a
    /// posting dated back before the windows (a credit to an old month) is not in their debts until the next one.
    public var ledgerWholeAsOf: [String: LedgerWholeAsOf] = [:]
    /// The date each property's debts were judged on.
    public var asOf: [String: String]
    public var totalCents: Int64 { people.reduce(0) { $0 + $1.totalCents } }

    /// Reads the debtors of `properties` as of `asOf` (default: each property's own date).
    /// `syncedBalances` false sums the postings even on a property's own date (the tests hold the two ways together).
    public static func run(database: Database, properties: [String], asOf: LocalDate?, minDebt: Double?,
                           syncedBalances: Bool = true) throws -> Debtors {
        var report = Debtors(people: [], noLedger: [], asOf: [:])
        let known = try PartialLedger.sources(database)
        let households = try database.prepare(Self.householdsSQL)
        let balances = try database.prepare(Self.balancesSQL)
        let hasBalances = try database.prepare(Self.hasBalancesSQL)
        let charges = try database.prepare(Self.chargesSQL)
        let partialHouseholds = try database.prepare(PartialLedger.householdsSQL)
        var byKey: [String: Person] = [:]
        var order: [String] = []
        func add(_ unit: UnitDebt, email: String?, phone: String?) {
            let key = personKey(email: email, name: unit.name, phone: phone, property: unit.property, resident: unit.residentID)
            if byKey[key] == nil {
                order.append(key)
                byKey[key] = Person(key: key, name: nil, email: nil, phone: nil, units: [], totalCents: 0)
            }
            byKey[key]?.units.append(unit)
            byKey[key]?.totalCents += unit.balanceCents
            if byKey[key]?.name == nil { byKey[key]?.name = unit.name }
            if byKey[key]?.email == nil { byKey[key]?.email = email }
            if byKey[key]?.phone == nil { byKey[key]?.phone = phone }
        }
        for property in properties {
            guard let info = known[property] else { continue }
            guard info.ledger != nil else { report.noLedger.append(property); continue }
            if info.partial {
                report.partialLedger.append(property)
                report.asOf[property] = info.asOf
                for household in try PartialLedger.households(partialHouseholds, property: property)
                where household.balanceCents > 0 {
                    let buckets = zip(PartialLedger.buckets, household.aging).map { (period: $0.0, due: String?.none, cents: $0.1) }
                    add(UnitDebt(property: property, unit: household.unit, residentID: household.residentID,
                                 name: household.name, status: household.status, balanceCents: household.balanceCents,
                                 months: Self.months(covering: household.balanceCents, newestFirst: buckets),
                                 underEviction: household.underEviction, inCollections: household.inCollections),
                        email: household.email, phone: household.phone)
                }
                continue
            }
            let date = asOf?.iso ?? info.asOf ?? "9999-12-31"
            report.asOf[property] = date
            if let lag = LedgerWholeAsOf.of(info) { report.ledgerWholeAsOf[property] = lag }
            let parameters: [String: SQLValue] = [":property": .text(property), ":as_of": .text(date)]
            // On the property's own date the sync has summed every household already (one row each instead of every
            // posting); another date, or a unified.db synced before those sums existed, sums the postings here.
            let summed = try syncedBalances && !hasBalances.query(parameters).isEmpty
            try (summed ? balances : households).forEachRow(parameters) { row in
                let resident = row.text("resident_id") ?? ""
                let balance = Int64(row.int("cents") ?? 0)
                // Newest first, only as far back as the debt goes: the months it covers are the most recent charges.
                var recent: [(period: String, due: String?, cents: Int64)] = []
                var covered: Int64 = 0
                try charges.forEachRowWhile([":property": .text(property), ":resident": .text(resident), ":as_of": .text(date)]) { charge in
                    let cents = charge.value(at: 2).integerValue ?? 0
                    recent.append((charge.text(at: 0) ?? "", charge.text(at: 1), cents))
                    covered += max(0, cents)
                    return covered < balance
                }
                add(UnitDebt(property: property, unit: row.text("unit_number") ?? "", residentID: resident,
                             name: row.text("name"), status: row.text("status"), balanceCents: balance,
                             months: Self.months(covering: balance, newestFirst: recent),
                             underEviction: row.int("under_eviction").map { $0 != 0 },
                             inCollections: row.int("in_collections").map { $0 != 0 }),
                    email: row.text("email"), phone: row.text("phone"))
            }
        }
        let minimumCents = minDebt.map { Int64(($0 * 100).rounded()) } ?? 1
        report.people = order.compactMap { byKey[$0] }.filter { $0.totalCents >= max(1, minimumCents) }.map { person in
            var person = person
            person.units.sort { ($0.balanceCents, $1.property, $1.unit) > ($1.balanceCents, $0.property, $0.unit) }
            return person
        }
        report.people.sort { a, b in
            if a.totalCents != b.totalCents { return a.totalCents > b.totalCents }
            return ((a.name ?? "").lowercased(), a.key) < ((b.name ?? "").lowercased(), b.key)
        }
        return report
    }

    /// The month shares of a debt: charges (newest first) taken until the debt is used up, then put oldest first.
    /// Credits (negative charges) are already in the balance and take no share. What no charge explains (a payment
    /// reversed, say) is added to the oldest month, so the shares always add up to the debt.
    static func months(covering debt: Int64, newestFirst charges: [(period: String, due: String?, cents: Int64)]) -> [MonthDebt] {
        var left = debt
        var shares: [MonthDebt] = []
        for charge in charges where left > 0 && charge.cents > 0 {
            let take = min(left, charge.cents)
            left -= take
            if let last = shares.indices.last, shares[last].period == charge.period {
                shares[last].amountCents += take
                if let due = charge.due, due < (shares[last].dueDate ?? "9999") { shares[last].dueDate = due }
            } else {
                shares.append(MonthDebt(period: charge.period, dueDate: charge.due, amountCents: take))
            }
        }
        if left > 0 {
            if shares.isEmpty {
                shares.append(MonthDebt(period: "unattributed", dueDate: nil, amountCents: left))
            } else {
                shares[shares.count - 1].amountCents += left
            }
        }
        return shares.reversed()
    }

    // MARK: - Who is one person

    /// The identity key units are grouped by: `email:<address>`, else `name-phone:<name words>|<10 digits>`, else
    /// `resident:<property>/<resident id>` (see the type's doc comment for the normalization).
    public static func personKey(email: String?, name: String?, phone: String?, property: String, resident: String) -> String {
        if let email = email?.trimmingWhitespace.lowercased(), email.contains("@") { return "email:\(email)" }
        let words = (name ?? "").lowercased()
            .split { !($0.isLetter || $0.isNumber) }
            .map(String.init).sorted()
        let digits = String((phone ?? "").filter(\.isNumber).suffix(10))
        if !words.isEmpty, digits.count >= 7 { return "name-phone:\(words.joined(separator: " "))|\(digits)" }
        return "resident:\(property)/\(resident)"
    }

    // MARK: - SQL

    // The property's latest delinquency snapshot on or before the date, where a household's eviction and collections
    // marks are read
    // (a night without the report keeps no rows of its own).
    static let latestDelinquencyDate = """
        SELECT max(as_of_date) FROM unified_delinquency WHERE unified_property_id = :property AND as_of_date <= :as_of
        """

    // One row per household of the property whose postings up to the date leave it owing (read by column name; the
    // balances' query below selects the same names).
    static let householdsSQL = """
        WITH posted AS (
            SELECT resident_id, CAST(round(amount * 100) AS INTEGER) AS cents FROM unified_charges
            WHERE unified_property_id = :property AND coalesce(charge_date, due_date, period || '-01') <= :as_of
            UNION ALL
            SELECT resident_id, -CAST(round(amount * 100) AS INTEGER) FROM unified_payments
            WHERE unified_property_id = :property AND payment_date <= :as_of
        ),
        owing AS (SELECT resident_id, sum(cents) AS cents FROM posted GROUP BY resident_id HAVING sum(cents) > 0)
        SELECT o.resident_id AS resident_id,
               coalesce(r.unit_number, (SELECT max(unit_number) FROM unified_charges c
                                        WHERE c.unified_property_id = :property AND c.resident_id = o.resident_id))
                   AS unit_number,
               \(HouseholdName.sql(residentName: "r.name", key: "o.resident_id")) AS name, r.email AS email,
               r.phone AS phone, r.status AS status, o.cents AS cents, d.under_eviction AS under_eviction,
               d.in_collections AS in_collections
        FROM owing o
        LEFT JOIN unified_residents r ON r.unified_property_id = :property AND r.resident_id = o.resident_id
        LEFT JOIN unified_delinquency d ON d.unified_property_id = :property AND d.resident_id = o.resident_id
                                       AND d.as_of_date = (\(latestDelinquencyDate))
        ORDER BY o.resident_id
        """

    // The same rows from the balances the sync wrote for the property's own date (HouseholdBalances).
    static let balancesSQL = """
        SELECT b.resident_id AS resident_id,
               coalesce(r.unit_number, (SELECT max(unit_number) FROM unified_charges c
                                        WHERE c.unified_property_id = :property AND c.resident_id = b.resident_id))
                   AS unit_number,
               \(HouseholdName.sql(residentName: "r.name", key: "b.resident_id")) AS name, r.email AS email,
               r.phone AS phone, r.status AS status, CAST(round(b.balance * 100) AS INTEGER) AS cents,
               d.under_eviction AS under_eviction, d.in_collections AS in_collections
        FROM unified_household_balances b
        LEFT JOIN unified_residents r ON r.unified_property_id = :property AND r.resident_id = b.resident_id
        LEFT JOIN unified_delinquency d ON d.unified_property_id = :property AND d.resident_id = b.resident_id
                                       AND d.as_of_date = (\(latestDelinquencyDate))
        WHERE b.unified_property_id = :property AND b.balance > 0
          AND (SELECT as_of_date FROM unified_properties WHERE unified_property_id = :property) = :as_of
        ORDER BY b.resident_id
        """

    static let hasBalancesSQL = """
        SELECT 1 FROM unified_household_balances b JOIN unified_properties p USING (unified_property_id)
        WHERE b.unified_property_id = :property AND p.as_of_date = :as_of LIMIT 1
        """

    // A household's charges up to the date, newest first (the order the debt is attributed in).
    static let chargesSQL = """
        SELECT period, due_date, CAST(round(amount * 100) AS INTEGER) FROM unified_charges
        WHERE unified_property_id = :property AND resident_id = :resident
          AND coalesce(charge_date, due_date, period || '-01') <= :as_of
        ORDER BY period DESC, coalesce(due_date, charge_date) DESC, charge_id DESC
        """
}

extension Debtors {
    /// The columns of the people (`rows`), `units` and `months` tables, in the order `result` fills them (the API's
    /// schema lists the same).
    public static let peopleColumns: [MetricResult.Column] = [
        .init("debtor", .text, isJoinKey: true), .init("name", .text), .init("email", .text), .init("phone", .text),
        .init("properties", .text), .init("units", .text), .init("months", .count), .init("total", .money)]
    public static let unitColumns: [MetricResult.Column] = [
        .init("debtor", .text, isJoinKey: true), .init("property", .text), .init("unit", .text), .init("resident_id", .text),
        .init("name", .text), .init("status", .text), .init("under_eviction", .text), .init("in_collections", .text),
        .init("balance", .money), .init("months", .text)]
    public static let monthColumns: [MetricResult.Column] = [
        .init("debtor", .text, isJoinKey: true), .init("property", .text), .init("unit", .text), .init("resident_id", .text),
        .init("period", .month), .init("due_date", .date), .init("amount", .money)]

    /// The debtors for the table / JSON / CSV writers: the people (with the portfolio total), their units, and the
    /// months each unit's debt covers.
    public func result(parameters: [MetricResult.Parameter]) -> MetricResult {
        let peopleTable = MetricTable(
            name: "rows", title: "Debtors (by person, largest total first)", columns: Self.peopleColumns,
            rows: people.map { p in
                [.text(p.key), SQLValue(p.name), SQLValue(p.email), SQLValue(p.phone),
                 .text(p.properties.joined(separator: " ")), .text(p.units.map(\.unit).joined(separator: " ")),
                 .integer(Int64(Set(p.units.flatMap { $0.months.map(\.period) }).count)), money(p.totalCents)]
            },
            total: [.text("total"), .text("\(people.count) debtor\(people.count == 1 ? "" : "s")"), .null, .null, .null,
                    .integer(Int64(people.reduce(0) { $0 + $1.units.count })), .null, money(totalCents)])
        let unitsTable = MetricTable(
            name: "units", title: "Each unit's debt", columns: Self.unitColumns,
            rows: people.flatMap { p in p.units.map { u in
                [.text(p.key), .text(u.property), .text(u.unit), .text(u.residentID), SQLValue(u.name), SQLValue(u.status),
                 MetricResult.yesNo(u.underEviction), MetricResult.yesNo(u.inCollections),
                 money(u.balanceCents), .text(u.months.map(\.period).joined(separator: " "))]
            } })
        let monthsTable = MetricTable(
            name: "months", title: "The months each debt covers", columns: Self.monthColumns,
            rows: people.flatMap { p in p.units.flatMap { u in u.months.map { m in
                [.text(p.key), .text(u.property), .text(u.unit), .text(u.residentID), .text(m.period), SQLValue(m.dueDate),
                 money(m.amountCents)]
            } } })
        let warnings = noLedger.map { "\($0): no tenant ledger synced for this property (left out, not shown as zeros)" }
            + partialLedger.map { PartialLedger.note($0, asOf: asOf[$0], "its months are aging buckets, not posting months") }
        return MetricResult(metric: "debtors", parameters: parameters,
                            tables: [peopleTable, unitsTable, monthsTable] + [LedgerWholeAsOf.table(ledgerWholeAsOf)].compactMap { $0 },
                            warnings: warnings)
    }
}
