import OwnerDashCore
import XLSXKit

/// Closed Make Ready Summary (report 4189): one `ClosedMakeReadyRow` per unit whose make-ready was completed.
///
/// Layout (checked on a real download): a 2-row header, one row per unit that is also its first work order, then its
/// other work-order lines (WO, Service Issue, Assigned to Worker, Date closed, Amt charged, Time Worked, Hrs:Min),
/// each stored as a `ClosedMakeReadyWorkOrderRow` (realpage_closed_make_ready_work_orders) under its unit; then
/// `Totals` (or `Total Units: N`) whose unit count (in the label or under Unit), `# of WOs` (against the units' counts
/// and the work-order lines) and `Amount Charged` are checked.
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
            ColumnSpec("Amount Charged", .money, synonyms: ["Amount", "Charged", "Cost", "Amt Charged"]),
            ColumnSpec("Completed By", .text, synonyms: ["Assigned To", "Closed By"]),
            ColumnSpec("WO", .text, synonyms: ["Work Order", "WO #", "Work Order #"]),
            ColumnSpec("Service Issue", .text),
            ColumnSpec("Worker", .text, synonyms: ["Assigned to Worker"]),
            ColumnSpec("Time Worked", .text),
            ColumnSpec("Hrs:Min", .text),
        ]),
    ]

    let header: HeaderMap
    let context: ParseContext
    private var counter = GroupCounter()
    private var workOrders = 0
    private var charged = Money.zero
    /// Work-order lines read (the real export prints one per work order, the first on the unit's row).
    private var workOrderLines = 0
    /// The unit the work-order lines below belong to: its number and sheet row.
    private var unit: (number: String, row: Int)?

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
            // The real export prints its unit count under Unit (`Totals | 5 | 25 | 0`).
            if count == nil, let units = try? totals.count("Unit") {
                context.crossCheck("units", computed: counter.all, printed: units, label: label, row: row.number)
            }
            if workOrderLines > 0 {
                context.crossCheck("work-order lines", computed: workOrderLines, printed: try totals.count("# of WOs"),
                                   label: label, row: row.number)
            }
            context.crossCheck("work orders", computed: workOrders, printed: try totals.count("# of WOs"),
                               label: label, row: row.number)
            context.crossCheck("amount charged", computed: charged, printed: try totals.money("Amount Charged"),
                               label: label, row: row.number)
            workOrders = 0; charged = .zero
            return true
        case .data:
            guard let unit = view.text("Unit") else {
                try workOrder(view, into: &records)
                return true
            }
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
            self.unit = (unit, row.number)
            try workOrder(view, into: &records)
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}

    /// The row's work order (WO `2088-1`), kept under the unit above it; rows without a WO number are not one.
    private mutating func workOrder(_ view: RowView, into records: inout [ReportRecord]) throws {
        guard let number = view.text("WO"), let unit else { return }
        workOrderLines += 1
        records.append(.closedMakeReadyWorkOrder(ClosedMakeReadyWorkOrderRow(
            unitNumber: unit.number, unitRow: unit.row, workOrder: number, serviceIssue: view.text("Service Issue"),
            worker: view.text("Worker"), closedDate: try view.date("Date Completed"),
            amountCharged: try view.money("Amount Charged"), timeWorkedBy: view.text("Time Worked"),
            minutesWorked: Self.minutes(view.text("Hrs:Min")), sourceRow: view.number)))
    }

    /// `1:05` -> 65; nil for anything else.
    static func minutes(_ text: String?) -> Int? {
        guard let parts = text?.split(separator: ":"), parts.count == 2,
              let hours = Int(parts[0]), let minutes = Int(parts[1]) else { return nil }
        return hours * 60 + minutes
    }
}
