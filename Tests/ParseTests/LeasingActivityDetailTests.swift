import OwnerDashCore
import Testing
import XLSXKit
@testable import Parse

/// The two real Leasing Activity Detail downloads (Tests/Fixtures/real-onesite): every contact read as a record of
/// the report's own type, and the `Totals for Property` OneSite printed beside what the rows give.
@Suite struct LeasingActivityDetailTests {
    static let directory = reportFixtures + "/../real-onesite"

    /// The stored rows of a parse, by table column.
    static func rows(_ result: ParseResult) -> [RawRow] {
        result.records.compactMap { if case .row(let row) = $0 { row } else { nil } }
    }

    /// What a sheet's Totals for Property printed, by measure, and what its rows gave.
    static func property(_ totals: [PrintedTotal]) -> [String: (printed: Double, computed: Double)] {
        var byMeasure: [String: (Double, Double)] = [:]
        let last = totals.filter { $0.label.lowercased().contains("property") }
        for total in last { byMeasure[total.measure] = (total.printed, total.computed) }
        return byMeasure
    }

    @Test("Crystal export (realpage_report.xlsx): 379 contacts of 5 consultants; Totals for Property as printed")
    func crystal() throws {
        let sheets = try ReportFormsTests.parseEverySheet(Self.directory + "/realpage_report.xlsx").sheets
        let result = try #require(sheets.first)
        #expect(result.summary.metadata.reportType == .leasingActivityDetail)
        #expect(result.summary.warnings.isEmpty, "\(result.summary.warnings)")
        let rows = Self.rows(result)
        #expect(rows.count == 379)
        #expect(Set(rows.compactMap { if case .text(let name) = $0["leasing_consultant"] { name } else { nil } }).count == 5)
        #expect(rows.filter { $0["contact_type"] == .text("Lease") }.count == 5)
        #expect(rows.allSatisfy { $0["prospect_name"] != .null && $0["guest_card_status"] != .null })
        let totals = Self.property(result.summary.totals)
        let printed = totals.mapValues(\.printed)
        #expect(printed["new prospects"] == 38 && printed["visits"] == 16 && printed["return visits"] == 1)
        #expect(printed["off-site conversions"] == 16 && printed["leases"] == 5 && printed["net leases"] == 5)
        #expect(printed["phone call"] == 75 && printed["e-mail"] == 221 && printed["text message"] == 48)
        // Every figure the rows give is what OneSite printed; its new prospects come from its guest cards.
        for (measure, figure) in totals where measure != "new prospects" {
            #expect(figure.printed == figure.computed, "\(measure): printed \(figure.printed), rows \(figure.computed)")
        }
    }

    @Test("data-only export (Leasing_Activity_Detail_Report.xls): 1307 contacts; Sheet2's Totals for Property as printed")
    func dataOnly() throws {
        let path = Self.directory + "/Leasing_Activity_Detail_Report.xls"
        let sheets = try ReportFormsTests.parseEverySheet(path).sheets
        #expect(sheets.count == 1, "the per-consultant sheet is no report of its own")
        let result = try #require(sheets.first)
        #expect(result.summary.metadata.reportType == .leasingActivityDetail)
        #expect(result.summary.warnings.isEmpty, "\(result.summary.warnings)")
        let rows = Self.rows(result)
        #expect(rows.count == 1307)
        #expect(rows.filter { $0["contact_type"] == .text("Lease") }.count == 13)
        #expect(rows.filter { $0["contact_type"] == .text("Cancelled/Denied") }.count == 2)

        let book = try SpreadsheetFile(path: path)
        var source = try book.sheet(at: 1).rows()
        var sheet2: [SheetRow] = []
        while let row = try source.nextRow() { sheet2.append(row) }
        let printed = try #require(LeadDetailTally.printedTotals(in: sheet2))
        var tally = LeadDetailTally()
        for row in rows { tally.add(row) }
        let totals = Self.property(tally.totals(printed.printed, label: printed.label, row: printed.row))
        let figures = totals.mapValues(\.printed)
        #expect(figures["new prospects"] == 100 && figures["visits"] == 35 && figures["return visits"] == 3)
        #expect(figures["off-site conversions"] == 35 && figures["leases"] == 13 && figures["net leases"] == 11)
        #expect(figures["cancelled/denied"] == 2 && figures["e-mail"] == 843 && figures["phone call"] == 244)
        for (measure, figure) in totals where measure != "new prospects" {
            #expect(figure.printed == figure.computed, "\(measure): printed \(figure.printed), rows \(figure.computed)")
        }
    }
}
