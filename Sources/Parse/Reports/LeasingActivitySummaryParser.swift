import OwnerDashCore
import XLSXKit

extension ReportType {
    public static let leasingActivitySummary = ReportType(declaring: "leasing_activity_summary")
}

/// Leasing Activity Summary (lea-237-003, OneSite Prospect Management): the leasing funnel of a period (new
/// prospects, activities, visits, quotes, leases, cancellations, close %, move-ins) by leasing consultant, then the
/// same figures by floor plan group, by floor plan and by day of week.
///
/// Layout (checked on one real download): each section is a `Summary By ...` line, a two-row header (`Activities`
/// sits one row below the rest) and its rows, closed by a `Totals` row that every section repeats. The consultant
/// rows are the report's records (`realpage_leasing_activity_summary`); the other groupings go to
/// `realpage_leasing_activity_summary_groups` with their grouping's name. Every section's rows are held against its
/// own `Totals`.
struct LeasingActivitySummaryParser: OneSiteReportParser {
    /// The funnel figures every section prints, after its name column.
    private static let figures: [RawColumn] = [
        .read("new_prospects", .integer, header: "New Prospects", summed: true),
        .read("activities", .integer, header: "Activities", summed: true),
        .read("off_site_conversions", .integer, header: "# Off-Site Conversion",
              synonyms: ["Off-Site Conversion", "# Off-Site Conversions"], summed: true),
        .read("visits", .integer, header: "Visits", summed: true),
        .read("return_visits", .integer, header: "Return Visits", summed: true),
        .read("not_in_ratio", .integer, header: "Not In Ratio", summed: true),
        .read("net_visits", .integer, header: "Net Visits", summed: true),
        .read("units_shown", .integer, header: "Units Shown", summed: true),
        .read("quotes", .integer, header: "Quotes", summed: true),
        .read("leases", .integer, header: "Leases", summed: true),
        .read("waitlist", .integer, header: "Waitlist", summed: true),
        .read("total_leases", .integer, header: "Total Leases", summed: true),
        .read("cancelled_denied", .integer, header: "Cancelled/ Denied", synonyms: ["Cancelled/Denied"],
              summed: true),
        .read("net_leases", .integer, header: "Net Leases", summed: true),
        .read("close_pct", .percent, header: "Close %"),
        .read("move_ins", .integer, header: "Move-ins", synonyms: ["Move Ins"], summed: true),
    ]

    static let consultants = RawTable("realpage_leasing_activity_summary", since: 21, columns: [
        .read("leasing_consultant", .text, header: "Leasing Consultant", key: true),
    ] + figures)

    /// The other sections' rows; `name` is read under the first section's name column, where every section puts it.
    static let groups = RawTable("realpage_leasing_activity_summary_groups", since: 21, columns: [
        .derived("grouping", .text, key: true),
        .read("name", .text, header: "Leasing Consultant", key: true),
    ] + figures)

    static let descriptor = ReportDescriptor(
        .leasingActivitySummary, "leasing activity summary", titles: ["LEASING ACTIVITY SUMMARY"],
        codes: ["lea-237-003"], table: consultants, childTables: [groups],
        parser: LeasingActivitySummaryParser.self)

    static var layouts: [HeaderLayout] { [consultants.layout(for: .leasingActivitySummary, name: "by consultant")] }

    let header: HeaderMap
    let context: ParseContext
    /// The grouping of the section being read; nil in the first (by leasing consultant).
    private var grouping: String?
    private var sums = ColumnSums(consultants)
    private var counter = GroupCounter()

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        // `Summary By Floor Plan Group`: the next section starts (its own header rows follow as labels). The line
        // carries the formula legend (`i`, `-`, `=`, `+` over the columns), so it may classify as data.
        if let first = row.cells.lazy.compactMap(\.text).first?.trimmingWhitespace.lowercased(),
           first.hasPrefix("summary by ") {
            grouping = String(first.dropFirst("summary by ".count))
            return true
        }
        switch kind {
        case .label, .continuation:
            return true
        case .total(let label, let count):
            counter.check(count, label: label, row: row.number, what: "rows", context: context)
            try sums.check(row, label: grouping.map { "\(label) [by \($0)]" } ?? label, header: header,
                           context: context)
            return true
        case .data:
            let view = RowView(row: row, header: header, context: context)
            guard let grouping else {
                guard let record = try view.record(of: Self.consultants) else { return true }
                sums.add(record)
                counter.add()
                records.append(.row(record))
                return true
            }
            guard var record = try view.record(of: Self.groups) else { return true }
            record["grouping"] = .text(grouping)
            sums.add(record)
            counter.add()
            records.append(.row(record))
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}
}
