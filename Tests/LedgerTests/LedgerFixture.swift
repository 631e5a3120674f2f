import Foundation
import OwnerDashCore
import SQLiteKit
import Sync

/// A unified.db (the real schema) holding a small ledger: a Yardi property with three households on two floors, and a
/// RealPage property without a ledger.
///
/// t1 (101, floor 1): October rent paid, October water open (due 10-01), November rent part paid (900 left).
/// t2 (201, floor 2): November rent due 11-25, parking (OTHER) open. t3 (101): a former tenant, October rent unpaid.
final class LedgerFixture {
    let directory: URL
    let store: UnifiedStore
    var database: Database { store.database }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try UnifiedStore(dataDirectory: DataDirectory(root: directory.path))
        try store.database.execute("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('yp', 'Yardi Place', 'yardi', '2026-11-20', 'yardi: test'),
                   ('rp', 'RealPage Place', 'realpage', '2026-11-20', NULL);
            INSERT INTO unified_units (unified_property_id, unit_number, floor, status)
            VALUES ('yp', '201', '2', 'occupied'), ('yp', '101', '1', 'occupied');
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status)
            VALUES ('yp', 't1', '101', 'Lee, Ann', 'current'), ('yp', 't2', '201', 'Ito, Ken', 'current'),
                   ('yp', 't3', '101', 'Old, Tenant', 'former');
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES ('yp', 'c1', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 1400, 1400, 0),
                   ('yp', 'c2', 't1', 'L1', '101', 'water', 'UTILITIES', 1, '2026-10', '2026-10-01', '2026-10-01', 40, 0, 40),
                   ('yp', 'c3', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 1400, 500, 900),
                   ('yp', 'c4', 't2', 'L2', '201', 'rent', 'RENT', 1, '2026-11', '2026-11-25', '2026-11-25', 1900, 0, 1900),
                   ('yp', 'c5', 't2', 'L2', '201', 'parking', 'OTHER', 1, '2026-11', '2026-11-01', '2026-11-01', 50, 0, 50),
                   ('yp', 'c6', 't3', 'L0', '101', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 1300, 0, 1300);
            INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date,
                period, amount, reference, payment_type)
            VALUES ('yp', 'p1', 't1', 'L1', '101', '2026-10-03', '2026-10', 1400, 'CHK 1001', 'Check'),
                   ('yp', 'p2', 't1', 'L1', '101', '2026-11-05', '2026-11', 500, 'ACH 77', 'Other');
            """)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}
