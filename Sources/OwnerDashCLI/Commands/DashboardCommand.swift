import Forecast
import Foundation
import Ledger
import OwnerDashCore
import Render
import SQLiteKit
import Sync

/// `ownerdash dashboard`: Write the portfolio dashboard: one self-contained HTML file, or a page per property.
struct DashboardCommand: Command {
    static let names = ["dashboard"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "Write the portfolio dashboard: one self-contained HTML file, or a page per property."
    static let arguments: [ArgumentSpec] = [
        .option("--out", "FILE.html", help: "where to write the page (default: dashboard.html in the data directory)"),
        .option("--as-of", "YYYY-MM-DD", help: "each property's latest snapshot on or before this date (default: its latest)"),
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every property"),
        .option("--layout", "one-file|pages", help: "one-file: everything in FILE.html; pages: the portfolio table in FILE.html, each property's page in properties/ beside it (default: one-file up to \(oneFileLimit) properties, pages above)"),
    ]
    static let discussion = """
        Reads unified.db read-only (a sync may be writing meanwhile) through the same metric queries as
        ownerdash query, and writes one HTML file with everything inline (CSS, SVG charts, a small script to
        sort the table): it opens offline and requests nothing. The page has the portfolio table (units,
        occupancy, leased, exposure 30/60, delinquent and net, leads and leases of the last 30 days, and the
        portfolio total weighted by units), then per property its occupancy/leased trend, delinquency aging,
        leasing funnel and pricing by floorplan. A property without data says "no data". Each property with a tenant
        ledger also gets its lease payment-status page (the last six months) and its debtors page in ledger/ beside
        the dashboard, linked from its section. Prints the path written.

        A portfolio of more than \(oneFileLimit) properties (or --layout pages) is written as pages instead, so no file
        grows with the portfolio: FILE.html holds the portfolio table (every property, sortable) and a line of data
        freshness, properties/KEY.html each property's charts and tables, data-dates.html each property's data date.
        """

    let global: GlobalOptions
    let out: String?
    let asOf: LocalDate?
    let selection: PropertySelection
    let layout: Layout?

    /// How the dashboard is written: one file, or the portfolio page and a page per property.
    enum Layout: String, CaseIterable {
        case oneFile = "one-file"
        case pages
    }

    /// Above this many properties the default layout is pages: one file would grow by about 13 KB a property.
    static let oneFileLimit = 50

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        out = parsed.value("--out")
        if let text = parsed.value("--as-of") {
            guard let date = LocalDate(iso: text) else {
                throw UsageError("ownerdash dashboard: --as-of must be a date YYYY-MM-DD, not \"\(text)\"")
            }
            asOf = date
        } else {
            asOf = nil
        }
        selection = PropertySelection(keys: parsed.values("--property"))
        if let text = parsed.value("--layout") {
            guard let chosen = Layout(rawValue: text) else {
                throw UsageError("ownerdash dashboard: --layout must be one-file or pages, not \"\(text)\"")
            }
            layout = chosen
        } else {
            layout = nil
        }
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let configuration = try global.configuration()
        let properties = try selection.resolve(configuration, configPath: global.configPath, command: "ownerdash dashboard")
        let path = out ?? global.dataDirectory.path("dashboard.html")
        try Self.write(to: path, dataDirectory: global.dataDirectory, configuration: configuration,
                       properties: properties, asOf: asOf, layout: layout, log: log)
        let output = StandardOutput()
        output.write(path + "\n")
        output.flush()
        return .success
    }

    /// Reads unified.db of `dataDirectory` read-only and writes the dashboard of `properties` to `path`
    /// (also what `ownerdash demo` calls); properties without a snapshot are named in one warning.
    static func write(to path: String, dataDirectory: DataDirectory, configuration: Configuration,
                      properties: [Property], asOf: LocalDate? = nil, layout: Layout? = nil, log: Diagnostics) throws {
        let database = try UnifiedStore.openForReading(dataDirectory: dataDirectory)
        if (layout ?? (properties.count > oneFileLimit ? .pages : .oneFile)) == .pages {
            try writePages(to: path, database: database, configuration: configuration, properties: properties, asOf: asOf, log: log)
            return
        }
        var dashboard = try Dashboard.load(
            database: database,
            properties: properties.map { DashboardProperty(key: $0.key, name: $0.name, pms: $0.pms.rawValue) },
            asOf: asOf,
            portfolioName: configuration.managementCompany ?? "Portfolio",
            generatedAt: Timestamp.minute())
        let withoutData = dashboard.properties.filter { !$0.hasData }.map(\.key)
        if !withoutData.isEmpty {
            log.warning(nil, "no snapshot\(asOf.map { " on or before \($0.iso)" } ?? "") for \(withoutData.joined(separator: ", ")): shown as \"no data\"")
        }
        try writeLedgerPages(&dashboard, beside: path, database: database)
        try writePage(DashboardPage.render(dashboard), to: path, what: "the dashboard")
    }

    /// The portfolio page at `path` (every property's line, sorted in the browser), `data-dates.html` and
    /// `properties/<key>.html` beside it: each property's page read for that property alone, linking back.
    static func writePages(to path: String, database: Database, configuration: Configuration, properties: [Property],
                           asOf: LocalDate?, log: Diagnostics) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let generatedAt = Timestamp.minute()
        let name = configuration.managementCompany ?? "Portfolio"
        let shown = properties.map { DashboardProperty(key: $0.key, name: $0.name, pms: $0.pms.rawValue) }
        let portfolio = try Portfolio.load(database: database, properties: shown, asOf: asOf, portfolioName: name,
                                           generatedAt: generatedAt)
        let withoutData = portfolio.lines.filter { $0.asOf == nil }.map(\.key)
        if !withoutData.isEmpty {
            log.warning(nil, "no snapshot\(asOf.map { " on or before \($0.iso)" } ?? "") for \(withoutData.joined(separator: ", ")): shown as \"no data\"")
        }
        // File names from the keys, unique even where two keys differ only in characters a file name should not hold.
        var ids = SectionIDs()
        let files = Dictionary(shown.map { ($0.key, "properties/\(ids.next(for: $0.key).dropFirst(2)).html") },
                               uniquingKeysWith: { first, _ in first })
        let selection = try portfolio.select(PortfolioView(perPage: max(1, portfolio.lines.count)))
        let home = (path as NSString).lastPathComponent
        try writePage(PortfolioPage.render(portfolio, view: PortfolioView(), selection: selection, links: PortfolioLinks(
            property: { files[$0.key] ?? "" }, view: nil, dataDates: "data-dates.html")), to: path, what: "the dashboard")
        try writePage(ReportPage.render(PortfolioPage.dataDates(portfolio), title: "Data dates", generatedAt: generatedAt) { _, row in
            row.first?.textValue.flatMap { files[$0] }
        }, to: (directory as NSString).appendingPathComponent("data-dates.html"), what: "the data dates page")
        try FileManager.default.createDirectory(atPath: (directory as NSString).appendingPathComponent("properties"),
                                                withIntermediateDirectories: true)
        for property in shown {
            guard let file = files[property.key] else { continue }
            var dashboard = try Dashboard.load(database: database, properties: [property], asOf: asOf, portfolioName: name,
                                               generatedAt: generatedAt)
            try writeLedgerPages(&dashboard, beside: path, database: database)
            // The ledger pages are beside the portfolio page, one folder up from the property's.
            dashboard.properties[0].ledgerViews = dashboard.properties[0].ledgerViews.map {
                LedgerViews(leaseStatus: "../" + $0.leaseStatus, debtors: "../" + $0.debtors)
            }
            try writePage(PropertyPage.render(dashboard.properties[0], of: dashboard, portfolio: "../" + home),
                          to: (directory as NSString).appendingPathComponent(file), what: "the page of \(property.key)")
        }
    }

    /// Months of payment status on each property's lease-status page: the as-of month and the five before it.
    static let ledgerMonths = 6

    /// Each property with a tenant ledger gets its lease-status and debtors pages in `ledger/` beside the dashboard
    /// (`ledger/<key>-lease-status.html`, `ledger/<key>-debtors.html`), which its section links to.
    static func writeLedgerPages(_ dashboard: inout Dashboard, beside path: String, database: Database) throws {
        let directory = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("ledger")
        // Registry key -> (name, property date) of the properties with a tenant ledger.
        var ledgerProperties: [String: String] = [:], propertyDates: [String: LocalDate] = [:]
        for row in try database.query("""
            SELECT unified_property_id, name, as_of_date FROM unified_properties WHERE ledger_source IS NOT NULL
            """) {
            let key = row[0].textValue ?? ""
            ledgerProperties[key] = row[1].textValue
            propertyDates[key] = row[2].textValue.flatMap { LocalDate(iso: $0) }
        }
        let generatedAt = Timestamp.minute()
        for index in dashboard.properties.indices {
            let property = dashboard.properties[index]
            guard ledgerProperties[property.key] != nil, let asOf = property.asOf ?? propertyDates[property.key] else { continue }
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let monthIndex = asOf.year * 12 + asOf.month - 1 - (ledgerMonths - 1)
            let start = String(format: "%04d-%02d", monthIndex / 12, monthIndex % 12 + 1)
            let status = try LeasePaymentStatusReport.run(database: database, properties: [property.key], start: start,
                                                          months: ledgerMonths, asOf: nil, includeInactive: false)
            let debtors = try Debtors.run(database: database, properties: [property.key], asOf: nil, minDebt: nil)
            // The risk column only where the forecast is shown (RiskNextMonth.read is nil otherwise).
            let risk = try RiskNextMonth.read(database: database, households: [property.key: debtors.people.flatMap { $0.units.map(\.residentID) }],
                                              asOf: nil)
            let views = LedgerViews(leaseStatus: "ledger/\(property.key)-lease-status.html",
                                    debtors: "ledger/\(property.key)-debtors.html")
            try writePage(LeaseStatusPage.render(status, generatedAt: generatedAt),
                          to: (directory as NSString).appendingPathComponent("\(property.key)-lease-status.html"),
                          what: "the lease-status page of \(property.key)")
            try writePage(DebtorsPage.render(debtors, propertyNames: ledgerProperties, generatedAt: generatedAt, risk: risk),
                          to: (directory as NSString).appendingPathComponent("\(property.key)-debtors.html"),
                          what: "the debtors page of \(property.key)")
            dashboard.properties[index].ledgerViews = views
        }
    }

    /// Written to a temporary file and renamed, so a browser never shows half a page.
    static func writePage(_ text: String, to path: String, what: String) throws {
        do {
            try ResultFile.write(text, to: path)
        } catch {
            let line = "\(path): cannot write \(what) (\(error.reason))"
            if error.kind == .cannotCreate { throw ConfigurationError(line) }
            throw ResultNotWritten(description: line)
        }
    }

}
