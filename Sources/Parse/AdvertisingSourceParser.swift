import OwnerDashCore
import XLSXKit

/// Primary Advertising Source Evaluation (report 4158): one `AdvertisingSourceRow` per ad source: first contacts,
/// leasing activity, and conversion.
///
/// Layout ([I] for positions; the columns from bary249/NASAdash, whose tests rebuild the real report's header:
/// `Advertising Source`, `1st Time Contacts` over New Prospects / This Period % of Prospects / Phone Calls /
/// % / Visits / %, `Leasing Activity Detail` over Visits / Return Visits / Off-Site Conversions / Lease
/// Applications (i) / Waitlist (+) / Leases Cancelled / Denied (−) / Net Leases with Waitlist (=) / % of Net, then
/// Prospects and Visits Converted to Lease Applications; percents stored as text `35.71`): a row per source, then
/// `Totals:`. The group headers are merged over their columns, which is what tells the two Visits columns apart.
///
/// Checks: per source, Lease Applications + Waitlist − Leases Cancelled/Denied = Net Leases (the report's i + − =
/// marks), a difference is a warning; `Totals:` is checked against the sources' sums. Parsing stops after `Totals:`
/// or at a `Contact Types` section (its rows are contact types, not sources). Sources with no activity are stored
/// too (zeros are data here).
///
/// | raw field (realpage_advertising_source) | column | OneSite header texts |
/// |---|---|---|
/// | source | Advertising Source* | Advertising Source, Primary Advertising Source, Ad Source, Source |
/// | new_prospects | New Prospects* | 1st Time Contacts / New Prospects, New Prospects, Prospects |
/// | phone_calls | Phone Calls | 1st Time Contacts / Phone Calls, Phone Calls |
/// | first_visits | 1st Time Contacts / Visits | 1st Time Contacts / Visits |
/// | visits | Visits | Leasing Activity Detail / Visits, Visits |
/// | return_visits | Return Visits | Return Visits |
/// | applications | Lease Applications | Lease Applications, Applications |
/// | waitlist | Waitlist | Waitlist |
/// | cancelled_denied | Leases Cancelled / Denied | Leases Cancelled / Denied, Cancelled/Denied |
/// | net_leases | Net Leases | Net Leases with Waitlist, Net Leases, Leases with Waitlist, Leases |
/// | prospect_conversion_pct | Prospects Converted | Prospects Converted to Lease Applications, % Converted / Prospects to Lease Applications |
/// | visit_conversion_pct | Visits Converted | Visits Converted to Lease Applications, % Converted / Visits to Lease Applications |
///
/// `*` = required; percents are stored 0-100 as printed. The % of Prospects / Phone Calls / Visits / Net and the
/// Off-Site Conversions columns are recognised but not stored.
struct AdvertisingSourceParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .advertisingSource, name: "advertising source evaluation", columns: [
            ColumnSpec("Advertising Source", .text, required: true,
                       synonyms: ["Primary Advertising Source", "Ad Source", "Source"]),
            ColumnSpec("New Prospects", .count, required: true,
                       synonyms: ["1st Time Contacts New Prospects", "Prospects"]),
            ColumnSpec("% of Prospects", .percent, synonyms: ["1st Time Contacts This Period % of Prospects",
                                                               "This Period % of Prospects"]),
            ColumnSpec("Phone Calls", .count, synonyms: ["1st Time Contacts Phone Calls"]),
            ColumnSpec("% of Phone Calls", .percent, synonyms: ["1st Time Contacts This Period % of Phone Calls",
                                                                 "This Period % of Phone Calls"]),
            ColumnSpec("1st Time Contacts Visits", .count),
            ColumnSpec("% of Visits", .percent, synonyms: ["1st Time Contacts This Period % of Visits",
                                                            "This Period % of Visits"]),
            ColumnSpec("Visits", .count, synonyms: ["Leasing Activity Detail Visits"]),
            ColumnSpec("Return Visits", .count, synonyms: ["Leasing Activity Detail Return Visits"]),
            ColumnSpec("Off-Site Conversions", .count, synonyms: ["Leasing Activity Detail Off-Site Conversions",
                                                                  "** Off-Site Conversions"]),
            ColumnSpec("Lease Applications", .count, synonyms: ["Leasing Activity Detail Lease Applications",
                                                                "Applications", "Leases", "Leasing Activity Detail Leases"]),
            ColumnSpec("Waitlist", .count, synonyms: ["Leasing Activity Detail Waitlist"]),
            ColumnSpec("Leases Cancelled / Denied", .count,
                       synonyms: ["Leasing Activity Detail Leases Cancelled / Denied", "Cancelled/Denied"]),
            ColumnSpec("Net Leases", .count,
                       synonyms: ["Leasing Activity Detail Net Leases with Waitlist", "Net Leases with Waitlist",
                                  "Leases with Waitlist", "Leasing Activity Detail Net Leases"]),
            ColumnSpec("% of Net", .percent, synonyms: ["Leasing Activity Detail % of Net"]),
            ColumnSpec("Prospects Converted", .percent,
                       synonyms: ["Prospects Converted to Lease Applications",
                                  "% Converted Prospects to Lease Applications", "Prospects Converted to Leases",
                                  "*** Prospects Converted to Leases"]),
            ColumnSpec("Visits Converted", .percent,
                       synonyms: ["Visits Converted to Lease Applications",
                                  "% Converted Visits to Lease Applications", "Visits Converted to Leases",
                                  "*** Visits Converted to Leases"]),
        ]),
    ]

    /// The counts `Totals:` is checked on, with the words a warning uses.
    static let totalled = [("New Prospects", "new prospects"), ("Phone Calls", "phone calls"),
                           ("1st Time Contacts Visits", "first-contact visits"), ("Visits", "visits"),
                           ("Return Visits", "return visits"), ("Off-Site Conversions", "off-site conversions"),
                           ("Lease Applications", "lease applications"), ("Waitlist", "waitlist"),
                           ("Leases Cancelled / Denied", "cancelled/denied"), ("Net Leases", "net leases")]

    let header: HeaderMap
    let context: ParseContext
    private var sums = Array(repeating: 0, count: Self.totalled.count)

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .continuation:
            return true
        case .label(let text):
            return !text.isSectionTitle(["Contact Types"])
        case .total(let label, _):
            for (index, (column, what)) in Self.totalled.enumerated() {
                context.crossCheck(what, computed: sums[index], printed: try view.count(column), label: label,
                                   row: row.number)
            }
            return false
        case .data:
            guard let source = view.text("Advertising Source") else { return true }
            let record = AdvertisingSourceRow(
                source: source, newProspects: try view.count("New Prospects"),
                phoneCalls: try view.count("Phone Calls"),
                firstVisits: try view.count("1st Time Contacts Visits"), visits: try view.count("Visits"),
                returnVisits: try view.count("Return Visits"), applications: try view.count("Lease Applications"),
                waitlist: try view.count("Waitlist"), cancelledDenied: try view.count("Leases Cancelled / Denied"),
                netLeases: try view.count("Net Leases"),
                prospectConversionPct: try view.percent("Prospects Converted"),
                visitConversionPct: try view.percent("Visits Converted"), sourceRow: row.number)
            if let applications = record.applications, let net = record.netLeases {
                let expected = applications + (record.waitlist ?? 0) - (record.cancelledDenied ?? 0)
                if expected != net {
                    context.warn("\(source) (row \(row.number)): \(applications) lease applications + "
                        + "\(record.waitlist ?? 0) waitlist - \(record.cancelledDenied ?? 0) cancelled/denied = "
                        + "\(expected) but Net Leases says \(net)")
                }
            }
            // OneSite prints Net Leases divided by New Prospects and by Visits: a column read under the wrong
            // header (the silent shift of net leases, leases and visits) breaks these identities.
            // The older layout converts to Lease Applications (applications over the denominator).
            let toApplications = header.printed["Prospects Converted"]?.lowercased().contains("application") ?? false
            let numerator = toApplications ? (record.applications, "lease applications") : (record.netLeases, "net leases")
            checkConversion(record.prospectConversionPct, net: numerator, over: record.newProspects,
                            what: "prospects converted", denominator: "new prospects", source: source, row: row.number)
            checkConversion(record.visitConversionPct, net: numerator, over: record.visits,
                            what: "visits converted", denominator: "visits", source: source, row: row.number)
            for (index, (column, _)) in Self.totalled.enumerated() { sums[index] += try view.count(column) ?? 0 }
            records.append(.advertisingSource(record))
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}

    /// Warns when a printed conversion percent is not net leases over its denominator.
    private func checkConversion(_ printed: Double?, net numerator: (Int?, String), over denominator: Int?, what: String,
                                 denominator name: String, source: String, row: Int) {
        guard let printed, let net = numerator.0, let denominator else { return }
        // OneSite divides by 1 when the denominator is 0 (Broker: 1 lease, 0 visits, prints 100 %).
        let expected = (Double(net) * 10_000 / Double(max(denominator, 1))).rounded() / 100
        if abs(printed - expected) > 0.011 {
            context.warn("\(source) (row \(row)): \(what) prints \(printed) % but \(numerator.1) \(net) / \(name) "
                + "\(denominator) is \(expected) %: a column may sit under the wrong header")
        }
    }
}
