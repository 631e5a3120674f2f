import Foundation
import OwnerDashCore
import SQLiteKit
import Testing
@testable import RawStore

/// The lineage rows no raw row names any more (RawRetention.sweepsLineage): swept by the week's prune, left by the others.
@Suite struct LineageSweepTests {
    func day(_ iso: String) throws -> Date {
        try #require(Timestamp.date(iso + "T02:30:00Z"))
    }

    @Test func theLineageIsSweptOnSundaysOnly() throws {
        // 2026-11-29 and 1970-01-04 were Sundays.
        #expect(try RawRetention.sweepsLineage(at: day("2026-11-29")))
        #expect(try RawRetention.sweepsLineage(at: day("1970-01-04")))
        #expect(try RawRetention.sweepsLineage(at: day("2026-12-06")))
        for other in ["2026-11-28", "2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05"] {
            #expect(try !RawRetention.sweepsLineage(at: day(other)), "\(other)")
        }
    }

    @Test func theSweepRemovesTheLineageNoRowNamesAndNothingElse() throws {
        let fixture = try LoaderFixture()
        _ = try fixture.loader().load(path: fixture.report("rent_roll_two_row_header.xlsx"))
        let database = fixture.store.database
        let named = try database.query("SELECT DISTINCT lineage_id FROM realpage_rent_roll")
        #expect(named.count == 1)
        let orphan = try RawLineage.id(database, runID: "run-0", propertyID: "nexus_east", asOf: "2026-02-01",
                                       artifact: "realpage/nexus_east/rent_roll.xlsx", sha256: String(repeating: "b", count: 64))
        let lineage = "SELECT id FROM raw_lineage ORDER BY id"
        let before = try database.query(lineage)
        #expect(before.contains([.integer(orphan)]))
        let policy = RawSnapshotPolicy(keepDays: 3650, keepMonthly: 120)

        let other = try RawRetention.prune(path: database.path, keyColumn: "report_type", policy: policy, dryRun: false,
                                           sweepLineage: false)
        #expect(other.lineageRemoved == nil && other.rows == 0)
        #expect(try database.query(lineage) == before, "another night's prune leaves it")

        let sunday = try RawRetention.prune(path: database.path, keyColumn: "report_type", policy: policy, dryRun: false,
                                            sweepLineage: true)
        #expect(sunday.lineageRemoved == 1, "swept although this prune removed no row")
        #expect(try database.query(lineage) == before.filter { $0 != [.integer(orphan)] })
        #expect(try database.query("SELECT DISTINCT lineage_id FROM realpage_rent_roll") == named)
        #expect(try database.scalar("SELECT count(*) FROM v_realpage_rent_roll") == database.scalar("SELECT count(*) FROM realpage_rent_roll"))
    }
}
