import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// Expected values are worked out by hand from AD_SOURCES in scripts/fixtures/make_report_fixtures.py.

@Suite("Primary Advertising Source Evaluation")
struct AdvertisingSourceTests {
    @Test("primary_advertising_source: six sources; merged group headers tell the two Visits columns apart")
    func sources() throws {
        let result = try parseFixture("primary_advertising_source.xlsx")
        #expect(result.metadata?.reportType == .advertisingSource)
        #expect(result.metadata?.periodStart == ymd("2026-01-01") && result.metadata?.asOf == ymd("2026-01-31"))
        let rows = result.adSources
        #expect(rows.map(\.source) == ["Apartments.com", "Zillow", "Website", "Drive-by", "Resident Referral",
                                       "Craigslist"], "the Contact Types section after Totals: is not read")
        let first = rows[0]
        #expect(first.newProspects == 14 && first.phoneCalls == 6 && first.firstVisits == 5 && first.visits == 6)
        #expect(first.returnVisits == 2 && first.applications == 4 && first.waitlist == 0)
        #expect(first.cancelledDenied == 1 && first.netLeases == 3)
        #expect(first.prospectConversionPct == 28.57 && first.visitConversionPct == 66.67, "4 of 14, 4 of 6")
        #expect(rows[2].waitlist == 1 && rows[2].netLeases == 3)
        #expect(rows[5].newProspects == 0 && rows[5].netLeases == 0, "a source with no activity is data")
        #expect(rows.compactMap(\.newProspects).reduce(0, +) == 39)
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("primary_advertising_source_mismatch: a source's net leases and the Totals: prospects do not add up")
    func mismatch() throws {
        let result = try parseFixture("primary_advertising_source_mismatch.xlsx")
        #expect(result.adSources.count == 6)
        #expect(result.summary.warnings == [
            "primary advertising source: Website (row 11): 3 lease applications + 1 waitlist - 1 cancelled/denied "
                + "= 3 but Net Leases says 4",
            "primary advertising source: data rows sum to 39 new prospects but \"Totals:\" (row 15) says 40",
        ])
    }

    @Test("New Prospects missing is the one-line error naming it")
    func missingColumn() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "PRIMARY ADVERTISING SOURCE EVALUATION")
        sheet.add("Advertising Source", "Phone Calls", "Visits", "Lease Applications")
        sheet.add("Zillow", 4, 3, 2)
        let error = parseError(nil, sheet)
        #expect(error?.kind == .missingColumn)
        #expect(error?.description == "primary advertising source: missing required column \"New Prospects\" (found: "
            + "Advertising Source, Phone Calls, Visits, Lease Applications) in the header at row 7 of sheet \"Report\"")
    }
}

@Suite("Primary Advertising Source, real export shape")
struct AdvertisingSourceRealShapeTests {
    /// The real layout (Leases, Net Leases, `*** ... Converted to Leases`), with two column headers given as `left`
    /// and `right`: swapping them puts leases under Net Leases, the shift a user would not see.
    static func sheet(leases left: String = "Leases", net right: String = "Net\nLeases") -> SheetBuilder {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "PRIMARY ADVERTISING SOURCE EVALUATION", code: "lea-231-001",
                 asOf: "01/01/2026 through 02/15/2026")
        sheet.add("\n\n\nAdvertising Source", "\n\nNew\nProspects", "\n\n\n Visits", "\n\nReturn\n Visits", left,
                  "\n\n\nWaitlist", "\n\nCancelled\n/Denied", right, "***\nProspects Converted\nto Leases",
                  "***\nVisits Converted\nto Leases")
        sheet.add("Property Website", "73", "21", "0", "7", "0", "1", "6", "8.22 %", "28.57 %")
        sheet.add("Broker", "1", "0", "0", "1", "0", "0", "1", "100.00 %", "100.00 %")
        sheet.add("Totals:", "74", "21", "0", "8", "0", "1", "7", "9.46 %", "33.33 %")
        return sheet
    }

    @Test("leases, net leases and the converted percents land under their headers; a swapped column warns")
    func shiftIsCaught() throws {
        let result = try parse(.advertisingSource, Self.sheet())
        #expect(result.summary.warnings.isEmpty, "\(result.summary.warnings)")
        let rows = result.records.compactMap { if case .advertisingSource(let row) = $0 { return row } else { return nil } }
        #expect(rows.map(\.applications) == [7, 1])
        #expect(rows.map(\.netLeases) == [6, 1])
        #expect(rows.map(\.prospectConversionPct) == [8.22, 100])
        let shifted = try parse(.advertisingSource, Self.sheet(leases: "Net\nLeases", net: "Leases"))
        #expect(shifted.summary.warnings.contains { $0.contains("Property Website") && $0.contains("wrong header") })
    }
}
