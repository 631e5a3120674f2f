import OwnerDashCore
import SQLiteKit

/// What the forecast predicts, defined once: a household is **behind** at a month end when it owes charges posted
/// more than 30 days before it (`HouseholdLedger.over30Cents` above zero: the 31-60, 61-90 and over-90 buckets of the
/// delinquency aging together, payments settling the oldest charges first). The dollars are those over-30 cents.
public enum NextMonthDelinquency {
    /// Behind: anything at all owed more than 30 days, as `residents delinquent` counts any amount in an aging bucket.
    public static func isBehind(over30Cents: Int64) -> Bool { over30Cents > 0 }
}

/// One household on one month end: what its ledger said then (features) and, when the next month end has come,
/// whether it was behind then and by how much.
public struct Example: Sendable {
    public var property: String
    public var residentID: String
    public var unit: String?
    public var name: String?
    /// The day the features describe (a month end in training and the backtest; the as-of date when scoring).
    public var featureDay: Int
    /// The month end predicted.
    public var outcomeDay: Int
    public var features: [Float]
    /// Owed more than 30 days at `outcomeDay`, in cents; nil while that day has not come.
    public var outcomeCents: Int64?
    /// Behind on `featureDay` itself (the first naive baseline's input).
    public var behindNow: Bool
    /// Owing anything on `featureDay` (a third naive baseline's input).
    public var owesNow: Bool
    /// The share of the household's month ends up to `featureDay` on which it was behind (the second naive
    /// baseline); nil before its first month end.
    public var lateShareSoFar: Double?

    /// The label: behind at `outcomeDay` (nil while unknown).
    public var behindNext: Bool? { outcomeCents.map(NextMonthDelinquency.isBehind(over30Cents:)) }
}

/// A property's households and the day its data runs to.
public struct PropertyLedgers: Sendable {
    public var property: String
    /// The property's date (unified_properties.as_of_date): nothing after it is known.
    public var asOf: Int
    public var households: [HouseholdLedger]

    /// Reads a property's ledgers; a property without a tenant ledger or a date is an error naming it. `residents`:
    /// only these households' (nil: every household).
    public static func read(database: Database, property: String, residents: [String]? = nil) throws -> PropertyLedgers {
        let rows = try database.query("""
            SELECT ledger_source, CAST(julianday(as_of_date) - 2440587.5 AS INTEGER) AS as_of_day
            FROM unified_properties WHERE unified_property_id = :property
            """, [":property": .text(property)])
        guard let row = rows.first else { throw ForecastError("property \(property) has not been synced") }
        guard row[0].textValue != nil else {
            throw ForecastError("property \(property) has no tenant ledger (unified_properties.ledger_source is empty): nothing to learn from")
        }
        guard let asOf = row[1].integerValue else {
            throw ForecastError("property \(property) has no date (unified_properties.as_of_date is empty)")
        }
        return PropertyLedgers(property: property, asOf: Int(asOf),
                               households: try LedgerHistory.households(database: database, property: property, residents: residents))
    }

    /// Every month end on or before the property's date with a charge on or before it, oldest first.
    public var monthEnds: [Int] {
        guard let first = households.compactMap({ $0.charges.first?.posted }).min() else { return [] }
        var ends: [Int] = []
        var end = MonthEnd.of(first)
        while end <= asOf {
            ends.append(end)
            end = MonthEnd.next(after: end)
        }
        return ends
    }

    /// The training and backtest examples: each household in residence at a month end whose next month end is on
    /// or before the property's date, with its outcome.
    public func examples() -> [Example] {
        let ends = monthEnds
        var examples: [Example] = []
        for household in households {
            let over30 = Dictionary(uniqueKeysWithValues: ends.map { ($0, household.over30Cents(on: $0)) })
            var monthsSeen = 0
            var monthsBehind = 0
            for (index, end) in ends.enumerated() where index + 1 < ends.count {
                guard household.charges.contains(where: { $0.posted <= end }) else { continue }
                let behindNow = NextMonthDelinquency.isBehind(over30Cents: over30[end] ?? 0)
                monthsSeen += 1
                if behindNow { monthsBehind += 1 }
                guard household.inResidence(on: end) else { continue }
                let next = ends[index + 1]
                examples.append(Example(property: property, residentID: household.residentID, unit: household.unit,
                                        name: household.name, featureDay: end, outcomeDay: next,
                                        features: household.features(on: end, over30: over30),
                                        outcomeCents: over30[next], behindNow: behindNow,
                                        owesNow: household.balanceCents(on: end) > 0,
                                        lateShareSoFar: Double(monthsBehind) / Double(monthsSeen)))
            }
        }
        return examples
    }

    /// The households in residence on `day`, described on that day, to be scored for the month end after it (the
    /// end of `day`'s month, or the next one when `day` is a month end).
    public func current(on day: Int) -> [Example] {
        let outcome = MonthEnd.of(day) == day ? MonthEnd.next(after: day) : MonthEnd.of(day)
        return households.filter { $0.inResidence(on: day) }.map { household in
            // The naive baselines' inputs are for the backtest; the share of late months (every month end of the
            // household's history) is left out here, where only the model scores.
            Example(property: property, residentID: household.residentID, unit: household.unit, name: household.name,
                    featureDay: day, outcomeDay: outcome, features: household.features(on: day), outcomeCents: nil,
                    behindNow: NextMonthDelinquency.isBehind(over30Cents: household.over30Cents(on: day)),
                    owesNow: household.balanceCents(on: day) > 0, lateShareSoFar: nil)
        }
    }
}

/// A forecast that cannot be made or measured, in one line naming the property or what is missing.
public struct ForecastError: Error, CustomStringConvertible, Equatable {
    public var description: String
    /// An error of one line.
    public init(_ description: String) { self.description = description }
}
