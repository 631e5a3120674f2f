import OwnerDashCore
import XLSXKit

/// Closed Make Ready Summary (report 4189): one `ClosedMakeReadyRow` per unit whose make-ready was completed.
///
/// Layout ([I] — no real file seen; bary249/NASAdash's parser of the real export reads Bldg/Unit, # of WOs, the
/// date closed and the amount charged): a 2-row header, one row per unit, optionally followed by its work-order lines
/// (no unit: not stored), and `Total Units: N` (a count, checked against the unit rows) whose `# of WOs` and
/// `Amount Charged` cells, when printed, are checked against the sums of the unit rows.
///
/// unified_work_orders (closed work) can be built from these rows: one completed make-ready per unit, opened on
/// move_out_date, completed on completed_date.
///
/// | raw field (realpage_closed_make_ready) | column | OneSite header texts |
/// |---|---|---|
/// | unit_number | Unit* | Unit, Bldg/Unit, Bldg-Unit, Unit Number |
/// | floorplan | Floor Plan | Floor Plan, Floorplan |
/// | move_out_date | Date Vacated | Date Vacated, Vacated, Move-Out, Move-Out Date, Vacate Date |
/// | due_date | Date Due | Date Due, Make Ready Date Due, Due Date, Make Ready Due |
/// | completed_date | Date Completed* | Date Completed, Completed, Date Closed, Closed, Completed Date, Made Ready Date, Make Ready Date |
/// | days_to_complete | Days to Complete | Days to Complete, Days to Make Ready, Turn Days |
/// | work_orders | # of WOs | # of WOs, # WOs, Work Orders, # of Work Orders |
/// | amount_charged | Amount Charged | Amount Charged, Amount, Charged, Cost |
/// | completed_by | Completed By | Completed By, Assigned To, Closed By |
///
/// `*` = required.
struct ClosedMakeReadyParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .closedMakeReady, name: "closed make ready", columns: [
            ColumnSpec("Unit", .text, required: true, synonyms: ["Bldg/Unit", "Bldg-Unit", "Unit Number"]),
            ColumnSpec("Floor Plan", .text, synonyms: ["Floorplan"]),
            ColumnSpec("Date Vacated", .date, synonyms: ["Vacated", "Move-Out", "Move-Out Date", "Vacate Date"]),
            ColumnSpec("Date Due", .date, synonyms: ["Make Ready Date Due", "Due Date", "Make Ready Due"]),
            ColumnSpec("Date Completed", .date, required: true,
                       synonyms: ["Completed", "Date Closed", "Closed", "Completed Date", "Made Ready Date",
                                  "Make Ready Date"]),
            ColumnSpec("Days to Complete", .count, synonyms: ["Days to Make Ready", "Turn Days"]),
            ColumnSpec("# of WOs", .count, synonyms: ["# WOs", "Work Orders", "# of Work Orders"]),
            ColumnSpec("Amount Charged", .money, synonyms: ["Amount", "Charged", "Cost"]),
            ColumnSpec("Completed By", .text, synonyms: ["Assigned To", "Closed By"]),
        ]),
    ]

    let header: HeaderMap
    let context: ParseContext
    private var counter = GroupCounter()
    private var workOrders = 0
    private var charged = Money.zero

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .label, .continuation:
            return true
        case .total(let label, let count):
            let totals = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
            counter.check(count, label: label, row: row.number, what: "units", context: context)
            context.crossCheck("work orders", computed: workOrders, printed: try totals.count("# of WOs"),
                               label: label, row: row.number)
            context.crossCheck("amount charged", computed: charged, printed: try totals.money("Amount Charged"),
                               label: label, row: row.number)
            workOrders = 0; charged = .zero
            return true
        case .data:
            guard let unit = view.text("Unit") else { return true }
            let record = ClosedMakeReadyRow(
                unitNumber: unit, floorplan: view.text("Floor Plan"), moveOutDate: try view.date("Date Vacated"),
                dueDate: try view.date("Date Due"), completedDate: try view.date("Date Completed"),
                daysToComplete: try view.countUnlessMarked("Days to Complete"), workOrders: try view.count("# of WOs"),
                amountCharged: try view.money("Amount Charged"), completedBy: view.text("Completed By"),
                sourceRow: row.number)
            counter.add()
            workOrders += record.workOrders ?? 0
            charged += record.amountCharged ?? .zero
            records.append(.closedMakeReady(record))
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}
}
