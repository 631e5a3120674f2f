import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Expected values are worked out by hand from LEASE_DETAILS in scripts/fixtures/make_report_fixtures.py.

@Suite("Lease Details (custom columns)")
struct LeaseDetailsTests {
    @Test("lease_details_export: the data-only export keyed by lease id; every known column kept, the rest NULL")
    func export() throws {
        let result = try parseFixture("lease_details_export.xlsx")
        #expect(result.metadata?.reportType == .leaseDetails, "detected by its Lease id + Lease start date header")
        #expect(result.metadata?.propertyName == nil && result.metadata?.asOf == nil)
        let rows = result.leaseDetails
        #expect(rows.map(\.leaseID) == ["9400101", "9400103", "9400105", "9400199"])
        #expect(rows.allSatisfy { $0.unitNumber == nil && $0.deposit == nil && $0.residentName == nil })
        let first = rows[0]
        #expect(first.floorplan == "A1" && first.status == "Current" && first.leaseTerm == "12")
        #expect(first.leaseStart == ymd("2025-12-06") && first.leaseEnd == ymd("2026-12-05"))
        #expect(first.moveInDate == ymd("2024-12-06") && first.appliedDate == ymd("2024-11-20"))
        #expect(first.approvedDate == ymd("2024-11-22") && first.noticeDate == nil)
        #expect(first.leaseRent == usd(1_400) && first.leaseTotal == usd(1_475) && first.balance == usd(0))
        #expect(rows[1].noticeDate == ymd("2026-01-14") && rows[1].noticeType == "Written")
        #expect(rows[1].moveOutReason == "Purchased home" && rows[1].balance == usd(1_234, 50))
        #expect(rows[2].leaseEnd == nil && rows[2].leaseTerm == "MTM", "MTM is a lease without an end date")
        #expect(rows[3].moveOutDate == ymd("2026-01-31") && rows[3].status == "Former")
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("lease_details: unit-keyed columns under a LEASE DETAILS title, Total checked")
    func report() throws {
        let result = try parseFixture("lease_details.xlsx")
        #expect(result.metadata?.reportType == .leaseDetails && result.metadata?.asOf == ymd("2026-02-08"))
        let rows = result.leaseDetails
        #expect(rows.map(\.unitNumber) == ["1101", "1103", "1105", "1207"])
        #expect(rows.allSatisfy { $0.leaseID == nil })
        #expect(rows.map(\.residentName) == ["Garcia, Ana", "Nguyen, Bao", "Hall, Ray", "Ito, Ken"])
        #expect(rows.map(\.deposit) == [usd(500), usd(500), usd(300), usd(0)])
        #expect(rows[1].status == "Notice" && rows[1].leaseRent == usd(1_498))
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("lease_details_totals_mismatch: Total prints the deposits $100 over the leases")
    func mismatch() throws {
        #expect(try parseFixture("lease_details_totals_mismatch.xlsx").summary.warnings
            == ["lease details: data rows sum to 1300.00 deposit but \"Total\" (row 12) says 1400.00"])
    }

    @Test("a unit-keyed header without the title is read as Lease Details only when asked")
    func byUnitNeedsTheType() throws {
        var sheet = SheetBuilder()
        sheet.add("Unit", "Resident", "Lease Start", "Lease End", "Lease Rent")
        sheet.add("1101", "Garcia, Ana", "12/06/2025", "12/05/2026", "1400")
        #expect(try parse(nil, sheet).metadata?.reportType == .leaseExpiration)
        let rows = try parse(.leaseDetails, sheet).leaseDetails
        #expect(rows.count == 1 && rows.first?.leaseStart == ymd("2025-12-06") && rows.first?.leaseRent == usd(1_400))
    }

    @Test("Lease Start missing is the one-line error naming it")
    func missingColumn() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "LEASE DETAILS")
        sheet.add("Bldg/Unit", "Resident", "Lease End", "Lease Rent")
        sheet.add("1101", "Garcia, Ana", "12/05/2026", "1,400.00")
        let error = parseError(nil, sheet)
        #expect(error?.kind == .missingColumn)
        #expect(error?.description == "lease details: missing required column \"Lease Start\" (found: Bldg/Unit, "
            + "Resident, Lease End, Lease Rent) in the header at row 7 of sheet \"Report\"")
    }
}
