import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Report_4039_Nexus_East.xls: the real Charge and Adjustment Journal (a/r-702-001), a Crystal export. Expected
// numbers are the report's own: 31 posted lines, 14 code summary lines, `Totals` rent -858 and other -4,394.91.
@Suite struct ChargeJournalTests {
    static let file = "Report_4039_Nexus_East.xls"

    @Test func everyPostedLineIsRead_withUnitAndResidentCarriedDown() throws {
        let result = try parseReal(Self.file)
        #expect(result.summary.metadata.reportType == .chargeJournal, "detected from the title")
        #expect(result.summary.metadata.propertyName == "Nexus East")
        #expect(result.summary.warnings == [])
        let lines = result.rows("realpage_charge_journal")
        #expect(lines.count == 31)
        #expect(total(lines, "rent") == usd(-858))
        #expect(total(lines, "other") == -usd(4_394, 91))
        // Row 19 prints no unit or name: it is Osborne's second line (row 17 names her).
        let second = try #require(lines.first { $0.sourceRow == 19 })
        #expect(text(second, "unit_number") == "1273")
        #expect(text(second, "resident_name") == "Osborne, Vicki")
        #expect(text(second, "code") == "TRASHUTIL")
        #expect(text(second, "code_description") == "Utilities - Trash")
        #expect(text(second, "note") == "double charged for renewal")
        #expect(second["date_posted"] == .date(LocalDate(iso: "2026-02-10")!))
        #expect(second["other"] == .money(usd(-10)))
        #expect(text(second, "fiscal_period") == "2026-02", "from `Fiscal Period: 022026`")
        #expect(Set(lines.compactMap { text($0, "unit_number") }).count == 16)
        #expect(lines.allSatisfy { text($0, "resident_name") != nil })
        // TitleBlock: the journal prints `Fiscal Period: 022026` and no as-of date; today's TitleBlock finds none.
    }

    @Test func codeSummaryLinesAreKeptAndMatchTheirLines() throws {
        let result = try parseReal(Self.file)
        let codes = result.rows("realpage_charge_journal_codes")
        #expect(codes.count == 14)
        #expect(codes.map { text($0, "code") ?? "" }.first == "ADMIN")
        let petFee = try #require(codes.first { text($0, "code") == "PETFEE" })
        #expect(petFee["other"] == .money(usd(-2_400)))
        #expect(text(petFee, "description") == "Pet Fees non-refundable")
        #expect(total(codes, "other") == -usd(4_394, 91))
    }

    @Test func aChangedAmountIsNamedByTheTotalsAndItsCodeSummary() throws {
        // Row 71 (Case, ADMIN 150) changed to 1,150: the ADMIN summary and `Totals` no longer agree.
        let result = try parseReal(Self.file) { $0[71, "T"] = .number(1_150) }
        let warnings = result.summary.warnings
        #expect(warnings.contains { $0.contains("ADMIN other") && $0.contains("says 600") })
        #expect(warnings.contains { $0.contains("other") && $0.contains("\"Totals\"") && $0.contains("-4394.91") })
        #expect(warnings.count == 2)
    }

    @Test func aRentAmountMovedUnderOtherIsCaught() throws {
        // The RENT line's -858 drawn under Other instead of Rent.
        let result = try parseReal(Self.file) { rows in
            let rentRow = rows.first { $0.cells.contains(.text("RENT")) && $0.number < 74 }!.number
            rows[rentRow, "T"] = rows[rentRow, "J"]
            rows[rentRow, "J"] = .number(0)
        }
        #expect(result.summary.warnings.contains { $0.contains("rent") && $0.contains("\"Totals\"") })
        #expect(result.summary.warnings.contains { $0.contains("RENT rent") })
    }
}
