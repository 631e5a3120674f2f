import SQLiteKit

/// What a rule that computes by snapshot read at the property's last sync (`sync_snapshot_marks`, one row per rule):
/// its inputs (the build, and whatever else moves every row) and one line per snapshot loaded, each its fields
/// space-separated (RealPageClosedTurns, RealPageExpenseMonths). A sync by change computes what the snapshots added since
/// list or cover; a snapshot the mark names that is not there as it was (loaded again, removed), other inputs or no
/// mark mean every row.
struct SnapshotMark {
    let rule: String
    let inputs: String
    /// Tonight's lines, written by `record`.
    let lines: [String]

    /// The mark of `rule` for tonight: `inputs`, and the lines of `snapshots`' rows (`RealPageActivityDays.markLine`).
    init(rule: String, inputs: String, snapshots: [[SQLValue]]) {
        self.rule = rule
        self.inputs = inputs
        lines = snapshots.map(RealPageActivityDays.markLine)
    }

    /// The fields of each line added since the property's stored mark; nil when the sync is not by change, there is
    /// no mark, its inputs differ, or it names a line tonight's do not hold.
    func added(_ context: SyncContext, byChange: Bool) throws -> [[String]]? {
        guard byChange, let stored = try context.rows(Self.storedMark, [":rule": .text(rule)]).first,
              stored[0].textValue == inputs else { return nil }
        let marked = Set((stored[1].textValue ?? "").split(separator: "\n").map(String.init))
        guard marked.isSubset(of: lines) else { return nil }
        return lines.filter { !marked.contains($0) }.map { $0.split(separator: " ").map(String.init) }
    }

    /// Records tonight's mark in the property's write.
    func record(_ context: SyncContext) throws {
        try context.run(Self.recordMark, [
            ":rule": .text(rule), ":inputs": .text(inputs), ":snapshots": .text(lines.joined(separator: "\n")),
        ])
    }

    static let storedMark = """
        SELECT inputs, snapshots FROM main.sync_snapshot_marks WHERE unified_property_id = :property AND rule = :rule
        """

    static let recordMark = """
        INSERT INTO main.sync_snapshot_marks (unified_property_id, rule, inputs, snapshots)
        VALUES (:property, :rule, :inputs, :snapshots)
        ON CONFLICT (unified_property_id, rule) DO UPDATE SET inputs = excluded.inputs, snapshots = excluded.snapshots
        """
}
