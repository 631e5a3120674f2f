import Testing
@testable import SQLiteKit

@Suite struct StatementTests {
    /// Two statements' current values ordered as SQLite's ORDER BY orders them (BINARY collation), equal as `IS` says.
    @Test func valuesCompareAsSQLiteOrdersThem() throws {
        let dir = try TemporaryDirectory()
        let database = try Database(path: dir.path("compare.db"))
        // In SQLite's own order: NULL, numbers by value (an integer and a real of one value are one), text by its
        // bytes (a prefix first; precomposed é after e + combining accent), blobs.
        let values = ["NULL", "-2", "1", "1.0", "2.5", "''", "'a'", "'ab'", "'b'", "'e' || char(769)", "char(233)", "x'00'"]
        let select = "SELECT " + values.joined(separator: ", ")
        let left = try database.prepare(select), right = try database.prepare(select)
        #expect(try left.step() && right.step())
        for (i, a) in values.enumerated() {
            for (j, b) in values.enumerated() {
                let same = i == j || Set([a, b]) == Set(["1", "1.0"])
                let expected = same ? 0 : (i < j ? -1 : 1)
                #expect(left.compare(i, with: right, j) == expected, "\(a) against \(b)")
            }
        }
        // And SQLite's ORDER BY puts them in the order the list is written in (ties by position).
        let sorted = try database.query("""
            SELECT n FROM (\(values.enumerated().map { "SELECT \($1) AS v, \($0) AS n" }.joined(separator: " UNION ALL ")))
            ORDER BY v, n
            """).map { $0[0] }
        #expect(sorted == values.indices.map { .integer(Int64($0)) })
    }

    /// A column's storage class as SQLite reports it, the same that `value(at:)` reads the value by.
    @Test func storageClassesAreSQLitesOwn() throws {
        let dir = try TemporaryDirectory()
        let database = try Database(path: dir.path("classes.db"))
        let statement = try database.prepare("SELECT NULL, 7, 7.5, 'seven', x'07', CAST('7' AS INTEGER)")
        #expect(try statement.step())
        #expect((0..<6).map { statement.storageClass(at: $0) } == [.null, .integer, .real, .text, .blob, .integer])
        #expect((0..<6).map { statement.value(at: $0) } == [.null, .integer(7), .real(7.5), .text("seven"), .blob([7]), .integer(7)])
    }
}
