import Foundation
import Testing
@testable import OwnerDashCore

@Suite struct LocalDateTests {
    @Test func parsesAndPrintsISO() {
        #expect(LocalDate(iso: "2024-02-29")?.iso == "2024-02-29")
        #expect(LocalDate(iso: "2023-02-29") == nil)
        #expect(LocalDate(iso: "2024-2-9") == nil)
        #expect(LocalDate(iso: "02/08/2026") == nil)
    }

    @Test func epochDayArithmeticRoundTrips() {
        let day = LocalDate(year: 1900, month: 3, day: 1)!
        #expect(LocalDate(year: 1970, month: 1, day: 1)!.daysSinceEpoch == 0)
        #expect(LocalDate(daysSinceEpoch: day.daysSinceEpoch) == day)
        #expect(LocalDate(year: 2026, month: 2, day: 28)!.adding(days: 1).iso == "2026-03-01")
        #expect(LocalDate(year: 2024, month: 2, day: 28)!.adding(days: 1).iso == "2024-02-29")
        #expect(LocalDate(year: 2025, month: 12, day: 31)!.adding(days: 1).iso == "2026-01-01")
    }
}

@Suite struct MoneyTests {
    @Test func roundsHalfAwayFromZeroToCents() {
        #expect(Money(dollars: 1234.505)?.cents == 123451)
        #expect(Money(dollars: -125.005)?.cents == -12501)
        #expect(Money(dollars: 0.1 + 0.2)?.cents == 30)
    }

    /// A money cell from a file can hold any double: the ones that do not fit are refused, never a trap.
    @Test func refusesAmountsThatDoNotFit() {
        #expect(Money(dollars: 10_000_000_000)?.cents == 1_000_000_000_000)
        #expect(Money(dollars: -10_000_000_000)?.cents == -1_000_000_000_000)
        #expect(Money(dollars: 10_000_000_000.01) == nil)
        #expect(Money(dollars: 1e17) == nil)
        #expect(Money(dollars: -1e300) == nil)
        #expect(Money(dollars: .nan) == nil)
        #expect(Money(dollars: .infinity) == nil)
        #expect(Money(dollars: -.infinity) == nil)
    }

    @Test func printsTwoDecimals() {
        #expect(Money(cents: -567560).description == "-5675.60")
        #expect(Money(cents: 5).description == "0.05")
    }
}

@Suite struct ConfigurationTests {
    func write(_ json: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString).json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theShippedRegistryHasTheTwentyFiveRealPageProperties() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let configuration = try Configuration.load(path: root.appendingPathComponent("report_definitions.json").path)
        #expect(configuration.pmcID == "4248314")
        #expect(configuration.properties.filter { $0.pms == .realpage }.count == 25)
        #expect(configuration.property(key: "nexus_east")?.siteID == "5472172")
        #expect(configuration.property(named: "EDISON AT RINO")?.key == "edison_rino")
        #expect(configuration.property(named: "thePearl")?.key == "the_pearl")
        #expect(configuration.realpage.reports.map(\.reportID).contains(4238))
    }

    @Test func aMissingFieldIsNamed() throws {
        let path = try write(#"{"pmc_id": "1", "properties": [{"key": "a", "pms": "realpage", "site_id": "1"}], "realpage": {"reports_url": "x", "rpx_url": "y", "reports": []}}"#)
        #expect {
            try Configuration.load(path: path)
        } throws: { error in
            "\(error)".contains("missing field \"name\"") && "\(error)".contains("properties[0]")
        }
    }

    @Test func duplicateKeysAreRefused() throws {
        let path = try write(#"{"pmc_id": "1", "properties": [{"key": "a", "name": "A", "pms": "realpage", "site_id": "1"}, {"key": "a", "name": "B", "pms": "realpage", "site_id": "2"}], "realpage": {"reports_url": "x", "rpx_url": "y", "reports": []}}"#)
        #expect {
            try Configuration.load(path: path)
        } throws: { error in
            "\(error)".contains("property key \"a\" appears twice")
        }
    }
}

/// Log lines as machines read them: JSON fields of their own, timestamps on text lines when asked.
@Suite struct DiagnosticsTests {
    final class Lines: @unchecked Sendable {
        var lines: [String] = []
    }

    @Test func jsonLinesCarryTheRunAndTheItemAsFields() throws {
        let sink = Lines()
        let log = Diagnostics(format: .json, sink: { sink.lines.append($0) })
        log.info(nil, "before the run")
        log.runID = "20261123T023000Z-0001"
        log.info(nil, "load: [1] box_score", LogFields(stage: "load", property: "nexus_east",
                                                       artifact: "realpage/nexus_east/box_score.xlsx", rows: 42,
                                                       durationMilliseconds: 17))
        let objects = try sink.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects[0]["run_id"] == nil && objects[0]["stage"] == nil)
        #expect(objects[1]["run_id"] as? String == "20261123T023000Z-0001")
        #expect(objects[1]["stage"] as? String == "load" && objects[1]["property"] as? String == "nexus_east")
        #expect(objects[1]["artifact"] as? String == "realpage/nexus_east/box_score.xlsx")
        #expect(objects[1]["rows"] as? Int == 42 && objects[1]["duration_ms"] as? Int == 17)
        #expect(sink.lines[1].contains("\"realpage/nexus_east/box_score.xlsx\""), "slashes unescaped: \(sink.lines[1])")
    }

    @Test func textLinesStartWithTheirTimeWhenAsked() {
        let plain = Lines(), stamped = Lines()
        Diagnostics(sink: { plain.lines.append($0) }).warning("nexus_east", "check failed")
        Diagnostics(timestamps: true, sink: { stamped.lines.append($0) }).warning("nexus_east", "check failed")
        #expect(plain.lines == ["nexus_east: warning: check failed"])
        #expect(stamped.lines.first?.range(of: #"^20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ nexus_east: warning: check failed$"#,
                                           options: .regularExpression) != nil, "\(stamped.lines)")
    }
}
