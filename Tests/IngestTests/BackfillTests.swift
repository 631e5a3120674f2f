import Foundation
import OwnerDashCore
import SQLiteKit
import SimulatorSupport
import Testing
@testable import Ingest

/// `ownerdash backfill` after a first ingest: 24 month ends per property on the first day, marked as backfilled
/// (a run with trigger `backfill`, rows in unified_occupancy_history, hollow points on the dashboard), each month
/// end's occupied units equal to what the simulator's own world says (its truth file, not the served bytes).
@Suite struct BackfillTests {
    @Test func backfillGivesEachPropertyItsMonthEndsMarkedAsBackfilled() throws {
        let simulator = try PMSSimulator.shared.get()
        let directory = try DataDir()
        let properties = ["nexus_east", "yp_riverwalk"]
        let selection = properties.flatMap { ["--property", $0] }
        let ingest = try directory.ownerdash(["ingest"] + selection + ["--as-of", PMSSimulator.asOf, "--parallel", "4"],
                                             environment: simulator.environment)
        #expect(ingest.status == 0, "stderr: \(ingest.stderr)")

        let backfill = try directory.ownerdash(["backfill", "--months", "24"] + selection)
        #expect(backfill.status == 0, "stderr: \(backfill.stderr)")
        let runID = try #require(backfill.runID, "stdout: \(backfill.stdout)")
        let run = try directory.runRow(runID)
        #expect(run.text("trigger") == "backfill" && run.text("status") == "succeeded")
        let items = try directory.items(runID)
        #expect(items.map { $0.text("property_id") } == properties)
        #expect(items.allSatisfy { $0.int("rows") == 24 && $0.text("status") == "succeeded" })

        let truth = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: simulator.truthPath))) as? [String: Any])
        let truthProperties = try #require(truth["properties"] as? [String: [String: Any]])
        let unified = try directory.unified()
        for property in properties {
            let expected = try #require(truthProperties[property]?["occupied_by_month_end"] as? [String: Int])
            let rows = try unified.query("""
                SELECT as_of_date, occupied_units, total_units, run_id FROM unified_occupancy_history
                WHERE unified_property_id = :property ORDER BY as_of_date
                """, [":property": .text(property)])
            #expect(rows.count == 24, "\(property)")
            #expect(rows.first?[0] == .text("2024-11-30") && rows.last?[0] == .text("2026-10-31"), "\(property)")
            var actual: [String: Int] = [:]
            for row in rows { actual[row[0].textValue ?? ""] = Int(row[1].integerValue ?? -1) }
            #expect(actual == expected, "\(property): occupied units per month end")
            #expect(rows.allSatisfy { $0[3] == .text(runID) })
        }

        // The dashboard's trend starts 24 months back, its backfilled points hollow and said so.
        let page = directory.root.appendingPathComponent("dashboard.html").path
        let dashboard = try directory.ownerdash(["dashboard", "--out", page])
        #expect(dashboard.status == 0, "stderr: \(dashboard.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.components(separatedBy: "point-occupancy backfilled").count - 1 == 48)
        #expect(html.contains("24 month ends from"))
    }
}
