import Testing
@testable import XLSXKit

@Suite struct DateTests {
    @Test func serialsIn1900System() {
        #expect(ExcelDateTime(serial: 1, uses1904DateSystem: false) == ExcelDateTime(year: 1900, month: 1, day: 1))
        #expect(ExcelDateTime(serial: 60, uses1904DateSystem: false) == ExcelDateTime(year: 1900, month: 2, day: 29))
        #expect(ExcelDateTime(serial: 61, uses1904DateSystem: false) == ExcelDateTime(year: 1900, month: 3, day: 1))
        #expect(ExcelDateTime(serial: 36526, uses1904DateSystem: false) == ExcelDateTime(year: 2000, month: 1, day: 1))
        #expect(ExcelDateTime(serial: 2_958_465, uses1904DateSystem: false) == ExcelDateTime(year: 9999, month: 12, day: 31))
        #expect(ExcelDateTime(serial: 45292.5, uses1904DateSystem: false) == ExcelDateTime(year: 2024, month: 1, day: 1, hour: 12))
        // 23:59:59.9 rounds to the next day's midnight, not to 24:00:00.
        #expect(ExcelDateTime(serial: 45292.999999, uses1904DateSystem: false) == ExcelDateTime(year: 2024, month: 1, day: 2))
        #expect(ExcelDateTime(serial: -1, uses1904DateSystem: false) == nil)
        #expect(ExcelDateTime(serial: 3_000_000, uses1904DateSystem: false) == nil)
        #expect(ExcelDateTime(serial: .nan, uses1904DateSystem: false) == nil)
    }

    @Test func serialsIn1904System() {
        #expect(ExcelDateTime(serial: 0, uses1904DateSystem: true) == ExcelDateTime(year: 1904, month: 1, day: 1))
        #expect(ExcelDateTime(serial: 59, uses1904DateSystem: true) == ExcelDateTime(year: 1904, month: 2, day: 29))
        #expect(ExcelDateTime(serial: 34_064.25, uses1904DateSystem: true) == ExcelDateTime(year: 1997, month: 4, day: 6, hour: 6))
    }

    @Test func isoDateText() {
        #expect(ExcelDateTime(iso8601: Array("2024-02-29".utf8)) == ExcelDateTime(year: 2024, month: 2, day: 29))
        #expect(ExcelDateTime(iso8601: Array("2024-02-29T13:45:07.250Z".utf8)) == ExcelDateTime(year: 2024, month: 2, day: 29, hour: 13, minute: 45, second: 7))
        #expect(ExcelDateTime(iso8601: Array("2023-02-29".utf8)) == nil)
        #expect(ExcelDateTime(iso8601: Array("yesterday".utf8)) == nil)
    }

    @Test(arguments: [
        ("yyyy-mm-dd", true), ("m/d/yy h:mm", true), ("[h]:mm:ss", true), ("[mm]:ss", true), ("hh:mm AM/PM", true),
        ("[$-409]mmmm d, yyyy;@", true), ("[Red]dd/mm/yyyy", true),
        ("General", false), ("0.00", false), ("#,##0.00_);[Red](#,##0.00)", false), ("[Red]0.00", false),
        ("\"Days: \"0", false), ("\\d\\a\\y 0", false), ("0.00E+00", false), ("@", false), ("_(* #,##0_)", false),
        ("[$$-409]#,##0.00", false), ("[>=100]0;0.0", false),
    ])
    func customFormatCodes(code: String, isDate: Bool) {
        #expect(NumberFormat.isDateFormat(code: code) == isDate)
    }

    @Test func builtInFormatIds() {
        let dates = (0...200).filter(NumberFormat.isBuiltInDate)
        #expect(dates == Array(14...22) + Array(27...36) + Array(45...47) + Array(50...58))
    }
}
