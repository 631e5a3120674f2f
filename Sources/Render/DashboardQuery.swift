import Forecast
import Metrics
import OwnerDashCore
import SQLiteKit

/// A property the dashboard shows, as the registry names it (a property never synced still gets its line).
public struct DashboardProperty: Sendable, Equatable {
    /// The registry key, `unified_property_id`.
    public var key: String
    public var name: String
    /// `realpage` or `yardi`.
    public var pms: String
    /// A property of the registry.
    public init(key: String, name: String, pms: String) { self.key = key; self.name = name; self.pms = pms }
}

extension Dashboard {
    /// Reads the dashboard's content from unified.db (opened read-only) through the metric queries:
    /// `Metrics.summary` for the table and its unit-weighted roll-up, `occupancyTrend` for the lines,
    /// `delinquency` (and `markedHouseholds`: evictions, collections), `funnel` and `pricing` for the charts. Every number is the metric's own;
    /// nothing is computed here.
    ///
    /// `asOf` follows the metrics' as-of rule (each property's latest snapshot on or before it; nil: its latest).
    /// A property without a snapshot on or before `asOf` keeps its line, with "no data" in it.
    public static func load(database: Database, properties: [DashboardProperty], asOf: LocalDate?,
                            portfolioName: String, generatedAt: String) throws -> Dashboard {
        let keys = properties.map(\.key)
        let summaries = try Metrics.summary(database: database, properties: keys, asOf: asOf)
        let trend = try Metrics.occupancyTrend(database: database, properties: keys, from: nil, to: asOf)
        let delinquency = try Metrics.delinquency(database: database, properties: keys, asOf: asOf, top: 0)
        let marked = try Metrics.markedHouseholds(database: database, properties: keys, asOf: asOf)
        let lags = try Metrics.delinquencyLags(database: database, shown: delinquency.properties.map { ($0.property, $0.asOf) })
        let funnels = try Metrics.funnel(database: database, properties: keys, asOf: asOf)
        let pricing = try Metrics.pricing(database: database, properties: keys, asOf: asOf)

        let summaryByKey = Dictionary(summaries.map { ($0.property, $0) }, uniquingKeysWith: { first, _ in first })
        let agingByKey = Dictionary(delinquency.properties.map { ($0.property, $0) }, uniquingKeysWith: { first, _ in first })
        let funnelByKey = Dictionary(funnels.properties.map { ($0.property, $0) }, uniquingKeysWith: { first, _ in first })
        let trendByKey = Dictionary(grouping: trend, by: \.property)
        let backfilledByKey = Dictionary(grouping: try Metrics.backfilledOccupancy(database: database, properties: keys, to: asOf),
                                         by: \.property)
        let pricingByKey = Dictionary(grouping: pricing.floorplans, by: \.property)
        let synced = Set(try database.query("SELECT unified_property_id FROM unified_properties").compactMap { $0[0].textValue })
        let maintenance = try MaintenanceReport.run(database: database, properties: keys.filter(synced.contains), asOf: asOf,
                                                    months: MaintenanceSummary.standardMonths,
                                                    olderThanDays: MaintenanceSummary.standardOlderThanDays)
        let maintenanceByKey = Dictionary(maintenance.properties.map { ($0.property, $0) }, uniquingKeysWith: { first, _ in first })
        let expenses = try ExpenseReport.run(database: database, properties: keys.filter(synced.contains),
                                             start: asOf.map { ExpenseReport.month(String($0.iso.prefix(7)), adding: -2) },
                                             months: 3)

        let checks = try syncChecks(database: database, properties: keys)
        let missingMetrics = try Metrics.missingMetrics(database: database, properties: keys)

        let outlooks = try outlooks(database: database, properties: keys.filter(synced.contains), asOf: asOf)
        let sections = properties.map { property in
            let summary = summaryByKey[property.key]
            var section = PropertyDashboard(
                key: property.key, name: property.name, pms: property.pms, asOf: summary?.asOf,
                summary: summary.map(PropertySummary.init) ?? PropertySummary(),
                // Backfilled month ends (before the first synced snapshot) lead the synced ones.
                trend: (backfilledByKey[property.key] ?? []).map {
                    OccupancyPoint(date: $0.asOf, occupancyPct: $0.occupancyPct, leasedPct: $0.leasedPct, backfilled: true)
                } + (trendByKey[property.key] ?? []).compactMap(OccupancyPoint.init),
                aging: agingByKey[property.key].map {
                    DelinquencyAging($0, marked: marked[property.key], ledgerWholeAsOf: lags[property.key])
                },
                // Only beside a snapshot: with --as-of the funnel metric also answers (zeros) for a property that
                // has none, and the table's leads and leases (from the summary) say "no data" there.
                funnel: summary == nil ? nil : funnelByKey[property.key].map(LeasingFunnel.init),
                pricing: (pricingByKey[property.key] ?? []).map(FloorplanPricing.init),
                pricingTotal: PricingRow.rollUp(pricingByKey[property.key] ?? [], label: property.key).map(FloorplanPricing.init),
                maintenance: maintenanceByKey[property.key].map(MaintenanceSummary.init),
                expenses: ExpenseSummary(expenses, property: property.key))
            section.checks = summary?.asOf.flatMap { checks[property.key + "|" + $0.iso] } ?? []
            section.forecast = outlooks[property.key]
            for metric in [MetricQuery.Metric.delinquency, .funnel] {
                guard let reason = missingMetrics[property.key]?[metric] else { continue }
                section.missingReasons[metric.rawValue] = reason
                if metric == .delinquency { section.aging = nil } else { section.funnel = nil }
            }
            return section
        }
        let shownFunnels = funnels.properties.filter { summaryByKey[$0.property] != nil }
        let windows = Set(shownFunnels.map { [$0.period.from, $0.period.to] })
        return Dashboard(
            portfolioName: portfolioName,
            asOf: asOf ?? summaries.compactMap(\.asOf).max(),
            generatedAt: generatedAt,
            funnelWindow: windows.count == 1 ? shownFunnels.first.map { DateRange($0.period) } : nil,
            properties: sections,
            portfolio: SummaryRow.rollUp(summaries).map(PropertySummary.init),
            tradeOutWindow: pricing.tradeOutPeriod.map(DateRange.init))
    }
}

extension Dashboard {
    /// Each scorable property's delinquency forecast when users see it (`ShownForecast`); empty otherwise, and then
    /// after one query (the latest model's verdict).
    static func outlooks(database: Database, properties: [String], asOf: LocalDate?) throws -> [String: DelinquencyOutlook] {
        guard !properties.isEmpty, case .success(let stored) = try ShownForecast.model(database: database) else { return [:] }
        var (ledgers, unscored) = try ShownForecast.ledgers(database: database, properties: properties)
        let forecast = try ShownForecast.forecast(ledgers, stored: stored, asOf: asOf,
                                                  reasons: .mostLikely(DelinquencyOutlook.shownHouseholds), unscored: &unscored)
        let byProperty = Dictionary(grouping: forecast.households, by: \.property)
        var outlooks: [String: DelinquencyOutlook] = [:]
        for property in forecast.properties {
            outlooks[property.property] = DelinquencyOutlook(
                modelID: stored.modelID, describedOn: LocalDate(daysSinceEpoch: property.describedOn),
                predicting: LocalDate(daysSinceEpoch: property.predicting), households: property.households,
                expectedBehind: property.expectedBehind, expectedOver30: Money(cents: property.expectedOver30Cents),
                mostLikely: (byProperty[property.property] ?? []).prefix(DelinquencyOutlook.shownHouseholds).map {
                    DelinquencyOutlook.Household(unit: $0.unit, name: $0.name, probability: $0.probability, reason: $0.reasons.first?.text)
                })
        }
        return outlooks
    }
}

extension Portfolio {
    /// Reads the portfolio table of `properties` from unified.db: each property's line of `Metrics.summary` at `asOf`
    /// (the metrics' as-of rule) and the attributes the filters read from unified_properties. Only the summary query
    /// runs: the charts, pricing and checks are the property pages' (`Dashboard.load` of one property).
    public static func load(database: Database, properties: [DashboardProperty], asOf: LocalDate?,
                            portfolioName: String, generatedAt: String) throws -> Portfolio {
        let summaries = try Metrics.summary(database: database, properties: properties.map(\.key), asOf: asOf)
        let summaryByKey = Dictionary(summaries.map { ($0.property, $0) }, uniquingKeysWith: { first, _ in first })
        var attributes: [String: PortfolioLine] = [:]
        let statement = try database.prepare("""
            SELECT unified_property_id, address, as_of_date, ledger_source, ledger_coverage, work_order_source,
                   expense_source
            FROM unified_properties
            """)
        try statement.forEachRow { row in
            let key = row.text("unified_property_id") ?? ""
            attributes[key] = PortfolioLine(
                key: key, name: "", pms: "", address: row.text("address"),
                dataDate: row.text("as_of_date").flatMap { LocalDate(iso: $0) },
                // A ledger source without a coverage is a sync from before partial ledgers: the RPX ledger, full.
                ledger: row.text("ledger_source") == nil ? nil : (row.text("ledger_coverage") ?? "full"),
                workOrders: row.text("work_order_source") != nil, expenses: row.text("expense_source") != nil)
        }
        let lines = properties.map { property in
            var line = attributes[property.key] ?? PortfolioLine(key: property.key, name: property.name, pms: property.pms)
            line.key = property.key
            line.name = property.name
            line.pms = property.pms
            line.row = summaryByKey[property.key]
            return line
        }
        return Portfolio(name: portfolioName, asOf: asOf, generatedAt: generatedAt, lines: lines)
    }
}

extension Dashboard {
    /// The reconciliations of `properties` by `property|as-of date`, failed first; none in a unified.db from before
    /// sync_checks (its sync has not run since). Only those properties' rows are read: a property page of a
    /// 500-property portfolio reads its own checks, not every night of every property.
    static func syncChecks(database: Database, properties: [String]) throws -> [String: [SyncCheckLine]] {
        guard try database.scalar("SELECT 1 FROM sqlite_master WHERE name = 'sync_checks'") != nil else { return [:] }
        var byProperty: [String: [SyncCheckLine]] = [:]
        let statement = try database.prepare("""
            SELECT unified_property_id, as_of_date, check_name, measure, status, expected, actual, difference, detail
            FROM sync_checks
            WHERE unified_property_id IN (SELECT value FROM json_each(:properties))
            ORDER BY CASE status WHEN 'failed' THEN 0 WHEN 'skipped' THEN 2 ELSE 1 END, check_name, measure
            """)
        try statement.forEachRow([":properties": .jsonArray(properties)]) { row in
            let key = (row.text("unified_property_id") ?? "") + "|" + (row.text("as_of_date") ?? "")
            byProperty[key, default: []].append(SyncCheckLine(
                check: row.text("check_name") ?? "", measure: row.text("measure") ?? "",
                status: row.text("status") ?? "", expected: row.double("expected"), actual: row.double("actual"),
                difference: row.double("difference"), detail: row.text("detail") ?? ""))
        }
        return byProperty
    }
}

// MARK: - From the metric rows

extension PropertySummary {
    /// The table line of a summary row (a property's, or the portfolio roll-up's).
    init(_ row: SummaryRow) {
        self.init(units: row.units, occupancyPct: row.occupancyPct, leasedPct: row.leasedPct,
                  exposure30Pct: row.exposure30Pct, exposure60Pct: row.exposure60Pct, delinquent: row.delinquent,
                  netDelinquent: row.netDelinquent, leads: row.leads30Days, leases: row.leases30Days)
    }
}

extension OccupancyPoint {
    /// A point of the series; nil for a snapshot without units (no percentage to draw).
    init?(_ row: OccupancyRow) {
        guard let date = row.asOf, let occupancy = row.occupancyPct, let leased = row.leasedPct else { return nil }
        self.init(date: date, occupancyPct: occupancy, leasedPct: leased)
    }
}

extension DelinquencyAging {
    /// The buckets of a delinquency row, the households of its night under eviction or in collections, and the last
    /// whole pull of the ledger it was summed from when windows have brought that ledger past it.
    init(_ row: DelinquencyRow, marked: MarkedDelinquency?, ledgerWholeAsOf: LedgerWholeAsOf? = nil) {
        self.init(balance0to30: row.balance0to30, balance31to60: row.balance31to60, balance61to90: row.balance61to90,
                  balanceOver90: row.balanceOver90, prepaid: row.prepaid, net: row.net)
        underEviction = marked?.underEviction.map { MarkedShare(households: $0.households, delinquent: $0.delinquent) }
        inCollections = marked?.inCollections.map { MarkedShare(households: $0.households, delinquent: $0.delinquent) }
        self.ledgerWholeAsOf = ledgerWholeAsOf?.wholeAsOf
    }
}

extension LeasingFunnel {
    /// Why a conversion above 100 % is shown (`FunnelRow.aboveHundredNote`); nil when none is.
    var aboveHundredNote: String? {
        FunnelRow.aboveHundredNote(leads: leads, tours: tours, applications: applications, leases: leases)
    }

    /// The stages and conversions of a funnel row.
    init(_ row: FunnelRow) {
        self.init(period: DateRange(row.period), leads: row.leads, tours: row.tours, applications: row.applications,
                  leases: row.leases, leadToTour: row.leadToTourPct, tourToApplication: row.tourToApplicationPct,
                  applicationToLease: row.applicationToLeasePct, leadToLease: row.leadToLeasePct)
    }
}

extension FloorplanPricing {
    /// A floorplan line of the pricing metric.
    init(_ row: PricingRow) {
        self.init(floorplan: row.floorplan, floorplanName: row.floorplanName == row.floorplan ? nil : row.floorplanName,
                  units: row.units, avgSqft: row.avgSqft, inPlaceRent: row.inPlaceRent, inPlacePsf: row.inPlacePsf,
                  askingRent: row.askingRent, askingPsf: row.askingPsf, lossToLease: row.lossToLease,
                  tradeOutPct: row.tradeOut.changePct, tradeOutLeases: row.tradeOut.leases)
    }
}

extension DateRange {
    /// The metrics' period.
    init(_ period: Period) {
        self.init(from: period.from, to: period.to)
    }
}

extension MaintenanceSummary {
    /// The dashboard's window: work orders closed in the last 3 months; open ones older than 30 days.
    static let standardMonths = 3
    static let standardOlderThanDays = 30

    /// A property's line of the maintenance report.
    init(_ counts: MaintenanceReport.Counts) {
        self.init(open: counts.open, agedOpen: counts.agedOpen, olderThanDays: Self.standardOlderThanDays,
                  closedInWindow: counts.closedInWindow, months: Self.standardMonths, medianDays: counts.medianDays,
                  averageDays: counts.averageDays)
    }
}

extension ExpenseSummary {
    /// A property's lines of the expenses report; nil when it has no expense source.
    init?(_ report: ExpenseReport, property: String) {
        let lines = report.lines.filter { $0.property == property }
        guard !lines.isEmpty else { return nil }
        let covered = report.covered[property] ?? []
        self.init(months: report.months, lines: lines.map { line in
            Line(category: line.category ?? "All categories",
                 amounts: report.months.map { covered.contains($0) ? Money(cents: line.cents[$0] ?? 0) : nil })
        })
    }
}
