@preconcurrency import CXlsxWriter
@preconcurrency import Glibc
import OwnerDashCore
import XMLKit
import ZipKit

/// Why a workbook could not be written; one line naming the sheet and cell where there is one.
public enum XLSXWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libxlsxwriter refused or could not write the file (its message).
    case library(detail: String)
    case invalidSheetName(name: String, reason: String)
    case notANumber(sheet: String, cell: String)
    case dateOutOfRange(sheet: String, cell: String)
    case textTooLong(sheet: String, cell: String, length: Int)
    case tooManyRows(sheet: String)
    case tooManyColumns(sheet: String)
    case noSheets
    case io(detail: String)
    /// The finished workbook could not be written out or put in place (a full disk): the library's reason.
    case notWrittenWhole(detail: String)
    /// Rows appended without a sheet started, or anything after `finish()`.
    case misuse(detail: String)

    public var description: String {
        switch self {
        case .library(let detail): return "xlsx writer: \(detail)"
        case .invalidSheetName(let name, let reason): return "sheet name \"\(name)\" \(reason)"
        case .notANumber(let sheet, let cell): return "sheet \"\(sheet)\" cell \(cell): not a finite number"
        case .dateOutOfRange(let sheet, let cell): return "sheet \"\(sheet)\" cell \(cell): a date before 1900 has no Excel serial"
        case .textTooLong(let sheet, let cell, let length):
            return "sheet \"\(sheet)\" cell \(cell): \(length) characters of text, more than Excel's 32,767"
        case .tooManyRows(let sheet): return "sheet \"\(sheet)\": more than Excel's 1,048,576 rows"
        case .tooManyColumns(let sheet): return "sheet \"\(sheet)\": more than Excel's 16,384 columns"
        case .noSheets: return "a workbook needs at least one sheet"
        case .io(let detail), .notWrittenWhole(let detail): return detail
        case .misuse(let detail): return "xlsx writer: \(detail)"
        }
    }
}

/// How a sheet is laid out: column widths, frozen rows and columns, the autofilter row, print orientation.
public struct SheetLayout: Sendable, Equatable {
    /// Width of each column from A, in characters of the default font; columns past the list keep Excel's default.
    public var columnWidths: [Double]
    /// Rows kept in view when scrolling down (the title and header rows).
    public var frozenRows: Int
    /// Columns kept in view when scrolling right.
    public var frozenColumns: Int
    /// The 1-based row whose cells get filter buttons; the filter covers it and every row below. nil: no filter.
    public var autoFilterRow: Int?
    /// Print across the page (wide grids). Every sheet prints fit to one page wide, as many pages tall as it needs.
    public var landscape: Bool
    /// 1-based rows printed again at the top of every page (the title and header rows); nil: none.
    public var printTitles: ClosedRange<Int>?
    /// What each printed page says at its top (report, property, as-of date); page N of M is always at the bottom.
    public var pageHeader: PageText?

    /// A layout; the default is Excel's.
    public init(columnWidths: [Double] = [], frozenRows: Int = 0, frozenColumns: Int = 0, autoFilterRow: Int? = nil,
                landscape: Bool = false, printTitles: ClosedRange<Int>? = nil, pageHeader: PageText? = nil) {
        self.columnWidths = columnWidths; self.frozenRows = frozenRows; self.frozenColumns = frozenColumns
        self.autoFilterRow = autoFilterRow; self.landscape = landscape
        self.printTitles = printTitles; self.pageHeader = pageHeader
    }
}

/// The text of a printed page's header, left, centre and right; plain text (an `&` prints as itself).
public struct PageText: Sendable, Equatable {
    public var left: String?
    public var center: String?
    public var right: String?

    public init(left: String? = nil, center: String? = nil, right: String? = nil) {
        self.left = left; self.center = center; self.right = right
    }

    /// Excel's header/footer code (`&L...&C...&R...`), its `&` doubled so that no text reads as a code.
    var code: String {
        func part(_ tag: String, _ text: String?) -> String {
            guard let text, !text.isEmpty else { return "" }
            return tag + text.flatMap { $0 == "&" ? "&&" : String($0) }
        }
        return part("&L", left) + part("&C", center) + part("&R", right)
    }
}

/// Writes an .xlsx workbook through libxlsxwriter (Debian's libxlsxwriter), in its constant-memory mode: rows go to
/// the sheet's temporary file as they are appended (memory stays flat however many rows), and `finish()` assembles
/// the workbook under a temporary name and puts it in place. Text is written inline, as Excel reads it.
///
/// What the library gives a workbook that prints: page setup (landscape, fit to one page wide), print titles, a
/// header and a `Page N of M` footer, notes (comments), autofilters, frozen panes and formulas (`SUBTOTAL` totals that
/// follow a filter). It replaced a writer of OwnerDash's own, measured side by side (scripts/bench/xlsx_write.sh).
public final class XLSXWriter {
    private let workbook: UnsafeMutablePointer<lxw_workbook>
    private let path: String
    /// Where the finished workbook goes (`ResultDestination`): renamed over its target, or copied into a device.
    private let destination: ResultDestination
    private let temporaryPath: String
    private var formats: [FormatKey: UnsafeMutablePointer<lxw_format>] = [:]
    private var sheetNames: [String] = []
    private var current: OpenSheet?
    private var finished = false

    private struct FormatKey: Hashable {
        var look: CellLook
        var format: NumberStyle
    }

    private struct OpenSheet {
        var name: String
        var sheet: UnsafeMutablePointer<lxw_worksheet>
        var layout: SheetLayout
        var row = 0
        var widestRow = 0
        /// The last row's cells: a merge shows the top-left cell's value and look across the block.
        var lastRow: [WorkbookCell] = []
        /// The autofilter's last row once `closeAutoFilter()` fixed it (rows after it, a total, stay out of the filter).
        var filterLastRow: Int?
    }

    static let maxRows = 1_048_576
    static let maxColumns = 16_384
    static let maxText = 32_767

    /// Starts the workbook (written under a temporary name until `finish()`).
    public init(path: String) throws {
        self.path = path
        destination = ResultDestination(path)
        // A device or FIFO (`--out /dev/stdout`) is no place for the library's files, nor can a zip be written to it
        // as it goes: the workbook is made in the temporary directory and copied in once whole.
        temporaryPath = destination.inPlace
            ? (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/ownerdash-workbook-\(getpid()).xlsx"
            : destination.partialPath
        // The library says why it cannot create a file only on stderr, at close: try the name here, so the one
        // line a user reads names the path and the reason.
        let probe = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard probe >= 0 else {
            throw XLSXWriteError.io(detail: "\(path): cannot create: \(String(cString: strerror(errno)))")
        }
        close(probe)
        let directory = temporaryPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        // The sheets' row files go beside the output, not to a /tmp that may be small.
        let made = temporaryPath.withCString { file in
            (directory.isEmpty ? "." : directory).withCString { tmpdir in
                var options = lxw_workbook_options(constant_memory: 1, tmpdir: UnsafeMutablePointer(mutating: tmpdir),
                                                   use_zip64: 0)
                return workbook_new_opt(file, &options)
            }
        }
        guard let made else {
            unlink(temporaryPath)
            throw XLSXWriteError.io(detail: "\(path): cannot start the workbook")
        }
        workbook = made
    }

    deinit {
        // Abandoned before finish(): nothing is written, the partial name does not stay.
        if !finished {
            lxw_workbook_free(workbook)
            unlink(temporaryPath)
        }
    }

    /// A valid, unused sheet name from any text: the characters Excel forbids (`[]:*?/\\`) become spaces, it is cut to
    /// 31 characters, and a number is added when the name is taken.
    public static func sheetName(_ proposed: String, avoiding taken: [String]) -> String {
        var name = String(proposed.map { "[]:*?/\\".contains($0) ? " " : $0 })
        while name.first == " " || name.first == "'" { name.removeFirst() }
        while name.last == " " || name.last == "'" { name.removeLast() }
        if name.isEmpty { name = "Sheet" }
        let folded = Set(taken.map { $0.lowercased() })
        // Cut, then trimmed again: a cut may end on the space or apostrophe Excel refuses at the end.
        func cut(_ count: Int) -> String {
            var text = String(name.prefix(count))
            while text.last == " " || text.last == "'" { text.removeLast() }
            return text
        }
        var candidate = cut(31)
        var n = 2
        while folded.contains(candidate.lowercased()) {
            let suffix = " (\(n))"
            candidate = cut(31 - suffix.count) + suffix
            n += 1
        }
        return candidate
    }

    // MARK: - Sheets and rows

    /// Starts a sheet, ending the one before.
    public func startSheet(_ name: String, layout: SheetLayout = SheetLayout()) throws {
        guard !finished else { throw XLSXWriteError.misuse(detail: "sheet \(name) started after finish()") }
        if current != nil { try endSheet() }
        try Self.check(name, against: sheetNames)
        guard let sheet = workbook_add_worksheet(workbook, name) else {
            throw XLSXWriteError.library(detail: "sheet \"\(name)\" could not be added")
        }
        sheetNames.append(name)
        for (column, width) in layout.columnWidths.enumerated() {
            let width = width.isFinite ? min(max(width, 1), 255) : 10
            try check(worksheet_set_column(sheet, lxw_col_t(column), lxw_col_t(column), width, nil), sheet: name)
        }
        if layout.frozenRows > 0 || layout.frozenColumns > 0 {
            worksheet_freeze_panes(sheet, lxw_row_t(max(layout.frozenRows, 0)), lxw_col_t(max(layout.frozenColumns, 0)))
        }
        worksheet_set_margins(sheet, 0.5, 0.5, 0.75, 0.75)
        if layout.landscape { worksheet_set_landscape(sheet) }
        worksheet_fit_to_pages(sheet, 1, 0)
        if let titles = layout.printTitles, titles.lowerBound >= 1 {
            try check(worksheet_repeat_rows(sheet, lxw_row_t(titles.lowerBound - 1), lxw_row_t(titles.upperBound - 1)),
                      sheet: name)
        }
        if let header = layout.pageHeader?.code, !header.isEmpty {
            try check(worksheet_set_header(sheet, header), sheet: name)
        }
        try check(worksheet_set_footer(sheet, "&RPage &P of &N"), sheet: name)
        current = OpenSheet(name: name, sheet: sheet, layout: layout)
    }

    /// Appends the next row (row 1 first); empty cells without a look are left out of the file.
    public func appendRow(_ cells: [WorkbookCell], height: Double? = nil) throws {
        guard var sheet = current else { throw XLSXWriteError.misuse(detail: "a row appended without a sheet started") }
        sheet.row += 1
        guard sheet.row <= Self.maxRows else { throw XLSXWriteError.tooManyRows(sheet: sheet.name) }
        guard cells.count <= Self.maxColumns else { throw XLSXWriteError.tooManyColumns(sheet: sheet.name) }
        try Self.validate(cells, sheet: sheet.name, row: sheet.row)
        sheet.widestRow = max(sheet.widestRow, cells.count)
        let row = lxw_row_t(sheet.row - 1)
        if let height { try check(worksheet_set_row(sheet.sheet, row, height, nil), sheet: sheet.name) }
        for (column, cell) in cells.enumerated() {
            if case .empty = cell.content, cell.look == .plain, cell.comment == nil { continue }
            let reference = cellReference(column: column, row: sheet.row)
            try write(cell, row: row, column: lxw_col_t(column), in: sheet, reference: reference)
        }
        sheet.lastRow = cells
        current = sheet
    }

    /// Text as a cell can hold it: C0 control characters other than tab and line breaks, which XML 1.0 cannot carry
    /// (the library would write them as `_x0007_` codes some readers show as such), become U+FFFD.
    static func printable(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.value < 0x20 && ![0x09, 0x0A, 0x0D].contains(scalar.value) ? "\u{FFFD}" : scalar
        }))
    }

    /// Refuses a row before any of its cells is written, so a refused row leaves nothing behind.
    private static func validate(_ cells: [WorkbookCell], sheet: String, row: Int) throws {
        for (column, cell) in cells.enumerated() {
            switch cell.content {
            case .text(let text) where text.utf16.count > maxText:
                throw XLSXWriteError.textTooLong(sheet: sheet, cell: cellReference(column: column, row: row),
                                                 length: text.utf16.count)
            case .number(let value) where !value.isFinite, .formula(_, let value) where !value.isFinite:
                throw XLSXWriteError.notANumber(sheet: sheet, cell: cellReference(column: column, row: row))
            case .date(let date) where date.serial == nil:
                throw XLSXWriteError.dateOutOfRange(sheet: sheet, cell: cellReference(column: column, row: row))
            default:
                continue
            }
        }
    }

    private func write(_ cell: WorkbookCell, row: lxw_row_t, column: lxw_col_t, in sheet: OpenSheet,
                       reference: String) throws {
        let format = self.format(for: cell.content, look: cell.look)
        let status: lxw_error
        switch cell.content {
        case .empty:
            status = worksheet_write_blank(sheet.sheet, row, column, format)
        case .text(let text):
            status = worksheet_write_string(sheet.sheet, row, column, Self.printable(text), format)
        case .number(let value):
            status = worksheet_write_number(sheet.sheet, row, column, value, format)
        case .money(let cents):
            status = worksheet_write_number(sheet.sheet, row, column, Double(cents) / 100, format)
        case .date(let date):
            status = worksheet_write_number(sheet.sheet, row, column, date.serial ?? 0, format)
        case .bool(let value):
            status = worksheet_write_boolean(sheet.sheet, row, column, value ? 1 : 0, format)
        case .formula(let formula, let cached):
            status = worksheet_write_formula_num(sheet.sheet, row, column, "=" + formula, format, cached)
        }
        try check(status, sheet: sheet.name, cell: reference)
        if let comment = cell.comment {
            try check(worksheet_write_comment(sheet.sheet, row, column, comment), sheet: sheet.name, cell: reference)
        }
    }

    /// Merges a block of cells (0-based columns, 1-based rows) of the last row appended; its top-left cell's value
    /// shows across it.
    public func merge(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int) throws {
        guard let sheet = current else { throw XLSXWriteError.misuse(detail: "a merge without a sheet started") }
        guard firstRow == sheet.row, lastRow >= firstRow, lastColumn >= firstColumn else {
            throw XLSXWriteError.misuse(detail: "sheet \"\(sheet.name)\": a merge must start on the last row appended")
        }
        let corner = firstColumn < sheet.lastRow.count ? sheet.lastRow[firstColumn] : .empty
        let text: String
        switch corner.content {
        case .text(let value): text = value
        case .empty: text = ""
        default: throw XLSXWriteError.misuse(detail: "sheet \"\(sheet.name)\": only text or empty cells are merged")
        }
        let format = self.format(for: corner.content, look: corner.look)
        try check(worksheet_merge_range(sheet.sheet, lxw_row_t(firstRow - 1), lxw_col_t(firstColumn),
                                        lxw_row_t(lastRow - 1), lxw_col_t(lastColumn), text, format), sheet: sheet.name)
    }

    /// Ends the autofilter's range at the last row appended, so the rows that follow (a total) are not sorted or filtered.
    public func closeAutoFilter() throws {
        guard let sheet = current, sheet.filterLastRow == nil else { return }
        try setAutoFilter(sheet)
        current?.filterLastRow = sheet.row
    }

    /// The autofilter from the layout's header row to the last row appended: set while that row is still the one the
    /// library holds (in constant-memory mode a range may not end on a row already written out).
    private func setAutoFilter(_ sheet: OpenSheet) throws {
        guard let header = sheet.layout.autoFilterRow else { return }
        let columns = max(sheet.layout.columnWidths.count, sheet.widestRow, 1)
        let last = max(sheet.row, header)
        guard last > header || columns > 1 else { return }
        try check(worksheet_autofilter(sheet.sheet, lxw_row_t(header - 1), 0, lxw_row_t(last - 1),
                                       lxw_col_t(columns - 1)), sheet: sheet.name)
    }

    /// The 1-based number of the last row appended to the current sheet (0 before the first).
    public var rowCount: Int { current?.row ?? 0 }

    /// Ends the current sheet: its autofilter, when `closeAutoFilter()` did not set it.
    private func endSheet() throws {
        guard let sheet = current else { return }
        current = nil
        if sheet.filterLastRow == nil { try setAutoFilter(sheet) }
    }

    /// Ends the last sheet, writes the workbook and puts the file in place.
    public func finish() throws {
        guard !finished else { throw XLSXWriteError.misuse(detail: "finish() called twice") }
        try endSheet()
        guard !sheetNames.isEmpty else { throw XLSXWriteError.noSheets }
        finished = true
        // workbook_close writes the file and frees the workbook, whatever it returns. It says why it failed only on
        // stderr, in a line of its own (`[ERROR] workbook_close(): ... System error = No space left on device`): that
        // line becomes the error's reason, so a user reads one line.
        let (status, said) = Self.capturingStandardError { workbook_close(workbook) }
        guard status == LXW_NO_ERROR else {
            unlink(temporaryPath)
            throw XLSXWriteError.notWrittenWhole(detail: "\(path): " + (Self.reason(said) ?? String(cString: lxw_strerror(status))))
        }
        // A warning the library printed, or a line another thread printed meanwhile: passed on.
        if !said.isEmpty { StandardStreams.writeError(said) }
        if let damage = Self.damage(temporaryPath) {
            unlink(temporaryPath)
            throw XLSXWriteError.notWrittenWhole(detail: "\(path): the workbook came out incomplete (\(damage)); was the disk full?")
        }
        if destination.inPlace {
            do {
                try ResultFile.copy(temporaryPath, into: path)
            } catch {
                throw XLSXWriteError.notWrittenWhole(detail: "\(path): \(error.reason)")
            }
            return
        }
        guard rename(temporaryPath, destination.target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw XLSXWriteError.notWrittenWhole(detail: "\(path): \(reason)")
        }
    }

    /// What is wrong with the workbook just written, nil when every part of it reads to its end. The library writes
    /// each sheet's rows to a file of its own and never checks those writes: on a full disk it zipped a sheet cut off
    /// mid-row and returned success, a workbook Excel refuses (found with a file size limit). So every XML part is read
    /// back to its last tag before the workbook takes its name.
    static func damage(_ path: String) -> String? {
        do {
            let archive = try ZipArchive(path: path)
            for entry in archive.entries where entry.name.hasSuffix(".xml") || entry.name.hasSuffix(".rels") {
                do {
                    let reader = try XMLStreamReader(bytes: try archive.contents(of: entry))
                    while try reader.read() {}
                } catch {
                    return "\(entry.name): \(error)"
                }
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The library's last `[ERROR] function(): message` line as `message`; nil when it said nothing.
    static func reason(_ said: String) -> String? {
        guard let line = said.split(whereSeparator: \.isNewline).last(where: { !$0.allSatisfy(\.isWhitespace) }) else {
            return nil
        }
        var text = Substring(line)
        if text.hasPrefix("[ERROR] ") || text.hasPrefix("[WARNING] ") { text = text.drop { $0 != " " }.dropFirst() }
        if let call = text.firstRange(of: "(): ") { text = text[call.upperBound...] }
        // `Zip ZIP_ERRNO error while creating xlsx file 'NAME.partial-PID'. System error = REASON`: the reason.
        if let system = text.firstRange(of: "System error = ") { text = text[system.upperBound...] }
        return String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// Runs `body` with C stdio's `stderr` stream pointed at memory; returns its result and what was printed to it
    /// meanwhile. Only the stream is swapped, not file descriptor 2: a child process another thread starts meanwhile
    /// (the tests' simulators) keeps the real stderr, where a pipe put in fd 2's place was inherited, held open and left
    /// the read of it waiting for an end that never came. The memory stream is never closed: another thread may have
    /// taken the `stderr` pointer while it was swapped and still write through it (a line lost then, not a write to
    /// freed memory); it is a few bytes a workbook, and only the command-line reports write workbooks, on one thread.
    private static func capturingStandardError<T>(_ body: () -> T) -> (T, String) {
        let buffer = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
        let size = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        buffer.initialize(to: nil)
        size.initialize(to: 0)
        guard let memory = open_memstream(buffer, size) else { return (body(), "") }
        let saved = stderr
        stderr = memory
        let result = body()
        stderr = saved
        fflush(memory)
        let said = buffer.pointee.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: size.pointee), as: UTF8.self) }
        return (result, said ?? "")
    }

    // MARK: - Formats

    /// The library's format for a cell of this content and look, made once per distinct pair.
    private func format(for content: CellContent, look: CellLook) -> UnsafeMutablePointer<lxw_format>? {
        let key = FormatKey(look: look, format: look.format ?? Self.numberStyle(of: content))
        if key.look == .plain && key.format == .general { return nil }
        if let made = formats[key] { return made }
        guard let format = workbook_add_format(workbook) else { return nil }
        if look.bold { format_set_bold(format) }
        if let fill = look.fill, let rgb = UInt32(fill.hex, radix: 16) {
            format_set_pattern(format, UInt8(LXW_PATTERN_SOLID.rawValue))
            format_set_bg_color(format, rgb)
        }
        if look.border {
            format_set_border(format, UInt8(LXW_BORDER_THIN.rawValue))
            format_set_border_color(format, 0xB7B7B7)
        }
        if look.wrap { format_set_text_wrap(format) }
        switch look.alignment {
        case .left: format_set_align(format, UInt8(LXW_ALIGN_LEFT.rawValue))
        case .center: format_set_align(format, UInt8(LXW_ALIGN_CENTER.rawValue))
        case .right: format_set_align(format, UInt8(LXW_ALIGN_RIGHT.rawValue))
        case nil: break
        }
        switch key.format {
        case .general: break
        case .count: format_set_num_format_index(format, 3)
        default: if let code = Self.code(key.format) { format_set_num_format(format, code) }
        }
        formats[key] = format
        return format
    }

    /// The number style a content kind gets when its look names none.
    static func numberStyle(of content: CellContent) -> NumberStyle {
        switch content {
        case .money: return .money
        case .date: return .date
        default: return .general
        }
    }

    /// The format code of a custom number format; nil for the built-in ones.
    static func code(_ format: NumberStyle) -> String? {
        switch format {
        case .general, .count: return nil
        case .money: return "#,##0.00;(#,##0.00)"
        case .date: return "yyyy-mm-dd"
        case .decimals(let n): return n <= 0 ? "0" : "0." + String(repeating: "0", count: min(n, 10))
        case .percentPoints: return "0.00\"%\""
        }
    }

    // MARK: - Checks

    private static func check(_ name: String, against taken: [String]) throws {
        if name.isEmpty || name.count > 31 {
            throw XLSXWriteError.invalidSheetName(name: name, reason: "must be 1 to 31 characters")
        }
        if let bad = name.first(where: { "[]:*?/\\".contains($0) }) {
            throw XLSXWriteError.invalidSheetName(name: name, reason: "holds \"\(bad)\", which Excel does not allow")
        }
        if name.hasPrefix("'") || name.hasSuffix("'") {
            throw XLSXWriteError.invalidSheetName(name: name, reason: "may not start or end with an apostrophe")
        }
        if taken.contains(where: { $0.lowercased() == name.lowercased() }) {
            throw XLSXWriteError.invalidSheetName(name: name, reason: "is already used (Excel ignores case)")
        }
    }

    /// A library status as a typed error naming the sheet (and cell).
    private func check(_ status: lxw_error, sheet: String, cell: String? = nil) throws {
        guard status != LXW_NO_ERROR else { return }
        let place = cell.map { "sheet \"\(sheet)\" cell \($0)" } ?? "sheet \"\(sheet)\""
        throw XLSXWriteError.library(detail: "\(place): \(String(cString: lxw_strerror(status)))")
    }
}
