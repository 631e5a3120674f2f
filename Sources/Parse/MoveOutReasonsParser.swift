import OwnerDashCore
import XLSXKit

/// Reasons for Move Out (report 3879): one `MoveOutReasonRow` per reason (`line_type` `reason`), and one per
/// resident of the move-out list when the report prints it (`line_type` `resident`).
///
/// Layout ([I] — bary249/NASAdash's parser of the real export reads category rows (name, count, percent in columns
/// of their own), reason rows under them (name, count, percent), and stops at `Totals:`; the resident list is the
/// brief's): a category row (`Voluntary`, `Skip`, `Eviction` with its count and percent), the reasons under it,
/// `Totals:`, then optionally a `Move Out Detail` list with its own header (Unit, Name, Move-Out, Reason). A category
/// row's count is checked against the sum of its reasons and `Totals:` against the sum of all reasons; differences
/// are warnings. Category rows are not stored (they are sums of their reasons). Statuses in the title's parameters
/// (`Former Residents` / `Residents On Notice`) are not stored.
///
/// | raw field (realpage_move_out_reasons) | column | OneSite header texts |
/// |---|---|---|
/// | category | Category (the category row above) | Category, Move Out Category, Reason Category |
/// | reason | Reason* | Reason, Move Out Reason, Reason for Move Out |
/// | count | Count* | Count, Reason Count, Number, # |
/// | (checked) | Category Count | Category Count |
/// | percent | Percent | Percent, Reason %, %, % of Total |
/// | unit_number | Unit* (list) | Unit, Bldg/Unit |
/// | resident_name | Name (list) | Name, Resident, Resident Name |
/// | move_out_date | Move-Out* (list) | Move-Out, Move-Out Date, Move Out Date |
/// | reason, category | Reason*, Category (list) | as above |
///
/// `*` = required (summary: Reason and Count; list: Unit, Move-Out, Reason). Percents are stored 0-100 as printed.
struct MoveOutReasonsParser: OneSiteReportParser {
    static let reason = ColumnSpec("Reason", .text, required: true,
                                   synonyms: ["Move Out Reason", "Reason for Move Out"])
    static let category = ColumnSpec("Category", .text, synonyms: ["Move Out Category", "Reason Category"])

    static let layouts = [
        HeaderLayout(report: .moveOutReasons, name: "reasons", columns: [
            category, reason,
            ColumnSpec("Count", .count, required: true, synonyms: ["Reason Count", "Number", "#"]),
            ColumnSpec("Category Count", .count),
            ColumnSpec("Percent", .percent, synonyms: ["Reason %", "%", "% of Total"]),
            ColumnSpec("Category %", .percent),
        ]),
        HeaderLayout(report: .moveOutReasons, name: "move-out list", columns: [
            ColumnSpec("Unit", .text, required: true, synonyms: ["Bldg/Unit"]),
            ColumnSpec("Name", .text, synonyms: ["Resident", "Resident Name"]),
            ColumnSpec("Move-Out", .date, required: true, synonyms: ["Move-Out Date", "Move Out Date"]),
            reason, category,
        ]),
    ]

    let context: ParseContext
    private(set) var header: HeaderMap
    private var inList: Bool
    private var currentCategory: (name: String, count: Int?, row: Int)?
    private var categoryReasons = 0
    private var allReasons = 0

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context; self.inList = layoutIndex == 1
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .label(let text), .continuation(let text):
            guard !inList else { return true }
            // After the summary: the move-out list's own header row.
            if let (map, index) = HeaderFinder.bestComplete(Self.layouts, endingAt: 0, in: [row], merges: []),
               index == 1 {
                header = map
                inList = true
            } else if case .label = kind {
                // A category printed without counts.
                closeCategory()
                currentCategory = (text, nil, row.number)
            }
            return true
        case .total(let label, _):
            guard !inList else { return true }
            closeCategory()
            context.crossCheck("move-outs", computed: allReasons,
                               printed: try view.count("Count") ?? view.count("Category Count"), label: label,
                               row: row.number)
            return true
        case .data:
            if inList {
                guard let unit = view.text("Unit") else { return true }
                records.append(.moveOutReasons(MoveOutReasonRow(
                    lineType: "resident", category: view.text("Category"), reason: view.text("Reason"),
                    unitNumber: unit, residentName: view.firstLine("Name"), moveOutDate: try view.date("Move-Out"),
                    sourceRow: row.number)))
                return true
            }
            if let reason = view.text("Reason") {
                let count = try view.count("Count")
                records.append(.moveOutReasons(MoveOutReasonRow(
                    lineType: "reason", category: currentCategory?.name, reason: reason, count: count,
                    percent: try view.percent("Percent"), sourceRow: row.number)))
                categoryReasons += count ?? 0
                allReasons += count ?? 0
            } else if let name = view.text("Category") {
                closeCategory()
                currentCategory = (name, try view.count("Category Count") ?? view.count("Count"), row.number)
            }
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws { closeCategory() }

    private mutating func closeCategory() {
        if let open = currentCategory, let printed = open.count, printed != categoryReasons {
            context.warn("category \(open.name) (row \(open.row)): its reasons sum to \(categoryReasons) move-outs "
                + "but the category row says \(printed)")
        }
        currentCategory = nil
        categoryReasons = 0
    }
}
