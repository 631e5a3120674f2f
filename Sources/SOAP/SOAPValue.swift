import OwnerDashCore

/// Vendor value formats normalized at parse time (docs/yardi-soap.md, "Value formats"; docs/rpx-soap.md): dates, flags,
/// money, periods.
///
/// Every function trims whitespace (fixtures carry newlines inside text nodes), returns nil for an
/// empty value or a documented null, and throws `SOAPValueError` for text that is none of the
/// documented formats, so a new format fails loudly instead of becoming a wrong number.
public enum SOAPValue {
    /// Dates: `YYYY-MM-DD` (optionally followed by `THH:MM:SS...` or ` HH:MM:SS.fff`), `MM/DD/YYYY` or `M/D/YYYY`
    /// (optionally with a time), and `Apr 18 2022 12:00AM` (RPX getleaseinfo's LastRenewalDate).
    /// `0001-01-01` and `1900-01-01` mean "no date" in Yardi and RPX and come back nil.
    public static func date(_ raw: String) throws -> LocalDate? {
        let trimmed = raw.trimmingWhitespace
        if trimmed.isEmpty { return nil }
        let date: LocalDate?
        // The ISO and the slashed forms, nearly every date of every answer, read from the bytes where they are (no
        // string, no array: the slashed form's search and splits were 4 % of a churned night's load).
        switch withBytes(trimmed, shape) {
        case .date(let iso):
            date = iso
        case .badTail:
            throw SOAPValueError("\"\(trimmed)\" is not a date")
        case .other:
            let text = String(trimmed)
            if text.contains("/") {
                let day = text.split(separator: " ").first ?? ""
                let parts = day.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 3, parts[2].count == 4, let m = Int(parts[0]), let d = Int(parts[1]), let y = Int(parts[2]) else {
                    throw SOAPValueError("\"\(text)\" is not a date")
                }
                date = LocalDate(year: y, month: m, day: d)
            } else {
                let words = text.split(separator: " ")
                guard words.count >= 3, let month = monthNumber(words[0]), let d = Int(words[1]), let y = Int(words[2]) else {
                    throw SOAPValueError("\"\(text)\" is not a date")
                }
                date = LocalDate(year: y, month: month, day: d)
            }
        }
        guard let date else { throw SOAPValueError("\"\(trimmed)\" is not a real calendar date") }
        if isNullDate(date) { return nil }
        return date
    }

    /// How a trimmed date text starts: `YYYY-` and then a date (nil: not a calendar date), followed by nothing, `T`
    /// or a blank; the same with anything else after the ten bytes; `M/D/YYYY` (a month and a day of one or two
    /// digits) followed by nothing or a blank, and its date; or another form, which the general reading takes.
    private enum DateShape { case date(LocalDate?), badTail, other }

    private static func shape(_ utf8: UnsafeBufferPointer<UInt8>) -> DateShape {
        if utf8.count >= 10, utf8[4] == UInt8(ascii: "-") {
            if utf8.count > 10, utf8[10] != UInt8(ascii: "T"), utf8[10] != UInt8(ascii: " ") { return .badTail }
            return .date(isoDate(utf8))
        }
        return slashedDate(utf8).map { .date($0) } ?? .other
    }

    /// `M/D/YYYY`, `MM/DD/YYYY` and the like, alone or before a blank (a time): the date they write, nil when the
    /// numbers are no calendar date; nil as well for any other shape (`.none`), left to the general reading.
    private static func slashedDate(_ utf8: UnsafeBufferPointer<UInt8>) -> LocalDate?? {
        var index = 0
        func digits(atMost limit: Int) -> Int? {
            var value = 0, count = 0
            while index < utf8.count, count < limit, utf8[index] >= UInt8(ascii: "0"), utf8[index] <= UInt8(ascii: "9") {
                value = value * 10 + Int(utf8[index] - UInt8(ascii: "0"))
                index += 1
                count += 1
            }
            return count == 0 ? nil : value
        }
        func slash() -> Bool {
            guard index < utf8.count, utf8[index] == UInt8(ascii: "/") else { return false }
            index += 1
            return true
        }
        guard let month = digits(atMost: 2), slash(), let day = digits(atMost: 2), slash() else { return .none }
        let yearStart = index
        guard let year = digits(atMost: 4), index - yearStart == 4,
              index == utf8.count || utf8[index] == UInt8(ascii: " ") else { return .none }
        return .some(LocalDate(year: year, month: month, day: day))
    }

    /// `body` on the text's UTF-8 bytes where they lie; copied first only for a string that does not hold them in
    /// one piece.
    private static func withBytes<T>(_ text: Substring, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        text.utf8.withContiguousStorageIfAvailable(body) ?? Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.f]` (Yardi EventDate) as `YYYY-MM-DDTHH:MM:SS`; a date alone gets `T00:00:00`.
    public static func dateTime(_ raw: String) throws -> String? {
        let text = String(raw.trimmingWhitespace)
        guard let date = try date(text) else { return nil }
        let utf8 = Array(text.utf8)
        guard utf8.count >= 19, utf8[4] == UInt8(ascii: "-"), utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":") else {
            if utf8.count == 10 || !text.contains(":") { return date.iso + "T00:00:00" }
            throw SOAPValueError("\"\(text)\" is not a date and time")
        }
        let time = String(decoding: utf8[11..<19], as: UTF8.self)
        guard time.split(separator: ":").allSatisfy({ Int($0) != nil }) else {
            throw SOAPValueError("\"\(text)\" is not a date and time")
        }
        return date.iso + "T" + time
    }

    /// Flags: `T`/`F`, `Y`/`N`, `true`/`false` (any case), `1`/`0`.
    public static func flag(_ raw: String) throws -> Bool? {
        switch raw.trimmingWhitespace.uppercased() {
        case "": return nil
        case "T", "TRUE", "Y", "YES", "1": return true
        case "F", "FALSE", "N", "NO", "0": return false
        default: throw SOAPValueError("\"\(raw)\" is not a flag (T/F, Y/N, true/false)")
        }
    }

    /// Money: `950.00`, `850.000000`, `1650.0000`, `-5,675.60`, `$1,234.50`, `(125.00)`; rounded half away
    /// from zero to the cent, computed on the digits (no binary floating point on the way).
    public static func money(_ raw: String) throws -> Money? {
        let text = raw.trimmingWhitespace
        if text.isEmpty { return nil }
        // Byte by byte: every amount of every ledger answer comes this way, and reading it as Characters (split,
        // filter, a grapheme check per digit) was 4 % of a churned night's CPU.
        guard let cents = withBytes(text, cents(ofAmount:)) else { throw SOAPValueError("\"\(raw)\" is not an amount") }
        return Money(cents: cents)
    }

    /// The cents of an amount's bytes (`money`'s formats: parentheses or a leading or trailing `-`, then `$`,
    /// thousands commas, any number of decimals with the third rounding); nil when they are not one.
    private static func cents(ofAmount bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var low = 0, high = bytes.count
        var negative = false
        if high - low >= 2, bytes[low] == UInt8(ascii: "("), bytes[high - 1] == UInt8(ascii: ")") {
            negative = true; low += 1; high -= 1
        }
        if low < high, bytes[low] == UInt8(ascii: "-") { negative.toggle(); low += 1 }
        if low < high, bytes[high - 1] == UInt8(ascii: "-") { negative.toggle(); high -= 1 }
        if low < high, bytes[low] == UInt8(ascii: "$") { low += 1 }
        var whole: Int64 = 0, wholeDigits = 0, fraction: Int64 = 0, fractionDigits = 0, pointSeen = false
        for index in low..<high {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int64(byte - UInt8(ascii: "0"))
                if pointSeen {
                    switch fractionDigits {
                    case 0: fraction += digit * 10
                    case 1: fraction += digit
                    case 2: if digit >= 5 { fraction += 1 }
                    default: break
                    }
                    fractionDigits += 1
                } else {
                    wholeDigits += 1
                    guard wholeDigits <= 15 else { return nil }
                    whole = whole * 10 + digit
                }
            case UInt8(ascii: ","):
                // Thousands separators, in the whole part only.
                guard !pointSeen else { return nil }
            case UInt8(ascii: "."):
                guard !pointSeen else { return nil }
                pointSeen = true
            default:
                return nil
            }
        }
        guard wholeDigits + fractionDigits > 0 else { return nil }
        let cents = whole * 100 + fraction
        return negative ? -cents : cents
    }

    /// A decimal number (`1.000000` bathrooms); nil when empty.
    public static func decimal(_ raw: String) throws -> Double? {
        let text = String(raw.trimmingWhitespace)
        if text.isEmpty { return nil }
        guard let value = Double(text), value.isFinite else { throw SOAPValueError("\"\(raw)\" is not a number") }
        return value
    }

    /// A whole number (`699` square feet, `2` bedrooms); `2.00` is accepted when it is whole.
    public static func integer(_ raw: String) throws -> Int? {
        let text = String(raw.trimmingWhitespace)
        if text.isEmpty { return nil }
        if let value = Int(text) { return value }
        if let value = Double(text), value.rounded() == value, abs(value) < 1e15 { return Int(value) }
        throw SOAPValueError("\"\(raw)\" is not a whole number")
    }

    /// An accounting period, `MM/YYYY` (Yardi AR/AP) or `MMYYYY` (RPX AR_AccountingPeriod), as `YYYY-MM`.
    public static func month(_ raw: String) throws -> String? {
        let text = raw.trimmingWhitespace
        if text.isEmpty { return nil }
        // Byte by byte, as `money` (every ledger row has one: Characters filtered and tested were 1 % of a night's load).
        guard let period = withBytes(text, period(of:)) else { throw SOAPValueError("\"\(raw)\" is not a period MM/YYYY") }
        return period
    }

    /// `YYYY-MM` of `MMYYYY` or `MM/YYYY` bytes with a month 01-12; nil for anything else.
    private static func period(of bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let digits: [UInt8]
        switch bytes.count {
        case 6: digits = Array(bytes)
        case 7 where bytes[2] == UInt8(ascii: "/"): digits = Array(bytes[0..<2]) + Array(bytes[3...])
        default: return nil
        }
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let month = Int(digits[0] - UInt8(ascii: "0")) * 10 + Int(digits[1] - UInt8(ascii: "0"))
        guard (1...12).contains(month) else { return nil }
        return String(decoding: digits[2...] + [UInt8(ascii: "-")] + digits[0..<2], as: UTF8.self)
    }

    /// Sentinels both vendors use for "never".
    /// `YYYY-MM-DD` from the first ten bytes, read digit by digit: every date of every answer comes this way, and a
    /// string, an array of parts and three number parses for each were 2 % of a night's CPU.
    private static func isoDate(_ utf8: UnsafeBufferPointer<UInt8>) -> LocalDate? {
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in utf8[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard utf8.count >= 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }

    static func isNullDate(_ date: LocalDate) -> Bool {
        (date.year == 1 && date.month == 1 && date.day == 1) || (date.year == 1900 && date.month == 1 && date.day == 1)
    }

    private static func monthNumber(_ word: Substring) -> Int? {
        let names = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        return names.firstIndex(of: word.prefix(3).lowercased()).map { $0 + 1 }
    }
}

/// A value that is none of the formats a vendor documents; the message quotes it.
public struct SOAPValueError: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// An error quoting the value and saying what it is not.
    public init(_ description: String) { self.description = description }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
