import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

@Suite("Delinquent and Prepaid / Delinquency")
struct DelinquencyParserTests {
    var header1: [Any?] {
        [nil, "Name /", nil, "Move-In/", "Code /", "Total", "Total", "Net", nil, "30", "60",
                                  "90+", "Deposits"]
    }
    var header2: [Any?] {
        ["Unit", "Phone Number / Email", "Status", "Out", "Description", "Prepaid",
                                  "Delinquent", "Balance", "Current", "Days", "Days", "Days", "Held"]
    }

    func perCode(subtotalDelinquent: String = "2,620.25", names: [String] = ["Nguyen, Bao\n(512) 555-0103",
                                                                             "Smith, Jordan", "Diaz, Luis"]) -> SheetBuilder {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "DELINQUENT AND PREPAID", code: "120.080.106",
                 asOf: "Fiscal Period 022026 As of 01/29/2026")
        sheet.addRow(header1)
        sheet.addRow(header2)
        sheet.add("1103", names[0], "Current resident", "04/18/2023", nil, nil, nil, nil, nil,
                  nil, nil, nil, 500.0)
        sheet.add(nil, nil, nil, nil, "RENT\nRent", "0.00", "1,184.50", "1,184.50", "1,184.50", "0.00", "0.00", "0.00")
        sheet.add(nil, nil, nil, nil, "LATEFEE\nLate fee", "0.00", "50.00", "50.00", "50.00", "0.00", "0.00", "0.00")
        sheet.add(nil, nil, nil, nil, "Subtotals:", 0.0, 1234.5, 1234.5, 1234.5, 0.0, 0.0, 0.0)
        sheet.add("1203", names[1], "Current resident", "06/01/2025", nil, nil, nil, nil, nil, nil, nil, nil,
                  750.0)
        sheet.add(nil, nil, nil, nil, "RENT", "(125.00)", "0.00", "(125.00)", "0.00", "0.00", "0.00", "0.00")
        sheet.add(nil, nil, nil, nil, "Subtotals:", -125.0, 0.0, -125.0, 0.0, 0.0, 0.0, 0.0)
        sheet.add("3105", names[2], "Former resident", "01/10/2022\n09/30/2025", nil, nil, nil, nil, nil, nil, nil,
                  nil, 0.0)
        sheet.add(nil, nil, nil, nil, "RENT", "0.00", "2,400.00", "2,400.00", "0.00", "0.00", "0.00", "2,400.00")
        sheet.add(nil, nil, nil, nil, "CLEANING", "0.00", "175.00", "175.00", "0.00", "0.00", "0.00", "175.00")
        sheet.add(nil, nil, nil, nil, "SEWER", "0.00", "45.25", "45.25", "0.00", "0.00", "45.25", "0.00")
        sheet.add(nil, nil, nil, nil, "Subtotals:", "0.00", subtotalDelinquent, subtotalDelinquent, "0.00", "0.00",
                  "45.25", "2,575.00")
        sheet.add(nil, nil, nil, nil, "Totals:", "(125.00)", "$3,854.75", "$3,729.75")
        sheet.skip()
        sheet.add("Summary By Transaction Code")
        sheet.add("RENT", "1200-0002", "0.00", "(125.00)", "3,584.50")
        return sheet
    }

    @Test("one row per account: code rows folded, aging Current=0-30 ... 90+=over 90, prepaid positive")
    func perCodeAccounts() throws {
        let result = try parse(.delinquency, perCode())
        #expect(result.delinquencies.map(\.unitNumber) == ["1103", "1203", "3105"])
        let nguyen = result.delinquencies[0]
        #expect(nguyen.residentName == "Nguyen, Bao" && nguyen.residentStatus == "Current resident")
        #expect(nguyen.currentBalance == usd(1234, 50) && nguyen.balance0to30 == usd(1234, 50))
        #expect(nguyen.prepaid == .zero && nguyen.sourceRow == 10)
        let smith = result.delinquencies[1]
        #expect(smith.prepaid == usd(125), "printed (125.00); stored positive")
        #expect(smith.currentBalance == usd(-125), "net balance = delinquent 0.00 - prepaid 125.00")
        let diaz = result.delinquencies[2]
        #expect(diaz.balance61to90 == usd(45, 25) && diaz.balanceOver90 == usd(2575))
        #expect(diaz.balance0to30 == .zero && diaz.balance31to60 == .zero)
        #expect(diaz.currentBalance == usd(2620, 25))
        #expect(result.summary.warnings.isEmpty)
        #expect(result.metadata?.asOf == ymd("2026-01-29"))
    }

    @Test("the legend's `*` (under eviction) beside a name, or alone where names are hidden, is a mark, not a name")
    func evictionMark() throws {
        let result = try parse(.delinquency, perCode(names: ["* Nguyen, Bao\n(512) 555-0103", "Smith, Jordan", "*"]))
        #expect(result.delinquencies.map(\.residentName) == ["Nguyen, Bao", "Smith, Jordan", nil])
        #expect(result.delinquencies.map(\.underEviction) == [true, false, true])
        #expect(result.delinquencies[0].phone == "(512) 555-0103")
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("a Subtotals: row that disagrees with its code rows is taken, and the difference is a warning")
    func subtotalMismatch() throws {
        let result = try parse(.delinquency, perCode(subtotalDelinquent: "2,720.25"))
        #expect(result.delinquencies[2].currentBalance == usd(2720, 25))
        #expect(result.summary.warnings.contains(
            "delinquency: account 3105 (row 17): code rows sum to 2620.25 delinquent but \"Subtotals:\" (row 21) says 2720.25"))
    }

    @Test("the simple layout: one row per resident")
    func simple() throws {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "DELINQUENCY")
        sheet.add("Unit", "Resident ID", "Resident", "Status", "Balance", "0-30", "31-60", "61-90", "Over 90", "Prepaid")
        sheet.add("2202", "t0010008", "Chen, Mei", "Notice", "1,050.00", 350.0, 700.0, 0.0, 0.0, nil)
        sheet.add("1203", "t0010004", "Smith, Jordan", "Current", "-125.00", 0.0, 0.0, 0.0, 0.0, "125.00-")
        sheet.add("Total", nil, nil, nil, 925.0, 350.0, 700.0, 0.0, 0.0, -125.0)
        let rows = try parse(.delinquency, sheet)
        #expect(rows.delinquencies.count == 2)
        #expect(rows.delinquencies[0].residentID == "t0010008" && rows.delinquencies[0].balance31to60 == usd(700))
        #expect(rows.delinquencies[0].currentBalance == usd(1050) && rows.delinquencies[0].prepaid == .zero)
        #expect(rows.delinquencies[1].prepaid == usd(125), "trailing minus 125.00- stored as prepaid 125.00")
        #expect(rows.delinquencies[1].currentBalance == usd(-125))
        #expect(rows.summary.warnings.isEmpty)
    }

    @Test("a report without a prepaid column leaves prepaid unknown rather than zero")
    func noPrepaidColumn() throws {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "DELINQUENCY")
        sheet.add("Unit", "Resident", "Status", "Balance", "0-30", "31-60", "61-90", "Over 90")
        sheet.add("2202", "Chen, Mei", "Notice", "1,050.00", 350.0, 700.0, 0.0, 0.0)
        let row = try #require(try parse(.delinquency, sheet).delinquencies.first)
        #expect(row.prepaid == nil)
        #expect(row.currentBalance == usd(1050))
    }

    @Test("amounts one column beside their headers (Crystal drift) are read under them, not as zero balances")
    func driftedAmounts() throws {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "DELINQUENCY")
        sheet.add("Unit", "Resident", "Balance", nil, "0-30", nil, "31-60", nil, "61-90", nil, "Over 90")
        sheet.add("1103", "Nguyen, Bao", nil, "$1,234.50", nil, "$1,034.50", nil, "$200.00", nil, "$0.00", nil, "$0.00")
        let row = try #require(try parse(.delinquency, sheet).delinquencies.first)
        #expect(row.currentBalance == usd(1234, 50))
        #expect(row.balance0to30 == usd(1034, 50))
        #expect(row.balance31to60 == usd(200))
        #expect(row.balanceOver90 == .zero)
    }

    @Test("amounts too far from every header to be drift (all money columns empty) are a bug, not zero balances")
    func moneyGuard() {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "DELINQUENCY")
        sheet.add("Unit", "Resident", "Balance", "0-30", "31-60", "61-90", "Over 90")
        sheet.add("1103", "Nguyen, Bao", nil, nil, nil, nil, nil, nil, nil, nil, nil, "$1,234.50", "$1,234.50", "$0.00")
        let error = parseError(.delinquency, sheet)
        #expect(error?.kind == .moneyAllZero)
        #expect(error?.description == "delinquency: every money column parsed as zero or blank, yet row 8 column L "
            + "holds \"$1,234.50\" under no known header (header and values misaligned?) (sheet \"Report\")")
    }

    @Test("a delinquency report where everyone owes nothing is data, not the bug")
    func allZeroIsFine() throws {
        var sheet = SheetBuilder()
        sheet.add("Unit", "Resident", "Balance", "0-30", "31-60", "61-90", "Over 90")
        sheet.add("1103", "Nguyen, Bao", "0.00", "0.00", "0.00", "0.00", "$0.00")
        #expect(try parse(.delinquency, sheet).delinquencies.first?.currentBalance == .zero)
    }
}

@Suite("Activity")
struct ActivityParserTests {
    func sheet(totalKim: Int = 2) -> SheetBuilder {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "ACTIVITY", asOf: "01/01/2026 - 01/31/2026")
        sheet.add("Date", "Type", "Bldg/\nUnit", "Name", "Ad Source", "Leasing\nConsultant", "Notes")
        sheet.add("Jones, Taylor")
        sheet.add("01/03/2026 09:15:00AM", "Phone call", nil, "Alvarez, Rosa", "Apartments.com", "Jones, Taylor")
        sheet.add(ymd("2026-01-05"), "Visit", "1102", "Alvarez, Rosa", "Apartments.com", "Jones, Taylor")
        sheet.add(nil, nil, nil, nil, nil, nil, "Toured 1102, liked the view")
        sheet.add("Total for Jones, Taylor: 2")
        sheet.add("Kim, Alex")
        sheet.add(46029.0, "Visit (return)", "2101", "Cole, Jada", "Website", "Kim, Alex")
        sheet.add("01/28/2026 4:45:00PM", "Leased", "2101", "Cole, Jada", "Website", "Kim, Alex")
        sheet.add("Total for Kim, Alex: \(totalKim)")
        sheet.skip()
        sheet.add("Follow-Up Activity")
        sheet.add("Date", "Type", "Bldg/\nUnit", "Name")
        sheet.add("02/01/2026", "Phone call", nil, "Follow, Up")
        return sheet
    }

    @Test("one row per activity: dates with times or serials, notes rows skipped, follow-ups not read")
    func activities() throws {
        let result = try parse(.activity, sheet())
        #expect(result.activities.map(\.activityType) == ["Phone call", "Visit", "Visit (return)", "Leased"])
        #expect(result.activities.map(\.activityDate) == [ymd("2026-01-03"), ymd("2026-01-05"), ymd("2026-01-07"),
                                                           ymd("2026-01-28")].compactMap { $0 })
        #expect(result.activities[1].unitNumber == "1102" && result.activities[1].source == "Apartments.com")
        #expect(result.activities[3].agent == "Kim, Alex" && result.activities[3].partyName == "Cole, Jada")
        #expect(result.summary.warnings.isEmpty)
        #expect(result.metadata?.periodStart == ymd("2026-01-01") && result.metadata?.asOf == ymd("2026-01-31"))
    }

    /// An export whose Date column holds date-time cells (a typed date with its time, a serial with a fraction),
    /// columns in the guide's order: Bldg/Unit, Name, Address, Type, Date, Leasing Consultant.
    @Test("date-time cells keep their time of day and the prospect's name")
    func dateTimeCells() throws {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "ACTIVITY", asOf: "01/01/2026 - 01/31/2026")
        sheet.add("Bldg/Unit", "Name", "Address", "Type", "Date", "Leasing Consultant", "Notes")
        sheet.add(nil, "Alvarez, Rosa", "1 Main St", "Phone call",
                  CellValue.date(ExcelDateTime(year: 2026, month: 1, day: 3, hour: 9, minute: 15)), "Jones, Taylor")
        // 2026-01-05 14:30 as a serial: 46027 + 14.5 / 24.
        sheet.add("1102", "Baker, Tom", nil, "Visit", 46027.0 + 14.5 / 24, "Jones, Taylor", "Toured 1102")
        sheet.add(nil, "Cole, Jada", nil, "E-mail", "01/09/2026 04:45:00PM", "Kim, Alex")
        sheet.add(nil, "Diaz, Luis", nil, "E-mail", ymd("2026-01-10"), "Kim, Alex")
        let result = try parse(nil, sheet)
        #expect(result.activities.map(\.partyName) == ["Alvarez, Rosa", "Baker, Tom", "Cole, Jada", "Diaz, Luis"])
        #expect(result.activities.map(\.activityDate) == [ymd("2026-01-03"), ymd("2026-01-05"), ymd("2026-01-09"),
                                                           ymd("2026-01-10")].compactMap { $0 })
        #expect(result.activities.map(\.activityTime) == ["09:15", "14:30", "16:45", nil])
        #expect(result.summary.warnings.isEmpty, "\(result.summary.warnings)")
    }

    @Test("a group count that disagrees with its rows is a warning")
    func groupCount() throws {
        #expect(try parse(.activity, sheet(totalKim: 3)).summary.warnings
            == ["activity: data rows sum to 2 activities but \"Total for Kim, Alex: 3\" (row 16) says 3"])
    }
}

@Suite("Leasing Activity Detail totals blocks")
struct ActivityTotalsBlockTests {
    /// A Crystal-shaped sheet: the first consultant's label above the header, its rows, then its `Totals for`
    /// block of `Label: count` cells.
    static func sheet(phoneCalls printed: Int, newProspects: Int = 1) -> SheetBuilder {
        var sheet = SheetBuilder()
        sheet.add("LEASING ACTIVITY DETAIL")
        sheet.add("Kairoi Management, LLC - Nexus East")
        sheet.add("01/01/2026 through 01/31/2026")
        sheet.add("Leasing Consultant:  Lee, Ann")
        sheet.add("Date", "This Contact Type", "Off-Site Conversion This Period", "Prospect Name",
                  "Initial Contact Type", "Current Guest Card Status", "Leases", "Waitlist", "Cancelled/Denied")
        sheet.add("01/05/2026", "Phone call", "No", "Diaz, Al", "Phone call", "Leased", "0", "0", "0")
        sheet.add("01/06/2026", "Phone call", "No", "Diaz, Al", "Phone call", "Leased", "0", "0", "0")
        sheet.add("01/07/2026", nil, "No", "Diaz, Al", "Phone call", "Leased", "1", "0", "0")
        sheet.add("Totals for Lee, Ann  :")
        sheet.add("¹New Prospects:", "\(newProspects)", "Phone Call:", "\(printed)", "Leases:", "1")
        return sheet
    }

    @Test("a consultant block's counts are held against its rows; a lease row without a type is a Lease")
    func blocksReconcile() throws {
        let good = try parse(.leasingActivityDetail, Self.sheet(phoneCalls: 2))
        #expect(good.summary.warnings.isEmpty, "\(good.summary.warnings)")
        let rows = good.records.compactMap { if case .row(let row) = $0 { row } else { nil } }
        #expect(rows.map { $0["contact_type"] } == [.text("Phone call"), .text("Phone call"), .text("Lease")])
        #expect(rows.allSatisfy { $0["leasing_consultant"] == .text("Lee, Ann") })
        #expect(rows.map { $0["guest_card_status"] } == Array(repeating: .text("Leased"), count: 3))
        let kept = Dictionary(good.summary.totals.map { ($0.measure, $0.printed) }, uniquingKeysWith: { $1 })
        #expect(kept == ["new prospects": 1, "phone call": 2, "leases": 1])
        let bad = try parse(.leasingActivityDetail, Self.sheet(phoneCalls: 3))
        #expect(bad.summary.warnings.count == 1)
        #expect(bad.summary.warnings.first?.contains("data rows count 2 phone call") == true)
        // New prospects are OneSite's count of guest cards: kept for the sync, no warning when the rows differ.
        let prospects = try parse(.leasingActivityDetail, Self.sheet(phoneCalls: 2, newProspects: 4))
        #expect(prospects.summary.warnings.isEmpty, "\(prospects.summary.warnings)")
        #expect(prospects.summary.totals.contains { $0.measure == "new prospects" && $0.printed == 4 && $0.computed == 1 })
    }
}

@Suite("Delinquent and Prepaid, real export shape")
struct DelinquentAndPrepaidRealShapeTests {
    /// The real Crystal shape: `Name` / `Phone Number` / `Email` stacked in one header cell on the row above the
    /// other headers, a current and a former resident of one unit, Grand Totals with Resident Count and Net rows.
    static func sheet(accountsPrinted: Int = 2, residentCountCurrent: Int = 0, footnote: Bool = false) -> SheetBuilder {
        var sheet = SheetBuilder()
        sheet.add("OneSite Rents v3.0", nil, nil, nil, "Kairoi Management, LLC - Nexus East")
        sheet.add("01/29/2026  3:37:01AM", nil, nil, nil, "DELINQUENT AND PREPAID", nil, nil, nil, nil, "120.080.106")
        sheet.add(nil, nil, nil, nil, "Fiscal Period 022026 As of 01/29/2026")
        sheet.add("Detail - \(accountsPrinted) Account(s)")
        sheet.add(nil, "Name\nPhone Number\nEmail")
        sheet.add("Unit", nil, "\nStatus", "Move-In/\nOut", "Code\nDescription", "Total\nPrepaid", "Total\nDelinquent",
                  "Net\nBalance", "\nCurrent", "30\nDays", "60\nDays", "90+\nDays")
        sheet.add("1125", "Hall, Brian\n(512) 555-0101\nbhall@example.com", "Former resident", "06/30/2025")
        sheet.add(nil, nil, nil, nil, "RENT", 0, 5.73, nil, 0, 0, 0, 5.73)
        sheet.add(nil, nil, nil, nil, "Subtotals:", 0, 5.73, 5.73, 0, 0, 0, 5.73)
        sheet.add("1125", "Diaz, Ana\n(512) 555-0102\nadiaz@example.com", "Current resident", "07/15/2025")
        sheet.add(nil, nil, nil, nil, "RENT", -3306.43, 0, nil, -3306.43, 0, 0, 0)
        sheet.add(nil, nil, nil, nil, "Subtotals:", -3306.43, 0, -3306.43, -3306.43, 0, 0, 0)
        sheet.add(nil, nil, nil, "Grand Totals:", nil, -3306.43, 5.73, -3300.70, -3306.43, 0, 0, 5.73)
        sheet.add(nil, nil, nil, "Resident Count:", nil, 1, 1, "**", residentCountCurrent, 0, 0, 1)
        sheet.add(nil, nil, nil, nil, nil, nil, "Net Prepaid:", -3306.43)
        sheet.add(nil, nil, nil, nil, nil, "Net Delinquent:", nil, 5.73)
        if footnote {
            // As the real export prints it, in the Unit column between the Grand Totals and the summaries.
            sheet.skip(2)
            sheet.add("** These subtotals consist of transaction code level balances, and may not sum up to grand "
                      + "totals that equate to beginning/ending prepaid or delinquent balances.\n\n*** When "
                      + "transactions payable in arrears are excluded, the report totals may not balance.")
            sheet.skip(4)
            sheet.add(nil, nil, "Summary By Transaction Code **")
        }
        return sheet
    }

    @Test("the footnote under the Grand Totals is no account: 2 accounts kept, as `Detail - 2 Account(s)` prints")
    func footnoteIsNoAccount() throws {
        let result = try parse(.delinquency, Self.sheet(footnote: true))
        #expect(result.delinquencies.map(\.unitNumber) == ["1125", "1125"])
        #expect(result.summary.warnings.isEmpty, "\(result.summary.warnings)")
        // A count printed one short of the blocks is named, printed beside stored.
        let short = try parse(.delinquency, Self.sheet(accountsPrinted: 1, footnote: true))
        #expect(short.summary.warnings == [
            "delinquency: data rows sum to 2 accounts but \"Detail - 1 Account(s)\" (row 5) says 1"])
    }

    @Test("the stacked Name header is found: two accounts of one unit stay two, named, with phone and e-mail")
    func stackedName() throws {
        let result = try parse(.delinquency, Self.sheet())
        #expect(result.summary.warnings.isEmpty, "\(result.summary.warnings)")
        #expect(result.delinquencies.map(\.residentName) == ["Hall, Brian", "Diaz, Ana"])
        #expect(result.delinquencies.map(\.unitNumber) == ["1125", "1125"])
        #expect(result.delinquencies.map(\.phone) == ["(512) 555-0101", "(512) 555-0102"])
        #expect(result.delinquencies.map(\.email) == ["bhall@example.com", "adiaz@example.com"])
        #expect(result.delinquencies.map(\.currentBalance) == [usd(5, 73), usd(-3306, 43)])
        #expect(result.delinquencies.map(\.prepaid) == [usd(0), usd(3306, 43)])
    }

    @Test("the account count, Resident Count and Net rows are reconciled: a wrong printed figure warns")
    func accountFigures() throws {
        let count = try parse(.delinquency, Self.sheet(accountsPrinted: 3))
        #expect(count.summary.warnings.count == 1)
        #expect(count.summary.warnings.first?.contains("\"Detail - 3 Account(s)\"") == true)
        let residents = try parse(.delinquency, Self.sheet(residentCountCurrent: 1))
        #expect(residents.summary.warnings.count == 1)
        #expect(residents.summary.warnings.first?.contains("accounts with current") == true)
    }
}
