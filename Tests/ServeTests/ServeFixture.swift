import CurlKit
import Foundation
import HTTPServer
import OwnerDashCore
import SQLiteKit
import Sync
@testable import Serve

/// A small unified.db (the real schema, built by UnifiedStore) in its own data directory: a Yardi property `yp` with
/// a ledger (three households, the charges and payments of LedgerTests' fixture), occupancy, pricing and delinquency
/// snapshots, and a RealPage property `rp` without a ledger; one finished ingest run. A server over it on an
/// ephemeral loopback port, and the built `ownerdash` binary to ask the CLI the same questions.
final class ServeFixture {
    let directory: URL
    let dataDirectory: DataDirectory
    let store: UnifiedStore
    var database: Database { store.database }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        dataDirectory = DataDirectory(root: directory.path)
        store = try UnifiedStore(dataDirectory: dataDirectory)
        try store.database.execute("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source, total_units, as_of_date, ledger_source)
            VALUES ('yp', 'Yardi Place', 'yardi', 2, '2026-11-20', 'yardi: test'),
                   ('rp', 'RealPage Place', 'realpage', 10, '2026-11-20', NULL);
            INSERT INTO unified_units (unified_property_id, unit_number, floor, floorplan, status, market_rent)
            VALUES ('yp', '201', '2', 'B1', 'occupied', 1900), ('yp', '101', '1', 'A1', 'occupied', 1400),
                   ('rp', '1', '1', 'A1', 'vacant', 1200);
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, email, phone, status)
            VALUES ('yp', 't1', '101', 'Lee, Ann', 'ann@example.com', '555-0101', 'current'),
                   ('yp', 't2', '201', 'Ito, Ken', NULL, NULL, 'current'),
                   ('yp', 't3', '101', 'Old, Tenant', NULL, NULL, 'former');
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES ('yp', 'c1', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 1400, 1400, 0),
                   ('yp', 'c2', 't1', 'L1', '101', 'water', 'UTILITIES', 1, '2026-10', '2026-10-01', '2026-10-01', 40, 0, 40),
                   ('yp', 'c3', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 1400, 500, 900),
                   ('yp', 'c4', 't2', 'L2', '201', 'rent', 'RENT', 1, '2026-11', '2026-11-25', '2026-11-25', 1900, 0, 1900),
                   ('yp', 'c6', 't3', 'L0', '101', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 1300, 0, 1300);
            INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date,
                period, amount, reference, payment_type)
            VALUES ('yp', 'p1', 't1', 'L1', '101', '2026-10-03', '2026-10', 1400, 'CHK 1001', 'Check'),
                   ('yp', 'p2', 't1', 'L1', '101', '2026-11-05', '2026-11', 500, 'ACH 77', 'Other');
            INSERT INTO unified_leases (unified_property_id, lease_id, unit_number, resident_id, start_date, end_date,
                                        status, is_renewal, is_month_to_month)
            VALUES ('yp', 'L1', '101', 't1', '2026-10-01', '2027-09-30', 'current', 0, 0),
                   ('yp', 'L2', '201', 't2', '2026-11-01', '2027-10-31', 'current', 0, 0);
            -- L1 schedules water from October; November's was never posted: the audit's one exception.
            INSERT INTO unified_recurring_charges (unified_property_id, lease_id, resident_id, unit_number, charge_code,
                category, category_known, amount, start_date, end_date)
            VALUES ('yp', 'L1', 't1', '101', 'rent', 'RENT', 1, 1400, '2026-10-01', '2027-09-30'),
                   ('yp', 'L1', 't1', '101', 'water', 'UTILITIES', 1, 40, '2026-10-01', '2027-09-30');
            INSERT INTO unified_occupancy_metrics (
                unified_property_id, as_of_date, total_units, occupied_units, vacant_units, vacant_leased,
                vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90, aged_vacancy_cost, on_notice,
                notice_leased, notice_not_leased, pre_leased, model_units, down_units, leased_units,
                physical_occupancy, leased_pct, exposure_now, exposure_30, exposure_60,
                exposure_now_pct, exposure_30_pct, exposure_60_pct, source)
            VALUES ('yp', '2026-11-20', 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 100, 100, 0, 0, 1, 0, 0, 50, 'test'),
                   ('rp', '2026-10-31', 10, 8, 2, 1, 1, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 9, 80, 90, 2, 2, 3, 20, 20, 30, 'test'),
                   ('rp', '2026-11-20', 10, 9, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 90, 90, 1, 1, 2, 10, 10, 20, 'test');
            INSERT INTO unified_delinquency (unified_property_id, as_of_date, resident_id, unit_number, name, resident_status,
                current_balance, balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, source)
            VALUES ('rp', '2026-11-20', 'r9', '1', 'Doe, Jo', 'current', 300, 300, 0, 0, 0, 0, 'test');
            -- Work orders and expenses of both properties (the maintenance and expenses pages, scoped per viewer).
            UPDATE unified_properties SET work_order_source = 'test', expense_source = 'test';
            INSERT INTO unified_work_orders (unified_property_id, work_order_id, unit_number, category, description, status,
                opened_date, completed_date, days_to_complete, source)
            VALUES ('yp', 'w1', '101', 'Plumbing', 'leak under sink', 'open', '2026-09-01', NULL, NULL, 'test'),
                   ('yp', 'w2', '201', 'HVAC', 'filter', 'closed', '2026-11-01', '2026-11-03', 2, 'test'),
                   ('rp', 'rw1', '1', 'Electrical', 'sparking outlet', 'open', '2026-10-01', NULL, NULL, 'test');
            INSERT INTO unified_expenses (unified_property_id, month, gl_account, account_name, gl_category, category_known,
                amount, source)
            VALUES ('yp', '2026-10', '6310', 'Repairs', 'Repairs & Maintenance', 1, 812.5, 'test'),
                   ('yp', '2026-11', '6310', 'Repairs', 'Repairs & Maintenance', 1, 120, 'test'),
                   ('rp', '2026-10', '6710', 'Electric', 'Utilities', 1, 300, 'test');
            INSERT INTO etl_runs (run_id, trigger, started_at, finished_at, status, properties, properties_synced)
            VALUES ('20261120T020000Z-ab12', 'ingest', '2026-11-20T02:00:00Z', '2026-11-20T02:04:00Z', 'succeeded', 2, 2);
            INSERT INTO etl_run_items (run_id, property_id, stage, status, rows, duration_ms)
            VALUES ('20261120T020000Z-ab12', 'yp', 'sync', 'succeeded', 2, 40),
                   ('20261120T020000Z-ab12', 'rp', 'sync', 'succeeded', 1, 30);
            """)
        try DelinquencySnapshot.recount(store.database)   // the nights' totals, as the sync writes them
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A server over this data directory on an ephemeral loopback port; `viewer` is who every request is from
    /// (nil: nobody signed in).
    func server(viewer: Viewer?, threads: Int = 2) throws -> DashboardServer {
        var settings = ServerSettings(host: "127.0.0.1", port: 0)
        settings.threads = threads
        return try DashboardServer(dataDirectory: dataDirectory, settings: settings, log: Diagnostics(quiet: true)) { _ in
            viewer.map { .signedIn($0, csrf: nil) } ?? .anonymous
        }
    }

    /// The CLI's stdout for `arguments` over this data directory (the built binary).
    func cli(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments + ["--data-dir", directory.path, "--quiet"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The `ownerdash` executable built beside this test bundle (`swift build --build-tests` builds it).
    static var binary: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("ownerdash")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundle.appendingPathComponent("ownerdash")
    }
}

/// GETs against a server on 127.0.0.1.
struct Client {
    let port: UInt16
    let http = HTTPClient()

    func get(_ path: String, headers: [(name: String, value: String)] = []) throws -> CurlKit.HTTPResponse {
        try http.send(HTTPRequest(url: "http://127.0.0.1:\(port)\(path)", headers: headers))
    }
}
