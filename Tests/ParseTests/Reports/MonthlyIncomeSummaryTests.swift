import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Monthly_Income_Summary_NexusEast.xls: the real Monthly Income Summary (a/r-709-001), a Crystal export whose
// totals are drawn apart from their headers. Expected numbers are the report's `Charges/Credits Totals:` and
// `Property Totals:`.
@Suite struct MonthlyIncomeSummaryTests {
    static let file = "Monthly_Income_Summary_NexusEast.xls"

    @Test func chargeLinesAdjustmentsAndGroups() throws {
        let result = try parseReal(Self.file)
        let metadata = result.summary.metadata
        #expect(metadata.reportType == .monthlyIncomeSummary, "detected from the title")
        #expect(metadata.propertyName == "Nexus East")
        // TitleBlock: no date or period printed, only the run timestamp `02/15/2026 9:38:59AM`; loaded with --as-of.
        #expect(result.summary.warnings == [])
        let lines = result.rows("realpage_monthly_income")
        #expect(lines.count == 2)
        #expect(lines.map { text($0, "description") } == ["OSP ACH Payment", "PMTMOVE"])
        #expect(lines.allSatisfy { text($0, "category") == "PZ" && text($0, "debit_account") == "1110-0002" })
        #expect(total(lines, "income_cash_basis") == usd(5_542, 65))
        #expect(total(lines, "income_modified_basis") == usd(5_542, 65))
        #expect(total(lines, "bank_deposits") == usd(5_542, 65))
        let adjustments = result.rows("realpage_monthly_income_adjustments")
        #expect(adjustments.count == 1)
        #expect(text(adjustments[0], "description") == "Other Cash Adjustments")
        #expect(adjustments[0]["bank_deposits"] == .money(-usd(5_542, 65)))
        // Lines plus adjustments: the printed bank deposits 0 and net bank deposits 0.
        #expect(total(lines + adjustments, "net_bank_deposits") == .zero)
        let groups = result.rows("realpage_monthly_income_groups")
        #expect(groups.count == 1)
        #expect(text(groups[0], "description") == "Rent/Other")
        #expect(groups[0]["deposits_out"] == .money(.zero))
    }

    @Test func aChangedIncomeIsCaught() throws {
        let result = try parseReal(Self.file) { $0[16, "AR"] = .number(4_400) }
        #expect(result.summary.warnings.count == 1)
        #expect(result.summary.warnings.first?.contains("income cash basis") == true)
        #expect(result.summary.warnings.first?.contains("5542.65") == true)
    }

    @Test func incomeMovedUnderTheNextHeaderIsCaught() throws {
        // PMTMOVE's cash-basis income drawn under Paid from Other Credits.
        let result = try parseReal(Self.file) { $0.move(row: 18, from: "AR", to: "AX") }
        let warnings = result.summary.warnings
        #expect(warnings.contains { $0.contains("income cash basis") })
        #expect(warnings.contains { $0.contains("paid from other credits") })
    }

    @Test func aChangedSummaryGroupIsCaughtByPropertyTotals() throws {
        let result = try parseReal(Self.file) { $0[32, "AO"] = .number(25) }
        #expect(result.summary.warnings.count == 1)
        #expect(result.summary.warnings.first?.contains("deposits out") == true)
        #expect(result.summary.warnings.first?.contains("Property Totals") == true)
    }
}
