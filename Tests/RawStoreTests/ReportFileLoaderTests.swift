import Foundation
import LibCryptoKit
import OwnerDashCore
import Parse
@testable import RawStore
import SQLiteKit
import Testing

/// A temporary data directory with a fresh realpage_raw.db, removed afterwards.
final class LoaderFixture {
    let directory: URL
    let store: RealPageRawStore
    let configuration: Configuration
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rawstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try RealPageRawStore(path: directory.appendingPathComponent("realpage_raw.db").path)
        configuration = try Configuration.load(path: Self.repository.appendingPathComponent("report_definitions.json").path)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func report(_ name: String) -> String {
        Self.repository.appendingPathComponent("Tests/Fixtures/reports/\(name)").path
    }

    /// Tests/Fixtures/soap/`fixture`, edited by `edit`, written into the fixture's directory as `name`; its path.
    func soapCopy(_ fixture: String, as name: String? = nil, edit: (String) -> String = { $0 }) throws -> String {
        let source = Self.repository.appendingPathComponent("Tests/Fixtures/soap/\(fixture)")
        let path = directory.appendingPathComponent(name ?? fixture).path
        try Data(edit(try String(contentsOf: source, encoding: .utf8)).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func loader(run: String = "run-1") -> ReportFileLoader {
        ReportFileLoader(store: store, configuration: configuration, runID: RunID(run))
    }

    func count(_ table: String) throws -> Int64 {
        try store.database.scalar("SELECT count(*) FROM \(table)")?.integerValue ?? -1
    }

    /// Every row of every report table, for before/after comparisons.
    func snapshot() throws -> [[SQLValue]] {
        try ReportType.allCases.flatMap { try store.database.query("SELECT * FROM \($0.rawTable) ORDER BY id") }
            + store.database.query("SELECT report_type, property_id, as_of_date, artifact_sha256, run_id, row_count FROM loaded_artifacts ORDER BY 1, 2, 3")
    }
}

@Suite struct ReportFileLoaderTests {
    @Test func aRentRollLoadsWithLineageAndTheTitleBlocksPropertyAndDate() throws {
        let fixture = try LoaderFixture()
        let file = fixture.report("rent_roll_two_row_header.xlsx")
        let outcome = try fixture.loader().load(path: file)
        #expect(outcome.report == .rentRoll)
        #expect(outcome.propertyKey == "nexus_east")
        #expect(outcome.asOf.iso == "2026-02-08")
        #expect(outcome.alreadyLoaded == false)
        // Rows loaded: the units and their transaction-code rows (the current leases' schedule).
        #expect(try fixture.count("realpage_rent_roll") + fixture.count("realpage_rent_roll_charges") == Int64(outcome.rows))
        #expect(try fixture.store.database.query("""
            SELECT c.code, c.amount FROM realpage_rent_roll_charges c
            JOIN realpage_rent_roll u ON u.property_id = c.property_id AND u.as_of_date = c.as_of_date AND u.source_row = c.unit_row
            WHERE u.unit_number = '1101' ORDER BY c.source_row
            """) == [[.text("RENT"), .real(1400)], [.text("PETRENT"), .real(25)], [.text("PARKING"), .real(50)]],
                "1101's codes (Lease Rent or Other Charges/Credits), tied to its unit row")
        let lineage = try fixture.store.database.query("""
            SELECT DISTINCT run_id, property_id, as_of_date, artifact, artifact_sha256 FROM v_realpage_rent_roll
            """)
        #expect(lineage == [[.text("run-1"), .text("nexus_east"), .text("2026-02-08"), .text(file),
                             .text(try SHA256.hexDigest(ofFile: file))]])
        // The first unit of the fixture: 1101, Garcia, Ana; its lease rent is RENT "1,400.00" (text)
        // plus PETRENT 25.00 on the trans-code row below it.
        let first = try fixture.store.database.query("""
            SELECT unit_number, resident_name, actual_rent, lease_start FROM realpage_rent_roll ORDER BY source_row LIMIT 1
            """)
        #expect(first == [[.text("1101"), .text("Garcia, Ana"), .real(1425), .text("2025-12-06")]])
    }

    @Test func loadingTheSameFileTwiceChangesNothing() throws {
        let fixture = try LoaderFixture()
        let file = fixture.report("box_score_nexus_east.xlsx")
        _ = try fixture.loader(run: "run-1").load(path: file)
        let before = try fixture.snapshot()
        let again = try fixture.loader(run: "run-2").load(path: file)
        #expect(again.alreadyLoaded)
        #expect(try fixture.snapshot() == before)
    }

    @Test func aNewFileForTheSameSnapshotReplacesTheOldRows() throws {
        let fixture = try LoaderFixture()
        _ = try fixture.loader(run: "run-1").load(path: fixture.report("box_score_totals_mismatch.xlsx"))
        let outcome = try fixture.loader(run: "run-2").load(path: fixture.report("box_score_nexus_east.xlsx"))
        #expect(outcome.alreadyLoaded == false)
        #expect(try fixture.count("realpage_box_score") == Int64(outcome.rows))
        #expect(try fixture.store.database.query("SELECT DISTINCT run_id FROM v_realpage_box_score") == [[.text("run-2")]])
        #expect(try fixture.count("loaded_artifacts") == 1)
    }

    @Test func aTotalsMismatchIsKeptAsAWarning() throws {
        let fixture = try LoaderFixture()
        let outcome = try fixture.loader().load(path: fixture.report("box_score_totals_mismatch.xlsx"))
        #expect(outcome.warnings.contains { $0.contains("350") && $0.contains("352") })
        let stored = try fixture.store.database.scalar("SELECT warnings FROM loaded_artifacts")?.textValue ?? ""
        #expect(stored.contains("Property Totals"))
    }

    @Test(arguments: ["rent_roll_missing_column.xlsx", "unknown_layout.xlsx", "delinquency_text_money_all_zero_bug.xlsx"])
    func aBadFileWritesNothingAndLeavesEarlierDataIntact(name: String) throws {
        let fixture = try LoaderFixture()
        _ = try fixture.loader().load(path: fixture.report("box_score_nexus_east.xlsx"))
        let before = try fixture.snapshot()
        #expect(throws: (any Error).self) { try fixture.loader(run: "run-bad").load(path: fixture.report(name)) }
        #expect(try fixture.snapshot() == before)
    }

    @Test func hintsOverrideTheTitleBlock() throws {
        let fixture = try LoaderFixture()
        let outcome = try fixture.loader().load(path: fixture.report("box_score_nexus_east.xlsx"),
                                                hints: ReportFileHints(report: .boxScore, propertyKey: "ridian",
                                                                       asOf: LocalDate(iso: "2026-03-01")))
        #expect(outcome.propertyKey == "ridian")
        #expect(outcome.asOf.iso == "2026-03-01")
        #expect(try fixture.store.database.query("SELECT DISTINCT property_id, as_of_date FROM realpage_box_score")
                == [[.text("ridian"), .text("2026-03-01")]])
    }

    @Test func theTitleBlocksDateWinsOverAFallbackDate() throws {
        let fixture = try LoaderFixture()
        // A fetch asked for 2030-01-01; the report says it was run as of 02/08/2026.
        let outcome = try fixture.loader().load(path: fixture.report("box_score_nexus_east.xlsx"),
                                                hints: ReportFileHints(fallbackAsOf: LocalDate(iso: "2030-01-01")))
        #expect(outcome.asOf.iso == "2026-02-08")
    }

    @Test func anUnknownPropertyIsRefusedBeforeAnythingIsRead() throws {
        let fixture = try LoaderFixture()
        #expect {
            try fixture.loader().load(path: fixture.report("box_score_nexus_east.xlsx"),
                                      hints: ReportFileHints(propertyKey: "no_such_place"))
        } throws: { error in
            "\(error)".contains("unknown property \"no_such_place\"")
        }
    }

    @Test func aMissingFileIsNamedAsSuch() throws {
        let fixture = try LoaderFixture()
        #expect {
            try fixture.loader().load(path: fixture.directory.appendingPathComponent("nope.xlsx").path)
        } throws: { error in
            "\(error)" == "no such file"
        }
    }
}

/// A Delinquent and Prepaid account's transaction-code rows land in realpage_delinquency_codes with the account,
/// and a later snapshot of the same date replaces both.
@Suite struct DelinquencyCodeLoaderTests {
    @Test func codeRowsLoadBesideTheirAccountsAndAreReplacedWithTheSnapshot() throws {
        let fixture = try LoaderFixture()
        let file = fixture.report("delinquent_prepaid_per_code.xlsx")
        let outcome = try fixture.loader().load(path: file)
        let accounts = try fixture.count("realpage_delinquency"), codes = try fixture.count("realpage_delinquency_codes")
        #expect(accounts == 5)
        #expect(codes > accounts)
        #expect(Int64(outcome.rows) == accounts + codes, "the snapshot's rows: accounts and their codes")
        // Per account, its codes add up to its balance (delinquent - prepaid).
        let mismatched = try fixture.store.database.query("""
            SELECT d.unit_number FROM realpage_delinquency d
            JOIN realpage_delinquency_codes c ON c.property_id = d.property_id AND c.as_of_date = d.as_of_date
                 AND c.account_row = d.source_row
            GROUP BY d.id HAVING abs(sum(c.delinquent) - sum(c.prepaid) - d.current_balance) > 0.005
            """)
        #expect(mismatched.isEmpty)
        #expect(try fixture.store.database.query("""
            SELECT code, delinquent FROM realpage_delinquency_codes WHERE unit_number = '1103' ORDER BY source_row
            """) == [[.text("RENT"), .real(1184.5)], [.text("LATEFEE"), .real(50)]])
        // The same bytes again change nothing; --reload of them replaces accounts and codes alike.
        _ = try fixture.loader(run: "run-2").load(path: file)
        #expect(try fixture.count("realpage_delinquency_codes") == codes)
        _ = try ReportFileLoader(store: fixture.store, configuration: fixture.configuration, runID: RunID("run-3"),
                                 reload: true).load(path: file)
        #expect(try fixture.count("realpage_delinquency_codes") == codes)
        #expect(try fixture.store.database.scalar("SELECT DISTINCT run_id FROM v_realpage_delinquency_codes")?.textValue == "run-3")
    }
}

/// A data-only workbook with several report sheets (Lease Expiration/Renewal Detail (Excel), 4156).
@Suite struct MultiSheetWorkbookTests {
    @Test func everyReportSheetLoadsAsItsOwnSnapshotPlacedByTheTableOfContents() throws {
        let fixture = try LoaderFixture()
        let file = fixture.report("lease_expiration_renewal_excel.xlsx")
        let outcome = try fixture.loader().load(path: file)
        // The Table of Contents names the property and the date range; its sheets print neither.
        #expect(outcome.all.map(\.report) == [.leaseExpiration, .renewalDetail])
        #expect(outcome.all.allSatisfy { $0.propertyKey == "nexus_east" && $0.asOf.iso == "2026-02-28" })
        #expect(try fixture.count("realpage_lease_expirations") == 5)
        #expect(try fixture.count("realpage_renewal_detail") == 5)
        #expect(try fixture.store.database.scalar("SELECT count(DISTINCT report_type) FROM loaded_artifacts")?.integerValue == 2)
        // --report picks one of them.
        let other = try LoaderFixture()
        let renewal = try other.loader().load(path: file, hints: ReportFileHints(report: .renewalDetail))
        #expect(renewal.all.map(\.report) == [.renewalDetail])
        #expect(try other.count("realpage_lease_expirations") == 0)
    }
}

/// An .xlsx is parsed before its merged cells are read (they follow the rows); a header they change is parsed again.
@Suite struct MergedHeaderLoadTests {
    @Test func aBoxScoreWhoseMergedGroupHeadersDecideItsColumnsLoadsAsWithThem() throws {
        let fixture = try LoaderFixture()
        let outcome = try fixture.loader().load(path: fixture.report("box_score_nexus_east.xlsx"))
        #expect(outcome.rows == 5)
        // A1: Vacant/Leased 2 and Occupied/NTV-L 2 sit under the merged "Vacant" and "Occupied" group headers.
        let a1 = try fixture.store.database.query("""
            SELECT vacant_leased, notice_leased, occupied_on_notice FROM realpage_box_score WHERE floorplan = 'A1'
            """)
        #expect(a1 == [[.integer(2), .integer(2), .integer(6)]])
        #expect(try fixture.count("realpage_box_score") == 5, "the first attempt's rows are undone, not kept beside")
    }
}
