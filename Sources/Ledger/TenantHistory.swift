import Metrics
import OwnerDashCore
import SQLiteKit

/// `ownerdash report tenant-history`: everyone who has lived in (or is coming to) one unit, oldest first, with their
/// leases and what they owe.
///
/// Definitions (unified_residents, unified_leases, unified_charges, unified_payments; read-only):
/// - The unit's households: residents whose `unit_number` is the unit, plus households with a lease or a ledger posting
///   on the unit (a resident record may have moved on to another unit). A resident who is on the household's leases
///   only as a co-resident, occupant or guarantor (unified_lease_residents: RealPage lists every member of a household
///   as a resident, `ReshID-MemberID`) is one of that household's `members`, not a household of its own (each was
///   listed as one, with no lease and a balance of 0.00).
/// - Ordered by move-in date (households without one last), then resident id.
/// - Leases: the household's leases on this unit as the PMS lists them (start, end, rent, renewal), with the months
///   the ledger posted charges on each (`first_posted`, `last_posted`), and the lease ids its charges on the unit name
///   that the PMS no longer lists (`source` `ledger`: months posted, no dates, rent or status).
/// - Balance: the household's ledger balance (charges less payments) where the property has a ledger, else the PMS's
///   own resident balance.
/// - A household whose earliest lease the PMS lists is a renewal had leases before it that the PMS does not send:
///   Yardi's GetResidentsByStatus carries one lease per household (YardiLeases); RPX getleaseinfo, asked for the
///   residents of the last 365 days (`residentheldthestatus`), leaves a renewed household's older leases out. Each such
///   household is named in a warning, with the earlier lease ids its ledger names, so a count of leases is not read as
///   the whole history.
public struct TenantHistory: Sendable, Equatable {
    /// One household of the unit.
    public struct Tenant: Sendable, Equatable {
        public var residentID: String
        public var name: String?
        public var status: String?
        public var moveIn: String?
        public var moveOut: String?
        public var balanceCents: Int64?
        /// The other people on the household's leases of the unit: `Name (role)`, in resident id order.
        public var members: [String]
        public var leases: [Lease]
    }

    /// One lease of a household on the unit.
    public struct Lease: Sendable, Equatable {
        public var leaseID: String
        public var start: String?
        public var end: String?
        public var rentCents: Int64?
        /// Nil for a lease known from the ledger alone.
        public var status: String?
        public var isRenewal: Bool?
        /// The first and last month the ledger posted a charge on the lease (`YYYY-MM`), nil when none.
        public var firstPosted: String?
        public var lastPosted: String?
        /// Whether the PMS lists it (unified_leases); false: only the ledger's charges name it.
        public var listedByPMS: Bool
    }

    public var property: String
    public var unit: String
    /// `unified_properties.pms_source` (`realpage`, `yardi`): which PMS's lease list the leases come from.
    public var pms: String?
    public var tenants: [Tenant]

    /// The history of `unit` of `property`; nil when no unit record, resident, lease or posting names that unit.
    public static func run(database: Database, property: String, unit: String) throws -> TenantHistory? {
        let keys: [String: SQLValue] = [":property": .text(property), ":unit": .text(unit)]
        let leases = try database.prepare(Self.leasesSQL)
        let members = try database.prepare(Self.membersSQL)
        let pms = try database.scalar("SELECT pms_source FROM unified_properties WHERE unified_property_id = :property",
                                      [":property": .text(property)])?.textValue
        var history = TenantHistory(property: property, unit: unit, pms: pms, tenants: [])
        try database.prepare(Self.tenantsSQL).forEachRow(keys) { row in
            let resident = row.text("resident_id") ?? ""
            var tenant = Tenant(residentID: resident, name: row.text("name"), status: row.text("status"),
                                moveIn: row.text("move_in_date"), moveOut: row.text("move_out_date"),
                                balanceCents: row.int("balance_cents").map(Int64.init), members: [], leases: [])
            let household = keys.merging([":resident": .text(resident)]) { $1 }
            try members.forEachRow(household) { member in
                tenant.members.append("\(member.text("name") ?? member.text("resident_id") ?? "") (\(member.text("role") ?? ""))")
            }
            try leases.forEachRow(household) { lease in
                tenant.leases.append(Lease(leaseID: lease.text("lease_id") ?? "", start: lease.text("start_date"),
                                           end: lease.text("end_date"), rentCents: lease.int("rent_cents").map(Int64.init),
                                           status: lease.text("status"), isRenewal: lease.int("is_renewal").map { $0 == 1 },
                                           firstPosted: lease.text("first_posted"), lastPosted: lease.text("last_posted"),
                                           listedByPMS: lease.int("listed") == 1))
            }
            history.tenants.append(tenant)
        }
        let unitKnown = try database.scalar("""
            SELECT EXISTS (SELECT 1 FROM unified_units WHERE unified_property_id = :property AND unit_number = :unit)
            """, keys)?.integerValue == 1
        return unitKnown || !history.tenants.isEmpty ? history : nil
    }

    static let tenantsSQL = """
        WITH household(resident_id) AS (
            SELECT r.resident_id FROM unified_residents r
            WHERE r.unified_property_id = :property AND r.unit_number = :unit
              -- a member of another household (HouseholdMember): listed under it
              AND NOT \(HouseholdMember.isMemberOnly("r.resident_id"))
            UNION SELECT resident_id FROM unified_leases
                  WHERE unified_property_id = :property AND unit_number = :unit AND resident_id IS NOT NULL
            UNION SELECT resident_id FROM unified_charges WHERE unified_property_id = :property AND unit_number = :unit
            UNION SELECT resident_id FROM unified_payments WHERE unified_property_id = :property AND unit_number = :unit
        ),
        ledger AS (
            SELECT resident_id, sum(cents) AS cents FROM (
                SELECT resident_id, CAST(round(amount * 100) AS INTEGER) AS cents FROM unified_charges
                WHERE unified_property_id = :property AND resident_id IN (SELECT resident_id FROM household)
                UNION ALL
                SELECT resident_id, -CAST(round(amount * 100) AS INTEGER) FROM unified_payments
                WHERE unified_property_id = :property AND resident_id IN (SELECT resident_id FROM household))
            GROUP BY resident_id
        )
        SELECT h.resident_id, \(HouseholdName.sql(residentName: "r.name", key: "h.resident_id")) AS name, r.status,
               r.move_in_date, r.move_out_date,
               CASE WHEN p.ledger_coverage = 'partial'
                    THEN coalesce((SELECT sum(CAST(round(b.balance * 100) AS INTEGER)) FROM unified_ledger_balances b
                                   WHERE b.unified_property_id = :property AND b.resident_id = h.resident_id), 0)
                    WHEN p.ledger_source IS NOT NULL THEN coalesce(l.cents, 0)
                    ELSE CAST(round(r.balance * 100) AS INTEGER) END AS balance_cents
        FROM household h
        JOIN unified_properties p ON p.unified_property_id = :property
        LEFT JOIN unified_residents r ON r.unified_property_id = :property AND r.resident_id = h.resident_id
        LEFT JOIN ledger l ON l.resident_id = h.resident_id
        ORDER BY r.move_in_date IS NULL, r.move_in_date, h.resident_id
        """

    /// The people on the household's leases of the unit other than its head, with their role.
    static let membersSQL = """
        SELECT m.resident_id, min(r.name) AS name, min(m.role) AS role
        FROM unified_leases l
        JOIN unified_lease_residents m ON m.unified_property_id = l.unified_property_id AND m.lease_id = l.lease_id
        LEFT JOIN unified_residents r ON r.unified_property_id = m.unified_property_id AND r.resident_id = m.resident_id
        WHERE l.unified_property_id = :property AND l.unit_number = :unit AND l.resident_id = :resident
          AND m.role <> 'head' AND m.resident_id <> :resident
        GROUP BY m.resident_id
        ORDER BY m.resident_id
        """

    /// The household's leases on the unit: those the PMS lists, then the lease ids only its charges there name, in the
    /// order they began (a ledger-only lease by its first month posted).
    static let leasesSQL = """
        WITH posted AS (
            SELECT lease_id, min(period) AS first_posted, max(period) AS last_posted
            FROM unified_charges
            WHERE unified_property_id = :property AND unit_number = :unit AND resident_id = :resident AND lease_id IS NOT NULL
            GROUP BY lease_id
        )
        SELECT * FROM (
            SELECT l.lease_id, l.start_date, l.end_date, CAST(round(l.rent_amount * 100) AS INTEGER) AS rent_cents,
                   l.status, l.is_renewal, p.first_posted, p.last_posted, 1 AS listed
            FROM unified_leases l
            LEFT JOIN posted p ON p.lease_id = l.lease_id
            WHERE l.unified_property_id = :property AND l.unit_number = :unit AND l.resident_id = :resident
            UNION ALL
            SELECT p.lease_id, NULL, NULL, NULL, NULL, NULL, p.first_posted, p.last_posted, 0
            FROM posted p
            WHERE NOT EXISTS (SELECT 1 FROM unified_leases l WHERE l.unified_property_id = :property AND l.lease_id = p.lease_id)
        )
        ORDER BY coalesce(start_date, first_posted || '-01'), lease_id
        """
}

extension TenantHistory {
    /// The households table's columns (`rows`), as the answer and the API's schema name them.
    public static let householdColumns: [MetricResult.Column] = [
        .init("resident_id", .text), .init("name", .text), .init("members", .text), .init("status", .text),
        .init("move_in", .date), .init("move_out", .date), .init("leases", .count), .init("balance", .money),
    ]
    /// The leases table's columns.
    public static let leaseColumns: [MetricResult.Column] = [
        .init("resident_id", .text), .init("lease_id", .text), .init("start", .date), .init("end", .date),
        .init("rent", .money), .init("status", .text), .init("renewal", .text), .init("first_posted", .month),
        .init("last_posted", .month), .init("source", .text),
    ]

    /// The history for the table / JSON / CSV writers: the households, then their leases.
    public func result(parameters: [MetricResult.Parameter]) -> MetricResult {
        let tenantsTable = MetricTable(
            name: "rows", title: "Residents of \(property) unit \(unit)", columns: Self.householdColumns,
            rows: tenants.map { t in
                [.text(t.residentID), SQLValue(t.name), t.members.isEmpty ? .null : .text(t.members.joined(separator: "; ")),
                 SQLValue(t.status), SQLValue(t.moveIn), SQLValue(t.moveOut), .integer(Int64(t.leases.count)),
                 money(t.balanceCents)]
            })
        let leasesTable = MetricTable(
            name: "leases", title: "Leases", columns: Self.leaseColumns,
            rows: tenants.flatMap { t in t.leases.map { l in
                [.text(t.residentID), .text(l.leaseID), SQLValue(l.start), SQLValue(l.end), money(l.rentCents),
                 SQLValue(l.status), l.isRenewal.map(MetricResult.yesNo) ?? .null, SQLValue(l.firstPosted),
                 SQLValue(l.lastPosted), .text(l.listedByPMS ? "pms" : "ledger")]
            } })
        return MetricResult(metric: "tenant-history", parameters: parameters, tables: [tenantsTable, leasesTable],
                            warnings: earlierLeasesNotSent)
    }

    /// One line per household whose earliest lease listed is a renewal: the leases before it are not in what the PMS
    /// sends.
    var earlierLeasesNotSent: [String] {
        let source = switch pms {
        case "yardi": "Yardi sends one lease per household (GetResidentsByStatus: the current one, or the last)"
        case "realpage": "RealPage's RPX getleaseinfo, asked for the residents of the last 365 days, leaves them out"
        default: "the PMS does not send them"
        }
        return tenants.compactMap { tenant in
            guard let first = tenant.leases.first(where: \.listedByPMS), first.isRenewal == true else { return nil }
            let fromLedger = tenant.leases.filter { !$0.listedByPMS }.map(\.leaseID)
            let earlier = fromLedger.isEmpty ? "the leases before it are not listed"
                : "of the leases before it, the ledger's charges name \(fromLedger.joined(separator: ", ")) (the months "
                    + "posted, no dates or rent)"
            return "\(tenant.residentID): its earliest lease the PMS lists, \(first.leaseID) from \(first.start ?? "an unknown date"), "
                + "is a renewal; \(earlier): \(source)"
        }
    }
}
