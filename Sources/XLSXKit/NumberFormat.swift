/// Decides whether a cell's number format shows a date or time, which is the only way an .xlsx marks a number as a date,
/// or a percent (a fraction shown as points).
public enum NumberFormat {
    /// Built-in format ids that are dates or times: 14-22 and 45-47, plus the East Asian locale ids 27-36 and 50-58.
    public static func isBuiltInDate(_ id: Int) -> Bool {
        (14...22).contains(id) || (45...47).contains(id) || (27...36).contains(id) || (50...58).contains(id)
    }

    /// Built-in percent formats: `0%` (9) and `0.00%` (10).
    public static func isBuiltInPercent(_ id: Int) -> Bool { id == 9 || id == 10 }

    /// True when a custom format code shows its number as a percent (`%` outside quoted text, escapes and brackets):
    /// the cell stores a fraction (0.8824) and shows points (88.24%).
    public static func isPercentFormat(code: String) -> Bool {
        var quoted = false, bracket = false, escaped = false
        for character in code {
            if escaped { escaped = false; continue }
            switch character {
            case "\"" where !bracket: quoted.toggle()
            case "\\", "_", "*": if !quoted && !bracket { escaped = true }
            case "[" where !quoted: bracket = true
            case "]" where !quoted: bracket = false
            case "%" where !quoted && !bracket: return true
            default: break
            }
        }
        return false
    }

    /// A percent-formatted number as the cell shows it, in points: 0.8824 -> `88.24%` (rounded to 8 decimals, so
    /// the fraction's binary noise does not show). Text, like the percents other exports print as text.
    public static func percentText(_ fraction: Double) -> String {
        let points = fraction * 100
        let rounded = abs(points) < 1e12 ? (points * 1e8).rounded() / 1e8 : points
        var text = String(rounded)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text + "%"
    }

    /// True when a custom format code has a date/time token (y m d h s, or elapsed `[h]` `[mm]` `[ss]`)
    /// outside quoted text, `\`-escapes, `_`/`*` padding and bracketed colors, conditions and locales.
    public static func isDateFormat(code: String) -> Bool {
        let bytes = Array(code.utf8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x22: // "quoted text"
                i += 1
                while i < bytes.count && bytes[i] != 0x22 { i += 1 }
            case 0x5C, 0x5F, 0x2A: // \x, _x, *x: the next character is literal
                i += 1
            case 0x5B: // [Red], [$-409], [>=100], or elapsed time [h] [mm] [ss]
                var j = i + 1
                while j < bytes.count && bytes[j] != 0x5D { j += 1 }
                let inner = bytes[(i + 1)..<min(j, bytes.count)].map { $0 | 0x20 }
                if !inner.isEmpty, inner.allSatisfy({ $0 == 0x68 }) || inner.allSatisfy({ $0 == 0x6D }) || inner.allSatisfy({ $0 == 0x73 }) {
                    return true
                }
                i = j
            default:
                switch b | 0x20 {
                case 0x79, 0x6D, 0x64, 0x68, 0x73: // y m d h s
                    return true
                default:
                    break
                }
            }
            i += 1
        }
        return false
    }
}
