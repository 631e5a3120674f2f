import Foundation
import Metrics
import OwnerDashCore
import SQLiteKit
import XLSXKit

/// One column of a tabular workbook sheet: its header and the kind of its values (which picks the cell type and
/// number format: money as numbers under `#,##0.00;(#,##0.00)`, dates as real dates, counts grouped).
public struct WorkbookColumn: Sendable, Equatable {
    public var title: String
    public var kind: MetricResult.Kind
    /// In characters; nil: fitted to the header and the values.
    public var width: Double?

    /// A column; the width is fitted unless given.
    public init(_ title: String, _ kind: MetricResult.Kind, width: Double? = nil) {
        self.title = title; self.kind = kind; self.width = width
    }
}

/// A sheet of a tabular report: heading lines, a bold header row (frozen, with filter buttons), rows of typed values,
/// and an optional bold total row below the filtered range.
public struct TabularSheet: Sendable, Equatable {
    /// The tab name; made valid and unique when written (`XLSXWriter.sheetName`).
    public var name: String
    /// Lines above the header (the first in bold): what the report is, for which properties, as of when.
    public var heading: [String]
    public var columns: [WorkbookColumn]
    /// One value per column; `.null` is an empty cell.
    public var rows: [[SQLValue]]
    public var total: [SQLValue]?

    /// A sheet.
    public init(name: String, heading: [String], columns: [WorkbookColumn], rows: [[SQLValue]], total: [SQLValue]? = nil) {
        self.name = name; self.heading = heading; self.columns = columns; self.rows = rows; self.total = total
    }
}

/// Tabular reports as .xlsx workbooks: the shared path every `ownerdash report ... --format xlsx` goes through.
///
/// A report that already builds a `MetricResult` needs one call, `ReportWorkbook.write(result, to: path)` (one sheet per
/// table); one that wants its own sheets builds `TabularSheet`s, or appends them to an `XLSXWriter` next to custom
/// sheets with `append(_:to:)`.
public enum ReportWorkbook {
    /// Writes the result's tables as sheets, each headed by the report's name and parameters.
    public static func write(_ result: MetricResult, to path: String) throws {
        try write(sheets(result), to: path)
    }

    /// Writes the sheets as one workbook at `path` (put in place only when complete).
    public static func write(_ sheets: [TabularSheet], to path: String) throws {
        let writer = try XLSXWriter(path: path)
        var names: [String] = []
        for sheet in sheets {
            names.append(try append(sheet, to: writer, avoiding: names))
        }
        try writer.finish()
    }

    /// One sheet per table of the result: a tab named after the table (`sheetName`), headed by the title and the
    /// parameters, columns headed in words (`ColumnHeader`); join keys (`Column.isJoinKey`) left out. An empty table
    /// other than the main one (no property without an expense source) is no sheet, as on the printable page.
    public static func sheets(_ result: MetricResult) -> [TabularSheet] {
        let parameters = heading(result.parameters)
        return result.tables.filter { !$0.rows.isEmpty || $0.name == "rows" }.map { table in
            let shown = table.columns.indices.filter { !table.columns[$0].isJoinKey }
            return TabularSheet(name: sheetName(table, metric: result.metric),
                                heading: [table.title] + (parameters.isEmpty ? [] : [parameters]),
                                columns: shown.map { WorkbookColumn(ColumnHeader.text(table.columns[$0].name), table.columns[$0].kind) },
                                rows: table.rows.map { row in shown.map { row[$0] } },
                                total: table.total.map { total in shown.map { total[$0] } })
        }
    }

    /// The tab name of a table: its title up to the first qualifier (`Debtors (by person, ...)` -> `Debtors`,
    /// `Delinquency at the latest snapshot — ...` -> `Delinquency`) when that fits Excel's 31 characters, else the
    /// table's JSON name in words, the metric's for the main table (`rows`).
    static func sheetName(_ table: MetricTable, metric: String) -> String {
        var title = Substring(table.title)
        for mark in [" — ", " (", ", ", ": ", " at the ", " as of "] {
            if let range = title.range(of: mark) { title = title[..<range.lowerBound] }
        }
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty && trimmed.count <= 31 { return trimmed }
        return ColumnHeader.text(table.name == "rows" ? metric : table.name)
    }

    /// `properties: a, b · as of: 2026-11-20`; parameters left at their default are not shown.
    public static func heading(_ parameters: [MetricResult.Parameter]) -> String {
        parameters.compactMap { parameter -> String? in
            let value: String
            switch parameter.value {
            case .null: return nil
            case .text(let text): value = text
            case .integer(let n): value = String(n)
            case .bool(let flag): value = flag ? "yes" : "no"
            case .list(let items): value = items.joined(separator: ", ")
            }
            return "\(ColumnHeader.text(parameter.name).lowercased()): \(value)"
        }.joined(separator: " · ")
    }

    /// Appends the sheet to an open workbook; returns the tab name it got.
    @discardableResult
    public static func append(_ sheet: TabularSheet, to writer: XLSXWriter, avoiding taken: [String]) throws -> String {
        let name = XLSXWriter.sheetName(sheet.name, avoiding: taken)
        let headerRow = sheet.heading.count + 1
        let widths = sheet.columns.enumerated().map { i, column in
            column.width ?? fittedWidth(column, values: sheet.rows.lazy.map { $0[i] }, total: sheet.total?[i])
        }
        // On paper: landscape, one page wide, the heading and header on every page, the report and its parameters
        // (properties, as-of date) at the top of each page.
        try writer.startSheet(name, layout: SheetLayout(
            columnWidths: widths, frozenRows: headerRow, autoFilterRow: headerRow, landscape: true,
            printTitles: 1...headerRow,
            pageHeader: PageText(left: sheet.heading.first.map { pageText($0) }, right: sheet.heading.dropFirst().first.map { pageText($0) })))
        // Each heading line spans the table's width and wraps inside it: a line left to overflow (the parameters of a
        // portfolio list every property) would widen the printed area, and fit-to-width shrink every page to fit it.
        let tableWidth = widths.reduce(0, +)
        for (i, line) in sheet.heading.enumerated() {
            let lines = max(1, Int((Double(line.count) * 1.1 / max(tableWidth, 1)).rounded(.up)))
            try writer.appendRow([.text(line, look: CellLook(bold: i == 0, wrap: true))],
                                 height: lines > 1 ? Double(lines) * 15 : nil)
            if sheet.columns.count > 1 {
                try writer.merge(firstRow: i + 1, firstColumn: 0, lastRow: i + 1, lastColumn: sheet.columns.count - 1)
            }
        }
        try writer.appendRow(sheet.columns.map { .text($0.title, look: .header) })
        for row in sheet.rows {
            try writer.appendRow(zip(row, sheet.columns).map { cell($0, $1.kind) })
        }
        try writer.closeAutoFilter()
        if let total = sheet.total {
            try writer.appendRow(zip(total, sheet.columns).enumerated().map { index, pair in
                var cell = totalCell(pair.0, pair.1.kind, column: index, values: sheet.rows.map { $0[index] },
                                     firstRow: headerRow + 1)
                cell.look.bold = true
                cell.look.border = true
                return cell
            })
        }
        return name
    }

    /// A money total that is the sum of its column as `SUBTOTAL(9, ...)` over the rows above, so a filter updates
    /// it (the report's own total is written beside the formula, what readers that do not compute formulas show).
    /// Any other total cell (a label, a count of residents, an average) stays as it is: a formula would change it.
    static func totalCell(_ value: SQLValue, _ kind: MetricResult.Kind, column: Int, values: [SQLValue],
                          firstRow: Int) -> WorkbookCell {
        var plain = cell(value, kind)
        guard kind == .money, !values.isEmpty, let total = value.doubleValue else { return plain }
        let cents = { (value: SQLValue) in Int64(((value.doubleValue ?? 0) * 100).rounded()) }
        guard values.reduce(Int64(0), { $0 + cents($1) }) == cents(value) else { return plain }
        let letters = columnLetters(column)
        plain.content = .formula("SUBTOTAL(9,\(letters)\(firstRow):\(letters)\(firstRow + values.count - 1))",
                                 cached: (total * 100).rounded() / 100)
        plain.look.format = .money
        return plain
    }

    /// Text for a page header, within what Excel allows there (255 characters for the three parts and their codes).
    static func pageText(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(79)) + "…"
    }

    /// The cell for one value of a column of this kind; text that is not what its kind says stays text (never a zero).
    public static func cell(_ value: SQLValue, _ kind: MetricResult.Kind) -> WorkbookCell {
        switch (value, kind) {
        case (.null, _), (.blob, _):
            return .empty
        case (.text(let text), .date):
            return ExcelDateTime(iso: text).map { WorkbookCell(.date($0)) } ?? .text(text)
        case (.text(let text), _):
            return .text(text)
        case (_, .text), (_, .month), (_, .date):
            return .text(value.textValue ?? "")
        case (_, .money):
            return WorkbookCell(.money(cents: Int64(((value.doubleValue ?? 0) * 100).rounded())))
        case (_, .count):
            return WorkbookCell(.number(value.doubleValue ?? 0), look: CellLook(format: .count))
        case (_, .percent):
            return WorkbookCell(.number(value.doubleValue ?? 0), look: CellLook(format: .percentPoints))
        case (_, .decimal(let places)):
            return WorkbookCell(.number(value.doubleValue ?? 0), look: CellLook(format: .decimals(places)))
        }
    }

    /// Wide enough for the header and the widest value as shown (money with separators and cents), within 6-60.
    static func fittedWidth(_ column: WorkbookColumn, values: some Sequence<SQLValue>, total: SQLValue?) -> Double {
        var widest = column.title.count
        func measure(_ value: SQLValue) {
            switch (value, column.kind) {
            case (.null, _): return
            case (.text(let text), _): widest = max(widest, text.count)
            case (_, .money):
                let cents = Int64(((value.doubleValue ?? 0) * 100).rounded())
                widest = max(widest, DashboardFormat.money(Money(cents: cents), cents: true).count)
            case (_, .date): widest = max(widest, 10)
            default: widest = max(widest, (value.textValue ?? "").count + 2)
            }
        }
        for value in values { measure(value) }
        if let total { measure(total) }
        return Double(min(max(widest + 2, 6), 60))
    }
}
