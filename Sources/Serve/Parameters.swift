import HTTPServer
import OwnerDashCore

/// A request's query items checked against what an endpoint takes: an unknown name, a repeated one or a value of the
/// wrong shape is a 400 naming it, so nothing unchecked (SQL-looking text included) ever reaches a query.
struct Parameters {
    private let items: [(name: String, value: String)]

    /// Throws 400 for a name not in `allowed` or given twice.
    init(_ request: ServerRequest, allowed: Set<String>) throws(Problem) {
        var seen = Set<String>()
        for item in request.query {
            guard allowed.contains(item.name) else {
                let known = allowed.sorted().joined(separator: ", ")
                throw Problem.badParameter(item.name, "unknown parameter (this endpoint takes \(known.isEmpty ? "none" : known))")
            }
            guard seen.insert(item.name).inserted else { throw Problem.badParameter(item.name, "given more than once") }
        }
        items = request.query
    }

    func text(_ name: String) -> String? { items.first { $0.name == name }?.value }

    /// `YYYY-MM-DD`.
    func date(_ name: String) throws(Problem) -> LocalDate? {
        guard let text = text(name) else { return nil }
        guard let date = LocalDate(iso: text) else { throw Problem.badParameter(name, "\"\(Self.clip(text))\" is not a date (YYYY-MM-DD)") }
        return date
    }

    /// `YYYY-MM`.
    func month(_ name: String) throws(Problem) -> String? {
        guard let text = text(name) else { return nil }
        guard LocalDate.isMonth(text) else { throw Problem.badParameter(name, "\"\(Self.clip(text))\" is not a month (YYYY-MM)") }
        return text
    }

    /// A whole number in `range`, else `fallback`.
    func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(Problem) -> Int {
        guard let text = text(name) else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw Problem.badParameter(name, "\"\(Self.clip(text))\" must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// `true` or `false` (absent: `false`).
    func flag(_ name: String) throws(Problem) -> Bool {
        switch text(name) {
        case nil, "false": return false
        case "true": return true
        case let other?: throw Problem.badParameter(name, "\"\(Self.clip(other))\" must be true or false")
        }
    }

    /// An amount in dollars, 0 or more.
    func amount(_ name: String) throws(Problem) -> Double? {
        guard let text = text(name) else { return nil }
        guard let value = Double(text), value >= 0, value.isFinite, !text.contains(where: { $0.isLetter }) else {
            throw Problem.badParameter(name, "\"\(Self.clip(text))\" is not an amount (0 or more)")
        }
        return value
    }

    /// One of `choices`.
    func choice(_ name: String, _ choices: [String]) throws(Problem) -> String? {
        guard let text = text(name) else { return nil }
        guard choices.contains(text) else {
            throw Problem.badParameter(name, "\"\(Self.clip(text))\" must be one of \(choices.joined(separator: ", "))")
        }
        return text
    }

    /// A bad value quoted back, cut short: an error never echoes a whole hostile payload.
    static func clip(_ text: String) -> String { text.count > 40 ? String(text.prefix(40)) + "..." : text }
}
