import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Collections_Report__3_.xls: the real Collections Report (120-080-129) of The Northern, a Crystal export: a name
// line and a figures line per account, a header printed in two blocks. Expected numbers are its `Totals:` row.
@Suite struct CollectionsTests {
    static let file = "Collections_Report__3_.xls"

    @Test func accountsAndTheirTotals() throws {
        let result = try parseReal(Self.file)
        let metadata = result.summary.metadata
        #expect(metadata.reportType == .collections, "detected from title and code")
        #expect(metadata.propertyName == "The Northern")
        #expect(metadata.asOf == LocalDate(iso: "2026-01-29"), "`Move-outs From ... Through ... As of 1/29/2026`")
        #expect(result.summary.warnings == [])
        let accounts = result.rows("realpage_collections")
        #expect(accounts.count == 6)
        #expect(accounts.map { text($0, "unit_number") } == ["632", "826", "1012", "1431", "1610", "1620"])
        #expect(total(accounts, "balance_forward") == usd(18_186, 50))
        #expect(total(accounts, "total_charges") == -usd(1_196, 15))
        #expect(total(accounts, "total_payments") == usd(18, 57))
        #expect(total(accounts, "total_credits") == -usd(940, 57))
        #expect(total(accounts, "total_write_offs") == .zero)
        #expect(total(accounts, "ending_balance") == usd(16_752, 35))
        #expect(total(accounts, "balance_with_write_offs") == usd(16_752, 35))
        #expect(total(accounts, "deposit_balance_forward") == usd(1_150))
        #expect(total(accounts, "deposit_net_change") == usd(-900))
        #expect(total(accounts, "deposit_ending_balance") == usd(250))
        #expect(accounts.filter { $0["in_collections"] == .integer(1) }.count == 3)
        #expect(accounts.allSatisfy { $0["under_payment_agreement"] == .integer(0) })
        let first = accounts[0]
        #expect(text(first, "resident_name") == "Hurley, Tammy")
        #expect(text(first, "status") == "Former Resident")
        #expect(first["account_end_date"] == .date(LocalDate(iso: "2026-01-02")!))
        #expect(first["last_payment_date"] == .date(LocalDate(iso: "2026-01-05")!))
        #expect(first["final_fas_date"] == .date(LocalDate(iso: "2026-01-05")!))
        #expect(first["total_payments"] == .money(usd(18, 57)))
        #expect(first["total_credits"] == .money(-usd(174, 57)))
    }

    @Test func aChangedPaymentIsCaught() throws {
        let result = try parseReal(Self.file) { $0[44, "L"] = .number(100) }
        #expect(result.summary.warnings.count == 1)
        #expect(result.summary.warnings.first?.contains("total payments") == true)
        #expect(result.summary.warnings.first?.contains("18.57") == true)
    }

    @Test func aLostCollectionsMarkIsCaught() throws {
        let result = try parseReal(Self.file) { $0[29, "AM"] = .empty }
        #expect(result.summary.warnings == [
            "collections report: data rows sum to 2 accounts in collections but \"Totals:\" (row 73) says 3",
        ])
    }

    @Test func aMissingFigureIsAnErrorNamingTheRow() throws {
        let error = #expect(throws: ReportParseError.self) {
            _ = try parseReal(Self.file) { $0[44, "O"] = .empty }
        }
        #expect(error?.row == 44)
        #expect(error?.description.contains("9 amounts where 10") == true)
    }
}
