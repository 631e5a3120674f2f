import Metrics
import OwnerDashCore

/// The dashboard as one self-contained HTML page: inline CSS, inline SVG charts, a small inline script to sort
/// the portfolio table. Nothing is fetched when it is opened (no fonts, images, scripts or styles by URL).
public enum DashboardPage {
    /// The whole page for a dashboard's content.
    public static func render(_ dashboard: Dashboard) -> String {
        let asOf = dashboard.asOf.map { ", as of \(DashboardFormat.longDate($0))" } ?? ""
        return document(title: "\(dashboard.portfolioName) portfolio dashboard\(asOf)", script: DashboardStyle.script) { html in
            pageHeader(&html, dashboard)
            html.element("main", [("class", "wrap")]) { html in
                html.newline()
                portfolioTable(&html, dashboard)
                var ids = SectionIDs()
                for property in dashboard.properties {
                    propertySection(&html, property, id: ids.next(for: property.key), dashboard: dashboard)
                }
            }
            html.newline()
            pageFooter(&html)
        }
    }

    // MARK: - Head and header

    /// The page shell every dashboard page shares (the portfolio, a property, the one-file dashboard): doctype, the
    /// head with `title` and the inline stylesheet, then `body`, then `script` inline when given.
    static func document(title: String, script: String?, body: (inout HTMLWriter) -> Void) -> String {
        var html = HTMLWriter()
        html.raw("<!DOCTYPE html>\n")
        html.element("html", [("lang", "en")]) { html in
            html.newline()
            html.element("head") { html in
                html.newline()
                html.empty("meta", [("charset", "utf-8")])
                html.newline()
                html.empty("meta", [("name", "viewport"), ("content", "width=device-width, initial-scale=1")])
                html.newline()
                html.empty("meta", [("name", "generator"), ("content", "ownerdash dashboard")])
                html.newline()
                html.element("title", text: title)
                html.newline()
                html.element("style") { $0.raw("\n" + DashboardStyle.css + "\n") }
                html.newline()
            }
            html.newline()
            html.element("body") { html in
                html.newline()
                body(&html)
                if let script {
                    html.element("script") { $0.raw("\n" + script + "\n") }
                    html.newline()
                }
            }
            html.newline()
        }
        html.newline()
        return html.html
    }

    private static func pageHeader(_ html: inout HTMLWriter, _ dashboard: Dashboard) {
        pageHeader(&html, name: dashboard.portfolioName, asOf: dashboard.asOf, properties: dashboard.properties.count,
                   units: dashboard.portfolio?.units, generatedAt: dashboard.generatedAt)
    }

    /// The header every dashboard page opens with: the portfolio's name, its date, how many properties and units,
    /// when the page was written.
    static func pageHeader(_ html: inout HTMLWriter, name: String, asOf: LocalDate?, properties count: Int, units: Int?,
                           generatedAt: String) {
        html.element("header", [("class", "page")]) { html in
            html.element("div", [("class", "wrap")]) { html in
                html.element("h1", text: name)
                html.element("p", [("class", "subtitle")]) { html in
                    html.element("span", text: "Portfolio dashboard")
                    asOfLine(&html, asOf)
                    let units = units.map { ", \(DashboardFormat.count($0)) units" } ?? ""
                    html.element("span", text: "\(count) propert\(count == 1 ? "y" : "ies")\(units)")
                    html.element("span", text: "Generated \(generatedAt)")
                }
            }
        }
        html.newline()
    }

    /// `As of <date>`, or that there is no data date, in a header's subtitle.
    static func asOfLine(_ html: inout HTMLWriter, _ asOf: LocalDate?) {
        html.element("span") { html in
            html.text("As of ")
            if let asOf {
                html.element("time", [("datetime", asOf.iso)], text: DashboardFormat.longDate(asOf))
            } else {
                html.element("span", [("class", "nodata")], text: DashboardFormat.noData)
            }
        }
    }

    /// What the figures mean and where they come from, under every dashboard page.
    static func pageFooter(_ html: inout HTMLWriter) {
        html.element("footer", [("class", "page wrap")]) { html in
            html.element("p", text: "Occupancy: occupied units \u{F7} units. Leased: RealPage Net Leased (vacant leased + occupied without notice + on notice and pre-leased) \u{F7} units. Exposure 30/60: vacant not leased + on notice not pre-leased with a move-out within 30/60 days, \u{F7} units. Delinquent: open receivable aged 0-30/31-60/61-90/90+ days; net = delinquent \u{2212} prepaid credits. Loss to lease: market \u{2212} in-place rent over occupied units. Trade-out: new rent \u{2212} prior rent of the same unit, \u{F7} prior rent. Portfolio totals are weighted by units.")
            html.element("p", text: "Written by ownerdash from unified.db (read-only); every number comes from the ownerdash query metrics.")
        }
        html.newline()
    }

    // MARK: - Portfolio table

    /// One column of the portfolio table: heading, its `sort=` parameter, how it sorts first, and the cell of a
    /// summary line.
    struct Column: Sendable {
        var heading: String
        var parameter: String
        var firstSort: String
        var cell: @Sendable (PropertySummary) -> (text: String, sortKey: Double?)
    }

    static let columns: [Column] = [
        Column(heading: "Units", parameter: "units", firstSort: "descending") { (DashboardFormat.count($0.units), $0.units.map(Double.init)) },
        Column(heading: "Occupancy", parameter: "occupancy", firstSort: "ascending") { (DashboardFormat.percent($0.occupancyPct), $0.occupancyPct) },
        Column(heading: "Leased", parameter: "leased", firstSort: "ascending") { (DashboardFormat.percent($0.leasedPct), $0.leasedPct) },
        Column(heading: "Exposure 30", parameter: "exposure_30", firstSort: "descending") { (DashboardFormat.percent($0.exposure30Pct), $0.exposure30Pct) },
        Column(heading: "Exposure 60", parameter: "exposure_60", firstSort: "descending") { (DashboardFormat.percent($0.exposure60Pct), $0.exposure60Pct) },
        Column(heading: "Delinquent", parameter: "delinquent", firstSort: "descending") {
            (DashboardFormat.money($0.delinquent), $0.delinquent.map(\.dollars))
        },
        Column(heading: "Net delinquent", parameter: "net_delinquent", firstSort: "descending") {
            (DashboardFormat.money($0.netDelinquent), $0.netDelinquent.map(\.dollars))
        },
        Column(heading: "Leads", parameter: "leads", firstSort: "descending") { (DashboardFormat.count($0.leads), $0.leads.map(Double.init)) },
        Column(heading: "Leases", parameter: "leases", firstSort: "descending") { (DashboardFormat.count($0.leases), $0.leases.map(Double.init)) },
    ]

    private static func portfolioTable(_ html: inout HTMLWriter, _ dashboard: Dashboard) {
        html.element("section", [("id", "portfolio"), ("class", "panel"), ("aria-labelledby", "portfolio-heading")]) { html in
            html.element("h2", [("id", "portfolio-heading")], text: "Portfolio")
            html.element("p", [("class", "hint")]) { html in
                html.text("Select a column heading to sort; again to reverse.")
                if let window = dashboard.funnelWindow {
                    html.text(" Leads and leases: \(DashboardFormat.longDate(window.from)) to \(DashboardFormat.longDate(window.to)).")
                } else {
                    html.text(" Leads and leases: the 30 days ending at each property's snapshot date.")
                }
                html.element("span", [("class", "narrow-only")], text: " Swipe the table sideways for more columns.")
            }
            html.element("p", [("id", "sort-status"), ("class", "visually-hidden"), ("aria-live", "polite")], text: "")
            html.element("div", [("class", "table-scroll")]) { html in
                html.element("table", [("id", "portfolio-table"), ("class", "sortable")]) { html in
                    html.element("caption", [("class", "visually-hidden")],
                                 text: "Properties of \(dashboard.portfolioName) with occupancy, leased, exposure, delinquency and leasing funnel")
                    html.newline()
                    html.element("thead") { html in
                        html.element("tr") { html in
                            html.element("th", [("scope", "col"), ("data-type", "text"), ("data-first", "ascending")]) {
                                $0.element("button", [("type", "button")], text: "Property")
                            }
                            for column in columns {
                                html.element("th", [("scope", "col"), ("data-type", "number"), ("data-first", column.firstSort)]) {
                                    $0.element("button", [("type", "button")], text: column.heading)
                                }
                            }
                        }
                    }
                    html.newline()
                    var ids = SectionIDs()
                    html.element("tbody") { html in
                        html.newline()
                        for property in dashboard.properties {
                            let id = ids.next(for: property.key)
                            html.element("tr", [("data-key", property.key)]) { html in
                                html.element("th", [("scope", "row"), ("data-value", property.name)]) { html in
                                    html.element("a", [("href", "#\(id)")], text: property.name)
                                    html.element("span", [("class", "pms")], text: pmsName(property.pms))
                                }
                                summaryCells(&html, property.summary)
                            }
                            html.newline()
                        }
                    }
                    html.newline()
                    html.element("tfoot") { html in
                        html.element("tr", [("class", "total")]) { html in
                            html.element("th", [("scope", "row")], text: "Portfolio")
                            summaryCells(&html, dashboard.portfolio ?? PropertySummary())
                        }
                    }
                }
            }
        }
        html.newline()
    }

    static func summaryCells(_ html: inout HTMLWriter, _ summary: PropertySummary) {
        for column in columns {
            let (text, sortKey) = column.cell(summary)
            html.element("td", [("data-value", DashboardFormat.sortKey(sortKey)), ("class", sortKey == nil ? "nodata" : nil)],
                         text: text)
        }
    }

    // MARK: - Property sections

    private static func propertySection(_ html: inout HTMLWriter, _ property: PropertyDashboard, id: String,
                                        dashboard: Dashboard) {
        html.element("section", [("class", "property"), ("id", id), ("aria-labelledby", "\(id)-name")]) { html in
            html.element("header") { html in
                html.element("h2", [("id", "\(id)-name")], text: property.name)
                var detail = "\(pmsName(property.pms)) \u{B7} \(property.key)"
                // Said only where it differs from the page's date: a property whose last sync is older.
                if let asOf = property.asOf, asOf != dashboard.asOf {
                    detail += " \u{B7} as of \(DashboardFormat.longDate(asOf))"
                }
                html.element("span", [("class", "pms")], text: detail)
            }
            propertyBody(&html, property, id: id, dashboard: dashboard)
            html.element("p", [("class", "back")]) { $0.element("a", [("href", "#portfolio")], text: "Back to the portfolio table") }
        }
        html.newline()
    }

    /// What a property shows below its name (its section of the one-file dashboard, its own page): the ledger links,
    /// the headline figures, the charts, pricing, maintenance, expenses and the checks against the vendor's totals.
    static func propertyBody(_ html: inout HTMLWriter, _ property: PropertyDashboard, id: String, dashboard: Dashboard) {
        ledgerLinks(&html, property)
        guard property.hasData else {
            // Never synced (or nothing on or before the as-of date): one line says so, not eight empty boxes.
            html.element("div", [("class", "panel nodata-property")]) { html in
                html.element("span", [("class", "nodata")], text: DashboardFormat.noData)
                html.text(dashboard.asOf.map { ": no snapshot of this property on or before \(DashboardFormat.longDate($0))." }
                          ?? ": no snapshot of this property has been synced.")
            }
            return
        }
        kpis(&html, property.summary)
        html.element("div", [("class", "charts")]) { html in
            html.element("figure", [("class", "panel")]) { html in
                html.element("figcaption", text: "Occupancy and leased")
                if property.trend.isEmpty {
                    noData(&html, "No occupancy snapshots for \(property.name)")
                } else {
                    SVGTrendChart(id: "\(id)-trend", propertyName: property.name, points: property.trend).write(&html)
                    if property.trend.count == 1 {
                        html.element("p", [("class", "note")], text: "One snapshot so far: the lines start once a later date is synced.")
                    }
                    let backfilled = property.trend.filter(\.backfilled)
                    if let first = backfilled.first, let last = backfilled.last {
                        html.element("p", [("class", "note")], text: "Hollow markers: \(backfilled.count) month end\(backfilled.count == 1 ? "" : "s") from \(DashboardFormat.longDate(first.date)) to \(DashboardFormat.longDate(last.date)) backfilled from resident history (move-in, notice and move-out dates), before the first synced snapshot.")
                    }
                }
            }
            html.element("figure", [("class", "panel")]) { html in
                html.element("figcaption", text: "Delinquency aging")
                if let aging = property.aging {
                    SVGAgingChart(id: "\(id)-aging", propertyName: property.name, aging: aging).write(&html)
                    html.element("p", [("class", "note")]) { html in
                        html.text("Net \(DashboardFormat.money(aging.net, cents: true))")
                        if let delinquent = property.summary.delinquent {
                            html.text(" = delinquent \(DashboardFormat.money(delinquent, cents: true)) \u{2212} prepaid \(DashboardFormat.money(aging.prepaid, cents: true))")
                        }
                    }
                    // Owed by households the eviction or an agency, not the property's own collecting, will settle:
                    // said beside the aging.
                    for (share, what, style) in [(aging.underEviction, "Under eviction", "eviction"),
                                                 (aging.inCollections, "With a collection agency", "collections")] {
                        guard let share, share.households > 0 else { continue }
                        let households = "\(DashboardFormat.count(share.households)) household"
                            + (share.households == 1 ? "" : "s")
                        html.element("p", [("class", "note \(style)")], text: "\(what): \(households) owing "
                                        + "\(DashboardFormat.money(share.delinquent, cents: true)) of the delinquent")
                    }
                    if let whole = aging.ledgerWholeAsOf {
                        html.element("p", [("class", "note")], text: "Summed from the tenant ledger as last pulled whole "
                                        + "on \(whole) and the nightly windows since: \(LedgerWholeAsOf.consequence).")
                    }
                } else {
                    noData(&html, property.missingReasons["delinquency"].map { "No delinquency for \(property.name): \($0)" }
                                  ?? "No delinquency snapshot for \(property.name)")
                    if let reason = property.missingReasons["delinquency"] {
                        html.element("p", [("class", "note")], text: "Missing, not zero: \(reason).")
                    }
                }
                if let forecast = property.forecast { forecastPart(&html, forecast, id: id) }
            }
            html.element("figure", [("class", "panel")]) { html in
                html.element("figcaption") { html in
                    html.text("Leasing funnel ")
                    if let window = property.funnel.flatMap({ $0.period ?? dashboard.funnelWindow }) {
                        html.element("span", [("class", "range")],
                                     text: "\(DashboardFormat.shortDate(window.from)) to \(DashboardFormat.shortDate(window.to))")
                    }
                }
                if let funnel = property.funnel {
                    SVGFunnelChart(id: "\(id)-funnel", propertyName: property.name, funnel: funnel).write(&html)
                    html.element("p", [("class", "note")],
                                 text: "Lead to lease \(funnel.leadToLease.map(DashboardFormat.percent) ?? "n/a")")
                    if let note = funnel.aboveHundredNote {
                        html.element("p", [("class", "note")], text: "Above 100 %: \(note).")
                    }
                } else {
                    noData(&html, property.missingReasons["funnel"].map { "No leasing funnel for \(property.name): \($0)" }
                                  ?? "No leasing activity data for \(property.name)")
                    if let reason = property.missingReasons["funnel"] {
                        html.element("p", [("class", "note")], text: "Missing, not zero: \(reason).")
                    }
                }
            }
        }
        pricingTable(&html, property, id: id, dashboard: dashboard)
        html.element("div", [("class", "charts")]) { html in
            maintenancePanel(&html, property, id: id)
            expensePanel(&html, property, id: id)
        }
        checksPanel(&html, property, id: id)
    }

    /// The delinquency forecast under the aging (only when the portfolio's model passed its backtest): the dollars
    /// expected more than 30 days behind at the next month end, and the households most likely behind with the
    /// reason that moved each most.
    private static func forecastPart(_ html: inout HTMLWriter, _ forecast: DelinquencyOutlook, id: String) {
        // Styled inline: the stylesheet of a page without a forecast stays exactly what it was.
        html.element("div", [("class", "forecast"), ("id", "\(id)-forecast"),
                             ("style", "border-top: 1px solid var(--line); margin-top: 10px; padding-top: 8px")]) { html in
            html.element("p", [("class", "forecast-headline"), ("style", "margin: 0 0 6px; font-size: 14px")]) { html in
                html.text("Forecast for \(DashboardFormat.longDate(forecast.predicting)): ")
                html.element("strong", text: DashboardFormat.money(forecast.expectedOver30))
                html.text(" expected more than 30 days behind, \(DashboardFormat.fixed(forecast.expectedBehind, decimals: 1)) of "
                          + "\(DashboardFormat.count(forecast.households)) households")
            }
            if !forecast.mostLikely.isEmpty {
                html.element("table", [("class", "forecast-households"), ("style", "font-size: 13px"),
                                       ("aria-label", "Households most likely behind next month")]) { html in
                    html.element("thead") { html in
                        html.element("tr") { html in
                            for title in ["Unit", "Household", "Risk", "Largest reason"] { html.element("th", [("scope", "col")], text: title) }
                        }
                    }
                    html.element("tbody") { html in
                        for household in forecast.mostLikely {
                            html.element("tr") { html in
                                html.element("td", text: household.unit ?? "\u{2013}")
                                html.element("td", text: household.name ?? "\u{2013}")
                                html.element("td", [("style", "text-align: right")], text: DashboardFormat.percent(household.probability * 100))
                                html.element("td", text: household.reason ?? "\u{2013}")
                            }
                        }
                    }
                }
            }
            html.element("p", [("class", "note")],
                         text: "From the ledgers to \(DashboardFormat.longDate(forecast.describedOn)) (model \(forecast.modelID), which beat the naive baselines in its backtest); expected dollars = risk \u{D7} balance, an upper bound.")
        }
    }

    /// The property's tenant-ledger pages, or a line saying it has no ledger (never a page of zeros).
    private static func ledgerLinks(_ html: inout HTMLWriter, _ property: PropertyDashboard) {
        html.element("p", [("class", "ledger")]) { html in
            guard let views = property.ledgerViews else {
                html.text("Tenant ledger: none synced for this property.")
                return
            }
            html.text("Tenant ledger: ")
            html.element("a", [("href", views.leaseStatus)], text: "lease payment status")
            html.text(" \u{B7} ")
            html.element("a", [("href", views.debtors)], text: "debtors")
        }
    }

    private static func kpis(_ html: inout HTMLWriter, _ summary: PropertySummary) {
        let figures: [(String, String)] = [
            ("Units", DashboardFormat.count(summary.units)),
            ("Occupancy", DashboardFormat.percent(summary.occupancyPct)),
            ("Leased", DashboardFormat.percent(summary.leasedPct)),
            ("Exposure 30", DashboardFormat.percent(summary.exposure30Pct)),
            ("Exposure 60", DashboardFormat.percent(summary.exposure60Pct)),
            ("Net delinquent", DashboardFormat.money(summary.netDelinquent)),
        ]
        html.element("dl", [("class", "kpis")]) { html in
            for (name, value) in figures {
                html.element("div") { html in
                    html.element("dt", text: name)
                    html.element("dd", [("class", value == DashboardFormat.noData ? "nodata" : nil)], text: value)
                }
            }
        }
    }

    private static func pricingTable(_ html: inout HTMLWriter, _ property: PropertyDashboard, id: String,
                                     dashboard: Dashboard) {
        html.element("div", [("class", "panel pricing")]) { html in
            html.element("h3", [("id", "\(id)-pricing")], text: "Pricing by floorplan")
            guard !property.pricing.isEmpty else {
                noData(&html, "No pricing snapshot for \(property.name)")
                return
            }
            html.element("div", [("class", "table-scroll")]) { html in
                html.element("table", [("aria-labelledby", "\(id)-pricing")]) { html in
                    html.element("thead") { html in
                        html.element("tr") { html in
                            for heading in ["Floorplan", "Units", "Avg sq ft", "In\u{2011}place rent", "In\u{2011}place $/sq ft",
                                            "Asking rent", "Asking $/sq ft", "Loss to lease", "Trade\u{2011}out"] {
                                html.element("th", [("scope", "col")], text: heading)
                            }
                        }
                    }
                    html.element("tbody") { html in
                        for line in property.pricing {
                            html.element("tr") { html in
                                html.element("th", [("scope", "row")]) { html in
                                    html.text(line.floorplan)
                                    if let name = line.floorplanName {
                                        html.element("span", [("class", "pms")], text: name)
                                    }
                                }
                                pricingCells(&html, line)
                            }
                            html.newline()
                        }
                    }
                    if let total = property.pricingTotal {
                        html.element("tfoot") { html in
                            html.element("tr") { html in
                                html.element("th", [("scope", "row")], text: "All floorplans")
                                pricingCells(&html, total)
                            }
                        }
                    }
                }
            }
            if let window = dashboard.tradeOutWindow {
                html.element("p", [("class", "note")],
                             text: "Loss to lease per month. Trade-out: leases signed \(DashboardFormat.shortDate(window.from)) to \(DashboardFormat.shortDate(window.to)) vs the unit's prior rent (leases).")
            }
        }
    }

    /// Work orders as `ownerdash report maintenance` counts them; a property without a source says so.
    private static func maintenancePanel(_ html: inout HTMLWriter, _ property: PropertyDashboard, id: String) {
        html.element("div", [("class", "panel")]) { html in
            html.element("h3", [("id", "\(id)-maintenance")], text: "Maintenance")
            guard let work = property.maintenance else {
                noData(&html, "No work-order source for \(property.name)")
                html.element("p", [("class", "note")], text: "No work-order source synced.")
                return
            }
            let days = { (value: Double?) in value.map { DashboardFormat.fixed($0, decimals: 1) } ?? "n/a" }
            let figures: [(String, String)] = [
                ("Open work orders", DashboardFormat.count(work.open)),
                ("Open over \(work.olderThanDays) days", DashboardFormat.count(work.agedOpen)),
                ("Closed, last \(work.months) months", DashboardFormat.count(work.closedInWindow)),
                ("Median days to complete", days(work.medianDays)),
                ("Average days to complete", days(work.averageDays)),
            ]
            html.element("table", [("aria-labelledby", "\(id)-maintenance")]) { html in
                html.element("tbody") { html in
                    for (name, value) in figures {
                        html.element("tr") { html in
                            html.element("th", [("scope", "row")], text: name)
                            cell(&html, value)
                        }
                    }
                }
            }
        }
    }

    /// The last sync's reconciliations with the vendor's own totals: each check passed, failed (with the difference)
    /// or skipped (with why), so a reader sees which numbers the vendor's reports confirm.
    private static func checksPanel(_ html: inout HTMLWriter, _ property: PropertyDashboard, id: String) {
        html.element("div", [("class", "panel checks")]) { html in
            html.element("h3", [("id", "\(id)-checks")], text: "Checked against \(pmsName(property.pms))'s own totals")
            guard !property.checks.isEmpty else {
                html.element("p", [("class", "note")], text: "No reconciliation recorded: sync this property again.")
                return
            }
            let failed = property.checks.filter { $0.status == "failed" }.count
            let passed = property.checks.filter { $0.status == "passed" }.count
            html.element("p", [("class", failed > 0 ? "banner" : "note")],
                         text: "\(passed) passed, \(failed) failed, \(property.checks.count - passed - failed) skipped")
            // The detail is a sentence: it wraps, and the table scrolls in its own box rather than widening the page.
            html.element("div", [("class", "table-scroll")]) { html in
                html.element("table", [("aria-labelledby", "\(id)-checks")]) { html in
                    html.element("thead") { html in
                        html.element("tr") { html in
                            for heading in ["Check", "Status", "Difference", "Detail"] {
                                html.element("th", [("scope", "col")], text: heading)
                            }
                        }
                    }
                    html.element("tbody") { html in
                        for line in property.checks {
                            html.element("tr", [("class", "check-\(line.status)")]) { html in
                                html.element("th", [("scope", "row")], text: "\(line.check) \(line.measure)")
                                cell(&html, line.status)
                                cell(&html, line.difference.map { DashboardFormat.fixed($0, decimals: 2) } ?? "")
                                html.element("td", [("class", "detail")], text: line.detail)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Expenses by GL category per month as `ownerdash report expenses`; a month without a statement is "no data".
    private static func expensePanel(_ html: inout HTMLWriter, _ property: PropertyDashboard, id: String) {
        html.element("div", [("class", "panel")]) { html in
            html.element("h3", [("id", "\(id)-expenses")], text: "Expenses by GL category")
            guard let expenses = property.expenses else {
                noData(&html, "No expense source for \(property.name)")
                html.element("p", [("class", "note")], text: "No expense source synced.")
                return
            }
            html.element("div", [("class", "table-scroll")]) { html in
                html.element("table", [("aria-labelledby", "\(id)-expenses")]) { html in
                    html.element("thead") { html in
                        html.element("tr") { html in
                            html.element("th", [("scope", "col")], text: "Category")
                            for month in expenses.months { html.element("th", [("scope", "col")], text: month) }
                        }
                    }
                    html.element("tbody") { html in
                        for line in expenses.lines {
                            html.element("tr", [("class", line == expenses.lines.last ? "total" : nil)]) { html in
                                html.element("th", [("scope", "row")], text: line.category)
                                for amount in line.amounts { cell(&html, DashboardFormat.money(amount)) }
                            }
                        }
                    }
                }
            }
        }
    }

    private static func pricingCells(_ html: inout HTMLWriter, _ line: FloorplanPricing) {
        cell(&html, DashboardFormat.count(line.units))
        cell(&html, DashboardFormat.squareFeet(line.avgSqft))
        cell(&html, DashboardFormat.money(line.inPlaceRent))
        cell(&html, DashboardFormat.perSquareFoot(line.inPlacePsf))
        cell(&html, DashboardFormat.money(line.askingRent))
        cell(&html, DashboardFormat.perSquareFoot(line.askingPsf))
        cell(&html, DashboardFormat.money(line.lossToLease))
        // No lease with a known prior rent: nothing to compare, which is not a 0% change.
        cell(&html, line.tradeOutPct.map { "\(DashboardFormat.signedPercent($0)) (\(line.tradeOutLeases))" } ?? "n/a")
    }

    private static func cell(_ html: inout HTMLWriter, _ text: String) {
        html.element("td", [("class", text == DashboardFormat.noData ? "nodata" : nil)], text: text)
    }

    /// The placeholder where a chart has nothing to draw: says so in words, never draws zeros.
    private static func noData(_ html: inout HTMLWriter, _ label: String) {
        html.element("div", [("class", "nodata"), ("role", "img"), ("aria-label", label)], text: DashboardFormat.noData)
    }

    static func pmsName(_ pms: String) -> String {
        switch pms {
        case "realpage": return "RealPage"
        case "yardi": return "Yardi"
        default: return pms
        }
    }
}

/// Section anchors from registry keys, unique even if two keys differ only in characters an id cannot hold.
public struct SectionIDs {
    private var used: Set<String> = []

    /// None used yet.
    public init() {}

    /// The anchor of the next property's section (`p-nexus_east`, `p-nexus_east-2` on a clash).
    public mutating func next(for key: String) -> String {
        let base = HTMLWriter.identifier("p-", key)
        var id = base
        var suffix = 2
        while !used.insert(id).inserted {
            id = "\(base)-\(suffix)"
            suffix += 1
        }
        return id
    }
}
