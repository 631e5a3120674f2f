import OwnerDashCore
import SQLiteKit

/// Which closed make-ready turns of a RealPage property a sync computes (RealPageMaintenance.closedTurns, and from
/// them unified_work_orders' closed rows and unified_work_order_lines): on an incremental sync only the turns the
/// Closed Make Ready snapshots loaded since the last sync list; every turn otherwise (docs/sync-rules.md, "The closed
/// turns by snapshot").
///
/// Why that is enough: a turn is read from the latest snapshot listing it, so a snapshot that appears changes only
/// the turns it lists. The report is stored every night (never "unchanged since": UnchangedSnapshots), and the only
/// rows that leave a snapshot still loaded are the ones the nightly prune finds superseded (a later snapshot lists
/// their turn: RawRetention.SupersededRows.closedTurns), which no turn is read from. Anything else computes every
/// turn: a snapshot loaded again or removed (its line in `loaded_artifacts` changed or gone), another build, no mark.
/// The open turns (the Make Ready Summary read, a row each unless a closed turn has its id) are computed every night;
/// by change they also leave out the ids main holds as closed, which stay closed (a turn closed stays listed).
///
/// Main keeps the other turns as the last sync wrote them: the diff compares main's open turns and its closed ones
/// among those computed (`scopes`). The full sync computes every turn and names any row that differs.
struct RealPageClosedTurns {
    /// The snapshots loaded tonight (`snapshotLines`) and the build: the mark the property's write records.
    let mark: SnapshotMark
    /// Every turn is computed (not by change).
    let isWhole: Bool

    /// Decides the turns for the property `realpage` syncs; `byChange`: the property has stored rows and the sync is
    /// incremental. By change, fills `temp.changed_turns` with the turns the snapshots loaded since list.
    init(_ realpage: RealPageSync, byChange: Bool) throws {
        mark = SnapshotMark(rule: "closed_turns", inputs: Synchronizer.executableDigest,
                            snapshots: try realpage.rows(Self.snapshotLines))
        // Each line added: as-of date, run, artifact digest.
        guard let added = try mark.added(realpage.context, byChange: byChange) else {
            isWhole = true
            return
        }
        isWhole = false
        try TempTables.empty(Self.changedTurnsTable, in: realpage.context.database)
        for snapshot in added {
            try realpage.context.run(Self.fillChangedTurns, [":as_of": .text(snapshot[0])])
        }
    }

    /// Main's rows the diff compares with the twins when only some turns were computed: every open turn, and the
    /// closed ones computed (their work orders); none when every turn was computed. One condition over the property's
    /// few hundred turns, read in key order: two (the open ones off the status index) cost a sort.
    var scopes: [String: CurrentStateDiff.Scope] {
        isWhole ? [:] : [
            "unified_work_orders": CurrentStateDiff.Scope(conditions: [
                " AND (status = 'open' OR work_order_id IN (SELECT work_order_id FROM temp.changed_turns))",
            ], parameters: [:]),
            "unified_work_order_lines": CurrentStateDiff.Scope(conditions: [
                " AND work_order_id IN (SELECT work_order_id FROM temp.changed_turns)",
            ], parameters: [:]),
        ]
    }

    /// `temp.changed_turns`: the turns a sync by change computes, by work order id (`MR-<unit>-<turn>`).
    static let changedTurnsTable = ScratchTable(name: "changed_turns", shape: .definition("""
        (work_order_id TEXT PRIMARY KEY, unit_number TEXT NOT NULL, turn TEXT NOT NULL) WITHOUT ROWID
        """))

    /// The completed turns one new snapshot lists (`:as_of`).
    static let fillChangedTurns = """
        INSERT OR IGNORE INTO temp.changed_turns (work_order_id, unit_number, turn)
        SELECT 'MR-' || unit_number || '-' || turn, unit_number, turn
        FROM (SELECT t.unit_number, \(MakeReadyTurn.key("t", schema: "realpage_raw.")) AS turn
              FROM realpage_raw.realpage_closed_make_ready t
              WHERE t.property_id = :property AND t.as_of_date = :as_of
                AND t.completed_date IS NOT NULL)
        """

    /// Each Closed Make Ready snapshot loaded for the property: as-of date, the run that loaded it, its artifact's
    /// SHA-256 (a load again replaces the line).
    static let snapshotLines = """
        SELECT as_of_date, run_id, artifact_sha256 FROM realpage_raw.loaded_artifacts
        WHERE report_type = 'closed_make_ready' AND property_id = :property
        ORDER BY as_of_date
        """
}
