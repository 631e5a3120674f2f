import Foundation


/// UTC timestamps for the run records and the lock file (`2026-11-22T04:05:12Z`).
public enum RunClock {
    /// `date` as ISO-8601 UTC, whole seconds.
    public static func timestamp(_ date: Date = Date()) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// Parses a timestamp written by `timestamp`.
    public static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
