import OwnerDashCore
import XLSXKit

/// Delinquent and Prepaid (report 4009, code `120.080.106`) and the simpler Delinquency layout: one
/// `DelinquencyRow` per resident account.
///
/// **Per-code layout** (docs/onesite-reports.md, "Delinquent and Prepaid (4009)"): per account an account row (Unit,
/// Name, Status, Move-In/Out, deposits), then one row per transaction code (RENT, LATEFEE, ...) with its amounts, then
/// `Subtotals:`. The account's amounts are the `Subtotals:` row when it has one (what RealPage prints as the account
/// total), else the sum of its code rows; when both exist they are compared and a difference is a warning. Parsing
/// stops at `Summary By Transaction Code` / `Summary by General Ledger Account` (indented in the real export). The
/// Grand Totals' prepaid, delinquent, net and aging amounts are checked against the accounts, and so are the rows under
/// them: `Resident Count:` (accounts with a positive prepaid, delinquent, current, 30, 60, 90+ amount), `Net Prepaid:`
/// and `Net Delinquent:` (net balances of the accounts in credit / owing). The real export stacks `Name` /
/// `Phone Number` / `Email` in one header cell on the row above the others, and prints the Grand Totals' prepaid a
/// column left, in the code column's merged span.
///
/// **Simple layout**: one row per resident with a balance and aging buckets.
///
/// Aging: `Current` = 0-30 days, `30 Days` = 31-60, `60 Days` = 61-90, `90+ Days` = over 90 (same section,
/// not the twin project's shifted mapping). Prepaid is stored positive whatever its printed sign;
/// currentBalance = delinquent - prepaid (a printed Net Balance that disagrees is a warning). A report without
/// a prepaid column stores prepaid NULL (unknown, not zero). An account with no unit (Misc. Income) stores unit "".
///
/// | raw field (realpage_delinquency) | per-code column | OneSite header texts | simple column | header texts |
/// |---|---|---|---|---|
/// | unit_number | Unit* | Unit, Bldg/Unit | Unit* | Unit, Bldg/Unit |
/// | resident_name | Name | Name / Phone Number / Email, Name, Resident | Resident | Resident, Name, Resident Name |
/// | resident_id | Resident ID | Resident ID, Resh ID | Resident ID | Resident ID, Resh ID |
/// | resident_status | Status | Status, Resident Status | Status | Status, Resident Status |
/// | (code rows) | Code/Description* | Code / Description, Code, Trans Code | — | — |
/// | prepaid | Total Prepaid* | Total Prepaid, Prepaid | Prepaid | Prepaid, Prepaids |
/// | current_balance | Total Delinquent* (- prepaid) | Total Delinquent, Delinquent | Balance* | Balance, Current Balance, Total Balance |
/// | (checked) | Net Balance | Net Balance | — | — |
/// | balance_0_30 | Current* | Current | 0-30* | 0-30, 0-30 Days, Current |
/// | balance_31_60 | 30 Days* | 30 Days | 31-60* | 31-60, 31-60 Days |
/// | balance_61_90 | 60 Days* | 60 Days | 61-90* | 61-90, 61-90 Days |
/// | balance_over_90 | 90+ Days* | 90+ Days, Over 90 | Over 90* | Over 90, 90+, 91+, Over 90 Days |
///
/// `*` = required. Prorate Credits, Deposits Held, Outstanding Deposit are recognised but not stored.
struct DelinquencyParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .delinquency, name: "per code", columns: [
            ColumnSpec("Unit", .text, required: true, synonyms: ["Bldg/Unit"]),
            ColumnSpec("Name", .text, synonyms: ["Name / Phone Number / Email", "Name/Phone/Email", "Resident",
                                                 "Resident Name", "Name Phone Number Email"]),
            ColumnSpec("Resident ID", .text, synonyms: ["Resh ID", "Resident Code"]),
            ColumnSpec("Status", .text, synonyms: ["Resident Status"]),
            ColumnSpec("Move-In/Out", .date, synonyms: ["Move-In/Move-Out"]),
            ColumnSpec("Code/Description", .text, required: true,
                       synonyms: ["Code / Description", "Code Description", "Code", "Trans Code", "Transaction Code"]),
            ColumnSpec("Total Prepaid", .money, required: true, synonyms: ["Prepaid"]),
            ColumnSpec("Total Delinquent", .money, required: true, synonyms: ["Delinquent"]),
            ColumnSpec("Net Balance", .money),
            ColumnSpec("Current", .money, required: true),
            ColumnSpec("30 Days", .money, required: true),
            ColumnSpec("60 Days", .money, required: true),
            ColumnSpec("90+ Days", .money, required: true, synonyms: ["Over 90", "90 + Days"]),
            ColumnSpec("Prorate Credits", .money),
            ColumnSpec("Deposits Held", .money),
            ColumnSpec("Outstanding Deposit", .money),
            ColumnSpec("# Late/ # NSF", .text, synonyms: ["Late/NSF"]),
        ]),
        HeaderLayout(report: .delinquency, name: "simple", columns: [
            ColumnSpec("Unit", .text, required: true, synonyms: ["Bldg/Unit"]),
            ColumnSpec("Resident", .text, synonyms: ["Name", "Resident Name"]),
            ColumnSpec("Resident ID", .text, synonyms: ["Resh ID", "Resident Code"]),
            ColumnSpec("Status", .text, synonyms: ["Resident Status"]),
            ColumnSpec("Balance", .money, required: true, synonyms: ["Current Balance", "Total Balance"]),
            ColumnSpec("0-30", .money, required: true, synonyms: ["0-30 Days", "Current"]),
            ColumnSpec("31-60", .money, required: true, synonyms: ["31-60 Days"]),
            ColumnSpec("61-90", .money, required: true, synonyms: ["61-90 Days"]),
            ColumnSpec("Over 90", .money, required: true, synonyms: ["90+", "91+", "Over 90 Days", "90+ Days"]),
            ColumnSpec("Prepaid", .money, synonyms: ["Prepaids"]),
        ]),
    ]

    static let trailerSections = ["Summary By Transaction Code", "Summary by General Ledger", "Summary by GL"]

    let header: HeaderMap
    let context: ParseContext
    let perCode: Bool

    /// An amount set as one row (code, subtotal or simple row) prints it.
    private struct Amounts: Equatable {
        var prepaid = Money.zero, delinquent = Money.zero, net: Money?
        var current = Money.zero, days30 = Money.zero, days60 = Money.zero, days90 = Money.zero

        static func + (lhs: Amounts, rhs: Amounts) -> Amounts {
            var sum = lhs
            sum.prepaid += rhs.prepaid; sum.delinquent += rhs.delinquent
            sum.net = lhs.net.map { $0 + (rhs.net ?? .zero) } ?? rhs.net
            sum.current += rhs.current; sum.days30 += rhs.days30; sum.days60 += rhs.days60; sum.days90 += rhs.days90
            return sum
        }
    }

    /// One account being folded: its identity, the sum of its code rows, and its `Subtotals:` row.
    private struct Account {
        var unit: String
        var name: String?
        var phone: String?
        var email: String?
        var residentID: String?
        var status: String?
        var row: Int
        var codeSum = Amounts()
        var codeRows = 0
        /// The code rows, emitted as the account's children after it.
        var codes: [DelinquencyCodeRow] = []
        var subtotal: Amounts?
        var subtotalRow = 0
        /// The legend's `*` beside the name.
        var underEviction = false
    }

    /// A name cell's first line without the legend's `*` (resident under eviction), which OneSite prints beside the
    /// name, and alone where the name is hidden (HidePIIData: the real export's unit 934, a former resident, prints
    /// `*` in the name column): the name (nil when nothing else is printed) and whether the mark was there. Read as a
    /// name, the mark became a resident called `*`.
    static func evictionMark(_ text: String?) -> (name: String?, marked: Bool) {
        guard var name = text?.trimmingWhitespace, name.hasPrefix("*") || name.hasSuffix("*") else { return (text, false) }
        if name.hasPrefix("*") { name = name.dropFirst().trimmingWhitespace }
        if name.hasSuffix("*") { name = name.dropLast().trimmingWhitespace }
        return (name.isEmpty ? nil : String(name), true)
    }

    private var account: Account?
    /// Sums over emitted accounts since the last total row, for `Totals` checks.
    private var reportSums = Amounts()

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context; self.perCode = layoutIndex == 0
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .continuation(let text):
            // The real export prints its summary section titles indented, where contact lines sit.
            if text.isSectionTitle(Self.trailerSections) {
                try closeAccount(into: &records)
                glSummary.begin(at: text)
                return false
            }
            // A contact line printed on a row of its own under the account: folded into it.
            if perCode, var open = account {
                let (phone, email) = ContactText.of(row)
                open.phone = open.phone ?? phone
                open.email = open.email ?? email
                account = open
            }
            return true
        case .label(let text):
            if text.isSectionTitle(Self.trailerSections) {
                try closeAccount(into: &records)
                glSummary.begin(at: text)
                return false
            }
            // An account row with nothing numeric (no deposits, no dates) still names unit or resident.
            if perCode, isAccountRow(view) { try openAccount(view, into: &records) }
            return true
        case .total(let label, _):
            let totals = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
            if perCode, HeaderText.key(label).hasPrefix("subtotal"), account != nil {
                let subtotal = try amounts(totals)
                account?.subtotal = subtotal
                account?.subtotalRow = row.number
                try closeAccount(into: &records)
                return true
            }
            try closeAccount(into: &records)
            let printed = try amounts(totals)
            context.crossCheck("delinquent", computed: reportSums.delinquent, printed: printed.delinquent,
                               label: label, row: row.number)
            context.crossCheck("prepaid", computed: reportSums.prepaid, printed: printed.prepaid, label: label,
                               row: row.number)
            if let net = printed.net {
                context.crossCheck(perCode ? "net balance" : "balance", computed: reportSums.net ?? .zero,
                                   printed: net, label: label, row: row.number)
            }
            if perCode {
                // Only the aging amounts the row prints (a blank is not a zero).
                for (what, column, computed) in [("current", "Current", reportSums.current),
                                                 ("30 days", "30 Days", reportSums.days30),
                                                 ("60 days", "60 Days", reportSums.days60),
                                                 ("90+ days", "90+ Days", reportSums.days90)] {
                    context.crossCheck(what, computed: computed, printed: try totals.money(column), label: label,
                                       row: row.number)
                }
            }
            reportSums = Amounts()
            return true
        case .data:
            if perCode, account == nil, let label = row.cells.lazy.compactMap({ cell -> String? in
                if case .text(let text) = cell { return text } else { return nil }
            }).first, checkAccountFigures(label: label, row: row) {
                return true
            }
            if perCode {
                if isAccountRow(view) { try openAccount(view, into: &records) }
                if let codeText = view.text("Code/Description"), var open = account {
                    let line = try amounts(view)
                    open.codeSum = open.codeSum + line
                    open.codeRows += 1
                    let (code, description) = Self.splitCode(codeText)
                    open.codes.append(DelinquencyCodeRow(
                        unitNumber: open.unit, residentID: open.residentID, accountRow: open.row, code: code,
                        description: description, prepaid: line.prepaid, delinquent: line.delinquent,
                        balance0to30: line.current, balance31to60: line.days30, balance61to90: line.days60,
                        balanceOver90: line.days90, sourceRow: row.number))
                    account = open
                }
            } else if let unit = view.text("Unit") {
                var amounts = try amounts(view)
                amounts.net = amounts.net ?? (amounts.delinquent - amounts.prepaid)
                let (name, underEviction) = Self.evictionMark(view.firstLine("Resident"))
                var record = DelinquencyRow(
                    unitNumber: unit, residentID: view.text("Resident ID"), residentName: name,
                    residentStatus: view.text("Status"), currentBalance: amounts.net ?? .zero,
                    balance0to30: amounts.current, balance31to60: amounts.days30, balance61to90: amounts.days60,
                    balanceOver90: amounts.days90, prepaid: header.has("Prepaid") ? amounts.prepaid : nil,
                    sourceRow: row.number)
                // This layout prints no legend: a mark is read, its absence says nothing.
                record.underEviction = underEviction ? true : nil
                reportSums = reportSums + amounts
                records.append(.delinquency(record))
            }
            return true
        }
    }

    /// The `Summary by General Ledger Account` below the detail (per-code layout only), checked in `finish`.
    private var glSummary = DelinquencyGLSummary()

    mutating func consumeTrailer(_ row: SheetRow) throws -> Bool {
        guard perCode else { return false }
        glSummary.consume(row, context: context)
        return true
    }

    mutating func finish(into records: inout [ReportRecord]) throws {
        try closeAccount(into: &records)
        glSummary.finish(detailNetBalance: perCode ? netDelinquent + netPrepaid : nil, context: context)
        // `Detail - 241 Account(s)` above the header counts every account block, each Misc. Income block (unit
        // NONE) too: the real file's 239 residents and 2 Misc. Income blocks.
        if perCode, let printed = Self.printedAccountCount(context.title) {
            context.crossCheck("accounts", computed: residentAccounts + miscIncomeBlocks,
                               printed: printed, label: "Detail - \(printed) Account(s)", row: header.firstRow)
        }
    }

    private var residentAccounts = 0, miscIncomeBlocks = 0

    /// The N of `Detail - N Account(s)` in the title block.
    static func printedAccountCount(_ title: TitleBlock) -> Int? {
        for key in title.cellKeys where key.hasPrefix("detail") && key.hasSuffix("accounts") {
            if let count = Int(key.dropFirst("detail".count).dropLast("accounts".count)) { return count }
        }
        return nil
    }

    /// Accounts counted the way the Grand Totals' `Resident Count:` row counts them (accounts with a non-zero
    /// prepaid, delinquent, current, 30, 60, 90+ amount) and the `Net Prepaid:` / `Net Delinquent:` sums (the net
    /// balances of accounts in credit / owing).
    private var accountCounts = Array(repeating: 0, count: 6)
    private var netPrepaid = Money.zero, netDelinquent = Money.zero

    /// `Resident Count:`, `Net Prepaid:`, `Net Delinquent:` under the Grand Totals, checked against the accounts;
    /// false for any other row.
    private func checkAccountFigures(label: String, row: SheetRow) -> Bool {
        let key = HeaderText.key(label)
        guard ["residentcount", "netprepaid", "netdelinquent"].contains(key) else { return false }
        let numbers = row.cells.compactMap { cell -> Money? in
            if case .number = cell { return try? cell.money() } else { return nil }
        }
        let printedLabel = HeaderText.display(label)
        switch key {
        case "residentcount":
            let names = ["prepaid", "delinquent", "current", "30 days", "60 days", "90+ days"]
            for (index, name) in names.enumerated() where index < numbers.count {
                context.crossCheck("accounts with \(name)", computed: Money(cents: Int64(accountCounts[index]) * 100),
                                   printed: numbers[index], label: printedLabel, row: row.number)
            }
        case "netprepaid":
            context.crossCheck("net prepaid", computed: netPrepaid, printed: numbers.first, label: printedLabel,
                               row: row.number)
        default:
            context.crossCheck("net delinquent", computed: netDelinquent, printed: numbers.first, label: printedLabel,
                               row: row.number)
        }
        return true
    }

    /// `RENT`, `RENT\nRent`, `RENT - Rent` or `RENT Rent`: the code is the first word, the rest describes it.
    static func splitCode(_ text: String) -> (code: String, description: String?) {
        let trimmed = text.trimmingWhitespace
        guard let end = trimmed.firstIndex(where: { $0.isWhitespace || $0.isNewline }) else { return (String(trimmed), nil) }
        let rest = trimmed[end...].drop { $0.isWhitespace || $0.isNewline || $0 == "-" || $0 == "\u{2013}" }
        return (String(trimmed[..<end]), rest.isEmpty ? nil : String(rest).replacingOccurrences(of: "\n", with: " "))
    }

    /// A typed number in the Code/Description span (codes are text): an amount that drifted left of its header.
    static func amountInCodeColumn(_ view: RowView) -> Money? {
        guard let span = view.header.spans["Code/Description"] else { return nil }
        for column in span.reversed() where column < view.row.cells.count {
            if case .number = view.row.cells[column] { return try? view.row.cells[column].money() }
        }
        return nil
    }

    private func isAccountRow(_ view: RowView) -> Bool {
        view.text("Unit") != nil
            || (view.text("Code/Description") == nil && view.text("Name") != nil && view.text("Status") != nil)
    }

    private mutating func openAccount(_ view: RowView, into records: inout [ReportRecord]) throws {
        try closeAccount(into: &records)
        let (phone, email) = ContactText.underName(view.text("Name"))
        let (name, underEviction) = Self.evictionMark(view.firstLine("Name"))
        account = Account(unit: view.text("Unit") ?? "", name: name, phone: phone, email: email,
                          residentID: view.text("Resident ID"), status: view.text("Status"), row: view.number,
                          underEviction: underEviction)
    }

    private mutating func closeAccount(into records: inout [ReportRecord]) throws {
        guard let done = account else { return }
        account = nil
        var amounts = done.codeSum
        if let subtotal = done.subtotal {
            if done.codeRows > 0 { compare(done, codeSum: done.codeSum, subtotal: subtotal) }
            amounts = subtotal
        }
        let balance = amounts.delinquent - amounts.prepaid
        if let net = amounts.net, net != balance, done.subtotal != nil || done.codeRows > 0 {
            context.warn("account \(done.unit) (row \(done.row)): Total Delinquent \(amounts.delinquent) - "
                + "Total Prepaid \(amounts.prepaid) = \(balance) but Net Balance says \(net)")
        }
        amounts.net = balance
        reportSums = reportSums + amounts
        if done.unit.uppercased() == "NONE" || done.status?.lowercased() == "misc. income" {
            miscIncomeBlocks += 1
        } else {
            residentAccounts += 1
        }
        for (index, amount) in [amounts.prepaid, amounts.delinquent, amounts.current, amounts.days30, amounts.days60,
                                amounts.days90].enumerated() where amount > .zero {
            accountCounts[index] += 1
        }
        if balance < .zero { netPrepaid += balance } else { netDelinquent += balance }
        var record = DelinquencyRow(
            unitNumber: done.unit, residentID: done.residentID, residentName: done.name,
            residentStatus: done.status, currentBalance: balance, balance0to30: amounts.current,
            balance31to60: amounts.days30, balance61to90: amounts.days60, balanceOver90: amounts.days90,
            prepaid: amounts.prepaid, sourceRow: done.row)
        record.phone = done.phone
        record.email = done.email
        record.underEviction = done.underEviction
        records.append(.delinquency(record))
        records += done.codes.map { .delinquencyCode($0) }
    }

    private func compare(_ account: Account, codeSum: Amounts, subtotal: Amounts) {
        let pairs: [(String, Money, Money)] = [
            ("delinquent", codeSum.delinquent, subtotal.delinquent), ("prepaid", codeSum.prepaid, subtotal.prepaid),
            ("current", codeSum.current, subtotal.current), ("30 days", codeSum.days30, subtotal.days30),
            ("60 days", codeSum.days60, subtotal.days60), ("90+ days", codeSum.days90, subtotal.days90),
        ]
        for (what, computed, printed) in pairs where computed != printed {
            context.warn("account \(account.unit) (row \(account.row)): code rows sum to \(computed) \(what) "
                + "but \"Subtotals:\" (row \(account.subtotalRow)) says \(printed)")
        }
    }

    /// The row's amounts with prepaid made positive; `net` is the printed net (per-code) or balance (simple).
    private func amounts(_ view: RowView) throws -> Amounts {
        var amounts = Amounts()
        if perCode {
            // The Grand Totals row prints its prepaid a column left, in the code column's merged span.
            amounts.prepaid = try view.money("Total Prepaid") ?? Self.amountInCodeColumn(view) ?? .zero
            amounts.delinquent = try view.money("Total Delinquent") ?? .zero
            amounts.net = try view.money("Net Balance")
            amounts.current = try view.money("Current") ?? .zero
            amounts.days30 = try view.money("30 Days") ?? .zero
            amounts.days60 = try view.money("60 Days") ?? .zero
            amounts.days90 = try view.money("90+ Days") ?? .zero
        } else {
            amounts.prepaid = try view.money("Prepaid") ?? .zero
            amounts.net = try view.money("Balance")
            amounts.current = try view.money("0-30") ?? .zero
            amounts.days30 = try view.money("31-60") ?? .zero
            amounts.days60 = try view.money("61-90") ?? .zero
            amounts.days90 = try view.money("Over 90") ?? .zero
            amounts.delinquent = amounts.current + amounts.days30 + amounts.days60 + amounts.days90
        }
        // OneSite prints prepaid negative in some exports and positive in others; the record keeps it positive.
        if amounts.prepaid < .zero { amounts.prepaid = -amounts.prepaid }
        return amounts
    }
}
