import XLSXKit

// Finding a report's header row by the column names a parser knows, and mapping
// columns by name. OneSite splits headers over 2-3 physical rows, with newlines and
// hyphenation inside cells and group headers merged over their columns
// (docs/onesite-reports.md, "Crystal page-image exports"), so a column's header is every
// fragment stacked above it.

/// What a column holds, so the parser-independent checks (the money guard) know which columns are money.
enum ColumnKind: Sendable {
    case text, money, date, count, percent, number
}

/// One column a parser knows: its canonical name and every header text OneSite prints for it.
struct ColumnSpec: Sendable {
    /// Canonical name; parsers look columns up by it and messages quote it.
    let name: String
    let synonyms: [String]
    let required: Bool
    let kind: ColumnKind
    /// Normalized synonyms (and the name), see `HeaderText.key`.
    let keys: Set<String>

    init(_ name: String, _ kind: ColumnKind, required: Bool = false, synonyms: [String] = []) {
        self.name = name; self.kind = kind; self.required = required; self.synonyms = synonyms
        self.keys = Set(([name] + synonyms).map(HeaderText.key))
    }
}

/// One header shape of a report (a report may have several: two delinquency layouts, three summary sections).
struct HeaderLayout: Sendable {
    let report: ReportType
    /// For messages and for parsers with several layouts.
    let name: String
    let columns: [ColumnSpec]

    var requiredNames: [String] { columns.filter(\.required).map(\.name) }

    /// Whether `spans` (canonical name -> sheet columns) holds every required column.
    func isComplete(_ spans: [String: ClosedRange<Int>]) -> Bool {
        columns.allSatisfy { !$0.required || spans[$0.name] != nil }
    }
}

/// Header text normalization: `Move-\nins` = `Move-ins` = `Move-Ins`; `Vacant Admini-\nstrative` = `Vacant Administrative`.
enum HeaderText {
    /// Lowercased, with whitespace, hyphens, dashes, dots, colons and underscores dropped; `/ + # % &` kept.
    /// Whether `key(text)` can start with one of `leads` (first bytes of keys), judged from the first character
    /// `key` keeps, without building the key: true for anything not plain ASCII.
    static func mayKeyStart(_ text: some StringProtocol, with leads: Set<UInt8>) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case 0x2D, 0x2E, 0x3A, 0x5F, 0x2C, 0x28, 0x29, 0x27, 0x20, 0x09...0x0D: continue
            case 0x41...0x5A: return leads.contains(byte + 32)
            case 0x80...: return true
            default: return leads.contains(byte)
            }
        }
        return true
    }

    static func key(_ text: some StringProtocol) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "-", "\u{2013}", "\u{2014}", ".", ":", "_", ",", "(", ")", "'": continue
            case "A"..."Z": out.append(Unicode.Scalar(scalar.value + 32) ?? scalar)
            default:
                if scalar.isSpaceLike { continue }
                if scalar.isASCII { out.append(scalar) } else { out.append(contentsOf: String(scalar).lowercased().unicodeScalars) }
            }
        }
        return String(out)
    }

    /// The header as a person reads it: lines joined, whitespace collapsed (`Total\nBase Rent` -> `Total Base Rent`).
    static func display(_ text: some StringProtocol) -> String {
        let joined = String(text).replacingHyphenBreaks()
        return joined.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

extension String {
    /// `Move-\nins` -> `Move-ins`: a hyphen at a line break joins the two parts.
    func replacingHyphenBreaks() -> String {
        var out = ""
        var pendingHyphenBreak = false
        for character in self {
            if character.isNewline, out.last == "-" {
                pendingHyphenBreak = true
                continue
            }
            if pendingHyphenBreak, character.isWhitespace { continue }
            pendingHyphenBreak = false
            out.append(character)
        }
        return out
    }
}

/// Where each known column sits, found from one header block.
///
/// A class: every row's `RowView` holds the header, and a struct of a dozen collections was copied (each retained and
/// released) for every row read.
final class HeaderMap: Sendable {
    let layout: HeaderLayout
    /// Canonical column name -> sheet columns its values may sit in (several when the header cell is merged).
    let spans: [String: ClosedRange<Int>]
    /// Canonical column name -> the header text as printed, for messages.
    let printed: [String: String]
    /// Sheet rows (1-based) the header occupies.
    let firstRow: Int
    let lastRow: Int
    /// The leftmost column holding header text.
    let firstColumn: Int
    /// Every header column as printed, left to right, for "found: ..." in messages.
    var foundColumns: [String] {
        switch found {
        case .printed(let columns): return columns
        case .stacks(let stacks, _): return stacks.map { HeaderText.display($0.joined(separator: " ")) }
        }
    }

    /// The header columns no column of the layout claimed, left to right, each as its sheet column and its header as
    /// a person reads it: a report whose columns are data (the Rent Roll's one column per charge code) reads them here.
    var unclaimedColumns: [(column: Int, text: String)] {
        guard case .stacks(let stacks, let columns) = found else { return [] }
        let claimed = mappedColumns
        return zip(columns, stacks).compactMap { column, stack in
            claimed.contains(column) ? nil : (column, HeaderText.display(stack.joined(separator: " ")))
        }
    }
    /// The printed columns, or the text stacks they are made from: only a message needs them, so a header block
    /// tried against dozens of layouts does not render every column for each.
    private let found: FoundColumns
    private enum FoundColumns: Sendable {
        case printed([String])
        /// The text stacks and the sheet column of each.
        case stacks([[String]], columns: [Int])
    }
    /// Row signatures (see `RowSignature`) of the header rows, to skip the header repeated at page breaks.
    let rowSignatures: Set<String>
    /// Every header column, known to the layout or not, as the sheet columns it spans, left to right.
    let headerSpans: [ClosedRange<Int>]
    /// Sheet column -> true when it lies in some header span (or left of the header, where group labels sit).
    private let placed: [Bool]
    /// `spans` for the parsers' per-cell reads.
    private let lookup: SpanLookup

    convenience init(layout: HeaderLayout, spans: [String: ClosedRange<Int>], printed: [String: String], firstRow: Int,
                     lastRow: Int, firstColumn: Int, foundColumns: [String], rowSignatures: Set<String>,
                     headerSpans: [ClosedRange<Int>]) {
        self.init(layout: layout, spans: spans, printed: printed, firstRow: firstRow, lastRow: lastRow,
                  firstColumn: firstColumn, found: .printed(foundColumns), rowSignatures: rowSignatures,
                  headerSpans: headerSpans)
    }

    /// A map whose "found" columns are rendered from their text stacks only when a message asks.
    /// `placed` is the block's (see `HeaderMap.placedColumns`), computed once for every layout matched on it.
    convenience init(layout: HeaderLayout, spans: [String: ClosedRange<Int>], printed: [String: String], firstRow: Int,
                     lastRow: Int, firstColumn: Int, foundStacks: [[String]], stackColumns: [Int],
                     rowSignatures: Set<String>, headerSpans: [ClosedRange<Int>], placed: [Bool]) {
        self.init(layout: layout, spans: spans, printed: printed, firstRow: firstRow, lastRow: lastRow,
                  firstColumn: firstColumn, found: .stacks(foundStacks, columns: stackColumns),
                  rowSignatures: rowSignatures,
                  headerSpans: headerSpans, placed: placed)
    }

    private init(layout: HeaderLayout, spans: [String: ClosedRange<Int>], printed: [String: String], firstRow: Int,
                 lastRow: Int, firstColumn: Int, found: FoundColumns, rowSignatures: Set<String>,
                 headerSpans: [ClosedRange<Int>], placed: [Bool]? = nil) {
        self.layout = layout; self.spans = spans; self.printed = printed
        self.firstRow = firstRow; self.lastRow = lastRow; self.firstColumn = firstColumn
        self.found = found; self.rowSignatures = rowSignatures; self.headerSpans = headerSpans
        self.placed = placed ?? Self.placedColumns(firstColumn: firstColumn, headerSpans: headerSpans)
        self.lookup = SpanLookup(spans, absent: layout.columns.map(\.name))
    }

    /// Sheet column -> true when it lies in some header span or left of the header.
    static func placedColumns(firstColumn: Int, headerSpans: [ClosedRange<Int>]) -> [Bool] {
        var placed = Array(repeating: false, count: (headerSpans.map(\.upperBound).max() ?? -1) + 1)
        for column in 0..<min(firstColumn, placed.count) { placed[column] = true }
        for span in headerSpans { for column in span { placed[column] = true } }
        return placed
    }

    var matchedCount: Int { spans.count }
    var missingRequired: [String] { layout.columns.filter { $0.required && spans[$0.name] == nil }.map(\.name) }
    var isComplete: Bool { layout.isComplete(spans) }

    func has(_ name: String) -> Bool { lookup[name] != nil }

    /// Every column some known name occupies.
    var mappedColumns: Set<Int> { Set(spans.values.flatMap { Array($0) }) }

    /// The first non-blank cell in the column's span, `.empty` when absent.
    func cell(_ name: String, in row: SheetRow) -> CellValue {
        guard let span = lookup[name] else { return .empty }
        for column in span {
            let value = row[column]
            if !value.isBlank { return value }
        }
        return .empty
    }
}

/// Column name -> sheet columns, found without SipHash.
///
/// Every parser reads a dozen or two cells a row by column name; through `Dictionary` each read hashed the name
/// with SipHash, 11 % of a large rent roll's parse. The names a parser asks for are string literals, and the layout
/// names them with the same literals: a `String`'s two words (a short name's bytes inline, a longer one's constant
/// storage) identify such a name without reading its text, so a table keyed by them answers most reads in one
/// comparison, for the layout's absent columns too. Any other name (built at run time, or a literal the compiler kept
/// apart) is found by its text: a table indexed by length and its first and last bytes.
struct SpanLookup: Sendable {
    private let names: [String]
    private let spans: [ClosedRange<Int>]
    /// Index into `names`, or -1 for an empty slot; the count is a power of two at least twice the names'.
    private let slots: [Int]
    private let mask: Int
    /// The literal table: a name's two words and its index into `spans` (`absentIndex`: a layout column the sheet
    /// lacks), or `emptyIndex` for a free slot.
    private let literals: [(word0: UInt64, word1: UInt64, index: Int)]
    private let literalMask: Int
    private static let absentIndex = -1
    private static let emptyIndex = -2

    /// `absent`: further names the parsers may ask for (the layout's columns); those not in `spans` read as absent.
    init(_ spans: [String: ClosedRange<Int>], absent: [String] = []) {
        var capacity = 8
        while capacity < spans.count * 2 { capacity *= 2 }
        var slots = Array(repeating: -1, count: capacity)
        var names: [String] = [], ranges: [ClosedRange<Int>] = []
        for (name, span) in spans.sorted(by: { $0.key < $1.key }) {
            var slot = Self.hash(name) & (capacity - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = names.count
            names.append(name); ranges.append(span)
        }
        self.names = names; self.spans = ranges; self.slots = slots; self.mask = capacity - 1

        let known = names.enumerated().map { ($0.element, $0.offset) }
            + Set(absent).subtracting(names).sorted().map { ($0, Self.absentIndex) }
        var literalCapacity = 8
        while literalCapacity < known.count * 2 { literalCapacity *= 2 }
        var literals = Array(repeating: (word0: UInt64(0), word1: UInt64(0), index: Self.emptyIndex), count: literalCapacity)
        for (name, index) in known {
            let words = Self.words(name)
            var slot = Self.mix(words) & (literalCapacity - 1)
            while literals[slot].index != Self.emptyIndex { slot = (slot + 1) & (literalCapacity - 1) }
            literals[slot] = (words.0, words.1, index)
        }
        self.literals = literals; self.literalMask = literalCapacity - 1
    }

    subscript(name: String) -> ClosedRange<Int>? {
        let words = Self.words(name)
        var literal = Self.mix(words) & literalMask
        while true {
            let entry = literals[literal]
            if entry.index == Self.emptyIndex { break }
            if entry.word0 == words.0 && entry.word1 == words.1 {
                return entry.index == Self.absentIndex ? nil : spans[entry.index]
            }
            literal = (literal + 1) & literalMask
        }
        var slot = Self.hash(name) & mask
        while true {
            let index = slots[slot]
            if index < 0 { return nil }
            if names[index] == name { return spans[index] }
            slot = (slot + 1) & mask
        }
    }

    /// The two words a `String` is made of. Equal words are the same string (the same inline bytes, or the same
    /// storage and length); equal strings may differ in their words, which only sends the read to the text table.
    private static func words(_ name: String) -> (UInt64, UInt64) {
        unsafeBitCast(name, to: (UInt64, UInt64).self)
    }

    private static func mix(_ words: (UInt64, UInt64)) -> Int {
        let mixed = (words.0 &* 0x9E37_79B9_7F4A_7C15) ^ (words.1 &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 29))
    }

    /// Length and the first two and last two bytes: enough to tell a report's column names apart.
    private static func hash(_ name: String) -> Int {
        // Through the contiguous bytes: walking `utf8` by index cost more than the SipHash this replaces.
        name.utf8.withContiguousStorageIfAvailable(hash(bytes:)) ?? hash(bytes: Array(name.utf8))
    }

    private static func hash(bytes: some RandomAccessCollection<UInt8>) -> Int {
        guard let first = bytes.first, let last = bytes.last else { return 0 }
        let count = bytes.count
        let second = count > 1 ? bytes[bytes.index(after: bytes.startIndex)] : 0
        let penultimate = count > 2 ? bytes[bytes.index(bytes.endIndex, offsetBy: -2)] : 0
        var hash = count &* 0x9E37_79B9
        hash = (hash ^ Int(first)) &* 0x0100_0193
        hash = (hash ^ Int(second)) &* 0x0100_0193
        hash = (hash ^ Int(last)) &* 0x0100_0193
        hash = (hash ^ Int(penultimate)) &* 0x0100_0193
        return hash ^ (hash >> 15)
    }
}

// MARK: - Drifting values

extension HeaderMap {
    /// How far (in columns) a Crystal page-image export moves a value from its header: 1-3
    /// (docs/onesite-reports.md, "Crystal page-image exports").
    static let maxDrift = 3
    /// The most values x header columns a drifted row is aligned over (a million: 1,000 by 1,000).
    static let maxAlignmentCells = 1_000_000

    /// The row with every value that drifted out of its header's columns moved back under that header.
    ///
    /// Crystal exports place a value 1-3 columns left or right of its header, differently from row to row. A row
    /// whose values all sit under some header (every clean file, almost every row) is returned as it is; otherwise
    /// the row's values are matched to header columns in order (a value never jumps over its neighbour), each value
    /// to at most one header, minimizing the total distance, never farther than `maxDrift`. Markers in cells of
    /// their own (`*`, `†`, `‡`, `§`) and values left unmatched stay where they are.
    func aligned(_ row: SheetRow) -> SheetRow {
        var drifted = false
        for (column, cell) in row.cells.enumerated() where !(column < placed.count && placed[column]) {
            if !cell.isBlank && !cell.isMarker { drifted = true; break }
        }
        guard drifted else { return row }

        let values = row.cells.indices.filter { $0 >= firstColumn && !row.cells[$0].isBlank && !row.cells[$0].isMarker }
        let targets = headerSpans
        // The table below is values x headers: a report's few dozen each make it tiny, but a damaged file (an HTML
        // row of 16,000 cells under a header as wide) would make it gigabytes. Such a row is left as it is.
        let (tableCells, overflow) = (values.count + 1).multipliedReportingOverflow(by: targets.count + 1)
        guard !overflow, tableCells <= Self.maxAlignmentCells else { return row }
        func distance(_ column: Int, _ span: ClosedRange<Int>) -> Int {
            column < span.lowerBound ? span.lowerBound - column : (column > span.upperBound ? column - span.upperBound : 0)
        }
        // cost[i][j]: least cost of placing values[i...] on targets[j...]; leaving a value unplaced costs more than
        // any allowed drift, so a value is left only when no header within reach is free.
        let unplaced = Self.maxDrift + 1
        let n = values.count, m = targets.count
        var cost = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            cost[i][m] = cost[i + 1][m] + unplaced
            for j in stride(from: m - 1, through: 0, by: -1) {
                var best = min(cost[i + 1][j] + unplaced, cost[i][j + 1])
                let d = distance(values[i], targets[j])
                if d <= Self.maxDrift { best = min(best, cost[i + 1][j + 1] + d) }
                cost[i][j] = best
            }
        }
        var cells = row.cells
        var moves: [(from: Int, to: Int)] = []
        var i = 0, j = 0
        while i < n && j < m {
            let d = distance(values[i], targets[j])
            if d <= Self.maxDrift && cost[i][j] == cost[i + 1][j + 1] + d {
                if d > 0 { moves.append((values[i], targets[j].lowerBound)) }
                i += 1; j += 1
            } else if cost[i][j] == cost[i][j + 1] {
                j += 1
            } else {
                i += 1
            }
        }
        guard !moves.isEmpty else { return row }
        let moved = moves.map { (to: $0.to, value: cells[$0.from]) }
        for move in moves { cells[move.from] = .empty }
        for move in moved {
            if cells.count <= move.to { cells += Array(repeating: .empty, count: move.to + 1 - cells.count) }
            cells[move.to] = move.value
        }
        while let last = cells.last, last.isBlank { cells.removeLast() }
        return SheetRow(number: row.number, cells: cells)
    }
}

extension CellValue {
    /// A footnote mark printed in a cell of its own (`*` eviction, `†` NSF, `‡` 120+ days, `§` cash basis).
    var isMarker: Bool {
        guard case .text(let text) = self else { return false }
        let trimmed = text.trimmingWhitespace
        // The first byte rules out almost every value (`*`, or the lead byte of `†`, `‡` or `§`) before the
        // Character walk: every value cell of a drifted row is asked.
        guard let lead = trimmed.utf8.first, lead == 0x2A || lead == 0xE2 || lead == 0xC2 else { return false }
        return trimmed.allSatisfy { "*†‡§".contains($0) }
    }
}

/// A row reduced to its non-blank cells' normalized text, to recognise a repeated header or title line.
enum RowSignature {
    static func of(_ row: SheetRow) -> String {
        row.cells.compactMap { cell -> String? in
            guard let text = cell.text else { return nil }
            return HeaderText.key(text)
        }.joined(separator: "|")
    }
}

/// The first rows of a sheet seen as header candidates: every window of 1-3 consecutive rows, its cells' text stacked
/// per column and normalized once, however many layouts are tried on it.
///
/// Detection tries every report type's layouts (dozens) over every window of the first 40 rows; normalizing the
/// cells again for each layout made a 1 MB cell cost ~20 s and a 16,000-column row minutes. Built once, matching a
/// layout costs one dictionary look-up per key it knows.
final class HeaderBlocks {
    let rows: [SheetRow]
    let merges: [MergedRange]
    private var blocks: [Int: HeaderBlock] = [:]
    private var labelRows: [Bool?]
    /// Merges by their first column, in the sheet's order, for `span(of:)`.
    private let mergesByFirstColumn: [Int: [MergedRange]]
    /// Merges by their first row, in the sheet's order, to give a merged group header to each column under it.
    private let mergesByFirstRow: [Int: [MergedRange]]

    init(rows: [SheetRow], merges: [MergedRange]) {
        self.rows = rows
        self.merges = merges
        labelRows = Array(repeating: nil, count: rows.count)
        rowKeys = Array(repeating: nil, count: rows.count)
        signatures = Array(repeating: nil, count: rows.count)
        var byColumn: [Int: [MergedRange]] = [:]
        var byRow: [Int: [MergedRange]] = [:]
        for merge in merges {
            byColumn[merge.firstColumn, default: []].append(merge)
            byRow[merge.firstRow, default: []].append(merge)
        }
        mergesByFirstColumn = byColumn
        mergesByFirstRow = byRow
    }

    private var rowKeys: [[String?]?]
    private var signatures: [String?]

    /// `HeaderText.key` of each cell's text in row `index` (nil where the cell has no text), computed once. The key
    /// drops spaces and maps each scalar on its own, so the key of stacked fragments joined by a space is the
    /// concatenation of their keys: no stack is normalized again.
    func keys(_ index: Int) -> [String?] {
        if let known = rowKeys[index] { return known }
        let keys = rows[index].cells.map { cell in cell.text.map(HeaderText.key) }
        rowKeys[index] = keys
        return keys
    }

    /// `RowSignature.of(rows[index])`, from the cached keys.
    func signature(_ index: Int) -> String {
        if let known = signatures[index] { return known }
        let signature = keys(index).compactMap { $0 }.joined(separator: "|")
        signatures[index] = signature
        return signature
    }

    /// Header rows hold names, not quantities; a row holding a value cannot be part of the header.
    func holdsValue(_ index: Int) -> Bool {
        if let known = labelRows[index] { return known }
        let value = rows[index].cells.contains(where: \.holdsValueButNotLabel)
        labelRows[index] = value
        return value
    }

    /// The block of rows `start...end` (indexes into `rows`).
    func block(_ start: Int, _ end: Int) -> HeaderBlock {
        let key = start << 32 | end
        if let known = blocks[key] { return known }
        let block = HeaderBlock(start: start, end: end, blocks: self)
        blocks[key] = block
        return block
    }

    /// A header cell merged across columns owns all of them: Crystal exports put the value under any of them.
    func span(of column: Int, bottomRow: Int?) -> ClosedRange<Int> {
        guard let bottomRow, let merge = mergesByFirstColumn[column]?.first(where: {
            $0.firstRow <= bottomRow && bottomRow <= $0.lastRow
        }) else { return column...column }
        return merge.firstColumn...max(merge.firstColumn, merge.lastColumn)
    }

    /// For each column of a row, the column whose cell a merge starting on this row spreads over it (first merge wins).
    func mergeOwners(row: Int, width: Int) -> [Int: Int] {
        guard let starting = mergesByFirstRow[row] else { return [:] }
        var owners: [Int: Int] = [:]
        for merge in starting where merge.firstColumn + 1 <= min(merge.lastColumn, width - 1) {
            for column in (merge.firstColumn + 1)...min(merge.lastColumn, width - 1) where owners[column] == nil {
                owners[column] = merge.firstColumn
            }
        }
        return owners
    }
}

/// One window of header rows, normalized once (see `HeaderBlocks`).
final class HeaderBlock {
    let rows: [SheetRow]
    let width: Int
    /// fragments[column] = header texts stacked above that column, top to bottom, with the row each came from.
    let fragments: [[(text: String, row: Int)]]
    /// keyIndex[level][key] = columns, left to right, whose stack from fragment `level` down normalizes to `key`.
    let keyIndex: [[String: [Int]]]
    let rowSignatures: Set<String>
    let headerSpans: [ClosedRange<Int>]
    let firstColumn: Int
    /// Per block, not per layout: a 16,384-column block matched against dozens of layouts builds these once.
    let placed: [Bool]
    let foundStacks: [[String]]
    /// The sheet column of each of `foundStacks`.
    let stackColumns: [Int]
    unowned let blocks: HeaderBlocks

    /// The block of `blocks.rows[start...end]`.
    init(start: Int, end: Int, blocks: HeaderBlocks) {
        let rows = start <= end ? Array(blocks.rows[start...end]) : []
        self.rows = rows
        self.blocks = blocks
        let width = rows.map(\.cells.count).max() ?? 0
        self.width = width
        var fragments = Array(repeating: [(text: String, row: Int)](), count: width)
        var fragmentKeys = Array(repeating: [String](), count: width)
        for (offset, row) in rows.enumerated() {
            let keys = blocks.keys(start + offset)
            let owners = blocks.mergeOwners(row: row.number, width: width)
            for column in 0..<width {
                var source = column
                // A group header merged across columns ("Vacant" over Total/Not Leased/Leased...) belongs to each.
                if let owner = owners[column], row[column].isBlank { source = owner }
                guard source < keys.count, let key = keys[source], let text = row.cells[source].text else { continue }
                fragments[column].append((text, row.number))
                fragmentKeys[column].append(key)
            }
        }
        self.fragments = fragments
        var keyIndex = Array(repeating: [String: [Int]](), count: HeaderFinder.maxHeaderRows)
        for column in 0..<width {
            let keys = fragmentKeys[column]
            // Most specific (all rows) first.
            for level in 0..<min(keys.count, HeaderFinder.maxHeaderRows) {
                keyIndex[level][keys[level...].joined(), default: []].append(column)
            }
        }
        self.keyIndex = keyIndex
        // Every printed header column's span; a column inside another's merged span is part of it.
        var headerSpans: [ClosedRange<Int>] = []
        for column in fragments.indices where !fragments[column].isEmpty {
            if let last = headerSpans.last, last.contains(column) { continue }
            headerSpans.append(blocks.span(of: column, bottomRow: fragments[column].last?.row))
        }
        self.headerSpans = headerSpans
        let firstColumn = fragments.firstIndex { !$0.isEmpty } ?? 0
        self.firstColumn = firstColumn
        placed = HeaderMap.placedColumns(firstColumn: firstColumn, headerSpans: headerSpans)
        foundStacks = fragments.filter { !$0.isEmpty }.map { $0.map(\.text) }
        stackColumns = fragments.indices.filter { !fragments[$0].isEmpty }
        rowSignatures = start <= end ? Set((start...end).map(blocks.signature)) : []
    }

    /// How `layout`'s columns map onto this block: enough to rank the block against others, without the map's
    /// lookup table and printed names, which only the chosen block needs (`HeaderMatch.map`).
    func match(_ layout: HeaderLayout) -> HeaderMatch {
        var spans: [String: ClosedRange<Int>] = [:]
        var printedAt: [String: (column: Int, level: Int)] = [:]
        var taken = Set<Int>()
        // Greedy by specificity: every exact full-stack match beats a match on a shorter suffix.
        for level in 0..<HeaderFinder.maxHeaderRows {
            let index = keyIndex[level]
            guard !index.isEmpty else { continue }
            for spec in layout.columns where spans[spec.name] == nil {
                // The leftmost column not yet taken whose stack matches one of the column's names.
                var best: Int?
                for key in spec.keys {
                    guard let columns = index[key] else { continue }
                    for column in columns where !taken.contains(column) {
                        if column < (best ?? .max) { best = column }
                        break
                    }
                }
                guard let column = best else { continue }
                // A header merged across columns owns all of them: none is another column's header.
                let owned = blocks.span(of: column, bottomRow: fragments[column].last?.row)
                taken.formUnion(owned)
                spans[spec.name] = owned
                printedAt[spec.name] = (column, level)
            }
        }
        return HeaderMatch(layout: layout, block: self, spans: spans, printedAt: printedAt)
    }

    /// The header map of a match on this block.
    fileprivate func map(_ match: HeaderMatch) -> HeaderMap {
        let printed = match.printedAt.mapValues { at in
            HeaderText.display(fragments[at.column][at.level...].map(\.text).joined(separator: " "))
        }
        return HeaderMap(layout: match.layout, spans: match.spans, printed: printed,
                         firstRow: firstRow, lastRow: lastRow,
                         firstColumn: firstColumn, foundStacks: foundStacks, stackColumns: stackColumns,
                         rowSignatures: rowSignatures, headerSpans: headerSpans, placed: placed)
    }

    /// The sheet rows (1-based) the block spans; 0 for an empty block.
    var firstRow: Int { rows.first?.number ?? 0 }
    var lastRow: Int { rows.last?.number ?? 0 }
}

/// One layout matched on one block of header rows: which columns it found, ranked before any `HeaderMap` is built.
///
/// The search tries every layout on every window of the first rows; building each try's map (its lookup table, the
/// printed names of its columns) was most of the search, and only the chosen one is read.
struct HeaderMatch {
    let layout: HeaderLayout
    let block: HeaderBlock
    /// Canonical column name -> sheet columns, as in `HeaderMap.spans`.
    let spans: [String: ClosedRange<Int>]
    /// Canonical column name -> the stack column and level its printed name is read from.
    fileprivate let printedAt: [String: (column: Int, level: Int)]

    var matchedCount: Int { spans.count }
    var isComplete: Bool { layout.isComplete(spans) }
    var firstRow: Int { block.firstRow }
    var lastRow: Int { block.lastRow }
    /// The header map of this match.
    var map: HeaderMap { block.map(self) }
}

/// Locates a report's header block among the first rows of a sheet.
enum HeaderFinder {
    /// Headers span at most this many physical rows.
    static let maxHeaderRows = 3

    /// The outcome of a search over the buffered rows.
    enum Outcome {
        /// A complete header: every required column found; `endIndex` is the index of its last row in the buffer.
        case found(HeaderMap, layoutIndex: Int, endIndex: Int)
        /// The best near-miss: some known columns, but a required one missing.
        case partial(HeaderMap)
        case none
    }

    /// Searches `rows` for the earliest complete header of any of `layouts`.
    static func find(_ layouts: [HeaderLayout], in rows: [SheetRow], merges: [MergedRange]) -> Outcome {
        find(layouts, in: HeaderBlocks(rows: rows, merges: merges))
    }

    /// Searches the rows for the earliest complete header of any of `layouts`, reusing blocks normalized before.
    static func find(_ layouts: [HeaderLayout], in blocks: HeaderBlocks) -> Outcome {
        let rows = blocks.rows
        var bestPartial: HeaderMatch?
        var endIndex = 0
        while endIndex < rows.count {
            // Every layout on every window ending here, matched once: the complete ones compete for the header, the
            // rest for the near-miss a message names.
            let matches = layouts.map { windows($0, endingAt: endIndex, in: blocks) }
            if let (match, layoutIndex) = bestComplete(matches) {
                // A taller header may finish on the next row or two (e.g. `Total` above `Base Rent`).
                var chosen = (match, layoutIndex, endIndex)
                for later in (endIndex + 1)..<min(rows.count, endIndex + maxHeaderRows) {
                    guard rows[later].number - rows[later - 1].number <= 2,
                          let (laterMatch, _) = bestComplete([windows(layouts[layoutIndex], endingAt: later, in: blocks)])
                    else { break }
                    if laterMatch.matchedCount > chosen.0.matchedCount,
                       laterMatch.firstRow <= chosen.0.lastRow {
                        chosen = (laterMatch, layoutIndex, later)
                    }
                }
                return .found(chosen.0.map, layoutIndex: chosen.1, endIndex: chosen.2)
            }
            for match in matches.joined()
            where match.matchedCount >= 2 && match.matchedCount > (bestPartial?.matchedCount ?? 0) {
                bestPartial = match
            }
            endIndex += 1
        }
        return bestPartial.map { .partial($0.map) } ?? .none
    }

    /// The best complete header among `layouts` whose last row is `rows[endIndex]`.
    static func bestComplete(_ layouts: [HeaderLayout], endingAt endIndex: Int, in rows: [SheetRow],
                             merges: [MergedRange]) -> (HeaderMap, Int)? {
        let blocks = HeaderBlocks(rows: rows, merges: merges)
        return withExtendedLifetime(blocks) {
            bestComplete(layouts.map { windows($0, endingAt: endIndex, in: blocks) }).map { ($0.0.map, $0.1) }
        }
    }

    /// The best complete match among each layout's window matches (`matches[i]` are layout i's), and its layout's index.
    static func bestComplete(_ matches: [[HeaderMatch]]) -> (HeaderMatch, Int)? {
        var best: (HeaderMatch, Int)?
        for (index, layoutMatches) in matches.enumerated() {
            for match in layoutMatches where match.isComplete {
                // Ties go to the shorter window, so a title line above the header is not taken for part of it.
                if match.matchedCount > (best?.0.matchedCount ?? 0) { best = (match, index) }
            }
        }
        return best
    }

    /// Matches of one layout against windows of 1-3 rows ending at `endIndex` (at most one blank row between two),
    /// shortest first.
    static func windows(_ layout: HeaderLayout, endingAt endIndex: Int, in blocks: HeaderBlocks) -> [HeaderMatch] {
        let rows = blocks.rows
        var matches: [HeaderMatch] = []
        var start = endIndex
        while start >= 0, endIndex - start < maxHeaderRows {
            // One blank row may sit inside a header block (the real Monthly Activity Summary prints `Floor plan`
            // two rows under the other names); blank rows are absent from the buffer.
            if start < endIndex, rows[start + 1].number - rows[start].number > 2 { break }
            // Header rows hold names, not quantities; a data row cannot be part of the header.
            if blocks.holdsValue(start) { break }
            matches.append(blocks.block(start, endIndex).match(layout))
            start -= 1
        }
        return matches
    }

    /// Maps `layout`'s columns onto a block of header rows.
    static func match(_ layout: HeaderLayout, rows: [SheetRow], merges: [MergedRange]) -> HeaderMap {
        let blocks = HeaderBlocks(rows: rows, merges: merges)
        guard !rows.isEmpty else { return HeaderBlock(start: 0, end: -1, blocks: blocks).match(layout).map }
        return blocks.block(0, rows.count - 1).match(layout).map
    }

    /// A header cell merged across columns owns all of them: Crystal exports put the value under any of them.
    static func span(of column: Int, bottomRow: Int?, merges: [MergedRange]) -> ClosedRange<Int> {
        guard let bottomRow, let merge = merges.first(where: {
            $0.firstRow <= bottomRow && bottomRow <= $0.lastRow && $0.firstColumn == column
        }) else { return column...column }
        return merge.firstColumn...max(merge.firstColumn, merge.lastColumn)
    }
}

extension CellValue {
    /// A number, date or amount-like text; header cells such as `0-30` or `90+ Days` are labels, not values.
    var holdsValueButNotLabel: Bool {
        switch self {
        case .number, .date, .bool: return true
        case .text(let raw):
            let text = raw.trimmingWhitespace
            // Headers like "31-60" and "0 - 30" read as numbers to a lenient eye; only amounts and dates count.
            return MoneyText.looksLikeAmount(text)
                || text.split(whereSeparator: \.isNewline).first.map {
                    DateText.parseDate($0.trimmingWhitespace) != nil } == true
        default: return false
        }
    }
}
