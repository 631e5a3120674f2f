import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Expected values are worked out by hand from MAKE_READY_UNITS and CLOSED_MAKE_READY_UNITS in
// scripts/fixtures/make_report_fixtures.py.

@Suite("Make Ready Summary and Closed Make Ready")
struct MakeReadyTests {
    @Test("make_ready_summary: five units in the pipeline; work-order lines are not units; * is unknown")
    func summary() throws {
        let result = try parseFixture("make_ready_summary.xlsx")
        #expect(result.metadata?.reportType == .makeReady && result.metadata?.asOf == ymd("2026-02-08"))
        let rows = result.makeReadyUnits
        #expect(rows.map(\.unitNumber) == ["1102", "2101", "2201", "2102", "3105"])
        let first = rows[0]
        #expect(first.floorplan == "A1" && first.sqft == 715 && first.unitStatus == "Vacant")
        #expect(first.leaseStatus == "Not Leased" && first.moveOutDate == ymd("2026-01-20"))
        #expect(first.daysVacant == 19 && first.dueDate == ymd("2026-02-10") && first.workOrders == 3)
        #expect(first.assignedTo == "Ruiz, Dan" && first.status == "In Progress")
        #expect(rows[1].moveOutDate == ymd("2026-02-01"), "a date cell, not text")
        #expect(rows[3].daysVacant == -6, "on notice: days until the move-out")
        #expect(rows[3].assignedTo == nil)
        #expect(rows[4].daysVacant == nil && rows[4].moveOutDate == nil, "* and blank are unknown, not 0")
        #expect(rows.compactMap(\.workOrders).reduce(0, +) == 10)
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("closed_make_ready: three completed turns with their dates, days and charges")
    func closed() throws {
        let result = try parseFixture("closed_make_ready.xlsx")
        #expect(result.metadata?.reportType == .closedMakeReady)
        #expect(result.metadata?.periodStart == ymd("2026-01-01") && result.metadata?.asOf == ymd("2026-01-31"))
        let rows = result.closedMakeReadyUnits
        #expect(rows.map(\.unitNumber) == ["1203", "1301", "2204"])
        #expect(rows.map(\.completedDate) == [ymd("2026-01-10"), ymd("2026-01-19"), ymd("2026-01-16")])
        #expect(rows.map(\.daysToComplete) == [8, 14, 7] && rows.map(\.workOrders) == [3, 2, 4])
        #expect(rows.map(\.amountCharged) == [usd(425), usd(0), usd(1_287, 50)])
        #expect(rows[0].moveOutDate == ymd("2026-01-02") && rows[0].dueDate == ymd("2026-01-12"))
        #expect(rows[2].completedBy == "Acme Restoration" && rows[2].floorplan == "B2")
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("closed_make_ready_totals_mismatch: Total Units says 4 and $1,812.50 for three units and $1,712.50")
    func closedMismatch() throws {
        let result = try parseFixture("closed_make_ready_totals_mismatch.xlsx")
        #expect(result.closedMakeReadyUnits.count == 3)
        #expect(result.summary.warnings == [
            "closed make ready: data rows sum to 3 units but \"Total Units: 4\" (row 16) says 4",
            "closed make ready: data rows sum to 1712.50 amount charged but \"Total Units: 4\" (row 16) says 1812.50",
        ])
    }

    @Test("Days Vacant missing is the one-line error naming it")
    func missingColumn() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "MAKE READY SUMMARY")
        sheet.add("Bldg/Unit", "Floor Plan", "Date Vacated", "Date Due")
        sheet.add("1102", "A1", "01/20/2026", "02/10/2026")
        let error = parseError(nil, sheet)
        #expect(error?.kind == .missingColumn)
        #expect(error?.description == "make ready summary: missing required column \"Days Vacant\" (found: Bldg/Unit, "
            + "Floor Plan, Date Vacated, Date Due) in the header at row 7 of sheet \"Report\"")
    }
}

@Suite("Closed Make Ready, real export shape")
struct ClosedMakeReadyRealShapeTests {
    static func sheet(printedWorkOrders: Int = 3) -> SheetBuilder {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "CLOSED MAKE READY SUMMARY", code: "130.080.050.999",
                 asOf: "Report created on calendar date: 02/15/2026 and property date: 02/14/2026")
        sheet.add(nil, nil, nil, nil, nil, "Assigned to", "Date", nil, "Amt")
        sheet.add("Bldg", "Unit", "# of WOs", "WO", "Service Issue", "Worker", "closed", nil, "charged", "Time Worked",
                  "Hrs:Min")
        sheet.add("N/A", "1171", 2, "2088-1", "Trash out", nil, "02/09/2026", nil, nil, nil, "0:0")
        sheet.add(nil, nil, nil, "2088-2", "Paint", "Ann Lee", "02/10/2026", nil, "0.00", "Ann Lee", "1:05")
        sheet.add("N/A", "1175", 1, "1903-1", "Trash out", nil, "02/06/2026", nil, nil, nil, "0:0")
        sheet.add("Totals", 2, printedWorkOrders, nil, nil, nil, nil, nil, "0")
        return sheet
    }

    @Test("each unit's work-order lines are kept under it; the Totals row's units and work orders are checked")
    func workOrders() throws {
        let result = try parse(.closedMakeReady, Self.sheet())
        #expect(result.summary.warnings.isEmpty, "\(result.summary.warnings)")
        let orders = result.records.compactMap { record -> ClosedMakeReadyWorkOrderRow? in
            if case .closedMakeReadyWorkOrder(let order) = record { return order } else { return nil }
        }
        #expect(orders.map(\.workOrder) == ["2088-1", "2088-2", "1903-1"])
        #expect(orders.map(\.unitNumber) == ["1171", "1171", "1175"])
        #expect(orders[1].worker == "Ann Lee" && orders[1].minutesWorked == 65 && orders[1].closedDate == ymd("2026-02-10"))
        #expect(result.metadata?.asOf == ymd("2026-02-14"))
        let wrong = try parse(.closedMakeReady, Self.sheet(printedWorkOrders: 4))
        #expect(wrong.summary.warnings.count == 2, "\(wrong.summary.warnings)")
    }
}
