import OwnerDashCore
import XLSXKit

// The summary sections OneSite prints below a report's detail (Monthly Transaction Summary's delinquency, G/L
// distribution and rental-potential sections; Delinquent and Prepaid's summary by G/L account). Nothing in them is
// stored: each is read only to hold its printed totals against its own lines (and, where the report says they are
// the same figure, against the detail), so a file that does not add up says so. Their headers are single cells over
// several columns (`Beginning   Ending`) or absent, so a line is read as its labels and its amounts in print order.

/// One printed line of a summary section: its text cells and its amounts, left to right.
struct SummaryLine {
    let row: Int
    /// Text cells that are not amounts, trimmed.
    let labels: [String]
    /// Cells that read as amounts (numbers and amount text), with their sheet columns.
    let amounts: [(column: Int, amount: Money)]

    init(_ row: SheetRow) {
        self.row = row.number
        var labels: [String] = []
        var amounts: [(column: Int, amount: Money)] = []
        for (column, cell) in row.cells.enumerated() where !cell.isBlank {
            switch cell {
            case .number:
                if let amount = try? cell.money() { amounts.append((column, amount)) }
            case .text(let raw):
                let text = String(raw.trimmingWhitespace)
                if DateText.parseDate(Substring(text)) == nil, let amount = try? MoneyText.parse(text) {
                    amounts.append((column, amount))
                } else if !text.isEmpty {
                    labels.append(text)
                }
            default:
                continue
            }
        }
        self.labels = labels; self.amounts = amounts
    }

    /// The first label, compared normalized (`HeaderText.key`).
    var key: String { labels.first.map(HeaderText.key) ?? "" }

    /// True when a label of the line starts with `prefix` (normalized).
    func has(_ prefix: String) -> Bool {
        let wanted = HeaderText.key(prefix)
        return labels.contains { HeaderText.key($0).hasPrefix(wanted) }
    }

    /// The column of the first label that starts with `prefix` (normalized); nil when none does.
    func column(of prefix: String, in row: SheetRow) -> Int? {
        let wanted = HeaderText.key(prefix)
        return row.cells.firstIndex { cell in
            guard case .text(let raw) = cell else { return false }
            return HeaderText.key(raw).hasPrefix(wanted)
        }
    }

    /// The amount printed nearest `column` (at most `reach` columns away); nil when none is.
    func amount(near column: Int, reach: Int = 3) -> Money? {
        amounts.filter { abs($0.column - column) <= reach }.min { abs($0.column - column) < abs($1.column - column) }?
            .amount
    }
}

/// Delinquent and Prepaid's `Summary by General Ledger Account`: per G/L account a `Total:` line (beginning, ending,
/// change) over one line per transaction code, and a `Grand Totals:` line first. Each account's total is held against
/// its codes, the grand total against the accounts, and the grand ending balance against the detail's net balance
/// (the sum of every account's net, which the detail's own `Grand Totals` already vouch for).
struct DelinquencyGLSummary {
    private var started = false
    private var grand: (line: SummaryLine, label: String)?
    private var account: (label: String, row: Int, printed: [Money], codes: [Money])?
    private var accountSums = [Money](repeating: .zero, count: 3)
    private var accounts = 0

    static let measures = ["G/L beginning balance", "G/L ending balance", "G/L change"]

    static let titles = ["Summary by General Ledger", "Summary by GL"]

    /// The detail ended at a section title: the summary starts here when it is this one.
    mutating func begin(at title: String) {
        if title.isSectionTitle(Self.titles) { started = true }
    }

    /// Reads one row after the detail.
    mutating func consume(_ row: SheetRow, context: ParseContext) {
        let line = SummaryLine(row)
        if !started {
            started = line.labels.contains { $0.isSectionTitle(Self.titles) }
            return
        }
        let figures = Array(line.amounts.suffix(3).map(\.amount))
        if line.has("Grand Totals"), figures.count == 3 {
            grand = (line, line.labels.first ?? "Grand Totals:")
        } else if let totalIndex = line.labels.firstIndex(where: { HeaderText.key($0) == "total" }), figures.count == 3 {
            closeAccount(context: context)
            let name = totalIndex > 0 ? line.labels[0] : "G/L account"
            account = ("\(name) Total:", line.row, figures, [Money](repeating: .zero, count: 3))
        } else if figures.count == 3, line.amounts.count == 3, account != nil {
            for index in 0..<3 { account?.codes[index] += figures[index] }
        }
    }

    private mutating func closeAccount(context: ParseContext) {
        guard let open = account else { return }
        for index in 0..<3 {
            context.crossCheck(Self.measures[index], computed: open.codes[index], printed: open.printed[index],
                               label: open.label, row: open.row)
            accountSums[index] += open.printed[index]
        }
        accounts += 1
        account = nil
    }

    /// Closes the section: the last account, the grand total, and the grand ending balance against the detail's.
    mutating func finish(detailNetBalance: Money?, context: ParseContext) {
        closeAccount(context: context)
        guard let grand else { return }
        let printed = grand.line.amounts.suffix(3).map(\.amount)
        if accounts > 0 {
            for index in 0..<3 {
                context.crossCheck(Self.measures[index], computed: accountSums[index], printed: printed[index],
                                   label: "\(grand.label) (Summary by General Ledger Account)", row: grand.line.row)
            }
        }
        if let detailNetBalance {
            context.crossCheck("net balance of the detail", computed: detailNetBalance, printed: printed[1],
                               label: "\(grand.label) (Summary by General Ledger Account, ending)",
                               row: grand.line.row)
        }
    }
}

/// What the Monthly Transaction Summary prints after its detail, in order, each checked against its own lines:
/// 1. the `Prepaids Moved To Deposit Ledger (935 Batch)` lines, their `Total:` and the `Net Prepaids Moved To Deposit
///    Ledger: N` line (the deposits-in side, group `935 IO`, this month);
/// 2. the delinquent and prepaid balances: `Net Change This Period` = end − begin; each resident-ledger `Total ... at
///    End of Period` = beginning + change; the section's `Total:` = prepaid − delinquent at the end; the `Beginning`,
///    `Ending` and `Net Changes` G/L lines add up to their `Net ... Total` lines, which equal the period figures;
/// 3. the G/L distribution (`Debit Amount`, `Credit Amount`): each `Net Total` account line = its lines' debits −
///    credits, and the `Total:` line = the accounts' debits and credits;
/// 4. the monthly rental potential (`Amount`, `Subtotal`, `Total` columns): each subtotal = the amounts above it,
///    `Total Possible Monthly Collections` and `Total Monthly Collection Losses and Adjustments` = their subtotals,
///    `Current Monthly Rental Collections` = possible + losses and adjustments, `Total Monthly Collections` = current
///    + refundable deposits.
struct MonthlyTransactionTrailer {
    private enum Section { case batch, balances, glDistribution, glDone, rentalPotential }
    private var section = Section.batch
    // 1. 935 batch: YTD last month, this month, YTD; this month of the deposits-in lines.
    private var batch = [Money](repeating: .zero, count: 3)
    private var batchLines = 0
    private var batchDepositsIn = Money.zero
    // 2. balances, by normalized label.
    private var balances: [String: Money] = [:]
    private var glLinesSum = Money.zero
    // 3. G/L distribution.
    private var debitColumn = 0, creditColumn = 0
    private var glAccount: (label: String, row: Int, debit: Money, credit: Money)?
    private var glLines = (debit: Money.zero, credit: Money.zero)
    private var glAccounts = (debit: Money.zero, credit: Money.zero)
    // 4. rental potential.
    private var potentialColumns = (amount: 0, subtotal: 0, total: 0)
    private var amountSum = Money.zero, subtotalSum = Money.zero
    private var possible: Money?, losses: Money?, current: Money?, refundable = Money.zero

    /// Reads one row after the detail; `detail` reads a 935 batch line in the detail's own columns.
    mutating func consume(_ row: SheetRow, detail: RowView, context: ParseContext) throws {
        let line = SummaryLine(row)
        // Each section starts at its own header line; the G/L header repeats on every page of its section.
        if line.has("Category"), line.has("Subtotal"), let amount = line.column(of: "Amount", in: row),
           let subtotal = line.column(of: "Subtotal", in: row), let total = line.column(of: "Total", in: row) {
            closeGLAccount(context: context)
            potentialColumns = (amount, subtotal, total)
            section = .rentalPotential
            return
        }
        if line.has("Debit Amount"), line.has("Credit Amount"), section != .glDone,
           let debit = line.column(of: "Debit Amount", in: row), let credit = line.column(of: "Credit Amount", in: row) {
            (debitColumn, creditColumn) = (debit, credit)
            section = .glDistribution
            return
        }
        switch section {
        case .batch:
            if try !batchLine(line, detail: detail, context: context) { balance(line, context: context) }
        case .balances: balance(line, context: context)
        case .glDistribution: glDistribution(line, context: context)
        case .glDone: return
        case .rentalPotential: rentalPotential(line, context: context)
        }
    }

    /// The 935 batch; true when the line belonged to it.
    private mutating func batchLine(_ line: SummaryLine, detail: RowView, context: ParseContext) throws -> Bool {
        if let group = detail.text("Group"), group.hasPrefix("935"), detail.text("Code") != nil {
            let figures = [try detail.money("YTD Last Month"), try detail.money("This Month"),
                           try detail.money("YTD Through This Month")]
            for index in 0..<3 { batch[index] += figures[index] ?? .zero }
            if group.uppercased().hasSuffix("IO") { batchDepositsIn += figures[1] ?? .zero }
            batchLines += 1
            return true
        }
        if let label = line.labels.first(where: { HeaderText.key($0).hasPrefix("netprepaidsmovedtodepositledger") }),
           let printed = label.split(separator: ":").last.flatMap({ try? MoneyText.parse($0) }) {
            context.crossCheck("prepaids moved (935 IO, this month)", computed: batchDepositsIn, printed: printed,
                               label: String(label.prefix { $0 != ":" }) + ":", row: line.row)
            return true
        }
        if batchLines > 0, line.key == "total" {
            for (index, what) in ["YTD last month", "this month", "YTD"].enumerated() {
                let printed = [try detail.money("YTD Last Month"), try detail.money("This Month"),
                               try detail.money("YTD Through This Month")][index]
                context.crossCheck(what, computed: batch[index], printed: printed, label: "Total: (935 batch)",
                                   row: line.row)
            }
            section = .balances
            return true
        }
        return false
    }

    private static let begin = "totalbeginperiodnetdelinquentandprepaid"
    private static let end = "totalendperiodnetdelinquentandprepaid"
    private static let change = "netchangethisperiodtodelinquentandprepaid"

    /// The delinquent and prepaid balances section.
    private mutating func balance(_ line: SummaryLine, context: ParseContext) {
        let key = line.key
        if ["beginningbalances", "endingbalances", "netchanges"].contains(key) { glLinesSum = .zero; return }
        guard let amount = line.amounts.last?.amount else { return }
        let label = line.labels.first ?? ""
        func check(_ what: String, _ computed: Money?) {
            guard let computed else { return }
            context.crossCheck(what, computed: computed, printed: amount, label: label, row: line.row)
        }
        switch key {
        case Self.change: check("end − begin", balances[Self.end].flatMap { end in balances[Self.begin].map { end - $0 } })
        case "totalresidentledgerdelinquentatendofperiod":
            check("beginning + change", sum("residentledgerdelinquencyatbeginningofperiod",
                                            "changetoresidentledgerdelinquencycurrentperiod"))
        case "totalresidentledgerprepaidatendofperiod":
            check("beginning + change", sum("residentledgerprepaidatbeginningofperiod",
                                            "changetoresidentledgerprepaidcurrentperiod"))
        case "total":
            if let prepaid = balances["totalresidentledgerprepaidatendofperiod"],
               let delinquent = balances["totalresidentledgerdelinquentatendofperiod"] {
                check("prepaid − delinquent at the end", prepaid - delinquent)
            }
        case "netbeginningdelinquentandprepaidtotal":
            check("G/L lines", glLinesSum); check("Total Begin Period Net Delinquent and Prepaid", balances[Self.begin])
        case "netendingdelinquentandprepaidtotal":
            check("G/L lines", glLinesSum); check("Total End Period Net Delinquent and Prepaid", balances[Self.end])
        case "netchangetodelinquentandprepaid":
            check("G/L lines", glLinesSum); check("Net Change This Period", balances[Self.change])
        default:
            // A G/L account line (`1200-0002 - A/R - Tenants`) of the beginning, ending or net-change balances.
            if key.first?.isNumber == true { glLinesSum += amount }
        }
        balances[key] = amount
    }

    private func sum(_ first: String, _ second: String) -> Money? {
        guard let a = balances[first], let b = balances[second] else { return nil }
        return a + b
    }

    /// The G/L distribution section.
    private mutating func glDistribution(_ line: SummaryLine, context: ParseContext) {
        let debit = line.amount(near: debitColumn), credit = line.amount(near: creditColumn)
        guard debit != nil || credit != nil else { return }
        if line.labels.first.map(HeaderText.key) == "net", line.labels.dropFirst().first.map(HeaderText.key) == "total" {
            closeGLAccount(context: context)
            let name = line.labels.dropFirst(2).first ?? "G/L account"
            glAccount = ("Net Total \(name)", line.row, debit ?? .zero, credit ?? .zero)
        } else if line.labels.contains(where: { HeaderText.key($0) == "total" }) {
            closeGLAccount(context: context)
            context.crossCheck("debit", computed: glAccounts.debit, printed: debit, label: "Total: (G/L distribution)",
                               row: line.row)
            context.crossCheck("credit", computed: glAccounts.credit, printed: credit,
                               label: "Total: (G/L distribution)", row: line.row)
            section = .glDone
        } else if glAccount != nil {
            glLines.debit += debit ?? .zero
            glLines.credit += credit ?? .zero
        }
    }

    private mutating func closeGLAccount(context: ParseContext) {
        guard let account = glAccount else { return }
        context.crossCheck("debits − credits", computed: glLines.debit - glLines.credit,
                           printed: account.debit - account.credit, label: account.label, row: account.row)
        glAccounts.debit += account.debit; glAccounts.credit += account.credit
        glLines = (.zero, .zero)
        glAccount = nil
    }

    /// The monthly rental potential section.
    private mutating func rentalPotential(_ line: SummaryLine, context: ParseContext) {
        guard let printed = line.amounts.last else { return }
        let columns = potentialColumns
        let label = line.labels.first ?? ""
        let distances = [abs(printed.column - columns.amount), abs(printed.column - columns.subtotal),
                         abs(printed.column - columns.total)]
        guard let tier = distances.indices.min(by: { distances[$0] < distances[$1] }) else { return }
        switch tier {
        case 0:
            amountSum += printed.amount
        case 1:
            context.crossCheck("lines above", computed: amountSum, printed: printed.amount, label: label, row: line.row)
            subtotalSum += printed.amount
            amountSum = .zero
        default:
            let key = HeaderText.key(label)
            func check(_ what: String, _ computed: Money?) {
                guard let computed else { return }
                context.crossCheck(what, computed: computed, printed: printed.amount, label: label, row: line.row)
            }
            if key.hasPrefix("totalpossiblemonthlycollections") {
                check("subtotals above", subtotalSum); possible = printed.amount
            } else if key.hasPrefix("totalmonthlycollectionlossesandadjustments") {
                check("subtotals above", subtotalSum); losses = printed.amount
            } else if key.hasPrefix("currentmonthlyrentalcollections") {
                check("possible + losses and adjustments", possible.flatMap { p in losses.map { p + $0 } })
                current = printed.amount
            } else if key.hasPrefix("currentmonthrefundabledeposits") {
                refundable = printed.amount
            } else if key.hasPrefix("totalmonthlycollections") {
                check("current collections + refundable deposits", current.map { $0 + refundable })
            }
            subtotalSum = .zero
        }
    }

    /// Closes what is still open at the end of the sheet.
    mutating func finish(context: ParseContext) {
        closeGLAccount(context: context)
    }
}
