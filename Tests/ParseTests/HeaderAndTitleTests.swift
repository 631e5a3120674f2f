import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

@Suite("Header finding, title block, detection, errors")
struct HeaderAndTitleTests {
    @Test("header names compare without case, spacing, hyphenation or line breaks")
    func headerKeys() {
        #expect(HeaderText.key("Move-\nins") == HeaderText.key("Move-ins"))
        #expect(HeaderText.key("Move-ins") == HeaderText.key("Move-Ins"))
        #expect(HeaderText.key("Vacant Admini-\nstrative") == HeaderText.key("Vacant Administrative"))
        #expect(HeaderText.key("Avg. Market\nRent") == HeaderText.key("avg market rent"))
        #expect(HeaderText.key("NTV-L") != HeaderText.key("NTV-NL"))
        #expect(HeaderText.display("Move-\nins") == "Move-ins")
        #expect(HeaderText.display("Total\nBase Rent") == "Total Base Rent")
    }

    @Test("a column is found by name, also among names that share their length and first and last bytes")
    func spanLookup() {
        // The lookup indexes by length and the first two and last two bytes: these three collide on all of them.
        let spans: [String: ClosedRange<Int>] = ["ab_x_yz": 1...1, "ab_q_yz": 2...3, "ab_r_yz": 4...4, "Unit": 0...0,
                                                 "Unit/Lease Status": 7...9, "": 5...5]
        let lookup = SpanLookup(spans)
        for (name, span) in spans { #expect(lookup[name] == span, "\(name)") }
        for absent in ["ab_s_yz", "Units", "unit", "Unit/Lease Statu", "Market Rent"] { #expect(lookup[absent] == nil, "\(absent)") }
        // A name built at run time (not the literal) is found by its text.
        #expect(lookup[String(["ab", "q", "yz"].joined(separator: "_"))] == 2...3)
        #expect(SpanLookup([:])["Unit"] == nil)
    }

    @Test("title block: property after the last ' - ', As of date; timestamp, page and code ignored")
    func titleBlock() {
        var sheet = SheetBuilder()
        sheet.add("OneSite Rents v3.0", nil, "Page 1 of 3")
        sheet.add("02/09/2026 06:58:21AM")
        sheet.add("Kairoi Residential - Phase II - Nexus East")
        sheet.add("BOXSCORE")
        sheet.add("120.080.305")
        sheet.add("Parameters:\nStart_Date: 01/01/2025\nEnd_Date: 01/31/2025")
        sheet.add("As of 02/08/2026")
        let title = TitleBlock(rows: sheet.rows)
        #expect(title.propertyName == "Nexus East")
        #expect(title.asOf == ymd("2026-02-08"))
        // The Parameters cell's start date is the period's start when the printed lines give none.
        #expect(title.periodStart == ymd("2025-01-01"))
        #expect(title.title == "BOXSCORE")
        #expect(title.reportCode == "120.080.305")
        #expect(title.reportType == .boxScore)
    }

    @Test("as-of from a fiscal-period line, a date range, or Start/End Date cells")
    func asOfForms() {
        var fiscal = SheetBuilder()
        fiscal.add("Fiscal Period 022026 As of 01/29/2026")
        #expect(TitleBlock(rows: fiscal.rows).asOf == ymd("2026-01-29"))

        var range = SheetBuilder()
        range.add("01/01/2026 - 01/31/2026")
        #expect(TitleBlock(rows: range.rows).asOf == ymd("2026-01-31"))
        #expect(TitleBlock(rows: range.rows).periodStart == ymd("2026-01-01"))
        #expect(TitleBlock(rows: range.rows).propertyName == nil)

        var split = SheetBuilder()
        split.add("Start Date: 01/01/2026", nil, "End Date: 01/31/2026")
        #expect(TitleBlock(rows: split.rows).periodStart == ymd("2026-01-01"))
        #expect(TitleBlock(rows: split.rows).asOf == ymd("2026-01-31"))
    }

    @Test("title block: the date forms real OneSite downloads print, never today")
    func realDateForms() {
        func title(_ lines: [String?]...) -> TitleBlock {
            var sheet = SheetBuilder()
            for line in lines { sheet.addRow(line) }
            return TitleBlock(rows: sheet.rows)
        }
        // A fiscal period alone: the month, as of its last day.
        let fiscal = title(["Fiscal period: 022026"])
        #expect(fiscal.periodStart == ymd("2026-02-01"))
        #expect(fiscal.asOf == ymd("2026-02-28"))
        #expect(title(["Fiscal Period 022026"]).asOf == ymd("2026-02-28"))
        // Run before the period ended (the real Lost Rent Summary and Charge and Adjustment Journal): as of the run.
        #expect(title(["02/15/2026   9:50:10AM"], ["Fiscal Period: 022026"]).asOf == ymd("2026-02-15"))
        var stamped = SheetBuilder()
        stamped.add(CellValue.date(ExcelDateTime(year: 2026, month: 2, day: 15, hour: 9, minute: 50, second: 8)))
        stamped.add("Fiscal period: 022026")
        #expect(TitleBlock(rows: stamped.rows).asOf == ymd("2026-02-15"), "the run timestamp as a date-time cell")
        // Run after it closed: the period's last day.
        #expect(title(["03/04/2026   7:02:11AM"], ["Fiscal Period: 022026"]).asOf == ymd("2026-02-28"))
        // A printed as-of wins over the fiscal period's end and over a range end.
        let fiscalAsOf = title(["Fiscal Period: 022026  as of 02/15/2026"])
        #expect(fiscalAsOf.asOf == ymd("2026-02-15"))
        #expect(fiscalAsOf.periodStart == ymd("2026-02-01"))
        let fromTo = title(["From 02/13/2026 to 02/13/2026 as of: 02/14/2026"])
        #expect(fromTo.asOf == ymd("2026-02-14"))
        #expect(fromTo.periodStart == ymd("2026-02-13"))
        let range = title(["Date Range: 02/01/2026 through 06/01/2026 As of 2/14/2026"])
        #expect(range.asOf == ymd("2026-02-14"))
        #expect(range.periodStart == ymd("2026-02-01"))
        let plain = title(["01/12/2026 to 02/12/2026"])
        #expect(plain.asOf == ymd("2026-02-12"))
        let crystal = title(["01/28/2026   7:58:46AM"], [nil, "1/1/2026  12:00:00AM  through 1/31/2026  12:00:00AM"])
        #expect(crystal.periodStart == ymd("2026-01-01"))
        // Run before the range ended: as of the run (the real file's last contact is 01/27).
        #expect(crystal.asOf == ymd("2026-01-28"))
        #expect(title(["02/03/2026   7:58:46AM"], ["01/01/2026 through 01/31/2026"]).asOf == ymd("2026-01-31"))
        // Only a run timestamp: the run date.
        #expect(title(["2/8/2026  7:57:40AM", "LEASE EXPIRATION DETAIL"]).asOf == ymd("2026-02-08"))
        // A range inside the Parameters cell, when nothing else is printed.
        let parameters = title(["Parameters: Leasing consultant(s): All; Scheduling Period:  (01/12/2026 to "
                                + "02/12/2026); Rows to be Highlighted: None"], ["02/12/2026 09:15 AM"])
        #expect(parameters.periodStart == ymd("2026-01-12"))
        #expect(parameters.asOf == ymd("2026-02-12"))
        // The property date of a created-on line is the as-of; the calendar date is when it ran.
        let created = title(["Report created on calendar date: 02/15/2026 and property date: 02/14/2026"])
        #expect(created.asOf == ymd("2026-02-14"))
    }

    @Test("title block: '- Excel' titles are not properties; PMC and site numbers around the name are not the name")
    func realPropertyForms() {
        var excel = SheetBuilder()
        excel.add(nil, "Lease Expiration/Renewal Detail - Excel")
        excel.add("Property Name:", nil, "Kairoi Management, LLC - Nexus East")
        excel.add("Parameter:", nil, "Subproperties - ALL; Sort by - Unit Number")
        let excelTitle = TitleBlock(rows: excel.rows)
        #expect(excelTitle.propertyName == "Nexus East")
        #expect(excelTitle.title == "Lease Expiration/Renewal Detail - Excel")

        var numbered = SheetBuilder()
        numbered.add("Kairoi Management, LLC - 4248314 - The Northern - 5375283")
        let northern = TitleBlock(rows: numbered.rows)
        #expect(northern.propertyName == "The Northern")
        #expect(northern.siteNumber == "5375283")
    }

    @Test("detects the report from its title, its code, or its header")
    func detection() {
        var byTitle = SheetBuilder()
        byTitle.add("DELINQUENT AND PREPAID")
        #expect(RealPageReports.detect(rows: byTitle.rows) == .delinquency)

        var byCode = SheetBuilder()
        byCode.add("mgt-542-001")
        #expect(RealPageReports.detect(rows: byCode.rows) == .monthlySummary)

        var byHeader = SheetBuilder()
        byHeader.add("Bldg/Unit", "Name", "Lease End", "Market Rent", "Lease Rent")
        #expect(RealPageReports.detect(rows: byHeader.rows) == .leaseExpiration)

        var neither = SheetBuilder()
        neither.add("CONCESSIONS")
        neither.add("Bldg/Unit", "Resident", "Concession", "Amount")
        #expect(RealPageReports.detect(rows: neither.rows) == nil)
    }

    @Test("a required column missing names it and what was found")
    func missingColumn() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "RENT ROLL DETAIL")
        sheet.add("Unit", "Floor Plan", "SQFT", "Unit/Lease Status", "Name", "Market Rent", "Balance")
        sheet.add("1101", "A1", 715, "Occupied no NTV", "Garcia, Ana", 1450.0, "$0.00")
        let error = parseError(.rentRoll, sheet)
        #expect(error?.kind == .missingColumn)
        #expect(error?.description == "rent roll: missing required column \"Lease Rent\" (found: Unit, Floor Plan, "
            + "SQFT, Unit/Lease Status, Name, Market Rent, Balance) in the header at row 7 of sheet \"Report\"")
    }

    @Test("no header at all says what was looked for and how far")
    func noHeader() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "RENT ROLL DETAIL")
        sheet.add("nothing", "here")
        let error = parseError(.rentRoll, sheet)
        #expect(error?.kind == .noHeaderRow)
        #expect(error?.description == "rent roll: no header row found (looked for Unit, Unit/Lease Status, "
            + "Market Rent, Lease Rent, Total Charges) in the first 7 rows of sheet \"Report\"")
    }

    @Test("a header below the first 40 rows is not found: only 40 rows are buffered")
    func headerBeyondSearch() {
        var sheet = SheetBuilder()
        for index in 1...40 { sheet.add("note \(index)") }
        sheet.add("Date", "Type", "Name")
        sheet.add("01/05/2026", "Visit", "Alvarez, Rosa")
        #expect(parseError(.activity, sheet)?.kind == .noHeaderRow)
    }

    @Test("an unknown report is refused, not parsed")
    func unknownLayout() {
        var sheet = SheetBuilder()
        sheet.add("CONCESSIONS")
        sheet.add("Bldg/Unit", "Resident", "Concession", "Amount")
        sheet.add("1101", "Garcia, Ana", "Look and lease", "(500.00)")
        let error = parseError(nil, sheet)
        #expect(error?.kind == .unknownLayout)
        #expect(error?.description.hasPrefix("unknown layout: no OneSite report title") == true)
    }

    @Test("RealPage's 'Invalid end date' file is reported as the error it is")
    func errorAsReport() {
        var sheet = SheetBuilder()
        sheet.add("OneSite Rents v3.0")
        sheet.add("Kairoi Residential - Nexus East")
        sheet.add("BOXSCORE")
        sheet.add("Invalid end date entered - end date must be less than or equal to the property date")
        let error = parseError(nil, sheet)
        #expect(error?.kind == .reportIsError)
        #expect(error?.description.contains("Invalid end date entered") == true)
    }

    @Test("a bad cell names report, row, column and text")
    func badCell() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "RENT ROLL DETAIL")
        sheet.add("Unit", "Unit/Lease Status", "Market Rent", "Lease Rent", "Balance")
        sheet.add("1101", "Occupied no NTV", 1450.0, "1,400.00", "12.3.4")
        #expect(parseError(.rentRoll, sheet)?.description
            == "rent roll: sheet \"Report\" row 8, column \"Balance\": \"12.3.4\" is not a money amount")
    }

    @Test("columns are mapped by name: the same report with its columns shuffled reads the same")
    func byName() throws {
        var ordered = SheetBuilder()
        ordered.add("Unit", "Resident", "Balance", "0-30", "31-60", "61-90", "Over 90")
        ordered.add("1103", "Nguyen, Bao", "1,234.50", "1,234.50", "0.00", "0.00", "0.00")
        var shuffled = SheetBuilder()
        shuffled.add("Over 90", "61-90", "Resident", "31-60", "Unit", "0-30", "Balance")
        shuffled.add("0.00", "0.00", "Nguyen, Bao", "0.00", "1103", "1,234.50", "1,234.50")
        let first = try parse(.delinquency, ordered).delinquencies
        var second = try parse(.delinquency, shuffled).delinquencies
        #expect(first.count == 1)
        second[0].sourceRow = first[0].sourceRow
        #expect(first == second)
        #expect(first.first?.currentBalance == usd(1234, 50))
    }
}
