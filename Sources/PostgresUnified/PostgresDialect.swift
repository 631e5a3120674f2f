import Foundation

/// The few places where unified.db's view SQL is SQLite's own, rewritten for PostgreSQL. Everything else in the views
/// is standard SQL both engines read alike; `PostgresSchemaTests` runs every view on both and compares the rows, so a
/// view that gains a SQLite-only construct fails there rather than in an analyst's BI tool.
enum PostgresDialect {
    /// One rewrite: a pattern over SQLite's text and its PostgreSQL form.
    struct Rewrite {
        let pattern: NSRegularExpression
        let template: String
        init(_ pattern: String, _ template: String) {
            self.pattern = try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            self.template = template
        }
    }

    static let rewrites: [Rewrite] = [
        // Days between two dates: SQLite counts Julian days; PostgreSQL subtracts dates.
        Rewrite(#"CAST\(julianday\(([\w.]+)\)\s*-\s*julianday\(([\w.]+)\)\s+AS\s+INTEGER\)"#, "($1 - $2)"),
        // A count of rows where a comparison holds: SQLite sums the 0/1 of the comparison.
        Rewrite(#"sum\((\w+)\s*(>|<|>=|<=|=)\s*(\d+)\)"#, "count(*) FILTER (WHERE $1 $2 $3)"),
        // Integer cents: PostgreSQL's integer is 32 bits, so a portfolio's sum of cents is taken as bigint.
        Rewrite(#"AS\s+INTEGER\)"#, "AS bigint)"),
    ]

    /// The PostgreSQL text of a SQLite `CREATE VIEW` statement.
    static func view(_ sql: String) -> String {
        var text = sql
        for rewrite in rewrites {
            text = rewrite.pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                            withTemplate: rewrite.template)
        }
        return text
    }
}
