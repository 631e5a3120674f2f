/// A PMS's texts for one field (a lease or unit status) and the unified value of each, written once and given to SQL
/// two ways: as a table of the texts (`cte`, which the checks read to name the texts a rule has no value for) and as
/// an expression (`value(of:)`), which a rule reads a row's value by where it reads the row. Joined to the table
/// instead, every row was compared with each text of the vocabulary.
struct SQLVocabulary: Sendable {
    /// The table's name in a `WITH` clause, and its two columns: the text as compared, the unified value.
    let table: String, textColumn: String, valueColumn: String
    /// Text (as compared: lowercased, trimmed, as each rule normalizes it) -> unified value (nil: a known text that
    /// maps to none, which the rules leave out), in the table's order.
    let values: [(text: String, value: String?)]

    /// `table (textColumn, valueColumn) AS (VALUES ...)`, for a `WITH` clause.
    var cte: String {
        "\(table) (\(textColumn), \(valueColumn)) AS (VALUES\n    "
            + values.map { "('\($0.text)', \(Self.literal($0.value)))" }.joined(separator: ",\n    ") + "\n)"
    }

    /// The unified value of `text`, an SQL expression normalized as the texts are; NULL for a text the vocabulary lacks.
    func value(of text: String) -> String {
        "CASE \(text) " + values.map { "WHEN '\($0.text)' THEN \(Self.literal($0.value))" }.joined(separator: " ") + " END"
    }

    /// 1 when `text` is one of `members`, 0 for the vocabulary's other texts, NULL for a text it lacks: a flag a rule
    /// reads by the row, as `value(of:)` reads the value.
    func flag(of text: String, members: Set<String>) -> String {
        "CASE \(text) " + values.map { "WHEN '\($0.text)' THEN \(members.contains($0.text) ? 1 : 0)" }.joined(separator: " ")
            + " END"
    }

    /// `('a', 'b')`: the texts whose value is one of `wanted`, for an `IN`; `('')` when none is, which no normalized
    /// text equals.
    func texts(valued wanted: Set<String>) -> String {
        let texts = values.filter { $0.value.map(wanted.contains) ?? false }.map { "'\($0.text)'" }
        return "(" + (texts.isEmpty ? "''" : texts.joined(separator: ", ")) + ")"
    }

    /// A value as an SQL literal (the texts are the project's own words, never quoted inside).
    private static func literal(_ value: String?) -> String { value.map { "'\($0)'" } ?? "NULL" }

    /// The place of `text` in the vocabulary, from 1 (a rule that prefers one text to another lists the preferred
    /// first); NULL for a text the vocabulary lacks.
    func rank(of text: String) -> String {
        "CASE \(text) " + values.enumerated().map { "WHEN '\($0.element.text)' THEN \($0.offset + 1)" }.joined(separator: " ")
            + " END"
    }
}
