import SQLiteKit
@testable import Sync
import Testing

/// A vocabulary read as a table and as an expression gives every text the same value, and its place as its rank.
@Suite struct SQLVocabularyTests {
    @Test func theTableAndTheExpressionAgreeOnEveryTextItsRankIsItsPlaceAndAnUnknownTextHasNeither() throws {
        let database = try Database(path: ":memory:")
        for vocabulary in [RealPageLeases.leaseStatuses, RealPageUnits.rentRollStatuses, RealPageResidents.residentStatuses,
                           RealPageActivity.activityTypes, YardiActivity.eventTypes] {
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

    /// The Activity report's types as its rule reads them: a flag is 1 for its members, 0 for the other known types and
    /// NULL for a type the vocabulary lacks (as the table's column was); `texts(valued:)` lists the types of a value.
    @Test func aFlagKnowsItsMembersAndTheTextsOfAValueAreListed() throws {
        let database = try Database(path: ":memory:")
        let types = RealPageActivity.activityTypes
        for (text, expected) in [("visit", SQLValue.integer(1)), ("visit (return)", .integer(0)), ("chat", .null)] {
            let flag = try database.scalar("SELECT \(types.flag(of: ":text", members: RealPageActivity.alsoTourTypes))",
                                            [":text": .text(text)])
            #expect(flag == expected, "also_tour of '\(text)'")
        }
        let moveIn = try database.scalar("SELECT \(types.flag(of: ":text", members: RealPageActivity.residentEventTypes))",
                                         [":text": .text("move-in")])
        #expect(moveIn == .integer(1))
        let tours = try database.query("SELECT value FROM (SELECT column1 AS value FROM (VALUES ('tour'), ('visit'), ('self-guided - tour'))) WHERE value IN \(types.texts(valued: ["tour"])) ORDER BY 1")
        #expect(tours == [[.text("self-guided - tour")], [.text("tour")]])
        #expect(types.texts(valued: ["no such value"]) == "('')")
    }
}
