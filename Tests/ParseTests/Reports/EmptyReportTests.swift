import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

@Suite("Empty and error downloads")
struct EmptyReportTests {
    @Test("Concessions with no results (HTML named .xlsx): an empty snapshot for Ridian with a note quoting OneSite")
    func concessionsNoResults() throws {
        let result = try parseReal("concessions_3889.xlsx")
        #expect(result.metadata?.reportType == .concessions)
        #expect(result.metadata?.propertyName == "Ridian")
        #expect(result.metadata?.asOf == ymd("2026-02-18"))
        #expect(result.records.isEmpty)
        #expect(result.summary.notes == [
            "concessions assigned to residents: empty report: \"No results were returned for the selected parameters.\"",
        ])
    }

    @Test("Management Fee Summary with labels only: no fee rows, a note that the report is empty")
    func managementFeeLabelsOnly() throws {
        let result = try parseReal("mgmt_fee_3865.xls")
        #expect(result.metadata?.reportType == .managementFeeSummary)
        #expect(result.metadata?.propertyName == "Ridian")
        #expect(result.records.isEmpty)
        #expect(result.summary.notes == ["management fee summary: empty report: no records under its header"])
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("The Box Score that says \"Invalid end date entered\" is refused quoting RealPage's message")
    func invalidEndDate() {
        #expect(throws: ReportParseError.self) { try parseReal("box_score_8880795.xls") }
        do {
            _ = try parseReal("box_score_8880795.xls")
        } catch {
            #expect("\(error)".contains("\"Invalid end date entered - end date must be less than or equal to the property date\""))
        }
    }
}
