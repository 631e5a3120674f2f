import OwnerDashCore
import XLSXKit

/// Lost Rent Summary (report 4279): one `LostRentRow` per unit (or per floor plan, when the report is summarized
/// by floor plan): what the unit could have earned at market rent and where the difference went.
///
/// Layout ([I] for the exact columns — bary249/NASAdash's parser of the real export (an .xlsx named .xls, a clean
/// table under a few title lines with `Fiscal period: 012026`) reads Bldg-Unit, Resident Name, Move In/Out Date,
/// Days Occupied, Market Rent, Lease Rent, Rent Charged, Loss to Rent, Gain to Rent, Vacancy Current, Vacancy
/// Adjustments and Lost Rent Not Charged; concessions and other losses are the brief's, as OneSite's gain/loss
/// and vacancy task names them): one row per unit, optionally under floor plan group labels, each group ending
/// `Total ...` and the report `Totals` / `Grand Total`. Every printed total amount is checked against the rows it
/// covers (a total right after another covers the whole report); differences are warnings. Numbers stored as text
/// (`"1450"`, `"0"`) read as numbers. Losses are stored as printed (positive amounts of rent lost).
///
/// | raw field (realpage_lost_rent) | column | OneSite header texts |
/// |---|---|---|
/// | unit_number | Unit* (by unit) | Unit, Bldg-Unit, Bldg/Unit, Unit Number |
/// | floorplan | Floor Plan* (by floor plan) | Floor Plan, Floorplan, Floor Plan Name |
/// | resident_name | Resident Name | Resident Name, Resident, Name |
/// | move_in_date, move_out_date | Move In Date, Move Out Date | Move In Date, Move-In; Move Out Date, Move-Out |
/// | days_occupied | Days Occupied | Days Occupied |
/// | market_rent | Market Rent* | Market Rent, Market |
/// | lease_rent | Lease Rent | Lease Rent, Actual Rent |
/// | rent_charged | Rent Charged | Rent Charged |
/// | loss_to_lease | Loss to Lease* | Loss to Lease, Loss to Rent, Loss to Old Lease |
/// | gain_to_lease | Gain to Lease | Gain to Lease, Gain to Rent, Gain to Old Lease |
/// | vacancy_loss | Vacancy Loss | Vacancy Loss, Vacancy, Vacancy Current |
/// | vacancy_adjustments | Vacancy Adjustments | Vacancy Adjustments |
/// | concessions | Concessions | Concessions, Concession Loss |
/// | other_losses | Other Losses | Other Losses, Other Loss, Admin/Down, Non-Revenue |
/// | total_lost_rent | Total Lost Rent | Total Lost Rent, Total Loss, Lost Rent, Lost Rent Not Charged |
///
/// `*` = required: Market Rent and Loss to Lease, with Unit (by unit) or Floor Plan (by floor plan).
struct LostRentSummaryParser: OneSiteReportParser {
    static func columns(key: ColumnSpec, other: ColumnSpec) -> [ColumnSpec] {
        [
            key, other,
            ColumnSpec("Resident Name", .text, synonyms: ["Resident", "Name", "Account Name"]),
            ColumnSpec("Move In Date", .date, synonyms: ["Move-In"]),
            ColumnSpec("Move Out Date", .date, synonyms: ["Move-Out"]),
            ColumnSpec("Days Occupied", .count),
            ColumnSpec("Market Rent", .money, required: true, synonyms: ["Market"]),
            ColumnSpec("Lease Rent", .money, synonyms: ["Actual Rent"]),
            ColumnSpec("Rent Charged", .money),
            ColumnSpec("Loss to Lease", .money, required: true, synonyms: ["Loss to Rent", "Loss to Old Lease"]),
            ColumnSpec("Gain to Lease", .money, synonyms: ["Gain to Rent", "Gain to Old Lease"]),
            ColumnSpec("Vacancy Loss", .money, synonyms: ["Vacancy", "Vacancy Current", "Vacancy Current Period"]),
            ColumnSpec("Vacancy Adjustments", .money, synonyms: ["Vacancy Adjustments to Prior Period"]),
            ColumnSpec("Concessions", .money, synonyms: ["Concession Loss"]),
            ColumnSpec("Other Losses", .money, synonyms: ["Other Loss", "Admin/Down", "Non-Revenue"]),
            ColumnSpec("Total Lost Rent", .money, synonyms: ["Total Loss", "Lost Rent", "Lost Rent Not Charged"]),
            ColumnSpec("Location ID", .text, synonyms: ["Location"]),
            ColumnSpec("Location Name", .text),
        ]
    }

    static let layouts = [
        HeaderLayout(report: .lostRent, name: "by unit", columns: columns(
            key: ColumnSpec("Unit", .text, required: true, synonyms: ["Bldg-Unit", "Bldg/Unit", "Unit Number"]),
            other: ColumnSpec("Floor Plan", .text, synonyms: ["Floorplan", "Floor Plan Name"]))),
        HeaderLayout(report: .lostRent, name: "by floor plan", columns: columns(
            key: ColumnSpec("Floor Plan", .text, required: true, synonyms: ["Floorplan", "Floor Plan Name"]),
            other: ColumnSpec("Unit", .text, synonyms: ["Bldg-Unit", "Bldg/Unit", "Unit Number"]))),
    ]

    /// The amount columns, in record order, with the words a warning uses for each.
    static let amounts = [
        ("Market Rent", "market rent"), ("Lease Rent", "lease rent"), ("Rent Charged", "rent charged"),
        ("Loss to Lease", "loss to lease"), ("Gain to Lease", "gain to lease"), ("Vacancy Loss", "vacancy loss"),
        ("Vacancy Adjustments", "vacancy adjustments"), ("Concessions", "concessions"),
        ("Other Losses", "other losses"), ("Total Lost Rent", "total lost rent"),
    ]

    let header: HeaderMap
    let context: ParseContext
    let byUnit: Bool
    private var sinceTotal = Array(repeating: Money.zero, count: Self.amounts.count)
    private var all = Array(repeating: Money.zero, count: Self.amounts.count)
    private var rowsSinceTotal = 0

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context; self.byUnit = layoutIndex == 0
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .label, .continuation:
            return true
        case .total(let label, _):
            let totals = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
            // The real export prints the totals' own labels (`Total Scheduled Market Rent`, `Calculated Market`)
            // in a row above them, under the amount columns.
            if let text = totals.text("Market Rent"), (try? MoneyText.parse(text)) == nil { return true }
            let covered = rowsSinceTotal > 0 ? sinceTotal : all
            for (index, (column, what)) in Self.amounts.enumerated() {
                context.crossCheck(what, computed: covered[index], printed: try totals.money(column), label: label,
                                   row: row.number)
            }
            sinceTotal = Array(repeating: .zero, count: Self.amounts.count)
            rowsSinceTotal = 0
            return true
        case .data:
            let unit = view.text("Unit"), floorplan = view.text("Floor Plan")
            guard byUnit ? unit != nil : floorplan != nil else { return true }
            let values = try Self.amounts.map { try view.money($0.0) }
            let record = LostRentRow(
                unitNumber: unit, floorplan: floorplan, residentName: view.firstLine("Resident Name"),
                moveInDate: try view.date("Move In Date"), moveOutDate: try view.date("Move Out Date"),
                daysOccupied: try Self.daysOccupied(view), marketRent: values[0], leaseRent: values[1],
                rentCharged: values[2], lossToLease: values[3], gainToLease: values[4], vacancyLoss: values[5],
                vacancyAdjustments: values[6], concessions: values[7], otherLosses: values[8],
                totalLostRent: values[9], sourceRow: row.number)
            for (index, value) in values.enumerated() {
                sinceTotal[index] += value ?? .zero
                all[index] += value ?? .zero
            }
            rowsSinceTotal += 1
            records.append(.lostRent(record))
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}

    /// The real export prints the occupied span (`01/21/2026-02/19/2026`) where the column says Days Occupied:
    /// its length in days, both ends counted.
    static func daysOccupied(_ view: RowView) throws -> Int? {
        if let text = view.text("Days Occupied"), text.contains("/"), text.contains("-") {
            let ends = text.split(separator: "-").map { $0.trimmingWhitespace }
            if ends.count == 2, let from = DateText.parseDate(ends[0]), let to = DateText.parseDate(ends[1]), from <= to {
                return to.daysSinceEpoch - from.daysSinceEpoch + 1
            }
        }
        return try view.count("Days Occupied")
    }
}
