import OwnerDashCore
import XLSXKit

/// Monthly Transaction Summary (report 4020): one `MonthlyTransactionRow` per transaction code of the detail.
///
/// Layout ([I] — columns from bary249/NASAdash's parser of the real Crystal export: Group, Code, Description,
/// YTD Last Month, This Month, YTD Through; `Total:` rows; a `Category` summary section after the detail): the
/// detail lists transaction codes under type headings (`CHARGES`, `CREDITS`, `PAYMENTS`: stored as category),
/// each row with its transaction group (`CA`, `CO`, `PZ`), code, description, GL account and three amounts; a
/// `Total:` row ends each heading's rows. A total right after another total (`Grand Total:`) sums the whole
/// detail when it says `Grand`, else the rows since the heading. Every printed total amount is checked against
/// the rows it covers; differences are warnings. Rows without a code (the GL `Net` lines) are not stored.
/// The detail ends at the summary section (`Category`, `Summary ...`, `Monthly Rental Potential ...`,
/// `General Ledger ...`) or, in the real export, at the `(935 Batch)` heading that follows it; what follows (the 935
/// batch, the delinquent and prepaid balances, the G/L distribution, the monthly rental potential) is not stored but
/// checked against its own totals (`MonthlyTransactionTrailer`). fiscal_period is the title's `Fiscal Period`
/// (`YYYY-MM`), else NULL.
///
/// Amounts are stored as printed: charges positive, credits and payments negative (`(38,389.41)`).
///
/// | raw field (realpage_monthly_transactions) | column | OneSite header texts |
/// |---|---|---|
/// | category | (heading rows) | |
/// | transaction_group | Group | Group, Trans Group, Transaction Group, Type |
/// | code | Code* | Code, Trans Code, Transaction Code, Charge Code |
/// | description | Description | Description, Code Description |
/// | gl_account | GL Account | GL Account, G/L Account, GL, Account |
/// | ytd_prior_amount | YTD Last Month | YTD Last Month, YTD Through Last Month, YTD Prior, YTD At End Of Last Month |
/// | period_amount | This Month* | This Month, Current Month, This Period, Period Amount, Activity For This Month |
/// | ytd_amount | YTD Through This Month | YTD Through This Month, YTD Through, YTD, YTD This Month |
///
/// `*` = required.
struct MonthlyTransactionSummaryParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .monthlyTransactionSummary, name: "transaction detail", columns: [
            ColumnSpec("Group", .text, synonyms: ["Trans Group", "Transaction Group", "Type"]),
            ColumnSpec("Code", .text, required: true, synonyms: ["Trans Code", "Transaction Code", "Charge Code"]),
            ColumnSpec("Description", .text, synonyms: ["Code Description"]),
            ColumnSpec("GL Account", .text, synonyms: ["G/L Account", "GL", "Account"]),
            ColumnSpec("YTD Last Month", .money, synonyms: ["YTD Through Last Month", "YTD Prior",
                                                                  "YTD At End Of Last Month"]),
            ColumnSpec("This Month", .money, required: true,
                       synonyms: ["Current Month", "This Period", "Period Amount", "Activity For This Month"]),
            ColumnSpec("YTD Through This Month", .money, synonyms: ["YTD Through", "YTD", "YTD This Month"]),
        ]),
    ]

    static let summarySections = ["Category", "Summary", "Monthly Rental Potential", "General Ledger"]

    private struct Sums {
        var prior = Money.zero, period = Money.zero, ytd = Money.zero
        var rows = 0

        mutating func add(_ row: MonthlyTransactionRow) {
            prior += row.ytdPriorAmount ?? .zero; period += row.periodAmount ?? .zero; ytd += row.ytdAmount ?? .zero
            rows += 1
        }
    }

    let header: HeaderMap
    let context: ParseContext
    private var category: String?
    private var sinceTotal = Sums()
    private var sinceHeading = Sums()
    private var all = Sums()

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .continuation:
            return true
        case .label(let text):
            if text.isSectionTitle(Self.summarySections) || Self.isBatch935(text) { return false }
            category = text
            sinceHeading = Sums(); sinceTotal = Sums()
            return true
        case .total(let label, _):
            let covered = sinceTotal.rows > 0 ? sinceTotal
                : (HeaderText.key(label).hasPrefix("grand") ? all : sinceHeading)
            let totals = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
            context.crossCheck("YTD last month", computed: covered.prior, printed: try totals.money("YTD Last Month"),
                               label: label, row: row.number)
            context.crossCheck("this month", computed: covered.period, printed: try totals.money("This Month"),
                               label: label, row: row.number)
            context.crossCheck("YTD", computed: covered.ytd, printed: try totals.money("YTD Through This Month"),
                               label: label, row: row.number)
            sinceTotal = Sums()
            return true
        case .data:
            guard let code = view.text("Code") else {
                return !(view.text("Description").map(Self.isBatch935) ?? false)
            }
            let record = MonthlyTransactionRow(
                category: category, transactionGroup: view.text("Group"), code: code,
                description: view.text("Description"), glAccount: view.text("GL Account"),
                ytdPriorAmount: try view.money("YTD Last Month"), periodAmount: try view.money("This Month"),
                ytdAmount: try view.money("YTD Through This Month"), fiscalPeriod: context.title.fiscalPeriod,
                sourceRow: row.number)
            sinceTotal.add(record); sinceHeading.add(record); all.add(record)
            records.append(.monthlyTransactionSummary(record))
            return true
        }
    }

    /// The sections below the detail, checked against their own totals (`MonthlyTransactionTrailer`).
    private var trailer = MonthlyTransactionTrailer()

    mutating func consumeTrailer(_ row: SheetRow) throws -> Bool {
        let detail = RowView(row: header.aligned(row), header: header, context: context, countsForMoneyGuard: false)
        try trailer.consume(row, detail: detail, context: context)
        return true
    }

    mutating func finish(into records: inout [ReportRecord]) throws {
        trailer.finish(context: context)
    }

    /// `Prepaids Moved To Deposit Ledger (935 Batch)`: after the detail, OneSite lists the prepaids it moved to
    /// deposit ledgers (batch 935) and then the delinquency, balance and G/L sections; the detail ends there.
    static func isBatch935(_ text: String) -> Bool {
        text.lowercased().contains("(935 batch)")
    }
}
