import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

@Suite("Money, date, count and percent cells")
struct CellTextTests {
    @Test("money text as OneSite prints it", arguments: [
        ("$1,234.50", Int64(123_450)), ("(125.00)", -12_500), ("-5,675.60", -567_560), ("125.00-", -12_500),
        ("*1,250.00", 125_000), ("\u{2020}45.00", 4_500), ("1,250.00 \u{2021}", 125_000), ("\u{00a7}12", 1_200),
        ("$(1,951.00)", -195_100), ("($162,214.41)", -16_221_441), ("-$20.00", -2_000), ("0.00", 0), ("-", 0),
        ("1234.567", 123_457), (" 98.1 ", 9_810),
    ])
    func moneyText(text: String, cents: Int64) throws {
        #expect(try MoneyText.parse(text) == Money(cents: cents))
    }

    @Test("blank money is nil, never zero")
    func blankMoney() throws {
        #expect(try MoneyText.parse("") == nil)
        #expect(try MoneyText.parse("  \n ") == nil)
        #expect(try MoneyText.parse("*") == nil)
        #expect(try CellValue.empty.money() == nil)
    }

    @Test("text that is not money throws, naming the text", arguments: ["Current resident", "12,34.00", "1.234,50",
                                                                        "$", "(12.00", "--5", "1 234"])
    func notMoney(text: String) {
        #expect(throws: CellTextError(text: text, expected: "money amount")) { try MoneyText.parse(text) }
    }

    @Test("numeric money cells are dollars")
    func numericMoney() throws {
        #expect(try CellValue.number(-2879.76).money() == Money(cents: -287_976))
        #expect(try CellValue.number(1450).money() == usd(1450))
    }

    @Test("date text in every OneSite form", arguments: [
        ("02/08/2026", "2026-02-08"), ("2/8/2026", "2026-02-08"), ("2026-02-08", "2026-02-08"),
        ("02/08/2026 06:58:21AM", "2026-02-08"), ("2/8/2026  7:57:40 PM", "2026-02-08"),
        ("2026-02-08T13:05:00", "2026-02-08"), ("01/29/26", "2026-01-29"),
    ])
    func dateText(text: String, iso: String) throws {
        #expect(try DateText.parse(text) == ymd(iso))
    }

    // A public write-up of the real file says "46024 = 2026-01-03"; Excel's DATE(2026,1,1) is 46023, so 46024 is
    // January 2nd (docs/onesite-reports.md, "Cell values").
    @Test("a serial number in a date column is an Excel date: 45658 is 2025-01-01, 46024 is 2026-01-02")
    func serialDates() throws {
        #expect(try CellValue.number(45658).date() == ymd("2025-01-01"))
        #expect(try CellValue.number(46024).date() == ymd("2026-01-02"))
        #expect(try CellValue.number(46024.75).date() == ymd("2026-01-02"))
        #expect(try CellValue.date(ExcelDateTime(year: 2024, month: 12, day: 6, hour: 9)).date() == ymd("2024-12-06"))
    }

    @Test("stacked move-in/move-out dates in one cell")
    func stackedDates() throws {
        #expect(try CellValue.text("12/06/2024\n04/18/2026").stackedDates() == [ymd("2024-12-06"), ymd("2026-04-18")])
        #expect(try CellValue.text("12/06/2024").stackedDates() == [ymd("2024-12-06")])
    }

    @Test("text that is not a date throws", arguments: ["13/45/2026", "MTM", "02/30/2026", "2026-2-8", "soon"])
    func notDate(text: String) {
        #expect(throws: CellTextError(text: text, expected: "date")) { try DateText.parse(text) }
    }

    @Test("counts and percents")
    func countsAndPercents() throws {
        #expect(try CellValue.text("1,204").count() == 1204)
        #expect(try CellValue.number(12).count() == 12)
        #expect(try CellValue.text(" 7 ").count() == 7)
        #expect(throws: CellTextError(text: "12.5", expected: "count")) { try CellValue.text("12.5").count() }
        #expect(throws: CellTextError(text: "twelve", expected: "count")) { try CellValue.text("twelve").count() }
        #expect(try CellValue.text("95.74").percent() == 95.74)
        #expect(try CellValue.text("95.74%").percent() == 95.74)
        #expect(try CellValue.number(95.74).percent() == 95.74)
        #expect(try CellValue.text("").percent() == nil)
        #expect(throws: CellTextError(text: "n/a", expected: "percent")) { try CellValue.text("n/a").percent() }
    }

    @Test("unit numbers stored as numbers read as plain text")
    func numericText() {
        #expect(CellValue.number(1203).text == "1203")
        #expect(CellValue.text("  A-101 ").text == "A-101")
        #expect(CellValue.text("   ").text == nil)
    }
}

@Suite("Percent cells")
struct PercentCellTests {
    @Test("a percent-formatted cell (a stored fraction) and a text percent (points) read as the same points")
    func percentFormattedAndTextAgree() throws {
        #expect(NumberFormat.isBuiltInPercent(10) && NumberFormat.isBuiltInPercent(9))
        #expect(NumberFormat.isPercentFormat(code: "0.00%") && NumberFormat.isPercentFormat(code: "#,##0.0 %"))
        // A quoted or escaped % is a literal: OwnerDash's own exports write points under `0.00"%"`.
        #expect(!NumberFormat.isPercentFormat(code: "0.00\"%\"") && !NumberFormat.isPercentFormat(code: "0.00\\%"))
        #expect(!NumberFormat.isPercentFormat(code: "#,##0.00;[Red](#,##0.00)"))
        // What the readers make of a percent-formatted 0.8824 beside text percents stored as points.
        let formatted = CellValue.text(NumberFormat.percentText(0.8824))
        #expect(formatted == .text("88.24%"))
        #expect(try formatted.percent() == 88.24)
        #expect(try CellValue.text("85.29").percent() == 85.29)
        #expect(try CellValue.text("1,400.00 %").percent() == 1400)
        #expect(NumberFormat.percentText(1) == "100%" && NumberFormat.percentText(0.30000000000000004) == "30%")
    }
}
