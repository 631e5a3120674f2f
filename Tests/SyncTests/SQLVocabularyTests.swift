import SQLiteKit
@testable import Sync
import Testing

/// A vocabulary read as a table and as an expression gives every text the same value.
@Suite struct SQLVocabularyTests {
    @Test func theTableAndTheExpressionAgreeOnEveryTextAndAnUnknownTextHasNoValue() throws {
        let database = try Database(path: ":memory:")
        for vocabulary in [RealPageLeases.leaseStatuses, RealPageUnits.rentRollStatuses] {
            let texts = vocabulary.values.map(\.text) + ["pending renewal"]
            for text in texts {
                let row = try #require(try database.query("""
                    WITH \(vocabulary.cte)
                    SELECT (SELECT \(vocabulary.valueColumn) FROM \(vocabulary.table) WHERE \(vocabulary.textColumn) = :text),
                           \(vocabulary.value(of: ":text"))
                    """, [":text": .text(text)]).first)
                #expect(row[0] == row[1], "\(vocabulary.table): '\(text)'")
                #expect((row[1] == .null) == (text == "pending renewal"), "\(vocabulary.table): '\(text)'")
            }
        }
    }
}
