/// Formats sheet rows as CSV for `xlsx dump`, into a reusable byte buffer.
///
/// Rules: line N is sheet row N, so rows the source skips (no values) come out as empty lines,
/// including before the first row; lines end with LF; each line has as many fields as its row has
/// cells (rows are not padded to a common width); empty cells are empty fields; numbers in shortest
/// round-trip form without `.0` on integers and in plain notation from 1e-7 up to 1e21 (exponent
/// form outside, as JavaScript prints numbers); dates `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS` when
/// they have a time of day; booleans `TRUE`/`FALSE`; errors as their text; fields containing a comma,
/// quote, CR or LF are quoted with quotes doubled (RFC 4180).
public struct SheetCSV {
    private var buffer = ScratchBytes(capacity: 1 << 16)
    private var lastRowNumber = 0

    public init() {}

    /// Bytes formatted and not yet taken.
    public var count: Int { buffer.count }

    /// Lends the formatted bytes (to write them out); call `removeAll()` afterwards.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(buffer.buffer))
    }

    /// Forgets the formatted bytes, keeping the buffer's memory for the next rows.
    public mutating func removeAll() { buffer.removeAll() }

    /// Appends the row's line, preceded by an empty line for every sheet row skipped since the last one.
    public mutating func append(_ row: SheetRow) {
        if row.number > lastRowNumber + 1 {
            for _ in 0..<(row.number - lastRowNumber - 1) { buffer.append(0x0A) }
        }
        lastRowNumber = max(lastRowNumber, row.number)
        appendFields(row.cells)
        buffer.append(0x0A)
    }

    /// Streams every row of `rows` as CSV, handing out about 1 MiB at a time to `write`.
    public static func write(_ rows: inout some SheetRowSource, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        var csv = SheetCSV()
        while let row = try rows.nextRow() {
            csv.append(row)
            if csv.count >= 1 << 20 {
                try csv.withUnsafeBytes(write)
                csv.removeAll()
            }
        }
        if csv.count > 0 { try csv.withUnsafeBytes(write) }
    }

    /// One row's fields joined by commas, without the line end.
    public static func line(_ cells: [CellValue]) -> String {
        var csv = SheetCSV()
        csv.appendFields(cells)
        return csv.buffer.string()
    }

    /// One cell as a CSV field (quoted when needed).
    public static func field(_ value: CellValue) -> String {
        line([value])
    }

    // MARK: - Formatting

    private mutating func appendFields(_ cells: [CellValue]) {
        var first = true
        for cell in cells {
            if !first { buffer.append(0x2C) }
            first = false
            switch cell {
            case .empty: break
            case .text(let text): appendQuoted(text)
            case .number(let number): appendNumber(number)
            case .date(let date): appendDate(date)
            case .bool(let flag): appendASCII(flag ? "TRUE" : "FALSE")
            case .error(let text): appendQuoted(text)
            }
        }
    }

    private mutating func appendASCII(_ text: StaticString) {
        buffer.append(text.utf8Start, text.utf8CodeUnitCount)
    }

    private mutating func appendQuoted(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            var needsQuotes = false
            for byte in utf8 where byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D {
                needsQuotes = true
                break
            }
            if !needsQuotes {
                buffer.append(base, utf8.count)
                return
            }
            buffer.append(0x22)
            var run = 0
            for i in 0..<utf8.count where utf8[i] == 0x22 {
                buffer.append(base + run, i + 1 - run)
                buffer.append(0x22)
                run = i + 1
            }
            buffer.append(base + run, utf8.count - run)
            buffer.append(0x22)
        }
    }

    private mutating func appendNumber(_ value: Double) {
        // Integers and cents cover nearly every number in a report; both forms are provably the
        // shortest round-trip text (at most 15 significant digits), so they skip Double.description.
        if value.magnitude < 1e15 {
            if value == value.rounded(.towardZero) {
                appendInteger(Int64(value))
                return
            }
            let cents = (value * 100).rounded()
            if cents / 100 == value {
                appendCents(Int64(cents))
                return
            }
        }
        appendGeneral(value)
    }

    private mutating func appendInteger(_ value: Int64) {
        if value < 0 { buffer.append(0x2D) }
        appendDigits(value.magnitude)
    }

    private mutating func appendDigits(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0) // 32 bytes of scratch on the stack
        withUnsafeMutableBytes(of: &digits) { scratch in
            var n = value
            var i = scratch.count
            repeat {
                i -= 1
                scratch[i] = UInt8(truncatingIfNeeded: n % 10) + 0x30
                n /= 10
            } while n > 0
            if let base = scratch.baseAddress {
                buffer.append(base.assumingMemoryBound(to: UInt8.self) + i, scratch.count - i)
            }
        }
    }

    private mutating func appendCents(_ cents: Int64) {
        if cents < 0 { buffer.append(0x2D) }
        let magnitude = cents.magnitude
        appendDigits(magnitude / 100)
        let fraction = magnitude % 100
        buffer.append(0x2E)
        buffer.append(UInt8(fraction / 10) + 0x30)
        if fraction % 10 != 0 { buffer.append(UInt8(fraction % 10) + 0x30) }
    }

    /// Re-renders Swift's shortest round-trip digits in plain notation between 1e-7 and 1e21.
    private mutating func appendGeneral(_ value: Double) {
        guard value.isFinite else {
            appendASCII(value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity")
            return
        }
        var text = Array(value.description.utf8)
        if text.first == 0x2D {
            buffer.append(0x2D)
            text.removeFirst()
        }
        var exponent = 0
        if let e = text.firstIndex(of: 0x65) {
            exponent = Int(String(decoding: text[(e + 1)...], as: UTF8.self)) ?? 0
            text.removeSubrange(e...)
        }
        var digits = text
        var point = digits.count
        if let dot = digits.firstIndex(of: 0x2E) {
            point = dot
            digits.remove(at: dot)
        }
        var n = point + exponent // the decimal point sits after n digits
        while digits.count > 1 && digits.first == 0x30 {
            digits.removeFirst()
            n -= 1
        }
        while digits.count > 1 && digits.last == 0x30 { digits.removeLast() }
        let k = digits.count
        if digits == [0x30] {
            buffer.append(0x30)
        } else if k <= n && n <= 21 {
            for digit in digits { buffer.append(digit) }
            for _ in 0..<(n - k) { buffer.append(0x30) }
        } else if 0 < n && n <= 21 {
            for digit in digits[..<n] { buffer.append(digit) }
            buffer.append(0x2E)
            for digit in digits[n...] { buffer.append(digit) }
        } else if -6 < n && n <= 0 {
            buffer.append(0x30)
            buffer.append(0x2E)
            for _ in 0..<(-n) { buffer.append(0x30) }
            for digit in digits { buffer.append(digit) }
        } else {
            buffer.append(digits[0])
            if k > 1 {
                buffer.append(0x2E)
                for digit in digits[1...] { buffer.append(digit) }
            }
            buffer.append(0x65)
            buffer.append(n - 1 >= 0 ? 0x2B : 0x2D)
            appendDigits(UInt64((n - 1).magnitude))
        }
    }

    private mutating func appendDate(_ date: ExcelDateTime) {
        appendPadded(date.year, 4)
        buffer.append(0x2D)
        appendPadded(date.month, 2)
        buffer.append(0x2D)
        appendPadded(date.day, 2)
        if !date.isDateOnly {
            buffer.append(0x54)
            appendPadded(date.hour, 2)
            buffer.append(0x3A)
            appendPadded(date.minute, 2)
            buffer.append(0x3A)
            appendPadded(date.second, 2)
        }
    }

    private mutating func appendPadded(_ value: Int, _ width: Int) {
        if value < 0 {
            appendInteger(Int64(value))
            return
        }
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 1 && value < divisor {
            buffer.append(0x30)
            divisor /= 10
        }
        appendDigits(UInt64(value))
    }
}
