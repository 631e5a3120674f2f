import OwnerDashCore

/// The features the forecast reads for a household on a day, each from the unified ledger alone (charges, payments,
/// residents, leases, units), in the order the model sees them. docs/forecast.md says why each might matter.
public enum Feature: String, CaseIterable, Sendable {
    case daysLateLastMonth = "days_late_last_month"
    case meanDaysLate12 = "mean_days_late_12"
    case monthsPaidLate12 = "months_paid_late_12"
    case monthsOver30_12 = "months_over_30_12"
    case partialPaymentMonths12 = "partial_payment_months_12"
    case missedPaymentMonths12 = "missed_payment_months_12"
    case returnedPayments12 = "returned_payments_12"
    case lateFees12 = "late_fees_12"
    case balance = "balance"
    case over30Balance = "over_30_balance"
    case balanceChange3m = "balance_change_3m"
    case monthlyCharges = "monthly_charges"
    case tenureMonths = "tenure_months"
    case monthsToLeaseEnd = "months_to_lease_end"
    case noticeGiven = "notice_given"
    case rentToMarket = "rent_to_market"
    case householdSize = "household_size"

    /// The name in outputs, the stored model's feature list and docs/forecast.md.
    public var name: String { rawValue }

    /// Its column in a feature vector.
    public var column: Int { Self.columns[self] ?? 0 }
    private static let columns = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })

    /// What it is, in a manager's words (a forecast's "why" column).
    public var label: String {
        switch self {
        case .daysLateLastMonth: "days late last month"
        case .meanDaysLate12: "average days late (12 months)"
        case .monthsPaidLate12: "months paid late (12 months)"
        case .monthsOver30_12: "month ends over 30 days behind (12 months)"
        case .partialPaymentMonths12: "months paid in part (12 months)"
        case .missedPaymentMonths12: "months with no payment (12 months)"
        case .returnedPayments12: "returned payments (12 months)"
        case .lateFees12: "late fees (12 months)"
        case .balance: "balance"
        case .over30Balance: "owed over 30 days"
        case .balanceChange3m: "balance change (3 months)"
        case .monthlyCharges: "charges of the last 30 days"
        case .tenureMonths: "months in residence"
        case .monthsToLeaseEnd: "months to lease end"
        case .noticeGiven: "notice given"
        case .rentToMarket: "rent against market"
        case .householdSize: "people on the lease"
        }
    }
}

/// A month was paid late when its charges were covered more than this many days after they fell due: five days is
/// the grace period most leases give before a late fee.
public let gracePeriodDays = 5

/// Average days in a month, for durations in months.
let daysPerMonth = 30.4375

extension HouseholdLedger {
    /// The feature vector on `day` (in `Feature.allCases` order); NaN where the ledger cannot say (no move-in date,
    /// no lease, no market rent), which XGBoost treats as missing rather than as a zero.
    /// `over30` holds the household's `over30Cents` at month ends already computed (the examples of every month
    /// share them); a month end missing from it is computed here.
    public func features(on day: Int, over30 known: [Int: Int64] = [:]) -> [Float] {
        let year = day - 365
        let late = daysLate(asOf: day).suffix(12)
        // The 12 month ends up to `day`, `day` itself when it is one.
        let monthEnds = MonthEnd.before(day + 1, count: 12)
        // Per calendar month of the last 12 (ending with the month of `day`): charges posted and payments received.
        var charged: [String: Int64] = [:]
        var paid: [String: Int64] = [:]
        let months = Set(monthEnds.map { MonthEnd.month(of: $0) } + [MonthEnd.month(of: day)])
        for charge in charges where charge.posted <= day && charge.posted > year {
            let month = MonthEnd.month(of: charge.posted)
            if months.contains(month) { charged[month, default: 0] += charge.cents }
        }
        for payment in payments where payment.day <= day && payment.day > year {
            let month = MonthEnd.month(of: payment.day)
            if months.contains(month) { paid[month, default: 0] += payment.cents }
        }
        // A month counts once its end has come: the month of a mid-month `day` is still open.
        let closedMonths = monthEnds.map { MonthEnd.month(of: $0) }
        let billed = closedMonths.filter { (charged[$0] ?? 0) > 0 }
        let partial = billed.filter { (paid[$0] ?? 0) > 0 && (paid[$0] ?? 0) < (charged[$0] ?? 0) }.count
        let missed = billed.filter { (paid[$0] ?? 0) <= 0 }.count
        let returned = charges.filter { $0.isReturnedPayment && $0.posted <= day && $0.posted > year }.count
            + payments.filter { $0.cents < 0 && $0.day <= day && $0.day > year }.count
        let lateFees = charges.filter { $0.isLateFee && $0.cents > 0 && $0.posted <= day && $0.posted > year }.count
        let balance = balanceCents(on: day)
        let lease = lease(on: day)

        var values = [Float](repeating: .nan, count: Feature.allCases.count)
        func set(_ feature: Feature, _ value: Float) { values[feature.column] = value }
        if let last = late.last { set(.daysLateLastMonth, Float(last.days)) }
        if !late.isEmpty {
            set(.meanDaysLate12, Float(late.map(\.days).reduce(0, +)) / Float(late.count))
            set(.monthsPaidLate12, Float(late.filter { $0.days > gracePeriodDays }.count))
        }
        set(.monthsOver30_12, Float(monthEnds.filter { (known[$0] ?? over30Cents(on: $0)) > 0 }.count))
        set(.partialPaymentMonths12, Float(partial))
        set(.missedPaymentMonths12, Float(missed))
        set(.returnedPayments12, Float(returned))
        set(.lateFees12, Float(lateFees))
        set(.balance, Float(balance) / 100)
        set(.over30Balance, Float(known[day] ?? over30Cents(on: day)) / 100)
        set(.balanceChange3m, Float(balance - balanceCents(on: day - 91)) / 100)
        set(.monthlyCharges, Float(charges.filter { $0.posted <= day && day - $0.posted < 30 && $0.cents > 0 }
            .reduce(0) { $0 + $1.cents }) / 100)
        if let arrived = moveIn ?? charges.first?.posted { set(.tenureMonths, Float(Double(day - arrived) / daysPerMonth)) }
        if let lease {
            if lease.monthToMonth {
                set(.monthsToLeaseEnd, 0)
            } else if let end = lease.end {
                set(.monthsToLeaseEnd, Float(Double(end - day) / daysPerMonth))
            }
            if let rent = lease.rentCents, let market = marketRentCents, market > 0 {
                set(.rentToMarket, Float(Double(rent) / Double(market)))
            }
            if let people = lease.people { set(.householdSize, Float(people)) }
        }
        set(.noticeGiven, (notice.map { $0 <= day } ?? false) ? 1 : 0)
        return values
    }
}

/// Month ends as day numbers (`LocalDate.daysSinceEpoch`).
public enum MonthEnd {
    /// The last day of the month of `day`.
    public static func of(_ day: Int) -> Int {
        let date = LocalDate(daysSinceEpoch: day)
        return day + LocalDate.daysIn(month: date.month, year: date.year) - date.day
    }

    /// The month end after the one of `day`'s month.
    public static func next(after day: Int) -> Int { of(of(day) + 1) }

    /// The `count` month ends strictly before `day`, oldest first.
    public static func before(_ day: Int, count: Int) -> [Int] {
        var ends: [Int] = []
        var end = LocalDate(daysSinceEpoch: day).adding(days: -LocalDate(daysSinceEpoch: day).day).daysSinceEpoch
        while ends.count < count {
            ends.append(end)
            end -= LocalDate(daysSinceEpoch: end).day
        }
        return ends.reversed()
    }

    /// `YYYY-MM` of `day`.
    public static func month(of day: Int) -> String {
        String(LocalDate(daysSinceEpoch: day).iso.prefix(7))
    }

    /// `YYYY-MM-DD` of `day`.
    public static func iso(_ day: Int) -> String { LocalDate(daysSinceEpoch: day).iso }
}
