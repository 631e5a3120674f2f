/// Why a report could not be parsed, as one line naming the report, sheet, row and column; the caller prefixes the file name.
public struct ReportParseError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, for callers and tests that branch on it; the message is in `description`.
    public enum Kind: String, Sendable, Equatable {
        /// No OneSite title and no known header in the first rows: not one of the reports OwnerDash knows.
        case unknownLayout
        /// Two reports fit the sheet equally (or its title and code name two): refused rather than guessed.
        case ambiguousLayout
        case noHeaderRow
        case missingColumn
        /// A cell in a money, date, count or percent column holds text that is not one.
        case badValue
        /// Money columns all came out zero while the sheet holds amounts: a parser bug, not data
        /// (docs/contracts.md, "Parsing reports and payloads").
        case moneyAllZero
        case missingAsOf
        /// The file is RealPage's error message dressed as a report (e.g. "Invalid end date entered").
        case reportIsError
    }

    public var kind: Kind
    public var report: ReportType?
    public var sheet: String
    /// 1-based sheet row, when the problem is in one row.
    public var row: Int?
    /// The column as the report's header names it.
    public var column: String?
    /// The rest of the message, e.g. `"12.3.4" is not a money amount`.
    public var detail: String

    public init(_ kind: Kind, report: ReportType?, sheet: String, row: Int? = nil, column: String? = nil,
                detail: String) {
        self.kind = kind; self.report = report; self.sheet = sheet
        self.row = row; self.column = column; self.detail = detail
    }

    public var description: String {
        let prefix = report.map { "\($0.displayName): " } ?? ""
        let sheetName = "sheet \"\(sheet)\""
        switch kind {
        case .noHeaderRow, .unknownLayout, .ambiguousLayout:
            return "\(prefix)\(detail) of \(sheetName)"
        case .missingColumn:
            return "\(prefix)\(detail) in the header at row \(row ?? 0) of \(sheetName)"
        case .badValue:
            var place = "\(sheetName) row \(row ?? 0)"
            if let column { place += ", column \"\(column)\"" }
            return "\(prefix)\(place): \(detail)"
        case .moneyAllZero, .missingAsOf, .reportIsError:
            return "\(prefix)\(detail) (\(sheetName))"
        }
    }
}
