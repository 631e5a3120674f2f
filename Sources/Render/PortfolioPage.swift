import Metrics
import OwnerDashCore
import SQLiteKit

/// Where the portfolio page's links go: the served pages (`/property/KEY`, `/?sort=units`) or files beside it.
public struct PortfolioLinks: Sendable {
    /// A property's own page.
    public var property: @Sendable (PortfolioLine) -> String
    /// The page of another view of the table; nil: the page is a file, holding every line, sorted in the browser.
    public var view: (@Sendable (PortfolioView) -> String)?
    /// The page listing each property's data date.
    public var dataDates: String

    /// The links of a page.
    public init(property: @escaping @Sendable (PortfolioLine) -> String, view: (@Sendable (PortfolioView) -> String)?,
                dataDates: String) {
        self.property = property; self.view = view; self.dataDates = dataDates
    }
}

/// The portfolio page: the portfolio table alone (search, filters, sort and pages as links and a GET form, so it
/// works without JavaScript), one line of data freshness, each property linked to its own page. Its size follows
/// the page's rows, not the portfolio's: 50 lines of a 500-property portfolio are the same page as of 50.
public enum PortfolioPage {
    /// The page of `selection` (what `view` picked of `portfolio`).
    public static func render(_ portfolio: Portfolio, view: PortfolioView, selection: PortfolioSelection,
                              links: PortfolioLinks) -> String {
        let asOf = portfolio.shownAsOf.map { ", as of \(DashboardFormat.longDate($0))" } ?? ""
        let served = links.view != nil
        return DashboardPage.document(title: "\(portfolio.name) portfolio dashboard\(asOf)",
                                      script: served ? DashboardStyle.filterScript : DashboardStyle.script) { html in
            header(&html, portfolio)
            html.element("main", [("class", "wrap")]) { html in
                html.newline()
                freshness(&html, portfolio, links: links)
                html.element("section", [("id", "portfolio"), ("class", "panel"), ("aria-labelledby", "portfolio-heading")]) { html in
                    html.element("h2", [("id", "portfolio-heading")], text: "Portfolio")
                    if let viewLink = links.view {
                        filterForm(&html, view: view, asOf: portfolio.asOf, home: viewLink(PortfolioView()))
                    }
                    hint(&html, portfolio, view: view, selection: selection, served: served)
                    table(&html, portfolio, view: view, selection: selection, links: links)
                    if let viewLink = links.view { pager(&html, view: view, selection: selection, link: viewLink) }
                }
                html.newline()
            }
            html.newline()
            DashboardPage.pageFooter(&html)
        }
    }

    // MARK: - Header and freshness

    private static func header(_ html: inout HTMLWriter, _ portfolio: Portfolio) {
        DashboardPage.pageHeader(&html, name: portfolio.name, asOf: portfolio.shownAsOf, properties: portfolio.lines.count,
                                 units: Portfolio.total(of: portfolio.lines)?.units, generatedAt: portfolio.generatedAt)
    }

    /// One line however many properties: the oldest and newest data date, how many lag, and where each is listed.
    private static func freshness(_ html: inout HTMLWriter, _ portfolio: Portfolio, links: PortfolioLinks) {
        html.element("p", [("id", "freshness"), ("class", "freshness")]) { html in
            guard let dates = portfolio.dataDates else {
                html.text("Data dates: no property has been synced yet.")
                return
            }
            if dates.oldest == dates.newest {
                html.text("Data as of ")
                html.element("time", [("datetime", dates.newest.iso)], text: DashboardFormat.longDate(dates.newest))
                html.text(" for every synced property")
            } else {
                html.text("Data dates: oldest ")
                html.element("time", [("datetime", dates.oldest.iso)], text: DashboardFormat.longDate(dates.oldest))
                html.text(", newest ")
                html.element("time", [("datetime", dates.newest.iso)], text: DashboardFormat.longDate(dates.newest))
                let behind = portfolio.lines.filter { ($0.dataDate ?? dates.newest) < dates.newest }.count
                html.text(" (\(behind) propert\(behind == 1 ? "y" : "ies") older than the newest)")
            }
            let never = portfolio.lines.filter { $0.dataDate == nil }.count
            if never > 0 { html.text(", \(never) never synced") }
            html.text(" \u{B7} ")
            html.element("a", [("href", links.dataDates)], text: "each property's data date")
        }
        html.newline()
    }

    // MARK: - Search, filters, order

    /// The GET form of the search and the filters; it keeps the order and starts again at page 1.
    private static func filterForm(_ html: inout HTMLWriter, view: PortfolioView, asOf: LocalDate?, home: String) {
        html.element("form", [("id", "portfolio-filter"), ("class", "filters"), ("method", "get"), ("action", home),
                              ("role", "search")]) { html in
            html.element("label") { html in
                html.element("span", text: "Search")
                html.empty("input", [("type", "search"), ("name", "q"), ("value", view.search ?? ""),
                                     ("placeholder", "name, key or address"), ("maxlength", "100")])
            }
            for filter in PortfolioFilter.all {
                html.element("label") { html in
                    html.element("span", text: filter.label)
                    html.element("select", [("name", filter.parameter)]) { html in
                        html.element("option", [("value", "")], text: "Any")
                        for choice in filter.choices {
                            html.element("option", [("value", choice.value),
                                                    ("selected", view.filters[filter.parameter] == choice.value ? "selected" : nil)],
                                         text: choice.label)
                        }
                    }
                }
            }
            html.element("label") { html in
                html.element("span", text: "Rows")
                html.element("select", [("name", "per_page")]) { html in
                    for count in PortfolioView.perPageChoices {
                        html.element("option", [("selected", count == view.perPage ? "selected" : nil)], text: String(count))
                    }
                }
            }
            // A GET form drops its action's query: what the view keeps goes in hidden fields.
            if let asOf {
                html.empty("input", [("type", "hidden"), ("name", "as_of"), ("value", asOf.iso)])
            }
            if let sort = view.sort {
                html.empty("input", [("type", "hidden"), ("name", "sort"), ("value", sort)])
                html.empty("input", [("type", "hidden"), ("name", "order"), ("value", view.descending ? "desc" : "asc")])
            }
            html.element("button", [("type", "submit")], text: "Show")
            if view.narrows {
                html.element("a", [("class", "clear"), ("href", home)], text: "Clear")
            }
        }
        html.newline()
    }

    private static func hint(_ html: inout HTMLWriter, _ portfolio: Portfolio, view: PortfolioView,
                             selection: PortfolioSelection, served: Bool) {
        var sentences: [String] = []
        if selection.matching == 0 {
            sentences.append("No property matches.")
        } else if served {
            let of = view.narrows ? "\(selection.matching) matching of \(portfolio.lines.count)" : "\(selection.matching)"
            sentences.append("Showing \(selection.offset + 1)\u{2013}\(selection.offset + selection.lines.count) of \(of) properties.")
        }
        sentences.append(served ? "Select a column heading to sort by it; again to reverse." : "Select a column heading to sort; again to reverse.")
        sentences.append(portfolio.asOf.map { "Leads and leases: the 30 days ending \(DashboardFormat.longDate($0))." }
                         ?? "Leads and leases: the 30 days ending at each property's snapshot date.")
        html.element("p", [("class", "hint"), ("id", "portfolio-count")]) { html in
            html.text(sentences.joined(separator: " "))
            html.element("span", [("class", "narrow-only")], text: " Swipe the table sideways for more columns.")
        }
        if !served {
            html.element("p", [("id", "sort-status"), ("class", "visually-hidden"), ("aria-live", "polite")], text: "")
        }
    }

    // MARK: - The table

    private static func table(_ html: inout HTMLWriter, _ portfolio: Portfolio, view: PortfolioView,
                              selection: PortfolioSelection, links: PortfolioLinks) {
        html.element("div", [("class", "table-scroll")]) { html in
            html.element("table", [("id", "portfolio-table"), ("class", links.view == nil ? "sortable" : nil)]) { html in
                html.element("caption", [("class", "visually-hidden")],
                             text: "Properties of \(portfolio.name) with occupancy, leased, exposure, delinquency and leasing funnel")
                html.newline()
                html.element("thead") { html in
                    html.element("tr") { html in
                        heading(&html, "Property", parameter: "property", numeric: false, firstSort: "ascending", view: view, links: links)
                        for column in DashboardPage.columns {
                            heading(&html, column.heading, parameter: column.parameter, numeric: true, firstSort: column.firstSort,
                                    view: view, links: links)
                        }
                    }
                }
                html.newline()
                html.element("tbody") { html in
                    html.newline()
                    if selection.lines.isEmpty {
                        html.element("tr") { html in
                            html.element("td", [("colspan", String(DashboardPage.columns.count + 1)), ("class", "nodata")],
                                         text: portfolio.lines.isEmpty ? "No property to show." : "No property matches the search and filters.")
                        }
                        html.newline()
                    }
                    for line in selection.lines {
                        html.element("tr", [("data-key", line.key)]) { html in
                            html.element("th", [("scope", "row"), ("data-value", line.name)]) { html in
                                html.element("a", [("href", links.property(line))], text: line.name)
                                html.element("span", [("class", "pms")], text: DashboardPage.pmsName(line.pms))
                            }
                            DashboardPage.summaryCells(&html, line.summary)
                        }
                        html.newline()
                    }
                }
                html.newline()
                html.element("tfoot") { html in
                    html.element("tr", [("class", "total")]) { html in
                        html.element("th", [("scope", "row")],
                                     text: view.narrows ? "All \(selection.matching) matching" : "Portfolio")
                        DashboardPage.summaryCells(&html, selection.total ?? PropertySummary())
                    }
                }
            }
        }
        html.newline()
    }

    /// A column heading: served, a link to the table sorted by it (again: reversed); in a file, a button the sort
    /// script answers.
    private static func heading(_ html: inout HTMLWriter, _ text: String, parameter: String, numeric: Bool,
                                firstSort: String, view: PortfolioView, links: PortfolioLinks) {
        guard let viewLink = links.view else {
            html.element("th", [("scope", "col"), ("data-type", numeric ? "number" : "text"), ("data-first", firstSort)]) {
                $0.element("button", [("type", "button")], text: text)
            }
            return
        }
        let current = view.sort == parameter
        var next = view
        next.sort = parameter
        next.descending = current ? !view.descending : firstSort == "descending"
        next.page = 1
        html.element("th", [("scope", "col"), ("aria-sort", current ? (view.descending ? "descending" : "ascending") : nil)]) {
            $0.element("a", [("href", viewLink(next)), ("class", "sort")], text: text)
        }
    }

    /// Previous and next pages, the first and the last, and where this page is.
    private static func pager(_ html: inout HTMLWriter, view: PortfolioView, selection: PortfolioSelection,
                              link: (PortfolioView) -> String) {
        guard selection.pages > 1 else { return }
        func page(_ number: Int) -> String {
            var other = view
            other.page = number
            return link(other)
        }
        html.element("nav", [("class", "pager"), ("aria-label", "Pages of the portfolio table")]) { html in
            if view.page > 1 {
                html.element("a", [("href", page(1)), ("rel", "first")], text: "\u{AB} First")
                html.element("a", [("href", page(view.page - 1)), ("rel", "prev")], text: "\u{2039} Previous")
            }
            html.element("span", [("aria-current", "page")], text: "Page \(view.page) of \(selection.pages)")
            if view.page < selection.pages {
                html.element("a", [("href", page(view.page + 1)), ("rel", "next")], text: "Next \u{203A}")
                html.element("a", [("href", page(selection.pages)), ("rel", "last")], text: "Last \u{BB}")
            }
        }
        html.newline()
    }

    // MARK: - Data dates

    /// Each property's data date (its last sync's snapshot), oldest first and never-synced ones before all, with
    /// how many days it lags the newest: the details behind the page's freshness line, as a report table.
    public static func dataDates(_ portfolio: Portfolio) -> MetricResult {
        let newest = portfolio.dataDates?.newest
        let ordered = portfolio.lines.enumerated().sorted { a, b in
            switch (a.element.dataDate, b.element.dataDate) {
            case let (x?, y?) where x != y: return x < y
            case (nil, _?): return true
            case (_?, nil): return false
            default: return a.offset < b.offset
            }
        }.map(\.element)
        return MetricResult(metric: "data_dates", parameters: [], tables: [
            MetricTable(name: "rows", title: "Each property's data date (the snapshot of its last sync), oldest first",
                        columns: [.init("property", .text), .init("name", .text), .init("source", .text),
                                  .init("data_date", .date), .init("days_behind_newest", .count)],
                        rows: ordered.map { line in
                            [.text(line.key), .text(line.name), .text(DashboardPage.pmsName(line.pms)),
                             line.dataDate.map { .text($0.iso) } ?? .null,
                             line.dataDate.flatMap { date in newest.map { SQLValue.integer(Int64($0.daysSinceEpoch - date.daysSinceEpoch)) } } ?? .null]
                        }),
        ])
    }
}

/// One property on a page of its own: what its section of the one-file dashboard shows (figures, charts, pricing,
/// maintenance, expenses, the checks against the vendor's totals) under a header linking back to the portfolio.
public enum PropertyPage {
    /// The page of `property` (read by `Dashboard.load` of that property alone, `dashboard` giving the portfolio's
    /// name and the windows); `portfolio` is the portfolio page's link.
    public static func render(_ property: PropertyDashboard, of dashboard: Dashboard, portfolio: String) -> String {
        let asOf = property.asOf ?? dashboard.asOf
        return DashboardPage.document(title: "\(property.name), \(dashboard.portfolioName)"
                                      + (asOf.map { ", as of \(DashboardFormat.longDate($0))" } ?? ""), script: nil) { html in
            var ids = SectionIDs()
            let id = ids.next(for: property.key)
            html.element("header", [("class", "page")]) { html in
                html.element("div", [("class", "wrap")]) { html in
                    html.element("p", [("class", "crumbs")]) { html in
                        html.element("a", [("href", portfolio)], text: dashboard.portfolioName)
                        html.text(" \u{203A}")
                    }
                    html.element("h1", [("id", "\(id)-name")], text: property.name)
                    html.element("p", [("class", "subtitle")]) { html in
                        html.element("span", text: "\(DashboardPage.pmsName(property.pms)) \u{B7} \(property.key)")
                        DashboardPage.asOfLine(&html, asOf)
                        html.element("span", text: "Generated \(dashboard.generatedAt)")
                    }
                }
            }
            html.newline()
            html.element("main", [("class", "wrap")]) { html in
                html.newline()
                html.element("section", [("class", "property"), ("id", id), ("aria-labelledby", "\(id)-name")]) { html in
                    DashboardPage.propertyBody(&html, property, id: id, dashboard: dashboard)
                }
                html.newline()
                html.element("p", [("class", "back")]) { $0.element("a", [("href", portfolio)], text: "Back to the portfolio table") }
            }
            html.newline()
            DashboardPage.pageFooter(&html)
        }
    }
}
