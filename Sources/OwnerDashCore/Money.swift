import Foundation

/// An amount of US dollars held exactly as integer cents.
///
/// Code computes in cents; the databases store REAL dollars rounded to cents
/// (see docs/architecture-details.md, "Storage conventions"), so analysts can `SELECT sum(balance)` directly.
public struct Money: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var cents: Int64

    public init(cents: Int64) { self.cents = cents }

    /// The largest amount, either way, read from a file: $10,000,000,000.
    ///
    /// No single figure in a property's report comes near it, and it keeps every sum a parser makes exact:
    /// adding up amounts this size overflows Int64 cents only past 922 million of them, far more rows than an
    /// .xlsx (1,048,576) or .xls (65,536) sheet holds or a CSV/HTML report read into memory could.
    public static let largestAmount = Money(cents: 1_000_000_000_000)

    /// Rounds a dollar amount half away from zero to the nearest cent; nil for NaN, infinities and amounts past
    /// `largestAmount` (a number such as 1e17 in a money cell would otherwise overflow the cents).
    public init?(dollars: Double) {
        let cents = (dollars * 100).rounded(.toNearestOrAwayFromZero)
        guard cents.isFinite, cents.magnitude <= Double(Self.largestAmount.cents) else { return nil }
        self.cents = Int64(cents)
    }

    /// Whether the amount is within `largestAmount` either way (text amounts are checked with it too).
    public var isWithinLargestAmount: Bool { cents.magnitude <= Self.largestAmount.cents.magnitude }

    public static let zero = Money(cents: 0)

    /// The amount in dollars, as stored in the databases.
    public var dollars: Double { Double(cents) / 100 }

    public var description: String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Compares amounts.
    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.cents < rhs.cents }
    /// Exact cent arithmetic.
    public static func + (lhs: Money, rhs: Money) -> Money { Money(cents: lhs.cents + rhs.cents) }
    public static func - (lhs: Money, rhs: Money) -> Money { Money(cents: lhs.cents - rhs.cents) }
    public static func += (lhs: inout Money, rhs: Money) { lhs.cents += rhs.cents }
    public static prefix func - (value: Money) -> Money { Money(cents: -value.cents) }
}
