import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Expected values are worked out by hand from RENEWALS in scripts/fixtures/make_report_fixtures.py.

@Suite("Lease Expiration/Renewal Detail (Excel): the Renewal Detail sheet")
struct RenewalDetailTests {
    func checkRenewals(_ rows: [RenewalDetailRow]) {
        #expect(rows.map(\.unitNumber) == ["1101", "1103", "2102", "2204", "1105"])
        #expect(rows.map(\.decision) == ["Renewed", "Vacating", "Unknown", "Renewed", "Moved out"])
        let first = rows[0]
        #expect(first.floorplan == "A1" && first.residentName == "Garcia, Ana")
        #expect(first.actualRent == usd(1_400) && first.otherBillings == usd(75) && first.marketRent == usd(1_450))
        #expect(first.lastIncreaseDate == ymd("2025-12-06") && first.lastIncreaseAmount == usd(50))
        #expect(first.moveInDate == ymd("2024-12-06") && first.leaseEndDate == ymd("2026-02-28"))
        #expect(first.newLeaseStart == ymd("2026-03-01") && first.newLeaseTerm == 12 && first.newRent == usd(1_445))
        #expect(first.newOtherBillings == usd(75) && first.leasingConsultant == "Jones, Taylor")
        #expect(rows[1].newRent == nil && rows[1].newLeaseTerm == nil, "vacating: no new lease, not a $0 one")
        #expect(rows[2].actualRent == usd(1_850, 75) && rows[2].lastIncreaseDate == nil)
        #expect(rows[3].newLeaseTerm == 6 && rows[3].newRent == usd(2_195) && rows[3].otherBillings == usd(0))
        #expect(rows[4].leaseEndDate == ymd("2025-11-30"))
    }

    @Test("the data-only workbook's Renewal Detail sheet: detected by its header, numbers and dates stored as text")
    func dataOnlySheet() throws {
        let result = try parseFixtureSheet("lease_expiration_renewal_excel.xlsx", sheet: "Renewal Detail")
        #expect(result.metadata?.reportType == .renewalDetail)
        #expect(result.metadata?.propertyName == nil && result.metadata?.asOf == nil, "a data-only sheet has no title")
        checkRenewals(result.renewals)
        #expect(result.summary.warnings.isEmpty, "Totals: 8423.75 / 150.00 / 8480.50 / 3640.00 / 75.00 add up")
    }

    @Test("the workbook's Lease Expiration Detail sheet is the lease expiration report, not renewals")
    func expirationSheet() throws {
        let result = try parseFixtureSheet("lease_expiration_renewal_excel.xlsx", sheet: "Lease Expiration Detail")
        #expect(result.metadata?.reportType == .leaseExpiration)
        #expect(result.leases.count == 5)
        #expect(throws: ReportParseError.self) {
            try parseFixtureSheet("lease_expiration_renewal_excel.xlsx", sheet: "Lease Expiration Detail",
                                  as: .renewalDetail)
        }
    }

    @Test("renewal_detail: the same columns under a RENEWAL DETAIL title block")
    func crystal() throws {
        let result = try parseFixture("renewal_detail.xlsx")
        #expect(result.metadata?.reportType == .renewalDetail)
        #expect(result.metadata?.propertyName == "Nexus East" && result.metadata?.asOf == ymd("2026-02-08"))
        checkRenewals(result.renewals)
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("renewal_detail_totals_mismatch: Totals: prints New Rent $100 over the renewals")
    func mismatch() throws {
        #expect(try parseFixture("renewal_detail_totals_mismatch.xlsx").summary.warnings
            == ["renewal detail: data rows sum to 3640.00 new rent but \"Totals:\" (row 14) says 3740.00"])
    }

    @Test("New Rent missing is the one-line error naming it")
    func missingColumn() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "RENEWAL DETAIL")
        sheet.add("Bldg/Unit", "Name", "Lease end Date", "Decision")
        sheet.add("1101", "Garcia, Ana", "2/28/2026 12:00:00 AM", "Renewed")
        let error = parseError(nil, sheet)
        #expect(error?.kind == .missingColumn)
        #expect(error?.description == "renewal detail: missing required column \"New Rent\" (found: Bldg/Unit, Name, "
            + "Lease end Date, Decision) in the header at row 7 of sheet \"Report\"")
    }
}
