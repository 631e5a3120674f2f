import Foundation
import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

/// The same report in every form RealPage sends (docs/onesite-reports.md, "File forms"): the .xlsx fixture, and the
/// legacy .xls and HTML export LibreOffice made of it and the .xlsx it saves again (an operator re-saving a download;
/// scripts/fixtures/make_report_forms.sh), opened by content through SpreadsheetFile, give the same records, title
/// and warnings: the Monthly Activity Summary re-saved keeps every floor plan, or the kept-rows check would say so.
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
        for (form, format) in [("xls", SpreadsheetFormat.xls), ("html", .html), ("resaved.xlsx", .xlsx)] {
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

    /// The real BIFF8 downloads converted to .xlsx by LibreOffice (scripts/fixtures/convert_real_onesite.sh).
    static let realFiles = ["4156_5472172_Nexus_East.xls", "Delinquent_and_Prepaid_Report__3_.xls",
                            "Leasing_Activity_Detail_Report.xls", "Primary_Advertising_Source_NexusEast.xls",
                            "realpage_report.xlsx", "sample_monthly_transaction_summary.xls", "test_activity_8880904.xls",
                            "test_lease_exp_8880905.xls", "Closed_Make_Ready_Nexus_East.xls",
                            "Make_Ready_Summary_NexusEast.xls"]

    /// Every sheet of a workbook that reads as a report: its records and warnings, sheet by sheet.
    static func parseEverySheet(_ path: String) throws -> (format: SpreadsheetFormat, sheets: [ParseResult]) {
        let book = try SpreadsheetFile(path: path)
        var results: [ParseResult] = []
        for index in book.sheetNames.indices {
            let sheet = try book.sheet(at: index)
            var rows = try sheet.rows()
            // A table of contents or a summary sheet with no report header is not a report.
            guard let result = try? parse(nil, source: &rows, merges: try sheet.mergedRanges(), sheetName: sheet.name)
            else { continue }
            results.append(result)
        }
        return (book.format, results)
    }

    @Test(arguments: realFiles)
    func aRealDownloadAndItsXLSXConversionGiveTheSameRecords(file: String) throws {
        let directory = reportFixtures + "/../real-onesite"
        let (format, original) = try Self.parseEverySheet(directory + "/" + file)
        let (converted, xlsx) = try Self.parseEverySheet(directory + "/xlsx/" + file + ".xlsx")
        #expect(format == .xls, "\(file) is BIFF8 whatever its name")
        #expect(converted == .xlsx)
        #expect(!original.isEmpty && original.first?.records.isEmpty == false)
        #expect(xlsx.count == original.count, "\(file): sheets read")
        for (a, b) in zip(original, xlsx) {
            #expect(b.metadata == a.metadata, "\(file): title block")
            #expect(b.records.count == a.records.count, "\(file): record count")
            for (x, y) in zip(a.records, b.records) where x != y {
                Issue.record("\(file): \(x) != \(y)")
                break
            }
            #expect(b.summary.warnings == a.summary.warnings, "\(file): warnings")
        }
    }
}
