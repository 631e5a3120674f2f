import OwnerDashCore

/// Everything the dashboard shows, as answered by the metric queries; rendering formats and draws it, never computes it.
///
/// A nil number means the metric has no data for that property (no snapshot synced, no ledger): the page says
/// "no data" there instead of showing a zero that would read as a fact.
public struct Dashboard: Sendable, Equatable {
    /// The management company of report_definitions.json (`management_company`), the page's title.
    public var portfolioName: String
    /// The snapshot date shown; nil when nothing has been synced.
    public var asOf: LocalDate?
    /// When the page was written, already formatted (`2026-11-21 04:05 UTC`), so the page is reproducible in tests.
    public var generatedAt: String
    /// The leasing funnel's date range when every property shares it (30 days ending at the as-of date).
    public var funnelWindow: DateRange?
    /// One line per property in the portfolio table, and one section each below it.
    public var properties: [PropertyDashboard]
    /// The portfolio roll-up (weighted by units) for the table's total row; nil without any synced property.
    public var portfolio: PropertySummary?
    /// The leases the pricing tables' trade-out is over (signed in this range).
    public var tradeOutWindow: DateRange?

    /// A dashboard of the given content.
    public init(portfolioName: String, asOf: LocalDate?, generatedAt: String, funnelWindow: DateRange? = nil,
                properties: [PropertyDashboard], portfolio: PropertySummary?, tradeOutWindow: DateRange? = nil) {
        self.portfolioName = portfolioName; self.asOf = asOf; self.generatedAt = generatedAt
        self.funnelWindow = funnelWindow; self.properties = properties; self.portfolio = portfolio
        self.tradeOutWindow = tradeOutWindow
    }
}

/// An inclusive range of dates (the funnel's period).
public struct DateRange: Sendable, Equatable {
    public var from: LocalDate
    public var to: LocalDate
    /// The range `from...to`.
    public init(from: LocalDate, to: LocalDate) { self.from = from; self.to = to }
}

/// One property: its line in the portfolio table and the charts of its section.
public struct PropertyDashboard: Sendable, Equatable {
    /// The registry key (`nexus_east`), used for the section's anchor.
    public var key: String
    public var name: String
    /// `realpage` or `yardi`.
    public var pms: String
    /// The snapshot date the numbers are read at (latest on or before the page's as-of); nil without a snapshot.
    public var asOf: LocalDate?
    public var summary: PropertySummary
    /// The occupancy snapshot series, oldest first (one point per synced as-of date).
    public var trend: [OccupancyPoint]
    public var aging: DelinquencyAging?
    public var funnel: LeasingFunnel?
    /// Pricing by floorplan at the as-of date; empty when no pricing snapshot exists.
    public var pricing: [FloorplanPricing]
    /// The property's pricing over all its floorplans (the pricing metric's roll-up), for the table's total line.
    public var pricingTotal: FloorplanPricing?
    /// Work orders at the as-of date (`report maintenance`); nil: no work-order source synced.
    public var maintenance: MaintenanceSummary?
    /// Expenses by GL category over the last months (`report expenses`); nil: no expense source synced.
    public var expenses: ExpenseSummary?
    /// The property's tenant-ledger pages written beside the dashboard; nil: the property has no tenant ledger.
    public var ledgerViews: LedgerViews?
    /// The last sync's reconciliations with the vendor's own totals (sync_checks) at `asOf`; empty: none recorded.
    public var checks: [SyncCheckLine] = []
    /// Why a chart is empty although the property was synced, by metric (`delinquency`, `funnel`): the Yardi call
    /// it comes from failed (`Metrics.missingMetrics`), so the panel says so instead of drawing zeros.
    public var missingReasons: [String: String] = [:]
    /// The delinquency forecast for the next month end, in the delinquency panel; nil (and nothing shown) unless the
    /// portfolio's model passed its backtest (`ForecastVisibility`).
    public var forecast: DelinquencyOutlook?

    /// Whether any metric answered for the property (false: never synced, or nothing on or before the as-of date).
    public var hasData: Bool {
        asOf != nil || !trend.isEmpty || aging != nil || funnel != nil || !pricing.isEmpty
    }

    /// A property's dashboard content.
    public init(key: String, name: String, pms: String, asOf: LocalDate? = nil, summary: PropertySummary,
                trend: [OccupancyPoint] = [], aging: DelinquencyAging? = nil, funnel: LeasingFunnel? = nil,
                pricing: [FloorplanPricing] = [], pricingTotal: FloorplanPricing? = nil,
                maintenance: MaintenanceSummary? = nil, expenses: ExpenseSummary? = nil) {
        self.key = key; self.name = name; self.pms = pms; self.asOf = asOf; self.summary = summary; self.trend = trend
        self.aging = aging; self.funnel = funnel; self.pricing = pricing; self.pricingTotal = pricingTotal
        self.maintenance = maintenance; self.expenses = expenses
    }
}

/// A property's delinquency forecast as the dashboard shows it (`forecast delinquency` of the property): the dollars
/// expected more than 30 days behind at the next month end and the households most likely behind, each with the
/// reason that moved its forecast most.
public struct DelinquencyOutlook: Sendable, Equatable {
    /// One household among the most likely behind.
    public struct Household: Sendable, Equatable {
        public var unit: String?
        public var name: String?
        /// 0 to 1.
        public var probability: Double
        /// The largest SHAP contribution, in words (`balance 1254.10 (+14.06)`).
        public var reason: String?

        /// A household's line.
        public init(unit: String?, name: String?, probability: Double, reason: String?) {
            self.unit = unit; self.name = name; self.probability = probability; self.reason = reason
        }
    }

    public var modelID: Int64
    /// The month end the households are described on, and the month end predicted.
    public var describedOn: LocalDate
    public var predicting: LocalDate
    /// Households in residence on `describedOn`.
    public var households: Int
    /// Σ probabilities.
    public var expectedBehind: Double
    /// Σ probability × balance (an upper-bound reading: docs/forecast.md).
    public var expectedOver30: Money
    /// Most likely behind first.
    public var mostLikely: [Household]

    /// A property's forecast.
    public init(modelID: Int64, describedOn: LocalDate, predicting: LocalDate, households: Int, expectedBehind: Double,
                expectedOver30: Money, mostLikely: [Household]) {
        self.modelID = modelID; self.describedOn = describedOn; self.predicting = predicting; self.households = households
        self.expectedBehind = expectedBehind; self.expectedOver30 = expectedOver30; self.mostLikely = mostLikely
    }

    /// How many households the panel names.
    public static let shownHouseholds = 5
}

/// One reconciliation of the unified figures with the vendor's own (a sync_checks row), as the dashboard shows it.
public struct SyncCheckLine: Sendable, Equatable {
    public var check: String
    public var measure: String
    /// `passed`, `failed` or `skipped`.
    public var status: String
    public var expected: Double?
    public var actual: Double?
    public var difference: Double?
    /// Both figures and their sources, or why the check was skipped.
    public var detail: String

    /// A check's line.
    public init(check: String, measure: String, status: String, expected: Double?, actual: Double?,
                difference: Double?, detail: String) {
        self.check = check; self.measure = measure; self.status = status; self.expected = expected
        self.actual = actual; self.difference = difference; self.detail = detail
    }
}

/// Links from a property's dashboard section to its tenant-ledger pages (paths relative to the dashboard file).
public struct LedgerViews: Sendable, Equatable {
    /// `report lease-status --format html` of the property.
    public var leaseStatus: String
    /// `report debtors --format html` of the property.
    public var debtors: String

    /// The two pages' hrefs.
    public init(leaseStatus: String, debtors: String) {
        self.leaseStatus = leaseStatus; self.debtors = debtors
    }
}

/// A property's work orders on the as-of date, as `ownerdash report maintenance` counts them.
public struct MaintenanceSummary: Sendable, Equatable {
    public var open: Int
    /// Open and opened more than `olderThanDays` days before the as-of date.
    public var agedOpen: Int
    public var olderThanDays: Int
    /// Completed in the `months` months ending at the as-of date.
    public var closedInWindow: Int
    public var months: Int
    public var medianDays: Double?
    public var averageDays: Double?

    /// A property's work-order figures.
    public init(open: Int, agedOpen: Int, olderThanDays: Int, closedInWindow: Int, months: Int, medianDays: Double?,
                averageDays: Double?) {
        self.open = open; self.agedOpen = agedOpen; self.olderThanDays = olderThanDays
        self.closedInWindow = closedInWindow; self.months = months; self.medianDays = medianDays; self.averageDays = averageDays
    }
}

/// A property's expenses by GL category, one amount per month (nil: no statement that month), as `report expenses`.
public struct ExpenseSummary: Sendable, Equatable {
    /// One GL category (or `All categories`) and its amount per month of `months`.
    public struct Line: Sendable, Equatable {
        public var category: String
        public var amounts: [Money?]
        /// A category's amounts.
        public init(category: String, amounts: [Money?]) { self.category = category; self.amounts = amounts }
    }

    public var months: [String]
    /// The categories, then the all-categories line last.
    public var lines: [Line]

    /// A property's expense grid.
    public init(months: [String], lines: [Line]) { self.months = months; self.lines = lines }
}

/// The headline numbers of one line of the portfolio table (a property, or the portfolio total).
public struct PropertySummary: Sendable, Equatable {
    public var units: Int?
    /// Physical occupancy, percent 0-100.
    public var occupancyPct: Double?
    /// RealPage Net Leased percent, 0-100.
    public var leasedPct: Double?
    public var exposure30Pct: Double?
    public var exposure60Pct: Double?
    /// Aged delinquent receivable (0-30 + 31-60 + 61-90 + 90+), before prepaid credits.
    public var delinquent: Money?
    /// Delinquent minus prepaid.
    public var netDelinquent: Money?
    /// Leads and signed leases in the funnel window.
    public var leads: Int?
    public var leases: Int?

    /// A summary line; every number optional ("no data").
    public init(units: Int? = nil, occupancyPct: Double? = nil, leasedPct: Double? = nil, exposure30Pct: Double? = nil,
                exposure60Pct: Double? = nil, delinquent: Money? = nil, netDelinquent: Money? = nil,
                leads: Int? = nil, leases: Int? = nil) {
        self.units = units; self.occupancyPct = occupancyPct; self.leasedPct = leasedPct
        self.exposure30Pct = exposure30Pct; self.exposure60Pct = exposure60Pct
        self.delinquent = delinquent; self.netDelinquent = netDelinquent; self.leads = leads; self.leases = leases
    }
}

/// One snapshot of the occupancy trend.
public struct OccupancyPoint: Sendable, Equatable {
    public var date: LocalDate
    public var occupancyPct: Double
    public var leasedPct: Double
    /// Rebuilt from resident history by `ownerdash backfill`, not a synced snapshot: drawn hollow.
    public var backfilled: Bool
    /// A point of the series.
    public init(date: LocalDate, occupancyPct: Double, leasedPct: Double, backfilled: Bool = false) {
        self.date = date; self.occupancyPct = occupancyPct; self.leasedPct = leasedPct; self.backfilled = backfilled
    }
}

/// The households the PMS marks (under eviction, or with a collection agency) and their delinquent amount, beside
/// the aging.
public struct MarkedShare: Sendable, Equatable {
    public var households: Int
    public var delinquent: Money
}

/// Delinquent receivable by age, prepaid credits and the net, at the as-of date.
public struct DelinquencyAging: Sendable, Equatable {
    public var balance0to30: Money
    public var balance31to60: Money
    public var balance61to90: Money
    public var balanceOver90: Money
    /// Prepaid credit, a positive amount.
    public var prepaid: Money
    /// Delinquent minus prepaid, as the metric query states it.
    public var net: Money
    /// The households under eviction and what they owe of the delinquent (`Metrics.markedHouseholds`); nil: the
    /// PMS marks none either way.
    public var underEviction: MarkedShare? = nil
    /// The accounts placed with a collection agency and what they owe of the delinquent
    /// (`Metrics.markedHouseholds`); nil: no report says either way.
    public var inCollections: MarkedShare? = nil
    /// The as-of date of the last whole pull of the tenant ledger the aging was summed from, when the nightly windows
    /// have brought that ledger past it (Metrics' `delinquencyLags`: Yardi); nil otherwise.
    public var ledgerWholeAsOf: String? = nil

    /// The aging of one property (or the portfolio).
    public init(balance0to30: Money, balance31to60: Money, balance61to90: Money, balanceOver90: Money,
                prepaid: Money, net: Money) {
        self.balance0to30 = balance0to30; self.balance31to60 = balance31to60; self.balance61to90 = balance61to90
        self.balanceOver90 = balanceOver90; self.prepaid = prepaid; self.net = net
    }
}

/// Leasing traffic and its conversions over the funnel window.
public struct LeasingFunnel: Sendable, Equatable {
    /// The days counted (30 days ending at the as-of date).
    public var period: DateRange?
    public var leads: Int
    public var tours: Int
    /// nil: no synced source counts them (`FunnelRow.applications`).
    public var applications: Int?
    public var leases: Int
    /// Conversions as percent 0-100 from the metric query; nil where the step's denominator is zero.
    public var leadToTour: Double?
    public var tourToApplication: Double?
    public var applicationToLease: Double?
    public var leadToLease: Double?

    /// A funnel with its conversions.
    public init(period: DateRange? = nil, leads: Int, tours: Int, applications: Int?, leases: Int, leadToTour: Double?,
                tourToApplication: Double?, applicationToLease: Double?, leadToLease: Double?) {
        self.period = period; self.leads = leads; self.tours = tours; self.applications = applications; self.leases = leases
        self.leadToTour = leadToTour; self.tourToApplication = tourToApplication
        self.applicationToLease = applicationToLease; self.leadToLease = leadToLease
    }
}

/// One floorplan's in-place and asking rents (or all floorplans of a property, as the pricing roll-up states them).
public struct FloorplanPricing: Sendable, Equatable {
    /// The floorplan code (`A1`).
    public var floorplan: String
    /// The marketing name when the PMS gives one that differs from the code.
    public var floorplanName: String?
    public var units: Int
    public var avgSqft: Double?
    public var inPlaceRent: Money?
    public var inPlacePsf: Double?
    public var askingRent: Money?
    public var askingPsf: Double?
    /// Monthly loss-to-lease in dollars (market minus in-place over occupied units; positive is a loss).
    public var lossToLease: Money?
    /// Blended trade-out % over the trade-out period's leases with a known prior rent; nil when there were none.
    public var tradeOutPct: Double?
    /// How many leases the trade-out is over.
    public var tradeOutLeases: Int

    /// A pricing line.
    public init(floorplan: String, floorplanName: String? = nil, units: Int, avgSqft: Double?, inPlaceRent: Money?,
                inPlacePsf: Double?, askingRent: Money?, askingPsf: Double?, lossToLease: Money?,
                tradeOutPct: Double? = nil, tradeOutLeases: Int = 0) {
        self.floorplan = floorplan; self.floorplanName = floorplanName; self.units = units; self.avgSqft = avgSqft
        self.inPlaceRent = inPlaceRent; self.inPlacePsf = inPlacePsf; self.askingRent = askingRent
        self.askingPsf = askingPsf; self.lossToLease = lossToLease; self.tradeOutPct = tradeOutPct
        self.tradeOutLeases = tradeOutLeases
    }
}
