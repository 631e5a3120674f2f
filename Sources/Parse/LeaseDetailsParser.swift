import OwnerDashCore
import XLSXKit

/// Lease Details (report 4048, custom columns): one `LeaseDetailsRow` per lease, with whichever of the known columns
/// the user picked.
///
/// Layout: the user chooses the columns (the `CustomReportPickList` parameter), so the header is all there is to go
/// by; every known column that appears is kept, the others are NULL. Seen as CSV and as an "excel" that is HTML
/// (docs/onesite-reports.md, "File forms"): a data-only table, header at the top, no title block (the loader then needs
/// `--property` and `--as-of`); bary249/NASAdash's CSV columns were Lease id, Floor plan, Occupancy status, Lease start
/// date, Lease end date, Move-in date, Moved out date, Applied date, Lease approved date, Notice given date, Lease
/// term, Lease Rent, Lease Total, Ledger Balance, Move out notice type, Move out reason. A row needs a unit or a lease
/// id. A `Total` row, when printed, is checked against the rows' rent, deposit and balance sums.
///
/// A header is taken for this report by itself only when it has `Lease ID` and `Lease Start`; a unit-keyed column
/// choice (Unit, Lease Start, Lease End, ...) looks like other reports' headers, so it is read as Lease Details
/// only under a `LEASE DETAILS` title or with `--report lease_details`.
///
/// | raw field (realpage_lease_details) | column | OneSite header texts |
/// |---|---|---|
/// | unit_number | Unit | Unit, Bldg/Unit, Unit Number |
/// | lease_id | Lease ID | Lease id, Lease ID, Lease Number |
/// | resident_name | Resident | Resident, Resident Name, Name, Head of Household |
/// | floorplan | Floor Plan | Floor plan, Floorplan |
/// | status | Status | Occupancy status, Lease status, Unit/Lease Status, Resident Status, Status |
/// | lease_start | Lease Start* | Lease start date, Lease Start, Lease Begin, Lease Begin Date |
/// | lease_end | Lease End | Lease end date, Lease End, Lease Expiration |
/// | move_in_date | Move-In | Move-in date, Move-In, Move In Date |
/// | move_out_date | Move-Out | Moved out date, Move-out date, Move-Out |
/// | applied_date | Applied | Applied date, Application Date |
/// | approved_date | Approved | Lease approved date, Approved Date |
/// | notice_date | Notice Given | Notice given date, Notice Date |
/// | lease_term | Lease Term | Lease term, Term (text as printed: `12`, `12 Months`) |
/// | lease_rent | Lease Rent | Lease Rent, Rent |
/// | lease_total | Lease Total | Lease Total |
/// | deposit | Deposit | Security Deposit, Deposit, Deposits on Hand, Dep on Hand |
/// | balance | Balance | Ledger Balance, Balance, Current Balance |
/// | notice_type | Notice Type | Move out notice type, Notice Type |
/// | move_out_reason | Move Out Reason | Move out reason, Reason |
///
/// `*` = required, with Lease ID (by lease) or Unit and Lease End (by unit).
struct LeaseDetailsParser: OneSiteReportParser {
    static func columns(_ keys: [ColumnSpec]) -> [ColumnSpec] {
        keys + [
            ColumnSpec("Resident", .text, synonyms: ["Resident Name", "Name", "Head of Household"]),
            ColumnSpec("Floor Plan", .text, synonyms: ["Floorplan"]),
            ColumnSpec("Status", .text,
                       synonyms: ["Occupancy Status", "Lease Status", "Unit/Lease Status", "Resident Status"]),
            ColumnSpec("Move-In", .date, synonyms: ["Move-In Date", "Move In Date"]),
            ColumnSpec("Move-Out", .date, synonyms: ["Moved Out Date", "Move-Out Date", "Move Out Date"]),
            ColumnSpec("Applied", .date, synonyms: ["Applied Date", "Application Date"]),
            ColumnSpec("Approved", .date, synonyms: ["Lease Approved Date", "Approved Date"]),
            ColumnSpec("Notice Given", .date, synonyms: ["Notice Given Date", "Notice Date"]),
            ColumnSpec("Lease Term", .text, synonyms: ["Term"]),
            ColumnSpec("Lease Rent", .money, synonyms: ["Rent"]),
            ColumnSpec("Lease Total", .money),
            ColumnSpec("Deposit", .money, synonyms: ["Security Deposit", "Deposits on Hand", "Dep on Hand"]),
            ColumnSpec("Balance", .money, synonyms: ["Ledger Balance", "Current Balance"]),
            ColumnSpec("Notice Type", .text, synonyms: ["Move Out Notice Type"]),
            ColumnSpec("Move Out Reason", .text, synonyms: ["Reason"]),
        ]
    }

    static let unit = ColumnSpec("Unit", .text, synonyms: ["Bldg/Unit", "Unit Number"])
    static let leaseID = ColumnSpec("Lease ID", .text, synonyms: ["Lease Number"])
    static let leaseStart = ColumnSpec("Lease Start", .date, required: true,
                                       synonyms: ["Lease Start Date", "Lease Begin", "Lease Begin Date"])
    static let leaseEnd = ColumnSpec("Lease End", .date, synonyms: ["Lease End Date", "Lease Expiration"])

    static let layouts = [
        HeaderLayout(report: .leaseDetails, name: "by unit", columns: columns([
            ColumnSpec("Unit", .text, required: true, synonyms: ["Bldg/Unit", "Unit Number"]), leaseID, leaseStart,
            ColumnSpec("Lease End", .date, required: true, synonyms: ["Lease End Date", "Lease Expiration"]),
        ])),
        HeaderLayout(report: .leaseDetails, name: "by lease", columns: columns([
            ColumnSpec("Lease ID", .text, required: true, synonyms: ["Lease Number"]), unit, leaseStart, leaseEnd,
        ])),
    ]

    static let totalled = ["Lease Rent", "Deposit", "Balance"]

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
            try totals.check(row, label: label, header: header, context: context)
            return true
        case .data:
            let unit = view.text("Unit"), leaseID = view.text("Lease ID")
            guard unit != nil || leaseID != nil else { return true }
            let record = LeaseDetailsRow(
                unitNumber: unit, leaseID: leaseID, residentName: view.firstLine("Resident"),
                floorplan: view.text("Floor Plan"), status: view.text("Status"),
                leaseStart: try view.date("Lease Start"), leaseEnd: try view.leaseEnd("Lease End"),
                moveInDate: try view.date("Move-In"), moveOutDate: try view.date("Move-Out"),
                appliedDate: try view.date("Applied"), approvedDate: try view.date("Approved"),
                noticeDate: try view.date("Notice Given"), leaseTerm: view.text("Lease Term"),
                leaseRent: try view.money("Lease Rent"), leaseTotal: try view.money("Lease Total"),
                deposit: try view.money("Deposit"), balance: try view.money("Balance"),
                noticeType: view.text("Notice Type"), moveOutReason: view.text("Move Out Reason"),
                sourceRow: row.number)
            totals.add([record.leaseRent, record.deposit, record.balance])
            records.append(.leaseDetails(record))
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}
}
