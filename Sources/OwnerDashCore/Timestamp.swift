import Foundation

/// UTC instants as text, the one format of every record, manifest, log line and lock (ISO 8601,
/// `2026-11-22T04:05:12Z`) and of the pages people read (`2026-11-22 04:05 UTC`).
///
/// Formatted by hand: Foundation's ISO8601DateFormatter costs a formatter (and on Linux an ICU calendar) per call,
/// which a log line, a manifest entry or a run record should not.
public enum Timestamp {
    /// `2026-11-22T04:05:12Z`; with `milliseconds`, `2026-11-22T04:05:12.345Z` (the landing manifest's).
    public static func iso(_ date: Date = Date(), milliseconds: Bool = false) -> String {
        let (day, second, millisecond) = parts(date, milliseconds: milliseconds)
        var text = day.iso + "T" + two(second / 3_600) + ":" + two(second % 3_600 / 60) + ":" + two(second % 60)
        if milliseconds {
            text += "." + (millisecond < 100 ? "0" : "") + two(millisecond)
        }
        return text + "Z"
    }

    /// `2026-11-22 04:05 UTC`: when a page or workbook was written, in UTC so it reads the same wherever it is opened;
    /// by default now on the run clock (`RunID.clock`: `OWNERDASH_CLOCK` when set, as run ids are).
    public static func minute(_ date: Date = RunID.clock()) -> String {
        let (day, second, _) = parts(date)
        return day.iso + " " + two(second / 3_600) + ":" + two(second % 3_600 / 60) + " UTC"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z` or `+hh:mm`/`-hh:mm` (what `iso` writes, and
    /// what an operator types into `OWNERDASH_CLOCK`); nil for anything else.
    public static func date(_ text: some StringProtocol) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x74,
              bytes[13] == 0x3A, bytes[16] == 0x3A,
              let year = number(0, 4), let month = number(5, 2), let dayOfMonth = number(8, 2),
              let day = LocalDate(year: year, month: month, day: dayOfMonth),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              hour < 24, minute < 60, second < 61 else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == 0x2E {
            var scale = 0.1
            index += 1
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case 0x5A, 0x7A:
            guard index + 1 == bytes.count else { return nil }
        case 0x2B, 0x2D:
            guard index + 6 == bytes.count, bytes[index + 3] == 0x3A, let hours = number(index + 1, 2),
                  let minutes = number(index + 4, 2), hours < 24, minutes < 60 else { return nil }
            offset = (hours * 3_600 + minutes * 60) * (bytes[index] == 0x2B ? 1 : -1)
        default:
            return nil
        }
        let seconds = day.daysSinceEpoch * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// The UTC day, the second of that day and the millisecond of that second (the nearest one: 0.05 s is stored as
    /// 0.04999...; without milliseconds the second is the one the instant is in, as Foundation writes it).
    private static func parts(_ date: Date, milliseconds: Bool = false) -> (LocalDate, Int, Int) {
        let interval = date.timeIntervalSince1970
        let totalMilliseconds = milliseconds ? Int((interval * 1_000).rounded()) : Int((interval * 1_000).rounded(.down))
        let seconds = Int((Double(totalMilliseconds) / 1_000).rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        return (LocalDate(daysSinceEpoch: days), seconds - days * 86_400, totalMilliseconds - seconds * 1_000)
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }
}
