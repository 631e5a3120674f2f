import OwnerDashCore
import Testing
@testable import SOAP

@Suite struct SOAPValueTests {
    func day(_ y: Int, _ m: Int, _ d: Int) -> LocalDate? { LocalDate(year: y, month: m, day: d) }

    @Test func datesInEveryVendorFormat() throws {
        #expect(try SOAPValue.date("12/06/2026") == day(2026, 12, 6))          // Yardi ResidentData
        #expect(try SOAPValue.date("2/8/2025") == day(2025, 2, 8))
        #expect(try SOAPValue.date("2024-09-09") == day(2024, 9, 9))           // MITS, RPX InitialLeaseDate
        #expect(try SOAPValue.date("Apr 18 2022 12:00AM") == day(2022, 4, 18)) // RPX LastRenewalDate
        #expect(try SOAPValue.date("Sep  9 2026 12:00AM") == day(2026, 9, 9))
        #expect(try SOAPValue.date("2026-12-01 00:00:00.000") == day(2026, 12, 1)) // RPX PaymentDueDate
        #expect(try SOAPValue.date("2026-11-20T10:01:33.017-06:00") == day(2026, 11, 20))
        #expect(try SOAPValue.date("\n   2026-11-05\n  ") == day(2026, 11, 5))
    }

    @Test func nullDatesAreNil() throws {
        #expect(try SOAPValue.date("0001-01-01") == nil)
        #expect(try SOAPValue.date("1900-01-01 00:00:00") == nil)
        #expect(try SOAPValue.date("01/01/1900") == nil)
        #expect(try SOAPValue.date("") == nil)
        #expect(throws: SOAPValueError.self) { try SOAPValue.date("next week") }
        #expect(throws: SOAPValueError.self) { try SOAPValue.date("02/30/2026") }
        #expect(throws: SOAPValueError.self) { try SOAPValue.date("2026-02-30") }
        #expect(throws: SOAPValueError.self) { try SOAPValue.date("2026-11-20Z") }
        #expect(throws: SOAPValueError.self) { try SOAPValue.date("2026-1x-20") }
    }

    @Test func eventDateTimesDropTheFraction() throws {
        #expect(try SOAPValue.dateTime("2018-09-26T00:00:00.0") == "2018-09-26T00:00:00")
        #expect(try SOAPValue.dateTime("2011-08-10T10:40:00") == "2011-08-10T10:40:00")
        #expect(try SOAPValue.dateTime("0001-01-01T00:00:00") == nil)
    }

    @Test func flags() throws {
        for text in ["T", "Y", "true", "TRUE", "1"] { #expect(try SOAPValue.flag(text) == true) }
        for text in ["F", "N", "false", "False", "0"] { #expect(try SOAPValue.flag(text) == false) }
        #expect(try SOAPValue.flag("") == nil)
        #expect(throws: SOAPValueError.self) { try SOAPValue.flag("maybe") }
    }

    @Test func moneyWithSeparatorsSignsAndLongFractions() throws {
        #expect(try SOAPValue.money("-5,675.60") == Money(cents: -567_560))
        #expect(try SOAPValue.money("1,234,567.89") == Money(cents: 123_456_789))
        #expect(try SOAPValue.money("850.000000") == Money(cents: 85_000))
        #expect(try SOAPValue.money("1650.0000") == Money(cents: 165_000))
        #expect(try SOAPValue.money("0.005") == Money(cents: 1))
        #expect(try SOAPValue.money("(125.00)") == Money(cents: -12_500))
        #expect(try SOAPValue.money("$950") == Money(cents: 95_000))
        #expect(try SOAPValue.money(" ") == nil)
        #expect(throws: SOAPValueError.self) { try SOAPValue.money("12.34.56") }
        #expect(throws: SOAPValueError.self) { try SOAPValue.money("N/A") }
    }

    /// The amounts read byte by byte: every sign and separator where the vendors put them, and the texts that are
    /// no amount refused rather than read as one.
    @Test func moneyEdgesByTheByte() throws {
        #expect(try SOAPValue.money("125.00-") == Money(cents: -12_500))
        #expect(try SOAPValue.money("-$1,234.5") == Money(cents: -123_450))
        #expect(try SOAPValue.money(".5") == Money(cents: 50))
        #expect(try SOAPValue.money("7.") == Money(cents: 700))
        #expect(try SOAPValue.money("-0.005") == Money(cents: -1))
        #expect(try SOAPValue.money("0.0049") == Money(cents: 0))
        #expect(try SOAPValue.money("\u{00A0}42.10\n") == Money(cents: 4_210))
        #expect(try SOAPValue.money("999999999999999") == Money(cents: 99_999_999_999_999_900))
        for text in [",", ".", "()", "(", "-", "$", "1.2,3", "1 000", "--5", "1e3", "12O.00", "１２", "1000000000000000"] {
            #expect(throws: SOAPValueError.self, "\(text)") { try SOAPValue.money(text) }
        }
    }

    /// The slashed dates and the periods read byte by byte: every shape the vendors write, and the texts that are none
    /// refused, as the general reading refuses them.
    @Test func slashedDatesAndPeriodsByTheByte() throws {
        #expect(try SOAPValue.date("11/21/2026 12:00:00 AM") == day(2026, 11, 21))
        #expect(try SOAPValue.date("1/5/2026") == day(2026, 1, 5))
        #expect(try SOAPValue.date("005/01/2026") == day(2026, 5, 1))  // three digits: the general reading's Int
        for text in ["1/5/26", "1//2026", "/1/2026", "1/5/20267", "1/5/2026x", "13/01/2026", "12/32/2026", "1-5/2026"] {
            #expect(throws: SOAPValueError.self, "\(text)") { try SOAPValue.date(text) }
        }
        #expect(try SOAPValue.month(" 02/2026\n") == "2026-02")
        for text in ["1/2026", "00/2026", "2/02026", "12//026", "1220260", "12-2026", "１２/2026"] {
            #expect(throws: SOAPValueError.self, "\(text)") { try SOAPValue.month(text) }
        }
    }

    @Test func periodsAndNumbers() throws {
        #expect(try SOAPValue.month("10/2019") == "2019-10")
        #expect(try SOAPValue.month("012026") == "2026-01")
        #expect(throws: SOAPValueError.self) { try SOAPValue.month("13/2019") }
        #expect(try SOAPValue.decimal("1.000000") == 1.0)
        #expect(try SOAPValue.integer("2.00") == 2)
        #expect(throws: SOAPValueError.self) { try SOAPValue.integer("2.5") }
    }
}
