import OwnerDashCore
import XLSXKit

/// What the rows above a OneSite report's header say about it: property, dates, UPPERCASE title, report code.
public struct TitleBlock: Sendable, Equatable {
    /// Text after the last " - " of the `<Management company> - <Property name>` line.
    public var propertyName: String?
    /// From `As of MM/DD/YYYY` (also inside `Fiscal Period 022026 As of 01/29/2026`), else the end of a date range.
    public var asOf: LocalDate?
    /// Start of a date range line (`01/01/2026 - 01/31/2026`, `Start Date: ...`).
    public var periodStart: LocalDate?
    /// The first UPPERCASE title line, e.g. `BOXSCORE`.
    public var title: String?
    /// The report code, e.g. `120.080.305`.
    public var reportCode: String?
    /// RealPage's error text when the file is an error dressed as a report (`Invalid end date entered - ...`).
    public var errorMessage: String?
    /// The fiscal period as `YYYY-MM`, from `Fiscal Period 022026` / `Fiscal period: 012026` (parameter lines too).
    public var fiscalPeriod: String?
    /// The property's unit count printed above the header (`Total Units:` `352`, Projected Occupancy).
    public var totalUnits: Int?
    /// Normalized text of every title cell, so the title repeated at a page break is recognised.
    var cellKeys: Set<String> = []

    /// Reads the title block from the rows above the header (or the first rows, before the header is known).
    public init(rows: some Sequence<SheetRow>) {
        var rangeEnd: LocalDate?
        for row in rows {
            var afterTotalUnits = false
            // A title line is a cell or a few; a row with more than `cellsPerRow` values is a table row, whose
            // later cells (up to 16,384 in a damaged file) say nothing about the title and would cost a read each.
            for cell in row.cells.lazy.filter({ !$0.isBlank }).prefix(Self.cellsPerRow) {
                // `Total Units:` in one cell and the count in the next.
                if afterTotalUnits, totalUnits == nil, let count = try? cell.count() { totalUnits = count }
                afterTotalUnits = false
                guard case .text(let raw) = cell, let text = cell.text else { continue }
                cellKeys.insert(HeaderText.key(text))
                if fiscalPeriod == nil { fiscalPeriod = Self.fiscalPeriod(in: text) }
                if HeaderText.key(text) == "totalunits" { afterTotalUnits = true; continue }
                // Parameter cells list the report's options (`Accounting activity since: ...`), not its identity.
                if text.lowercased().hasPrefix("parameters") { continue }
                for lineText in raw.split(whereSeparator: \.isNewline) {
                    let line = lineText.trimmingWhitespace
                    if line.isEmpty { continue }
                    read(line: line, rangeEnd: &rangeEnd)
                }
            }
        }
        if asOf == nil { asOf = rangeEnd }
    }

    /// How many non-blank cells of a row the title block reads.
    static let cellsPerRow = 64

    /// The report the title or code names, if any.
    public var reportType: ReportType? {
        if let reportCode, let type = Self.codes[reportCode.lowercased()] { return type }
        if let title, let type = Self.titles[HeaderText.key(title)] { return type }
        return nil
    }

    private mutating func read(line: Substring, rangeEnd: inout LocalDate?) {
        let lower = line.lowercased()
        if errorMessage == nil, lower.hasPrefix("invalid"), lower.contains("date") {
            errorMessage = String(line)
            return
        }
        if Self.isProductLine(line) || Self.isPageLine(line) || Self.isTimestamp(line) { return }
        if totalUnits == nil, lower.hasPrefix("total units"), let colon = line.firstIndex(of: ":"),
           let count = Int(line[line.index(after: colon)...].trimmingWhitespace.filter { $0 != "," }) {
            totalUnits = count
            return
        }
        if Self.isReportCode(line) {
            if reportCode == nil { reportCode = String(line) }
            return
        }
        if let range = lower.firstRange(of: "as of") {
            let after = lower[range.upperBound...]
            if asOf == nil, let date = Self.dates(in: after).first { asOf = date }
            return
        }
        let dates = Self.dates(in: line)
        if dates.count >= 2 {
            if periodStart == nil { periodStart = dates[0]; rangeEnd = dates[1] }
            return
        }
        if dates.count == 1 {
            // Split range: `Start Date: 01/01/2026` and `End Date: 01/31/2026` in separate cells.
            if lower.contains("start") || lower.contains("from") || lower.contains("begin") {
                if periodStart == nil { periodStart = dates[0] }
            } else if lower.contains("end") || lower.contains("through") || lower.hasPrefix("to") {
                if rangeEnd == nil { rangeEnd = dates[0] }
            }
            return
        }
        let key = HeaderText.key(line)
        if Self.titles[key] != nil || Self.isUppercaseTitle(line) {
            if title == nil { title = String(line) }
            return
        }
        if propertyName == nil, let name = Self.propertyName(fromCompanyLine: line) {
            propertyName = name
        }
    }

    // MARK: - Line kinds

    /// OneSite report titles (normalized) and the report each names: the descriptors' titles.
    static var titles: [String: ReportType] { ReportCatalog.titles }

    /// OneSite report codes printed under the title: the descriptors' codes.
    static var codes: [String: ReportType] { ReportCatalog.codes }

    /// `Fiscal Period 022026`, `Fiscal period: 012026`, `...; Fiscal Period: 022026; ...` -> `2026-02`.
    static func fiscalPeriod(in text: some StringProtocol) -> String? {
        let lower = text.lowercased()
        guard let range = lower.range(of: "fiscal period") else { return nil }
        let digits = lower[range.upperBound...].drop { $0 == ":" || $0.isWhitespace }.prefix { $0.isASCIIDigit }
        guard digits.count == 6, let month = Int(digits.prefix(2)), (1...12).contains(month) else { return nil }
        return "\(digits.suffix(4))-\(digits.prefix(2))"
    }

    static func isProductLine(_ line: Substring) -> Bool {
        line.lowercased().hasPrefix("onesite")
    }

    static func isPageLine(_ line: Substring) -> Bool {
        let words = line.split(separator: " ")
        return words.count == 4 && words[0].lowercased() == "page" && words[2].lowercased() == "of"
            && words[1].allSatisfy(\.isASCIIDigit) && words[3].allSatisfy(\.isASCIIDigit)
    }

    /// A run timestamp: a date followed by a clock time (`02/08/2026 06:58:21AM`, `2/8/2026  7:57:40AM`).
    static func isTimestamp(_ line: Substring) -> Bool {
        line.contains(":") && DateText.parseDate(line) != nil && line.contains(where: \.isWhitespace)
    }

    /// `120.080.305`, `mgt-542-001`, `LEA-236-001`.
    static func isReportCode(_ line: Substring) -> Bool {
        let parts = line.split(omittingEmptySubsequences: false) { $0 == "." || $0 == "-" }
        guard parts.count == 3, line.count <= 12, !line.contains(" ") else { return false }
        return parts[1].allSatisfy(\.isASCIIDigit) && parts[2].allSatisfy(\.isASCIIDigit)
            && !parts[1].isEmpty && !parts[2].isEmpty && parts[0].allSatisfy { $0.isLetter || $0.isASCIIDigit }
    }

    static func isUppercaseTitle(_ line: Substring) -> Bool {
        line.count >= 4 && line.contains(where: \.isLetter)
            && !line.contains(where: \.isLowercase) && !line.contains(where: \.isASCIIDigit)
            && !line.contains(" - ")
    }

    static func propertyName(fromCompanyLine line: Substring) -> String? {
        let separators = [" - ", " \u{2013} ", " \u{2014} "]
        var best: Range<Substring.Index>?
        for separator in separators {
            if let range = line.ranges(of: separator).last,
               best.map({ range.lowerBound > $0.lowerBound }) ?? true { best = range }
        }
        guard let range = best else { return nil }
        let name = line[range.upperBound...].trimmingWhitespace
        return name.isEmpty ? nil : String(name)
    }

    /// The dates among a line's words, in order (punctuation around them ignored).
    static func dates(in text: some StringProtocol) -> [LocalDate] {
        text.split { $0.isWhitespace || $0 == "," || $0 == ";" }.compactMap { word in
            let token = word.trimmingCharacters(in: ":()[]")
            guard token.first?.isASCIIDigit == true else { return nil }
            return DateText.parseDate(token[...])
        }
    }

    /// True when every non-blank cell of a row is a title line: the title block repeated at a page break.
    func isRepeatedTitle(_ row: SheetRow) -> Bool {
        var any = false
        for cell in row.cells where !cell.isBlank {
            guard case .text(let raw) = cell else { return false }
            let line = raw.trimmingWhitespace
            let known = cellKeys.contains(HeaderText.key(line)) || Self.isPageLine(line)
                || Self.isTimestamp(line) || Self.isProductLine(line) || Self.isReportCode(line)
            if !known { return false }
            any = true
        }
        return any
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var view = Substring(self)
        while let first = view.first, set.contains(first) { view = view.dropFirst() }
        while let last = view.last, set.contains(last) { view = view.dropLast() }
        return String(view)
    }
}
