import OwnerDashCore
import XLSXKit

// Cell-to-value conversions shared by every report. OneSite prints the same quantity
// as a number in one export and as text in another (vendor-formats 3.2), so each
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
        var text = Substring(raw).filter { !markers.contains($0) }[...]
        text = text.trimmingWhitespace
        if text.isEmpty { return nil }
        let fail = CellTextError(text: String(raw), expected: "money amount")
        // Excel's accounting format prints zero as a lone dash; text exports keep it.
        if text == "-" { return .zero }

        var negative = false
        if text.hasPrefix("("), text.hasSuffix(")") {
            negative = true; text = text.dropFirst().dropLast().trimmingWhitespace
        } else if text.hasSuffix("-") {
            negative = true; text = text.dropLast().trimmingWhitespace
        }
        if text.hasPrefix("-") {
            if negative { throw fail }
            negative = true; text = text.dropFirst().trimmingWhitespace
        } else if text.hasPrefix("+") {
            text = text.dropFirst().trimmingWhitespace
        }
        if text.hasPrefix("$") { text = text.dropFirst().trimmingWhitespace }
        // `$(125.00)` and `$-125.00` put the sign after the currency symbol.
        if text.hasPrefix("("), text.hasSuffix(")"), !negative {
            negative = true; text = text.dropFirst().dropLast().trimmingWhitespace
        } else if text.hasPrefix("-"), !negative {
            negative = true; text = text.dropFirst()
        }
        guard let cents = decimalCents(text) else { throw fail }
        return Money(cents: negative ? -cents : cents)
    }

    /// `1,234.567` -> 123457 (half away from zero); thousands separators must group by three.
    static func decimalCents(_ text: Substring) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let integerText = parts.first else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !(integerText.isEmpty && fraction.isEmpty),
              fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        let groups = integerText.split(separator: ",", omittingEmptySubsequences: false)
        if groups.count > 1 {
            guard let first = groups.first, (1...3).contains(first.count),
                  groups.dropFirst().allSatisfy({ $0.count == 3 }) else { return nil }
        }
        var whole: Int64 = 0
        for group in groups {
            for character in group {
                guard let digit = character.asciiDigitValue else { return nil }
                let (times, overflowA) = whole.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = times.addingReportingOverflow(Int64(digit))
                guard !overflowA, !overflowB else { return nil }
                whole = sum
            }
        }
        let digits = fraction.compactMap(\.asciiDigitValue)
        var cents = Int64(digits.count > 0 ? digits[0] * 10 : 0) + Int64(digits.count > 1 ? digits[1] : 0)
        if digits.count > 2, digits[2] >= 5 { cents += 1 }
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

extension CellValue {
    /// The cell as money: numbers as dollars, text through `MoneyText`, blank as nil.
    public func money() throws(CellTextError) -> Money? {
        switch self {
        case .empty: return nil
        case .number(let value):
            guard value.isFinite else { throw CellTextError(text: String(value), expected: "money amount") }
            return Money(dollars: value)
        case .text(let text): return try MoneyText.parse(text)
        case .date(let date): throw CellTextError(text: date.isoText, expected: "money amount")
        case .bool(let flag): throw CellTextError(text: flag ? "TRUE" : "FALSE", expected: "money amount")
        case .error(let code): throw CellTextError(text: code, expected: "money amount")
        }
    }
}

// MARK: - Dates

/// Reads OneSite date text: `MM/DD/YYYY`, `M/D/YYYY`, `YYYY-MM-DD`, with or without a time such as `06:58:21AM`.
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
        // Only the first token is the date; a time of day may follow after spaces or a `T`.
        let token = text.prefix { !$0.isWhitespace && $0 != "T" }
        if token.contains("/") {
            let parts = token.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
                  parts[0].count <= 2, parts[1].count <= 2, parts[2].count == 4 || parts[2].count == 2,
                  let month = Int(parts[0]), let day = Int(parts[1]), var year = Int(parts[2]) else { return nil }
            // Two-digit years appear in some HTML exports; OneSite data starts after 2000.
            if parts[2].count == 2 { year += 2000 }
            guard validTime(text.dropFirst(token.count)) else { return nil }
            return LocalDate(year: year, month: month, day: day)
        }
        if token.count == 10, let date = LocalDate(iso: token) {
            var rest = text.dropFirst(token.count)
            if rest.first == "T" { rest = rest.dropFirst() }
            return validTime(rest) ? date : nil
        }
        return nil
    }

    /// Accepts nothing, or a clock time like `06:58:21AM`, `7:57:40 PM`, `13:05`, `00:00:00`.
    static func validTime(_ rest: Substring) -> Bool {
        var text = rest.trimmingWhitespace
        if text.isEmpty { return true }
        let upper = text.uppercased()
        if upper.hasSuffix("AM") || upper.hasSuffix("PM") { text = text.dropLast(2).trimmingWhitespace }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return false }
        return parts.allSatisfy { part in
            let whole = part.split(separator: ".").first ?? part
            return !whole.isEmpty && whole.count <= 2 && whole.allSatisfy(\.isASCIIDigit)
        }
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
        case .text(let text): return try DateText.parse(text)
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
        case .text(let text): return text.allSatisfy(\.isWhitespace)
        default: return false
        }
    }

    /// True when the cell holds a quantity (number, date, or text reading as money, count, percent or date),
    /// which is what separates data rows from label-only group rows.
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

extension StringProtocol {
    /// The text without leading and trailing whitespace or newlines.
    var trimmingWhitespace: SubSequence {
        guard let start = firstIndex(where: { !$0.isWhitespace }),
              let end = lastIndex(where: { !$0.isWhitespace }) else { return self[endIndex...] }
        return self[start...end]
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    var asciiDigitValue: Int? { isASCIIDigit ? asciiValue.map { Int($0) - 48 } : nil }
}
