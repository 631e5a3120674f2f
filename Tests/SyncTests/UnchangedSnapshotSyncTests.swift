import Foundation
import OwnerDashCore
import RawStore
import SOAP
import SQLiteKit
import SimulatorSupport
import Testing
@testable import Sync

/// The sync of a night whose unit and resident lists were recorded unchanged (not stored again) reads the stored
/// night's rows: the same units and residents, the same checks, a metric row for the new date.
@Suite struct UnchangedSnapshotSyncTests {
    @Test func aNightRecordedUnchangedSyncsFromTheStoredNightsRows() throws {
        let fixture = try YardiFixture()
        func load(_ name: String, _ operation: YardiOperation, run: String, asOf: String) throws -> YardiLoadOutcome {
            try YardiArtifactLoader(store: fixture.raw, runID: RunID(run)).load(
                path: repositoryRoot.appendingPathComponent("Tests/Fixtures/soap/\(name)").path, operation: operation,
                property: YardiFixture.property, asOf: LocalDate(iso: asOf)!)
        }
        for (run, day) in [("run-1", "2026-11-20"), ("run-2", "2026-11-21")] {
            _ = try load("yardi_get_unit_information.xml", .getUnitInformation, run: run, asOf: day)
            let residents = try load("yardi_get_residents_by_status.xml", .getResidentsByStatus, run: run, asOf: day)
            #expect((residents.unchangedSinceRun == nil) == (run == "run-1"))
        }
        fixture.sync(runID: "20261121T000000Z-test")
        // The property date is the second night's; its units are the first night's rows.
        #expect(try fixture.rows("SELECT count(*) FROM unified_units") == [[.integer(4)]])
        #expect(try fixture.rows("SELECT count(*) FROM unified_residents") == [[.integer(3)]])
        #expect(try fixture.rows("SELECT as_of_date, total_units FROM unified_occupancy_metrics")
                == [[.text("2026-11-21"), .integer(4)]])
        #expect(try fixture.rows("SELECT status, expected, actual FROM sync_checks WHERE check_name = 'unit_information'")
                == [[.text("passed"), .real(4), .real(4)]])
    }
}
