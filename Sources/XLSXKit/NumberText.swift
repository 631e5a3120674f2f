#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading numbers straight from the bytes of a `<v>` element, without building a String.
enum NumberText {
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The number written in `bytes` (surrounding XML whitespace allowed), nil when it is not a number.
    ///
    /// Up to 15 significant digits with a small exponent are exact with one multiply or divide
    /// (both operands are exact doubles, so IEEE rounding gives the correctly rounded result);
    /// anything longer goes to strtod.
    static func parseDouble(_ start: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        var p = 0
        var n = count
        while p < n && ByteScanner.isSpace(start[p]) { p += 1 }
        while n > p && ByteScanner.isSpace(start[n - 1]) { n -= 1 }
        guard p < n else { return nil }
        let first = p
        var negative = false
        if start[p] == 0x2D { negative = true; p += 1 } else if start[p] == 0x2B { p += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var significant = 0
        var scale = 0
        while p < n, start[p] &- 0x30 < 10 {
            if mantissa != 0 || start[p] != 0x30 { significant += 1 }
            mantissa = mantissa &* 10 &+ UInt64(start[p] &- 0x30)
            digits += 1
            p += 1
        }
        if p < n && start[p] == 0x2E {
            p += 1
            while p < n, start[p] &- 0x30 < 10 {
                if mantissa != 0 || start[p] != 0x30 { significant += 1 }
                mantissa = mantissa &* 10 &+ UInt64(start[p] &- 0x30)
                digits += 1
                scale += 1
                p += 1
            }
        }
        guard digits > 0 else { return nil }
        var exponent = 0
        if p < n && (start[p] | 0x20) == 0x65 {
            p += 1
            var exponentNegative = false
            if p < n && (start[p] == 0x2D || start[p] == 0x2B) { exponentNegative = start[p] == 0x2D; p += 1 }
            var exponentDigits = 0
            while p < n, start[p] &- 0x30 < 10 {
                if exponent < 100_000 { exponent = exponent * 10 + Int(start[p] &- 0x30) }
                exponentDigits += 1
                p += 1
            }
            guard exponentDigits > 0 else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        guard p == n else { return nil }
        let power = exponent - scale
        if significant <= 15 && power >= -22 && power <= 22 {
            let value = Double(mantissa)
            let result = power < 0 ? value / powersOfTen[-power] : value * powersOfTen[power]
            return negative ? -result : result
        }
        return slowParse(start + first, n - first)
    }

    private static func slowParse(_ start: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        guard count < 512 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer -> Double? in
            guard let base = buffer.baseAddress else { return nil }
            UnsafeMutableRawPointer(base).copyMemory(from: start, byteCount: count)
            base[count] = 0
            var endPointer: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(base, &endPointer)
            guard let endPointer, endPointer == base + count else { return nil }
            return value
        }
    }

    /// A non-negative decimal integer (surrounding whitespace allowed), nil otherwise or past `Int32.max`.
    static func parseIndex(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        var p = 0
        var n = count
        while p < n && ByteScanner.isSpace(start[p]) { p += 1 }
        while n > p && ByteScanner.isSpace(start[n - 1]) { n -= 1 }
        guard p < n else { return nil }
        var value = 0
        while p < n {
            let digit = start[p] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
            guard value <= Int(Int32.max) else { return nil }
            p += 1
        }
        return value
    }
}
