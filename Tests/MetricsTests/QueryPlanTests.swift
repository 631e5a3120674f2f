import SQLiteKit
@testable import Metrics
import Testing

/// Every metric query reaches the snapshot and activity tables through their keys (EXPLAIN QUERY PLAN), so a
/// property's answer costs its own rows, not the portfolio's: no full scan of a metrics table, ever.
@Suite struct QueryPlanTests {
    static let queries: [(name: String, sql: String)] = [
        ("snapshot dates", "WITH \(SnapshotSQL.latest) SELECT property, as_of FROM snapshot"),
        ("occupancy", OccupancyQuery.sql), ("exposure", ExposureQuery.sql), ("pricing", PricingQuery.sql),
        ("trade-out", TradeOutQuery.sql), ("delinquency", DelinquencyQuery.sql),
        ("delinquent residents", DelinquentResidentsQuery.sql), ("funnel", FunnelQuery.sql),
        ("leads by source", LeadSourcesQuery.sql), ("activity", ActivityQuery.sql), ("summary", SummaryQuery.sql),
    ]

    /// The tables that grow with history (a row per property per date, or per event / lease).
    static let largeTables = ["unified_occupancy_metrics", "unified_pricing_metrics", "unified_delinquency",
                              "unified_activity", "unified_leases", "unified_units", "unified_properties"]

    @Test(arguments: queries.map(\.name))
    func queryUsesTheKeys(name: String) throws {
        let sql = try #require(Self.queries.first { $0.name == name }?.sql)
        let (scans, plan) = try Self.fullScans(sql)
        #expect(scans.isEmpty, "\(name) scans a whole table:\n\(plan.joined(separator: "\n"))")
    }

    /// The summary counts each kind of event (leads, leases, move-ins, move-outs) by a range of the property's events of
    /// that kind (`unified_activity_by_type`), not every event of the 30 days.
    @Test func theSummaryCountsEventsByTypeAndDate() throws {
        let (_, plan) = try Self.fullScans(SummaryQuery.sql)
        let counts = plan.filter { $0.contains("unified_activity") }
        #expect(counts.count == 4 && counts.allSatisfy {
            $0.contains("COVERING INDEX unified_activity_by_type (unified_property_id=? AND event_type=? AND event_date>? AND event_date<?)")
        }, "\(plan.joined(separator: "\n"))")
    }

    /// The check itself sees a full scan, under an alias or not.
    @Test func aFullScanIsSeen() throws {
        #expect(try Self.fullScans("SELECT count(*) FROM unified_activity a WHERE a.source = :from").scans == ["SCAN a"])
        #expect(try Self.fullScans("SELECT count(*) FROM unified_delinquency WHERE name = :to").scans == ["SCAN unified_delinquency"])
        #expect(try Self.fullScans("SELECT * FROM unified_delinquency d WHERE d.unified_property_id = :to").scans.isEmpty)
    }

    /// The plan lines that read a whole large table (by name or by its alias in `sql`), and the whole plan.
    static func fullScans(_ sql: String) throws -> (scans: [String], plan: [String]) {
        let fixture = try OccupancyTests.portfolio()
        let database = try fixture.reader()
        let statement = try database.prepare("EXPLAIN QUERY PLAN " + sql)
        let values: [String: SQLValue] = [
            ":properties": .text("[\"alpha\"]"), ":snapshot_limit": .text("9999-12-31"), ":as_of": .null, ":from": .null,
            ":to": .null, ":top": .integer(10), ":trend": .integer(0), ":trend_from": .text("0000-01-01"),
            ":trend_to": .text("9999-12-31"),
        ]
        let plan = try statement.query(values.filter { statement.hasParameter($0.key) }).compactMap { $0.last?.textValue }
        // Names a large table goes by in this SQL: its own, and the alias written after it (`unified_activity a`).
        var names = Set(largeTables)
        let words = sql.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).map(String.init)
        let keywords: Set<String> = ["ON", "WHERE", "JOIN", "LEFT", "GROUP", "ORDER", "USING", "AS", "WHEN", "THEN", "AND", "LIMIT"]
        for (index, word) in words.enumerated() where largeTables.contains(word) && index + 1 < words.count {
            var alias = words[index + 1]
            if alias.uppercased() == "AS", index + 2 < words.count { alias = words[index + 2] }
            if !keywords.contains(alias.uppercased()) { names.insert(alias) }
        }
        let scans = plan.filter { line in
            let parts = line.split(separator: " ")
            return parts.first == "SCAN" && parts.count > 1 && names.contains(String(parts[1])) && !line.contains("USING")
        }
        return (scans, plan)
    }
}
