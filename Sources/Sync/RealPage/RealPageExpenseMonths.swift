import LibCryptoKit
import OwnerDashCore
import SQLiteKit

/// Which months of a RealPage property's expenses and income (RealPageExpenses: unified_expenses, unified_income) a
/// sync computes: on an incremental sync only the months the Income Statement and Monthly Income Summary snapshots
/// loaded since the last sync cover; every month otherwise (docs/sync-rules.md, "The expenses and income by month").
///
/// Why that is enough: a month is read from the best-ranked report covering it, each report's latest snapshot of the
/// month, so a snapshot that appears moves only the months it covers. Those reports are stored every night (never
/// "unchanged since": UnchangedSnapshots), and the only rows that leave a snapshot still loaded are those the nightly
/// prune finds superseded by a later snapshot of the same month (RawRetention.SupersededRows.statementMonths), which no
/// month is read from. Every month is computed when a Cash Basis G/L snapshot appears (a batch is read from the latest
/// snapshot listing it, and its month from its own lines: one snapshot can move any month), when a snapshot is loaded
/// again or removed, on another build or other `gl_categories`, on a full sync and on a property's first.
///
/// The twins hold every month: those computed, and main's others copied in (`keepOtherMonths`), for what reads the
/// property's every month before the write (the `income_expense_totals` check, the unknown-account warning); the
/// diff compares the months computed alone, on both sides (`scopes`).
struct RealPageExpenseMonths {
    /// The snapshots loaded tonight (`snapshotLines`), the build and the GL categories: the mark the property's write
    /// records.
    let mark: SnapshotMark
    /// Every month is computed (not by change; else those of `temp.changed_months`).
    let isWhole: Bool

    /// Decides the months for the property `realpage` syncs; `byChange`: the property has stored rows and the sync
    /// is incremental. By change, fills `temp.changed_months`.
    init(_ realpage: RealPageSync, byChange: Bool) throws {
        let hasher = SHA256()
        hasher.updateField(Synchronizer.executableDigest)
        for (prefix, category) in realpage.context.glCategories.byPrefix.sorted(by: { $0.key < $1.key }) {
            hasher.updateField(prefix)
            hasher.updateField(category)
        }
        mark = SnapshotMark(rule: "expense_months", inputs: hasher.finalizeHex(),
                            snapshots: try realpage.rows(Self.snapshotLines))
        // Each line added: report, as-of date, run, artifact digest.
        guard let added = try mark.added(realpage.context, byChange: byChange)?.filter({ $0.count > 1 }),
              !added.contains(where: { $0[0] == "cash_basis_gl" }) else {
            isWhole = true
            return
        }
        isWhole = false
        try TempTables.empty(Self.changedMonthsTable, in: realpage.context.database)
        for snapshot in added {
            try realpage.context.run(Self.fillChangedMonths, [":report": .text(snapshot[0]), ":as_of": .text(snapshot[1])])
        }
    }

    /// Main's rows the diff compares with the twins' when only some months were computed, those months' on both sides:
    /// of `tables` (the ones whose rule ran).
    func scopes(_ tables: [String]) -> [String: CurrentStateDiff.Scope] {
        guard !isWhole else { return [:] }
        let scope = CurrentStateDiff.Scope(
            conditions: [" AND month IN (SELECT month FROM temp.changed_months)"], parameters: [:],
            twinCondition: " WHERE month IN (SELECT month FROM temp.changed_months)")
        return Dictionary(uniqueKeysWithValues: tables.map { ($0, scope) })
    }

    /// By month, copies main's rows of the other months into `table`'s twin, where the rule wrote the months computed.
    func keepOtherMonths(_ table: String, _ context: SyncContext) throws {
        guard !isWhole else { return }
        let names = try CurrentStateDiff.table(table, in: context.database).columns.joined(separator: ", ")
        try context.run("""
            INSERT INTO temp.\(table) (\(names))
            SELECT \(names) FROM main.\(table)
            WHERE unified_property_id = :property AND month NOT IN (SELECT month FROM temp.changed_months)
            """)
    }

    /// `temp.changed_months`: the months a sync by change computes (`YYYY-MM`).
    static let changedMonthsTable = ScratchTable(name: "changed_months",
                                                 shape: .definition("(month TEXT PRIMARY KEY) WITHOUT ROWID"))

    /// The months one new snapshot covers (`:report`, `:as_of`): an Income Statement's fiscal periods (its as-of
    /// month where it prints none), a Monthly Income Summary's as-of month.
    static let fillChangedMonths = """
        INSERT OR IGNORE INTO temp.changed_months (month)
        SELECT coalesce(fiscal_period, substr(as_of_date, 1, 7)) FROM realpage_raw.realpage_income_statement
        WHERE :report = 'income_statement' AND property_id = :property AND as_of_date = :as_of
        UNION
        SELECT substr(as_of_date, 1, 7) FROM realpage_raw.realpage_monthly_income
        WHERE :report = 'monthly_income_summary' AND property_id = :property AND as_of_date = :as_of
        """

    /// Each snapshot of the reports read: report, as-of date, the run that loaded it, its artifact's SHA-256.
    static let snapshotLines = """
        SELECT report_type, as_of_date, run_id, artifact_sha256 FROM realpage_raw.loaded_artifacts
        WHERE property_id = :property AND report_type IN ('income_statement', 'monthly_income_summary', 'cash_basis_gl')
        ORDER BY report_type, as_of_date
        """
}
