import OwnerDashCore
import XLSXKit

/// Box Score (report 4238, code `120.080.305`): one `BoxScoreRow` per floorplan of the Unit Status section.
///
/// Layout (docs/onesite-reports.md, "Box Score (4238)"): floor plan group label rows (`1x1`, `Studio`), floorplan rows,
/// a `Total` row per group and `Property Totals`; the header is two rows with `Vacant` and `Occupied` merged over their
/// sub-columns. Parsing stops at `Property Totals` or at the next section (Availability/Exposure, Make Ready, Leasing,
/// ...). Group `Total` rows and `Property Totals` are checked against the floorplan rows.
///
/// Header synonyms (matched after dropping case, spaces, hyphens, dots, colons; a merged group header
/// joins its sub-headers, so `Vacant` over `Leased` reads `Vacant Leased`):
///
/// | raw field (realpage_box_score) | column | OneSite header texts |
/// |---|---|---|
/// | floorplan group | Floor Plan Group | Floor Plan Group, Floorplan Group, Group (or the group label row) |
/// | floorplan | Floor Plan* | Floor Plan, Floorplan, Floor Plan Name |
/// | total_units | Units* | Units, Total Units, # Units, Unit Count |
/// | vacant_units | Total Vacant* | Vacant / Total Vacant, Total Vacant, Vacant Total |
/// | vacantNotLeased | Vacant Not Leased | Vacant / Not Leased, Not Leased |
/// | vacant_leased | Vacant Leased* | Vacant / Leased |
/// | model_units | Model/Admin* | Vacant / Model/Admin, Model/Administrative, Model |
/// | down_units | Down* | Vacant / Down, Down |
/// | occupied_units | Total Occupied* | Occupied / Total Occupied, Total Occupied |
/// | occupiedNoNotice | No NTV | Occupied / No NTV, No NTV |
/// | occupied_on_notice (with NTV-L) | NTV-NL* | Occupied / NTV-NL, NTV Not Leased |
/// | notice_leased | NTV-L* | Occupied / NTV-L, NTV Leased |
/// | occupancy_pct | Occupancy Percent | Occupancy Percent, Occupancy %, % Occupied |
/// | avg_market_rent | Avg Market Rent | Avg Market Rent, Avg. Market Rent, Average Market Rent |
/// | avg_actual_rent | Avg Leased Rent | Avg Leased Rent, Average Leased Rent, Avg Actual Rent |
/// | leased_pct | Net Leased Percent | Net Leased Percent, Net Leased %, Leased % |
/// | avg_sqft | Avg SqFt | Avg SqFt, Avg Sq Ft, Average SqFt, SqFt |
///
/// `*` = required. occupied_on_notice = NTV-NL + NTV-L; notice_leased = NTV-L.
struct BoxScoreParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .boxScore, name: "unit status", columns: [
            ColumnSpec("Floor Plan Group", .text, synonyms: ["Floorplan Group", "Group"]),
            ColumnSpec("Floor Plan", .text, required: true, synonyms: ["Floorplan", "Floor Plan Name", "Floorplan Name"]),
            ColumnSpec("Units", .count, required: true, synonyms: ["Total Units", "# Units", "Unit Count", "# of Units"]),
            ColumnSpec("Total Vacant", .count, required: true, synonyms: ["Vacant Total Vacant", "Vacant Total"]),
            ColumnSpec("Vacant Not Leased", .count, synonyms: ["Not Leased"]),
            ColumnSpec("Vacant Leased", .count, required: true),
            ColumnSpec("Model/Admin", .count, required: true,
                       synonyms: ["Vacant Model/Admin", "Model/Administrative", "Vacant Model/Administrative", "Model"]),
            ColumnSpec("Down", .count, required: true, synonyms: ["Vacant Down"]),
            ColumnSpec("Total Occupied", .count, required: true, synonyms: ["Occupied Total Occupied", "Occupied Total"]),
            ColumnSpec("No NTV", .count, synonyms: ["Occupied No NTV"]),
            ColumnSpec("NTV-NL", .count, required: true,
                       synonyms: ["Occupied NTV-NL", "NTV Not Leased", "Occupied NTV Not Leased"]),
            ColumnSpec("NTV-L", .count, required: true, synonyms: ["Occupied NTV-L", "NTV Leased", "Occupied NTV Leased"]),
            ColumnSpec("Occupancy Percent", .percent, synonyms: ["Occupancy %", "Occupancy Pct", "% Occupied"]),
            ColumnSpec("Avg Market Rent", .money, synonyms: ["Average Market Rent"]),
            ColumnSpec("Avg Leased Rent", .money, synonyms: ["Average Leased Rent", "Avg Actual Rent"]),
            ColumnSpec("Net Leased Percent", .percent, synonyms: ["Net Leased %", "Leased %", "Leased Percent"]),
            ColumnSpec("Avg SqFt", .number, synonyms: ["Avg Sq Ft", "Average SqFt", "Average Sq Ft", "SqFt", "Sq Ft"]),
        ]),
    ]

    /// Titles of the sections after Unit Status; reaching one ends the floorplan rows.
    static let followingSections = [
        "Availability", "Exposure", "Net Exposure", "Vacant Units Make Ready", "Make Ready", "Unit Designations",
        "Leasing", "Leases", "Move-Ins", "Move-Outs", "Notice to Vacate", "Vacancies",
    ]

    let header: HeaderMap
    let context: ParseContext
    private var group: String?
    private var groupSums = Sums()
    private var propertySums = Sums()

    /// Column sums of floorplan rows, to hold against `Total` and `Property Totals` rows.
    private struct Sums {
        var units = 0, vacant = 0, occupied = 0, vacantLeased = 0
    }

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .continuation:
            return true
        case .label(let text):
            let cellCount = row.cells.filter { !$0.isBlank }.count
            // A row of several labels is the next section's header; one label is a floor plan group.
            if text.isSectionTitle(Self.followingSections) || cellCount >= 3 { return false }
            group = view.text("Floor Plan Group") ?? text
            groupSums = Sums()
            return true
        case .total(let label, _):
            let view = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
            let key = HeaderText.key(label)
            let isProperty = key.hasPrefix("property") || key.hasPrefix("grand") || key.contains("forproperty")
            try check(isProperty ? propertySums : groupSums, against: view, label: label)
            if isProperty { return false }
            groupSums = Sums()
            return true
        case .data:
            guard let floorplan = view.text("Floor Plan") else {
                // A group row printed with its sums but no floorplan.
                if let label = view.text("Floor Plan Group") { group = label; groupSums = Sums() }
                return true
            }
            if let label = view.text("Floor Plan Group") { group = label }
            let record = try makeRow(view, floorplan: floorplan)
            for index in [0, 1] {
                var sums = index == 0 ? groupSums : propertySums
                sums.units += record.totalUnits; sums.vacant += record.vacantUnits
                sums.occupied += record.occupiedUnits; sums.vacantLeased += record.vacantLeased
                if index == 0 { groupSums = sums } else { propertySums = sums }
            }
            records.append(.boxScore(record))
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}

    private func makeRow(_ view: RowView, floorplan: String) throws -> BoxScoreRow {
        let noticeNotLeased = try view.requiredCount("NTV-NL")
        let noticeLeased = try view.requiredCount("NTV-L")
        return BoxScoreRow(
            floorplanGroup: group, floorplan: floorplan, totalUnits: try view.requiredCount("Units"),
            vacantUnits: try view.requiredCount("Total Vacant"), vacantNotLeased: try view.count("Vacant Not Leased"),
            vacantLeased: try view.requiredCount("Vacant Leased"), modelUnits: try view.requiredCount("Model/Admin"),
            downUnits: try view.requiredCount("Down"), occupiedUnits: try view.requiredCount("Total Occupied"),
            occupiedNoNotice: try view.count("No NTV"), occupiedOnNotice: noticeNotLeased + noticeLeased,
            noticeLeased: noticeLeased, occupancyPct: try view.percent("Occupancy Percent"),
            leasedPct: try view.percent("Net Leased Percent"), avgSqft: try view.decimal("Avg SqFt"),
            avgMarketRent: try view.money("Avg Market Rent"), avgActualRent: try view.money("Avg Leased Rent"),
            sourceRow: view.number)
    }

    private func check(_ sums: Sums, against view: RowView, label: String) throws {
        context.crossCheck("units", computed: sums.units, printed: try view.count("Units"), label: label, row: view.number)
        context.crossCheck("vacant units", computed: sums.vacant, printed: try view.count("Total Vacant"),
                           label: label, row: view.number)
        context.crossCheck("vacant leased units", computed: sums.vacantLeased, printed: try view.count("Vacant Leased"),
                           label: label, row: view.number)
        context.crossCheck("occupied units", computed: sums.occupied, printed: try view.count("Total Occupied"),
                           label: label, row: view.number)
    }
}
