import OwnerDashCore

/// A span of days, both ends included: the part of a tenant ledger one call asks for.
public struct LedgerWindow: Sendable, Equatable, CustomStringConvertible {
    public var from: LocalDate
    public var to: LocalDate

    public init(from: LocalDate, to: LocalDate) { self.from = from; self.to = to }

    /// Days from `from` to `to` (0 for a single day).
    public var span: Int { to.daysSinceEpoch - from.daysSinceEpoch }

    /// `2026-11-06_2026-11-20`, as the landed artifact's name carries it.
    public var description: String { "\(from.iso)_\(to.iso)" }
}

/// How one property's tenant ledger is fetched in a run (Yardi GetResidentTransactions_Login, RPX getresidentledger).
public enum LedgerFetch: Sendable, Equatable {
    /// The whole ledger, as every run fetched it before: the first pull, the scheduled full refresh, when asked, or
    /// when the ledger check found a posting the windows missed.
    /// `reconcile`: the window an incremental night would have fetched, fetched too and merged first, so the whole
    /// ledger then differs from the merged one only by what the incremental nights missed (reported).
    /// `refresh`: the scheduled refresh or one asked for (`isRefresh`), rather than a pull the ledger check called for.
    case full(reason: String, reconcile: LedgerWindow?, refresh: Bool = false)
    /// Only what changed: the transactions dated in the window (its end is the run's as-of date), plus the old
    /// charges whose open amount changed meanwhile (Yardi: by application date; RPX: every open charge).
    case incremental(LedgerWindow)
    /// An incremental night that also asks for a few households' whole ledgers (RPX `reshid`): those whose open
    /// balance the last ledger check found off the delinquency report's (`LedgerDisagreement.households`), where a
    /// posting dated before the window is looked for, instead of the property's whole ledger.
    case households(LedgerWindow, [String], reason: String)

    /// The window of an incremental fetch (with or without households whole); nil for a full one.
    public var window: LedgerWindow? {
        switch self {
        case .incremental(let window), .households(let window, _, _): window
        case .full: nil
        }
    }

    /// The windowed calls to make: the incremental window, or the reconciling window of a full pull.
    public var windowedCalls: LedgerWindow? {
        switch self {
        case .incremental(let window), .households(let window, _, _): window
        case .full(_, let reconcile, _): reconcile
        }
    }

    /// The households asked for whole beside the window (`households`); none otherwise.
    public var wholeHouseholds: [String] {
        if case .households(_, let households, _) = self { return households }
        return []
    }

    /// Whether the whole ledger is fetched.
    public var isFull: Bool {
        if case .full = self { return true }
        return false
    }

    /// Whether a ledger already pulled before is pulled whole again on its schedule or when asked (`--full-ledger`):
    /// that night the property's sync is checked against a full rebuild too (`Synchronizer.Mode.full`), the weekly
    /// check that an incremental sync has not drifted.
    ///
    /// Not a pull the ledger check called for (a posting dated before the window): that one mends the raw ledger, and
    /// the sync goes by change as on any night (the merge rewrites only the rows that differ). Checked against a full
    /// rebuild, it rewrote and compared every charge and payment of each such property: on the simulator's 30th-day
    /// backdated correction, 19 properties the next night and 1.6 s of a 17 s night's SQL.
    public var isRefresh: Bool {
        if case .full(_, let reconcile, let refresh) = self { return refresh && reconcile != nil }
        return false
    }

    /// One line for the run's log: `full (first pull: ...)` or `incremental 2026-11-06...2026-11-20`.
    public var summary: String {
        switch self {
        case .full(let reason, let reconcile, _):
            "full (\(reason))" + (reconcile.map { ", reconciled with the window \($0.from.iso)...\($0.to.iso)" } ?? "")
        case .incremental(let window): "incremental \(window.from.iso)...\(window.to.iso)"
        case .households(let window, let households, let reason):
            "incremental \(window.from.iso)...\(window.to.iso), and \(households.count) household\(households.count == 1 ? "" : "s") whole "
                + "(\(reason): \(households.joined(separator: ", ")))"
        }
    }
}

/// When the ledger is fetched whole and how far back an incremental night reaches (report_definitions.json `ledger`,
/// `OWNERDASH_LEDGER_OVERLAP_DAYS`, `OWNERDASH_LEDGER_FULL_REFRESH_DAYS`; docs/operators.md, "The tenant ledger, incrementally").
public struct LedgerSchedule: Sendable, Equatable {
    /// Days before the last successful run's as-of date an incremental window starts, so transactions posted late
    /// with an earlier date, and reversals dated back, are still seen.
    public var overlapDays: Int
    /// A full pull when the last one is this many days old (or older): it reconciles the merged ledger with the
    /// vendor's whole answer and reports every difference the windows missed. 0: every run is a full pull.
    public var fullRefreshDays: Int

    public static let standard = LedgerSchedule(overlapDays: 7, fullRefreshDays: 7)

    public init(overlapDays: Int, fullRefreshDays: Int) {
        self.overlapDays = overlapDays; self.fullRefreshDays = fullRefreshDays
    }

    /// The configuration's values, each overridden by its environment variable when set; a value that is not a whole
    /// number of days >= 0 is refused with the name of where it came from.
    public init(configured: Configuration.Ledger?, environment: [String: String]) throws {
        func days(_ variable: String, _ configured: Int?, _ standard: Int) throws -> Int {
            if let text = environment[variable], !text.isEmpty {
                guard let value = Int(text), value >= 0 else {
                    throw ConfigurationError("\(variable)=\(text): not a whole number of days (0 or more)")
                }
                return value
            }
            return configured ?? standard
        }
        overlapDays = try days("OWNERDASH_LEDGER_OVERLAP_DAYS", configured?.overlapDays, Self.standard.overlapDays)
        fullRefreshDays = try days("OWNERDASH_LEDGER_FULL_REFRESH_DAYS", configured?.fullRefreshDays,
                                   Self.standard.fullRefreshDays)
    }
}

/// What the run history says of one property's ledger from one source: the as-of dates of the last run that fetched
/// and loaded it without a failure, and of the last such run that pulled it whole.
public struct LedgerHistory: Sendable, Equatable {
    public var lastSuccess: LocalDate?
    public var lastFull: LocalDate?
    /// The last sync found the merged ledger's open balance off the delinquency report's, which no full pull has met
    /// yet: nil when they agree.
    public var disagreement: LedgerDisagreement?
    /// The newest night the vendor refused the whole ledger since it was last loaded whole, and why (`as of
    /// 2026-12-04, was refused: the license key is not authorized ...`): nil when it never did.
    public var refused: String?

    public init(lastSuccess: LocalDate?, lastFull: LocalDate?, disagreement: LedgerDisagreement? = nil,
                refused: String? = nil) {
        self.lastSuccess = lastSuccess; self.lastFull = lastFull; self.disagreement = disagreement; self.refused = refused
    }
}

/// A sync's failed ledger check: the tenant ledger merged night by night leaves a different open balance than the
/// delinquency the vendor reports whole (`ledger_open_balance`), or, on Yardi, whose delinquency is its own ledger's,
/// open charges lowered by a posting no window held (`ledger_window_gaps`), as when a posting is dated before every
/// incremental window (a credit to a months-old charge), which only the whole ledger shows.
public struct LedgerDisagreement: Sendable, Equatable {
    /// The property date of the check.
    public var asOf: LocalDate
    /// The two figures, for the plan's reason (`ledger 158531.26, delinquency 158521.26`).
    public var figures: String
    /// What the check found, for the plan's reason (`the ledger's open balance off the delinquency (figures)`).
    public var finding: String
    /// The households whose open balance was off, when a vendor can be asked for one household's ledger (RPX) and
    /// they are few enough (`LedgerPlanner.householdLimit`) to ask one by one; empty: the whole ledger is pulled.
    public var households: [String]

    public init(asOf: LocalDate, figures: String, finding: String? = nil, households: [String] = []) {
        self.asOf = asOf; self.figures = figures; self.households = households
        self.finding = finding ?? "the ledger's open balance off the delinquency (\(figures))"
    }
}

/// A property's night in the cycle of scheduled full ledger pulls, and how late its catch-up comes when that night
/// is missed (`LedgerPlanner.refreshSlots`).
public struct RefreshSlot: Sendable, Equatable {
    public var property: String
    public var night: Int
    /// Nights past the missed one before the catch-up pull (0: the night after): the properties of one night's share
    /// are caught up one a night, not all on top of the next night's own share.
    public var catchUpDelay: Int

    public init(property: String, night: Int, catchUpDelay: Int = 0) {
        self.property = property; self.night = night; self.catchUpDelay = catchUpDelay
    }
}

/// Decides each night's ledger fetch from the run history, and cuts windows into the calls a vendor accepts.
public enum LedgerPlanner {
    /// The most households whose ledgers a night asks for one by one after a failed ledger check; more are pulled
    /// with the property's whole ledger (one call, not dozens).
    public static let householdLimit = 20

    /// Full when nothing was pulled whole yet, when the last full pull is `fullRefreshDays` old, when asked, when the
    /// last sync found the ledger's open balance off the delinquency report's (`LedgerHistory.disagreement`: what the
    /// windows missed is then found the next night, not at the weekly refresh), or when
    /// the run is for a date before the last success (a replay of the past); otherwise the window from the last
    /// successful run's as-of date less the overlap to `asOf`. A scheduled or asked-for full pull over an existing
    /// ledger fetches that window too (`reconcile`). A failed night never advances `lastSuccess`, so the
    /// next window reaches back to the last success by itself.
    ///
    /// The scheduled refresh is spread over the cycle: the property has a night of its own in every
    /// `fullRefreshDays` (`slot`, from `refreshSlots`), and is pulled whole on it, so a seventh of a portfolio
    /// refreshes each night of a weekly cycle instead of all of it on one (after the first night, when every ledger
    /// is new). A property whose night was missed (a failed run, a registry that moved it) is caught up once its last
    /// full pull is more than `fullRefreshDays` old, `slot.catchUpDelay` nights after the first night it could be:
    /// the night after a failed one pulls its own share and one or two of the missed share's, not both shares whole,
    /// and every catch-up comes before the property's next night. Without a slot, the refresh comes
    /// `fullRefreshDays` after the last one.
    public static func plan(history: LedgerHistory, asOf: LocalDate, schedule: LedgerSchedule,
                            forceFull: Bool = false, slot: RefreshSlot? = nil) -> LedgerFetch {
        guard let lastSuccess = history.lastSuccess, let lastFull = history.lastFull else {
            // A ledger the vendor keeps refusing is asked for again (a license can change); the reason says so.
            let first = "first pull: no earlier run fetched this ledger whole"
                + (history.refused.map { " (asked again: the last ask, \($0))" } ?? "")
            return .full(reason: forceFull ? "asked for (--full-ledger)" : first, reconcile: nil)
        }
        if asOf < lastSuccess {
            return .full(reason: "the run is for \(asOf.iso), before the last successful ledger fetch (\(lastSuccess.iso))",
                         reconcile: nil)
        }
        let window = LedgerWindow(from: lastSuccess.adding(days: -schedule.overlapDays), to: asOf)
        if forceFull { return .full(reason: "asked for (--full-ledger)", reconcile: window, refresh: true) }
        if let disagreement = history.disagreement {
            let households = disagreement.households
            if !households.isEmpty, households.count <= householdLimit {
                return .households(window, households, reason: "the ledger check of \(disagreement.asOf.iso) found their open balance off the delinquency (\(disagreement.figures)): a posting dated before the window is looked for in their whole ledgers")
            }
            return .full(reason: "the ledger check of \(disagreement.asOf.iso) found \(disagreement.finding): a posting dated before the window is looked for in the whole ledger",
                         reconcile: window)
        }
        let age = asOf.daysSinceEpoch - lastFull.daysSinceEpoch, cycle = schedule.fullRefreshDays
        let old = "the last full pull, as of \(lastFull.iso), is \(age) day\(age == 1 ? "" : "s") old"
        guard let slot, cycle > 1 else {
            return age >= cycle ? .full(reason: "scheduled refresh: \(old) (every \(cycle))", reconcile: window, refresh: true)
                                : .incremental(window)
        }
        if age >= 1, asOf.daysSinceEpoch % cycle == slot.night {
            return .full(reason: "scheduled refresh: \(slot.property)'s night of the \(cycle)-day cycle (\(old))",
                         reconcile: window, refresh: true)
        }
        if age > cycle + slot.catchUpDelay {
            return .full(reason: "scheduled refresh, caught up: \(old), past \(slot.property)'s night of the \(cycle)-day cycle (missed ones are caught up one property a night)",
                         reconcile: window, refresh: true)
        }
        return .incremental(window)
    }

    /// Each property's night in a cycle of `days` (0 ..< days): the registry's keys in the order of their FNV-1a hash
    /// (a key's own bytes, ties by the key), the n-th on night n mod `days`. Every night gets the same share of the
    /// portfolio, give or take one (a hash of each key alone put 7 of 30 properties on one night and 2 on another), and
    /// the same on every host and every run that reads the same registry. A property added or removed moves the
    /// nights of the keys after it by one: such a property is pulled whole a night early, or caught up late, once.
    /// The catch-up delay is the property's place in its night's share (n / `days`), counted in the `days - 1` nights
    /// before that night comes again: a missed night's share is caught up one property a night (at 30 properties,
    /// 4 or 5 spread over the 4 or 5 nights after it; at 500, 71 or 72 over 6, a share and a sixth a night).
    public static func refreshSlots(_ properties: [String], every days: Int) -> [String: RefreshSlot] {
        let ordered = Set(properties).sorted { (fnv1a($0), $0) < (fnv1a($1), $1) }
        return Dictionary(uniqueKeysWithValues: ordered.enumerated().map { index, key in
            (key, days > 1 ? RefreshSlot(property: key, night: index % days, catchUpDelay: index / days % (days - 1))
                           : RefreshSlot(property: key, night: 0))
        })
    }

    private static func fnv1a(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    /// `window` as consecutive windows of at most `maxSpan` days each (from first to last day), oldest first.
    public static func chunks(_ window: LedgerWindow, maxSpan: Int) -> [LedgerWindow] {
        precondition(maxSpan >= 0, "a window spans 0 days or more")
        var result: [LedgerWindow] = []
        var start = window.from
        while start <= window.to {
            let end = min(start.adding(days: maxSpan), window.to)
            result.append(LedgerWindow(from: start, to: end))
            start = end.adding(days: 1)
        }
        return result
    }
}
