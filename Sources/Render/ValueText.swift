import Foundation
import SQLiteKit

/// Numbers as text, the same on every machine (no locale): grouped thousands and fixed decimals for people,
/// plain shortest forms for machines.
enum ValueText {
    /// What a table cell shows for an unknown value.
    static let unknown = "-"

    /// `1,234,567` from the digits of a non-negative integer.
    static func grouped(_ digits: String) -> String {
        var out = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return out
    }

    /// `-1,234`.
    static func count(_ value: Int64) -> String {
        (value < 0 ? "-" : "") + grouped(String(value.magnitude))
    }

    /// `value` with `decimals` digits after the point, rounded half away from zero, thousands grouped when asked.
    static func fixed(_ value: Double, decimals: Int, grouping: Bool) -> String {
        guard value.isFinite else { return unknown }
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return String(value) }
        let units = UInt64(scaled)
        let whole = String(units / scale)
        let sign = value < 0 && units != 0 ? "-" : ""
        let integer = grouping ? grouped(whole) : whole
        guard decimals > 0 else { return sign + integer }
        let fraction = String(units % scale)
        return sign + integer + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// The shortest text that reads back as the same double, without `.0` on whole numbers (JSON and CSV).
    static func plain(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
