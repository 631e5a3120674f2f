/// A CSV (or tab- / semicolon-separated) report export read as one sheet of text cells.
///
/// RFC 4180 quoting (`"a ""quoted"" field"`, newlines inside quotes), CRLF or LF line ends, a UTF-8 byte order mark;
/// the delimiter is the one of `,` `\t` `;` that occurs most often on the first line outside quotes.
public struct DelimitedTextSheet: Sendable {
    /// The one sheet's name, as `ownerdash sheet dump --sheet` and load messages show it.
    public static let sheetName = "CSV"

    /// Rows with at least one non-empty cell; numbers count every line (1-based).
    public let rows: [SheetRow]
    /// The separator found on the first line.
    public let delimiter: UInt8

    public init(bytes: [UInt8]) throws {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        let text = bytes[start...]
        guard !text.contains(0) else {
            throw XLSXError.malformedPart(part: Self.sheetName, detail: "holds NUL bytes: binary data, not delimited text")
        }
        delimiter = Self.detectDelimiter(text)
        var rows: [SheetRow] = []
        var cells: [CellValue] = []
        var field: [UInt8] = []
        var quoted = false, wasQuoted = false
        var lineNumber = 1
        // Checked as the field grows, so a 50 MB field is refused after its first MiB.
        func appendToField(_ byte: UInt8) throws {
            guard field.count < TextLimits.cellBytes else {
                throw XLSXError.malformedPart(part: Self.sheetName, detail: "line \(lineNumber), field \(cells.count + 1) holds more than \(TextLimits.cellDescription); refused rather than held in memory")
            }
            field.append(byte)
        }
        func endField() throws {
            guard field.count <= TextLimits.cellBytes else {
                throw XLSXError.malformedPart(part: Self.sheetName, detail: "line \(lineNumber), field \(cells.count + 1) holds more than \(TextLimits.cellDescription); refused rather than held in memory")
            }
            guard cells.count < TextLimits.columns else {
                throw XLSXError.malformedPart(part: Self.sheetName, detail: "line \(lineNumber) has more than \(TextLimits.columns) fields (Excel's own column limit); refused")
            }
            let value = String(decoding: field, as: UTF8.self)
            cells.append(value.isEmpty && !wasQuoted ? .empty : .text(value))
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        func endRow() throws {
            try endField()
            while let last = cells.last, last == .empty || last == .text("") { cells.removeLast() }
            if !cells.isEmpty { rows.append(SheetRow(number: lineNumber, cells: cells)) }
            cells.removeAll(keepingCapacity: true)
            lineNumber += 1
        }
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    let next = text.index(after: index)
                    if next < text.endIndex && text[next] == UInt8(ascii: "\"") {
                        try appendToField(byte)
                        index = next
                    } else {
                        quoted = false
                    }
                } else {
                    try appendToField(byte)
                }
            } else if byte == UInt8(ascii: "\"") && field.isEmpty {
                quoted = true
                wasQuoted = true
            } else if byte == delimiter {
                try endField()
            } else if byte == UInt8(ascii: "\n") {
                try endRow()
            } else if byte == UInt8(ascii: "\r") {
                let next = text.index(after: index)
                if next < text.endIndex && text[next] == UInt8(ascii: "\n") { index = next }
                try endRow()
            } else {
                try appendToField(byte)
            }
            index = text.index(after: index)
        }
        if quoted {
            throw XLSXError.malformedPart(part: Self.sheetName, detail: "line \(lineNumber): a quoted field is never closed")
        }
        if !field.isEmpty || !cells.isEmpty { try endRow() }
        self.rows = rows
    }

    /// The rows as a row source for the report parsers.
    public func rowSource() -> InMemoryRows { InMemoryRows(rows) }

    private static func detectDelimiter(_ text: ArraySlice<UInt8>) -> UInt8 {
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: "\t"): 0, UInt8(ascii: ";"): 0]
        var quoted = false
        for byte in text {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted && (byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")) { break }
            if !quoted, let count = counts[byte] { counts[byte] = count + 1 }
        }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? UInt8(ascii: ",")
    }
}
