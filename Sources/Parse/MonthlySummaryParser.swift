import OwnerDashCore
import XLSXKit

/// Monthly Activity Summary (report 3877, code `mgt-542-001`): one `MonthlySummaryRow` for the period.
///
/// Layout (docs/onesite-reports.md, "Monthly Activity Summary (3877)"): three sections, each with its own header and
/// floor plan rows ending `Totals`: Occupancy activity (each floor plan kept as a `MonthlySummaryFloorPlanRow`, its
/// `Totals` row checked against them), Accounting activity, Leasing activity detail (one row per event with an Action,
/// in groups ending `Total <Action>: N`). Sections are recognised by their headers wherever they start; page headers
/// repeat.
///
/// - month: the As of month (`YYYY-MM`); a report without an As of date is an error.
/// - move_ins, move_outs, renewals: the Accounting section's `Totals` row (checked against the sum of its
///   floor plan rows), or that sum when there is no `Totals` row. Without an Accounting section, move-ins and
///   move-outs are counted from the detail's `Moved In` / `Moved Out` actions, and renewals from `Renewed Lease`.
/// - notices: detail rows with Action `Move Out Notice`; nil when the report has no detail section.
/// - evictions, skips: detail rows whose Action mentions eviction / skip; nil when there are none, because
///   OneSite's action list has no such action and an absent action cannot be told from zero.
///
/// | raw field (realpage_monthly_summary) | section | column | OneSite header texts |
/// |---|---|---|---|
/// | move_ins | Accounting | Move-ins* | Move-ins, Move-\nins, Move Ins |
/// | move_outs | Accounting | Move-outs* | Move-outs, Move-\nouts, Move Outs |
/// | renewals | Accounting | Renewals | Renewals |
/// | notices, skips, evictions | Leasing detail | Action* (+ Date*) | Action, Activity; Date, Action Date |
/// | realpage_monthly_summary_floorplans (one row per floor plan) | Occupancy | Floor plan*, Total Units*, Occupied no NTV* | + Market Rent, Total Base Rent, Total SQFT, Vacant Not Leased, Vacant Leased, Occupied NTV not Leased, Occupied NTV Leased, Vacant Admini-\nstrative, Vacant Down |
///
/// `*` = required for the section to be recognised.
struct MonthlySummaryParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .monthlySummary, name: "occupancy activity", columns: [
            ColumnSpec("Floor plan", .text, required: true, synonyms: ["Floorplan", "Floor Plan Name"]),
            ColumnSpec("Total Units", .count, required: true, synonyms: ["Units"]),
            ColumnSpec("Occupied no NTV", .count, required: true),
            ColumnSpec("Vacant Not Leased", .count),
            ColumnSpec("Vacant Leased", .count),
            ColumnSpec("Occupied NTV not Leased", .count),
            ColumnSpec("Occupied NTV Leased", .count),
            ColumnSpec("Vacant Administrative", .count, synonyms: ["Vacant Admin"]),
            ColumnSpec("Vacant Down", .count),
            ColumnSpec("Market Rent", .money),
            ColumnSpec("Total Base Rent", .money),
            ColumnSpec("Total SQFT", .count),
        ]),
        HeaderLayout(report: .monthlySummary, name: "accounting activity", columns: [
            ColumnSpec("Floor plan", .text, synonyms: ["Floorplan", "Floor Plan Name"]),
            ColumnSpec("Move-ins", .count, required: true, synonyms: ["Move Ins"]),
            ColumnSpec("Move-outs", .count, required: true, synonyms: ["Move Outs"]),
            ColumnSpec("Cancellations/Rejections", .count, synonyms: ["Cancellations /Rejection"]),
            ColumnSpec("Renewals", .count),
            ColumnSpec("Leases", .count),
            // Amounts of the section, recognised so they are not mistaken for other columns; not stored.
            ColumnSpec("Rent Charged", .money),
            ColumnSpec("Other Charges", .money),
            ColumnSpec("Payments", .money),
            ColumnSpec("Other Credits", .money),
            ColumnSpec("Deposits In", .money),
            ColumnSpec("Deposits Out", .money),
        ]),
        HeaderLayout(report: .monthlySummary, name: "leasing activity detail", columns: [
            ColumnSpec("Unit", .text, synonyms: ["Bldg/Unit"]),
            ColumnSpec("Status", .text),
            ColumnSpec("Name", .text),
            ColumnSpec("Action", .text, required: true, synonyms: ["Activity"]),
            ColumnSpec("Date", .date, required: true, synonyms: ["Action Date"]),
        ]),
    ]

    private enum Section: Int { case occupancy = 0, accounting = 1, detail = 2 }

    /// Accounting section counts: floor plan rows summed, and what its `Totals` row prints.
    private struct Movement {
        var moveIns = 0, moveOuts = 0
        var renewals: Int?
    }

    let context: ParseContext
    private(set) var header: HeaderMap
    private var section: Section

    private var sawAccounting = false
    private var accountingRows = Movement()
    private var accountingTotals: Movement?
    private var accountingRow = 0
    private var sawDetail = false
    /// Detail events per normalized action.
    private var actions: [String: Int] = [:]
    private var groupAction: String?
    private var counter = GroupCounter()
    /// Label rows just read, to recognise a section header spread over several rows.
    private var recentLabels: [SheetRow] = []

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) throws {
        guard context.metadata.asOf != nil else {
            throw context.error(.missingAsOf, "no \"As of\" date in the title block, so the month is unknown")
        }
        self.context = context; self.header = header
        self.section = Section(rawValue: layoutIndex) ?? .occupancy
        enter(section, header: header)
    }

    private mutating func enter(_ next: Section, header next_: HeaderMap) {
        section = next; header = next_
        switch next {
        case .accounting: sawAccounting = true; accountingRow = next_.lastRow
        case .detail: sawDetail = true; groupAction = nil
        case .occupancy: break
        }
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .label, .continuation: break
        default: recentLabels.removeAll()
        }
        switch kind {
        case .label(let text), .continuation(let text):
            if let last = recentLabels.last, last.number + 1 != row.number { recentLabels.removeAll() }
            recentLabels.append(row)
            if recentLabels.count > HeaderFinder.maxHeaderRows { recentLabels.removeFirst() }
            if let (map, index) = HeaderFinder.bestComplete(Self.layouts, endingAt: recentLabels.count - 1,
                                                           in: recentLabels, merges: []),
               let next = Section(rawValue: index) {
                // A taller header finishing on this row replaces the one that ended a row earlier.
                if next != section || map.firstRow > header.lastRow || map.matchedCount > header.matchedCount {
                    enter(next, header: map)
                    return true
                }
            }
            if section == .detail, case .label = kind {
                groupAction = text
                counter.startGroup()
            }
            return true
        case .total(let label, let count):
            switch section {
            case .accounting:
                let totals = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
                accountingTotals = Movement(moveIns: try totals.count("Move-ins") ?? 0,
                                            moveOuts: try totals.count("Move-outs") ?? 0,
                                            renewals: try totals.count("Renewals"))
                accountingRow = row.number
                context.crossCheck("move-ins", computed: accountingRows.moveIns, printed: accountingTotals?.moveIns,
                                   label: label, row: row.number)
                context.crossCheck("move-outs", computed: accountingRows.moveOuts,
                                   printed: accountingTotals?.moveOuts, label: label, row: row.number)
                if let renewals = accountingRows.renewals {
                    context.crossCheck("renewals", computed: renewals, printed: accountingTotals?.renewals,
                                       label: label, row: row.number)
                }
                for (index, column) in Self.accountingFigures.enumerated() {
                    context.crossCheck(column.lowercased(), computed: accountingSums.counts[index],
                                       printed: try totals.count(column), label: label, row: row.number)
                }
                for (index, printed) in try accountingAmountValues(totals).enumerated() {
                    context.crossCheck(Self.accountingAmounts[index].lowercased(), computed: accountingSums.amounts[index],
                                       printed: printed, label: label, row: row.number)
                }
            case .detail:
                counter.check(count, label: label, row: row.number, what: "events", context: context)
            case .occupancy:
                let totals = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
                // `Totals` sits in the Floor plan column; a repeated page header's `Total Base Rent` is no total.
                guard totals.text("Floor plan") != nil else { return true }
                for (index, column) in Self.occupancyCounts.enumerated() {
                    context.crossCheck(column.lowercased(), computed: occupancySums.counts[index],
                                       printed: try totals.count(column), label: label, row: row.number)
                }
                context.crossCheck("market rent", computed: occupancySums.market,
                                   printed: try totals.money("Market Rent"), label: label, row: row.number)
                context.crossCheck("total base rent", computed: occupancySums.baseRent,
                                   printed: try totals.money("Total Base Rent"), label: label, row: row.number)
            }
            return true
        case .data:
            switch section {
            case .accounting:
                accountingRows.moveIns += try view.count("Move-ins") ?? 0
                accountingRows.moveOuts += try view.count("Move-outs") ?? 0
                for (index, column) in Self.accountingFigures.enumerated() {
                    accountingSums.counts[index] += try view.count(column) ?? 0
                }
                for (index, amount) in try accountingAmountValues(view).enumerated() {
                    accountingSums.amounts[index] += amount ?? .zero
                }
                if header.has("Renewals") {
                    accountingRows.renewals = (accountingRows.renewals ?? 0) + (try view.count("Renewals") ?? 0)
                }
                rowsUsed += 1
            case .detail:
                guard try view.date("Date") != nil, let action = view.text("Action") ?? groupAction else {
                    return true
                }
                actions[HeaderText.key(action), default: 0] += 1
                counter.add()
                rowsUsed += 1
            case .occupancy:
                guard let floorplan = view.text("Floor plan") else { return true }
                let counts = try Self.occupancyCounts.map { try view.count($0) }
                let record = MonthlySummaryFloorPlanRow(
                    floorplan: floorplan, marketRent: try view.money("Market Rent"),
                    totalBaseRent: try view.money("Total Base Rent"), totalSqft: counts[0], totalUnits: counts[1],
                    occupiedNoNotice: counts[2], vacantNotLeased: counts[3], vacantLeased: counts[4],
                    noticeNotLeased: counts[5], noticeLeased: counts[6], vacantAdministrative: counts[7],
                    vacantDown: counts[8], sourceRow: row.number)
                for (index, count) in counts.enumerated() { occupancySums.counts[index] += count ?? 0 }
                occupancySums.market += record.marketRent ?? .zero
                occupancySums.baseRent += record.totalBaseRent ?? .zero
                records.append(.monthlySummaryFloorPlan(record))
                rowsUsed += 1
            }
            return true
        }
    }

    /// Data rows read into a floor plan, the Accounting figures or a detail event (`KeptRows`).
    private var rowsUsed = 0
    var usedRows: Int? { rowsUsed }

    /// The Accounting section's other figures, summed over its floor plans and checked against its `Totals` row.
    static let accountingFigures = ["Cancellations/Rejections", "Leases"]
    static let accountingAmounts = ["Rent Charged", "Other Charges", "Payments", "Other Credits", "Deposits In",
                                    "Deposits Out"]
    private var accountingSums = (counts: [0, 0], amounts: Array(repeating: Money.zero, count: 6))

    /// Rent Charged ... Deposits Out of one row. The real export's merged headers put each amount under its left
    /// neighbour's span, so a row printing all six amounts right of Leases is read in printed order; else by header.
    private func accountingAmountValues(_ view: RowView) throws -> [Money?] {
        let start = (header.spans["Leases"]?.upperBound ?? header.spans["Move-outs"]?.upperBound ?? 0) + 1
        var amounts: [Money] = []
        for column in view.row.cells.indices where column >= start {
            let cell = view.row.cells[column]
            switch cell {
            case .number: if let money = try? cell.money() { amounts.append(money) }
            case .text(let text): if let money = try? MoneyText.parse(text), text.contains(where: \.isASCIIDigit) { amounts.append(money) }
            default: continue
            }
        }
        if amounts.count == Self.accountingAmounts.count { return amounts }
        return try Self.accountingAmounts.map { try view.money($0) }
    }

    /// The occupancy section's count columns, in `MonthlySummaryFloorPlanRow` order.
    static let occupancyCounts = ["Total SQFT", "Total Units", "Occupied no NTV", "Vacant Not Leased", "Vacant Leased",
                                  "Occupied NTV not Leased", "Occupied NTV Leased", "Vacant Administrative",
                                  "Vacant Down"]

    /// The occupancy section's floor plan rows summed, for its `Totals` row.
    private var occupancySums = (counts: Array(repeating: 0, count: 9), market: Money.zero, baseRent: Money.zero)

    mutating func finish(into records: inout [ReportRecord]) throws {
        guard let asOf = context.metadata.asOf else { return }
        let month = String(asOf.iso.prefix(7))
        let movement: Movement
        if sawAccounting {
            movement = accountingTotals ?? accountingRows
        } else if sawDetail {
            movement = Movement(moveIns: actions["movedin"] ?? 0, moveOuts: actions["movedout"] ?? 0,
                                renewals: actions["renewedlease"] ?? 0)
        } else {
            throw context.error(.missingColumn, row: header.firstRow,
                                "no Accounting activity section (Move-ins, Move-outs) and no Leasing activity detail")
        }
        let evictions = actions.filter { $0.key.contains("evict") }.values.reduce(0, +)
        let skips = actions.filter { $0.key.contains("skip") }.values.reduce(0, +)
        records.append(.monthlySummary(MonthlySummaryRow(
            month: month, moveIns: movement.moveIns, moveOuts: movement.moveOuts,
            renewals: movement.renewals ?? (sawDetail ? actions["renewedlease"] ?? 0 : nil),
            notices: sawDetail ? actions["moveoutnotice"] ?? 0 : nil,
            skips: skips > 0 ? skips : nil, evictions: evictions > 0 ? evictions : nil,
            sourceRow: accountingRow)))
    }
}
