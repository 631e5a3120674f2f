import SQLiteKit
@testable import Sync
import Testing

/// A vocabulary read as a table and as an expression gives every text the same value, and its place as its rank.
@Suite struct SQLVocabularyTests {
    @Test func theTableAndTheExpressionAgreeOnEveryTextItsRankIsItsPlaceAndAnUnknownTextHasNeither() throws {
        let database = try Database(path: ":memory:")
        for vocabulary in [RealPageLeases.leaseStatuses, RealPageUnits.rentRollStatuses, RealPageResidents.residentStatuses] {
            let texts = vocabulary.values.map(\.text) + ["pending renewal"]
            for text in texts {
                let row = try #require(try database.query("""
                    WITH \(vocabulary.cte)
                    SELECT (SELECT \(vocabulary.valueColumn) FROM \(vocabulary.table) WHERE \(vocabulary.textColumn) = :text),
                           \(vocabulary.value(of: ":text")), \(vocabulary.rank(of: ":text"))
                    """, [":text": .text(text)]).first)
                let place = vocabulary.values.firstIndex { $0.text == text }
                #expect(row[0] == row[1], "\(vocabulary.table): '\(text)'")
                #expect((row[1] == .null) == (place.flatMap { vocabulary.values[$0].value } == nil), "\(vocabulary.table): '\(text)'")
                #expect(row[2] == (place.map { .integer(Int64($0 + 1)) } ?? .null), "\(vocabulary.table): '\(text)'")
            }
        }
    }
}
