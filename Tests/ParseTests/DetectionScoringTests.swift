import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

/// Detection scores every report type against a sheet and refuses when none or two fit equally
/// (`RealPageReports.detection`), rather than taking the first header that completes.
@Suite("Detection: every candidate scored, a tie refused")
struct DetectionScoringTests {
    /// A Rent Roll copied out of its export without the title block, its header over two rows where a name wraps
    /// (`Unit/Lease` over `Status`, `Trans` over `Code`): the first row alone is already a complete Lease Expiration
    /// header (Unit, Lease End and seven more), one row above the first complete Rent Roll header (twelve columns).
    static func twoRowRentRoll() -> SheetBuilder {
        var sheet = SheetBuilder()
        sheet.add("Unit", "Floor Plan", "SQFT", "Unit/Lease", "Name", "Move-In", "Lease Start", "Lease End",
                  "Market Rent", "Trans", "Lease Rent", "Balance")
        sheet.add(nil, nil, nil, "Status", nil, nil, nil, nil, nil, "Code", nil, nil)
        sheet.add("1101", "A1", 715, "Occupied no NTV", "Garcia, Ana", "12/06/2024", "12/06/2025", "12/05/2026",
                  1450.0, "RENT", "1,400.00", "$0.00")
        sheet.add("1102", "A1", 715, "Vacant", nil, nil, nil, nil, 1450.0, nil, "0.00", nil)
        sheet.add("1103", "A2", 780, "Occupied NTV", "Nguyen, Bao", "04/18/2023", "04/18/2025", "04/17/2026",
                  1535.5, "RENT", "1,498.00", "$1,234.50")
        return sheet
    }

    @Test("a Rent Roll whose header spans two rows is a Rent Roll, not the Lease Expiration its first row fits")
    func twoRowRentRoll() throws {
        let sheet = Self.twoRowRentRoll()
        let blocks = HeaderBlocks(rows: sheet.rows, merges: [])
        // What made it a Lease Expiration: that header completes a row earlier.
        guard case .found(_, _, let leaseEnd) = HeaderFinder.find(LeaseExpirationParser.layouts, in: blocks),
              case .found(_, _, let rentRollEnd) = HeaderFinder.find(RentRollParser.layouts, in: blocks) else {
            Issue.record("both layouts should find a header")
            return
        }
        #expect(leaseEnd < rentRollEnd)
        #expect(RealPageReports.detect(rows: sheet.rows) == .rentRoll)
        let result = try parse(nil, sheet)
        #expect(result.rentRolls.map(\.unitNumber) == ["1101", "1102", "1103"])
    }

    @Test("a header two reports fit equally is refused in one line naming both")
    func tieRefused() {
        var sheet = SheetBuilder()
        // Lease Expiration: Unit, Term, Lease End, Decision; Renewal Detail: Unit, Lease End, Decision, New Rent.
        sheet.add("Unit", "Term", "Lease End", "Decision", "New Rent")
        sheet.add("1101", "12", "12/05/2026", "Renewed", "1,450.00")
        #expect(RealPageReports.detect(rows: sheet.rows) == nil)
        let error = parseError(nil, sheet)
        #expect(error?.kind == .ambiguousLayout)
        #expect(error?.description == "cannot tell which report this is: no title or report code, and the header at "
            + "rows 1-1 fits lease expiration (4 columns) and renewal detail (4 columns) equally; name it with "
            + "--report of sheet \"Report\"")
    }

    @Test("a title and a report code naming two reports are refused, not resolved by the code")
    func titleAndCodeDisagree() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "BOXSCORE", code: "120.080.106")
        sheet.add("Unit", "Name", "Status", "Code/Description", "Total Prepaid", "Total Delinquent", "Current",
                  "30 Days", "60 Days", "90+ Days")
        let error = parseError(nil, sheet)
        #expect(error?.kind == .ambiguousLayout)
        #expect(error?.description.contains("the code \"120.080.106\" names delinquency but the title \"BOXSCORE\" "
            + "names box score") == true, "\(error?.description ?? "")")
    }

    @Test("a title still decides over a header another report fits better")
    func titleDecides() {
        var sheet = Self.twoRowRentRoll()
        var titled = SheetBuilder()
        addTitle(&titled, title: "LEASE EXPIRATION DETAIL")
        for row in sheet.rows { titled.addRow(row.cells.map { $0 as Any? }) }
        sheet = titled
        #expect(RealPageReports.detect(rows: sheet.rows) == .leaseExpiration)
    }
}

/// A parse that keeps fewer than half the data rows under its header says so (`KeptRows`), naming kept and seen.
@Suite("Kept rows: far fewer records than data rows is a warning")
struct KeptRowsTests {
    /// Renewal Detail rows; `unitless` of them print their amounts without a unit (as a sheet whose Unit column
    /// was moved or emptied does), which the parser cannot key and skips.
    static func renewals(withUnit: Int, unitless: Int) -> SheetBuilder {
        var sheet = SheetBuilder()
        sheet.add("Bldg/Unit", "FloorPlan", "Name", "Actual rent", "Market Rent", "Lease end Date", "Decision",
                  "New Rent")
        for index in 0..<(withUnit + unitless) {
            sheet.add(index < withUnit ? "11\(index)" : nil, "A1", "Resident \(index)", "1,400.00", "1,450.00",
                      "3/31/2026 12:00:00 AM", "Unknown", "0.00")
        }
        return sheet
    }

    @Test("2 of 8 data rows kept: warned with both counts; 7 of 8 kept: no warning")
    func farFewer() throws {
        let few = try parse(.renewalDetail, Self.renewals(withUnit: 2, unitless: 6))
        #expect(few.records.count == 2)
        #expect(few.summary.warnings == ["renewal detail: kept 2 records from the 8 data rows under its header (fewer "
            + "than half): rows of a shape the parser does not read were skipped; check the file's layout"])
        let most = try parse(.renewalDetail, Self.renewals(withUnit: 7, unitless: 1))
        #expect(most.summary.warnings.isEmpty, "\(most.summary.warnings)")
    }
}
