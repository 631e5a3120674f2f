import Foundation

/// An amount of US dollars held exactly as integer cents.
///
/// Code computes in cents; the databases store REAL dollars rounded to cents
/// (see ARCHITECTURE.md, "Money"), so analysts can `SELECT sum(balance)` directly.
public struct Money: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var cents: Int64

    public init(cents: Int64) { self.cents = cents }

    /// Rounds a dollar amount half away from zero to the nearest cent.
    public init(dollars: Double) {
        self.cents = Int64((dollars * 100).rounded(.toNearestOrAwayFromZero))
    }

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
