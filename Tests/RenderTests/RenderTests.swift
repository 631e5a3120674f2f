import Foundation
import Metrics
@testable import Render
import SQLiteKit
import Testing

/// The table, JSON and CSV formats of a metric result, on a hand-made result that holds every kind of value:
/// thousands, negative money, a percent, an unknown value, a roll-up row and text that needs quoting.
@Suite struct MetricOutputTests {
    static let columns: [MetricResult.Column] = [
        .init("property", .text), .init("as_of", .date), .init("units", .count), .init("occupancy_pct", .percent),
        .init("vacancy_cost", .money), .init("avg_sqft", .decimal(0)),
    ]

    static let result = MetricResult(
        metric: "occupancy",
        parameters: [.init("properties", .list(["nexus_east", "b"])), .init("portfolio", .bool(true)),
                     .init("as_of", .null), .init("top", .integer(10))],
        tables: [
            MetricTable(name: "rows", title: "Occupancy at the latest snapshot", columns: columns, rows: [
                [.text("nexus_east"), .text("2026-11-20"), .integer(1250), .real(95.35), .real(1_234_567.5), .real(698.4)],
                [.text("b"), .null, .integer(7), .null, .real(-12.5), .real(1000)],
            ], total: [.text("portfolio"), .null, .integer(1257), .real(94.8), .real(1_234_555), .null]),
            MetricTable(name: "top_residents", title: "Top residents", columns: [.init("name", .text), .init("balance", .money)],
                        rows: [[.text("Smith, J \"Jr\""), .real(1500)], [.text("two\nlines"), .integer(3)]]),
        ])

    @Test func tableAlignsNumbersRightWithSeparatorsAndPercentSigns() {
        let expected = """
            Occupancy at the latest snapshot
            property    as_of       units  occupancy_pct  vacancy_cost  avg_sqft
            ----------  ----------  -----  -------------  ------------  --------
            nexus_east  2026-11-20  1,250         95.35%  1,234,567.50       698
            b           -               7              -        -12.50     1,000
            ----------  ----------  -----  -------------  ------------  --------
            portfolio   -           1,257         94.80%  1,234,555.00         -

            Top residents
            name            balance
            -------------  --------
            Smith, J "Jr"  1,500.00
            two lines          3.00

            """
        #expect(MetricOutput.render(Self.result, as: .table) == expected)
    }

    @Test func csvQuotesAsRFC4180AndPrintsPlainNumbers() {
        let expected = #"""
            property,as_of,units,occupancy_pct,vacancy_cost,avg_sqft
            nexus_east,2026-11-20,1250,95.35,1234567.50,698.4
            b,,7,,-12.50,1000
            portfolio,,1257,94.8,1234555.00,

            name,balance
            "Smith, J ""Jr""",1500.00
            "two
            lines",3.00

            """#
        #expect(MetricOutput.render(Self.result, as: .csv) == expected)
    }

    @Test func jsonParsesBackWithNumbersNullsAndStableKeyOrder() throws {
        let text = MetricOutput.render(Self.result, as: .json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["metric"] as? String == "occupancy")
        let parameters = try #require(object["parameters"] as? [String: Any])
        #expect(parameters["properties"] as? [String] == ["nexus_east", "b"] && parameters["portfolio"] as? Bool == true)
        #expect(parameters["as_of"] is NSNull && parameters["top"] as? Int == 10)
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows[0]["units"] as? Int == 1250 && rows[0]["occupancy_pct"] as? Double == 95.35)
        #expect(rows[0]["vacancy_cost"] as? Double == 1_234_567.5 && rows[0]["avg_sqft"] as? Double == 698.4)
        #expect(rows[1]["as_of"] is NSNull && rows[1]["occupancy_pct"] is NSNull && rows[1]["vacancy_cost"] as? Double == -12.5)
        let total = try #require(object["total"] as? [String: Any])
        #expect(total["property"] as? String == "portfolio" && total["units"] as? Int == 1257)
        let residents = try #require(object["top_residents"] as? [[String: Any]])
        #expect(residents.map { $0["name"] as? String } == ["Smith, J \"Jr\"", "two\nlines"])
        #expect(residents[1]["balance"] as? Double == 3)

        // Key order: the header, then the tables; each row's keys in column order.
        let positions = ["\"metric\"", "\"parameters\"", "\"rows\"", "\"total\"", "\"top_residents\""].map {
            text.range(of: $0)?.lowerBound ?? text.endIndex
        }
        #expect(positions == positions.sorted() && !positions.contains(text.endIndex))
        let firstRow = try #require(text.split(separator: "\n").first { $0.contains("nexus_east") && $0.contains("units") })
        let keys = Self.columns.map { firstRow.range(of: "\"\($0.name)\":")?.lowerBound ?? firstRow.endIndex }
        #expect(keys == keys.sorted() && !keys.contains(firstRow.endIndex))
        #expect(firstRow.contains("\"vacancy_cost\": 1234567.50"))
    }

    /// A property left out (no unit data, no snapshot) is named in the JSON itself, not only on stderr.
    @Test func jsonCarriesTheWarningsWhenThereAreAny() throws {
        var warned = Self.result
        warned.warnings = ["yp_x: no GetUnitInformation snapshot loaded: total units, occupancy ... are missing, not zero"]
        let object = try #require(try JSONSerialization.jsonObject(with: Data(MetricOutput.render(warned, as: .json).utf8)) as? [String: Any])
        #expect(object["warnings"] as? [String] == warned.warnings)
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(MetricOutput.render(Self.result, as: .json).utf8)) as? [String: Any])
        #expect(plain["warnings"] == nil)
    }

    @Test func jsonIsOneRowPerLineWithEveryStringEscaped() {
        let expected = #"""
            {
              "metric": "occupancy",
              "parameters": {"properties": ["nexus_east", "b"], "portfolio": true, "as_of": null, "top": 10},
              "rows": [
                {"property": "nexus_east", "as_of": "2026-11-20", "units": 1250, "occupancy_pct": 95.35, "vacancy_cost": 1234567.50, "avg_sqft": 698.4},
                {"property": "b", "as_of": null, "units": 7, "occupancy_pct": null, "vacancy_cost": -12.50, "avg_sqft": 1000}
              ],
              "total": {"property": "portfolio", "as_of": null, "units": 1257, "occupancy_pct": 94.8, "vacancy_cost": 1234555.00, "avg_sqft": null},
              "top_residents": [
                {"name": "Smith, J \"Jr\"", "balance": 1500.00},
                {"name": "two\nlines", "balance": 3.00}
              ]
            }

            """#
        #expect(MetricOutput.render(Self.result, as: .json) == expected)
        let odd = MetricResult(metric: "m\\", parameters: [.init("p\"", .text("tab\there"))], tables: [
            MetricTable(name: "rows", title: "T", columns: [.init("na\"me", .text)],
                        rows: [[.text("bell\u{7}del\u{7F}cr\r")], [.text("Zoë → Ñ")]], total: [.text("")]),
        ])
        #expect(MetricOutput.render(odd, as: .json) == #"""
            {
              "metric": "m\\",
              "parameters": {"p\"": "tab\there"},
              "rows": [
                {"na\"me": "bell\u0007del\u007fcr\r"},
                {"na\"me": "Zoë → Ñ"}
              ],
              "total": {"na\"me": ""}
            }

            """#)
    }

    @Test func withoutARollUpTheTotalIsNullAndTheTableHasNoSecondRule() throws {
        let single = MetricResult(metric: "exposure", parameters: [], tables: [
            MetricTable(name: "rows", title: "Exposure", columns: [.init("property", .text), .init("exposure_30", .count)],
                        rows: [[.text("a"), .integer(3)]]),
        ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(MetricOutput.render(single, as: .json).utf8)) as? [String: Any])
        #expect(object["total"] is NSNull)
        #expect(MetricOutput.render(single, as: .table) == "Exposure\nproperty  exposure_30\n--------  -----------\na                   3\n")
        let empty = MetricResult(metric: "funnel", parameters: [], tables: [
            MetricTable(name: "leads_by_source", title: "Leads by source", columns: [.init("source", .text)], rows: []),
        ])
        #expect(MetricOutput.render(empty, as: .table).hasSuffix("(no rows)\n"))
        #expect(MetricOutput.render(empty, as: .csv) == "source\n")
    }

    @Test func numbersAsText() {
        #expect(ValueText.fixed(1_234_567.891, decimals: 2, grouping: true) == "1,234,567.89")
        #expect(ValueText.fixed(-0.004, decimals: 2, grouping: true) == "0.00")
        #expect(ValueText.fixed(2.5, decimals: 0, grouping: false) == "3" && ValueText.fixed(-2.5, decimals: 0, grouping: false) == "-3")
        #expect(ValueText.count(-1_234_567) == "-1,234,567" && ValueText.count(999) == "999")
        #expect(ValueText.plain(95.0) == "95" && ValueText.plain(2.8062) == "2.8062")
    }
}
