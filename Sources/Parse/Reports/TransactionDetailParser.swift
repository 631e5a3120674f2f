import OwnerDashCore
import XLSXKit

// Transaction Detail by Code (OneSite report 4028, "Transaction Detail by Code - Excel"): a data-only xlsx of four
// sheets. "Index" prints the title block once (title, `Fiscal Period: 022026 As of 02/14/2026`, the
// `Property Name:` line), "Detail" lists every posted transaction of the fiscal period (charges, credits,
// payments, deposits) one row each with its resident, code, dates and both G/L sides, with no totals row;
// "Summary" sums debit and credit per transaction code and G/L account and ends in `Totals`; "Net total by G/L
// Account" restates the Summary per G/L account, its `Totals` printed with the sign reversed (-1,247,374 where
// the rows sum to 1,247,374). Each data sheet is its own report type here, as the loader keeps one snapshot per
// type and sheet; the sheets print no title, so they are told apart by their headers and take the property and
// date from the Index sheet.
//
// The Summary does not restate the Detail sheet's sums: it counts transactions by their accounting period
// (payments posted in the period for an earlier one differ), so the Detail rows are not held against it.

extension ReportType {
    /// Transaction Detail by Code, the Detail sheet: one row per posted transaction.
    public static let transactionDetail = ReportType(declaring: "transaction_detail")
    /// Transaction Detail by Code, the Summary sheet: debit and credit per code and G/L account.
    public static let transactionDetailSummary = ReportType(declaring: "transaction_detail_summary")
    /// Transaction Detail by Code, the Net total by G/L Account sheet.
    public static let transactionDetailGLNet = ReportType(declaring: "transaction_detail_gl_net")
}

/// The Detail sheet: every posted charge, credit and payment of the fiscal period by resident.
enum TransactionDetailReport: TabularReport {
    static let table = RawTable("realpage_transaction_detail", since: 20, columns: [
        .read("unit_number", .text, header: "Bldg/Unit", synonyms: ["Unit"]),
        .read("resident_name", .text, header: "Name"),
        .read("subjournal", .text, header: "SubJournal"),
        .read("description", .text, header: "Description"),
        .read("transaction_code", .text, header: "Transaction Group - Category - Code", key: true),
        .read("ledger_date", .date, header: "Transaction Ledger Date"),
        .read("system_date", .date, header: "Transaction System Date"),
        .read("accounting_date", .date, header: "Transaction Accounting Date"),
        .read("fiscal_period", .text, header: "Original Transaction Fiscal Period"),
        .read("amount", .money, header: "Original Ledger Transaction Amount", key: true),
        .read("debit_gl_account", .text, header: "Debit G/L"),
        .read("debit_amount", .money, header: "Debit Amount"),
        .read("credit_gl_account", .text, header: "Credit G/L"),
        .read("credit_amount", .money, header: "Credit Amount"),
        .read("document_number", .text, header: "Document #"),
        .read("user_name", .text, header: "User Name"),
        .read("source", .text, header: "Source"),
        .read("batch_id", .text, header: "Transaction Batch Id"),
        .read("bank_deposit_type", .text, header: "Bank Deposit Type"),
        .read("settlement_number", .text, header: "Settlement #"),
        .read("bank_deposit_id", .text, header: "BDEPID"),
        .read("bank_deposit_number", .text, header: "Bank Dep #"),
        .read("transaction_ids", .text, header: "Tadid"),
        .read("external_batch_cash", .text, header: "External Batch ID - Cash"),
        .read("external_batch_accrual", .text, header: "External Batch ID - Accrual"),
    ])

    static let descriptor = ReportDescriptor(
        .transactionDetail, "transaction detail by code",
        titles: ["Transaction Detail by Code", "Transaction Detail by Code - Excel"],
        // The data-only workbook's sheets print no title: their headers identify them.
        table: table, parser: TabularParser<TransactionDetailReport>.self, detectionLayouts: nil)
}

/// The Summary sheet: debit and credit per transaction code and G/L account, then `Totals`.
enum TransactionDetailSummaryReport: TabularReport {
    static let table = RawTable("realpage_transaction_detail_summary", since: 20, columns: [
        .read("transaction_code", .text, header: "Transaction Group - Category - Code", key: true),
        .read("description", .text, header: "Description"),
        .read("gl_account", .text, header: "GL Account", key: true),
        .read("gl_account_name", .text, header: "General Ledger Account Name", key: true),
        .read("debit", .money, header: "Debit", summed: true),
        .read("credit", .money, header: "Credit", summed: true),
    ])

    static let descriptor = ReportDescriptor(
        .transactionDetailSummary, "transaction detail by code (summary)", titles: [],
        table: table, parser: TabularParser<TransactionDetailSummaryReport>.self, detectionLayouts: nil)
}

/// The Net total by G/L Account sheet; see `TransactionGLNetParser` for its totals.
enum TransactionDetailGLNetReport {
    static let table = RawTable("realpage_transaction_detail_gl_net", since: 20, columns: [
        .read("gl_account_name", .text, header: "Net total (G/L account description)", key: true),
        .read("category", .text, header: "Group"),
        .read("transaction_code", .text, header: "Transaction Group - Category - Code", key: true),
        .read("description", .text, header: "Description"),
        .read("gl_account", .text, header: "GL Account", key: true),
        .read("debit", .money, header: "Debit", summed: true),
        .read("credit", .money, header: "Credit", summed: true),
    ])

    static let descriptor = ReportDescriptor(
        .transactionDetailGLNet, "transaction detail by code (net by G/L account)", titles: [],
        table: table, parser: TransactionGLNetParser.self, detectionLayouts: nil)
}

/// Reads the Net total by G/L Account sheet: rows as `TabularParser` reads them, but its `Totals` row prints the
/// rows' sums negated, so a printed total is held against the negated sums.
struct TransactionGLNetParser: OneSiteReportParser {
    static var layouts: [HeaderLayout] {
        [TransactionDetailGLNetReport.table.layout(for: .transactionDetailGLNet, name: "net by G/L account")]
    }

    let header: HeaderMap
    let context: ParseContext
    private var debit = Money.zero, credit = Money.zero
    private var counter = GroupCounter()

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        switch kind {
        case .label, .continuation:
            return true
        case .total(let label, let count):
            counter.check(count, label: label, row: row.number, what: "records", context: context)
            let totals = RowView(row: row, header: header, context: context, countsForMoneyGuard: false)
            context.crossCheck("debit (printed negated)", computed: Money.zero - debit,
                               printed: try totals.money("Debit"), label: label, row: row.number)
            context.crossCheck("credit (printed negated)", computed: Money.zero - credit,
                               printed: try totals.money("Credit"), label: label, row: row.number)
            debit = .zero; credit = .zero
            return true
        case .data:
            let view = RowView(row: row, header: header, context: context)
            guard let record = try view.record(of: TransactionDetailGLNetReport.table) else { return true }
            debit += record["debit"].money ?? .zero
            credit += record["credit"].money ?? .zero
            counter.add()
            records.append(.row(record))
            return true
        }
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}
}
