import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

// End to end: the committed .xlsx fixtures (scripts/fixtures/make_report_fixtures.py) read through
// XLSXKit's streaming Workbook, then parsed. Expected values are worked out by hand from the data in
// that script, not from a previous run.

let reportFixtures: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(2)
    return parts.joined(separator: "/") + "/Fixtures/reports"
}()

func parseFixture(_ name: String, as type: ReportType? = nil) throws -> ParseResult {
    let book = try Workbook(path: reportFixtures + "/" + name)
    let sheet = try book.worksheet(at: 0)
    var rows = try sheet.rows()
    return try parse(type, source: &rows, merges: try sheet.mergedRanges(), sheetName: sheet.name)
}

func fixtureError(_ name: String, as type: ReportType? = nil) -> ReportParseError? {
    do {
        _ = try parseFixture(name, as: type)
        return nil
    } catch let error as ReportParseError {
        return error
    } catch {
        return ReportParseError(.badValue, report: nil, sheet: "?", detail: "unexpected error \(error)")
    }
}

@Suite("Report fixtures through Workbook")
struct FixtureTests {
    @Test("box_score_nexus_east: 5 floorplans summing to 352 units, 17 vacant, 335 occupied")
    func boxScore() throws {
        let result = try parseFixture("box_score_nexus_east.xlsx")
        #expect(result.metadata?.reportType == .boxScore)
        #expect(result.metadata?.propertyName == "Nexus East")
        #expect(result.metadata?.asOf == ymd("2026-02-08") && result.metadata?.periodStart == ymd("2026-02-01"))
        let rows = result.boxScores
        #expect(rows.map(\.floorplan) == ["S1", "A1", "A2", "B1", "B2"])
        #expect(rows.map(\.floorplanGroup) == ["Studio", "1x1", "1x1", "2x2", "2x2"])
        #expect(rows.map(\.totalUnits).reduce(0, +) == 352)
        #expect(rows.map(\.vacantUnits).reduce(0, +) == 17)
        #expect(rows.map(\.occupiedUnits).reduce(0, +) == 335)
        #expect(rows.map(\.vacantLeased).reduce(0, +) == 6)
        let a1 = rows[1]
        #expect(a1.occupancyPct == 93.75, "90 of 96 occupied")
        #expect(a1.leasedPct == 91.67, "(2 vacant leased + 84 no NTV + 2 NTV-L) / 96, printed 91.67%")
        #expect(a1.avgMarketRent == usd(1450) && a1.avgActualRent == usd(1412, 25) && a1.avgSqft == 715)
        #expect(a1.occupiedOnNotice == 6 && a1.noticeLeased == 2 && a1.modelUnits == 1)
        #expect(rows[4].avgActualRent == usd(2099, 99))
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("box_score_totals_mismatch: rows sum to 350 units, Property Totals says 352")
    func boxScoreMismatch() throws {
        let result = try parseFixture("box_score_totals_mismatch.xlsx")
        #expect(result.boxScores.count == 5)
        #expect(result.summary.warnings
            == ["box score: data rows sum to 350 units but \"Property Totals\" (row 22) says 352"])
    }

    @Test("rent_roll_two_row_header: 8 units; trans codes, applicants, formers, page break, summary handled")
    func rentRoll() throws {
        let result = try parseFixture("rent_roll_two_row_header.xlsx")
        #expect(result.metadata?.reportType == .rentRoll && result.metadata?.asOf == ymd("2026-02-08"))
        let units = result.rentRolls
        #expect(units.map(\.unitNumber) == ["1101", "1102", "1103", "1203", "2101", "2102", "2201", "2202"])
        #expect(units.map(\.actualRent) == [usd(1425), .zero, usd(1498), usd(1480), .zero, usd(1850, 75), nil,
                                            usd(2099, 99)])
        #expect(units.map(\.status) == ["Occupied no NTV", "Vacant", "Occupied NTV", "Occupied no NTV",
                                        "Vacant Leased", "Occupied NTV Leased", "Down", "Occupied no NTV"])
        let nguyen = units[2]
        #expect(nguyen.balance == usd(1234, 50) && nguyen.residentName == "Nguyen, Bao")
        #expect(nguyen.moveInDate == ymd("2023-04-18") && nguyen.moveOutDate == ymd("2026-03-15"))
        #expect(units[3].balance == usd(-125) && units[3].residentName == "Smith, Jordan")
        #expect(units.compactMap(\.marketRent).reduce(.zero, +) == usd(14061))
        #expect(units.compactMap(\.balance).reduce(.zero, +) == usd(2159, 50))
        #expect(units[0].leaseEnd == ymd("2026-12-05") && units[0].sqft == 715 && units[0].floorplan == "A1")
        #expect(result.summary.warnings.isEmpty, "the Totals: row agrees with the units")
    }

    @Test("rent_roll_missing_column: a clear error naming Lease Rent")
    func rentRollMissingColumn() {
        #expect(fixtureError("rent_roll_missing_column.xlsx")?.description
            == "rent roll: missing required column \"Lease Rent\" (found: Unit, Floor Plan, SQFT, Unit/Lease Status, "
            + "Name, Market + Addl., Trans Code, Balance) in the header at row 6 of sheet \"Report\"")
    }

    @Test("delinquent_prepaid_per_code: 5 accounts folded from their code rows")
    func delinquentPrepaid() throws {
        let result = try parseFixture("delinquent_prepaid_per_code.xlsx")
        #expect(result.metadata?.asOf == ymd("2026-01-29"))
        let rows = result.delinquencies
        #expect(rows.map(\.unitNumber) == ["1103", "1203", "2202", "3105", "1205"])
        #expect(rows.map(\.currentBalance) == [usd(1234, 50), usd(-125), usd(1050), usd(2620, 25), usd(1350)])
        #expect(rows.map(\.prepaid) == [.zero, usd(125), .zero, .zero, usd(50)])
        #expect(rows[2].balance0to30 == usd(350) && rows[2].balance31to60 == usd(700))
        #expect(rows[3].balance61to90 == usd(45, 25) && rows[3].balanceOver90 == usd(2575))
        #expect(rows[0].residentName == "Nguyen, Bao" && rows[3].residentStatus == "Former resident")
        // Phone and e-mail stacked under the name are the account's.
        #expect(rows[0].phone == "(512) 555-0103" && rows[0].email == "bao.nguyen@example.com")
        #expect(rows[1].phone == "(512) 555-0104" && rows[1].email == nil)
        #expect(rows[2].phone == nil && rows[2].email == "mei.chen@example.com")
        #expect(result.summary.warnings.isEmpty)

        // Each account's code rows are kept as its children, right after it, and add up to it.
        let codes = result.records.compactMap { if case .delinquencyCode(let c) = $0 { return c } else { return nil } }
        let first = codes.filter { $0.unitNumber == "1103" }
        #expect(first.map(\.code) == ["RENT", "LATEFEE"])
        #expect(first.map(\.description) == ["Rent", "Late fee"])
        #expect(first.map(\.delinquent) == [usd(1184, 50), usd(50)])
        #expect(first.allSatisfy { $0.accountRow == rows[0].sourceRow })
        #expect(codes.first { $0.unitNumber == "1203" }?.prepaid == usd(125), "prepaid kept positive per code too")
        for account in rows {
            let children = codes.filter { $0.accountRow == account.sourceRow }
            #expect(!children.isEmpty, "account \(account.unitNumber) has its code rows")
            let delinquent = children.reduce(Money.zero) { $0 + $1.delinquent }
            let prepaid = children.reduce(Money.zero) { $0 + $1.prepaid }
            #expect(delinquent - prepaid == account.currentBalance, "account \(account.unitNumber) = its codes")
        }
        guard case .delinquency = result.records[0], case .delinquencyCode = result.records[1] else {
            Issue.record("the account comes first, then its codes"); return
        }
    }

    @Test("delinquency_simple: 4 residents, balances total 4,779.75")
    func delinquencySimple() throws {
        let rows = try parseFixture("delinquency_simple.xlsx").delinquencies
        #expect(rows.map(\.unitNumber) == ["1103", "1203", "2202", "3105"])
        #expect(rows.map(\.currentBalance).reduce(.zero, +) == usd(4779, 75))
        #expect(rows[1].prepaid == usd(125), "printed 125.00- (trailing minus)")
        #expect(rows[3].balanceOver90 == usd(2575) && rows[3].residentID == "t0009001")
    }

    @Test("delinquency_text_money_all_zero_bug: amounts far from every header are refused, not read as zero")
    func moneyAllZero() {
        let error = fixtureError("delinquency_text_money_all_zero_bug.xlsx")
        #expect(error?.kind == .moneyAllZero)
        #expect(error?.description == "delinquency: every money column parsed as zero or blank, yet row 7 column Q "
            + "holds \"$1,234.50\" under no known header (header and values misaligned?) (sheet \"Delinquency\")")
    }

    @Test("activity_report: 7 activities in January 2026, follow-ups not included")
    func activity() throws {
        let result = try parseFixture("activity_report.xlsx")
        #expect(result.metadata?.periodStart == ymd("2026-01-01") && result.metadata?.asOf == ymd("2026-01-31"))
        let rows = result.activities
        #expect(rows.map(\.activityType) == ["Phone call", "Visit", "E-mail", "Online Leasing Agreement",
                                             "Text message", "Visit (return)", "Leased"])
        #expect(rows.map(\.activityDate.iso) == ["2026-01-03", "2026-01-05", "2026-01-09", "2026-01-12",
                                                 "2026-01-07", "2026-01-15", "2026-01-28"])
        #expect(rows[6].unitNumber == "2101" && rows[6].agent == "Kim, Alex" && rows[6].source == "Website")
        #expect(rows[0].partyName == "Alvarez, Rosa" && rows[0].unitNumber == nil)
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("monthly_activity_summary: January 2026, 12 in, 9 out, 11 renewals, 3 notices")
    func monthly() throws {
        let result = try parseFixture("monthly_activity_summary.xlsx")
        let row = try #require(result.summaries.first)
        #expect(result.summaries.count == 1)
        #expect(row.month == "2026-01" && row.moveIns == 12 && row.moveOuts == 9 && row.renewals == 11)
        #expect(row.notices == 3 && row.evictions == nil && row.skips == nil)
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("lease_expiration_month_groups: 10 leases in MTM, February and March; 2 marked Do Not Renew")
    func leaseExpiration() throws {
        let result = try parseFixture("lease_expiration_month_groups.xlsx")
        let rows = result.leases
        #expect(rows.map(\.unitNumber) == ["1105", "1207", "2105", "1101", "1103", "2102", "2204", "1203", "1301",
                                           "2202"])
        #expect(rows.filter { $0.renewalStatus == "Do Not Renew" }.map(\.unitNumber) == ["2105", "1103"])
        #expect(rows[4].leaseEnd == ymd("2026-02-14") && rows[4].currentRent == usd(1498))
        #expect(rows[4].marketRent == usd(1535, 50) && rows[4].residentName == "Nguyen, Bao")
        // The `Phone/email` continuation rows are folded into the lease above them.
        #expect(rows.filter { $0.phone != nil || $0.email != nil }.map(\.unitNumber) == ["1105", "2105", "1101"])
        #expect(rows[0].phone == "(512) 555-0150" && rows[0].email == nil)
        #expect(rows[2].email == "ann.ross@example.com" && rows[2].phone == nil)
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("unknown_layout: refused with the reason")
    func unknown() {
        #expect(fixtureError("unknown_layout.xlsx")?.description
            == "unknown layout: no OneSite report title (BOXSCORE, RENT ROLL, DELINQUENT AND PREPAID, ...) and no "
            + "known header row in the first 8 rows of sheet \"Report\"")
    }
}
