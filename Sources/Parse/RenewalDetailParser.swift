import OwnerDashCore
import XLSXKit

/// Lease Expiration/Renewal Detail (Excel) (report 4156), its `Renewal Detail` sheet: one `RenewalDetailRow` per
/// expiring lease with its renewal decision and the renewal's terms.
///
/// Layout (docs/onesite-reports.md, "Lease expirations (4299, 3838, 4156)", seen in a real file): a data-only workbook
/// (`Table of Contents`, `Lease Expiration Detail`, `Renewal Detail`, `Summary by Floorplan`, `Future by Floorplan`,
/// `Summary by Leasing Consultant`); this sheet has one clean header row at the top, a row per lease, numbers often
/// stored as text (`"1450"`, `"35.71"`), dates as text with a time (`2/15/2026 12:00:00 AM`), and a last `Totals:` row
/// whose amounts are checked against the rows. A sheet with no title block carries no property or date: the loader
/// needs `--property` and `--as-of`. The same columns under a `RENEWAL DETAIL` title (a Crystal page-image export) read
/// the same way. Only this sheet is read: the other sheets are summaries of it or the lease list the Lease Expiration
/// parser reads.
///
/// decision is OneSite's text (`Renewed`, `Vacating`, `Unknown`, `MTM`, `Transferring`, `Moved out`), as printed; a
/// value none of those is a warning naming its row, since the Summary by Floorplan check could not count it.
///
/// | raw field (realpage_renewal_detail) | column | OneSite header texts |
/// |---|---|---|
/// | unit_number | Unit* | Unit, Bldg/Unit, Bldg-Unit |
/// | floorplan | FloorPlan | FloorPlan, Floor Plan |
/// | resident_name | Name | Name, Resident, Resident Name |
/// | actual_rent | Actual Rent | Actual rent, Lease Rent, Current Rent |
/// | other_billings | Other Billings | Other Billings |
/// | last_increase_date | Last Increase | Last Increase, Last Increase Date, Last Rent Change |
/// | last_increase_amount | Last Increase Amount | Last Increase Amount, Last Rent Change Amt |
/// | market_rent | Market Rent | Market Rent, Market + Addl. |
/// | move_in_date | Move In Date | Move in Date, Move-In |
/// | lease_end_date | Lease End Date* | Lease end Date, Lease End |
/// | decision | Decision* | Decision, Renewal Decision, Renewal Status |
/// | new_lease_start | New Lease Start Date | New Lease Start Date, New Lease Start |
/// | new_lease_term | New Lease Term | New Lease Term (months) |
/// | new_rent | New Rent* | New Rent, New Lease Rent |
/// | new_other_billings | New Other Billings | New Other Billings |
/// | leasing_consultant | Leasing Consultant | Leasing Consultant, Leasing Agent |
///
/// `*` = required.
struct RenewalDetailParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .renewalDetail, name: "renewal detail", columns: [
            ColumnSpec("Unit", .text, required: true, synonyms: ["Bldg/Unit", "Bldg-Unit"]),
            ColumnSpec("FloorPlan", .text, synonyms: ["Floor Plan"]),
            ColumnSpec("Name", .text, synonyms: ["Resident", "Resident Name"]),
            ColumnSpec("Actual Rent", .money, synonyms: ["Lease Rent", "Current Rent"]),
            ColumnSpec("Other Billings", .money),
            ColumnSpec("Last Increase", .date, synonyms: ["Last Increase Date", "Last Rent Change"]),
            ColumnSpec("Last Increase Amount", .money, synonyms: ["Last Rent Change Amt"]),
            ColumnSpec("Market Rent", .money, synonyms: ["Market + Addl."]),
            ColumnSpec("Move In Date", .date, synonyms: ["Move-In"]),
            ColumnSpec("Lease End Date", .date, required: true, synonyms: ["Lease End"]),
            ColumnSpec("Decision", .text, required: true, synonyms: ["Renewal Decision", "Renewal Status"]),
            ColumnSpec("New Lease Start Date", .date, synonyms: ["New Lease Start"]),
            ColumnSpec("New Lease Term", .count),
            ColumnSpec("New Rent", .money, required: true, synonyms: ["New Lease Rent"]),
            ColumnSpec("New Other Billings", .money),
            ColumnSpec("Leasing Consultant", .text, synonyms: ["Leasing Agent"]),
        ]),
    ]

    /// The amount columns a `Totals:` row prints, in printed order, checked against the rows.
    static let totalled = ["Actual Rent", "Other Billings", "Last Increase Amount", "Market Rent", "New Rent",
                           "New Other Billings"]

    static func amount(_ column: String, of record: RenewalDetailRow) -> Money? {
        switch column {
        case "Actual Rent": return record.actualRent
        case "Other Billings": return record.otherBillings
        case "Last Increase Amount": return record.lastIncreaseAmount
        case "Market Rent": return record.marketRent
        case "New Rent": return record.newRent
        default: return record.newOtherBillings
        }
    }

    let header: HeaderMap
    let context: ParseContext
    private var totals = MoneyColumnTotals(Self.totalled)

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .label, .continuation:
            return true
        case .total(let label, _):
            // The real export prints its Totals: a column off each header (New Rent's between Move in Date and Lease
            // end Date): a row printing all six amounts is read in printed order, else by header.
            let printed = MoneyColumnTotals.printedAmounts(row)
            if printed.count == Self.totalled.count {
                try totals.check(printed: printed, label: label, row: row.number, context: context)
            } else {
                try totals.check(row, label: label, header: header, context: context)
            }
            return true
        case .data:
            guard let unit = view.text("Unit") else { return true }
            let record = RenewalDetailRow(
                unitNumber: unit, floorplan: view.text("FloorPlan"), residentName: view.firstLine("Name"),
                actualRent: try view.money("Actual Rent"), otherBillings: try view.money("Other Billings"),
                lastIncreaseDate: try view.date("Last Increase"),
                lastIncreaseAmount: try view.money("Last Increase Amount"), marketRent: try view.money("Market Rent"),
                moveInDate: try view.date("Move In Date"), leaseEndDate: try view.date("Lease End Date"),
                decision: view.text("Decision"), newLeaseStart: try view.date("New Lease Start Date"),
                newLeaseTerm: try view.count("New Lease Term"), newRent: try view.money("New Rent"),
                newOtherBillings: try view.money("New Other Billings"),
                leasingConsultant: view.text("Leasing Consultant"), sourceRow: row.number)
            if let decision = record.decision, RenewalDecision(printed: decision) == nil {
                context.warn("unit \(unit) (row \(row.number)): decision \"\(decision)\" is none OneSite prints "
                    + "(\(RenewalDecision.printedValues.joined(separator: ", "))); the Summary by Floorplan cannot count it")
            }
            totals.add(Self.totalled.map { Self.amount($0, of: record) })
            records.append(.renewalDetail(record))
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}
}

/// The renewal decisions OneSite prints on Lease Expiration/Renewal Detail and how its Summary by Floorplan counts them.
public enum RenewalDecision: String, CaseIterable, Sendable {
    case renewed = "Renewed", vacating = "Vacating", unknown = "Unknown", monthToMonth = "MTM"
    /// The household moves to another unit of the property: the Renewal Detail sheet lists it with the renewed
    /// leases, the Summary by Floorplan in no column and not as possible.
    case transferring = "Transferring"
    /// Gone before the report ran: listed, counted nowhere but the floor plan's mean market rent.
    case movedOut = "Moved out"

    /// Every spelling seen, in the order a message lists them.
    static let printedValues = ["Renewed", "Vacating", "Unknown", "MTM", "Month to Month", "Transferring", "Moved out"]

    /// The decision a printed value names (case and spacing as printed or not); nil for any other text.
    public init?(printed: String) {
        switch HeaderText.key(printed) {
        case "renewed": self = .renewed
        case "vacating": self = .vacating
        case "unknown": self = .unknown
        case "mtm", "monthtomonth": self = .monthToMonth
        case "transferring", "transfer": self = .transferring
        case "movedout": self = .movedOut
        default: return nil
        }
    }
}
