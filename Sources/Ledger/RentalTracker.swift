import Metrics
import OwnerDashCore
import SQLiteKit

/// `ownerdash report rental-tracker`: the residents behind on rent as of the date, with what they owe and what they
/// paid.
///
/// Definitions (unified_charges, unified_payments; read-only):
/// - balance = Σ charges − Σ payments of the household (every posting synced; negative = in credit).
/// - a month missing = a month (`period`) with a RENT charge past due (due before the as-of date) and not fully paid;
///   months behind = how many such months.
/// - owed = every charge, of any category, with a balance left: due date, period, code, what is left;
///   paid = the household's payments from the first month missing on: date, reference, amount, period, unit;
///   last payment = the household's latest payment on or before the as-of date, before the first month missing or not.
/// Listed when months behind ≥ `minMonthsBehind` and balance ≥ `minBalance` (default: any positive balance).
/// under_eviction: the household's mark at the property's latest delinquency snapshot on or before the date
/// (unified_delinquency.under_eviction, `Debtors.latestDelinquencyDate`): a resident under eviction is chased by the
/// eviction, not by the tracker's calls. in_collections: the same snapshot's mark of an account placed with a
/// collection agency (unified_delinquency.in_collections): the agency collects it, not the tracker's calls.
///
/// A property whose ledger is partial (`PartialLedger`, listed in `partialLedger`) has balances, not postings: balance
/// = the household's net balance of the Delinquent and Prepaid report; the months missing are the aging buckets
/// holding unpaid RENT (`0-30 days` ... `over 90 days`, the last counting once however old); owed = each code's
/// positive bucket amounts (no due date); paid is empty (no payment is known).
public struct RentalTracker: Sendable {
    /// One resident (household) behind on rent.
    public struct Resident: Sendable, Equatable {
        public var property: String
        public var unit: String
        public var residentID: String
        public var name: String?
        public var status: String?
        public var balanceCents: Int64
        public var monthsMissing: [String]
        public var owed: [Owed]
        public var paid: [Paid]
        /// The household's most recent payment on or before the as-of date, whenever it was (a household behind since
        /// March that last paid in February has one, though `paid` is empty); nil when none is on record.
        public var lastPayment: Paid? = nil
        /// Whether the PMS marks the household under eviction; nil: it says nothing.
        public var underEviction: Bool? = nil
        /// Whether the account is placed with a collection agency; nil: nothing says.
        public var inCollections: Bool? = nil
    }

    /// A charge with something left to pay.
    public struct Owed: Sendable, Equatable {
        public var dueDate: String?
        public var period: String
        public var code: String
        public var amountCents: Int64
    }

    /// A payment received.
    public struct Paid: Sendable, Equatable {
        public var date: String
        public var reference: String?
        public var amountCents: Int64
        public var period: String
        public var unit: String?
    }

    /// How the residents are ordered.
    public enum Sort: String, Sendable, CaseIterable { case balance, name, unit }

    public var residents: [Resident]
    public var noLedger: [String]
    public var asOf: [String: String]
    /// Properties whose ledger is partial: read from the Delinquent and Prepaid balances.
    public var partialLedger: [String] = []
    /// Properties whose ledger the nightly windows have brought past its last whole pull (`LedgerWholeAsOf`): a
    /// posting dated back before the windows (a credit to an old month) is not in their months until the next one.
    public var ledgerWholeAsOf: [String: LedgerWholeAsOf] = [:]

    public static func run(database: Database, properties: [String], asOf: LocalDate?, minBalance: Double?,
                           minMonthsBehind: Int, sort: Sort) throws -> RentalTracker {
        var tracker = RentalTracker(residents: [], noLedger: [], asOf: [:])
        let known = try PartialLedger.sources(database)
        let households = try database.prepare(Self.householdsSQL)
        let owed = try database.prepare(Self.owedSQL)
        let paid = try database.prepare(Self.paidSQL)
        let lastPaid = try database.prepare(Self.lastPaymentSQL)
        let partialHouseholds = try database.prepare(PartialLedger.householdsSQL)
        let partialOwed = try database.prepare(PartialLedger.owedSQL)
        let minimumCents = minBalance.map { Int64(($0 * 100).rounded()) }
        for property in properties {
            guard let info = known[property] else { continue }
            guard info.ledger != nil else { tracker.noLedger.append(property); continue }
            if info.partial {
                tracker.partialLedger.append(property)
                tracker.asOf[property] = info.asOf
                for household in try PartialLedger.households(partialHouseholds, property: property) {
                    let missing = household.rentBucketsBehind
                    let balance = household.balanceCents
                    guard missing.count >= minMonthsBehind, minMonthsBehind > 0 || balance > 0,
                          balance >= (minimumCents ?? 1) else { continue }
                    tracker.asOf[property] = household.asOf ?? info.asOf
                    var owedBuckets: [Owed] = []
                    try partialOwed.forEachRow([":property": .text(property), ":resident": .text(household.residentID)]) { row in
                        // Oldest bucket first, as a posted ledger's months are listed.
                        for (period, column) in zip(PartialLedger.buckets, ["b0", "b1", "b2", "b3"]).reversed() {
                            guard let cents = row.int(column), cents > 0 else { continue }
                            owedBuckets.append(Owed(dueDate: nil, period: period, code: row.text("charge_code") ?? "",
                                                    amountCents: Int64(cents)))
                        }
                    }
                    tracker.residents.append(Resident(
                        property: property, unit: household.unit, residentID: household.residentID, name: household.name,
                        status: household.status, balanceCents: balance, monthsMissing: missing, owed: owedBuckets,
                        paid: [], underEviction: household.underEviction, inCollections: household.inCollections))
                }
                continue
            }
            let date = asOf?.iso ?? info.asOf ?? ""
            tracker.asOf[property] = date
            if let lag = LedgerWholeAsOf.of(info) { tracker.ledgerWholeAsOf[property] = lag }
            try households.forEachRow([":property": .text(property), ":as_of": .text(date)]) { row in
                let balance = Int64(row.int("cents") ?? 0)
                let missing = (row.text("months") ?? "").split(separator: ",").map(String.init).sorted()
                guard missing.count >= minMonthsBehind, minMonthsBehind > 0 || balance > 0,
                      balance >= (minimumCents ?? 1) else { return }
                let resident = row.text("resident_id") ?? ""
                let keys: [String: SQLValue] = [":property": .text(property), ":resident": .text(resident),
                                                ":from": .text(missing.first ?? "0000-00")]
                var owedCharges: [Owed] = [], payments: [Paid] = [], lastPayment: Paid?
                try owed.forEachRow(keys.filter { owed.hasParameter($0.key) }) { charge in
                    owedCharges.append(Owed(dueDate: charge.text("due_date"), period: charge.text("period") ?? "",
                                            code: charge.text("charge_code") ?? "", amountCents: Int64(charge.int("cents") ?? 0)))
                }
                try paid.forEachRow(keys) { payments.append(Self.payment($0)) }
                try lastPaid.forEachRowWhile([":property": .text(property), ":resident": .text(resident), ":as_of": .text(date)]) {
                    lastPayment = Self.payment($0)
                    return false
                }
                tracker.residents.append(Resident(
                    property: property, unit: row.text("unit_number") ?? "", residentID: resident, name: row.text("name"),
                    status: row.text("status"), balanceCents: balance, monthsMissing: missing, owed: owedCharges,
                    paid: payments, lastPayment: lastPayment,
                    underEviction: row.int("under_eviction").map { $0 != 0 },
                    inCollections: row.int("in_collections").map { $0 != 0 }))
            }
        }
        tracker.residents.sort { a, b in
            switch sort {
            case .balance: return (a.balanceCents, b.property, b.unit) > (b.balanceCents, a.property, a.unit)
            case .name: return ((a.name ?? "").lowercased(), a.unit) < ((b.name ?? "").lowercased(), b.unit)
            case .unit: return (a.property, a.unit.count, a.unit) < (b.property, b.unit.count, b.unit)
            }
        }
        return tracker
    }

    // One row per household with postings: its unit, name, status, balance and the months of past-due unpaid rent.
    static let householdsSQL = """
        WITH posted AS (
            SELECT resident_id, CAST(round(amount * 100) AS INTEGER) AS cents FROM unified_charges
            WHERE unified_property_id = :property
            UNION ALL
            SELECT resident_id, -CAST(round(amount * 100) AS INTEGER) FROM unified_payments
            WHERE unified_property_id = :property
        ),
        balance AS (SELECT resident_id, sum(cents) AS cents FROM posted GROUP BY resident_id),
        missing AS (
            SELECT resident_id, group_concat(DISTINCT period) AS months FROM unified_charges
            WHERE unified_property_id = :property AND category = 'RENT' AND balance > 0.004 AND due_date < :as_of
            GROUP BY resident_id
        )
        SELECT b.resident_id AS resident_id,
               coalesce(r.unit_number, (SELECT max(unit_number) FROM unified_charges c
                                        WHERE c.unified_property_id = :property AND c.resident_id = b.resident_id))
                   AS unit_number,
               \(HouseholdName.sql(residentName: "r.name", key: "b.resident_id")) AS name, r.status AS status,
               b.cents AS cents, m.months AS months, d.under_eviction AS under_eviction,
               d.in_collections AS in_collections
        FROM balance b
        LEFT JOIN missing m ON m.resident_id = b.resident_id
        LEFT JOIN unified_residents r ON r.unified_property_id = :property AND r.resident_id = b.resident_id
        LEFT JOIN unified_delinquency d ON d.unified_property_id = :property AND d.resident_id = b.resident_id
                                       AND d.as_of_date = (\(Debtors.latestDelinquencyDate))
        ORDER BY b.resident_id
        """

    static let owedSQL = """
        SELECT due_date, period, charge_code, CAST(round(balance * 100) AS INTEGER) AS cents FROM unified_charges
        WHERE unified_property_id = :property AND resident_id = :resident AND balance > 0.004
        ORDER BY due_date, period, charge_id
        """

    /// The payment the row of `paidSQL` or `lastPaymentSQL` is on.
    static func payment(_ row: Statement) -> Paid {
        Paid(date: row.text("payment_date") ?? "", reference: row.text("reference"), amountCents: Int64(row.int("cents") ?? 0),
             period: row.text("period") ?? "", unit: row.text("unit_number"))
    }

    static let lastPaymentSQL = """
        SELECT payment_date, reference, CAST(round(amount * 100) AS INTEGER) AS cents, period, unit_number FROM unified_payments
        WHERE unified_property_id = :property AND resident_id = :resident AND payment_date <= :as_of
        ORDER BY payment_date DESC, payment_id DESC
        LIMIT 1
        """

    static let paidSQL = """
        SELECT payment_date, reference, CAST(round(amount * 100) AS INTEGER) AS cents, period, unit_number FROM unified_payments
        WHERE unified_property_id = :property AND resident_id = :resident AND period >= :from
        ORDER BY payment_date, payment_id
        """
}

extension RentalTracker {
    /// The residents' columns, for the report and the API's schema.
    public static let residentColumns: [MetricResult.Column] = [
        .init("property", .text), .init("unit", .text), .init("resident_id", .text), .init("name", .text),
        .init("status", .text), .init("under_eviction", .text), .init("in_collections", .text), .init("balance", .money),
        .init("months_behind", .count),
        .init("months_missing", .text), .init("last_payment", .date), .init("last_payment_amount", .money),
    ]
    /// What they owe: one unpaid charge a row.
    public static let owedColumns: [MetricResult.Column] = [
        .init("property", .text), .init("unit", .text), .init("resident_id", .text), .init("due_date", .date),
        .init("period", .month), .init("charge_code", .text), .init("amount", .money),
    ]
    /// What they paid: one payment a row.
    public static let paidColumns: [MetricResult.Column] = [
        .init("property", .text), .init("unit", .text), .init("resident_id", .text), .init("date", .date),
        .init("reference", .text), .init("amount", .money), .init("period", .month),
    ]

    /// The tracker for the table / JSON / CSV writers: the residents (with the portfolio's total balance), what they
    /// owe, and what they paid.
    public func result(parameters: [MetricResult.Parameter]) -> MetricResult {
        let residentsTable = MetricTable(
            name: "rows", title: "Residents behind on rent",
            columns: Self.residentColumns,
            rows: residents.map { r in
                [.text(r.property), .text(r.unit), .text(r.residentID), SQLValue(r.name), SQLValue(r.status),
                 MetricResult.yesNo(r.underEviction), MetricResult.yesNo(r.inCollections), money(r.balanceCents),
                 .integer(Int64(r.monthsMissing.count)),
                 .text(r.monthsMissing.joined(separator: " ")),
                 SQLValue(r.lastPayment?.date), r.lastPayment.map { money($0.amountCents) } ?? .null]
            },
            // The count of residents under the name, as the debtors' total counts debtors: "months behind" is per resident.
            total: [.text("total"), .null, .null, .text("\(residents.count) resident\(residents.count == 1 ? "" : "s")"), .null,
                    .null, .null, money(residents.reduce(0) { $0 + $1.balanceCents }), .null, .null, .null, .null])
        let owedTable = MetricTable(
            name: "owed", title: "What they owe",
            columns: Self.owedColumns,
            rows: residents.flatMap { r in r.owed.map {
                [.text(r.property), .text(r.unit), .text(r.residentID), SQLValue($0.dueDate), .text($0.period),
                 .text($0.code), money($0.amountCents)]
            } })
        let paidTable = MetricTable(
            name: "paid", title: "What they paid since the first month missing",
            columns: Self.paidColumns,
            rows: residents.flatMap { r in r.paid.map {
                [.text(r.property), SQLValue($0.unit ?? r.unit), .text(r.residentID), .text($0.date), SQLValue($0.reference),
                 money($0.amountCents), .text($0.period)]
            } })
        let warnings = noLedger.map { "\($0): no tenant ledger synced for this property (left out, not shown as zeros)" }
            + partialLedger.map { PartialLedger.note($0, asOf: asOf[$0], "months behind are aging buckets holding unpaid rent, no payments listed") }
        return MetricResult(metric: "rental-tracker", parameters: parameters,
                            tables: [residentsTable, owedTable, paidTable] + [LedgerWholeAsOf.table(ledgerWholeAsOf)].compactMap { $0 },
                            warnings: warnings)
    }
}
