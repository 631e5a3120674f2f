import Foundation
import Ledger
import OwnerDashCore
import Render
import SQLiteKit
import Sync

/// `ownerdash dashboard`: Write the portfolio dashboard as one self-contained HTML file.
struct DashboardCommand: Command {
    static let names = ["dashboard"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "Write the portfolio dashboard as one self-contained HTML file."
    static let arguments: [ArgumentSpec] = [
        .option("--out", "FILE.html", help: "where to write the page (default: dashboard.html in the data directory)"),
        .option("--as-of", "YYYY-MM-DD", help: "each property's latest snapshot on or before this date (default: its latest)"),
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every property"),
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
        """

    let global: GlobalOptions
    let out: String?
    let asOf: LocalDate?
    let selection: PropertySelection

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
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        let configuration = try global.configuration()
        let properties = try selection.resolve(configuration, configPath: global.configPath, command: "ownerdash dashboard")
        let path = out ?? global.dataDirectory.path("dashboard.html")
        try Self.write(to: path, dataDirectory: global.dataDirectory, configuration: configuration,
                       properties: properties, asOf: asOf, log: log)
        let output = StandardOutput()
        output.write(path + "\n")
        output.flush()
        return .success
    }

    /// Reads unified.db of `dataDirectory` read-only and writes the dashboard of `properties` to `path`
    /// (also what `ownerdash demo` calls); properties without a snapshot are named in one warning.
    static func write(to path: String, dataDirectory: DataDirectory, configuration: Configuration,
                      properties: [Property], asOf: LocalDate? = nil, log: Diagnostics) throws {
        let database = try UnifiedStore.openForReading(dataDirectory: dataDirectory)
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
            let views = LedgerViews(leaseStatus: "ledger/\(property.key)-lease-status.html",
                                    debtors: "ledger/\(property.key)-debtors.html")
            try writePage(LeaseStatusPage.render(status, generatedAt: generatedAt),
                          to: (directory as NSString).appendingPathComponent("\(property.key)-lease-status.html"),
                          what: "the lease-status page of \(property.key)")
            try writePage(DebtorsPage.render(debtors, propertyNames: ledgerProperties, generatedAt: generatedAt),
                          to: (directory as NSString).appendingPathComponent("\(property.key)-debtors.html"),
                          what: "the debtors page of \(property.key)")
            dashboard.properties[index].ledgerViews = views
        }
    }

    /// Written to a temporary file and renamed, so a browser never shows half a page.
    static func writePage(_ text: String, to path: String, what: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ConfigurationError("\(path): cannot write \(what) (\(error.localizedDescription))")
        }
    }

}
