import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

@Suite("Box Score")
struct BoxScoreParserTests {
    /// Title, a two-row header with "Vacant"/"Occupied" merged over their sub-columns, two groups, totals, next section.
    func sheet(propertyUnits: Int = 150) -> (SheetBuilder, [MergedRange]) {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "BOXSCORE", code: "120.080.305", asOf: "02/01/2026 - 02/08/2026")
        let top = sheet.add(nil, nil, nil, "Vacant", nil, nil, nil, nil, "Occupied")
        sheet.add("Floor Plan\nGroup", "Floor Plan", "Units", "Total\nVacant", "Not\nLeased", "Leased", "Model/\nAdmin",
                  "Down", "Total\nOccupied", "No NTV", "NTV-NL", "NTV-L", "Occupancy\nPercent", "Avg Market\nRent",
                  "Avg Leased\nRent")
        sheet.add("1x1")
        sheet.add(nil, "A1", 100, 6, 3, 2, 1, 0, 94, 90, 3, 1, "94.00", 1450.0, "$1,412.25")
        sheet.add("Total", nil, 100, 6, 3, 2, 1, 0, 94, 90, 3, 1, "94.00")
        sheet.add("2x2")
        sheet.add(nil, "B1", 50, 2, 1, 1, 0, 0, 48, 46, 0, 2, "96.00%", "1,895.00", "(0.00)")
        sheet.add("Total", nil, 50, 2, 1, 1, 0, 0, 48, 46, 0, 2, "96.00")
        sheet.add("Property Totals", nil, propertyUnits, 8, 4, 3, 1, 0, 142, 136, 3, 3, "94.67")
        sheet.skip()
        sheet.add("Availability/Exposure")
        sheet.add(nil, "Number", "%")
        sheet.add("Total Vacant Units", 8, "5.33")
        let merges = [MergedRange(firstRow: top, firstColumn: 3, lastRow: top, lastColumn: 7),
                      MergedRange(firstRow: top, firstColumn: 8, lastRow: top, lastColumn: 11)]
        return (sheet, merges)
    }

    @Test("floorplan rows with their group; merged Vacant/Occupied headers map Leased and NTV-L apart")
    func floorplans() throws {
        let (sheet, merges) = sheet()
        let result = try parse(.boxScore, sheet, merges: merges)
        #expect(result.boxScores.map(\.floorplan) == ["A1", "B1"])
        #expect(result.boxScores.map(\.floorplanGroup) == ["1x1", "2x2"])
        let a1 = try #require(result.boxScores.first)
        #expect(a1.totalUnits == 100 && a1.vacantUnits == 6 && a1.vacantNotLeased == 3 && a1.vacantLeased == 2)
        #expect(a1.modelUnits == 1 && a1.downUnits == 0 && a1.occupiedUnits == 94 && a1.occupiedNoNotice == 90)
        #expect(a1.occupiedOnNotice == 4, "NTV-NL 3 + NTV-L 1")
        #expect(a1.noticeLeased == 1)
        #expect(a1.occupancyPct == 94.0)
        #expect(a1.avgMarketRent == usd(1450) && a1.avgActualRent == usd(1412, 25))
        #expect(result.boxScores.last?.occupancyPct == 96.0)
        #expect(result.summary.warnings.isEmpty)
        #expect(result.metadata?.propertyName == "Nexus East")
        #expect(result.metadata?.asOf == ymd("2026-02-08"))
        #expect(result.metadata?.periodStart == ymd("2026-02-01"))
    }

    @Test("the Availability section after Property Totals is not read as floorplans")
    func stopsAtNextSection() throws {
        let (sheet, merges) = sheet()
        #expect(try parse(.boxScore, sheet, merges: merges).recordCount == 2)
    }

    @Test("a Property Totals row that disagrees with the floorplans is a warning")
    func totalsMismatch() throws {
        let (sheet, merges) = sheet(propertyUnits: 152)
        let result = try parse(.boxScore, sheet, merges: merges)
        #expect(result.summary.warnings == [
            "box score: data rows sum to 150 units but \"Property Totals\" (row 16) says 152",
        ])
    }

    @Test("single-row header with synonyms (Floorplan, Total Units, Vacant Leased, NTV Leased, ...)")
    func synonyms() throws {
        var sheet = SheetBuilder()
        sheet.add("BOXSCORE")
        sheet.add("Floorplan", "Total Units", "Total Vacant", "Vacant Leased", "Model/Admin", "Vacant Down",
                  "Total Occupied", "NTV Not Leased", "NTV Leased", "Occupancy %", "Average Market Rent")
        sheet.add("S1", "48", "3", "1", "0", "0", "45", "2", "1", "93.75", "$1,295.00")
        let row = try #require(try parse(nil, sheet).boxScores.first)
        #expect(row.floorplan == "S1" && row.totalUnits == 48 && row.vacantLeased == 1 && row.occupiedOnNotice == 3)
        #expect(row.noticeLeased == 1 && row.avgMarketRent == usd(1295) && row.vacantNotLeased == nil)
    }
}

extension ParseResult {
    var recordCount: Int { summary.recordCount }
}

@Suite("Rent Roll")
struct RentRollParserTests {
    func sheet(totalBalance: String = "$1,109.50") -> SheetBuilder {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "RENT ROLL DETAIL")
        let header: [Any?] = [nil, "Floor", nil, "Unit/Lease", nil, "Move-In/", "Lease", "Lease", "Market", "Trans",
                              "Lease", "Other Charges/", "Dep on", nil]
        let header2: [Any?] = ["Unit", "Plan", "SQFT", "Status", "Name", "Move-Out", "Start", "End", "+ Addl.", "Code",
                               "Rent", "Credits", "Hand", "Balance"]
        sheet.addRow(header)
        sheet.addRow(header2)
        sheet.add("1101", "A1", 715, "Occupied no NTV", "Garcia, Ana", "12/06/2024", "12/06/2025", "12/05/2026",
                  1450.0, "RENT", "1,400.00", nil, 500.0, "$0.00")
        sheet.add(nil, nil, nil, nil, nil, nil, nil, nil, nil, "PETRENT", "25.00")
        sheet.add(nil, nil, nil, nil, nil, nil, nil, nil, nil, "PARKING", nil, "50.00")
        sheet.add("1103", "A2", 780, "Occupied NTV", "Nguyen, Bao\n(512) 555-0103", "04/18/2023\n03/15/2026",
                  "04/18/2025", "04/17/2026", 1535.5, "RENT", "1,498.00", nil, 500.0, "$1,234.50")
        sheet.add(nil, nil, nil, "Applicant", "Patel, Riya", nil, "03/20/2026", "03/19/2027", nil, "RENT",
                  "*1,535.50", nil, nil, "*0.00")
        sheet.add(nil, nil, nil, nil, nil, nil, nil, nil, nil, "PARKING", nil, "*50.00")
        // Page break: the title lines and the header repeat.
        sheet.add("OneSite Rents v3.0", nil, nil, nil, "Page 2 of 2")
        sheet.add("Kairoi Residential - Nexus East", nil, nil, nil, "02/09/2026 06:58:21AM")
        sheet.add("RENT ROLL DETAIL")
        sheet.addRow(header)
        sheet.addRow(header2)
        sheet.add("1102", "A1", 715, "Vacant", nil, nil, nil, nil, 1450.0, nil, "0.00")
        sheet.add("1203", "A2", 780, "Occupied no NTV", "Smith, Jordan", "06/01/2025", "06/01/2025", "05/31/2026",
                  1535.5, "RENT", "1,480.00", nil, 750.0, "(125.00)")
        sheet.add("1203", nil, nil, "Former resident", "Lee, Chris", "06/01/2021\n04/01/2023", nil, nil, nil, "RENT",
                  "*1,300.00", nil, nil, "*310.00")
        sheet.add("Totals:", nil, nil, nil, nil, nil, nil, nil, 5971.0, nil, "4,403.00", nil, nil, totalBalance)
        sheet.skip()
        sheet.add("Rent Analysis by Floor Plan")
        sheet.add("Floor Plan", "# Units", "Average Market + Addl.")
        sheet.add("A1", 2, "1,450.00")
        return sheet
    }

    @Test("one row per unit: the current lease; Trans Code rows add to its rent; applicants and formers skipped")
    func units() throws {
        let result = try parse(.rentRoll, sheet())
        #expect(result.rentRolls.map(\.unitNumber) == ["1101", "1103", "1102", "1203"])
        let garcia = try #require(result.rentRolls.first)
        #expect(garcia.actualRent == usd(1425), "RENT 1,400.00 + PETRENT 25.00; PARKING is an other charge")
        #expect(garcia.marketRent == usd(1450) && garcia.balance == .zero && garcia.sqft == 715)
        #expect(garcia.status == "Occupied no NTV" && garcia.floorplan == "A1" && garcia.residentName == "Garcia, Ana")
        #expect(garcia.moveInDate == ymd("2024-12-06") && garcia.moveOutDate == nil)
        #expect(garcia.leaseStart == ymd("2025-12-06") && garcia.leaseEnd == ymd("2026-12-05"))
        let nguyen = result.rentRolls[1]
        #expect(nguyen.actualRent == usd(1498), "the applicant's *1,535.50 and *50.00 are not Nguyen's")
        #expect(nguyen.residentName == "Nguyen, Bao")
        #expect(nguyen.moveInDate == ymd("2023-04-18") && nguyen.moveOutDate == ymd("2026-03-15"))
        #expect(nguyen.balance == usd(1234, 50))
        #expect(result.rentRolls[2].status == "Vacant" && result.rentRolls[2].actualRent == .zero)
        #expect(result.rentRolls[3].balance == usd(-125), "(125.00) is a credit")
        #expect(result.rentRolls[3].residentName == "Smith, Jordan", "the former resident on the repeated unit is skipped")
    }

    @Test("each Trans Code of the current lease is kept after its unit: code, Lease Rent, Other Charges/Credits")
    func transactionCodes() throws {
        let result = try parse(.rentRoll, sheet())
        let charges = result.records.compactMap { if case .rentRollCharge(let c) = $0 { return c } else { return nil } }
        #expect(charges.map { "\($0.unitNumber) \($0.code) \($0.amount.description)" }
                == ["1101 RENT 1400.00", "1101 PETRENT 25.00", "1101 PARKING 50.00", "1103 RENT 1498.00", "1203 RENT 1480.00"],
                "the applicant's and the former resident's codes are not the unit's; a vacant unit has none")
        #expect(charges[2].leaseRent == nil && charges[2].otherCharges == usd(50))
        let garcia = try #require(result.rentRolls.first)
        #expect(charges.prefix(3).allSatisfy { $0.unitRow == garcia.sourceRow })
        #expect(charges[0].sourceRow == garcia.sourceRow && charges[1].sourceRow == garcia.sourceRow + 1)
        // Each unit's codes follow its record (the loader's order: the parent first).
        let kinds = result.records.map { record -> String in
            switch record {
            case .rentRoll(let r): return "unit \(r.unitNumber)"
            case .rentRollCharge(let c): return c.code
            default: return "?"
            }
        }
        #expect(kinds == ["unit 1101", "RENT", "PETRENT", "PARKING", "unit 1103", "RENT", "unit 1102", "unit 1203", "RENT"])
    }

    @Test("Totals that add up give no warning; a balance total that does not is named")
    func totals() throws {
        #expect(try parse(.rentRoll, sheet()).summary.warnings.isEmpty)
        let warnings = try parse(.rentRoll, sheet(totalBalance: "$1,209.50")).summary.warnings
        #expect(warnings == ["rent roll: data rows sum to 1109.50 balance but \"Totals:\" (row 23) says 1209.50"])
    }

    @Test("a month-to-month lease (Lease End \"MTM\") has no end date instead of failing the report")
    func monthToMonth() throws {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "RENT ROLL DETAIL")
        sheet.add("Unit", "Floor Plan", "SQFT", "Unit/Lease Status", "Name", "Move-In", "Lease Start", "Lease End",
                  "Market Rent", "Lease Rent", "Balance")
        sheet.add("2201", "B1", 1015, "Occupied no NTV", "Ortiz, Sam", "01/15/2022", "01/15/2024", "MTM",
                  1650.0, "1,700.00", "0.00")
        let unit = try #require(try parse(.rentRoll, sheet).rentRolls.first)
        #expect(unit.leaseEnd == nil)
        #expect(unit.leaseStart == ymd("2024-01-15") && unit.actualRent == usd(1700))
    }

    @Test("Totals: after the last building's total is held against every unit, not the emptied section")
    func totalsAfterBuildingTotals() throws {
        func sheet(grandMarket: String) -> SheetBuilder {
            var sheet = SheetBuilder()
            addTitle(&sheet, title: "RENT ROLL DETAIL")
            sheet.add("Unit", "Floor Plan", "SQFT", "Unit/Lease Status", "Name", "Move-In", "Lease Start", "Lease End",
                      "Market Rent", "Lease Rent", "Balance")
            sheet.add("Building 1")
            sheet.add("1101", "A1", 700, "Occupied no NTV", "Lee, Ann", "01/15/2022", "01/15/2025", "01/14/2026",
                      1400.0, "1,450.00", "0.00")
            sheet.add("Total Building 1", nil, nil, nil, nil, nil, nil, nil, "1,400.00", "1,450.00", "0.00")
            sheet.add("Building 2")
            sheet.add("2201", "B1", 1015, "Occupied no NTV", "Ortiz, Sam", "01/15/2022", "01/15/2025", "01/14/2026",
                      1650.0, "1,700.00", "25.00")
            sheet.add("Total Building 2", nil, nil, nil, nil, nil, nil, nil, "1,650.00", "1,700.00", "25.00")
            sheet.add("Totals:", nil, nil, nil, nil, nil, nil, nil, grandMarket, "3,150.00", "25.00")
            return sheet
        }
        let good = try parse(.rentRoll, sheet(grandMarket: "3,050.00"))
        #expect(good.rentRolls.count == 2)
        #expect(good.summary.warnings.isEmpty, "\(good.summary.warnings)")
        let bad = try parse(.rentRoll, sheet(grandMarket: "3,000.00"))
        #expect(bad.summary.warnings == ["rent roll: data rows sum to 3050.00 market rent but \"Totals:\" (row 14) says 3000.00"])
    }

    @Test("the summary sections after the detail are not units")
    func stopsAtSummary() throws {
        #expect(try parse(.rentRoll, sheet()).rentRolls.contains { $0.unitNumber == "A1" } == false)
    }
}


/// A parse without the sheet's merged cells (an .xlsx lists them after its rows) and the check that tells whether
/// they would have changed the header (ReportFileLoader parses again when they would, or when the parse failed).
@Suite("Header check against merged cells read after the rows")
struct HeaderCheckTests {
    @Test("without its merged Vacant/Occupied group headers the box score's header is incomplete")
    func withoutTheMergesTheParseFails() throws {
        let (sheet, merges) = BoxScoreParserTests().sheet()
        #expect(parseError(.boxScore, sheet)?.kind == .missingColumn)
        #expect(parseError(.boxScore, sheet, merges: merges) == nil)
    }

    @Test("other merged cells in the header rows change the header; the same ones do not")
    func otherMergesInTheHeaderChangeIt() throws {
        let (sheet, merges) = BoxScoreParserTests().sheet()
        let check = try #require(try parse(.boxScore, sheet, merges: merges).summary.headerCheck)
        #expect(check.holds(for: merges))
        #expect(!check.holds(for: [merges[1]]), "Leased no longer under a Vacant spanning it: no Vacant Leased column")
    }

    @Test("merged cells in the title or below the searched rows do not change it")
    func titleAndDataMergesDoNot() throws {
        let (sheet, merges) = BoxScoreParserTests().sheet()
        let check = try #require(try parse(.boxScore, sheet, merges: merges).summary.headerCheck)
        #expect(check.holds(for: merges + [MergedRange(firstRow: 1, firstColumn: 0, lastRow: 1, lastColumn: 5)]), "the title line")
        #expect(check.holds(for: merges + [MergedRange(firstRow: 200, firstColumn: 0, lastRow: 201, lastColumn: 3)]),
                "past the searched rows")
    }
}
