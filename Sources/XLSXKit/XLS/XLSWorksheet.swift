/// One worksheet of an .xls workbook: its substream of the Workbook stream, from its BOF to the matching EOF.
public final class XLSWorksheet {
    /// The tab name.
    public let name: String
    let workbook: XLSWorkbook
    /// Offset of the sheet's BOF record in the Workbook stream.
    let offset: Int

    init(workbook: XLSWorkbook, name: String, offset: Int) {
        self.workbook = workbook
        self.name = name
        self.offset = offset
    }

    /// The rows in row order, each with at least one value (empty rows skipped, as the .xlsx reader does).
    ///
    /// The sheet's records are walked once here, to check them and see whether rows come in order (they do from
    /// every writer seen), then read again as rows are asked for, straight through. A sheet whose rows are out of
    /// order is walked a second time for its cell records' offsets, read back sorted by row: the one case where
    /// memory grows with the sheet (16 bytes a cell record).
    public func rows() throws -> XLSWorksheetRows {
        var lastRow = -1
        var inOrder = true
        var width = 0
        try walk { cursor in
            switch cursor.type {
            case _ where XLSWorksheetRows.isCell(cursor.type):
                guard cursor.length >= 6 else {
                    throw self.malformed("\(BIFFRecord.name(cursor.type)) record at offset \(biffHex(cursor.offset)) is \(cursor.length) bytes, shorter than the 6 of its cell address")
                }
                let row = cursor.u16(0)
                if row < lastRow { inOrder = false }
                lastRow = row
            case BIFFRecord.dimensions where cursor.length >= 12:
                width = cursor.u16(10) // colMac: one past the last used column
            default:
                break
            }
        }
        let widthHint = min(max(width, 4), 256)
        guard !inOrder else { return XLSWorksheetRows(sheet: self, sortedRecords: nil, widthHint: widthHint) }
        // Some writers store rows out of order; rows must come out in order, cells of a row in file order.
        var records: [(row: Int, offset: Int)] = []
        try walk { cursor in
            if XLSWorksheetRows.isCell(cursor.type) { records.append((cursor.u16(0), cursor.offset)) }
        }
        let order = records.indices.sorted { records[$0].row != records[$1].row ? records[$0].row < records[$1].row : $0 < $1 }
        return XLSWorksheetRows(sheet: self, sortedRecords: order.map { records[$0].offset }, widthHint: widthHint)
    }

    /// The merged cell blocks (MERGEDCELLS records), in the order the sheet lists them.
    public func mergedRanges() throws -> [MergedRange] {
        var ranges: [MergedRange] = []
        try walk { cursor in
            guard cursor.type == BIFFRecord.mergedCells else { return }
            let length = cursor.length
            guard length >= 2 else { throw self.malformed("MERGEDCELLS record at offset \(biffHex(cursor.offset)) is \(length) bytes, shorter than its count") }
            let count = cursor.u16(0)
            guard 2 + 8 * count <= length else {
                throw self.malformed("MERGEDCELLS record at offset \(biffHex(cursor.offset)) lists \(count) ranges but has room for \((length - 2) / 8)")
            }
            for i in 0..<count {
                let p = 2 + 8 * i
                let (firstRow, lastRow) = (cursor.u16(p), cursor.u16(p + 2))
                let (firstColumn, lastColumn) = (cursor.u16(p + 4), cursor.u16(p + 6))
                ranges.append(MergedRange(firstRow: min(firstRow, lastRow) + 1, firstColumn: min(firstColumn, lastColumn),
                                          lastRow: max(firstRow, lastRow) + 1, lastColumn: max(firstColumn, lastColumn)))
            }
        }
        return ranges
    }

    func malformed(_ detail: String) -> XLSError {
        .malformedSheet(sheet: name, detail: detail)
    }

    /// Calls `body` with the cursor on each record of the sheet's own substream, skipping embedded ones (charts
    /// drawn on the sheet).
    private func walk(_ body: (_ cursor: BIFFCursor) throws -> Void) throws {
        let stream = workbook.stream
        let cursor = BIFFCursor(stream: stream, at: offset)
        guard try cursor.next(), cursor.type == BIFFRecord.bof else {
            throw malformed("its BOUNDSHEET points at offset \(biffHex(offset)), which is not a BOF record")
        }
        var depth = 0
        while true {
            guard try cursor.next() else {
                let position = cursor.position
                throw malformed(position >= stream.count
                    ? "the sheet's substream ends without an EOF record (truncated?)"
                    : "the record at offset \(biffHex(position)) runs past the end of the Workbook stream (\(stream.count) bytes; truncated?)")
            }
            switch cursor.type {
            case BIFFRecord.bof:
                depth += 1
            case BIFFRecord.eof:
                if depth == 0 { return }
                depth -= 1
            default:
                if depth == 0 { try body(cursor) }
            }
        }
    }
}

/// The rows of one .xls worksheet, decoded from its cell records as they are read from the Workbook stream.
///
/// A row is yielded when at least one of its cells has a value, exactly as `WorksheetRows` does for .xlsx:
/// BLANK and MULBLANK cells (formatting only) are no values; an empty string (a LABELSST of "" or a formula
/// that returned "") is one. `cells` ends at the row's last value.
public final class XLSWorksheetRows: SheetRowSource {
    private let cursor: BIFFCursor
    /// nil: the sheet's records in file order, from its BOF to its EOF. Else the cell records' offsets, by row.
    private let sortedRecords: [Int]?
    private var next = 0
    /// Reading in file order: the depth of embedded substreams (charts drawn on the sheet), and whether the
    /// sheet's EOF has been read.
    private var depth = 0
    private var finished = false
    /// The cursor is on a cell record not yet decoded: the first cell of the next row.
    private var pending = false
    private let sheet: String
    private let sharedStrings: [String]
    private let isDateXF: [Bool]
    private let isPercentXF: [Bool]
    private let uses1904: Bool
    private var widthHint: Int
    private var text: BIFFText

    init(sheet: XLSWorksheet, sortedRecords: [Int]?, widthHint: Int) {
        // The sheet's records were checked from its BOF on (`XLSWorksheet.rows()`), so the first one is its BOF.
        cursor = BIFFCursor(stream: sheet.workbook.stream, at: sheet.offset)
        self.sortedRecords = sortedRecords
        self.sheet = sheet.name
        sharedStrings = sheet.workbook.sharedStrings
        isDateXF = sheet.workbook.isDateXF
        isPercentXF = sheet.workbook.isPercentXF
        uses1904 = sheet.workbook.uses1904DateSystem
        text = BIFFText(codePage: sheet.workbook.characters)
        self.widthHint = widthHint
        if sortedRecords == nil { depth = -1 } // the sheet's own BOF comes first and brings the depth to 0
    }

    /// The record types that are cells with a value (BLANK and MULBLANK are formatting only).
    static func isCell(_ type: Int) -> Bool {
        switch type {
        case BIFFRecord.labelSST, BIFFRecord.label, BIFFRecord.richString, BIFFRecord.number, BIFFRecord.rk,
             BIFFRecord.mulRK, BIFFRecord.formula, BIFFRecord.boolErr:
            return true
        default:
            return false
        }
    }

    /// The next row with at least one value, or nil after the last row.
    public func nextRow() throws -> SheetRow? {
        var cells: [CellValue] = []
        cells.reserveCapacity(widthHint)
        var row = -1
        while try nextCell() {
            let recordRow = cursor.u16(0)
            if recordRow != row {
                if !cells.isEmpty { break } // the record stays pending: it starts the next row
                row = recordRow
            }
            pending = false
            let offset = cursor.offset
            try decode(row: row, into: &cells)
            // BIFF8 has 256 columns; a column past Excel's last one is garbage that would pad a huge row.
            guard cells.count <= CellReference.columnLimit else {
                throw malformed("row \(row + 1) has a cell past column \(CellReference.columnLimit) (offset \(biffHex(offset)))")
            }
        }
        guard !cells.isEmpty else { return nil }
        if cells.count > widthHint { widthHint = cells.count }
        return SheetRow(number: row + 1, cells: cells)
    }

    /// Puts the cursor on the next cell record (or leaves it on the pending one); false after the last.
    @inline(__always) private func nextCell() throws -> Bool {
        if pending { return true }
        if let sortedRecords {
            guard next < sortedRecords.count else { return false }
            cursor.seek(to: sortedRecords[next])
            next += 1
            guard try cursor.next() else { throw malformed("the cell record at offset \(biffHex(sortedRecords[next - 1])) runs past the end of the Workbook stream") }
            pending = true
            return true
        }
        while !finished {
            guard try cursor.next() else {
                throw malformed("the record at offset \(biffHex(cursor.position)) runs past the end of the Workbook stream (\(cursor.stream.count) bytes; truncated?)")
            }
            switch cursor.type {
            case BIFFRecord.bof:
                depth += 1
            case BIFFRecord.eof:
                if depth == 0 { finished = true } else { depth -= 1 }
            case let type where depth == 0 && Self.isCell(type):
                pending = true
                return true
            default:
                break
            }
        }
        return false
    }

    private func malformed(_ detail: String) -> XLSError {
        .malformedSheet(sheet: sheet, detail: detail)
    }

    /// Decodes the cell record the cursor is on (MULRK: several cells) into the row's cells.
    @inline(__always) private func decode(row: Int, into cells: inout [CellValue]) throws {
        let type = cursor.type
        let length = cursor.length
        let offset = cursor.offset
        let column = cursor.u16(2)
        switch type {
        case BIFFRecord.labelSST:
            guard length >= 10 else { throw tooShort(type, offset, length, 10) }
            try checkXF(cursor.u16(4), column, row)
            let index = Int(cursor.u32(6))
            guard index < sharedStrings.count else {
                throw malformed("cell \(CellReference.name(column: column, row: row + 1)) refers to shared string \(index), but the SST has \(sharedStrings.count)")
            }
            place(.text(sharedStrings[index]), column, &cells)
        case BIFFRecord.number:
            guard length >= 14 else { throw tooShort(type, offset, length, 14) }
            place(try number(cursor.f64(6), xf: cursor.u16(4), column, row), column, &cells)
        case BIFFRecord.rk:
            guard length >= 10 else { throw tooShort(type, offset, length, 10) }
            place(try number(BIFFRecord.rkValue(cursor.u32(6)), xf: cursor.u16(4), column, row), column, &cells)
        case BIFFRecord.mulRK:
            // rw, colFirst, (ixfe, rk) per cell, colLast.
            guard length >= 12, (length - 6) % 6 == 0 else {
                throw malformed("MULRK record at offset \(biffHex(offset)) is \(length) bytes, not 6 + 6 per cell")
            }
            let count = (length - 6) / 6
            for i in 0..<count {
                let cell = 4 + 6 * i
                place(try number(BIFFRecord.rkValue(cursor.u32(cell + 2)), xf: cursor.u16(cell), column + i, row), column + i, &cells)
            }
        case BIFFRecord.label, BIFFRecord.richString:
            guard length >= 9 else { throw tooShort(type, offset, length, 9) }
            try checkXF(cursor.u16(4), column, row)
            let count = cursor.u16(6)
            let wide = cursor.u8(8) & 1 != 0
            guard 9 + (wide ? 2 : 1) * count <= length else { throw tooShort(type, offset, length, 9 + (wide ? 2 : 1) * count) }
            let p = cursor.body + 9
            place(.text(wide ? text.utf16(p, count) : try text.compressed(p, count)), column, &cells)
        case BIFFRecord.boolErr:
            guard length >= 8 else { throw tooShort(type, offset, length, 8) }
            try checkXF(cursor.u16(4), column, row)
            let value = cursor.u8(6)
            place(cursor.u8(7) != 0 ? .error(BIFFRecord.errorText(value)) : .bool(value != 0), column, &cells)
        case BIFFRecord.formula:
            guard length >= 20 else { throw tooShort(type, offset, length, 20) }
            // The cached result: a double, or (top two bytes 0xFFFF) a type byte and its value.
            guard cursor.u16(12) == 0xFFFF else {
                place(try number(cursor.f64(6), xf: cursor.u16(4), column, row), column, &cells)
                return
            }
            try checkXF(cursor.u16(4), column, row)
            switch cursor.u8(6) {
            case 0: place(.text(try formulaString(column, row)), column, &cells)
            case 1: place(.bool(cursor.u8(8) != 0), column, &cells)
            case 2: place(.error(BIFFRecord.errorText(cursor.u8(8))), column, &cells)
            case 3: place(.text(""), column, &cells)
            case let other:
                throw malformed("the FORMULA of cell \(CellReference.name(column: column, row: row + 1)) has a cached result of unknown type \(other)")
            }
        default:
            break
        }
    }

    private func tooShort(_ type: Int, _ offset: Int, _ length: Int, _ needed: Int) -> XLSError {
        malformed("\(BIFFRecord.name(type)) record at offset \(biffHex(offset)) is \(length) bytes, shorter than the \(needed) it needs")
    }

    @inline(__always) private func checkXF(_ xf: Int, _ column: Int, _ row: Int) throws {
        guard xf < isDateXF.count || isDateXF.isEmpty else {
            throw malformed("cell \(CellReference.name(column: column, row: row + 1)) refers to XF \(xf), but the workbook has \(isDateXF.count) XF records")
        }
    }

    /// A number, or a date when its XF's number format is a date format (and the serial is a valid date).
    @inline(__always) private func number(_ value: Double, xf: Int, _ column: Int, _ row: Int) throws -> CellValue {
        try checkXF(xf, column, row)
        if xf < isDateXF.count, isDateXF[xf], let date = ExcelDateTime(serial: value, uses1904DateSystem: uses1904) {
            return .date(date)
        }
        if xf < isPercentXF.count, isPercentXF[xf] { return .text(NumberFormat.percentText(value)) }
        return .number(value)
    }

    @inline(__always) private func place(_ value: CellValue, _ column: Int, _ cells: inout [CellValue]) {
        if column == cells.count {
            cells.append(value)
        } else if column > cells.count {
            cells.append(contentsOf: repeatElement(.empty, count: column - cells.count))
            cells.append(value)
        } else {
            cells[column] = value
        }
    }

    /// The text of a FORMULA's string result: the STRING record after it (past any SHRFMLA, ARRAY or TABLE).
    /// The cursor moves past them; none of them is a cell, so reading in file order goes on from there.
    private func formulaString(_ column: Int, _ row: Int) throws -> String {
        while try cursor.next() {
            switch cursor.type {
            case BIFFRecord.sharedFormula, BIFFRecord.array, BIFFRecord.table:
                continue
            case BIFFRecord.string:
                let cell = CellReference.name(column: column, row: row + 1)
                var reader = ContinuedRecord(cursor: cursor, what: "the STRING record of cell \(cell)")
                do {
                    let count = try reader.u16("its header")
                    let flags = try reader.byte("its header")
                    return try reader.characters(count, highByte: flags & 1 != 0, text: &text, "its characters")
                } catch XLSError.malformedWorkbook(let detail) {
                    throw malformed(detail)
                }
            default:
                break
            }
            break
        }
        throw malformed("cell \(CellReference.name(column: column, row: row + 1)) is a formula with a string result, but no STRING record follows it")
    }
}
