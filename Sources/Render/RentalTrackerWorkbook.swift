import Ledger
import Metrics
import SQLiteKit

/// The rental tracker as an .xlsx workbook of two tabular sheets: the residents behind on rent (balance, months behind
/// and which, last payment; the total balance below), and their open charges and payments since the first month
/// missing, one line each under the resident.
public enum RentalTrackerWorkbook {
    /// Writes the workbook to `path`; `result` is the tracker's `result(parameters:)` (its first table is the residents').
    public static func write(_ tracker: RentalTracker, result: MetricResult, generatedAt: String, to path: String) throws {
        let dates = Set(tracker.asOf.values)
        let asOf = dates.count == 1 ? "as of \(dates.first ?? "")"
            : "as of " + tracker.asOf.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let parameters = ReportWorkbook.heading(result.parameters.filter { $0.name != "as_of" })
        let subtitle = [asOf, parameters, "written \(generatedAt)"].filter { !$0.isEmpty }.joined(separator: " · ")
        // A ledger the nightly windows brought past its last whole pull is named under the title, as on every report.
        let wholeNote = LedgerWholeAsOf.note(tracker.ledgerWholeAsOf).map { [$0] } ?? []
        var sheets: [TabularSheet] = []
        if let residents = result.tables.first {
            sheets.append(TabularSheet(
                name: "Residents", heading: ["Rental tracker — residents behind on rent", subtitle] + wholeNote,
                columns: residents.columns.map { WorkbookColumn(ColumnHeader.text($0.name), $0.kind) },
                rows: residents.rows, total: residents.total))
        }
        var entries: [[SQLValue]] = []
        for resident in tracker.residents {
            let who: [SQLValue] = [.text(resident.property), .text(resident.unit), .text(resident.residentID), SQLValue(resident.name)]
            for owed in resident.owed {
                entries.append(who + [.text("owed"), SQLValue(owed.dueDate), .text(owed.period), .text(owed.code),
                                      .real(Double(owed.amountCents) / 100)])
            }
            for paid in resident.paid {
                entries.append(who + [.text("paid"), .text(paid.date), .text(paid.period), SQLValue(paid.reference),
                                      .real(Double(paid.amountCents) / 100)])
            }
        }
        sheets.append(TabularSheet(
            name: "Open charges and payments",
            heading: ["Rental tracker — open charges (owed, by due date) and payments since the first month missing (paid)", subtitle],
            columns: [WorkbookColumn("Property", .text), WorkbookColumn("Unit", .text), WorkbookColumn("Resident ID", .text),
                      WorkbookColumn("Name", .text), WorkbookColumn("Entry", .text), WorkbookColumn("Date", .date),
                      WorkbookColumn("Period", .month), WorkbookColumn("Code or reference", .text),
                      WorkbookColumn("Amount", .money)],
            rows: entries))
        try ReportWorkbook.write(sheets, to: path)
    }
}
