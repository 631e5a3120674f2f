import Foundation
import PostgresTestSupport
import Testing
@testable import PostgresKit

/// PostgresConnection against the real test server: parameters, transactions, COPY both ways, errors.
@Suite struct PostgresConnectionTests {
    @Test func namedParametersAreSentAsTextAndCastByTheServer() throws {
        let db = try PostgresConnection(url: TestPostgres.freshDatabase("params"))
        try db.execute("CREATE TABLE units (unit_number text PRIMARY KEY, market_rent numeric, as_of date, ready boolean)")
        try db.execute("INSERT INTO units VALUES (:unit, :rent, :date, :ready)",
                       ["unit": "A-101", "rent": .real(1234.56), "date": "2026-11-20", "ready": .boolean(true)])
        try db.execute("INSERT INTO units VALUES (:unit, :rent, NULL, NULL)", ["unit": "it's", "rent": .null])
        let rows = try db.query("SELECT unit_number, market_rent, as_of::text AS as_of, ready FROM units WHERE unit_number = :unit",
                                ["unit": "A-101"])
        let row = try #require(Array(rows).first)
        #expect(row["market_rent"] == "1234.56")
        #expect(row["as_of"] == "2026-11-20")
        #expect(row["ready"] == "t")
        // `::` casts and quoted colons are not parameters.
        #expect(try db.scalar("SELECT ':not_a_parameter' || :x::text", ["x": 5]) == ":not_a_parameter5")
        #expect(try db.scalar("SELECT market_rent FROM units WHERE unit_number = 'it''s'") == nil)
    }

    @Test func aMissingParameterIsAnErrorNamingIt() throws {
        let db = try PostgresConnection(url: TestPostgres.freshDatabase("missing"))
        #expect(throws: PostgresError.self) { try db.query("SELECT :a::int + :b::int", ["a": 1]) }
        do { _ = try db.query("SELECT :a::int + :b::int", ["a": 1]); Issue.record("no error") } catch {
            #expect("\(error)".contains(":b"))
        }
    }

    @Test func aFailedTransactionLeavesNothingAndTheConnectionUsable() throws {
        let db = try PostgresConnection(url: TestPostgres.freshDatabase("tx"))
        try db.execute("CREATE TABLE t (id int PRIMARY KEY)")
        #expect(throws: PostgresError.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (1)")
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM t") == "0")
        do { try db.execute("INSERT INTO t VALUES (1); INSERT INTO t VALUES (1)") } catch let error as PostgresError {
            #expect(error.sqlState == "23505")
            #expect(error.description.contains("duplicate key"))
        }
    }

    @Test func copyRoundTripsEveryAwkwardCharacterAndNull() throws {
        let db = try PostgresConnection(url: TestPostgres.freshDatabase("copy"))
        try db.execute("CREATE TABLE notes (id int, body text)")
        let bodies: [String?] = ["plain", "tab\there", "line\nbreak", "back\\slash", "cr\rlf", "\\N", nil, "", "ünïcødé €", "\u{8}\u{c}\u{b}"]
        let sent = try db.copyIn("COPY notes (id, body) FROM STDIN", rows: bodies.enumerated().map { [String($0.offset), $0.element] })
        #expect(sent == bodies.count)
        var read: [String?] = []
        try db.copyOut("COPY (SELECT body FROM notes ORDER BY id) TO STDOUT") { read.append($0.text(0)) }
        #expect(read == bodies)
        #expect(try db.scalar("SELECT count(*) FROM notes WHERE body IS NULL") == "1")
    }

    @Test func aCopyTheServerRefusesIsAnErrorAndLeavesTheConnectionUsable() throws {
        let db = try PostgresConnection(url: TestPostgres.freshDatabase("badcopy"))
        try db.execute("CREATE TABLE n (id int NOT NULL)")
        do { try db.copyIn("COPY n (id) FROM STDIN", rows: [["1"], ["x"]]); Issue.record("copied an id of x") } catch {
            #expect("\(error)".contains("COPY n, line 2, column id"), "the error names the table, line and column: \(error)")
        }
        #expect(throws: PostgresError.self) { try db.copyIn("COPY n (id) FROM STDIN", rows: [[nil]]) }
        #expect(try db.scalar("SELECT count(*) FROM n") == "0")
    }

    @Test func aConnectionFailureNamesTheURLWithoutItsPassword() throws {
        let url = try DatabaseURL("postgresql://owner:s3cret@127.0.0.1:1/nowhere?connect_timeout=2")
        do { _ = try PostgresConnection(url: url); Issue.record("connected to port 1") } catch {
            let text = "\(error)"
            #expect(text.contains("127.0.0.1:1/nowhere"))
            #expect(!text.contains("s3cret"))
        }
        #expect(DatabaseURL.redact("postgresql://h/db?user=a&password=pw&sslmode=require") == "postgresql://h/db?user=a&password=***&sslmode=require")
        #expect(throws: PostgresError.self) { try DatabaseURL("mysql://x") }
    }
}
