import OwnerDashCore
import XLSXKit

/// Lease Expiration Detail (report 4299, code `rpt-001-702`) and Lease Expiration/Renewal Detail (4156):
/// one `LeaseExpirationRow` per expiring lease.
///
/// Layout (vendor-formats 3.7): month groups (`MTM` first, then `February 2026` ...), each ending
/// `Total leases expiring in February 2026: 7` (or `Total MTM/Expired leases: 3`), and a final `Total leases: 61`;
/// those counts are checked against the rows read. A row without a unit (the `Phone/email` continuation) is
/// folded into the lease above it (phone, email). A Lease End of `MTM` is stored as no date. Parsing stops at a `Summary ...` section.
///
/// renewal_status: the Decision / Renewal Status text when the report has that column (Renewed, Vacating,
/// Unknown, Moved out); otherwise `Do Not Renew` when the Do Not Renew column holds a mark (an `X`, or the
/// `c` a Wingdings check exports as), else nil (not known, not "renewing").
///
/// | raw field (realpage_lease_expirations) | column | OneSite header texts |
/// |---|---|---|
/// | unit_number | Unit* | Unit, Bldg/Unit, Unit Number |
/// | resident_name | Name | Name, Resident, Resident Name |
/// | lease_end | Lease End* | Lease End, Lease End Date, Lease Expiration, Lease Expiration Date |
/// | current_rent | Lease Rent | Lease Rent, Actual Rent, Current Rent |
/// | market_rent | Market Rent | Market Rent, Market + Addl., Market |
/// | renewal_status | Decision | Decision, Renewal Status, Renewal Decision |
/// | renewal_status | Do Not Renew | Do Not Renew, DNR |
///
/// `*` = required. Floorplan, SQFT, Term, Move-In, Expected Move-out, Other Charges/Credits, Total Billing and
/// Balance are recognised but not stored.
struct LeaseExpirationParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .leaseExpiration, name: "detail", columns: [
            ColumnSpec("Unit", .text, required: true, synonyms: ["Bldg/Unit", "Unit Number"]),
            ColumnSpec("Floorplan", .text, synonyms: ["Floor Plan"]),
            ColumnSpec("SQFT", .count, synonyms: ["Sq Ft"]),
            ColumnSpec("Name", .text, synonyms: ["Resident", "Resident Name", "Name Phone/email"]),
            ColumnSpec("Term", .text, synonyms: ["Lease Term"]),
            ColumnSpec("Lease End", .date, required: true,
                       synonyms: ["Lease End Date", "Lease Expiration", "Lease Expiration Date", "Expiration Date"]),
            ColumnSpec("Move-In", .date, synonyms: ["Move In Date"]),
            ColumnSpec("Expected Move-out", .date, synonyms: ["Expected Move-Out Date"]),
            ColumnSpec("Do Not Renew", .text, synonyms: ["DNR"]),
            ColumnSpec("Decision", .text, synonyms: ["Renewal Status", "Renewal Decision"]),
            ColumnSpec("Market Rent", .money, synonyms: ["Market + Addl.", "Market"]),
            ColumnSpec("Lease Rent", .money, synonyms: ["Actual Rent", "Current Rent"]),
            ColumnSpec("Other Charges", .money),
            ColumnSpec("Other Credits", .money),
            ColumnSpec("Total Billing", .money),
            ColumnSpec("Balance", .money),
        ]),
    ]

    let header: HeaderMap
    let context: ParseContext
    private var counter = GroupCounter()
    /// The last lease read, held until the next row: its `Phone/email` continuation row is folded into it.
    private var pending: LeaseExpirationRow?

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        if case .continuation = kind, var open = pending {
            let (phone, email) = ContactText.of(row)
            open.phone = open.phone ?? phone
            open.email = open.email ?? email
            pending = open
            return true
        }
        if let done = pending {
            records.append(.leaseExpiration(done))
            pending = nil
        }
        switch kind {
        case .continuation:
            return true
        case .label(let text):
            if text.isSectionTitle(["Summary"]) { return false }
            // `MTM`, `February 2026`: a month group; a unit row never lacks its lease end.
            counter.startGroup()
            return true
        case .total(let label, let count):
            counter.check(count, label: label, row: row.number, what: "leases", context: context)
            return true
        case .data:
            guard let unit = view.text("Unit") else { return true }
            let leaseEnd = try view.leaseEnd("Lease End")
            counter.add()
            // A name cell may already stack the contact lines under the name.
            let (phone, email) = ContactText.underName(view.text("Name"))
            pending = LeaseExpirationRow(
                unitNumber: unit, residentName: view.firstLine("Name"), leaseEnd: leaseEnd,
                currentRent: try view.money("Lease Rent"), marketRent: try view.money("Market Rent"),
                renewalStatus: renewalStatus(view), phone: phone, email: email, sourceRow: row.number)
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {
        if let done = pending { records.append(.leaseExpiration(done)) }
        pending = nil
    }

    private func renewalStatus(_ view: RowView) -> String? {
        if let decision = view.text("Decision") { return decision }
        if view.text("Do Not Renew") != nil { return "Do Not Renew" }
        return nil
    }
}
