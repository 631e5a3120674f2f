import Foundation
import Metrics
import OwnerDashCore
import SQLiteKit
import Testing

/// `report maintenance` and `report expenses` over a hand-built unified.db: the counts a property manager would
/// tally by hand from the work orders and the statements, and properties without a source named, never zeros.
@Suite struct MaintenanceAndExpensesTests {
    /// nexus_east (date 2026-02-08) with work orders; yp_riverwalk synced without any work-order or expense source.
    static func fixture() throws -> UnifiedFixture {
        let fixture = try UnifiedFixture()
        try fixture.property("nexus_east", asOf: "2026-02-08")
        try fixture.property("yp_riverwalk", pms: "yardi", asOf: "2026-02-08")
        try fixture.database.execute("""
            UPDATE unified_properties SET work_order_source = 'test', expense_source = 'test'
            WHERE unified_property_id = 'nexus_east'
            """)
        // (id, category, opened, completed): 3 closed in the 3 months to 2026-02-08 (8, 14, 7 days), one closed in
        // October (outside), 2 open (one opened 50 days before the date), one opened after the date.
        let orders: [(String, String, String?, String?)] = [
            ("w1", "Make Ready", "2026-01-02", "2026-01-10"), ("w2", "Make Ready", "2026-01-05", "2026-01-19"),
            ("w3", "Plumbing", "2026-01-09", "2026-01-16"), ("w4", "Plumbing", "2025-10-01", "2025-10-21"),
            ("w5", "Make Ready", "2025-12-20", nil), ("w6", "Plumbing", "2026-02-01", nil),
            ("w7", "Plumbing", "2026-02-20", nil),
        ]
        let insert = try fixture.database.prepare("""
            INSERT INTO unified_work_orders (unified_property_id, work_order_id, unit_number, category, status,
                opened_date, completed_date, days_to_complete, source)
            VALUES ('nexus_east', :id, '101', :category, :status, :opened, :completed,
                    CAST(julianday(:completed) - julianday(:opened) AS INTEGER), 'test')
            """)
        for (id, category, opened, completed) in orders {
            try insert.execute([":id": .text(id), ":category": .text(category), ":status": .text(completed == nil ? "open" : "closed"),
                                ":opened": SQLValue(opened), ":completed": SQLValue(completed)])
        }
        let expense = try fixture.database.prepare("""
            INSERT INTO unified_expenses (unified_property_id, month, gl_account, account_name, gl_category,
                category_known, amount, source)
            VALUES ('nexus_east', :month, :account, 'x', :category, 1, :amount, 'test')
            """)
        for (month, account, category, amount) in [("2025-12", "6100-0001", "Payroll", 18_000.0),
                                                   ("2026-01", "6100-0001", "Payroll", 18_250.0),
                                                   ("2026-01", "6300-0002", "Repairs & Maintenance", 615.25),
                                                   ("2026-01", "6300-0001", "Repairs & Maintenance", 2_340.0)] {
            try expense.execute([":month": .text(month), ":account": .text(account), ":category": .text(category),
                                 ":amount": .real(amount)])
        }
        return fixture
    }

    @Test func openClosedAndDaysToCompleteOnThePropertysDate() throws {
        let fixture = try Self.fixture()
        let report = try MaintenanceReport.run(database: try fixture.reader(), properties: ["nexus_east", "yp_riverwalk"],
                                               asOf: nil, months: 3, olderThanDays: 30)
        let counts = try #require(report.properties.first)
        #expect(counts.open == 2 && counts.closed == 4 && counts.closedInWindow == 3 && counts.agedOpen == 1)
        #expect(counts.medianDays == 8 && counts.averageDays.map { ($0 * 100).rounded() / 100 } == 9.67)
        #expect(report.aged.map(\.workOrderID) == ["w5"] && report.aged.first?.daysOpen == 50)
        #expect(report.categories.map { "\($0.category ?? ""):\($0.open)/\($0.closedInWindow)" } == ["Make Ready:1/2", "Plumbing:1/1"])
        #expect(report.noSource == ["yp_riverwalk"])
        let result = report.result(parameters: [])
        #expect(result.warnings.count == 1 && result.warnings[0].contains("yp_riverwalk") && result.warnings[0].contains("no work-order source"))
        #expect(!result.tables[0].rows.contains { $0.first == .text("yp_riverwalk") })
    }

    @Test func anEarlierAsOfDateSeesTheWorkOrdersOpenThen() throws {
        let fixture = try Self.fixture()
        let report = try MaintenanceReport.run(database: try fixture.reader(), properties: ["nexus_east"],
                                               asOf: LocalDate(iso: "2026-01-12"), months: 1, olderThanDays: 30)
        let counts = try #require(report.properties.first)
        // On 2026-01-12: w2, w3, w5 open (w1 done on the 10th); closed in the month to then: w1 only.
        #expect(counts.open == 3 && counts.closedInWindow == 1 && counts.closed == 2)
    }

    @Test func expensesByCategoryAndMonthWithAMonthWithoutAStatementUnknown() throws {
        let fixture = try Self.fixture()
        let report = try ExpenseReport.run(database: try fixture.reader(), properties: ["nexus_east", "yp_riverwalk"],
                                           start: "2025-11", months: 3)
        #expect(report.months == ["2025-11", "2025-12", "2026-01"])
        let result = report.result(parameters: [])
        let rows = result.tables[0].rows
        // November has no statement: unknown, not 0. Repairs had no line in December's statement: 0.
        #expect(rows == [
            [.text("nexus_east"), .text("Payroll"), .null, .real(18_000), .real(18_250), .real(36_250)],
            [.text("nexus_east"), .text("Repairs & Maintenance"), .null, .real(0), .real(2_955.25), .real(2_955.25)],
            [.text("nexus_east"), .text("All categories"), .null, .real(18_000), .real(21_205.25), .real(39_205.25)],
        ])
        #expect(report.noSource == ["yp_riverwalk"] && result.warnings.first?.contains("no expense source") == true)
    }

    @Test func withoutStartTheMonthsEndWithTheLatestStatement() throws {
        let fixture = try Self.fixture()
        let report = try ExpenseReport.run(database: try fixture.reader(), properties: ["nexus_east"], start: nil, months: 2)
        #expect(report.months == ["2025-12", "2026-01"])
    }

    @Test func everyMonthSyncedWithIncomeAndNetOperatingIncome() throws {
        let fixture = try Self.fixture()
        try fixture.database.execute("""
            UPDATE unified_properties SET income_source = 'test' WHERE unified_property_id = 'nexus_east';
            INSERT INTO unified_income (unified_property_id, month, gl_account, account_name, gl_category, amount, source,
                source_report, source_as_of)
            VALUES ('nexus_east', '2026-01', '5100-0001', 'Market Rent', 'Rental Income', 265125, 'realpage: Income Statement',
                    'income_statement', '2026-01-31'),
                   ('nexus_east', '2026-01', '5200-0001', 'Fees', 'Other Income', 1944.90, 'realpage: Income Statement',
                    'income_statement', '2026-01-31'),
                   ('nexus_east', '2026-02', '2200-0001', 'PMTMOVE', 'Prepaid & Unapplied Cash', 5542.65,
                    'realpage: Monthly Income Summary', 'monthly_income_summary', '2026-02-15');
            """)
        // --months all: from the first month synced (December's expenses) to the latest (February's income).
        let report = try ExpenseReport.run(database: try fixture.reader(), properties: ["nexus_east", "yp_riverwalk"],
                                           start: nil, months: nil)
        #expect(report.months == ["2025-12", "2026-01", "2026-02"])
        let result = report.result(parameters: [])
        let operating = try #require(result.tables.first { $0.name == "operating" })
        // December: expenses but no income synced, February income but no expenses: no net operating income either
        // month. January: 267,069.90 − 21,205.25.
        #expect(operating.rows == [
            [.text("nexus_east"), .text("Income"), .null, .real(267_069.9), .real(5_542.65), .real(272_612.55)],
            [.text("nexus_east"), .text("Expenses"), .real(18_000), .real(21_205.25), .null, .real(39_205.25)],
            [.text("nexus_east"), .text("Net operating income"), .null, .real(245_864.65), .null, .real(245_864.65)],
        ], "a Yardi property (no income source) has no operating rows")
        let sources = try #require(result.tables.first { $0.name == "sources" })
        #expect(sources.rows == [
            [.text("nexus_east"), .text("2025-12"), .text("test"), .null],
            [.text("nexus_east"), .text("2026-01"), .text("test"), .text("realpage: Income Statement")],
            [.text("nexus_east"), .text("2026-02"), .null, .text("realpage: Monthly Income Summary")],
        ])
        let february = try ExpenseReport.run(database: try fixture.reader(), properties: ["nexus_east"], start: "2026-02",
                                             months: 1).result(parameters: [])
        #expect(february.tables.first { $0.name == "operating" }?.rows.first
                == [.text("nexus_east"), .text("Income"), .real(5_542.65), .real(5_542.65)])
    }

    /// OneSite's Closed Make Ready Summary prints no vacate date for a turn, so its days to complete are unknown: the
    /// median and the average count only the work orders that have them, and a warning says how many do not.
    @Test func closedWorkOrdersWithoutAnOpenDateAreNamedNotCountedAsDays() throws {
        let fixture = try Self.fixture()
        try fixture.database.execute("""
            INSERT INTO unified_work_orders (unified_property_id, work_order_id, unit_number, category, status,
                opened_date, completed_date, days_to_complete, source)
            VALUES ('nexus_east', 'MR-1171-open', '1171', 'Make Ready', 'closed', NULL, '2026-02-05', NULL, 'test')
            """)
        let report = try MaintenanceReport.run(database: try fixture.reader(), properties: ["nexus_east"],
                                               asOf: nil, months: 3, olderThanDays: 30)
        let counts = try #require(report.properties.first)
        #expect(counts.closedInWindow == 4 && counts.medianDays == 8 && counts.closedWithoutDays == 1)
        #expect(report.result(parameters: []).warnings == [
            "nexus_east: 1 of the 4 work orders closed in the 3 months have no open date synced, so no days to "
                + "complete; median_days and avg_days count the other 3",
        ])
        try fixture.database.execute("UPDATE unified_work_orders SET days_to_complete = NULL")
        let unknown = try MaintenanceReport.run(database: try fixture.reader(), properties: ["nexus_east"],
                                                asOf: nil, months: 3, olderThanDays: 30)
        #expect(unknown.properties.first?.medianDays == nil)
        #expect(unknown.result(parameters: []).warnings.first?.hasSuffix("median_days and avg_days are unknown, not 0") == true)
    }

    @Test func makeReadyTurnsPerMonthBesideTheMakeReadyAnalysis() throws {
        let fixture = try Self.fixture()
        try fixture.database.execute("""
            INSERT INTO unified_work_order_lines (unified_property_id, work_order_id, line_id, description, completed_date,
                amount, minutes_worked, source)
            VALUES ('nexus_east', 'w1', '2088-1', 'Paint', '2026-01-08', 120, 90, 'test'),
                   ('nexus_east', 'w1', '2088-2', 'Carpet', '2026-01-10', 80, 30, 'test'),
                   ('nexus_east', 'w2', '2090-1', 'Trash out', '2026-01-19', NULL, 60, 'test');
            INSERT INTO unified_make_ready_periods (unified_property_id, month, units_made_ready, total_minutes,
                renovations, labor_cost, parts_cost, total_cost, source, source_as_of)
            VALUES ('nexus_east', '2026-01', 3, 300, 0, 150, 50, 200, 'test', '2026-01-31'),
                   ('nexus_east', '2026-02', 1, 45, 0, 0, 0, 0, 'test', '2026-02-08');
            """)
        let report = try MaintenanceReport.run(database: try fixture.reader(), properties: ["nexus_east"],
                                               asOf: nil, months: 3, olderThanDays: 30)
        let table = try #require(report.result(parameters: []).tables.first { $0.name == "make_ready" })
        // January: w1 (8 days) and w2 (14 days) closed, three work orders on them, 3 hours, $200 charged; OneSite's
        // analysis counts 3 units that month. February: the analysis only (no turn closed yet).
        #expect(table.rows == [
            [.text("nexus_east"), .text("2026-01"), .integer(2), .real(11), .integer(3), .real(3), .real(200), .integer(3),
             .real(5), .real(200)],
            [.text("nexus_east"), .text("2026-02"), .null, .null, .null, .null, .null, .integer(1), .real(0.8), .real(0)],
        ])
    }
}
