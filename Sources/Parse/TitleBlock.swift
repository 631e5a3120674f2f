import OwnerDashCore
import XLSXKit

/// What the rows above a OneSite report's header say about it: property, dates, UPPERCASE title, report code.
public struct TitleBlock: Sendable, Equatable {
    /// Text after the last " - " of the `<Management company> - <Property name>` line; numeric parts
    /// (`4248314 - The Northern - 5375283`: PMC and site numbers) are not the name.
    public var propertyName: String?
    /// The OneSite site number printed after the property name (`... - The Northern - 5375283`).
    public var siteNumber: String?
    /// From `As of MM/DD/YYYY` (also inside `Fiscal Period 022026 As of 01/29/2026`), else the end of a date range.
    public var asOf: LocalDate?
    /// Start of a date range line (`01/01/2026 - 01/31/2026`, `Start Date: ...`).
    public var periodStart: LocalDate?
    /// A `Leasing Consultant:  Name` label printed above the header (the Leasing Activity Detail's first group).
    public var consultantLabel: String?
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
    /// The first byte of each of `cellKeys`: a cell whose text cannot start with one is no title cell, key unbuilt.
    var cellKeyLeads: Set<UInt8> = []

    /// Reads the title block from the rows above the header (or the first rows, before the header is known).
    /// The as-of date is, in this order: an explicit `as of` (or `property date:`), the end of a printed range,
    /// the last day of a printed fiscal period, the end of a range inside the Parameters cell (each of these three
    /// the run timestamp's day when that is earlier), the run timestamp.
    public init(rows: some Sequence<SheetRow>) {
        var rangeEnd: LocalDate?
        var fallbacks = Fallbacks()
        for row in rows {
            var afterTotalUnits = false
            var inParameters = false
            // A title line is a cell or a few; a row with more than `cellsPerRow` values is a table row, whose
            // later cells (up to 16,384 in a damaged file) say nothing about the title and would cost a read each.
            for cell in row.cells.lazy.filter({ !$0.isBlank }).prefix(Self.cellsPerRow) {
                // `Total Units:` in one cell and the count in the next.
                if afterTotalUnits, totalUnits == nil, let count = try? cell.count() { totalUnits = count }
                afterTotalUnits = false
                // The run timestamp as a date-time cell (the real Lost Rent Summary's `2026-02-15T09:50:08`).
                if case .date(let stamp) = cell, !stamp.isDateOnly, fallbacks.runDate == nil {
                    fallbacks.runDate = try? cell.date()
                }
                guard case .text(let raw) = cell, let text = cell.text else { continue }
                let key = HeaderText.key(text)
                cellKeys.insert(key)
                if let lead = key.utf8.first { cellKeyLeads.insert(lead) }
                if fiscalPeriod == nil { fiscalPeriod = Self.fiscalPeriod(in: text) }
                if HeaderText.key(text) == "totalunits" { afterTotalUnits = true; continue }
                if consultantLabel == nil, text.trimmingWhitespace.lowercased().hasPrefix("leasing consultant:") {
                    consultantLabel = text
                }
                // Parameter cells list the report's options, not its identity; their date range (`Scheduling
                // Period: (01/12/2026 to 02/12/2026)`, `Start Date - ...; End Date - ...`) is only a fallback.
                // The cells right of a `Parameters:` label continue it.
                if inParameters || text.lowercased().hasPrefix("parameter") {
                    inParameters = true
                    fallbacks.readParameters(raw)
                    continue
                }
                for lineText in raw.split(whereSeparator: \.isNewline) {
                    let line = lineText.trimmingWhitespace
                    if line.isEmpty { continue }
                    read(line: line, rangeEnd: &rangeEnd, fallbacks: &fallbacks)
                    fallbacks.lineCount += 1
                }
            }
        }
        if propertyName == nil { propertyName = fallbacks.nameAboveTitle }
        let fiscal = fiscalPeriod.flatMap(Self.fiscalPeriodBounds)
        if periodStart == nil { periodStart = fiscal?.start ?? fallbacks.rangeStart }
        // A range's or a fiscal period's last day, but never after the run: a report of a period still open when it
        // ran holds what was there at its run. Real downloads: the Lost Rent Summary and Charge and Adjustment Journal
        // of Nexus East (period 022026, run 02/15/2026), dated the 28th, moved the property's date 13 days past its
        // data; Ridian's Leasing Activity Summary and Lease Summary (January, run 01/28). The Collections report
        // prints it so itself: `Move-outs From 01/01/2026 Through 01/31/2026 As of 1/29/2026`, run 01/29.
        let periodEnd = rangeEnd ?? fiscal?.end ?? fallbacks.rangeEnd
        if asOf == nil { asOf = periodEnd.map { end in fallbacks.runDate.map { min(end, $0) } ?? end } ?? fallbacks.runDate }
    }

    /// Dates that place a report only when its title block prints nothing better.
    private struct Fallbacks {
        var rangeStart: LocalDate?
        var rangeEnd: LocalDate?
        /// The date of the run timestamp (`2/8/2026  7:57:40AM`, `02/12/2026 09:15 AM`).
        var runDate: LocalDate?
        /// Lines read so far; the first, when it is plain text, and the title right under it.
        var lineCount = 0
        var plainFirstLine: String?
        /// The block's first line when the title comes right under it and no `<Company> - <Property>` line names
        /// the property: the Rent Roll saved as CSV starts `Isola Bella Apartments`, then `RENT ROLL DETAIL`.
        var nameAboveTitle: String?

        /// `Scheduling Period:  (01/12/2026 to 02/12/2026)`, `Date Range: 02/01/2026 thru 02/15/2026`,
        /// `Start Date - 01/01/2026;  End Date - 02/15/2026`, `Accounting activity since: 01/01/2026`.
        mutating func readParameters(_ text: String) {
            for part in text.split(whereSeparator: { $0 == ";" || $0.isNewline }) {
                let lower = part.lowercased()
                let dates = TitleBlock.dates(in: part)
                if dates.count >= 2 {
                    if rangeStart == nil, rangeEnd == nil { rangeStart = dates[0]; rangeEnd = dates[1] }
                } else if let date = dates.first {
                    if lower.contains("start") || lower.contains("since") || lower.contains("from") {
                        if rangeStart == nil { rangeStart = date }
                    } else if lower.contains("end") || lower.contains("through") {
                        if rangeEnd == nil { rangeEnd = date }
                    }
                }
            }
        }
    }

    /// A fiscal period `YYYY-MM` as its first and last day.
    static func fiscalPeriodBounds(_ period: String) -> (start: LocalDate, end: LocalDate)? {
        let parts = period.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
              let start = LocalDate(year: year, month: month, day: 1),
              let end = LocalDate(year: year, month: month, day: LocalDate.daysIn(month: month, year: year))
        else { return nil }
        return (start, end)
    }

    /// How many non-blank cells of a row the title block reads.
    static let cellsPerRow = 64

    /// The report the title or code names, if any.
    public var reportType: ReportType? { codeReportType ?? titleReportType }

    /// The report the printed code names (`120.080.305`), if any.
    var codeReportType: ReportType? { reportCode.flatMap { Self.codes[$0.lowercased()] } }

    /// The report the printed title names (`BOXSCORE`), if any.
    var titleReportType: ReportType? {
        if let title, let type = Self.titles[HeaderText.key(title)] { return type }
        // `Lease Expiration/Renewal Detail - Excel` names the same report as its title without the format.
        if let title, Self.isExcelTitle(title[...]),
           let type = Self.titles[HeaderText.key(title.dropLast(" - excel".count))] { return type }
        return nil
    }

    private mutating func read(line: Substring, rangeEnd: inout LocalDate?, fallbacks: inout Fallbacks) {
        let previous = fallbacks.plainFirstLine
        fallbacks.plainFirstLine = nil
        let lower = line.lowercased()
        if errorMessage == nil, lower.hasPrefix("invalid"), lower.contains("date") {
            errorMessage = String(line)
            return
        }
        if Self.isProductLine(line) || Self.isPageLine(line) { return }
        if Self.isTimestamp(line) {
            if fallbacks.runDate == nil { fallbacks.runDate = Self.dates(in: line).first }
            return
        }
        // `Report created on calendar date: 02/15/2026 and property date: 02/14/2026`: the property date is
        // the day the report describes; the calendar date is only when it ran.
        if let range = lower.range(of: "property date") {
            if asOf == nil, let date = Self.dates(in: lower[range.upperBound...]).first { asOf = date }
            if fallbacks.runDate == nil { fallbacks.runDate = Self.dates(in: line).first }
            return
        }
        if lower.hasPrefix("created") || lower.hasPrefix("run ") || lower.hasPrefix("(created") {
            if fallbacks.runDate == nil { fallbacks.runDate = Self.dates(in: line).first }
            return
        }
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
            // `From 02/13/2026 to 02/13/2026 as of: 02/14/2026`: the range before the as-of still starts the period.
            let before = Self.dates(in: lower[..<range.lowerBound])
            if periodStart == nil, before.count >= 2 { periodStart = before[0]; if rangeEnd == nil { rangeEnd = before[1] } }
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
        if Self.titles[key] != nil || Self.isUppercaseTitle(line) || Self.isExcelTitle(line) {
            if title == nil {
                title = String(line)
                if let previous { fallbacks.nameAboveTitle = previous }
            }
            return
        }
        if propertyName == nil, let (name, site) = Self.property(fromCompanyLine: line) {
            propertyName = name
            siteNumber = site
        } else if fallbacks.lineCount == 0 {
            fallbacks.plainFirstLine = String(line)
        }
    }

    /// `Lease Expiration/Renewal Detail - Excel`: OneSite's Excel-format titles end in `- Excel`, which is
    /// the format, not a property.
    static func isExcelTitle(_ line: Substring) -> Bool {
        line.lowercased().hasSuffix(" - excel")
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
        guard mayStart(line, with: UInt8(ascii: "o")) else { return false }
        return line.lowercased().hasPrefix("onesite")
    }

    /// Whether `line`'s first character can lowercase to the ASCII letter `lowercase`, judged from its first byte
    /// (true for anything not plain ASCII): every row of a report is tried as a repeated title line, and lowercasing
    /// or splitting each row's cells as Characters to learn that it is not one was most of classifying the row.
    private static func mayStart(_ line: Substring, with lowercase: UInt8) -> Bool {
        guard let first = line.utf8.first else { return false }
        return first >= 0x80 || first | 0x20 == lowercase
    }

    static func isPageLine(_ line: Substring) -> Bool {
        guard mayStart(line, with: UInt8(ascii: "p")) else { return false }
        let words = line.split(separator: " ")
        return words.count == 4 && words[0].lowercased() == "page" && words[2].lowercased() == "of"
            && words[1].allSatisfy(\.isASCIIDigit) && words[3].allSatisfy(\.isASCIIDigit)
    }

    /// A run timestamp: a date followed by a clock time (`02/08/2026 06:58:21AM`, `2/8/2026  7:57:40AM`).
    static func isTimestamp(_ line: Substring) -> Bool {
        // The colon's byte first: a Character search walks graphemes.
        line.utf8.contains(UInt8(ascii: ":")) && line.contains(":") && DateText.parseDate(line) != nil
            && line.contains(where: \.isWhitespace)
    }

    /// `120.080.305`, `mgt-542-001`, `LEA-236-001`, `a/r-702-001`, `130.080.120.999`: a lead part of letters or
    /// digits (`a/r` for Accounts Receivable), then two or three groups of digits.
    static func isReportCode(_ line: Substring) -> Bool {
        // Bytes first: sixteen characters are at most 64 bytes, and the groups need a `.` or `-` between them.
        let bytes = line.utf8
        guard bytes.count <= 64, bytes.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") })
        else { return false }
        let parts = line.split(omittingEmptySubsequences: false) { $0 == "." || $0 == "-" }
        guard (3...4).contains(parts.count), line.count <= 16, !line.contains(" ") else { return false }
        return parts.dropFirst().allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
            && !parts[0].isEmpty && parts[0].allSatisfy { $0.isLetter || $0.isASCIIDigit || $0 == "/" }
    }

    static func isUppercaseTitle(_ line: Substring) -> Bool {
        line.count >= 4 && line.contains(where: \.isLetter)
            && !line.contains(where: \.isLowercase) && !line.contains(where: \.isASCIIDigit)
            && !line.contains(" - ")
    }

    static func propertyName(fromCompanyLine line: Substring) -> String? {
        property(fromCompanyLine: line)?.name
    }

    /// `Kairoi Management, LLC - Nexus East` -> Nexus East; `Kairoi Management, LLC - 4248314 - The Northern -
    /// 5375283` -> The Northern with site number 5375283 (the PMC number before the name is not the site).
    static func property(fromCompanyLine line: Substring) -> (name: String, site: String?)? {
        let separators = [" - ", " \u{2013} ", " \u{2014} "]
        var parts: [Substring] = [line]
        for separator in separators {
            parts = parts.flatMap { $0.split(separator: separator, omittingEmptySubsequences: false) }
        }
        guard parts.count >= 2 else { return nil }
        let named = parts.dropFirst().map { $0.trimmingWhitespace }
        var site: String?
        if let last = named.last, !last.isEmpty, last.allSatisfy(\.isASCIIDigit), named.count >= 2 {
            site = String(last)
        }
        guard let name = named.last(where: { !$0.isEmpty && !$0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        return (String(name), site)
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
            let known = (HeaderText.mayKeyStart(line, with: cellKeyLeads) && cellKeys.contains(HeaderText.key(line)))
                || Self.isPageLine(line)
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
