import Foundation
import OwnerDashCore
import Parse
import SQLiteKit
import Testing
@testable import RawStore

@Suite struct RecordPipelineTests {
    func activity(_ row: Int) -> ReportRecord {
        .activity(ActivityRow(activityDate: LocalDate(year: 2026, month: 11, day: 1)!, activityType: "E-mail", sourceRow: row))
    }

    func writer(_ fixture: LoaderFixture) -> RawReportWriter {
        RawReportWriter(database: fixture.store.database,
                        lineage: Lineage(runID: "run-1", propertyID: "nexus_east", asOf: LocalDate(iso: "2026-11-20")!,
                                         artifact: "a.xlsx", sha256: "00"))
    }

    @Test func everyRecordArrivesInOrder() throws {
        let fixture = try LoaderFixture()
        let rows = try fixture.store.database.withTransaction {
            let pipeline = RecordPipeline(writer: writer(fixture))
            for row in 1...10_000 { try pipeline.append(activity(row)) }
            return try pipeline.finish()
        }
        #expect(rows == 10_000)
        #expect(try fixture.store.database.query("SELECT count(*), min(source_row), max(source_row) FROM realpage_activity")
                == [[.integer(10_000), .integer(1), .integer(10_000)]])
    }

    @Test func aWriterErrorReachesTheParserAndNothingHangs() throws {
        let fixture = try LoaderFixture()
        try fixture.store.database.execute("""
            CREATE TEMP TRIGGER refuse_row_3000 BEFORE INSERT ON realpage_activity
            WHEN NEW.source_row = 3000 BEGIN SELECT RAISE(ABORT, 'row 3000 refused'); END;
            """)
        var caught: (any Error)?
        do {
            try fixture.store.database.withTransaction {
                let pipeline = RecordPipeline(writer: writer(fixture))
                do {
                    for row in 1...20_000 { try pipeline.append(activity(row)) }
                    _ = try pipeline.finish()
                } catch {
                    pipeline.abort()  // what the loader does; must return, even after finish
                    pipeline.abort()
                    throw error
                }
            }
        } catch {
            caught = error
        }
        #expect("\(caught.map { "\($0)" } ?? "no error")".contains("row 3000 refused"))
        #expect(try fixture.store.database.scalar("SELECT count(*) FROM realpage_activity") == .integer(0))
    }
}
