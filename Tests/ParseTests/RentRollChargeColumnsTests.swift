import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// The Rent Roll Detail as sites save it to CSV: one row per unit, one column per charge code (fixtures by
// scripts/fixtures/make_rent_roll_fixtures.py; expected values worked out by hand from the units listed there).

private func parseRentRoll(_ path: String, as type: ReportType? = nil) throws -> ParseResult {
    let book = try SpreadsheetFile(path: reportFixtures + "/" + path)
    let sheet = try book.sheet(at: 0)
    var rows = try sheet.rows()
    return try parse(type, source: &rows, merges: try sheet.mergedRanges(), sheetName: sheet.name)
}

private extension ParseResult {
    var rentRollCharges: [RentRollChargeRow] {
        records.compactMap { if case .rentRollCharge(let c) = $0 { return c } else { return nil } }
    }
}

@Suite("Rent Roll with one column per charge code")
struct RentRollChargeColumnsTests {
    static let units = ["6301-001", "6301-002", "6301-003", "6301-004", "6301-005", "6302-101", "6302-102",
                        "6302-103", "6302-104", "6302-105", "6303-201", "6303-202", "6303-203", "6303-204",
                        "6304-301", "6304-302", "6304-303", "6304-304"]

    @Test("the CSV: detected by its title, one record per unit, the footer title block not a unit, TOTAL agrees")
    func csv() throws {
        let result = try parseRentRoll("rent_roll_charge_columns.csv")
        #expect(result.metadata?.reportType == .rentRoll)
        #expect(result.metadata?.propertyName == "Isola Bella Apartments", "the line above RENT ROLL DETAIL")
        #expect(result.metadata?.asOf == ymd("2017-02-03"))
        let units = result.rentRolls
        #expect(units.map(\.unitNumber) == Self.units)
        #expect(units.map(\.status) == ["Occupied", "Occupied-NTV", "Vacant", "Occupied", "Occupied-NTVL", "Occupied",
                                        "Vacant-Leased", "Occupied", "Occupied", "Model", "Occupied", "Vacant",
                                        "Occupied", "Occupied-NTV", "Occupied", "Vacant", "Occupied", "Occupied"])
        #expect(units.allSatisfy { $0.actualRent == nil }, "no Lease Rent printed: the sync sums the rent codes")
        let first = units[0]
        #expect(first.floorplan == "A1" && first.sqft == 734 && first.unitDesignation == "Residential")
        #expect(first.residentName == "Alvarez, Maria" && first.phone == "4057212194"
                && first.email == "malvarez@example.com")
        #expect(first.moveInDate == ymd("2015-06-15") && first.leaseStart == ymd("2016-06-15")
                && first.leaseEnd == ymd("2017-06-14"))
        #expect(first.marketRent == usd(1043) && first.depositsOnHand == usd(300) && first.balance == .zero
                && first.totalCharges == usd(1045, 50))
        #expect(units[1].phone == "(405) 721-2195" && units[1].email == nil)
        #expect(units[1].noticeForDate == ymd("2017-02-28") && units[1].moveOutDate == nil)
        #expect(units[4].residentName == "FAA, *", "a hidden first name is still the resident")
        #expect(units[4].balance == usd(-45) && units[4].moveOutDate == ymd("2017-02-19"))
        let vacant = units[2]
        #expect(vacant.residentName == nil && vacant.leaseStart == nil && vacant.moveInDate == nil
                && vacant.totalCharges == .zero && vacant.marketRent == usd(1125))
        #expect(units[11].balance == usd(-150))
        #expect(units.compactMap(\.marketRent).reduce(.zero, +) == usd(22787))
        #expect(units.compactMap(\.depositsOnHand).reduce(.zero, +) == usd(4450))
        #expect(units.compactMap(\.balance).reduce(.zero, +) == usd(7162, 52))

        // Each non-zero code of a unit is a charge row after it, with the amount under its code's column.
        let charges = result.rentRollCharges
        let corporate = charges.filter { $0.unitNumber == "6301-004" }
        #expect(corporate.map(\.code) == ["RENT", "CORP", "DISCOUNT", "FURN", "CABLE", "MAID"], "column order")
        #expect(corporate.map(\.amount) == [usd(1125), usd(150), usd(-100), usd(250), usd(65), usd(85)])
        #expect(corporate.allSatisfy { $0.unitRow == units[3].sourceRow && $0.leaseRent == nil })
        #expect(charges.filter { $0.unitNumber == "6303-201" }.map(\.code) == ["RENT", "WATERREIMB"],
                "MTOM 0.00 bills nothing")
        #expect(charges.filter { $0.unitNumber == "6301-003" }.isEmpty, "a vacant unit bills no code")
        #expect(charges.filter { $0.code == "RENT" }.reduce(Money.zero) { $0 + $1.amount } == usd(15729))
        for unit in units {
            let billed = charges.filter { $0.unitRow == unit.sourceRow }.reduce(Money.zero) { $0 + $1.amount }
            #expect(billed == unit.totalCharges, "unit \(unit.unitNumber): its codes make its Total Charges")
        }
        guard case .rentRoll = result.records[0], case .rentRollCharge = result.records[1] else {
            Issue.record("a unit's charge rows follow it")
            return
        }

        #expect(result.summary.warnings.isEmpty, "\(result.summary.warnings)")
        let measures = result.summary.totals.map(\.measure)
        #expect(Array(measures.prefix(4)) == ["market rent", "deposits on hand", "balance", "total charges"])
        #expect(measures.count == 4 + 20, "every code's column reconciled")
        #expect(result.summary.totals.allSatisfy { $0.label == "TOTAL" && $0.printed == $0.computed })
        #expect(result.summary.totals.first { $0.measure == "code RENT" }?.printed == 15729)
        #expect(result.summary.totals.first { $0.measure == "market rent" }?.printed == 22787)
    }

    @Test("the same cells as .xlsx (numbers) and BIFF8 .xls give the CSV's records")
    func xlsxAndXLS() throws {
        let csv = try parseRentRoll("rent_roll_charge_columns.csv")
        for path in ["rent_roll_charge_columns.xlsx", "forms/rent_roll_charge_columns.xls"] {
            let other = try parseRentRoll(path)
            #expect(other.metadata == csv.metadata, "\(path): title block")
            #expect(other.records == csv.records, "\(path): records")
            #expect(other.summary.totals == csv.summary.totals, "\(path): totals")
            #expect(other.summary.warnings.isEmpty, "\(path): \(other.summary.warnings)")
        }
    }

    @Test("Display - Market Rent, another set and order of codes and more empty columns: the same units and charges")
    func marketRentDisplay() throws {
        let addl = try parseRentRoll("rent_roll_charge_columns.csv")
        let rent = try parseRentRoll("rent_roll_charge_columns_market_rent.csv")
        #expect(rent.rentRolls.map(\.marketRent) == addl.rentRolls.map(\.marketRent))
        #expect(rent.rentRolls.map(\.unitNumber) == Self.units)
        // TERMFEE and REFERRAL bill nothing; every other code bills what it bills in the other export.
        func billed(_ result: ParseResult) -> [String: Money] {
            Dictionary(result.rentRollCharges.map { ("\($0.unitNumber) \($0.code)", $0.amount) }, uniquingKeysWith: +)
        }
        #expect(billed(rent) == billed(addl))
        #expect(rent.summary.totals.count == 4 + 22)
        #expect(rent.summary.warnings.isEmpty, "\(rent.summary.warnings)")
    }

    @Test("a tampered TOTAL warns naming the row and each column that disagrees")
    func tamperedTotal() throws {
        let result = try parseRentRoll("rent_roll_charge_columns_bad_total.csv")
        #expect(result.rentRolls.count == 18)
        #expect(result.summary.warnings == [
            "rent roll: data rows sum to \(usd(4450)) deposits on hand but \"TOTAL\" (row 26) says \(usd(4540))",
            "rent roll: data rows sum to \(usd(15729)) code RENT but \"TOTAL\" (row 26) says \(usd(15792))",
        ])
        let failing = result.summary.totals.filter { $0.printed != $0.computed }.map(\.measure)
        #expect(failing == ["deposits on hand", "code RENT"])
    }

    @Test("a cell that is not an amount fails in one line naming the row and the code's column")
    func badCell() throws {
        #expect(throws: ReportParseError.self) { try parseRentRoll("rent_roll_charge_columns_bad_cell.csv") }
        do {
            _ = try parseRentRoll("rent_roll_charge_columns_bad_cell.csv")
        } catch let error as ReportParseError {
            #expect(error.kind == .badValue && error.row == 7 && error.column == "WATERREIMB")
            #expect(error.description.hasPrefix("rent roll: sheet \"CSV\" row 7, column \"WATERREIMB\": "),
                    "\(error.description)")
            #expect(error.description.contains("38.5O") && !error.description.contains("\n"))
        }
    }

    @Test("a unit's Total Charges that its codes do not make warns naming the unit and row")
    func totalChargesPerUnit() throws {
        let title = ["Isola Bella Apartments", "RENT ROLL DETAIL", "2/3/2017 11:44:00 AM", "As of Date: 2/3/2017"]
        let header = ["Unit", "Floor Plan", "Unit Designation", "SQFT", "Unit/Lease Status", "Name", "Phone Number",
                      "Email", "Move-In", "Notice For Date", "Move-Out", "Lease Start", "Lease End", "Market Rent",
                      "Dep On Hand", "Balance", "Total Charges", "RENT".padding(toLength: 30, withPad: " ", startingAt: 0),
                      "PETFEE".padding(toLength: 30, withPad: " ", startingAt: 0)]
        var rows = title.map { [$0] } + [header]
        rows.append(["101", "A1", "Residential", "700", "Occupied", "Doe, Jane", "", "", "01/15/2016", "", "",
                     "01/15/2016", "01/14/2017", "900.00", "200.00", "0.00", "925.00", "900.00", "20.00"])
        let result = try parseGrid(rows)
        #expect(result.rentRolls.count == 1)
        #expect(result.summary.warnings == ["rent roll: unit 101 (row 6): its charge codes sum to \(usd(920)) but "
                                            + "Total Charges says \(usd(925))"])
    }

    @Test("without TOTAL, the title block repeated in the last column is still no unit")
    func footerWithoutTotal() throws {
        let title = ["Isola Bella Apartments", "RENT ROLL DETAIL", "2/3/2017 11:44:00 AM", "As of Date: 2/3/2017",
                     "Parameters: Property - ALL; Unit Designation - ALL; Subjournal - ALL; Sort By - Unit; "
                         + "Display - Market Rent"]
        let header = ["Unit", "Floor Plan", "Unit Designation", "SQFT", "Unit/Lease Status", "Name", "Phone Number",
                      "Email", "Move-In", "Notice For Date", "Move-Out", "Lease Start", "Lease End", "Market Rent",
                      "Dep On Hand", "Balance", "Total Charges", "RENT".padding(toLength: 30, withPad: " ", startingAt: 0),
                      "", ""]
        var rows = title.map { [$0] } + [header]
        rows.append(["101", "A1", "Residential", "700", "Occupied", "Doe, Jane", "(405) 721-2194", "", "01/15/2016",
                     "", "", "01/15/2016", "01/14/2017", "900.00", "200.00", "-12.50", "900.00", "900.00", "", ""])
        rows.append(["102", "A1", "Residential", "700", "Vacant", "", "", "", "", "", "", "", "", "900.00", "0.00",
                     "0.00", "0.00", "0.00", "", ""])
        rows.append(Array(repeating: "", count: header.count))
        rows += title.map { Array(repeating: "", count: header.count - 1) + [$0] }
        let result = try parseGrid(rows)
        #expect(result.rentRolls.map(\.unitNumber) == ["101", "102"])
        #expect(result.rentRolls[0].balance == usd(-12, 50) && result.rentRolls[0].phone == "(405) 721-2194")
        #expect(result.summary.warnings.isEmpty && result.summary.totals.isEmpty)
    }

    @Test("the guide's Excel variant (Resh ID, Lease ID, Move-In and Move-Out apart, Required Deposit) reads as Trans Code")
    func excelVariant() throws {
        let header = ["Unit", "Floor Plan", "Unit Designation", "SQFT", "Unit/Lease Status", "Resh ID", "Lease ID",
                      "Name", "Move-In", "Move-Out", "Lease Start", "Lease End", "Market Effective Rent", "Trans Code",
                      "Lease Rent", "Other Charges/Credits", "Total Billing", "Required Deposit", "Dep on Hand", "Balance"]
        let rows = [["RENT ROLL DETAIL (EXCEL)"], ["As of 02/03/2017"], header,
                    ["101", "A1", "Residential", "700", "Occupied NTV", "25200001", "31000001", "Doe, Jane",
                     "01/15/2016", "02/28/2017", "01/15/2016", "01/14/2017", "950.00", "RENT", "900.00", "", "900.00",
                     "300.00", "250.00", "0.00"],
                    ["", "", "", "", "", "", "", "", "", "", "", "", "", "WATER", "", "35.00", "35.00", "", "", ""],
                    ["102", "A1", "Model", "700", "Model", "", "", "", "", "", "", "", "950.00", "", "0.00", "", "",
                     "", "0.00", "0.00"]]
        let result = try parseGrid(rows)
        #expect(result.metadata?.reportType == .rentRoll)
        let units = result.rentRolls
        #expect(units.map(\.unitNumber) == ["101", "102"])
        #expect(units[0].residentID == "25200001" && units[0].actualRent == usd(900) && units[0].marketRent == usd(950))
        #expect(units[0].moveInDate == ymd("2016-01-15") && units[0].moveOutDate == ymd("2017-02-28"))
        #expect(units[0].depositsOnHand == usd(250) && units[0].unitDesignation == "Residential")
        #expect(result.rentRollCharges.map(\.code) == ["RENT", "WATER"])
        #expect(result.rentRollCharges.map(\.amount) == [usd(900), usd(35)])
    }

    @Test("the Trans Code layout's header is not taken for the charge-code one, nor the other way round")
    func layoutsApart() throws {
        let transCode = try parseFixture("rent_roll_two_row_header.xlsx")
        #expect(transCode.rentRolls.allSatisfy { $0.totalCharges == nil })
        #expect(transCode.rentRolls.first?.depositsOnHand != nil, "Dep on Hand now stored from that layout too")
        let codes = try parseRentRoll("rent_roll_charge_columns.csv")
        #expect(codes.rentRolls.allSatisfy { $0.totalCharges != nil })
    }
}

/// Parses rows of text cells (blank text is an empty cell) as a sheet named Sheet1, the report detected.
private func parseGrid(_ grid: [[String]]) throws -> ParseResult {
    let rows = grid.enumerated().map { index, cells in
        SheetRow(number: index + 1, cells: cells.map { $0.isEmpty ? CellValue.empty : .text($0) })
    }
    var source = InMemoryRows(rows)
    return try parse(nil, source: &source, merges: [], sheetName: "Sheet1")
}
