import OwnerDashCore
import XLSXKit

/// Lease Expiration Detail (report 4299, code `rpt-001-702`) and Lease Expiration/Renewal Detail (4156):
/// one `LeaseExpirationRow` per expiring lease.
///
/// Layout (docs/onesite-reports.md, "Lease expirations (4299, 3838, 4156)"): month groups (`MTM` first, then
/// `February 2026` ...), each ending `Total leases expiring in February 2026: 7` (or `Total MTM/Expired leases: 3`),
/// and a final `Total leases: 61`; those counts are checked against the rows read. A row without a unit (the
/// `Phone/email` continuation) is folded into the lease above it (phone, email). A Lease End of `MTM` is stored as no
/// date. Parsing stops at a `Summary ...` section.
///
/// renewal_status: the Decision / Renewal Status text when the report has that column (Renewed, Vacating,
/// Unknown, Moved out); otherwise `Do Not Renew` when the Do Not Renew column holds a mark (`X`, `Yes`, `DNR`, or a
/// glyph such as the `c` a check exports as, unless every unmarked lease carries it: the real export prints a
/// Webdings check beside every lease), else nil (not known, not "renewing"). Leases are therefore emitted at the end. Page breaks (`April 2026     - continued -`) do not restart a month's count. Last Rent Change, its
/// amount and Late/NSF are mapped (not stored) so a drifted amount is not taken for the market rent beside them.
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
            ColumnSpec("Late/NSF", .text),
            ColumnSpec("Last Rent Change", .date),
            ColumnSpec("Last Rent Change Amt", .money),
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
    /// Market, lease rent, other charges, other credits and total billing summed per month group and overall.
    private var inGroup = Array(repeating: Money.zero, count: 5)
    private var all = Array(repeating: Money.zero, count: 5)
    private var sinceLastTotal = 0
    /// The Crystal layout (`Market + Addl.` ... `Total Billing`, `Balance`) whose amounts drift over merged
    /// headers from row to row: a row printing all six amounts is read in printed order, right of the lease dates.
    private var hasBillingColumns: Bool { header.has("Total Billing") && header.has("Balance") }
    /// True once a lease was read in printed order: the month totals' amounts are then checked too.
    private var ordered = false
    /// Leases read, held to the end: whether a check glyph marks Do Not Renew is known only then.
    private var held: [(lease: LeaseExpirationRow, glyph: Bool)] = []
    /// Whether the pending lease's Do Not Renew cell holds a glyph rather than an explicit mark.
    private var pendingGlyph = false
    static let totalled = ["market plus addl", "lease rent", "other charges", "other credits", "total billing"]
    /// The last lease read, held until the next row: its `Phone/email` continuation row is folded into it.
    private var pending: LeaseExpirationRow?
    /// True while the pending lease still waits for its amounts on the next row.
    private var pendingNeedsAmounts = false

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        let unitless: Bool
        switch kind {
        case .continuation: unitless = true
        case .data: unitless = view.text("Unit") == nil
        default: unitless = false
        }
        if unitless, var open = pending {
            // A lease whose Do Not Renew mark pushed its amounts onto the next row: they are on this one.
            if pendingNeedsAmounts {
                let amounts = try amountsInOrder(row)
                if amounts.count >= 6 {
                    take(Array(amounts.suffix(6)), into: &open)
                    pendingNeedsAmounts = false
                }
            }
            let (phone, email) = ContactText.of(row)
            open.phone = open.phone ?? phone
            open.email = open.email ?? email
            pending = open
            return true
        }
        flushPending(into: &records)
        switch kind {
        case .continuation:
            return true
        case .label(let text):
            if text.isSectionTitle(["Summary"]) { return false }
            // `April 2026     - continued -`: the month goes on over a page break; its count does too.
            if text.lowercased().contains("- continued -") { return true }
            // `MTM`, `February 2026`: a month group; a unit row never lacks its lease end.
            counter.startGroup()
            return true
        case .total(let label, let count):
            counter.check(count, label: label, row: row.number, what: "leases", context: context)
            if ordered {
                // A total right after another (`Total leases: 61`) covers the whole report.
                let covered = sinceLastTotal == 0 ? all : inGroup
                let printed = try amountsInOrder(row)
                for (index, what) in Self.totalled.enumerated() where index < printed.count {
                    context.crossCheck(what, computed: covered[index], printed: printed[index], label: label,
                                       row: row.number)
                }
                inGroup = Array(repeating: .zero, count: 5)
                sinceLastTotal = 0
            }
            return true
        case .data:
            guard let unit = view.text("Unit") else { return true }
            let leaseEnd = try view.leaseEnd("Lease End")
            counter.add()
            // A name cell may already stack the contact lines under the name.
            let (phone, email) = ContactText.underName(view.text("Name"))
            var open = LeaseExpirationRow(
                unitNumber: unit, residentName: view.firstLine("Name"), leaseEnd: leaseEnd,
                renewalStatus: renewalStatus(view), phone: phone, email: email, sourceRow: row.number)
            pendingGlyph = open.renewalStatus == nil && view.text("Decision") == nil && view.text("Do Not Renew") != nil
            let amounts = hasBillingColumns ? try amountsInOrder(row) : []
            if amounts.count >= 6 {
                // Market, lease rent, other charges, other credits, total billing, balance: the last six amounts
                // (a seventh before them is the last rent change amount).
                take(Array(amounts.suffix(6)), into: &open)
                ordered = true
            } else if hasBillingColumns && amounts.isEmpty {
                // None at all: they wrapped to the next row.
                pendingNeedsAmounts = true
            } else {
                open.currentRent = try view.money("Lease Rent")
                open.marketRent = try view.money("Market Rent")
            }
            pending = open
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {
        flushPending(into: &records)
        // A glyph beside every lease without an explicit mark is decoration (the real export's Webdings check);
        // beside only some, it is the mark (a Wingdings check exported as `c`).
        let unmarked = held.filter { $0.lease.renewalStatus == nil }
        let glyphMarks = !unmarked.allSatisfy(\.glyph)
        for (lease, glyph) in held {
            var lease = lease
            if glyph && glyphMarks { lease.renewalStatus = "Do Not Renew" }
            records.append(.leaseExpiration(lease))
        }
        held = []
    }

    private mutating func flushPending(into records: inout [ReportRecord]) {
        guard let done = pending else { return }
        if pendingNeedsAmounts && ordered {
            context.warn("row \(done.sourceRow): unit \(done.unitNumber) has no market rent to balance amounts; "
                         + "stored without rents")
        }
        held.append((done, pendingGlyph))
        pending = nil
        pendingNeedsAmounts = false
        pendingGlyph = false
    }

    /// Market, lease rent, other charges, other credits, total billing, balance of one lease.
    private mutating func take(_ six: [Money], into lease: inout LeaseExpirationRow) {
        lease.marketRent = six[0]; lease.currentRent = six[1]
        for index in 0..<5 { inGroup[index] += six[index]; all[index] += six[index] }
        sinceLastTotal += 1
    }

    /// The amounts right of the lease dates, in printed order (dates, `7/0` Late/NSF counts and glyphs skipped).
    private func amountsInOrder(_ row: SheetRow) throws -> [Money] {
        let start = (header.spans["Lease End"]?.upperBound ?? 0) + 1
        var amounts: [Money] = []
        for column in row.cells.indices where column >= start {
            let cell = row.cells[column]
            switch cell {
            case .number:
                if let money = try? cell.money() { amounts.append(money) }
            case .text(let text):
                if !text.contains("/"), text.contains(where: \.isASCIIDigit), let money = try? MoneyText.parse(text) {
                    amounts.append(money)
                }
            default:
                continue
            }
        }
        return amounts
    }

    private func renewalStatus(_ view: RowView) -> String? {
        if let decision = view.text("Decision") { return decision }
        if let mark = view.text("Do Not Renew"), Self.doNotRenewMarks.contains(mark.uppercased()) { return "Do Not Renew" }
        return nil
    }

    /// What always marks a lease Do Not Renew. Any other text in the column is a glyph (a check exported as `c`):
    /// the real Crystal export prints its Webdings check beside every lease whatever its status, so a glyph marks
    /// only when some leases lack it (decided at the end of the report).
    static let doNotRenewMarks: Set<String> = ["X", "Y", "YES", "DNR", "TRUE"]
}
