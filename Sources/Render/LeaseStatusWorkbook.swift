import Ledger
import Metrics
import OwnerDashCore
import XLSXKit

/// The lease payment-status grid as an .xlsx workbook, the same grid as `LeaseStatusPage`: one sheet per property
/// (named by its key), a title naming the property and its as-of date, a band of months over a Rent and a Utilities
/// column each, one row per lease (floor, unit, leases, tenants, household status), every status cell filled with
/// its badge color and carrying a comment with what was billed, paid, when it was due and what is still owed.
/// The title and header rows and the lease columns stay in view (frozen); the header has filter buttons.
public enum LeaseStatusWorkbook {
    /// The fixed columns before the months.
    static let leaseColumns: [(title: String, width: Double)] = [
        ("Floor", 7), ("Unit", 8), ("Lease", 12), ("Tenants", 30), ("Household", 11),
    ]
    /// Title, as-of line, month band, header.
    static let headerRows = 4

    /// Writes the workbook to `path`; `generatedAt` is printed under the title as given.
    public static func write(_ report: LeasePaymentStatusReport, generatedAt: String, to path: String) throws {
        let writer = try XLSXWriter(path: path)
        var names: [String] = []
        let properties = Array(Set(report.lines.map(\.property)).union(report.asOf.keys)).sorted()
        for property in properties {
            let name = XLSXWriter.sheetName(property, avoiding: names)
            names.append(name)
            try sheet(property, named: name, report, generatedAt: generatedAt, writer)
        }
        if !report.noLedger.isEmpty || properties.isEmpty {
            let name = XLSXWriter.sheetName("No ledger", avoiding: names)
            try writer.startSheet(name, layout: SheetLayout(columnWidths: [70]))
            try writer.appendRow([.text("Lease payment status", look: CellLook(bold: true))])
            if report.noLedger.isEmpty {
                try writer.appendRow([.text("No property was asked for or synced.")])
            } else {
                try writer.appendRow([.text("Properties without a tenant ledger synced (not shown as zeros):")])
                for property in report.noLedger { try writer.appendRow([.text(property)]) }
            }
        }
        try writer.finish()
    }

    private static func sheet(_ property: String, named name: String, _ report: LeasePaymentStatusReport,
                              generatedAt: String, _ writer: XLSXWriter) throws {
        let lines = report.lines.filter { $0.property == property }
        let widths = leaseColumns.map(\.width) + Array(repeating: 10.5, count: report.months.count * 2)
        let asOfText = report.asOf[property].map { "as of \($0)" }
        try writer.startSheet(name, layout: SheetLayout(columnWidths: widths, frozenRows: headerRows,
                                                        frozenColumns: leaseColumns.count, autoFilterRow: headerRows,
                                                        landscape: true, printTitles: 1...headerRows,
                                                        pageHeader: PageText(left: "Lease payment status",
                                                                             center: property, right: asOfText)))
        try writer.appendRow([.text("Lease payment status — \(property)", look: CellLook(bold: true))], height: 20)
        let range = "\(report.months.first ?? "") to \(report.months.last ?? "")"
        let asOf = report.asOf[property] ?? "the property date"
        // Units the PMS sends no floor for have an empty Floor cell; the line under the title says why.
        let floorNote = lines.contains { $0.floor == nil } ? report.floorNotes[property].map { " · floor not known: \($0)" } ?? "" : ""
        let wholeNote = report.ledgerWholeAsOf[property].map {
            " · ledger last pulled whole as of \($0.wholeAsOf): \(LedgerWholeAsOf.consequence)"
        } ?? ""
        try writer.appendRow([.text("As of \(asOf) (past due = due before it) · months \(range) · written \(generatedAt)\(floorNote)\(wholeNote)")])
        let band = CellLook(bold: true, fill: RGBColor("F3F3F3"), border: true, alignment: .center)
        var months: [WorkbookCell] = leaseColumns.map { _ in WorkbookCell(.empty, look: band) }
        for month in report.months {
            months += [WorkbookCell(.text(month), look: band), WorkbookCell(.empty, look: band)]
        }
        try writer.appendRow(months)
        for i in report.months.indices {
            let first = leaseColumns.count + 2 * i
            try writer.merge(firstRow: 3, firstColumn: first, lastRow: 3, lastColumn: first + 1)
        }
        try writer.appendRow(leaseColumns.map { .text($0.title, look: .header) }
                             + report.months.flatMap { _ in [WorkbookCell.text("Rent", look: .header), .text("Utilities", look: .header)] })
        for line in lines {
            var row: [WorkbookCell] = [
                line.floor.map { .text($0) } ?? .empty, .text(line.unit),
                .text(line.leaseIDs.isEmpty ? line.residentID : line.leaseIDs.joined(separator: ", ")),
                .text(line.tenants.isEmpty ? line.residentID : line.tenants.joined(separator: "; ")),
                line.residentStatus.map { .text($0) } ?? .empty,
            ]
            for month in report.months {
                row.append(statusCell("Rent", month, line.rent[month]))
                row.append(statusCell("Utilities", month, line.utilities[month]))
            }
            try writer.appendRow(row)
        }
    }

    /// The status, filled with its badge color, with the figures in a comment; an empty bordered cell when nothing was billed.
    static func statusCell(_ kind: String, _ month: String, _ cell: LeasePaymentStatusReport.Cell?) -> WorkbookCell {
        guard let cell else { return WorkbookCell(.empty, look: CellLook(border: true)) }
        let comment = """
            \(kind) \(month): \(cell.status.rawValue)
            billed \(LeaseStatusPage.dollars(cell.billedCents))
            paid \(LeaseStatusPage.dollars(cell.paidCents))
            due \(cell.dueDate ?? "not recorded")
            balance \(LeaseStatusPage.dollars(cell.balanceCents))
            """
        return WorkbookCell(.text(cell.status.rawValue),
                            look: CellLook(bold: true, fill: RGBColor(cell.status.badgeColor), border: true, alignment: .center),
                            comment: comment)
    }
}
