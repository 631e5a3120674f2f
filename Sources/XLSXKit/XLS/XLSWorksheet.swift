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
    public func rows() throws -> XLSWorksheetRows {
        var records: [Int] = []
        var lastRow = -1
        var inOrder = true
        var width = 0
        try walk { type, body, length in
            switch type {
            case BIFFRecord.labelSST, BIFFRecord.label, BIFFRecord.richString, BIFFRecord.number, BIFFRecord.rk,
                 BIFFRecord.mulRK, BIFFRecord.formula, BIFFRecord.boolErr:
                guard length >= 6 else {
                    throw self.malformed("\(BIFFRecord.name(type)) record at offset \(biffHex(body - 4)) is \(length) bytes, shorter than the 6 of its cell address")
                }
                let row = workbook.stream.u16(body)
                if row < lastRow { inOrder = false }
                lastRow = row
                records.append(body - 4)
            case BIFFRecord.dimensions where length >= 12:
                width = workbook.stream.u16(body + 10) // colMac: one past the last used column
            default:
                break
            }
        }
        if !inOrder {
            // Some writers store rows out of order; rows must come out in order, cells of a row in file order.
            let rows = records.map { workbook.stream.u16($0 + 4) }
            let order = records.indices.sorted { rows[$0] != rows[$1] ? rows[$0] < rows[$1] : $0 < $1 }
            records = order.map { records[$0] }
        }
        return XLSWorksheetRows(sheet: self, records: records, widthHint: min(max(width, 4), 256))
    }

    /// The merged cell blocks (MERGEDCELLS records), in the order the sheet lists them.
    public func mergedRanges() throws -> [MergedRange] {
        var ranges: [MergedRange] = []
        let stream = workbook.stream
        try walk { type, body, length in
            guard type == BIFFRecord.mergedCells else { return }
            guard length >= 2 else { throw self.malformed("MERGEDCELLS record at offset \(biffHex(body - 4)) is \(length) bytes, shorter than its count") }
            let count = stream.u16(body)
            guard 2 + 8 * count <= length else {
                throw self.malformed("MERGEDCELLS record at offset \(biffHex(body - 4)) lists \(count) ranges but has room for \((length - 2) / 8)")
            }
            for i in 0..<count {
                let p = body + 2 + 8 * i
                let (firstRow, lastRow) = (stream.u16(p), stream.u16(p + 2))
                let (firstColumn, lastColumn) = (stream.u16(p + 4), stream.u16(p + 6))
                ranges.append(MergedRange(firstRow: min(firstRow, lastRow) + 1, firstColumn: min(firstColumn, lastColumn),
                                          lastRow: max(firstRow, lastRow) + 1, lastColumn: max(firstColumn, lastColumn)))
            }
        }
        return ranges
    }

    func malformed(_ detail: String) -> XLSError {
        .malformedSheet(sheet: name, detail: detail)
    }

    /// Calls `body` for each record of the sheet's own substream, skipping embedded ones (charts drawn on the sheet).
    private func walk(_ body: (_ type: Int, _ body: Int, _ length: Int) throws -> Void) throws {
        let stream = workbook.stream
        guard let bof = stream.record(at: offset), bof.type == BIFFRecord.bof else {
            throw malformed("its BOUNDSHEET points at offset \(biffHex(offset)), which is not a BOF record")
        }
        var position = bof.body + bof.length
        var depth = 0
        while true {
            guard let record = stream.record(at: position) else {
                throw malformed(position >= stream.count
                    ? "the sheet's substream ends without an EOF record (truncated?)"
                    : "the record at offset \(biffHex(position)) runs past the end of the Workbook stream (\(stream.count) bytes; truncated?)")
            }
            switch record.type {
            case BIFFRecord.bof:
                depth += 1
            case BIFFRecord.eof:
                if depth == 0 { return }
                depth -= 1
            default:
                if depth == 0 { try body(record.type, record.body, record.length) }
            }
            position = record.body + record.length
        }
    }
}

/// The rows of one .xls worksheet, decoded from its cell records (the Workbook stream is already in memory).
///
/// A row is yielded when at least one of its cells has a value, exactly as `WorksheetRows` does for .xlsx:
/// BLANK and MULBLANK cells (formatting only) are no values; an empty string (a LABELSST of "" or a formula
/// that returned "") is one. `cells` ends at the row's last value.
public final class XLSWorksheetRows: SheetRowSource {
    private let stream: BIFFStream
    private let records: [Int]
    private var next = 0
    private let sheet: String
    private let sharedStrings: [String]
    private let isDateXF: [Bool]
    private let uses1904: Bool
    private var widthHint: Int
    private var text = BIFFText()

    init(sheet: XLSWorksheet, records: [Int], widthHint: Int) {
        stream = sheet.workbook.stream
        self.records = records
        self.sheet = sheet.name
        sharedStrings = sheet.workbook.sharedStrings
        isDateXF = sheet.workbook.isDateXF
        uses1904 = sheet.workbook.uses1904DateSystem
        self.widthHint = widthHint
    }

    /// The next row with at least one value, or nil after the last row.
    public func nextRow() throws -> SheetRow? {
        var cells: [CellValue] = []
        cells.reserveCapacity(widthHint)
        var row = -1
        while next < records.count {
            let offset = records[next]
            let recordRow = stream.u16(offset + 4)
            if recordRow != row {
                if !cells.isEmpty { break }
                row = recordRow
            }
            next += 1
            try decode(offset, row: row, into: &cells)
            // BIFF8 has 256 columns; a column past Excel's last one is garbage that would pad a huge row.
            guard cells.count <= CellReference.columnLimit else {
                throw malformed("row \(row + 1) has a cell past column \(CellReference.columnLimit) (offset \(biffHex(offset)))")
            }
        }
        guard !cells.isEmpty else { return nil }
        if cells.count > widthHint { widthHint = cells.count }
        return SheetRow(number: row + 1, cells: cells)
    }

    private func malformed(_ detail: String) -> XLSError {
        .malformedSheet(sheet: sheet, detail: detail)
    }

    /// Decodes one cell record (MULRK: several cells) into the row's cells.
    @inline(__always) private func decode(_ offset: Int, row: Int, into cells: inout [CellValue]) throws {
        let type = stream.u16(offset)
        let length = stream.u16(offset + 2)
        let body = offset + 4
        let column = stream.u16(body + 2)
        switch type {
        case BIFFRecord.labelSST:
            guard length >= 10 else { throw tooShort(type, offset, length, 10) }
            try checkXF(stream.u16(body + 4), column, row)
            let index = Int(stream.u32(body + 6))
            guard index < sharedStrings.count else {
                throw malformed("cell \(CellReference.name(column: column, row: row + 1)) refers to shared string \(index), but the SST has \(sharedStrings.count)")
            }
            place(.text(sharedStrings[index]), column, &cells)
        case BIFFRecord.number:
            guard length >= 14 else { throw tooShort(type, offset, length, 14) }
            place(try number(stream.f64(body + 6), xf: stream.u16(body + 4), column, row), column, &cells)
        case BIFFRecord.rk:
            guard length >= 10 else { throw tooShort(type, offset, length, 10) }
            place(try number(BIFFRecord.rkValue(stream.u32(body + 6)), xf: stream.u16(body + 4), column, row), column, &cells)
        case BIFFRecord.mulRK:
            // rw, colFirst, (ixfe, rk) per cell, colLast.
            guard length >= 12, (length - 6) % 6 == 0 else {
                throw malformed("MULRK record at offset \(biffHex(offset)) is \(length) bytes, not 6 + 6 per cell")
            }
            let count = (length - 6) / 6
            for i in 0..<count {
                let cell = body + 4 + 6 * i
                place(try number(BIFFRecord.rkValue(stream.u32(cell + 2)), xf: stream.u16(cell), column + i, row), column + i, &cells)
            }
        case BIFFRecord.label, BIFFRecord.richString:
            guard length >= 9 else { throw tooShort(type, offset, length, 9) }
            try checkXF(stream.u16(body + 4), column, row)
            let count = stream.u16(body + 6)
            let wide = stream.u8(body + 8) & 1 != 0
            guard 9 + (wide ? 2 : 1) * count <= length else { throw tooShort(type, offset, length, 9 + (wide ? 2 : 1) * count) }
            let p = UnsafePointer(stream.base + body + 9)
            place(.text(wide ? text.utf16(p, count) : text.compressed(p, count)), column, &cells)
        case BIFFRecord.boolErr:
            guard length >= 8 else { throw tooShort(type, offset, length, 8) }
            try checkXF(stream.u16(body + 4), column, row)
            let value = stream.u8(body + 6)
            place(stream.u8(body + 7) != 0 ? .error(BIFFRecord.errorText(value)) : .bool(value != 0), column, &cells)
        case BIFFRecord.formula:
            guard length >= 20 else { throw tooShort(type, offset, length, 20) }
            // The cached result: a double, or (top two bytes 0xFFFF) a type byte and its value.
            guard stream.u16(body + 12) == 0xFFFF else {
                place(try number(stream.f64(body + 6), xf: stream.u16(body + 4), column, row), column, &cells)
                return
            }
            try checkXF(stream.u16(body + 4), column, row)
            switch stream.u8(body + 6) {
            case 0: place(.text(try formulaString(after: body + length, column, row)), column, &cells)
            case 1: place(.bool(stream.u8(body + 8) != 0), column, &cells)
            case 2: place(.error(BIFFRecord.errorText(stream.u8(body + 8))), column, &cells)
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
    private func formulaString(after position: Int, _ column: Int, _ row: Int) throws -> String {
        var position = position
        while let record = stream.record(at: position) {
            switch record.type {
            case BIFFRecord.sharedFormula, BIFFRecord.array, BIFFRecord.table:
                position = record.body + record.length
                continue
            case BIFFRecord.string:
                let cell = CellReference.name(column: column, row: row + 1)
                var reader = ContinuedRecord(stream: stream, recordAt: position, what: "the STRING record of cell \(cell)")
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
