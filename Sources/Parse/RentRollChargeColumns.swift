import OwnerDashCore
import XLSXKit

/// The Rent Roll Detail as sites save it to CSV: one row per unit and one column per charge code (RentRollParser's
/// `chargeColumns` layout; docs/onesite-reports.md, "Rent Roll Detail (4043)").
///
/// The header names the unit's columns (Unit ... Lease End, the market rent titled by the Display parameter, Dep On
/// Hand, Balance, Total Charges), then one column per charge code, its code padded with blanks; which codes and in
/// what order changes from one export to the next, so every header column no layout column names is a code. Each
/// unit row becomes a `RentRollRow` and one `RentRollChargeRow` per code it bills (a non-zero amount), in column
/// order, with the amount under the code (`codeAmount`). The file prints no Lease Rent: `actualRent` stays nil and
/// the sync sums the codes of the configured rent category (RealPageUnits.rentRollLeaseRent), as the ledger does.
///
/// | raw field (realpage_rent_roll) | header as printed |
/// |---|---|
/// | unit_number, floorplan, unit_designation, sqft, status | Unit*, Floor Plan, Unit Designation, SQFT, Unit/Lease Status* |
/// | resident_name, phone, email | Name (`FAA, *`: a hidden first name, kept as printed), Phone Number, Email |
/// | move_in_date, notice_for_date, move_out_date, lease_start, lease_end | Move-In, Notice For Date, Move-Out, Lease Start, Lease End |
/// | market_rent | Market + Addl.* or Market Rent* (the Display parameter) |
/// | deposits_on_hand, balance, total_charges | Dep On Hand, Balance, Total Charges* |
/// | code, amount (realpage_rent_roll_charges) | every header right of Total Charges (`RENT` padded to 30 characters) |
///
/// Checks: a unit's Total Charges against the sum of its codes (a warning naming the unit and row); `TOTAL` against
/// the units' market rent, deposits on hand, balance, total charges and every code (ParseContext.crossCheck: a
/// warning naming the row and measure, kept for the sync's reconciliation). Reading stops at `TOTAL`: below it come
/// a blank row and the title block repeated in the last column, which is not a unit.
struct RentRollChargeColumns {
    /// Codes as printed (trimmed) and their sheet columns, left to right.
    let codes: [(code: String, column: Int)]
    let header: HeaderMap
    let context: ParseContext

    private var sums = Sums()

    /// What the unit rows add up to, for `TOTAL`.
    private struct Sums {
        var market = Money.zero, deposits = Money.zero, balance = Money.zero, totalCharges = Money.zero
        var codes: [Money] = []
    }

    /// The layout's money columns, the ones a code column cannot be.
    static let unitColumns = ["Market Rent", "Dep on Hand", "Balance", "Total Charges"]

    init(header: HeaderMap, context: ParseContext) throws {
        self.header = header; self.context = context
        // The codes come after Total Charges; an unnamed column left of it is not a code.
        let last = header.spans["Total Charges"]?.upperBound ?? -1
        codes = header.unclaimedColumns.filter { $0.column > last }.map { (HeaderText.display($0.text), $0.column) }
        var seen = Set<String>()
        for (code, _) in codes where !seen.insert(code.uppercased()).inserted {
            throw context.error(.badValue, row: header.lastRow, column: code,
                                "charge code printed in two columns: their amounts cannot be told apart")
        }
        sums.codes = Array(repeating: .zero, count: codes.count)
    }

    /// Sheet columns holding amounts: the named ones and every code's.
    var mappedColumns: Set<Int> { header.mappedColumns.union(codes.map(\.column)) }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        switch kind {
        case .continuation:
            return true
        case .label:
            // A unit without a single amount still names its unit and status.
            let view = RowView(row: row, header: header, context: context)
            guard view.text("Unit") != nil, view.text("Unit/Lease Status") != nil else { return true }
            try take(view, into: &records)
            return true
        case .data:
            try take(RowView(row: row, header: header, context: context), into: &records)
            return true
        case .total(let label, _):
            try check(RowView(row: row, header: header, context: context, countsForMoneyGuard: false), label: label)
            return false
        }
    }

    private mutating func take(_ view: RowView, into records: inout [ReportRecord]) throws {
        guard let unit = view.text("Unit") else {
            throw context.error(.badValue, row: view.number, column: header.printed["Unit"] ?? "Unit",
                                "amounts on a row that names no unit")
        }
        let unitRow = RentRollRow(
            unitNumber: unit, floorplan: view.text("Floor Plan"), sqft: try view.count("SQFT"),
            residentName: view.firstLine("Name"), status: view.text("Unit/Lease Status"),
            marketRent: try view.money("Market Rent"), moveInDate: try view.date("Move-In"),
            leaseStart: try view.date("Lease Start"), leaseEnd: try view.leaseEnd("Lease End"),
            moveOutDate: try view.date("Move-Out"), balance: try view.money("Balance"),
            unitDesignation: view.text("Unit Designation"), phone: view.text("Phone Number"),
            email: view.text("Email"), noticeForDate: try view.date("Notice For Date"),
            depositsOnHand: try view.money("Dep on Hand"), totalCharges: try view.money("Total Charges"),
            sourceRow: view.number)
        var charges: [RentRollChargeRow] = []
        var billed = Money.zero
        for (index, code) in codes.enumerated() {
            guard let amount = try view.money(atColumn: code.column, printed: code.code) else { continue }
            sums.codes[index] += amount
            billed += amount
            guard amount != .zero else { continue }
            charges.append(RentRollChargeRow(unitNumber: unit, residentID: nil, unitRow: view.number, code: code.code,
                                             leaseRent: nil, otherCharges: nil, sourceRow: view.number,
                                             codeAmount: amount))
        }
        if let printed = unitRow.totalCharges, printed != billed {
            context.warn("unit \(unit) (row \(view.number)): its charge codes sum to \(billed) but Total Charges "
                         + "says \(printed)")
        }
        sums.market += unitRow.marketRent ?? .zero
        sums.deposits += unitRow.depositsOnHand ?? .zero
        sums.balance += unitRow.balance ?? .zero
        sums.totalCharges += unitRow.totalCharges ?? .zero
        records.append(.rentRoll(unitRow))
        records += charges.map { .rentRollCharge($0) }
    }

    private func check(_ view: RowView, label: String) throws {
        context.crossCheck("market rent", computed: sums.market, printed: try view.money("Market Rent"),
                           label: label, row: view.number)
        context.crossCheck("deposits on hand", computed: sums.deposits, printed: try view.money("Dep on Hand"),
                           label: label, row: view.number)
        context.crossCheck("balance", computed: sums.balance, printed: try view.money("Balance"),
                           label: label, row: view.number)
        context.crossCheck("total charges", computed: sums.totalCharges, printed: try view.money("Total Charges"),
                           label: label, row: view.number)
        for (index, code) in codes.enumerated() {
            context.crossCheck("code \(code.code)", computed: sums.codes[index],
                               printed: try view.money(atColumn: code.column, printed: code.code),
                               label: label, row: view.number)
        }
    }
}
