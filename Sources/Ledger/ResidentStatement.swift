import Metrics
import OwnerDashCore
import SQLiteKit

/// `ownerdash report statement`: one household's ledger in date order with a running balance, as a resident or an
/// auditor reads it.
///
/// Definitions (unified_charges, unified_payments, unified_residents; read-only):
/// - A line is a posted charge (on its charge date, else its due date) or a payment (on its payment date); on the same
///   day charges come before payments, then by id, so a balance never dips below what was billed that day.
/// - running balance = the opening balance + Σ charges − Σ payments up to and including the line.
/// - `from` (YYYY-MM) starts the listing at that month: everything dated earlier is the opening balance line.
/// - Lines dated after the as-of date are left out (the statement is as of that date).
/// - A ledger the nightly windows have brought past its last whole pull (`LedgerWholeAsOf`) is named with that pull's
///   date in a `ledger_whole_as_of` table: an adjustment entered since and dated before the windows is not a line yet.
public struct ResidentStatement: Sendable {
    /// The household the statement is for.
    public struct Household: Sendable, Equatable {
        public var property: String
        public var residentID: String
        public var unit: String?
        public var name: String?
        public var status: String?
        public var moveIn: String?
        public var moveOut: String?
        /// The resident asked for when it is a member of this household (HouseholdMember), not its head: id, name
        /// and role. Its statement is the household's: the charges and payments are under the head's id.
        public var askedMember: Member?
    }

    /// A member of a household as a statement names it (`co_resident`, `occupant`, `guarantor`).
    public struct Member: Sendable, Equatable {
        public var id: String
        public var name: String?
        public var role: String
    }

    /// One posted charge or payment.
    public struct Line: Sendable, Equatable {
        public enum Kind: String, Sendable { case charge, payment }
        public var date: String
        public var kind: Kind
        public var period: String
        /// The charge code, or the payment's type.
        public var code: String?
        /// The charge's description, or the payment's reference.
        public var detail: String?
        public var amountCents: Int64
        public var balanceCents: Int64
    }

    public var household: Household
    public var asOf: String
    public var openingBalanceCents: Int64
    public var lines: [Line]
    /// Set when the property's ledger was last pulled whole before the windows that brought it to its date.
    public var ledgerWholeAsOf: LedgerWholeAsOf? = nil
    public var closingBalanceCents: Int64 { lines.last?.balanceCents ?? openingBalanceCents }

    /// The households a resident id names: one per property that has it (the caller asks which one when several do).
    /// A member of a household (a co-resident: HouseholdMember) names that household.
    public static func households(database: Database, residentID: String, properties: [String]) throws -> [Household] {
        let statement = try database.prepare(Self.householdSQL)
        func household(_ property: String, _ resident: String) throws -> Household? {
            var found: Household?
            try statement.forEachRow([":property": .text(property), ":resident": .text(resident)]) { row in
                found = Household(property: property, residentID: resident, unit: row.text("unit_number"),
                                  name: row.text("name"), status: row.text("status"),
                                  moveIn: row.text("move_in_date"), moveOut: row.text("move_out_date"))
            }
            return found
        }
        var households: [Household] = []
        for property in properties {
            guard let asked = try household(property, residentID) else { continue }
            if let (head, role) = try HouseholdMember.household(of: residentID, property: property, database: database),
               var whole = try household(property, head) {
                whole.askedMember = Member(id: residentID, name: asked.name, role: role)
                households.append(whole)
            } else {
                households.append(asked)
            }
        }
        return households
    }

    /// The statement of `household` as of `asOf` (default: its property's date), listing from month `from` on.
    public static func run(database: Database, household: Household, asOf: LocalDate?, from: String?) throws -> ResidentStatement {
        let property = try database.query("""
            SELECT as_of_date, ledger_whole_as_of FROM unified_properties WHERE unified_property_id = :p
            """, [":p": .text(household.property)]).first
        let propertyDate = property?[0].textValue
        let date = asOf?.iso ?? propertyDate ?? "9999-12-31"
        let start = from.map { "\($0)-01" } ?? "0000-01-01"
        var statement = ResidentStatement(household: household, asOf: date, openingBalanceCents: 0, lines: [])
        statement.ledgerWholeAsOf = property?[1].textValue.map { LedgerWholeAsOf(asOf: propertyDate ?? date, wholeAsOf: $0) }
        var balance: Int64 = 0
        // Every posting of the household is a line: the columns are looked up by name once, not per line.
        let lines = try database.prepare(Self.linesSQL)
        let column = (day: lines.columnIndex("day"), kind: lines.columnIndex("kind"), period: lines.columnIndex("period"),
                      code: lines.columnIndex("code"), detail: lines.columnIndex("detail"), cents: lines.columnIndex("cents"))
        try lines.forEachRow([":property": .text(household.property), ":resident": .text(household.residentID),
                              ":as_of": .text(date)]) { row in
            let kind = Line.Kind(rawValue: row.text(at: column.kind) ?? "") ?? .charge
            let amount = Int64(row.int(at: column.cents) ?? 0)
            balance += kind == .charge ? amount : -amount
            let lineDate = row.text(at: column.day) ?? ""
            guard lineDate >= start else { statement.openingBalanceCents = balance; return }
            statement.lines.append(Line(date: lineDate, kind: kind, period: row.text(at: column.period) ?? "",
                                        code: row.text(at: column.code), detail: row.text(at: column.detail),
                                        amountCents: amount, balanceCents: balance))
        }
        return statement
    }

    static let householdSQL = """
        SELECT coalesce(r.unit_number, (SELECT max(unit_number) FROM unified_charges c
                                        WHERE c.unified_property_id = :property AND c.resident_id = :resident))
                   AS unit_number,
               \(HouseholdName.sql(residentName: "r.name", key: ":resident")) AS name, r.status, r.move_in_date,
               r.move_out_date
        FROM (SELECT 1) AS one
        LEFT JOIN unified_residents r ON r.unified_property_id = :property AND r.resident_id = :resident
        WHERE r.resident_id IS NOT NULL
           OR EXISTS (SELECT 1 FROM unified_charges WHERE unified_property_id = :property AND resident_id = :resident)
           OR EXISTS (SELECT 1 FROM unified_payments WHERE unified_property_id = :property AND resident_id = :resident)
        """

    // Charges sort before payments on the same day (order 0 / 1), then by id.
    static let linesSQL = """
        SELECT day, kind, period, code, detail, cents FROM (
            SELECT coalesce(charge_date, due_date, period || '-01') AS day, 'charge' AS kind, 0 AS sort, charge_id AS id,
                   period, charge_code AS code, description AS detail, CAST(round(amount * 100) AS INTEGER) AS cents
            FROM unified_charges WHERE unified_property_id = :property AND resident_id = :resident
            UNION ALL
            SELECT payment_date, 'payment', 1, payment_id, period, payment_type, reference,
                   CAST(round(amount * 100) AS INTEGER)
            FROM unified_payments WHERE unified_property_id = :property AND resident_id = :resident)
        WHERE day <= :as_of
        ORDER BY day, sort, id
        """
}

extension ResidentStatement {
    /// The statement for the table / JSON / CSV writers: the household, then its lines with the running balance.
    public func result(parameters: [MetricResult.Parameter]) -> MetricResult {
        let h = household
        let householdTable = MetricTable(
            name: "household", title: "Resident",
            columns: [.init("property", .text), .init("resident_id", .text), .init("unit", .text), .init("name", .text),
                      .init("status", .text), .init("move_in", .date), .init("move_out", .date), .init("as_of", .date),
                      .init("balance", .money)],
            rows: [[.text(h.property), .text(h.residentID), SQLValue(h.unit), SQLValue(h.name), SQLValue(h.status),
                    SQLValue(h.moveIn), SQLValue(h.moveOut), .text(asOf), money(closingBalanceCents)]])
        var rows: [[SQLValue]] = [[.null, .text("opening balance"), .null, .null, .null, .null, .null,
                                   money(openingBalanceCents)]]
        rows += lines.map { line in
            [.text(line.date), .text(line.kind.rawValue), .text(line.period), SQLValue(line.code), SQLValue(line.detail),
             line.kind == .charge ? money(line.amountCents) : .null, line.kind == .payment ? money(line.amountCents) : .null,
             money(line.balanceCents)]
        }
        let charged = lines.filter { $0.kind == .charge }.reduce(0) { $0 + $1.amountCents }
        let paid = lines.filter { $0.kind == .payment }.reduce(0) { $0 + $1.amountCents }
        let linesTable = MetricTable(
            name: "lines", title: "Statement",
            columns: [.init("date", .date), .init("type", .text), .init("period", .month), .init("code", .text),
                      .init("detail", .text), .init("charge", .money), .init("payment", .money), .init("balance", .money)],
            rows: rows,
            total: [.text("total"), .null, .null, .null, .null, money(charged), money(paid), money(closingBalanceCents)])
        let lagging = ledgerWholeAsOf.flatMap { LedgerWholeAsOf.table([h.property: $0]) }
        let member = h.askedMember.map { asked in
            "\(asked.id)\(asked.name.map { " (\($0))" } ?? "") is a \(asked.role) of household \(h.residentID)"
                + "\(h.name.map { " (\($0))" } ?? ""): this is the household's statement, whose charges and payments are under its id"
        }
        return MetricResult(metric: "statement", parameters: parameters,
                            tables: [householdTable, linesTable] + (lagging.map { [$0] } ?? []), warnings: member.map { [$0] } ?? [])
    }
}
