import Metrics
import OwnerDashCore

/// The portfolio page's content: every property the viewer sees, each with its line of the portfolio table and the
/// attributes the filters read, and the portfolio roll-up. A `PortfolioView` picks the page of lines shown.
public struct Portfolio: Sendable, Equatable {
    /// The management company (or `Portfolio`), the page's title.
    public var name: String
    /// The as-of date asked for (`?as_of=`, `--as-of`); nil: each property's latest snapshot.
    public var asOf: LocalDate?
    /// When the page was written, already formatted (`2026-11-21 04:05 UTC`).
    public var generatedAt: String
    /// Every property, in registry order.
    public var lines: [PortfolioLine]

    /// A portfolio of the given lines.
    public init(name: String, asOf: LocalDate?, generatedAt: String, lines: [PortfolioLine]) {
        self.name = name; self.asOf = asOf; self.generatedAt = generatedAt; self.lines = lines
    }

    /// The roll-up of `lines` as the summary metric states it (weighted by units); nil when none has a snapshot.
    public static func total(of lines: [PortfolioLine]) -> PropertySummary? {
        SummaryRow.rollUp(lines.compactMap(\.row)).map(PropertySummary.init)
    }

    /// The oldest and the newest data date of the properties (their last synced snapshot); nil when none was synced.
    public var dataDates: (oldest: LocalDate, newest: LocalDate)? {
        let dates = lines.compactMap(\.dataDate)
        guard let oldest = dates.min(), let newest = dates.max() else { return nil }
        return (oldest, newest)
    }

    /// The date the page's numbers are read at: the one asked for, else the newest snapshot shown.
    public var shownAsOf: LocalDate? { asOf ?? lines.compactMap(\.asOf).max() }
}

/// A property's line in the portfolio table, and what it is searched and filtered by.
public struct PortfolioLine: Sendable, Equatable {
    /// The registry key, `unified_property_id`.
    public var key: String
    public var name: String
    /// `realpage` or `yardi`.
    public var pms: String
    /// The street address, when the registry or the PMS gave one (searched, like the name and key).
    public var address: String?
    /// The property's data date: the snapshot date of its last sync; nil: never synced.
    public var dataDate: LocalDate?
    /// The tenant ledger synced: `full`, `partial` (reports only), nil: none.
    public var ledger: String?
    /// Whether work orders and expenses are synced for the property.
    public var workOrders: Bool
    public var expenses: Bool
    /// The summary metric's row at the page's as-of date; nil: no snapshot on or before it.
    var row: SummaryRow?

    /// The table line's figures ("no data" throughout without a snapshot).
    public var summary: PropertySummary { row.map(PropertySummary.init) ?? PropertySummary() }
    /// The snapshot date the numbers are read at.
    public var asOf: LocalDate? { row?.asOf }

    /// A line of the table; `summary` nil: the property has no snapshot.
    public init(key: String, name: String, pms: String, address: String? = nil, dataDate: LocalDate? = nil,
                ledger: String? = nil, workOrders: Bool = false, expenses: Bool = false, summary: SummaryRow? = nil) {
        self.key = key; self.name = name; self.pms = pms; self.address = address; self.dataDate = dataDate
        self.ledger = ledger; self.workOrders = workOrders; self.expenses = expenses; self.row = summary
    }
}

/// A filter of the portfolio table on one attribute unified.db keeps of each property (its source system, the data
/// synced for it, how fresh it is): the query parameter, its label and its choices, in one table.
public struct PortfolioFilter: Sendable {
    /// The query parameter (`pms`).
    public var parameter: String
    /// The label of its select (`Source system`).
    public var label: String
    /// Each value the parameter takes and how it reads.
    public var choices: [(value: String, label: String)]
    /// The line's value of the attribute, given the portfolio's newest data date.
    let value: @Sendable (PortfolioLine, LocalDate?) -> String

    /// Every filter the portfolio page offers, in the order of the form.
    public static let all: [PortfolioFilter] = [
        PortfolioFilter(parameter: "pms", label: "Source system", choices: [("realpage", "RealPage"), ("yardi", "Yardi")]) { line, _ in
            line.pms
        },
        PortfolioFilter(parameter: "ledger", label: "Tenant ledger",
                        choices: [("full", "Full"), ("partial", "Partial (reports)"), ("none", "None")]) { line, _ in
            line.ledger ?? "none"
        },
        PortfolioFilter(parameter: "work_orders", label: "Work orders", choices: [("synced", "Synced"), ("none", "None")]) { line, _ in
            line.workOrders ? "synced" : "none"
        },
        PortfolioFilter(parameter: "expenses", label: "Expenses", choices: [("synced", "Synced"), ("none", "None")]) { line, _ in
            line.expenses ? "synced" : "none"
        },
        PortfolioFilter(parameter: "data_date", label: "Data date",
                        choices: [("newest", "Newest"), ("older", "Older"), ("never", "Never synced")]) { line, newest in
            guard let date = line.dataDate else { return "never" }
            return date == newest ? "newest" : "older"
        },
    ]
}

/// What part of the portfolio table a page shows: the search, the filters, the order and the page, as the query
/// parameters of `/` (`?q=&pms=&sort=&order=&page=&per_page=`) name them.
public struct PortfolioView: Sendable, Equatable {
    /// Text the property's name, key or address contains (any case); nil or empty: every property.
    public var search: String?
    /// The chosen value of each filter, by its parameter (`pms` -> `yardi`).
    public var filters: [String: String]
    /// The column sorted by (`PortfolioView.sortColumns`); nil: registry order.
    public var sort: String?
    public var descending: Bool
    /// 1-based.
    public var page: Int
    public var perPage: Int

    /// Rows a page holds unless `per_page` says otherwise; 50 lines keep the page near 60 KB at any portfolio size.
    public static let defaultPerPage = 50
    /// The page sizes offered.
    public static let perPageChoices = [25, 50, 100, 200]

    /// The sortable columns by parameter: `property` (the name), then the figures of the table.
    public static var sortColumns: [String] { ["property"] + DashboardPage.columns.map(\.parameter) }

    /// A view; the default is the first page of every property in registry order.
    public init(search: String? = nil, filters: [String: String] = [:], sort: String? = nil, descending: Bool = false,
                page: Int = 1, perPage: Int = PortfolioView.defaultPerPage) {
        self.search = search; self.filters = filters; self.sort = sort; self.descending = descending
        self.page = page; self.perPage = perPage
    }

    /// Whether a column, chosen, sorts largest first (its heading's first direction: units, exposure, delinquency).
    public static func startsDescending(_ column: String) -> Bool {
        DashboardPage.columns.first { $0.parameter == column }?.firstSort == "descending"
    }

    /// Whether anything narrows the table (a search or a filter).
    public var narrows: Bool { !(search ?? "").isEmpty || !filters.isEmpty }
}

/// The lines a view shows: one page of the matching properties in the asked order, and how many there are.
public struct PortfolioSelection: Sendable, Equatable {
    /// The page's lines.
    public var lines: [PortfolioLine]
    /// How many properties match the search and filters (all pages).
    public var matching: Int
    /// The number of pages (at least 1, an empty result is one empty page).
    public var pages: Int
    /// The 0-based position of the page's first line among the matching.
    public var offset: Int
    /// The roll-up of every matching property (not only the page's).
    public var total: PropertySummary?
}

/// A page number past the last page of the selection.
public struct PortfolioPageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var page: Int
    public var pages: Int
    public var description: String { "no page \(page): the table has \(pages) page\(pages == 1 ? "" : "s")" }
}

extension Portfolio {
    /// The lines `view` shows: search and filters, then the order (properties without the figure last either way,
    /// ties in registry order), then the page. Throws for a page past the last one.
    public func select(_ view: PortfolioView) throws(PortfolioPageError) -> PortfolioSelection {
        let newest = dataDates?.newest
        let needle = (view.search ?? "").lowercased()
        let matching = lines.filter { line in
            if !needle.isEmpty, !([line.name, line.key, line.address ?? ""].contains { $0.lowercased().contains(needle) }) {
                return false
            }
            return PortfolioFilter.all.allSatisfy { filter in
                view.filters[filter.parameter].map { filter.value(line, newest) == $0 } ?? true
            }
        }
        let ordered = view.sort.map { Self.sorted(matching, by: $0, descending: view.descending) } ?? matching
        let pages = max(1, (ordered.count + view.perPage - 1) / view.perPage)
        guard view.page >= 1, view.page <= pages else { throw PortfolioPageError(page: view.page, pages: pages) }
        let offset = (view.page - 1) * view.perPage
        return PortfolioSelection(lines: Array(ordered[offset..<min(ordered.count, offset + view.perPage)]),
                                  matching: ordered.count, pages: pages, offset: offset, total: Self.total(of: matching))
    }

    /// `lines` by a column of the table: the name as text, a figure as its number; a missing figure sorts last in
    /// either direction, ties keep registry order (the sort is stable).
    static func sorted(_ lines: [PortfolioLine], by column: String, descending: Bool) -> [PortfolioLine] {
        if column == "property" {
            let keyed = lines.enumerated().map { ($0.element.name.lowercased(), $0.offset, $0.element) }
            return keyed.sorted { a, b in
                a.0 != b.0 ? (descending ? a.0 > b.0 : a.0 < b.0) : a.1 < b.1
            }.map(\.2)
        }
        guard let figure = DashboardPage.columns.first(where: { $0.parameter == column }) else { return lines }
        let keyed = lines.enumerated().map { (figure.cell($0.element.summary).sortKey, $0.offset, $0.element) }
        return keyed.sorted { a, b in
            switch (a.0, b.0) {
            case let (x?, y?) where x != y: return descending ? x > y : x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.1 < b.1
            }
        }.map(\.2)
    }
}
