import Foundation
import OwnerDashCore
import SOAP
import SQLiteKit
import Testing
@testable import RawStore

/// A temporary yardi_raw.db and copies of the recorded SOAP fixtures to load.
final class YardiFixture {
    let directory: URL
    let store: YardiRawStore
    let property = Property(key: "yp_riverwalk", name: "Riverwalk Commons", pms: .yardi, propertyCode: "rvwalk01")
    let asOf = LocalDate(year: 2026, month: 11, day: 20)!

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("yardiraw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try YardiRawStore(path: directory.appendingPathComponent("yardi_raw.db").path)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A copy of a fixture (optionally edited) in the temporary directory.
    func artifact(_ fixture: String, as name: String? = nil, edit: (String) -> String = { $0 }) throws -> String {
        let source = LoaderFixture.repository.appendingPathComponent("Tests/Fixtures/soap/\(fixture)")
        let text = edit(try String(contentsOf: source, encoding: .utf8))
        let path = directory.appendingPathComponent(name ?? fixture).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func loader(run: String = "run-1") -> YardiArtifactLoader { YardiArtifactLoader(store: store, runID: RunID(run)) }

    func rows(_ sql: String) throws -> [[SQLValue]] { try store.database.query(sql) }
}

@Suite struct YardiLoaderTests {
    @Test func everyOperationLandsInItsTableWithLineage() throws {
        let fixture = try YardiFixture()
        let files: [(YardiOperation, String, Int)] = [
            (.getPropertyConfigurations, "yardi_get_property_configurations.xml", 1),
            (.getUnitInformation, "yardi_get_unit_information.xml", 4),
            (.getResidentsByStatus, "yardi_get_residents_by_status.xml", 3),
            (.getResidentLeaseCharges, "yardi_get_resident_lease_charges.xml", 8),
            (.getResidentTransactions, "yardi_get_resident_transactions.xml", 8),
            (.availableUnits, "yardi_available_units.xml", 3),
            (.getYardiGuestActivity, "yardi_guest_activity.xml", 10),
        ]
        for (operation, file, rows) in files {
            let outcome = try fixture.loader().load(path: try fixture.artifact(file), operation: operation,
                                                    property: fixture.property, asOf: fixture.asOf)
            #expect(outcome.rows == rows, "\(operation)")
            #expect(try fixture.rows("SELECT count(*) FROM \(YardiRawStore.table(of: operation))")[0][0] == .integer(Int64(rows)))
        }
        // Only the property's own configuration is kept (the payload lists two).
        #expect(try fixture.rows("SELECT property_code, accounts_receivable FROM yardi_properties")
                == [[.text("rvwalk01"), .text("2026-11")]])
        let unit = try fixture.rows("""
            SELECT run_id, property_id, as_of_date, source_row, unit_code, market_rent, date_available, length(artifact_sha256)
            FROM v_yardi_units WHERE unit_code = '1101'
            """)
        #expect(unit == [[.text("run-1"), .text("yp_riverwalk"), .text("2026-11-20"), .integer(1), .text("1101"),
                          .real(1715), .text("2026-12-06"), .integer(64)]])
        // Open balance as an analyst would sum it.
        #expect(try fixture.rows("SELECT sum(balance_due) FROM yardi_transactions WHERE kind = 'charge'") == [[.real(129)]])
        #expect(try fixture.rows("SELECT kind, payment_type, post_month, reversal FROM yardi_transactions WHERE kind = 'payment'")
                == [[.text("payment"), .text("Check"), .text("2024-12"), .integer(0)]])
        #expect(try fixture.rows("SELECT count(*) FROM yardi_guest_activity WHERE first_contact = 1") == [[.integer(2)]])
    }

    @Test func loadingTheSameBytesAgainChangesNothing() throws {
        let fixture = try YardiFixture()
        let path = try fixture.artifact("yardi_get_unit_information.xml")
        let first = try fixture.loader(run: "run-1").load(path: path, operation: .getUnitInformation, property: fixture.property, asOf: fixture.asOf)
        let before = try fixture.rows("SELECT * FROM yardi_units ORDER BY id")
        let again = try fixture.loader(run: "run-2").load(path: path, operation: .getUnitInformation, property: fixture.property, asOf: fixture.asOf)
        #expect(!first.alreadyLoaded && again.alreadyLoaded && again.rows == 4)
        #expect(try fixture.rows("SELECT * FROM yardi_units ORDER BY id") == before)
        #expect(try fixture.rows("SELECT run_id FROM loaded_artifacts") == [[.text("run-1")]])
    }

    @Test func newBytesForTheSameSnapshotReplaceIt() throws {
        let fixture = try YardiFixture()
        let loader = fixture.loader()
        _ = try loader.load(path: try fixture.artifact("yardi_get_unit_information.xml"), operation: .getUnitInformation,
                            property: fixture.property, asOf: fixture.asOf)
        let fewer = try fixture.artifact("yardi_get_unit_information.xml", as: "fewer.xml") { text in
            // Drop the last UnitInfo.
            guard let start = text.range(of: "<UnitInfo><UnitID UniqueID=\"101001003\">"),
                  let end = text.range(of: "</UnitInfo>", range: start.upperBound..<text.endIndex) else { return text }
            return text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")
        }
        let outcome = try loader.load(path: fewer, operation: .getUnitInformation, property: fixture.property, asOf: fixture.asOf)
        #expect(outcome.rows == 3 && !outcome.alreadyLoaded)
        #expect(try fixture.rows("SELECT count(*) FROM yardi_units") == [[.integer(3)]])
        #expect(try fixture.rows("SELECT artifact, row_count FROM loaded_artifacts") == [[.text(fewer), .integer(3)]])
    }

    @Test func aBadArtifactLeavesTheDatabaseAsItWas() throws {
        let fixture = try YardiFixture()
        let loader = fixture.loader()
        _ = try loader.load(path: try fixture.artifact("yardi_get_unit_information.xml"), operation: .getUnitInformation,
                            property: fixture.property, asOf: fixture.asOf)
        let before = try fixture.rows("SELECT * FROM yardi_units ORDER BY id")
        // A value the decoder refuses: nothing of the new artifact is written, the old snapshot stays.
        let bad = try fixture.artifact("yardi_get_unit_information.xml", as: "bad.xml") {
            $0.replacingOccurrences(of: "<MinSquareFeet>1083</MinSquareFeet>", with: "<MinSquareFeet>big</MinSquareFeet>")
        }
        #expect {
            try loader.load(path: bad, operation: .getUnitInformation, property: fixture.property, asOf: fixture.asOf)
        } throws: { "\($0)" == "GetUnitInformation for yp_riverwalk: UnitInfo 4: MinSquareFeet: \"big\" is not a whole number" }
        // A row the database refuses half-way through the insert: the delete and the rows before it roll back.
        try fixture.store.database.execute("""
            CREATE TRIGGER refuse_1104 BEFORE INSERT ON yardi_units WHEN NEW.unit_code = '1104'
            BEGIN SELECT RAISE(ABORT, 'unit 1104 refused'); END
            """)
        let changed = try fixture.artifact("yardi_get_unit_information.xml", as: "changed.xml") {
            $0.replacingOccurrences(of: "<MarketRent>1715.00</MarketRent>", with: "<MarketRent>1799.00</MarketRent>")
        }
        #expect(throws: (any Error).self) {
            try loader.load(path: changed, operation: .getUnitInformation, property: fixture.property, asOf: fixture.asOf)
        }
        #expect(try fixture.rows("SELECT * FROM yardi_units ORDER BY id") == before)
        #expect(try fixture.rows("SELECT count(*) FROM loaded_artifacts") == [[.integer(1)]])
    }

    @Test func anErrorResponseIsRefusedWithItsReason() throws {
        let fixture = try YardiFixture()
        #expect {
            try fixture.loader().load(path: try fixture.artifact("yardi_messages_error.xml"), operation: .getUnitInformation,
                                      property: fixture.property, asOf: fixture.asOf)
        } throws: { "\($0)".hasPrefix("GetUnitInformation for yp_riverwalk: login failed") }
        let other = Property(key: "yp_elsewhere", name: "Elsewhere", pms: .yardi, propertyCode: "nowhere1")
        #expect {
            try fixture.loader().load(path: try fixture.artifact("yardi_get_property_configurations.xml"),
                                      operation: .getPropertyConfigurations, property: other, asOf: fixture.asOf)
        } throws: { "\($0)".contains("property code nowhere1 is not among the 2 properties") }
        #expect(try fixture.rows("SELECT count(*) FROM loaded_artifacts") == [[.integer(0)]])
    }

    @Test func theSchemaIsVersionedAndReopensWithoutMigrating() throws {
        let fixture = try YardiFixture()
        // Migration 2 (yardi_service_requests), 3 (yardi_invoice_lines), 4 (the ledger merged by transaction) and 7
        // (unchanged snapshots) came after the first SOAP tables, then 8 (raw rows keyed by lineage) and 9 (the change
        // log keyed by lineage), 10 (loaded artifacts indexed by property), 11 (AvailableUnits' declared unit count),
        // 12 (transactions by the load that wrote them), 13 (the ledger's removals counted), 14 (lease charges without
        // a lease id), 15 (the raw state's token per property), 16 (the ledger's customer records), 17 (the open charges),
        // 18 (the ledger's removals logged), 19 (the tenant index holding each charge's lease and dates); the gap is
        // other work's numbers.
        #expect(try fixture.store.database.userVersion() == 19)
        #expect(YardiRawSchema.migrations.map(\.version) == [1, 2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19])
        let again = try YardiRawStore(path: fixture.store.database.path)
        #expect(try again.database.scalar("SELECT count(*) FROM schema_migrations") == .integer(17))
        // Created with incremental auto-vacuum, so prune can give freed pages back.
        #expect(try again.database.scalar("PRAGMA auto_vacuum") == .integer(2))
    }
}
