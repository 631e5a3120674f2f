import OwnerDashCore
import XLSXKit

/// Make Ready Summary (report 4186): one `MakeReadyRow` per unit in the turn pipeline (vacated, not yet made ready).
///
/// Layout ([I] — no real file seen; columns from bary249/NASAdash's parser of the real export, which reads Days
/// vacant, Date vacated, Date due, Unit, Sqft and # of WOs, and its dashboard's unit and lease status): a 2-row
/// header, one row per unit, optionally followed by its work-order lines (no unit: not stored), and
/// `Total Units: N` (a count, checked against the unit rows) whose `# of WOs` cell, when printed, is checked against
/// the sum of the units' work orders. Days Vacant is negative for a unit still on notice and `*` when OneSite cannot
/// compute it (docs/onesite-reports.md, "Projected Occupancy (3842) and other definitions"): `*` is stored as NULL.
///
/// unified_work_orders (open work) can be built from these rows: one open make-ready per unit, opened on
/// move_out_date, due on due_date.
///
/// | raw field (realpage_make_ready) | column | OneSite header texts |
/// |---|---|---|
/// | unit_number | Unit* | Unit, Bldg/Unit, Bldg-Unit, Unit Number |
/// | floorplan | Floor Plan | Floor Plan, Floorplan |
/// | sqft | Sq Ft | Sq Ft, SQFT, Sqft |
/// | unit_status | Unit Status | Unit Status |
/// | lease_status | Lease Status | Lease Status |
/// | move_out_date | Date Vacated | Date Vacated, Vacated, Move-Out, Move-Out Date, Vacate Date |
/// | days_vacant | Days Vacant* | Days Vacant |
/// | due_date | Date Due | Date Due, Make Ready Date Due, Due Date, Make Ready Due |
/// | work_orders | # of WOs | # of WOs, # WOs, Work Orders, # of Work Orders |
/// | assigned_to | Assigned To | Assigned To, Assigned, Vendor/Employee |
/// | status | Make Ready Status | Make Ready Status, Status, WO Status |
///
/// `*` = required.
struct MakeReadyParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .makeReady, name: "make ready summary", columns: [
            ColumnSpec("Unit", .text, required: true, synonyms: ["Bldg/Unit", "Bldg-Unit", "Unit Number"]),
            ColumnSpec("Floor Plan", .text, synonyms: ["Floorplan"]),
            ColumnSpec("Sq Ft", .count, synonyms: ["SQFT"]),
            ColumnSpec("Unit Status", .text),
            ColumnSpec("Lease Status", .text),
            ColumnSpec("Date Vacated", .date, synonyms: ["Vacated", "Move-Out", "Move-Out Date", "Vacate Date"]),
            ColumnSpec("Days Vacant", .count, required: true),
            ColumnSpec("Date Due", .date, synonyms: ["Make Ready Date Due", "Due Date", "Make Ready Due"]),
            ColumnSpec("# of WOs", .count, synonyms: ["# WOs", "Work Orders", "# of Work Orders"]),
            ColumnSpec("Assigned To", .text, synonyms: ["Assigned", "Vendor/Employee"]),
            ColumnSpec("Make Ready Status", .text, synonyms: ["Status", "WO Status"]),
        ]),
    ]

    let header: HeaderMap
    let context: ParseContext
    private var counter = GroupCounter()
    private var workOrders = 0

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .label, .continuation:
            return true
        case .total(let label, let count):
            counter.check(count, label: label, row: row.number, what: "units", context: context)
            context.crossCheck("work orders", computed: workOrders, printed: try view.count("# of WOs"), label: label,
                               row: row.number)
            workOrders = 0
            return true
        case .data:
            // A work-order line under its unit carries no unit.
            guard let unit = view.text("Unit") else { return true }
            let record = MakeReadyRow(
                unitNumber: unit, floorplan: view.text("Floor Plan"), sqft: try view.count("Sq Ft"),
                unitStatus: view.text("Unit Status"), leaseStatus: view.text("Lease Status"),
                moveOutDate: try view.date("Date Vacated"), daysVacant: try view.countUnlessMarked("Days Vacant"),
                dueDate: try view.date("Date Due"), workOrders: try view.count("# of WOs"),
                assignedTo: view.text("Assigned To"), status: view.text("Make Ready Status"), sourceRow: row.number)
            counter.add()
            workOrders += record.workOrders ?? 0
            records.append(.makeReady(record))
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}
}

extension RowView {
    /// A count that OneSite replaces with `*` when it cannot compute it (Days Vacant): `*` reads as nil.
    func countUnlessMarked(_ column: String) throws -> Int? {
        if let text = text(column), text.allSatisfy({ $0 == "*" }) { return nil }
        return try count(column)
    }
}
