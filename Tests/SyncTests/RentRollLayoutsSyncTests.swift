import Foundation
import OwnerDashCore
import RawStore
import SQLiteKit
@testable import Sync
import Testing

/// The two Rent Roll layouts of the same 18 units (scripts/fixtures/make_rent_roll_fixtures.py): the Trans Code layout
/// and the one column per charge code CSV sites save. Without RPX, the Rent Roll is the source of units and residents
/// and of the recurring schedule, so both layouts must give the same unified rows, occupancy and exposure.
@Suite struct RentRollLayoutsSyncTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A data directory with one Rent Roll file loaded for nexus_east, synced.
    final class Synced {
        let data: DataDirectory
        let store: UnifiedStore
        let outcome: PropertySyncOutcome
        let loadWarnings: [String]

        init(_ file: String, categories: ChargeCategories = .standard) throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("rent-roll-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            data = DataDirectory(root: root.path)
            let raw = try RealPageRawStore(path: data.realpageRawDatabase)
            let configuration = try Configuration.load(path: RentRollLayoutsSyncTests.repository
                .appendingPathComponent("report_definitions.json").path)
            let loaded = try ReportFileLoader(store: raw, configuration: configuration, runID: RunID("run-1"))
                .load(path: RentRollLayoutsSyncTests.repository
                    .appendingPathComponent("Tests/Fixtures/reports/\(file)").path,
                      hints: ReportFileHints(propertyKey: "nexus_east"))
            loadWarnings = loaded.warnings
            store = try UnifiedStore(dataDirectory: data)
            let property = try #require(configuration.property(key: "nexus_east"))
            outcome = try #require(Synchronizer(store: store, runID: "sync-1", chargeCategories: categories)
                .sync([property], log: Diagnostics(sink: { _ in })).first)
        }

        deinit { try? FileManager.default.removeItem(atPath: data.root) }

        func rows(_ sql: String) throws -> [[SQLValue]] { try store.database.query(sql) }

        /// A metrics table's rows, every column but those naming the run and the source it was read from.
        func metrics(_ table: String) throws -> [[String: SQLValue]] {
            let names = try rows("SELECT name FROM pragma_table_info('\(table)')").compactMap { $0.first?.textValue }
            return try rows("SELECT * FROM \(table)").map { row in
                var values: [String: SQLValue] = [:]
                for (name, value) in zip(names, row) where !["run_id", "source", "computed_at", "synced_at"].contains(name) {
                    values[name] = value
                }
                return values
            }
        }
    }

    static let unitColumns = """
        unit_number, building, floorplan, sqft, status, is_ready, market_rent, actual_rent, resident_id, lease_id,
        notice_for_date, vacant_since, is_occupied, is_leased, is_on_notice, is_model, is_down
        """
    static let residentColumns = """
        resident_id, unit_number, lease_id, name, status, move_in_date, notice_date, move_out_date, current_rent, balance
        """
    static let scheduleColumns = "lease_id, resident_id, unit_number, charge_code, category, amount, start_date, end_date"
    static let occupancyColumns = """
        total_units, occupied_units, vacant_units, vacant_leased, on_notice, notice_leased, model_units, down_units
        """

    @Test func bothLayoutsGiveTheSameUnitsResidentsScheduleOccupancyAndExposure() throws {
        let transCode = try Synced("rent_roll_charge_columns_trans_code.xlsx")
        let codes = try Synced("rent_roll_charge_columns.csv")
        for synced in [transCode, codes] {
            #expect(synced.outcome.error == nil, "\(synced.outcome.error ?? "")")
            #expect(synced.loadWarnings.isEmpty, "\(synced.loadWarnings)")
            #expect(synced.outcome.failedChecks.isEmpty, "\(synced.outcome.failedChecks)")
        }
        let units = "SELECT \(Self.unitColumns) FROM unified_units ORDER BY unit_number"
        let residents = "SELECT \(Self.residentColumns) FROM unified_residents ORDER BY resident_id"
        let schedule = "SELECT \(Self.scheduleColumns) FROM unified_recurring_charges ORDER BY unit_number, charge_code"
        let occupancy = "SELECT \(Self.occupancyColumns) FROM unified_occupancy_metrics"
        for sql in [units, residents, schedule] {
            let expected = try transCode.rows(sql)
            #expect(!expected.isEmpty, "\(sql)")
            #expect(try codes.rows(sql) == expected, "\(sql)")
        }
        // Occupancy, exposure and pricing (market and in-place rent, loss to lease): every figure but the run's.
        for table in ["unified_occupancy_metrics", "unified_pricing_metrics"] {
            let expected = try transCode.metrics(table)
            #expect(!expected.isEmpty && expected.allSatisfy { !$0.isEmpty }, "\(table)")
            #expect(try codes.metrics(table) == expected, "\(table)")
        }

        // The figures themselves, worked out from the 18 units: 13 occupied (3 on notice, 1 of them leased), 3 vacant,
        // 1 vacant leased, 1 model.
        #expect(try codes.rows(occupancy) == [[.integer(18), .integer(13), .integer(5), .integer(1), .integer(3),
                                               .integer(1), .integer(1), .integer(0)]])
        let corporate = try codes.rows("SELECT actual_rent, market_rent, status FROM unified_units WHERE unit_number = '6301-004'")
        #expect(corporate == [[.real(1125), .real(1125), .text("occupied")]], "lease rent is the RENT code alone")
        let notice = try codes.rows("""
            SELECT unit_number, status, notice_for_date FROM unified_units WHERE is_on_notice = 1 ORDER BY unit_number
            """)
        #expect(notice == [[.text("6301-002"), .text("occupied_notice"), .text("2017-02-28")],
                           [.text("6301-005"), .text("occupied_notice_leased"), .text("2017-02-19")],
                           [.text("6303-204"), .text("occupied_notice"), .text("2017-03-15")]])
        // What only the CSV prints: the head of household's phone and e-mail; the Trans Code layout has neither.
        #expect(try codes.rows("SELECT phone, email FROM unified_residents WHERE unit_number = '6301-001'")
                == [[.text("4057212194"), .text("malvarez@example.com")]])
        #expect(try transCode.rows("SELECT count(*) FROM unified_residents WHERE phone IS NOT NULL") == [[.integer(0)]])
        #expect(try codes.rows("SELECT name FROM unified_residents WHERE unit_number = '6301-005'") == [[.text("FAA, *")]])
    }

    @Test func theLeaseRentFollowsTheConfiguredRentCodes() throws {
        // MTOM (month-to-month premium) counted as rent: unit 6304-303 bills RENT 1,432.00 + MTOM 150.00.
        let categories = try ChargeCategories(overrides: ["RENT": ["RENT", "MTOM"]])
        let codes = try Synced("rent_roll_charge_columns.csv", categories: categories)
        #expect(try codes.rows("SELECT actual_rent FROM unified_units WHERE unit_number = '6304-303'") == [[.real(1582)]])
        #expect(try codes.rows("SELECT current_rent FROM unified_residents WHERE unit_number = '6304-303'")
                == [[.real(1582)]])
        let standard = try Synced("rent_roll_charge_columns.csv")
        #expect(try standard.rows("SELECT actual_rent FROM unified_units WHERE unit_number = '6304-303'") == [[.real(1432)]])
    }

    @Test func aTamperedTotalIsAWarningOfTheLoadAndItsFiguresAreKept() throws {
        let tampered = try Synced("rent_roll_charge_columns_bad_total.csv")
        #expect(tampered.loadWarnings.count == 2)
        #expect(tampered.loadWarnings.allSatisfy { $0.contains("\"TOTAL\" (row 26)") })
        let raw = try RealPageRawStore(path: tampered.data.realpageRawDatabase)
        let kept = try raw.database.query("""
            SELECT measure, printed, computed FROM loaded_report_totals
            WHERE report_type = 'rent_roll' AND printed <> computed ORDER BY measure
            """)
        #expect(kept == [[.text("code RENT"), .real(15792), .real(15729)],
                         [.text("deposits on hand"), .real(4540), .real(4450)]])
        let warnings = try raw.database.query("SELECT warnings FROM loaded_artifacts WHERE report_type = 'rent_roll'")
        #expect(warnings.first?.first?.textValue?.contains("code RENT") == true)
    }
}
