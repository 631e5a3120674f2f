@testable import Parse
import XLSXKit

// Typed access to the records of the reports added after the first six (the catalogue's rest).
extension ParseResult {
    var incomeLines: [IncomeStatementRow] {
        records.compactMap { if case .incomeStatement(let r) = $0 { return r } else { return nil } }
    }
    var makeReadyUnits: [MakeReadyRow] {
        records.compactMap { if case .makeReady(let r) = $0 { return r } else { return nil } }
    }
    var closedMakeReadyUnits: [ClosedMakeReadyRow] {
        records.compactMap { if case .closedMakeReady(let r) = $0 { return r } else { return nil } }
    }
    var transactionCodes: [MonthlyTransactionRow] {
        records.compactMap { if case .monthlyTransactionSummary(let r) = $0 { return r } else { return nil } }
    }
    var renewals: [RenewalDetailRow] {
        records.compactMap { if case .renewalDetail(let r) = $0 { return r } else { return nil } }
    }
    var weeks: [ProjectedOccupancyRow] {
        records.compactMap { if case .projectedOccupancy(let r) = $0 { return r } else { return nil } }
    }
    var lostRent: [LostRentRow] {
        records.compactMap { if case .lostRent(let r) = $0 { return r } else { return nil } }
    }
    var adSources: [AdvertisingSourceRow] {
        records.compactMap { if case .advertisingSource(let r) = $0 { return r } else { return nil } }
    }
    var moveOutLines: [MoveOutReasonRow] {
        records.compactMap { if case .moveOutReasons(let r) = $0 { return r } else { return nil } }
    }
    var leaseDetails: [LeaseDetailsRow] {
        records.compactMap { if case .leaseDetails(let r) = $0 { return r } else { return nil } }
    }
}

/// Parses one named sheet of a multi-sheet fixture (the data-only "- Excel" workbooks).
func parseFixtureSheet(_ name: String, sheet sheetName: String, as type: ReportType? = nil) throws -> ParseResult {
    let book = try Workbook(path: reportFixtures + "/" + name)
    guard let index = book.sheetNames.firstIndex(of: sheetName) else {
        throw ReportParseError(.unknownLayout, report: type, sheet: sheetName, detail: "no such sheet in \(name)")
    }
    let sheet = try book.worksheet(at: index)
    var rows = try sheet.rows()
    return try parse(type, source: &rows, merges: try sheet.mergedRanges(), sheetName: sheet.name)
}
