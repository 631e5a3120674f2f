import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Cash_Basis_GL_Nexus_East.xls: the real Cash Basis G/L Distribution (120.080.128), a Crystal export whose values
// sit beside their headers. Expected numbers are the report's own totals rows.
@Suite struct CashBasisGLTests {
    static let file = "Cash_Basis_GL_Nexus_East.xls"

    @Test func batchLinesAndTheirTotals() throws {
        let result = try parseReal(Self.file)
        let metadata = result.summary.metadata
        #expect(metadata.reportType == .cashBasisGL, "detected from title and code")
        #expect(metadata.propertyName == "Nexus East")
        #expect(metadata.asOf == LocalDate(iso: "2026-02-14"), "`From 02/13/2026 to 02/13/2026 as of: 02/14/2026`")
        #expect(result.summary.warnings == [])
        let lines = result.rows("realpage_cash_basis_gl")
        #expect(lines.count == 21)
        #expect(Set(lines.map(\.sourceRow)).count == 21)
        #expect(Set(lines.compactMap { text($0, "batch") }) == ["02/2026-998", "02/2026-999", "02/2026-440", "02/2026-441"])
        #expect(total(lines, "debit") == usd(11_258, 70))
        #expect(total(lines, "credit") == usd(11_258, 70))
        #expect(total(lines, "cash_deposited") == usd(2_502))
        #expect(total(lines, "nsfs_and_adjustments") == -usd(8_756, 70))
        #expect(total(lines, "deposits_received") == usd(-500))
        #expect(total(lines, "prepaid_change") == -usd(7_091, 70))
        #expect(total(lines, "deposits_applied_refunded") == .zero)
        #expect(total(lines, "paid_by_deposits_applied") == .zero)
        // Row 29: the batch's second line (no batch fields printed); -500 drawn between NSFs & Adj and Deposits
        // Rcvd, and it is a deposit received (the Totals row says so).
        let deposit = try #require(lines.first { $0.sourceRow == 29 })
        #expect(text(deposit, "batch") == "02/2026-999")
        #expect(deposit["distribution_date"] == .date(LocalDate(iso: "2026-02-12")!))
        #expect(text(deposit, "gl_account") == "2190-0001")
        #expect(text(deposit, "gl_description") == "Security Deposit Liability")
        #expect(deposit["debit"] == .money(usd(500)))
        #expect(deposit["deposits_received"] == .money(usd(-500)))
        #expect(deposit["nsfs_and_adjustments"] == .null)
    }

    @Test func theDistributionSection() throws {
        let result = try parseReal(Self.file)
        let lines = result.rows("realpage_cash_basis_gl_distribution")
        #expect(lines.count == 12)
        #expect(total(lines, "debit") == usd(11_258, 70))
        #expect(total(lines, "credit") == usd(11_258, 70))
        let prepaid = try #require(lines.first { text($0, "gl_account") == "2200-0001" })
        #expect(text(prepaid, "category") == "Change in Prepaid")
        #expect(prepaid["debit"] == .money(usd(8_256, 70)))
        #expect(prepaid["credit"] == .money(usd(1_165)))
        // `Market Rent` prints no category of its own: it is under `Cash Application` above it.
        let rent = try #require(lines.first { text($0, "gl_account") == "5100-0001" })
        #expect(text(rent, "category") == "Cash Application")
    }

    @Test func aValueMovedToTheNeighbouringColumnIsCaughtByTheTotals() throws {
        // The deposit's -500 drawn under NSFs & Adj instead of beside Deposits Rcvd.
        let result = try parseReal(Self.file) { $0.move(row: 29, from: "W", to: "V") }
        let warnings = result.summary.warnings
        #expect(warnings.contains { $0.contains("nsfs and adjustments") && $0.contains("-8756.7") })
        #expect(warnings.contains { $0.contains("deposits received") && $0.contains("-500") })
    }

    @Test func aChangedDistributionAmountIsCaught() throws {
        let result = try parseReal(Self.file) { $0[71, "R"] = .number(868) }
        #expect(result.summary.warnings.count == 1)
        #expect(result.summary.warnings.first?.contains("distribution credit") == true)
    }
}
