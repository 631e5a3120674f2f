/// What a household's ledger says on a given day: its balance, what of it is more than 30 days old, and when each
/// month's charges were paid. Payments settle the oldest charges first, as the debtors report and both PMSs' aging
/// apply them.
extension HouseholdLedger {
    /// Charges posted on or before `day` less payments on or before it, in cents (negative: in credit).
    public func balanceCents(on day: Int) -> Int64 {
        var cents: Int64 = 0
        for charge in charges where charge.posted <= day { cents += charge.cents }
        for payment in payments where payment.day <= day { cents -= payment.cents }
        return cents
    }

    /// The part of the balance on `day` made of charges posted more than 30 days before it (the aging's 31-60,
    /// 61-90 and over-90 buckets together), in cents; 0 when nothing that old is open.
    ///
    /// Payments settle the oldest charges first, so what is open is the newest charges that add up to the
    /// balance: the balance less the charges of the last 30 days (a charge `day - posted <= 30` days old is in the
    /// 0-30 bucket, as in `YardiDelinquency`), never below zero. Credits (negative charges) are already in the
    /// balance and are not counted as recent charges, as in `Debtors.months(covering:)`.
    public func over30Cents(on day: Int) -> Int64 {
        let balance = balanceCents(on: day)
        guard balance > 0 else { return 0 }
        var recent: Int64 = 0
        for charge in charges where charge.posted <= day && day - charge.posted <= 30 && charge.cents > 0 {
            recent += charge.cents
        }
        return max(0, balance - recent)
    }

    /// Days late of each month whose charges fell due on or before `day`, oldest first: from the month's first due
    /// date to the day the household's payments covered every charge of that month and of the months before it
    /// (oldest first); 0 when paid by the due date. A month not yet covered on `day` counts the days up to `day`
    /// (at least that late).
    public func daysLate(asOf day: Int) -> [(period: String, days: Int)] {
        // Each period's first due date and the charges of all periods up to it.
        var periods: [(period: String, due: Int, cumulativeCents: Int64)] = []
        var byPeriod: [String: (due: Int, cents: Int64)] = [:]
        for charge in charges where charge.posted <= day {
            let current = byPeriod[charge.period]
            byPeriod[charge.period] = (min(current?.due ?? charge.due, charge.due), (current?.cents ?? 0) + charge.cents)
        }
        var cumulative: Int64 = 0
        for period in byPeriod.keys.sorted() {
            guard let entry = byPeriod[period] else { continue }
            cumulative += entry.cents
            if entry.due <= day, entry.cents > 0 { periods.append((period, entry.due, cumulative)) }
        }
        let paid = payments.filter { $0.day <= day }
        var result: [(period: String, days: Int)] = []
        var paymentIndex = 0
        var paidCents: Int64 = 0
        for period in periods {
            // Cumulative charges only grow, so the covering payment index only moves forward.
            while paidCents < period.cumulativeCents, paymentIndex < paid.count {
                paidCents += paid[paymentIndex].cents
                paymentIndex += 1
            }
            let settled = paidCents >= period.cumulativeCents ? (paymentIndex > 0 ? paid[paymentIndex - 1].day : period.due) : day
            result.append((period.period, max(0, settled - period.due)))
        }
        return result
    }

    /// Whether the household lived in its unit on `day`: moved in on or before it (else, with no move-in date, charged
    /// on or before it) and not moved out before it.
    public func inResidence(on day: Int) -> Bool {
        let arrived = moveIn ?? charges.first?.posted
        guard let arrived, arrived <= day else { return false }
        if let moveOut, moveOut <= day { return false }
        return true
    }

    /// The lease in force on `day`: the latest one started on or before it.
    public func lease(on day: Int) -> Lease? {
        leases.filter { ($0.start ?? Int.min) <= day }.max { ($0.start ?? Int.min) < ($1.start ?? Int.min) }
    }
}
