import OwnerDashCore

/// How the dashboard writes numbers and dates: fixed US conventions, independent of the machine's locale,
/// so the same data gives the same page everywhere.
enum DashboardFormat {
    /// What a cell or chart shows where the metric has no data.
    static let noData = "no data"

    /// `94.5%` (one decimal).
    static func percent(_ value: Double?) -> String {
        guard let value else { return noData }
        return fixed(value, decimals: 1) + "%"
    }

    /// A change: `+3.2%`, `-1.0%`, `0.0%`.
    static func signedPercent(_ value: Double) -> String {
        let text = percent(value)
        return text.hasPrefix("-") || text == "0.0%" ? text : "+" + text
    }

    /// `1,234`.
    static func count(_ value: Int?) -> String {
        guard let value else { return noData }
        return (value < 0 ? "-" : "") + grouped(String(value.magnitude))
    }

    /// `$12,346` (whole dollars, for totals) or `$12,345.67`; negative amounts as `-$1,234`.
    static func money(_ value: Money?, cents: Bool = false) -> String {
        guard let value else { return noData }
        let sign = value.cents < 0 ? "-" : ""
        let magnitude = value.cents.magnitude
        if cents {
            let fraction = magnitude % 100
            return "\(sign)$\(grouped(String(magnitude / 100))).\(fraction < 10 ? "0" : "")\(fraction)"
        }
        // Half a dollar and up rounds away from zero, like the cents themselves were rounded.
        return "\(sign)$\(grouped(String((magnitude + 50) / 100)))"
    }

    /// Rent per square foot: `$1.62`.
    static func perSquareFoot(_ value: Double?) -> String {
        guard let value else { return noData }
        return (value < 0 ? "-$" : "$") + fixed(abs(value), decimals: 2)
    }

    /// Square feet: `1,050`.
    static func squareFeet(_ value: Double?) -> String {
        guard let value else { return noData }
        return grouped(fixed(value, decimals: 0))
    }

    /// `Nov 20, 2026`.
    static func longDate(_ date: LocalDate) -> String {
        "\(monthNames[date.month - 1]) \(date.day), \(date.year)"
    }

    /// `Nov 20` (chart axes, where the year is given elsewhere).
    static func shortDate(_ date: LocalDate) -> String {
        "\(monthNames[date.month - 1]) \(date.day)"
    }

    /// The value written into a `data-value` attribute for sorting: plain decimal, empty for no data.
    static func sortKey(_ value: Double?) -> String {
        guard let value else { return "" }
        return fixed(value, decimals: 4)
    }

    /// A number with `decimals` digits after the point, rounded half away from zero (`-0.0` prints `0.0`).
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return noData }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return String(value) }
        let units = UInt64(scaled)
        let factor = UInt64(scale)
        let whole = String(units / factor)
        let sign = value < 0 && units != 0 ? "-" : ""
        guard decimals > 0 else { return sign + whole }
        var fraction = String(units % factor)
        while fraction.count < decimals { fraction = "0" + fraction }
        return "\(sign)\(whole).\(fraction)"
    }

    /// Adds thousands separators to the integer part of a plain decimal.
    static func grouped(_ digits: String) -> String {
        let bytes = Array(digits.utf8)
        let signed = bytes.first == UInt8(ascii: "-")
        let start = signed ? 1 : 0
        let end = bytes[start...].firstIndex(of: UInt8(ascii: ".")) ?? bytes.count
        if end - start <= 3 { return digits }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + (end - start) / 3)
        if signed { result.append(UInt8(ascii: "-")) }
        for index in start..<end {
            if index > start && (end - index) % 3 == 0 { result.append(UInt8(ascii: ",")) }
            result.append(bytes[index])
        }
        result.append(contentsOf: bytes[end...])
        return String(decoding: result, as: UTF8.self)
    }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
