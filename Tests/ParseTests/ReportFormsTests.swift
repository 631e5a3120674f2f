import Foundation
import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

/// The same report in every form RealPage sends (vendor-formats 3.2): the .xlsx fixture, and the legacy .xls and HTML
/// export LibreOffice made of it (scripts/fixtures/make_report_forms.sh), opened by content through SpreadsheetFile,
/// give the same records, title and warnings.
@Suite struct ReportFormsTests {
    static let fixtures = ["activity_report", "box_score_nexus_east", "delinquency_simple", "delinquent_prepaid_per_code",
                           "lease_expiration_month_groups", "lease_expiration_drift", "monthly_activity_summary",
                           "rent_roll_two_row_header", "closed_make_ready", "income_statement_by_gl",
                           "income_statement_worksheet", "lease_details", "lost_rent_summary", "make_ready_summary",
                           "monthly_transaction_summary", "primary_advertising_source", "projected_occupancy",
                           "reasons_for_move_out", "renewal_detail"]

    static func parseAnyForm(_ path: String) throws -> (ParseResult, SpreadsheetFormat) {
        let book = try SpreadsheetFile(path: path)
        let sheet = try book.sheet(at: 0)
        var rows = try sheet.rows()
        return (try parse(nil, source: &rows, merges: try sheet.mergedRanges(), sheetName: sheet.name), book.format)
    }

    @Test(arguments: fixtures)
    func everyFormGivesTheSameRecords(fixture: String) throws {
        let (xlsx, _) = try Self.parseAnyForm(reportFixtures + "/\(fixture).xlsx")
        #expect(!xlsx.records.isEmpty)
        for (form, format) in [("xls", SpreadsheetFormat.xls), ("html", .html)] {
            let (other, detected) = try Self.parseAnyForm(reportFixtures + "/forms/\(fixture).\(form)")
            #expect(detected == format)
            #expect(other.metadata == xlsx.metadata, "\(fixture).\(form): title block")
            #expect(other.records.count == xlsx.records.count, "\(fixture).\(form): record count")
            for (a, b) in zip(other.records, xlsx.records) where a != b {
                Issue.record("\(fixture).\(form): \(a) != \(b)")
                break
            }
            #expect(other.summary.warnings == xlsx.summary.warnings, "\(fixture).\(form): warnings")
        }
    }

    @Test func aFileIsReadForWhatItIsWhateverItsName() throws {
        // An .xls renamed .xlsx and an HTML export saved as .xls, as OneSite downloads come.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let xlsAsXLSX = directory.appendingPathComponent("box_score.xlsx").path
        let htmlAsXLS = directory.appendingPathComponent("box_score.xls").path
        try FileManager.default.copyItem(atPath: reportFixtures + "/forms/box_score_nexus_east.xls", toPath: xlsAsXLSX)
        try FileManager.default.copyItem(atPath: reportFixtures + "/forms/box_score_nexus_east.html", toPath: htmlAsXLS)
        #expect(try Self.parseAnyForm(xlsAsXLSX).1 == .xls)
        #expect(try Self.parseAnyForm(htmlAsXLS).1 == .html)
        #expect(try Self.parseAnyForm(htmlAsXLS).0.boxScores.map(\.floorplan) == ["S1", "A1", "A2", "B1", "B2"])
    }
}
