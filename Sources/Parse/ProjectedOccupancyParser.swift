import OwnerDashCore
import XLSXKit

/// Projected Occupancy (report 3842): one `ProjectedOccupancyRow` per week of the projection.
///
/// Layout (docs/onesite-reports.md, "Projected Occupancy (3842) and other definitions": the columns from RealPage's
/// guide; positions [I] — bary249/NASAdash's parser of the real export
/// reads the week date, `# Occupied At Week Begin`, `% Occupied At Week Begin`, `Scheduled Move-Ins`,
/// `Scheduled Move-Outs`, `Projected # Occupied At Week End`, `Projected % Occupied At Week End`, and
/// `Total Units:` with its count in the next cell above the header): one row per week, no group rows.
///
/// The week's date column says which end of the week it is: `Week Beginning` (also `Week Of`, `Week Start`, `Week`)
/// gives week_start, and week_end = week_start + 6 days; `Week Ending` gives week_end, and week_start =
/// week_end − 6 days (OneSite's weeks are seven days from the `dayOfWeek` parameter's day).
///
/// Check (RealPage's definition, same section): Projected # Occupied At Week End = # Occupied At Week Begin +
/// Scheduled Move-Ins − Scheduled Move-Outs; a week that does not add up is a warning naming it. A totals row, when
/// printed, is checked against the summed move-ins and move-outs. total_units is the title block's `Total Units:`,
/// else NULL.
///
/// | raw field (realpage_projected_occupancy) | column | OneSite header texts |
/// |---|---|---|
/// | week_start (+ week_end) | Week Beginning* | Week Beginning, Week Begin, Week Of, Week Start, Week Starting, Week |
/// | week_end (+ week_start) | Week Ending* (instead) | Week Ending, Week End, End of Week |
/// | occupied_begin | Occupied At Week Begin* | # Occupied At Week Begin, # Occupied, Occupied At Week Begin |
/// | occupied_begin_pct | % Occupied At Week Begin | % Occupied At Week Begin, %, % Occupied |
/// | scheduled_move_ins | Scheduled Move-Ins* | Scheduled Move-Ins, Move-Ins |
/// | scheduled_move_outs | Scheduled Move-Outs* | Scheduled Move-Outs, Move-Outs |
/// | projected_occupied | Projected Occupied At Week End* | Projected # Occupied At Week End, Projected # Occupied |
/// | projected_pct | Projected % | Projected % Occupied At Week End, Projected %, Projected % Occupied |
/// | total_units | (title block) | `Total Units:` |
///
/// `*` = required; percents are stored 0-100 as printed.
struct ProjectedOccupancyParser: OneSiteReportParser {
    static func columns(week: ColumnSpec) -> [ColumnSpec] {
        [
            week,
            ColumnSpec("Occupied At Week Begin", .count, required: true,
                       synonyms: ["# Occupied At Week Begin", "# Occupied", "# Occupied At Beginning of Week"]),
            ColumnSpec("% Occupied At Week Begin", .percent, synonyms: ["%", "% Occupied"]),
            ColumnSpec("Scheduled Move-Ins", .count, required: true, synonyms: ["Move-Ins"]),
            ColumnSpec("Scheduled Move-Outs", .count, required: true, synonyms: ["Move-Outs"]),
            ColumnSpec("Projected Occupied At Week End", .count, required: true,
                       synonyms: ["Projected # Occupied At Week End", "Projected # Occupied", "Projected Occupied"]),
            ColumnSpec("Projected %", .percent, synonyms: ["Projected % Occupied At Week End", "Projected % Occupied"]),
        ]
    }

    static let layouts = [
        HeaderLayout(report: .projectedOccupancy, name: "week beginning", columns: columns(week: ColumnSpec(
            "Week Beginning", .date, required: true,
            synonyms: ["Week Begin", "Week Of", "Week Start", "Week Starting", "Week"]))),
        HeaderLayout(report: .projectedOccupancy, name: "week ending", columns: columns(week: ColumnSpec(
            "Week Ending", .date, required: true, synonyms: ["Week End", "End of Week"]))),
    ]

    let header: HeaderMap
    let context: ParseContext
    let weekColumn: String
    let weekEnds: Bool
    private var moveIns = 0
    private var moveOuts = 0

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
        weekEnds = layoutIndex == 1
        weekColumn = weekEnds ? "Week Ending" : "Week Beginning"
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .label, .continuation:
            return true
        case .total(let label, _):
            context.crossCheck("scheduled move-ins", computed: moveIns, printed: try view.count("Scheduled Move-Ins"),
                               label: label, row: row.number)
            context.crossCheck("scheduled move-outs", computed: moveOuts,
                               printed: try view.count("Scheduled Move-Outs"), label: label, row: row.number)
            return true
        case .data:
            guard let week = try view.date(weekColumn) else { return true }
            let record = ProjectedOccupancyRow(
                weekStart: weekEnds ? week.adding(days: -6) : week, weekEnd: weekEnds ? week : week.adding(days: 6),
                occupiedBegin: try view.requiredCount("Occupied At Week Begin"),
                occupiedBeginPct: try view.percent("% Occupied At Week Begin"),
                scheduledMoveIns: try view.requiredCount("Scheduled Move-Ins"),
                scheduledMoveOuts: try view.requiredCount("Scheduled Move-Outs"),
                projectedOccupied: try view.requiredCount("Projected Occupied At Week End"),
                projectedPct: try view.percent("Projected %"), totalUnits: context.title.totalUnits,
                sourceRow: row.number)
            let expected = record.occupiedBegin + record.scheduledMoveIns - record.scheduledMoveOuts
            if expected != record.projectedOccupied {
                context.warn("week of \(week.iso) (row \(row.number)): \(record.occupiedBegin) occupied + "
                    + "\(record.scheduledMoveIns) move-ins - \(record.scheduledMoveOuts) move-outs = \(expected) "
                    + "but the projected occupied at week end says \(record.projectedOccupied)")
            }
            moveIns += record.scheduledMoveIns
            moveOuts += record.scheduledMoveOuts
            records.append(.projectedOccupancy(record))
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}
}
