import OwnerDashCore
import XLSXKit

/// Rent Roll Detail (report 4043): one `RentRollRow` per unit, its current lease.
///
/// Layout (docs/onesite-reports.md, "Rent Roll Detail (4043)"): the first row of a unit is its current lease (or the
/// vacant unit). It may be followed by
/// - Trans Code rows (Unit blank, one per scheduled charge): they belong to the unit above; the unit's
///   `actualRent` is the sum of Lease Rent over its own row and these rows. Each code of the current lease (the
///   unit's own row's code first) is also kept as a `RentRollChargeRow` (realpage_rent_roll_charges), emitted after
///   its unit's record: the recurring-charge schedule where RPX getscheduledcharges is refused;
/// - rows for applicants and former residents (a Name or Status, Unit blank or repeated, amounts marked `*`):
///   **skipped**, with their Trans Code rows. RealPage excludes them from its totals, and one row per unit
///   keeps `realpage_rent_roll` a unit list that occupancy can be counted from; the applicant's lease shows
///   up again as the unit's current lease once it starts.
///
/// Parsing stops at the summary sections (`Rent Analysis by Floor Plan`, `Occupancy and Rents Summary`,
/// `Summary Billing by ...`). `Totals` rows are checked against the units' Market Rent, Lease Rent, Balance.
///
/// Header synonyms (case, spaces, hyphens, dots ignored; 2-row headers joined, `Unit/Lease` over `Status`):
///
/// | raw field (realpage_rent_roll) | column | OneSite header texts |
/// |---|---|---|
/// | unit_number | Unit* | Unit, Bldg/Unit, Bldg-Unit, Unit Number, Unit # |
/// | building | Building | Bldg, Building |
/// | floorplan | Floor Plan | Floor Plan, Floorplan, Floor Plan Code |
/// | sqft | SQFT | SQFT, Sq Ft, SqFt, Square Feet, Rentable SQFT |
/// | status | Unit/Lease Status* | Unit/Lease Status, Status, Lease Status, Unit Status |
/// | resident_name | Name | Name, Resident, Resident Name |
/// | resident_id | Resident ID | Resh ID, Resident ID, Resident Code |
/// | move_in_date, move_out_date | Move-In/Move-Out | Move-In/Move-Out, Move-In/Out (stacked `in\nout`) |
/// | move_in_date | Move-In | Move-In, Move In Date |
/// | move_out_date | Move-Out | Move-Out, Move Out Date |
/// | lease_start | Lease Start | Lease Start, Lease Start Date, Lease Begin |
/// | lease_end | Lease End | Lease End, Lease End Date, Lease Expiration |
/// | market_rent | Market Rent* | Market Rent, Market + Addl., Market Effective Rent, Market |
/// | code (realpage_rent_roll_charges) | Trans Code | Trans Code, Transaction Code, Charge Code |
/// | actual_rent | Lease Rent* | Lease Rent, Actual Rent |
/// | balance | Balance | Balance, Current Balance, Account Balance |
///
/// | other_charges (realpage_rent_roll_charges) | Other Charges/Credits | Other Charges/Credits, Other Charges |
///
/// | unit_designation | Unit Designation | Unit Designation |
/// | deposits_on_hand | Dep on Hand | Dep on Hand, Deposits on Hand |
///
/// `*` = required. Total Billing, and the "(Excel)" variant's Lease ID and Required Deposit, are recognised (so
/// amounts there are not taken for a misaligned header) but not stored.
///
/// The other layout, one row per unit and one column per charge code (`RENT ROLL DETAIL` saved as CSV, with Phone
/// Number, Email, Notice For Date, Dep On Hand, Balance and Total Charges, no Trans Code or Lease Rent), is read by
/// `RentRollChargeColumns`.
struct RentRollParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .rentRoll, name: "detail", columns: [
            ColumnSpec("Unit", .text, required: true, synonyms: ["Bldg/Unit", "Bldg-Unit", "Unit Number", "Unit #"]),
            ColumnSpec("Building", .text, synonyms: ["Bldg"]),
            ColumnSpec("Floor Plan", .text, synonyms: ["Floorplan", "Floor Plan Code"]),
            ColumnSpec("SQFT", .count, synonyms: ["Sq Ft", "Square Feet", "Rentable SQFT"]),
            ColumnSpec("Unit/Lease Status", .text, required: true, synonyms: ["Status", "Lease Status", "Unit Status"]),
            ColumnSpec("Name", .text, synonyms: ["Resident", "Resident Name"]),
            ColumnSpec("Resident ID", .text, synonyms: ["Resh ID", "Resident Code"]),
            ColumnSpec("Move-In/Move-Out", .date, synonyms: ["Move-In/Out", "Move In/Move Out"]),
            ColumnSpec("Move-In", .date, synonyms: ["Move In Date"]),
            ColumnSpec("Move-Out", .date, synonyms: ["Move Out Date"]),
            ColumnSpec("Lease Start", .date, synonyms: ["Lease Start Date", "Lease Begin"]),
            ColumnSpec("Lease End", .date, synonyms: ["Lease End Date", "Lease Expiration"]),
            ColumnSpec("Market Rent", .money, required: true,
                       synonyms: ["Market + Addl.", "Market Effective Rent", "Market", "Market Rent + Addl."]),
            ColumnSpec("Trans Code", .text, synonyms: ["Transaction Code", "Charge Code"]),
            ColumnSpec("Lease Rent", .money, required: true, synonyms: ["Actual Rent"]),
            ColumnSpec("Other Charges/Credits", .money, synonyms: ["Other Charges", "Other Charges/ Credits"]),
            ColumnSpec("Total Billing", .money),
            ColumnSpec("Dep on Hand", .money, synonyms: ["Deposits on Hand", "Deposit on Hand"]),
            ColumnSpec("Balance", .money, synonyms: ["Current Balance", "Account Balance"]),
            ColumnSpec("Unit Designation", .text),
            // The "(Excel)" variant's: recognised, so their values are not taken for drifted ones; not stored.
            ColumnSpec("Lease ID", .text),
            ColumnSpec("Required Deposit", .money),
        ]),
        // One row per unit, one column per charge code (RentRollChargeColumns): the export sites save as CSV.
        HeaderLayout(report: .rentRoll, name: "charge columns", columns: [
            ColumnSpec("Unit", .text, required: true, synonyms: ["Bldg/Unit", "Bldg-Unit", "Unit Number", "Unit #"]),
            ColumnSpec("Floor Plan", .text, synonyms: ["Floorplan", "Floor Plan Code"]),
            ColumnSpec("Unit Designation", .text),
            ColumnSpec("SQFT", .count, synonyms: ["Sq Ft", "Square Feet", "Rentable SQFT"]),
            ColumnSpec("Unit/Lease Status", .text, required: true),
            ColumnSpec("Name", .text, synonyms: ["Resident", "Resident Name"]),
            ColumnSpec("Phone Number", .text, synonyms: ["Phone"]),
            ColumnSpec("Email", .text, synonyms: ["E-mail", "Email Address"]),
            ColumnSpec("Move-In", .date, synonyms: ["Move In Date"]),
            ColumnSpec("Notice For Date", .date, synonyms: ["Notice For", "Notice Date"]),
            ColumnSpec("Move-Out", .date, synonyms: ["Move Out Date"]),
            ColumnSpec("Lease Start", .date, synonyms: ["Lease Start Date", "Lease Begin"]),
            ColumnSpec("Lease End", .date, synonyms: ["Lease End Date", "Lease Expiration"]),
            ColumnSpec("Market Rent", .money, required: true,
                       synonyms: ["Market + Addl.", "Market Effective Rent", "Market Rent + Addl."]),
            ColumnSpec("Dep on Hand", .money, synonyms: ["Deposits on Hand", "Deposit on Hand"]),
            ColumnSpec("Balance", .money, synonyms: ["Current Balance", "Account Balance"]),
            ColumnSpec("Total Charges", .money, required: true),
        ]),
    ]

    /// Summary sections printed after the unit detail.
    static let summarySections = [
        "Rent Analysis by Floor Plan", "Occupancy and Rents Summary", "Summary Billing", "Summary Groups",
        "Summary by", "Rent Roll Summary",
    ]

    let header: HeaderMap
    let context: ParseContext
    /// The charge-code-column layout's reader; nil for the Trans Code layout.
    private var chargeColumns: RentRollChargeColumns?

    /// The current unit's record, held until its Trans Code rows have passed.
    private var pending: RentRollRow?
    private var pendingRent: Money?
    /// The current lease's transaction codes, emitted after the unit's record.
    private var pendingCharges: [RentRollChargeRow] = []
    /// Whose Trans Code rows are coming: the current lease's, or a skipped applicant's/former resident's.
    private var chargesBelongToCurrentLease = false
    private var sectionSums = Sums()
    private var allSums = Sums()

    private struct Sums {
        var market = Money.zero, rent = Money.zero, balance = Money.zero
        var units = 0
        mutating func add(_ row: RentRollRow) {
            market += row.marketRent ?? .zero; rent += row.actualRent ?? .zero; balance += row.balance ?? .zero
            units += 1
        }
    }

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) throws {
        self.header = header; self.context = context
        if Self.layouts[layoutIndex].name == "charge columns" {
            chargeColumns = try RentRollChargeColumns(header: header, context: context)
        }
    }

    /// The named columns, and the charge-code-column layout's code columns.
    var mappedColumns: Set<Int> { chargeColumns?.mappedColumns ?? header.mappedColumns }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        if chargeColumns != nil { return try chargeColumns!.consume(row, kind: kind, into: &records) }
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .continuation:
            return true
        case .label(let text):
            if text.isSectionTitle(Self.summarySections) {
                flush(into: &records)
                return false
            }
            // A unit with no amounts at all (a down unit) still names its unit and status.
            guard view.text("Unit") != nil, view.text("Unit/Lease Status") != nil else { return true }
            try take(view, into: &records)
            return true
        case .total(let label, _):
            let view = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
            flush(into: &records)
            let key = HeaderText.key(label)
            // `Totals:` right after the last building's total covers the whole report, not the (empty) section.
            let isGrand = key.hasPrefix("grand") || key.hasPrefix("property") || sectionSums.units == 0
            try check(isGrand ? allSums : sectionSums, against: view, label: label)
            if !isGrand { sectionSums = Sums() }
            return true
        case .data:
            try take(view, into: &records)
            return true
        }
    }

    private mutating func take(_ view: RowView, into records: inout [ReportRecord]) throws {
        let unit = view.text("Unit")
        let startsPerson = view.text("Name") != nil || view.text("Unit/Lease Status") != nil
        if let unit, unit != pending?.unitNumber {
            flush(into: &records)
            let row = try makeRow(view, unit: unit)
            pending = row
            pendingRent = try view.money("Lease Rent")
            chargesBelongToCurrentLease = true
            try keepCharge(view, of: row)
        } else if startsPerson {
            // An applicant's or former resident's line under the unit's current lease: not current, skipped.
            chargesBelongToCurrentLease = false
        } else if view.text("Trans Code") != nil || view.has("Trans Code") == false {
            let rent = try view.money("Lease Rent")
            if chargesBelongToCurrentLease, let unitRow = pending {
                if let rent { pendingRent = (pendingRent ?? .zero) + rent }
                try keepCharge(view, of: unitRow)
            }
        }
    }

    /// Keeps the row's transaction code (if it prints one) as a charge of the unit's current lease.
    private mutating func keepCharge(_ view: RowView, of unit: RentRollRow) throws {
        guard let code = view.text("Trans Code") else { return }
        pendingCharges.append(RentRollChargeRow(
            unitNumber: unit.unitNumber, residentID: unit.residentID, unitRow: unit.sourceRow, code: code,
            leaseRent: try view.money("Lease Rent"), otherCharges: try view.money("Other Charges/Credits"),
            sourceRow: view.number))
    }

    mutating func finish(into records: inout [ReportRecord]) throws { flush(into: &records) }

    private mutating func flush(into records: inout [ReportRecord]) {
        guard var row = pending else { return }
        row.actualRent = pendingRent
        sectionSums.add(row); allSums.add(row)
        records.append(.rentRoll(row))
        records += pendingCharges.map { .rentRollCharge($0) }
        pending = nil; pendingRent = nil; pendingCharges = []
        chargesBelongToCurrentLease = false
    }

    private func makeRow(_ view: RowView, unit: String) throws -> RentRollRow {
        var moveIn = try view.date("Move-In")
        var moveOut = try view.date("Move-Out")
        let stacked = try view.stackedDates("Move-In/Move-Out")
        if moveIn == nil, let first = stacked.first { moveIn = first }
        if moveOut == nil, stacked.count > 1 { moveOut = stacked[1] }
        return RentRollRow(
            unitNumber: unit, building: view.text("Building"), floorplan: view.text("Floor Plan"),
            sqft: try view.count("SQFT"), residentID: view.text("Resident ID"), residentName: view.firstLine("Name"),
            status: view.text("Unit/Lease Status"), marketRent: try view.money("Market Rent"), actualRent: nil,
            moveInDate: moveIn, leaseStart: try view.date("Lease Start"), leaseEnd: try view.leaseEnd("Lease End"),
            moveOutDate: moveOut, balance: try view.money("Balance"), unitDesignation: view.text("Unit Designation"),
            depositsOnHand: try view.money("Dep on Hand"), sourceRow: view.number)
    }

    private func check(_ sums: Sums, against view: RowView, label: String) throws {
        context.crossCheck("market rent", computed: sums.market, printed: try view.money("Market Rent"),
                           label: label, row: view.number)
        context.crossCheck("lease rent", computed: sums.rent, printed: try view.money("Lease Rent"),
                           label: label, row: view.number)
        context.crossCheck("balance", computed: sums.balance, printed: try view.money("Balance"),
                           label: label, row: view.number)
    }
}
