import LibCryptoKit
import SQLiteKit

/// Current-state tables kept as the last sync wrote them while what their rule reads is unchanged: a source names,
/// for each table it can keep, the raw state its rule reads (`PropertySource.ruleInputs`); a sync that finds the
/// digest of that state, the build and the charge categories equal to the one the last sync recorded
/// (`sync_input_marks`) neither runs its rule nor writes the table (its twin holds main's rows, for what reads it:
/// `Synchronizer.prepareTwins`), and main's rows stand: they are what the rule would write again
/// (docs/sync-rules.md, "Tables kept while their inputs are unchanged").
///
/// Yardi's recurring charges are the case (`YardiLedger.recurringInputs`): the rule reads every monthly
/// lease-charge statement of the window (tens of thousands of rows, two sorts: 150-350 ms a property every night),
/// and those statements change a few times a month. RealPage's too, where getscheduledcharges gives them
/// (`RealPageLedger.recurringInputs`): a night whose schedule is the night before's stores it once, under that date.
///
/// Not used by `sync --full` nor on the nights a ledger is pulled whole (`Synchronizer.Mode.full`): those run every
/// rule into the twins and name any row a kept table held that differs from the rebuild (`sync_drift`).
struct InputMarks {
    /// Table -> SHA-256 of what its rule reads tonight, recorded with the property's write.
    let inputs: [String: String]
    /// The tables whose inputs are as the last sync recorded them: their rules are skipped, main's rows stand.
    let kept: Set<String>
    /// The marks stored are tonight's already (every table kept, none more or less): nothing to record.
    var recorded = false

    static let none = InputMarks(inputs: [:], kept: [])

    /// Tonight's inputs of the tables `source` can keep, and which of them are unchanged since the last sync
    /// (`mayKeep`: the property has stored rows and the sync is incremental). `rules`: the build and the charge
    /// categories (`Synchronizer.ledgerRules`), which every kept rule also reads.
    /// A night that keeps no table records no mark, and removes the ones a night before recorded.
    static func read(_ context: SyncContext, source: any PropertySource, rules: String, mayKeep: Bool) throws -> InputMarks {
        var inputs: [String: String] = [:]
        for (table, state) in try source.ruleInputs(context) {
            let hasher = SHA256()
            for field in [rules] + state { hasher.updateField(field) }
            inputs[table] = hasher.finalizeHex()
        }
        guard mayKeep else { return InputMarks(inputs: inputs, kept: []) }
        let marks = try context.database.query("""
            SELECT table_name, inputs FROM sync_input_marks WHERE unified_property_id = :property
            """, [":property": .text(context.property.key)])
        // Nothing to keep tonight: the marks a night that had something leaves are removed with the write, or a later
        // night with the same inputs would keep rows a rule from other inputs wrote in between (a RealPage site's
        // schedule from the reports while its RPX ledger was refused).
        guard !inputs.isEmpty else { return InputMarks(inputs: [:], kept: [], recorded: marks.isEmpty) }
        let kept = marks.compactMap { row -> String? in
            guard let table = row[0].textValue, let digest = row[1].textValue, inputs[table] == digest else { return nil }
            return table
        }
        return InputMarks(inputs: inputs, kept: Set(kept), recorded: marks.count == inputs.count && kept.count == inputs.count)
    }

    /// Records tonight's inputs in the property's write (its transaction: a sync rolled back keeps the old marks);
    /// nothing when the stored marks are tonight's already.
    func record(_ database: Database, property: String) throws {
        guard !recorded else { return }
        let parameters: [String: SQLValue] = [":property": .text(property)]
        try database.prepare("DELETE FROM sync_input_marks WHERE unified_property_id = :property").execute(parameters)
        let insert = try database.prepare("""
            INSERT INTO sync_input_marks (unified_property_id, table_name, inputs) VALUES (:property, :table, :inputs)
            """)
        for (table, digest) in inputs.sorted(by: { $0.key < $1.key }) {
            try insert.execute(parameters.merging([":table": .text(table), ":inputs": .text(digest)]) { $1 })
        }
    }

    /// The fields of a query's rows, each value by its type (`SQLValue.digestText`), a row ending in a line break: what
    /// a source's `ruleInputs` gives for a table.
    static func fields(_ rows: [[SQLValue]]) -> [String] {
        rows.flatMap { row in row.map(\.digestText) + ["\n"] }
    }
}

extension SHA256 {
    /// Feeds one field of a digest, length first, so that no two sequences of fields read the same (`ab`,`c` and
    /// `a`,`bc`): the encoding of the sync's fingerprint and of the kept tables' inputs.
    func updateField(_ text: String) { update("\(text.utf8.count):\(text)") }
}

extension SQLValue {
    /// The value as its type's own text for a digest (`null`, `i12`, `r1.5`, `tabc`, `b0,ff`): two values of different
    /// types never read the same (string interpolation of an SQLValue goes through reflection).
    var digestText: String {
        switch self {
        case .null: "null"
        case .integer(let number): "i\(number)"
        case .real(let number): "r\(number)"
        case .text(let text): "t" + text
        case .blob(let bytes): "b" + bytes.map { String($0, radix: 16) }.joined(separator: ",")
        }
    }
}
