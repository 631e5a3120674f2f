/// PostgreSQL's COPY text format: tab-separated fields, `\N` for NULL, backslash escapes, one row per line.
enum CopyText {
    /// Appends one row, escaped, with its newline.
    static func append(_ row: [String?], to buffer: inout [UInt8]) {
        for (index, field) in row.enumerated() {
            if index > 0 { buffer.append(0x09) }
            guard let field else { buffer.append(0x5C); buffer.append(0x4E); continue }
            for byte in field.utf8 {
                switch byte {
                case 0x5C: buffer.append(0x5C); buffer.append(0x5C)
                case 0x0A: buffer.append(0x5C); buffer.append(0x6E)
                case 0x0D: buffer.append(0x5C); buffer.append(0x72)
                case 0x09: buffer.append(0x5C); buffer.append(0x74)
                default: buffer.append(byte)
                }
            }
        }
        buffer.append(0x0A)
    }

    /// Where each field of `line` (one row as the server sends it, its newline included or not) lies, into `spans`.
    /// A field is cut at a tab that no backslash escapes; `\N` alone is NULL.
    static func cut(_ line: UnsafeRawBufferPointer, into spans: inout [CopyRow.Span]) {
        spans.removeAll(keepingCapacity: true)
        let count = line.last == 0x0A ? line.count - 1 : line.count
        var start = 0, index = 0, escaped = false
        while index < count {
            let byte = line[index]
            if byte == 0x09 {
                spans.append(CopyRow.Span(line, start: start, end: index, escaped: escaped))
                index += 1; start = index; escaped = false
            } else if byte == 0x5C {
                escaped = true
                index += 2
            } else {
                index += 1
            }
        }
        spans.append(CopyRow.Span(line, start: start, end: min(index, count), escaped: escaped))
    }

    /// The bytes a field escaped with backslashes stands for.
    static func unescape(_ field: UnsafeRawBufferPointer) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.count)
        var index = 0
        let count = field.count
        while index < count {
            let byte = field[index]
            guard byte == 0x5C, index + 1 < count else { bytes.append(byte); index += 1; continue }
            let next = field[index + 1]
            index += 2
            switch next {
            case 0x6E: bytes.append(0x0A)                  // \n
            case 0x72: bytes.append(0x0D)                  // \r
            case 0x74: bytes.append(0x09)                  // \t
            case 0x62: bytes.append(0x08)                  // \b
            case 0x66: bytes.append(0x0C)                  // \f
            case 0x76: bytes.append(0x0B)                  // \v
            case 0x30...0x37:                              // \ooo
                var value = Int(next - 0x30)
                var digits = 1
                while digits < 3, index < count, (0x30...0x37).contains(field[index]) {
                    value = value * 8 + Int(field[index] - 0x30); index += 1; digits += 1
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
            default: bytes.append(next)                    // \\ and any other escaped byte
            }
        }
        return bytes
    }
}

/// One row of `COPY ... TO STDOUT` (text format) read where libpq put it: its fields are cut but not copied, so a
/// caller that binds them straight into SQLite makes no String of its own. Valid only inside the call that hands it out.
public struct CopyRow {
    /// Where one field lies in the row's bytes; NULL (`\N`) has no bytes.
    struct Span {
        let start: Int
        let end: Int
        /// It holds a backslash escape, so its bytes are not the value's.
        let escaped: Bool
        let isNull: Bool

        init(_ line: UnsafeRawBufferPointer, start: Int, end: Int, escaped: Bool) {
            self.start = start
            self.end = end
            self.escaped = escaped
            isNull = escaped && end - start == 2 && line[start + 1] == 0x4E
        }
    }

    let line: UnsafeRawBufferPointer
    let spans: [Span]

    /// How many fields the row has.
    public var count: Int { spans.count }

    /// Calls `body` with the bytes field `index` stands for (escapes undone), or nil for NULL.
    public func withBytes<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer?) throws -> Result) rethrows -> Result {
        let span = spans[index]
        if span.isNull { return try body(nil) }
        let raw = UnsafeRawBufferPointer(rebasing: line[span.start..<span.end])
        guard span.escaped else { return try body(raw) }
        return try CopyText.unescape(raw).withUnsafeBytes { try body($0) }
    }

    /// Field `index` as text, or nil for NULL.
    public func text(_ index: Int) -> String? {
        withBytes(index) { bytes in bytes.map { String(decoding: $0, as: UTF8.self) } }
    }
}
