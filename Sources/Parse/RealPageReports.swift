import OwnerDashCore
import XLSXKit

/// Entry point for the RealPage OneSite report parsers: detects the report, finds its header, streams records.
public enum RealPageReports {
    /// Rows buffered for the title block and header; everything after streams through.
    public static let headerSearchRows = 40

    /// The report a sheet holds, from its title (`BOXSCORE`), its report code (`120.080.305`), or its header columns;
    /// nil when nothing fits or two fit equally (`Detection` says which).
    public static func detect(rows: [SheetRow], merges: [MergedRange] = []) -> ReportType? {
        if case .detected(let type) = detection(HeaderBlocks(rows: rows, merges: merges)) { return type }
        return nil
    }

    /// `detect` over rows whose header windows are normalized once for every report type's layouts.
    static func detect(_ blocks: HeaderBlocks) -> ReportType? {
        if case .detected(let type) = detection(blocks) { return type }
        return nil
    }

    /// Scores every report type against the sheet (docs/onesite-reports.md, "Detection"). The printed code and
    /// title are OneSite naming its report, so either decides, unless they name two reports. Without them, every
    /// type whose header layouts give a complete header on the sheet is a candidate, scored by the printed columns
    /// its layout explains: the most wins, and a tie on the same header rows is refused rather than guessed (on
    /// different rows, the earlier header wins: rows under a header are data and prove nothing).
    static func detection(_ blocks: HeaderBlocks) -> Detection {
        let rows = blocks.rows
        var candidates: [Detection.Candidate] = []
        for type in ReportType.allCases {
            guard case .found(let map, _, let endIndex) = HeaderFinder.find(detectionLayouts(for: type), in: blocks)
            else { continue }
            candidates.append(Detection.Candidate(type: type, matched: map.matchedCount, rows: map.firstRow...map.lastRow,
                                                  endIndex: endIndex))
        }
        // The title sits above the header; below it, cells are data and prove nothing.
        let earliest = candidates.map(\.endIndex).min()
        let title = TitleBlock(rows: earliest.map { rows.prefix($0 + 1) } ?? rows.prefix(15))
        switch (title.codeReportType, title.titleReportType) {
        case (let code?, let named?) where code != named:
            return .ambiguous("the code \"\(title.reportCode ?? "")\" names \(code.displayName) but the title "
                              + "\"\(title.title ?? "")\" names \(named.displayName)")
        case (let code?, _): return .detected(code)
        case (nil, let named?): return .detected(named)
        case (nil, nil): break
        }
        let ranked = candidates.sorted { ($0.matched, -$0.endIndex) > ($1.matched, -$1.endIndex) }
        guard let best = ranked.first else { return .none }
        let tied = ranked.dropFirst().filter { $0.matched == best.matched && $0.rows == best.rows }
        guard tied.isEmpty else {
            let names = ([best] + tied).map { "\($0.type.displayName) (\($0.matched) columns)" }
            return .ambiguous("no title or report code, and the header at rows \(best.rows.lowerBound)-"
                              + "\(best.rows.upperBound) fits \(names.joined(separator: " and ")) equally")
        }
        return .detected(best.type)
    }

    /// Parses one sheet: `type` nil detects it. Buffers only the first `headerSearchRows` rows, then streams
    /// every record to `sink` (whose `begin` comes first) and returns the summary with any cross-check warnings.
    public static func parse(_ type: ReportType?, rows: inout some SheetRowSource, merges: [MergedRange],
                             sheetName: String, sink: inout some ReportSink) throws -> ReportSummary {
        var buffer: [SheetRow] = []
        while buffer.count < headerSearchRows, let row = try rows.nextRow() { buffer.append(row) }

        let blocks = HeaderBlocks(rows: buffer, merges: merges)
        let detected = type.map(Detection.detected) ?? detection(blocks)
        guard case .detected(let report) = detected else {
            if let message = TitleBlock(rows: buffer).errorMessage {
                throw ReportParseError(.reportIsError, report: nil, sheet: sheetName,
                                       detail: "RealPage returned an error instead of a report: \"\(message)\"")
            }
            if case .ambiguous(let why) = detected {
                throw ReportParseError(.ambiguousLayout, report: nil, sheet: sheetName,
                                       detail: "cannot tell which report this is: \(why); name it with --report")
            }
            throw ReportParseError(.unknownLayout, report: nil, sheet: sheetName,
                                   detail: "unknown layout: no OneSite report title (BOXSCORE, RENT ROLL, "
                                       + "DELINQUENT AND PREPAID, ...) and no known header row in the first "
                                       + "\(buffer.last?.number ?? 0) rows")
        }
        // The sheet's date order, from its own unambiguous dates (SheetDateOrder): the title's timestamp usually
        // tells; else the rows as they stream, reading ahead only when a date that reads both ways comes first.
        let order = SheetDateOrder()
        order.note(buffer)
        var driver = Driver(report: report, buffer: buffer, blocks: blocks, sheetName: sheetName, order: order)
        var summary = try SheetDateOrder.$current.withValue(order) {
            try driver.run(report.descriptor.parser, rows: &rows, sink: &sink)
        }
        // The driver's search again, answered from the blocks' cache: what the check compares with.
        summary.headerCheck = HeaderCheck(typeHint: type, rows: buffer,
                                          choice: HeaderChoice(report, HeaderFinder.find(layouts(for: report), in: blocks)))
        return summary
    }

    /// How many rows are read ahead, at most, for a date that tells the sheet's date order, once a date that reads
    /// both ways needs it: memory stays bounded on a sheet whose every date is ambiguous.
    static let dateOrderLookahead = 20_000

    /// The layouts that tell a report from its header alone, for sheets without a title (the descriptor's
    /// `detectionLayouts`: some layouts are too generic to prove anything without a title).
    static func detectionLayouts(for type: ReportType) -> [HeaderLayout] {
        type.descriptor.detectionLayouts ?? layouts(for: type)
    }

    static func layouts(for type: ReportType) -> [HeaderLayout] { type.descriptor.parser.layouts }
}
/// What detection made of a sheet: one report, none, or two that fit equally (refused, never guessed).
enum Detection: Equatable {
    case detected(ReportType)
    case none
    /// Why two reports fit: one line naming them.
    case ambiguous(String)

    /// A report type whose layouts give a complete header on the sheet.
    struct Candidate {
        var type: ReportType
        /// The header's columns the layout explains.
        var matched: Int
        /// The header's sheet rows.
        var rows: ClosedRange<Int>
        /// Index of the header's last row in the buffered rows.
        var endIndex: Int
    }
}

/// The header a parse chose from a sheet's first rows: an .xlsx sheet lists its merged cells after its rows, so a
/// loader that streams the rows parses without them and checks afterwards that they would not have changed the
/// header (`holds(for:)`); when they would, it parses the sheet again with them (ReportFileLoader).
public struct HeaderCheck: Sendable, Equatable {
    /// The report type the caller named, nil when it was detected.
    let typeHint: ReportType?
    /// The rows the header was searched in.
    let rows: [SheetRow]
    let choice: HeaderChoice

    /// Whether the header search over the same rows with `merges` chooses the same report, layout and columns.
    public func holds(for merges: [MergedRange]) -> Bool {
        // Only a merge that starts in the searched rows can change a header found in them.
        guard let last = rows.last?.number, merges.contains(where: { $0.firstRow <= last }) else { return true }
        let blocks = HeaderBlocks(rows: rows, merges: merges)
        guard let report = typeHint ?? RealPageReports.detect(blocks), report == choice.report else { return false }
        return HeaderChoice(report, HeaderFinder.find(RealPageReports.layouts(for: report), in: blocks)) == choice
    }
}

/// A header search's answer, as much of it as the parse depends on.
struct HeaderChoice: Sendable, Equatable {
    var report: ReportType
    var layoutIndex: Int?
    var endIndex: Int?
    var spans: [String: ClosedRange<Int>] = [:]
    var headerSpans: [ClosedRange<Int>] = []
    var rows: ClosedRange<Int>?
    var firstColumn: Int?
    var rowSignatures: Set<String> = []

    init(_ report: ReportType, _ outcome: HeaderFinder.Outcome) {
        self.report = report
        guard case .found(let map, let layoutIndex, let endIndex) = outcome else { return }
        self.layoutIndex = layoutIndex; self.endIndex = endIndex
        spans = map.spans; headerSpans = map.headerSpans; rows = map.firstRow...map.lastRow
        firstColumn = map.firstColumn; rowSignatures = map.rowSignatures
    }
}

/// Runs one report parser over a sheet: header, title block, then every row streamed to the sink.
private struct Driver {
    let report: ReportType
    let buffer: [SheetRow]
    let blocks: HeaderBlocks
    let sheetName: String
    let order: SheetDateOrder
    /// Rows read past the current one to decide the date order, in sheet order; handed out before the source's next.
    private var ahead: [SheetRow] = []
    private var aheadIndex = 0
    /// Set once rows were read ahead: a sheet whose dates never tell is read ahead once, not at every ambiguous date.
    private var readAhead = false

    init(report: ReportType, buffer: [SheetRow], blocks: HeaderBlocks, sheetName: String, order: SheetDateOrder) {
        self.report = report; self.buffer = buffer; self.blocks = blocks
        self.sheetName = sheetName; self.order = order
    }

    /// Reads rows ahead (kept, in order) until one proves the date order or `dateOrderLookahead` rows were read.
    private mutating func decideAhead(_ rows: inout some SheetRowSource) throws {
        guard !readAhead else { return }
        readAhead = true
        var read = 0
        while order.order == nil, read < RealPageReports.dateOrderLookahead, let row = try rows.nextRow() {
            ahead.append(row)
            order.note(CollectionOfOne(row))
            read += 1
        }
    }

    /// The next row after the buffer: one read ahead, else the source's; the date order is noted from it, and decided
    /// ahead of it when a date in it reads both ways.
    private mutating func nextStreamed(_ rows: inout some SheetRowSource) throws -> SheetRow? {
        let row: SheetRow
        if aheadIndex < ahead.count {
            row = ahead[aheadIndex]
            aheadIndex += 1
            if aheadIndex == ahead.count { ahead.removeAll(); aheadIndex = 0 }
        } else if let next = try rows.nextRow() {
            row = next
        } else {
            return nil
        }
        order.note(CollectionOfOne(row))
        if order.needsDecision(before: row) { try decideAhead(&rows) }
        return row
    }

    mutating func run<P: OneSiteReportParser>(_: P.Type, rows: inout some SheetRowSource,
                                              sink: inout some ReportSink) throws -> ReportSummary {
        // The title's own date (the as-of date) reads both ways: decide before the metadata is read from it.
        if buffer.contains(where: order.needsDecision(before:)) { try decideAhead(&rows) }
        let found: (HeaderMap, Int, Int)
        do {
            found = try findHeader(P.layouts)
        } catch let error as ReportParseError where error.kind != .reportIsError {
            // A report run for parameters that match nothing prints its title and one line instead of a table.
            guard let message = EmptyReport.message(in: buffer) else { throw error }
            let title = TitleBlock(rows: buffer)
            try sink.begin(metadata(from: title, headerStart: buffer.endIndex))
            return ReportSummary(metadata: metadata(from: title, headerStart: buffer.endIndex), recordCount: 0,
                                 warnings: [], notes: ["\(report.displayName): empty report: \"\(message)\""])
        }
        let (header, layoutIndex, endIndex) = found
        let headerStart = buffer.firstIndex { $0.number == header.firstRow } ?? endIndex
        let title = TitleBlock(rows: buffer[..<headerStart])
        let metadata = metadata(from: title, headerStart: headerStart)
        let context = ParseContext(report: report, sheet: sheetName, metadata: metadata, title: title)
        var parser = try P(layoutIndex: layoutIndex, header: header, context: context)
        let classifier = RowClassifier(headerSignatures: header.rowSignatures, title: title,
                                       firstColumn: header.firstColumn)
        try sink.begin(metadata)

        var records: [ReportRecord] = []
        var recordCount = 0
        var index = endIndex + 1
        func nextRow() throws -> SheetRow? {
            guard index < buffer.count else { return try nextStreamed(&rows) }
            index += 1
            return buffer[index - 1]
        }
        var dataRows = 0
        while var row = try nextRow() {
            guard let kind = ContentKind(classifier.classify(row)) else { continue }
            if kind == .data { dataRows += 1 }
            // Values that drifted off their header (Crystal page-image exports) are put back under it first.
            if kind == .data || kind.isTotal { row = parser.header.aligned(row) }
            let keepGoing = try parser.consume(row, kind: kind, into: &records)
            // Only while every amount so far is zero: the columns are then computed for a few rows, not for each.
            if kind == .data, P.hasMoneyColumns, context.looksForStrayAmounts {
                context.noteUnmappedAmounts(in: row, mapped: parser.mappedColumns)
            }
            for record in records { try sink.emit(record) }
            recordCount += records.count
            records.removeAll(keepingCapacity: true)
            if !keepGoing {
                while let trailer = try nextRow(), try parser.consumeTrailer(trailer) {}
                break
            }
        }
        try parser.finish(into: &records)
        for record in records { try sink.emit(record) }
        recordCount += records.count
        try context.checkMoneyGuard(recordCount: recordCount, hasMoneyColumns: P.hasMoneyColumns)
        if let warning = KeptRows.warning(kept: parser.usedRows ?? recordCount, dataRows: dataRows) {
            context.warn(warning)
        }
        // Headers and totals labels but not one record: the report is empty, which the user should hear of.
        let notes = recordCount == 0 ? ["\(report.displayName): empty report: no records under its header"] : []
        return ReportSummary(metadata: metadata, recordCount: recordCount, warnings: context.warnings, notes: notes,
                             totals: context.totals)
    }

    /// The metadata the title block gives, the property from the line above the header where the report puts it.
    private func metadata(from title: TitleBlock, headerStart: Int) -> ReportMetadata {
        var propertyName = title.propertyName
        if propertyName == nil, report.descriptor.propertyAboveHeader {
            propertyName = buffer[..<headerStart].last { $0.cells.contains { !$0.isBlank } }?
                .cells.lazy.compactMap(\.text).first
        }
        return ReportMetadata(reportType: report, propertyName: propertyName, asOf: title.asOf,
                              periodStart: title.periodStart, siteNumber: title.siteNumber)
    }

    private func findHeader(_ layouts: [HeaderLayout]) throws -> (HeaderMap, Int, Int) {
        let outcome = HeaderFinder.find(layouts, in: blocks)
        if case .found(let map, let layoutIndex, let endIndex) = outcome { return (map, layoutIndex, endIndex) }
        if let message = TitleBlock(rows: buffer).errorMessage {
            throw ReportParseError(.reportIsError, report: report, sheet: sheetName,
                                   detail: "RealPage returned an error instead of the report: \"\(message)\"")
        }
        if case .partial(let map) = outcome {
            let missing = map.missingRequired.map { "\"\($0)\"" }
            let noun = missing.count == 1 ? "column" : "columns"
            throw ReportParseError(.missingColumn, report: report, sheet: sheetName, row: map.firstRow,
                                   detail: "missing required \(noun) \(missing.joined(separator: ", ")) "
                                       + "(found: \(map.foundColumns.joined(separator: ", ")))")
        }
        var lookedFor: [String] = []
        for name in layouts.flatMap(\.requiredNames) where !lookedFor.contains(name) { lookedFor.append(name) }
        throw ReportParseError(.noHeaderRow, report: report, sheet: sheetName,
                               detail: "no header row found (looked for \(lookedFor.joined(separator: ", "))) "
                                   + "in the first \(buffer.last?.number ?? 0) rows")
    }
}

/// The line OneSite prints instead of a table when a report's parameters match nothing.
enum EmptyReport {
    /// `No results were returned for the selected parameters.`, `No data found`, ...: the line as printed.
    static func message(in rows: [SheetRow]) -> String? {
        for row in rows {
            for cell in row.cells {
                guard let text = cell.text else { continue }
                for line in text.split(whereSeparator: \.isNewline) {
                    let lower = line.lowercased()
                    if lower.hasPrefix("no results") || lower.hasPrefix("no data") || lower.hasPrefix("no records") {
                        return String(line.trimmingWhitespace)
                    }
                }
            }
        }
        return nil
    }
}
