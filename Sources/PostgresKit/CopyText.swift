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

    /// The fields of one row as the server sends it (trailing newline included or not).
    static func fields(of line: UnsafeRawBufferPointer) -> [String?] {
        var fields: [String?] = []
        var field: [UInt8] = []
        var isNull = false
        var index = 0
        let count = line.last == 0x0A ? line.count - 1 : line.count
        func end() {
            fields.append(isNull ? nil : String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            isNull = false
        }
        while index < count {
            let byte = line[index]
            if byte == 0x09 { end(); index += 1; continue }
            guard byte == 0x5C, index + 1 < count else { field.append(byte); index += 1; continue }
            let next = line[index + 1]
            index += 2
            switch next {
            case 0x4E: isNull = true                       // \N
            case 0x6E: field.append(0x0A)                  // \n
            case 0x72: field.append(0x0D)                  // \r
            case 0x74: field.append(0x09)                  // \t
            case 0x62: field.append(0x08)                  // \b
            case 0x66: field.append(0x0C)                  // \f
            case 0x76: field.append(0x0B)                  // \v
            case 0x30...0x37:                              // \ooo
                var value = Int(next - 0x30)
                var digits = 1
                while digits < 3, index < count, (0x30...0x37).contains(line[index]) {
                    value = value * 8 + Int(line[index] - 0x30); index += 1; digits += 1
                }
                field.append(UInt8(truncatingIfNeeded: value))
            default: field.append(next)                    // \\ and any other escaped byte
            }
        }
        end()
        return fields
    }
}
