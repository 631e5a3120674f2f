import OwnerDashCore
@testable import Parse
import XLSXKit

/// Builds a sheet row by row, numbering rows as Excel would; `skip` leaves a row absent (blank).
struct SheetBuilder {
    private(set) var rows: [SheetRow] = []
    private(set) var next = 1

    /// Appends a row; values are `String`, `Int`, `Double`, `LocalDate`, a `CellValue`, or nil for an empty cell.
    @discardableResult
    mutating func add(_ values: Any?...) -> Int { addRow(values) }

    /// Appends a row from an array of values.
    @discardableResult
    mutating func addRow(_ values: [Any?]) -> Int {
        rows.append(SheetRow(number: next, cells: values.map(cellValue)))
        next += 1
        return next - 1
    }

    mutating func skip(_ count: Int = 1) { next += count }
}

func cellValue(_ value: Any?) -> CellValue {
    switch value {
    case nil: return .empty
    case let text as String: return .text(text)
    case let number as Int: return .number(Double(number))
    case let number as Double: return .number(number)
    case let date as LocalDate: return .date(ExcelDateTime(year: date.year, month: date.month, day: date.day))
    case let cell as CellValue: return cell
    default: return .error("unsupported test value \(String(describing: value))")
    }
}

/// Keeps everything a parse hands over, and whether `begin` came before the first record.
struct CollectingSink: ReportSink {
    var metadata: ReportMetadata?
    var records: [ReportRecord] = []
    var recordBeforeBegin = false

    mutating func begin(_ metadata: ReportMetadata) throws { self.metadata = metadata }

    mutating func emit(_ record: ReportRecord) throws {
        if metadata == nil { recordBeforeBegin = true }
        records.append(record)
    }
}

struct ParseResult {
    var records: [ReportRecord]
    var summary: ReportSummary
    var metadata: ReportMetadata?

    var boxScores: [BoxScoreRow] { records.compactMap { if case .boxScore(let r) = $0 { return r } else { return nil } } }
    var rentRolls: [RentRollRow] { records.compactMap { if case .rentRoll(let r) = $0 { return r } else { return nil } } }
    var delinquencies: [DelinquencyRow] {
        records.compactMap { if case .delinquency(let r) = $0 { return r } else { return nil } }
    }
    var activities: [ActivityRow] { records.compactMap { if case .activity(let r) = $0 { return r } else { return nil } } }
    var summaries: [MonthlySummaryRow] {
        records.compactMap { if case .monthlySummary(let r) = $0 { return r } else { return nil } }
    }
    var leases: [LeaseExpirationRow] {
        records.compactMap { if case .leaseExpiration(let r) = $0 { return r } else { return nil } }
    }
}

func parse(_ type: ReportType?, _ sheet: SheetBuilder, merges: [MergedRange] = [],
           sheetName: String = "Report") throws -> ParseResult {
    var source = InMemoryRows(sheet.rows)
    return try parse(type, source: &source, merges: merges, sheetName: sheetName)
}

func parse(_ type: ReportType?, source: inout some SheetRowSource, merges: [MergedRange] = [],
           sheetName: String = "Report") throws -> ParseResult {
    var sink = CollectingSink()
    let summary = try RealPageReports.parse(type, rows: &source, merges: merges, sheetName: sheetName, sink: &sink)
    precondition(!sink.recordBeforeBegin, "a record arrived before begin(metadata)")
    return ParseResult(records: sink.records, summary: summary, metadata: sink.metadata)
}

/// The error a parse throws, or nil when it succeeds.
func parseError(_ type: ReportType?, _ sheet: SheetBuilder, merges: [MergedRange] = []) -> ReportParseError? {
    do {
        _ = try parse(type, sheet, merges: merges)
        return nil
    } catch let error as ReportParseError {
        return error
    } catch {
        return ReportParseError(.badValue, report: nil, sheet: "?", detail: "unexpected error \(error)")
    }
}

func ymd(_ iso: String) -> LocalDate? { LocalDate(iso: iso) }

/// Dollars and cents written as in the report: `usd(1_234, 50)` is $1,234.50.
func usd(_ dollars: Int64, _ cents: Int64 = 0) -> Money {
    Money(cents: dollars < 0 ? dollars * 100 - cents : dollars * 100 + cents)
}

/// A OneSite title block: product line, company/property line with run timestamp, title, code, As of, parameters.
func addTitle(_ sheet: inout SheetBuilder, title: String, code: String? = nil, asOf: String = "As of 02/08/2026",
              property: String = "Kairoi Residential - Nexus East") {
    sheet.add("OneSite Rents v3.0", nil, nil, nil, "Page 1 of 2")
    sheet.add(property, nil, nil, nil, "02/09/2026 06:58:21AM")
    sheet.add(title)
    if let code { sheet.add(code) }
    sheet.add(asOf)
    sheet.add("Parameters:\nAccounting activity since: 01/01/2025\nSubtotals by: Floorplan Name")
    sheet.skip()
}
