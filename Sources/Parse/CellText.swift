import OwnerDashCore
import XLSXKit

// Cell-to-value conversions shared by every report. OneSite prints the same quantity
// as a number in one export and as text in another (docs/onesite-reports.md,
// "Cell values"), so each
// converter accepts both; text that is not the expected kind throws, because a
// silent zero or nil would be indistinguishable from real data.

/// A cell whose text is not the money, date, count or percent its column promises.
public struct CellTextError: Error, Equatable, Sendable, CustomStringConvertible {
    public var text: String
    /// "money amount", "date", "count", "percent".
    public var expected: String

    public init(text: String, expected: String) { self.text = text; self.expected = expected }

    public var description: String { "\"\(text)\" is not a \(expected)" }
}

// MARK: - Money

/// Reads OneSite money text: `$1,234.50`, `(125.00)`, `-5,675.60`, `125.00-`, with `*`/`†`/`‡`/`§` markers.
public enum MoneyText {
    /// Footnote markers OneSite prints beside amounts (eviction, NSF, 120+ days, cash basis).
    static let markers: Set<Character> = ["*", "†", "‡", "§"]

    /// The amount, nil for blank text; throws for text that is not an amount.
    public static func parse(_ raw: some StringProtocol) throws(CellTextError) -> Money? {
        // Bytes, not Characters: this runs for every amount of a 500,000-row report.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count)
        var iterator = raw.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case 0x2A: continue                                  // *
            case 0xC2:                                           // § (C2 A7), no-break space (C2 A0)
                guard let next = iterator.next() else { bytes.append(byte); continue }
                if next == 0xA7 { continue }
                if next == 0xA0 { bytes.append(0x20); continue }
                bytes.append(byte); bytes.append(next)
            case 0xE2:                                           // † (E2 80 A0), ‡ (E2 80 A1)
                guard let second = iterator.next() else { bytes.append(byte); continue }
                guard let third = iterator.next() else { bytes.append(byte); bytes.append(second); continue }
                if second == 0x80, third == 0xA0 || third == 0xA1 { continue }
                bytes.append(byte); bytes.append(second); bytes.append(third)
            default: bytes.append(byte)
            }
        }
        switch amount(bytes) {
        case .blank: return nil
        case .amount(let cents):
            let money = Money(cents: cents)
            guard money.isWithinLargestAmount else { throw CellTextError(text: String(raw), expected: Money.outOfRangeExpectation) }
            return money
        case .invalid: throw CellTextError(text: String(raw), expected: "money amount")
        }
    }

    enum Outcome { case blank, amount(Int64), invalid }

    /// Parses marker-free bytes: sign forms `(x)`, `x-`, `-x`, `+x`, `$` before or after the sign.
    static func amount(_ bytes: [UInt8]) -> Outcome {
        var lo = 0, hi = bytes.count
        func trim() {
            while lo < hi, isSpace(bytes[lo]) { lo += 1 }
            while hi > lo, isSpace(bytes[hi - 1]) { hi -= 1 }
        }
        trim()
        if lo == hi { return .blank }
        // Excel's accounting format prints zero as a lone dash; text exports keep it.
        if hi - lo == 1, bytes[lo] == UInt8(ascii: "-") { return .amount(0) }
        var negative = false
        if bytes[lo] == UInt8(ascii: "("), bytes[hi - 1] == UInt8(ascii: ")") {
            negative = true; lo += 1; hi -= 1; trim()
        } else if bytes[hi - 1] == UInt8(ascii: "-") {
            negative = true; hi -= 1; trim()
        }
        guard lo < hi else { return .invalid }
        if bytes[lo] == UInt8(ascii: "-") {
            if negative { return .invalid }
            negative = true; lo += 1; trim()
        } else if bytes[lo] == UInt8(ascii: "+") {
            lo += 1; trim()
        }
        if lo < hi, bytes[lo] == UInt8(ascii: "$") { lo += 1; trim() }
        // `$(125.00)` and `$-125.00` put the sign after the currency symbol.
        if lo < hi, !negative, bytes[lo] == UInt8(ascii: "("), bytes[hi - 1] == UInt8(ascii: ")") {
            negative = true; lo += 1; hi -= 1; trim()
        } else if lo < hi, !negative, bytes[lo] == UInt8(ascii: "-") {
            negative = true; lo += 1
        }
        guard let cents = decimalCents(bytes[lo..<hi]) else { return .invalid }
        return .amount(negative ? -cents : cents)
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// `1,234.567` -> 123457 (half away from zero); thousands separators must group by three.
    static func decimalCents(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var whole: Int64 = 0
        var digitsInGroup = 0
        var groups = 0
        var sawDigit = false
        var index = bytes.startIndex
        while index < bytes.endIndex, bytes[index] != UInt8(ascii: ".") {
            let byte = bytes[index]
            if byte == UInt8(ascii: ",") {
                // The first group has 1-3 digits, every later one exactly 3.
                guard digitsInGroup > 0, digitsInGroup <= 3, groups == 0 || digitsInGroup == 3 else { return nil }
                groups += 1; digitsInGroup = 0
            } else if byte >= 0x30, byte <= 0x39 {
                let (times, overflowA) = whole.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = times.addingReportingOverflow(Int64(byte - 0x30))
                guard !overflowA, !overflowB else { return nil }
                whole = sum; digitsInGroup += 1; sawDigit = true
            } else {
                return nil
            }
            index += 1
        }
        if groups > 0, digitsInGroup != 3 { return nil }
        var fraction: [Int64] = []
        if index < bytes.endIndex {
            index += 1
            while index < bytes.endIndex {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                if fraction.count < 3 { fraction.append(Int64(byte - 0x30)) }
                sawDigit = true
                index += 1
            }
        }
        guard sawDigit else { return nil }
        var cents = (fraction.count > 0 ? fraction[0] * 10 : 0) + (fraction.count > 1 ? fraction[1] : 0)
        if fraction.count > 2, fraction[2] >= 5 { cents += 1 }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: 100)
        guard !overflow else { return nil }
        return scaled + cents
    }

    /// True for text a person would read as an amount (`$12.00`, `1,234.50`, `(5.00)`), not an id or unit number.
    static func looksLikeAmount(_ text: some StringProtocol) -> Bool {
        guard text.contains(where: { $0 == "$" || $0 == "." }),
              text.contains(where: { $0.isASCIIDigit && $0 != "0" }),
              (try? parse(text)) != nil else { return false }
        return true
    }
}

extension Money {
    /// What a money cell past `Money.largestAmount` is not, for `CellTextError`.
    static let outOfRangeExpectation = "money amount within $10,000,000,000 either way"
}

extension CellValue {
    /// The cell as money: numbers as dollars, text through `MoneyText`, blank as nil.
    public func money() throws(CellTextError) -> Money? {
        switch self {
        case .empty: return nil
        case .number(let value):
            guard value.isFinite else { throw CellTextError(text: String(value), expected: "money amount") }
            guard let money = Money(dollars: value) else {
                throw CellTextError(text: String(value), expected: Money.outOfRangeExpectation)
            }
            return money
        case .text(let text): return try MoneyText.parse(text)
        case .date(let date): throw CellTextError(text: date.isoText, expected: "money amount")
        case .bool(let flag): throw CellTextError(text: flag ? "TRUE" : "FALSE", expected: "money amount")
        case .error(let code): throw CellTextError(text: code, expected: "money amount")
        }
    }
}

// MARK: - Dates

/// The order of day and month in a sheet's `NN/NN/YYYY` dates. OneSite prints `MM/DD/YYYY`, and `DD/MM/YYYY` at a
/// property set up with a non-US locale (docs/onesite-reports.md, "Cell values"); one sheet never mixes them. The
/// order is decided per sheet from the sheet's own unambiguous dates (`decide`), never per cell: read cell by cell,
/// `05/03/2026` would be May 3 in a sheet whose `27/03/2026` says it means 5 March.
public enum DateOrder: Sendable, Equatable {
    case monthFirst, dayFirst

    /// The order slash dates are read in: the sheet's, as the report parser has decided it so far (`SheetDateOrder`
    /// around its rows); month first elsewhere and until a sheet's dates say otherwise.
    public static var current: DateOrder { SheetDateOrder.current?.order ?? .monthFirst }

    /// What the slash dates of `rows` say: `dayFirst` when one reads only day-first (a first number above 12),
    /// `monthFirst` when one reads only month-first (a second number above 12), nil when none tells (every day 1-12).
    /// Dates saying both ways (a sheet mixing orders) decide nothing.
    public static func decide(_ rows: some Sequence<SheetRow>) -> DateOrder? {
        var dayFirst = false, monthFirst = false
        for row in rows {
            for cell in row.cells {
                guard case .text(let text) = cell, text.utf8.contains(UInt8(ascii: "/")) else { continue }
                vote(text, dayFirst: &dayFirst, monthFirst: &monthFirst)
            }
        }
        if dayFirst == monthFirst { return nil }
        return dayFirst ? .dayFirst : .monthFirst
    }

    /// Whether `row` holds a slash date that reads both ways (both numbers 1-12): one whose meaning needs the order.
    static func hasAmbiguousDate(_ row: SheetRow) -> Bool {
        for cell in row.cells {
            guard case .text(let text) = cell, text.utf8.contains(UInt8(ascii: "/")) else { continue }
            var ambiguous = false
            scan(text) { first, second in if (1...12).contains(first) && (1...12).contains(second) { ambiguous = true } }
            if ambiguous { return true }
        }
        return false
    }

    /// Reads each `N/N/YYYY` (1-2 digits, 1-2 digits, 4 digits) of `text` and notes which order it proves.
    static func vote(_ text: String, dayFirst: inout Bool, monthFirst: inout Bool) {
        var provesDayFirst = false, provesMonthFirst = false
        scan(text) { first, second in
            if first > 12, (1...12).contains(second), first <= 31 { provesDayFirst = true }
            if second > 12, (1...12).contains(first), second <= 31 { provesMonthFirst = true }
        }
        if provesDayFirst { dayFirst = true }
        if provesMonthFirst { monthFirst = true }
    }

    /// Calls `body` with the two leading numbers of each `N/N/YYYY` in `text`.
    private static func scan(_ text: String, _ body: (Int, Int) -> Void) {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ from: Int) -> (value: Int, end: Int) {
            var value = 0, end = from
            while end < bytes.count, end - from < 4, bytes[end] >= 0x30, bytes[end] <= 0x39 {
                value = value * 10 + Int(bytes[end] - 0x30); end += 1
            }
            return (value, end)
        }
        while index < bytes.count {
            let startsNumber = bytes[index] >= 0x30 && bytes[index] <= 0x39
                && (index == 0 || !(bytes[index - 1] >= 0x30 && bytes[index - 1] <= 0x39))
            guard startsNumber else { index += 1; continue }
            let first = digits(index)
            guard (1...2).contains(first.end - index), first.end < bytes.count, bytes[first.end] == UInt8(ascii: "/") else {
                index = max(first.end, index + 1); continue
            }
            let second = digits(first.end + 1)
            guard (1...2).contains(second.end - first.end - 1), second.end < bytes.count,
                  bytes[second.end] == UInt8(ascii: "/") else { index = max(second.end, index + 1); continue }
            let year = digits(second.end + 1)
            guard year.end - second.end - 1 == 4 else { index = max(year.end, index + 1); continue }
            body(first.value, second.value)
            index = year.end
        }
    }
}

/// The date order of the sheet a report parser is reading, decided as its rows go by: from the first row whose
/// dates prove one order, and only when a date that reads both ways comes first, from rows read ahead until one does
/// (`RealPageReports.dateOrderLookahead`). A sheet without such a date is never read ahead, so it streams.
final class SheetDateOrder: @unchecked Sendable {
    // One parse of one sheet, on one thread: the box is only shared with the DateText calls of that parse.
    /// The sheet being parsed (nil outside a report parse).
    @TaskLocal static var current: SheetDateOrder?
    /// nil until a date of the sheet proves an order.
    private(set) var order: DateOrder?

    /// Notes what `rows` prove, when nothing has been proved yet.
    func note(_ rows: some Sequence<SheetRow>) {
        if order == nil { order = DateOrder.decide(rows) }
    }

    /// Whether `row` needs the order before it is read: undecided, and a date in it reads both ways.
    func needsDecision(before row: SheetRow) -> Bool {
        order == nil && DateOrder.hasAmbiguousDate(row)
    }
}

/// Reads OneSite date text: `MM/DD/YYYY`, `M/D/YYYY`, `YYYY-MM-DD`, with or without a time such as `06:58:21AM`.
/// Slash dates are read in `DateOrder.current` (day first in a sheet whose dates say so).
public enum DateText {
    /// The date, nil for blank text; throws for text that is not a date.
    public static func parse(_ raw: some StringProtocol) throws(CellTextError) -> LocalDate? {
        let text = Substring(raw).trimmingWhitespace
        if text.isEmpty { return nil }
        guard let date = parseDate(text) else { throw CellTextError(text: String(raw), expected: "date") }
        return date
    }

    /// Every date of a stacked cell (`12/06/2024\n04/18/2026` is move-in over move-out), in order.
    public static func parseStacked(_ raw: some StringProtocol) throws(CellTextError) -> [LocalDate] {
        var dates: [LocalDate] = []
        for line in raw.split(whereSeparator: \.isNewline) {
            if let date = try parse(line) { dates.append(date) }
        }
        return dates
    }

    static func parseDate(_ text: Substring) -> LocalDate? {
        var result: LocalDate?
        var copy = String(text)
        copy.withUTF8 { result = parseDate(bytes: $0) }
        return result
    }

    /// `M/D/YYYY` or `M/D/YY` or `YYYY-MM-DD`, then nothing or a clock time (`06:58:21AM`, `T13:05:00`).
    static func parseDate(bytes: UnsafeBufferPointer<UInt8>) -> LocalDate? {
        var index = 0
        func number(maxDigits: Int) -> (value: Int, digits: Int) {
            var value = 0, digits = 0
            while index < bytes.count, digits < maxDigits, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                value = value * 10 + Int(bytes[index] - 0x30); digits += 1; index += 1
            }
            return (value, digits)
        }
        let first = number(maxDigits: 4)
        guard first.digits > 0, index < bytes.count else { return nil }
        let date: LocalDate?
        if bytes[index] == UInt8(ascii: "/"), first.digits <= 2 {
            index += 1
            let day = number(maxDigits: 2)
            guard day.digits > 0, index < bytes.count, bytes[index] == UInt8(ascii: "/") else { return nil }
            index += 1
            let year = number(maxDigits: 4)
            guard year.digits == 4 || year.digits == 2 else { return nil }
            // Two-digit years appear in some HTML exports; OneSite data starts after 2000.
            let dayFirst = DateOrder.current == .dayFirst
            date = LocalDate(year: year.digits == 2 ? 2000 + year.value : year.value,
                             month: dayFirst ? day.value : first.value, day: dayFirst ? first.value : day.value)
        } else if bytes[index] == UInt8(ascii: "-"), first.digits == 4 {
            index += 1
            let month = number(maxDigits: 2)
            guard month.digits == 2, index < bytes.count, bytes[index] == UInt8(ascii: "-") else { return nil }
            index += 1
            let day = number(maxDigits: 2)
            guard day.digits == 2 else { return nil }
            date = LocalDate(year: first.value, month: month.value, day: day.value)
            if index < bytes.count, bytes[index] == UInt8(ascii: "T") { index += 1 }
        } else {
            return nil
        }
        guard let date, index == bytes.count || validTime(bytes, from: index) else { return nil }
        return date
    }

    /// Accepts nothing, or a clock time like `06:58:21AM`, `7:57:40 PM`, `13:05`, `00:00:00.000`.
    static func validTime(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var lo = start, hi = bytes.count
        while lo < hi, MoneyText.isSpace(bytes[lo]) { lo += 1 }
        while hi > lo, MoneyText.isSpace(bytes[hi - 1]) { hi -= 1 }
        if lo == hi { return true }
        if hi - lo >= 2, bytes[hi - 1] | 0x20 == UInt8(ascii: "m"),
           bytes[hi - 2] | 0x20 == UInt8(ascii: "a") || bytes[hi - 2] | 0x20 == UInt8(ascii: "p") {
            hi -= 2
            while hi > lo, MoneyText.isSpace(bytes[hi - 1]) { hi -= 1 }
        }
        var parts = 1, digits = 0, inFraction = false
        for index in lo..<hi {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") {
                guard digits > 0, !inFraction else { return false }
                parts += 1; digits = 0
            } else if byte == UInt8(ascii: "."), parts == 3, digits > 0 {
                inFraction = true
            } else if byte >= 0x30, byte <= 0x39 {
                digits += 1
                guard inFraction || digits <= 2 else { return false }
            } else {
                return false
            }
        }
        return (2...3).contains(parts) && digits > 0
    }

    /// Minutes after midnight of the clock time following a date's text (`01/03/2026 09:15:00AM`, `1/3/2026 14:30`,
    /// `2026-01-03T09:15:00`); nil when the text is no date or carries no time.
    static func clockMinutes(after text: String) -> Int? {
        let trimmed = text.trimmingWhitespace
        guard parseDate(trimmed) != nil,
              let start = trimmed.firstIndex(where: { $0 == " " || $0 == "T" }) else { return nil }
        var clock = trimmed[trimmed.index(after: start)...].trimmingWhitespace.uppercased()
        var afternoon: Bool?
        if clock.hasSuffix("AM") || clock.hasSuffix("PM") {
            afternoon = clock.hasSuffix("PM")
            clock = String(clock.dropLast(2)).trimmingCharacters(in: " ")
        }
        let parts = clock.split(separator: ":")
        guard parts.count >= 2, var hour = Int(parts[0]), let minute = Int(parts[1]), (0..<60).contains(minute)
        else { return nil }
        if let afternoon {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (afternoon ? 12 : 0)
        }
        guard (0..<24).contains(hour) else { return nil }
        return hour * 60 + minute
    }

    /// The 1900-system serial of 1970-01-01; serials in date columns are read in that system.
    static let serialOfEpoch = 25569.0

    /// Converts an Excel serial (1900 system) to a date, ignoring the time fraction.
    public static func fromSerial(_ serial: Double) -> LocalDate? {
        // 1 = 1900-01-01 ... 2958465 = 9999-12-31; before 1900-03-01 Excel's fake leap day skews the count.
        guard serial.isFinite, serial >= 61, serial < 2_958_466 else { return nil }
        return LocalDate(daysSinceEpoch: Int((serial - serialOfEpoch).rounded(.down)))
    }
}

extension CellValue {
    /// The time of day a date cell prints, `HH:MM` (24-hour): a date-time cell, a serial's fraction, or the clock
    /// time after a date's text (`01/03/2026 09:15:00AM`); nil for a date alone, midnight, or anything else.
    var timeOfDay: String? {
        let minutes: Int
        switch self {
        case .date(let value):
            minutes = value.hour * 60 + value.minute
        case .number(let serial):
            guard serial.isFinite, serial >= 0 else { return nil }
            minutes = Int(((serial - serial.rounded(.down)) * 1440).rounded()) % 1440
        case .text(let text):
            guard let clock = DateText.clockMinutes(after: text) else { return nil }
            minutes = clock
        default:
            return nil
        }
        guard minutes > 0 else { return nil }
        let hours = minutes / 60, rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    /// The cell as a date: date cells, serial numbers, or text through `DateText`; blank as nil.
    public func date() throws(CellTextError) -> LocalDate? {
        switch self {
        case .empty: return nil
        case .date(let value):
            guard let date = LocalDate(year: value.year, month: value.month, day: value.day) else {
                throw CellTextError(text: value.isoText, expected: "date")
            }
            return date
        case .number(let serial):
            guard let date = DateText.fromSerial(serial) else {
                throw CellTextError(text: String(serial), expected: "date")
            }
            return date
        case .text(let text):
            do {
                return try DateText.parse(text)
            } catch {
                // A serial printed as text: HTML and CSV exports of a date cell stored without a date format
                // (Leasing Activity Detail keeps real serials). Only five digits, 1950-2100, can be that.
                let digits = text.trimmingWhitespace
                if digits.utf8.count == 5, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                   let serial = Double(digits), serial >= 18_264, serial <= 73_051,
                   let date = DateText.fromSerial(serial) {
                    return date
                }
                throw error
            }
        case .bool(let flag): throw CellTextError(text: flag ? "TRUE" : "FALSE", expected: "date")
        case .error(let code): throw CellTextError(text: code, expected: "date")
        }
    }

    /// All dates of a cell; text cells may stack several on separate lines.
    public func stackedDates() throws(CellTextError) -> [LocalDate] {
        if case .text(let text) = self { return try DateText.parseStacked(text) }
        return try date().map { [$0] } ?? []
    }
}

// MARK: - Counts and percents

extension CellValue {
    /// The cell as a whole count (`12`, `1,204`, `12.0`); blank as nil.
    public func count() throws(CellTextError) -> Int? {
        let fail: (String) -> CellTextError = { CellTextError(text: $0, expected: "count") }
        switch self {
        case .empty: return nil
        case .number(let value):
            guard value.isFinite, value == value.rounded(), abs(value) < 1e15 else { throw fail(String(value)) }
            return Int(value)
        case .text(let raw):
            let text = raw.trimmingWhitespace
            if text.isEmpty { return nil }
            guard let cents = try? MoneyText.parse(text), !text.contains("$"),
                  cents.cents % 100 == 0 else { throw fail(raw) }
            return Int(cents.cents / 100)
        case .date(let date): throw fail(date.isoText)
        case .bool(let flag): throw fail(flag ? "TRUE" : "FALSE")
        case .error(let code): throw fail(code)
        }
    }

    /// The cell as a percent as printed, 0-100 (`95.74`, `95.74%`); blank as nil.
    public func percent() throws(CellTextError) -> Double? {
        let fail: (String) -> CellTextError = { CellTextError(text: $0, expected: "percent") }
        switch self {
        case .empty: return nil
        case .number(let value):
            guard value.isFinite else { throw fail(String(value)) }
            return value
        case .text(let raw):
            var text = raw.trimmingWhitespace
            if text.isEmpty { return nil }
            if text.hasSuffix("%") { text = text.dropLast().trimmingWhitespace }
            // `1,400.00 %`: thousands separators.
            if text.contains(",") { text = Substring(text.filter { $0 != "," }) }
            let negative = text.hasPrefix("-")
            if negative { text = text.dropFirst() }
            guard !text.isEmpty, text.allSatisfy({ $0.isASCIIDigit || $0 == "." }),
                  text.filter({ $0 == "." }).count <= 1, let value = Double(text) else { throw fail(raw) }
            return negative ? -value : value
        case .date(let date): throw fail(date.isoText)
        case .bool(let flag): throw fail(flag ? "TRUE" : "FALSE")
        case .error(let code): throw fail(code)
        }
    }

    /// The cell as a plain decimal (`850`, `1,050.5`); blank as nil.
    public func decimal() throws(CellTextError) -> Double? {
        switch self {
        case .number(let value):
            guard value.isFinite else { throw CellTextError(text: String(value), expected: "number") }
            return value
        case .text(let raw):
            let text = raw.trimmingWhitespace
            if text.isEmpty { return nil }
            guard !text.contains("$"), let cents = try? MoneyText.parse(text) else {
                throw CellTextError(text: raw, expected: "number")
            }
            return Double(cents.cents) / 100
        case .empty: return nil
        case .date(let date): throw CellTextError(text: date.isoText, expected: "number")
        case .bool(let flag): throw CellTextError(text: flag ? "TRUE" : "FALSE", expected: "number")
        case .error(let code): throw CellTextError(text: code, expected: "number")
        }
    }

    /// The cell as trimmed text (numbers in shortest form, so unit `1203` stored as a number reads `1203`); blank as nil.
    public var text: String? {
        switch self {
        case .empty: return nil
        case .text(let raw):
            // Most cells start and end with a printable ASCII byte: hand back the same string, no trimming copy.
            if let first = raw.utf8.first, let last = raw.utf8.last,
               (0x21..<0x7F).contains(first), (0x21..<0x7F).contains(last) { return raw }
            let text = raw.trimmingWhitespace
            return text.isEmpty ? nil : String(text)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        case .date(let date): return date.isoText
        case .bool(let flag): return flag ? "TRUE" : "FALSE"
        case .error(let code): return code
        }
    }

    /// True for a cell with nothing in it (whitespace-only text counts as nothing).
    var isBlank: Bool {
        switch self {
        case .empty: return true
        case .text(let text):
            // A cell that starts with a visible ASCII character (most of them) is not blank: no scalar walk.
            if let first = text.utf8.first, first > 0x20, first < 0x7F { return false }
            return text.unicodeScalars.allSatisfy(\.isSpaceLike)
        default: return false
        }
    }

    /// True when the cell holds a quantity (number, date, or text reading as money, count, percent or date),
    /// which is what separates data rows from label-only group rows.
    /// A number, date or boolean cell: a quantity without looking at any text.
    var isTypedQuantity: Bool {
        switch self {
        case .number, .date, .bool: return true
        default: return false
        }
    }

    var holdsValue: Bool {
        switch self {
        case .empty, .error: return false
        case .number, .date, .bool: return true
        case .text(let raw):
            let text = raw.trimmingWhitespace
            guard let first = text.first else { return false }
            guard first.isASCIIDigit || "$(-.*†‡§+".contains(first) else { return false }
            if (try? MoneyText.parse(text)) != nil { return true }
            if (try? percent()) != nil { return true }
            if let line = text.split(whereSeparator: \.isNewline).first,
               DateText.parseDate(line.trimmingWhitespace) != nil { return true }
            return false
        }
    }
}

extension ExcelDateTime {
    /// `YYYY-MM-DD` for messages.
    var isoText: String {
        LocalDate(year: year, month: month, day: day)?.iso ?? "\(year)-\(month)-\(day)"
    }
}

// MARK: - Text helpers

extension Character {
    var isASCIIDigit: Bool { asciiValue.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
    var asciiDigitValue: Int? { isASCIIDigit ? asciiValue.map { Int($0) - 48 } : nil }
}

/// Phone numbers and e-mail addresses printed under a resident's name (stacked lines, `Phone/email` continuation
/// rows, `(512) 555-0150 / ann@example.com`).
enum ContactText {
    /// The first phone number and the first e-mail address among `lines` (each may hold several, split by `/` or `;`).
    static func split(_ lines: [Substring]) -> (phone: String?, email: String?) {
        var phone: String?, email: String?
        for line in lines {
            for part in line.split(whereSeparator: { $0 == "/" || $0 == ";" || $0 == "," }) {
                var text = part.trimmingWhitespace
                // `(266)555-8610   name@example.com`: phone and e-mail in one cell, apart by spaces only.
                if text.contains("@"), text.contains(" "),
                   let at = text.split(separator: " ").last(where: { $0.contains("@") }) {
                    email = email ?? String(at)
                    text = text[..<at.startIndex].trimmingWhitespace
                }
                if text.contains("@"), !text.contains(" ") {
                    email = email ?? String(text)
                } else if text.filter(\.isNumber).count >= 7,
                          text.allSatisfy({ $0.isNumber || " ()+-.xX".contains($0) }) {
                    phone = phone ?? String(text)
                }
            }
        }
        return (phone, email)
    }

    /// The contact on a continuation row of its own: every line of every cell.
    static func of(_ row: SheetRow) -> (phone: String?, email: String?) {
        split(row.cells.compactMap(\.text).flatMap { $0.split(whereSeparator: \.isNewline) })
    }

    /// The contact stacked under a name in its cell (`Lee, Ann\n(512) 555-0101\nann@example.com`): every line but
    /// the first.
    static func underName(_ cell: String?) -> (phone: String?, email: String?) {
        split(Array(cell?.split(whereSeparator: \.isNewline).dropFirst() ?? []))
    }
}
