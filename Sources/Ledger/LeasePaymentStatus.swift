import Metrics
import OwnerDashCore
import SQLiteKit

/// The payment status of one month's billings of one kind (rent or utilities) for one lease.
public enum PaymentStatus: String, Sendable, Equatable, CaseIterable {
    case paid = "PAID"
    case overdue = "OVERDUE"
    case partial = "PARTIAL"
    case pending = "PENDING"

    /// One posted charge as the status rule sees it: amounts in cents, the date it falls due.
    public struct Billing: Sendable, Equatable {
        public var billedCents: Int64
        public var paidCents: Int64
        public var balanceCents: Int64
        public var dueDate: String?

        public init(billedCents: Int64, paidCents: Int64, balanceCents: Int64, dueDate: String?) {
            self.billedCents = billedCents; self.paidCents = paidCents; self.balanceCents = balanceCents; self.dueDate = dueDate
        }
    }

    /// The status of a month's billings, by precedence: PAID when every billing is paid (nothing left to pay), else
    /// OVERDUE when any billing is past due (due before `asOf`) and unpaid, else PARTIAL when any is partly paid,
    /// else PENDING. No billing at all: nil (the report leaves the cell blank).
    public static func of(_ billings: [Billing], asOf: String) -> PaymentStatus? {
        guard !billings.isEmpty else { return nil }
        if billings.allSatisfy({ $0.balanceCents <= 0 }) { return .paid }
        if billings.contains(where: { $0.balanceCents > 0 && ($0.dueDate.map { $0 < asOf } ?? false) }) { return .overdue }
        if billings.contains(where: { $0.paidCents > 0 && $0.balanceCents > 0 }) { return .partial }
        return .pending
    }
}

/// `ownerdash report lease-status`: for each lease (by floor and unit), each month of the window, the status of its
/// RENT and its UTILITIES billings (`PaymentStatus.of`), with what was billed, paid and is still owed.
///
/// Source: unified_charges (categories from `charge_categories`), read-only. A lease is a household's tenancy of a
/// unit (resident_id + unit); its tenants are the household's residents. A property whose
/// `unified_properties.ledger_source` is NULL has no tenant ledger: it is listed in `noLedger`, never shown as zeros.
///
/// A property whose ledger is partial (`PartialLedger`: balances and a schedule, no postings) is listed in
/// `partialLedger` with the one month it can tell, the month of its balances (the property date): per household of
/// the schedule and kind, billed = the recurring charges of that kind, owed = what the kind's codes still owe in the
/// 0-30 days aging bucket (at most the billing), paid = billed − owed (inferred, not a payment on record), due the
/// first of the month. Every other month of the window stays blank: it cannot be known.
///
/// A property whose ledger the nightly windows have brought past its last whole pull is listed in `ledgerWholeAsOf`
/// (unified_properties.ledger_whole_as_of): its old months follow the vendor as of that pull.
public struct LeasePaymentStatusReport: Sendable {
    /// One month's RENT or UTILITIES billings of one lease.
    public struct Cell: Sendable, Equatable {
        public var status: PaymentStatus
        public var billedCents: Int64
        public var paidCents: Int64
        public var balanceCents: Int64
        /// The earliest due date of the month's billings.
        public var dueDate: String?

        public init(status: PaymentStatus, billedCents: Int64, paidCents: Int64, balanceCents: Int64, dueDate: String?) {
            self.status = status; self.billedCents = billedCents; self.paidCents = paidCents
            self.balanceCents = balanceCents; self.dueDate = dueDate
        }
    }

    /// One lease's line of the grid.
    public struct Line: Sendable, Equatable {
        public var property: String
        public var floor: String?
        public var unit: String
        public var residentID: String
        public var leaseIDs: [String]
        public var tenants: [String]
        /// unified_residents.status of the household (current, notice, former ...), nil when not listed.
        public var residentStatus: String?
        /// Month (`YYYY-MM`) -> the rent and utilities cells (nil: no billing of that kind in the month).
        public var rent: [String: Cell]
        public var utilities: [String: Cell]

        public init(property: String, floor: String?, unit: String, residentID: String, leaseIDs: [String],
                    tenants: [String], residentStatus: String?, rent: [String: Cell], utilities: [String: Cell]) {
            self.property = property; self.floor = floor; self.unit = unit; self.residentID = residentID
            self.leaseIDs = leaseIDs; self.tenants = tenants; self.residentStatus = residentStatus
            self.rent = rent; self.utilities = utilities
        }
    }

    public var months: [String]
    public var lines: [Line]
    /// Properties asked for that have no ledger source.
    public var noLedger: [String]
    /// The date statuses are judged on (OVERDUE = due before it), per property.
    public var asOf: [String: String]
    /// Properties whose ledger is partial -> the one month (`YYYY-MM`) their balances tell.
    public var partialLedger: [String: String] = [:]
    /// Properties whose ledger nightly windows have brought past its last whole pull: an old month follows the
    /// vendor as of that pull (`LedgerWholeAsOf`).
    public var ledgerWholeAsOf: [String: LedgerWholeAsOf] = [:]
    /// Properties some of whose units have no floor -> why (unified_properties.floor_note: Yardi sends none;
    /// RealPage only in RPX getunitlist, which a license key may be refused).
    public var floorNotes: [String: String] = [:]

    public init(months: [String], lines: [Line], noLedger: [String], asOf: [String: String]) {
        self.months = months; self.lines = lines; self.noLedger = noLedger; self.asOf = asOf
    }

    /// Runs the report over `properties` for `months` months from `start` (`YYYY-MM`).
    /// `asOf` nil: each property's own date (its last sync's property date).
    public static func run(database: Database, properties: [String], start: String, months count: Int,
                           asOf: LocalDate?, includeInactive: Bool) throws -> LeasePaymentStatusReport {
        let months = Self.months(from: start, count: count)
        var report = LeasePaymentStatusReport(months: months, lines: [], noLedger: [], asOf: [:])
        let known = try PartialLedger.sources(database)
        let charges = try database.prepare(Self.chargesSQL)
        let floors = try database.prepare(Self.floorsSQL)
        let statuses = try database.prepare(Self.statusesSQL)
        let partialBillings = try database.prepare(Self.partialBillingsSQL)
        let tenants = try database.prepare(Self.tenantsSQL)
        let floorNote = try database.prepare(Self.floorNoteSQL)
        for property in properties {
            guard let info = known[property] else { continue }
            guard info.ledger != nil else { report.noLedger.append(property); continue }
            if let note = try floorNote.query([":property": .text(property)]).first?[0].textValue {
                report.floorNotes[property] = note
            }
            let date = info.partial ? info.asOf ?? "" : asOf?.iso ?? info.asOf ?? months.last.map { $0 + "-28" } ?? ""
            report.asOf[property] = date
            if let lag = LedgerWholeAsOf.of(info) { report.ledgerWholeAsOf[property] = lag }
            if info.partial { report.partialLedger[property] = String(date.prefix(7)) }
            // Lines by position; rows come a household at a time, so the previous row's line is checked first.
            var lines: [Line] = [], lineAt: [String: Int] = [:]
            var billings: [[Bucket: [PaymentStatus.Billing]]] = []   // per line: (month, category) -> billings
            var previousKey = "", previousLine = -1
            let month = String(date.prefix(7))
            // One billing row: floor, unit, resident, lease(s), status, month, category, billed, paid, balance, due.
            func take(_ row: Statement, floor: String?, status: String?, leases: [String]) {
                if !includeInactive && !(status == "current" || status == "notice") { return }
                let resident = row.text(at: 1) ?? "", unit = row.text(at: 0) ?? ""
                let key = unit + "\u{1}" + resident
                let line: Int
                if key == previousKey {
                    line = previousLine
                } else if let known = lineAt[key] {
                    line = known
                } else {
                    line = lines.count
                    lineAt[key] = line
                    lines.append(Line(property: property, floor: floor, unit: unit, residentID: resident,
                                      leaseIDs: [], tenants: [], residentStatus: status, rent: [:], utilities: [:]))
                    billings.append([:])
                }
                previousKey = key
                previousLine = line
                for lease in leases where !lines[line].leaseIDs.contains(lease) {
                    lines[line].leaseIDs.append(lease)
                }
                let bucket = Bucket(month: row.text(at: 3) ?? "", category: row.text(at: 4) ?? "")
                billings[line][bucket, default: []].append(PaymentStatus.Billing(
                    billedCents: row.value(at: 5).integerValue ?? 0, paidCents: row.value(at: 6).integerValue ?? 0,
                    balanceCents: row.value(at: 7).integerValue ?? 0, dueDate: row.text(at: 8)))
            }
            if info.partial {
                if months.contains(month) {
                    // A partial ledger's line lists its leases comma-separated (group_concat).
                    try partialBillings.forEachRow([":property": .text(property), ":month": .text(month)]) { row in
                        take(row, floor: row.text(at: 9), status: row.text(at: 10),
                             leases: (row.text(at: 2) ?? "").split(separator: ",").map(String.init))
                    }
                }
            } else {
                // The unit's floor and the household's status looked up here, once each, rather than joined to every
                // charge (a 450-unit property has ~20,000 in 12 months); the lines are put in order below.
                var floorOf: [String: String] = [:], statusOf: [String: String] = [:]
                try floors.forEachRow([":property": .text(property)]) { floorOf[$0.text(at: 0) ?? ""] = $0.text(at: 1) }
                try statuses.forEachRow([":property": .text(property)]) { statusOf[$0.text(at: 0) ?? ""] = $0.text(at: 1) }
                try charges.forEachRow([":property": .text(property), ":first": .text(months.first ?? ""),
                                        ":last": .text(months.last ?? "")]) { row in
                    take(row, floor: floorOf[row.text(at: 0) ?? ""], status: statusOf[row.text(at: 1) ?? ""],
                         leases: row.text(at: 2).map { [$0] } ?? [])
                }
            }
            var tenantsOf: [String: [String]] = [:]
            try tenants.forEachRow([":property": .text(property)]) { row in
                if let household = row.text(at: 0), let name = row.text(at: 1) { tenantsOf[household, default: []].append(name) }
            }
            let order = lines.indices.sorted { Self.precedes(lines[$0], lines[$1]) }
            for index in order {
                var line = lines[index]
                line.tenants = tenantsOf[line.residentID] ?? []
                for (bucket, items) in billings[index] {
                    guard let status = PaymentStatus.of(items, asOf: date) else { continue }
                    let cell = Cell(status: status, billedCents: items.reduce(0) { $0 + $1.billedCents },
                                    paidCents: items.reduce(0) { $0 + $1.paidCents },
                                    balanceCents: items.reduce(0) { $0 + $1.balanceCents },
                                    dueDate: items.compactMap(\.dueDate).min())
                    if bucket.category == "RENT" { line.rent[bucket.month] = cell } else { line.utilities[bucket.month] = cell }
                }
                report.lines.append(line)
            }
        }
        return report
    }

    /// One month's billings of one category (RENT or UTILITIES) of one line.
    private struct Bucket: Hashable {
        var month: String
        var category: String
    }

    /// `count` months from `start` (`YYYY-MM`), in order.
    static func months(from start: String, count: Int) -> [String] {
        let parts = start.split(separator: "-")
        guard parts.count == 2, var year = Int(parts[0]), var month = Int(parts[1]) else { return [] }
        var out: [String] = []
        for _ in 0..<count {
            out.append(String(format: "%04d-%02d", year, month))
            month += 1
            if month > 12 { month = 1; year += 1 }
        }
        return out
    }

    /// Floors, then units, then households, as SQLite would order them (`coalesce(floor, '')`, `length(unit)`, unit,
    /// resident id: text by its bytes, lengths in characters), so that numeric-looking units sort as numbers.
    static func precedes(_ a: Line, _ b: Line) -> Bool {
        let floorA = a.floor ?? "", floorB = b.floor ?? ""
        if floorA != floorB { return floorA.utf8.lexicographicallyPrecedes(floorB.utf8) }
        let lengthA = a.unit.unicodeScalars.count, lengthB = b.unit.unicodeScalars.count
        if lengthA != lengthB { return lengthA < lengthB }
        if a.unit != b.unit { return a.unit.utf8.lexicographicallyPrecedes(b.unit.utf8) }
        return a.residentID.utf8.lexicographicallyPrecedes(b.residentID.utf8)
    }

    // RENT and UTILITIES billings of the months, in the household index's order (no sort of every charge).
    static let chargesSQL = """
        SELECT unit_number, resident_id, lease_id, period, category, CAST(round(amount * 100) AS INTEGER),
               CAST(round(amount_paid * 100) AS INTEGER), CAST(round(balance * 100) AS INTEGER), due_date
        FROM unified_charges
        WHERE unified_property_id = :property AND period BETWEEN :first AND :last AND category IN ('RENT', 'UTILITIES')
        ORDER BY resident_id, period, charge_id
        """

    static let floorsSQL = "SELECT unit_number, floor FROM unified_units WHERE unified_property_id = :property"

    static let floorNoteSQL = "SELECT floor_note FROM unified_properties WHERE unified_property_id = :property"

    static let statusesSQL = "SELECT resident_id, status FROM unified_residents WHERE unified_property_id = :property"

    // A partial ledger's one month, in the columns of chargesSQL: per household and kind of the schedule, billed = the
    // recurring charges in effect in :month, balance = the kind's 0-30 days bucket (at most billed), paid the rest.
    static let partialBillingsSQL = """
        WITH billed AS (
            SELECT resident_id, unit_number, group_concat(DISTINCT lease_id) AS leases, category,
                   sum(CAST(round(amount * 100) AS INTEGER)) AS cents
            FROM unified_recurring_charges
            WHERE unified_property_id = :property AND category IN ('RENT', 'UTILITIES')
              AND start_date <= date(:month || '-01', '+1 month', '-1 day')
            GROUP BY resident_id, unit_number, category
        ),
        owed AS (
            SELECT resident_id, category, sum(CAST(round(balance_0_30 * 100) AS INTEGER)) AS cents
            FROM unified_ledger_balances WHERE unified_property_id = :property
            GROUP BY resident_id, category
        )
        SELECT b.unit_number, b.resident_id, b.leases, :month, b.category, b.cents,
               b.cents - max(0, min(b.cents, coalesce(o.cents, 0))), max(0, min(b.cents, coalesce(o.cents, 0))),
               :month || '-01', u.floor, r.status
        FROM billed b
        LEFT JOIN owed o ON o.resident_id = b.resident_id AND o.category = b.category
        LEFT JOIN unified_units u ON u.unified_property_id = :property AND u.unit_number = b.unit_number
        LEFT JOIN unified_residents r ON r.unified_property_id = :property AND r.resident_id = b.resident_id
        """

    // Every household's tenants, read once per property: the household's head first, then everyone on its leases.
    static let tenantsSQL = """
        SELECT household, name FROM (
            SELECT r.resident_id AS household, r.name, 0 AS rank, r.resident_id AS member FROM unified_residents r
            WHERE r.unified_property_id = :property
            UNION
            SELECT l.resident_id, r.name, 1, r.resident_id FROM unified_lease_residents lr
            JOIN unified_leases l ON l.unified_property_id = lr.unified_property_id AND l.lease_id = lr.lease_id
            JOIN unified_residents r ON r.unified_property_id = lr.unified_property_id AND r.resident_id = lr.resident_id
            WHERE lr.unified_property_id = :property AND l.resident_id IS NOT NULL AND r.resident_id <> l.resident_id)
        WHERE name IS NOT NULL
        GROUP BY household, name ORDER BY household, min(rank), min(member)
        """
}

extension LeasePaymentStatusReport {
    /// The grid as a result for the table / JSON / CSV writers. `detailed`: per month and kind the status, billed,
    /// paid, balance and due date (JSON, CSV); otherwise one column per month with both statuses (`R PAID  U OVERDUE`).
    public func result(detailed: Bool, parameters: [MetricResult.Parameter]) -> MetricResult {
        var columns: [MetricResult.Column] = [
            .init("property", .text), .init("floor", .text), .init("unit", .text), .init("resident_id", .text),
            .init("leases", .text), .init("tenants", .text), .init("resident_status", .text),
        ]
        for month in months {
            if detailed {
                for kind in ["rent", "utilities"] {
                    columns += [.init("\(month)_\(kind)_status", .text), .init("\(month)_\(kind)_billed", .money),
                                .init("\(month)_\(kind)_paid", .money), .init("\(month)_\(kind)_balance", .money),
                                .init("\(month)_\(kind)_due", .date)]
                }
            } else {
                columns.append(.init(month, .text))
            }
        }
        let rows: [[SQLValue]] = lines.map { line in
            var row: [SQLValue] = [.text(line.property), SQLValue(line.floor), .text(line.unit), .text(line.residentID),
                                   .text(line.leaseIDs.joined(separator: " ")), .text(line.tenants.joined(separator: "; ")),
                                   SQLValue(line.residentStatus)]
            for month in months {
                let rent = line.rent[month], utilities = line.utilities[month]
                if detailed {
                    for cell in [rent, utilities] {
                        row += [SQLValue(cell?.status.rawValue), money(cell?.billedCents), money(cell?.paidCents),
                                money(cell?.balanceCents), SQLValue(cell?.dueDate)]
                    }
                } else {
                    let parts = [rent.map { "R \($0.status.rawValue)" }, utilities.map { "U \($0.status.rawValue)" }]
                        .compactMap { $0 }
                    row.append(parts.isEmpty ? .null : .text(parts.joined(separator: "  ")))
                }
            }
            return row
        }
        var tables = [MetricTable(name: "rows", title: "Lease payment status (R = rent, U = utilities)",
                                  columns: columns, rows: rows)]
        if !noLedger.isEmpty {
            tables.append(MetricTable(name: "no_ledger", title: "Properties without a tenant ledger (not shown as zeros)",
                                      columns: [.init("property", .text)], rows: noLedger.map { [.text($0)] }))
        }
        if !partialLedger.isEmpty {
            tables.append(MetricTable(
                name: "partial_ledger", title: "Properties with a partial ledger (balances, no posted charges or payments)",
                columns: [.init("property", .text), .init("known_month", .month), .init("unknown_months", .text)],
                rows: partialLedger.keys.sorted().map { property in
                    let known = partialLedger[property] ?? ""
                    return [.text(property), .text(known), .text(months.filter { $0 != known }.joined(separator: " "))]
                }))
        }
        if let lagging = LedgerWholeAsOf.table(ledgerWholeAsOf) { tables.append(lagging) }
        let floorWarnings = floorNotes.keys.sorted().filter { property in lines.contains { $0.property == property && $0.floor == nil } }
            .map { "\($0): floor not known for some units: \(floorNotes[$0] ?? "")" }
        let warnings = floorWarnings + noLedger.map { "\($0): no tenant ledger synced for this property (left out, not shown as zeros)" }
            + partialLedger.keys.sorted().map { property in
                PartialLedger.note(property, asOf: asOf[property],
                                   "only \(partialLedger[property] ?? "its balances' month") is known, the other months cannot be")
            }
        return MetricResult(metric: "lease-status", parameters: parameters, tables: tables, warnings: warnings)
    }
}
