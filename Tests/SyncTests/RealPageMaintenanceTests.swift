import Foundation
import OwnerDashCore
@testable import RawStore
import SQLiteKit
@testable import Sync
import Testing

/// Make-ready turns and income-statement expenses synced from the OneSite report fixtures (Tests/Fixtures/reports,
/// made by scripts/fixtures/make_report_fixtures.py).
@Suite struct RealPageMaintenanceTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A data directory with the given fixtures loaded for nexus_east, and its unified store.
    final class Loaded {
        let data: DataDirectory
        let store: UnifiedStore
        let raw: RealPageRawStore
        let property: Property

        init(_ files: [String]) throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("maintenance-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            data = DataDirectory(root: root.path)
            raw = try RealPageRawStore(path: data.realpageRawDatabase)
            let configuration = try Configuration.load(path: RealPageMaintenanceTests.repository
                .appendingPathComponent("report_definitions.json").path)
            let loader = ReportFileLoader(store: raw, configuration: configuration, runID: RunID("run-1"))
            for file in files {
                // `real-onesite/...`: a real download; else a fixture of Tests/Fixtures/reports.
                let path = file.contains("/") ? file : "reports/\(file)"
                _ = try loader.load(path: RealPageMaintenanceTests.repository
                    .appendingPathComponent("Tests/Fixtures/\(path)").path)
            }
            store = try UnifiedStore(dataDirectory: data)
            property = try #require(configuration.property(key: "nexus_east"))
        }

        deinit { try? FileManager.default.removeItem(atPath: data.root) }

        func sync(_ categories: GLCategories = .standard) throws -> PropertySyncOutcome {
            let outcome = try #require(Synchronizer(store: store, runID: "sync-1", glCategories: categories)
                .sync([property], log: Diagnostics(sink: { _ in })).first)
            #expect(outcome.error == nil, "\(outcome.error ?? "")")
            return outcome
        }
    }

    @Test func eachUnitTurnIsOneWorkOrderOpenUntilTheClosedReportListsIt() throws {
        let loaded = try Loaded(["make_ready_summary.xlsx", "closed_make_ready.xlsx"])
        _ = try loaded.sync()
        let database = loaded.store.database
        let rows = try database.query("""
            SELECT unit_number, status, opened_date, completed_date, days_to_complete FROM unified_work_orders
            ORDER BY status, unit_number
            """)
        // Closed: the three turns of the Closed Make Ready fixture (days = completed − vacated).
        // Open: the Make Ready units except 2102, still on notice (Days Vacant -6).
        #expect(rows == [
            [.text("1203"), .text("closed"), .text("2026-01-02"), .text("2026-01-10"), .integer(8)],
            [.text("1301"), .text("closed"), .text("2026-01-05"), .text("2026-01-19"), .integer(14)],
            [.text("2204"), .text("closed"), .text("2026-01-09"), .text("2026-01-16"), .integer(7)],
            [.text("1102"), .text("open"), .text("2026-01-20"), .null, .null],
            [.text("2101"), .text("open"), .text("2026-02-01"), .null, .null],
            [.text("2201"), .text("open"), .text("2025-12-15"), .null, .null],
            [.text("3105"), .text("open"), .null, .null, .null],
        ])
        #expect(try database.scalar("SELECT work_order_source FROM unified_properties")?.textValue == RealPageMaintenance.source)
        #expect(try database.scalar("SELECT expense_source FROM unified_properties") == .null)
    }

    @Test func aTurnTheClosedReportListsIsNotAlsoOpen() throws {
        let loaded = try Loaded(["make_ready_summary.xlsx", "closed_make_ready.xlsx"])
        // The 2026-02-08 Make Ready snapshot as if 1102's turn had since been completed (a later closed snapshot).
        try loaded.raw.database.execute("""
            INSERT INTO raw_lineage (run_id, property_id, as_of_date, artifact, artifact_sha256)
            VALUES ('run-2', 'nexus_east', '2026-02-28', 'closed-feb.xlsx', 'sha');
            INSERT INTO realpage_closed_make_ready (lineage_id, property_id, as_of_date,
                source_row, unit_number, move_out_date, completed_date)
            VALUES (last_insert_rowid(), 'nexus_east', '2026-02-28', 9, '1102', '2026-01-20', '2026-02-20')
            """)
        _ = try loaded.sync()
        let rows = try loaded.store.database.query("""
            SELECT status, completed_date, days_to_complete FROM unified_work_orders WHERE unit_number = '1102'
            """)
        #expect(rows == [[.text("closed"), .text("2026-02-20"), .integer(31)]])
    }

    /// Copies every row of a snapshot (turns and their work-order lines) to another date, as a later night's
    /// Closed Make Ready listing the same turns does.
    static func copySnapshot(_ database: Database, from: String, to: String) throws {
        for table in ["realpage_closed_make_ready", "realpage_closed_make_ready_work_orders"] {
            let columns = try database.query("SELECT name FROM pragma_table_info(:table) WHERE name NOT IN ('id', 'as_of_date')",
                                             [":table": .text(table)]).compactMap { $0[0].textValue }.joined(separator: ", ")
            try database.prepare("""
                INSERT INTO \(table) (as_of_date, \(columns)) SELECT :to, \(columns) FROM \(table) WHERE as_of_date = :from
                """).execute([":from": .text(from), ":to": .text(to)])
        }
    }

    /// A night computes only the turns its new Closed Make Ready snapshot lists (RealPageClosedTurns): a turn only an
    /// earlier snapshot lists stays as stored (its row altered there stays altered), a turn the new snapshot corrects
    /// reads the correction and keeps its work-order lines. A full sync of the same raw data names the altered row
    /// alone and gives every other row as the night did; a snapshot loaded again computes every turn.
    @Test func aNightComputesOnlyTheTurnsItsNewSnapshotLists() throws {
        let loaded = try Loaded(["real-onesite/Closed_Make_Ready_Nexus_East.xls"])
        let raw = loaded.raw.database, unified = loaded.store.database
        let first = try #require(try raw.scalar("SELECT min(as_of_date) FROM realpage_closed_make_ready")?.textValue)
        #expect(try loaded.sync().computedInPart.isEmpty)
        let next = LocalDate(iso: first)!.adding(days: 1).iso
        try Self.copySnapshot(raw, from: first, to: next)
        let units = try raw.query("""
            SELECT unit_number FROM realpage_closed_make_ready
            WHERE as_of_date = :next AND completed_date IS NOT NULL ORDER BY source_row LIMIT 2
            """, [":next": .text(next)]).compactMap { $0[0].textValue }
        try #require(units.count == 2)
        let (corrected, dropped) = (units[0], units[1])
        // The new night's report: one turn completed a day later than the first said, another no longer listed.
        try raw.prepare("""
            UPDATE realpage_closed_make_ready SET completed_date = date(completed_date, '+1 day')
            WHERE as_of_date = :next AND unit_number = :unit
            """).execute([":next": .text(next), ":unit": .text(corrected)])
        for table in ["realpage_closed_make_ready_work_orders", "realpage_closed_make_ready"] {
            try raw.prepare("DELETE FROM \(table) WHERE as_of_date = :next AND unit_number = :unit")
                .execute([":next": .text(next), ":unit": .text(dropped)])
        }
        try raw.prepare("""
            INSERT INTO loaded_artifacts (report_type, property_id, as_of_date, artifact, artifact_sha256, run_id, row_count)
            VALUES ('closed_make_ready', 'nexus_east', :next, 'closed-next.xls', 'sha-next', 'run-2', 4)
            """).execute([":next": .text(next)])
        let alter = "UPDATE unified_work_orders SET description = 'altered' WHERE unit_number = :unit"
        try unified.prepare(alter).execute([":unit": .text(dropped)])
        let orders = "SELECT work_order_id, status, completed_date, days_to_complete, description FROM unified_work_orders ORDER BY 1"
        let lines = "SELECT work_order_id, line_id, description, completed_date, amount, minutes_worked FROM unified_work_order_lines ORDER BY 1, 2"
        let linesBefore = try unified.query(lines)

        let night = try loaded.sync()
        #expect(night.computedInPart.contains("unified_work_orders"), "\(night.computedInPart)")
        func described(_ unit: String) throws -> [String] {
            try unified.query("SELECT description FROM unified_work_orders WHERE unit_number = :unit", [":unit": .text(unit)])
                .compactMap { $0[0].textValue }
        }
        #expect(try described(dropped) == ["altered"], "a turn no new snapshot lists is not computed again")
        let completed = try raw.scalar("""
            SELECT completed_date FROM realpage_closed_make_ready WHERE as_of_date = :next AND unit_number = :unit
            """, [":next": .text(next), ":unit": .text(corrected)])
        #expect(try unified.scalar("SELECT completed_date FROM unified_work_orders WHERE unit_number = :unit",
                                   [":unit": .text(corrected)]) == completed)
        #expect(try unified.query(lines) == linesBefore, "the corrected turn's lines are the new snapshot's, the same")
        let nightOrders = try unified.query(orders)

        let full = try #require(Synchronizer(store: loaded.store, runID: "sync-full", mode: .full)
            .sync([loaded.property], log: Diagnostics(sink: { _ in })).first)
        #expect(full.error == nil)
        let drift = full.warnings.filter { $0.check == "sync_drift" }.map(\.subject)
        #expect(drift.count == 1 && drift.allSatisfy { $0.hasPrefix("unified_work_orders") && $0.contains(dropped) },
                "\(drift)")
        let rebuilt = try unified.query(orders)
        #expect(rebuilt.count == nightOrders.count)
        let differing = zip(rebuilt, nightOrders).filter { $0 != $1 }.compactMap { $0.0[0].textValue }
        #expect(differing.count == 1 && differing.allSatisfy { $0.hasPrefix("MR-\(dropped)-") }, "\(differing)")
        #expect(try described(dropped) != ["altered"])
        #expect(try unified.query(lines) == linesBefore)

        // The first snapshot loaded again: every turn is computed, the altered row written again.
        try unified.prepare(alter).execute([":unit": .text(dropped)])
        try raw.prepare("""
            UPDATE loaded_artifacts SET run_id = 'run-3' WHERE report_type = 'closed_make_ready' AND as_of_date = :first
            """).execute([":first": .text(first)])
        let again = try loaded.sync()
        #expect(!again.computedInPart.contains("unified_work_orders"), "\(again.computedInPart)")
        #expect(try unified.query(orders) == rebuilt)
    }

    @Test func pruningTurnsALaterSnapshotListsLeavesTheWorkOrdersAsTheyWere() throws {
        let loaded = try Loaded(["real-onesite/Closed_Make_Ready_Nexus_East.xls"])
        let database = loaded.raw.database
        let first = try #require(try database.scalar("SELECT min(as_of_date) FROM realpage_closed_make_ready")?.textValue)
        // Ten more nights listing the same turns; on the last, one turn's completion corrected a day later.
        for night in 1...10 {
            try Self.copySnapshot(database, from: first, to: LocalDate(iso: first)!.adding(days: night).iso)
        }
        let last = LocalDate(iso: first)!.adding(days: 10).iso
        // (The real download prints no vacate date: a turn is its unit's make-ready request, `MR-<unit>-WO<request>`.)
        let corrected = try #require(try database.query("""
            SELECT c.unit_number,
                   'MR-' || c.unit_number || '-WO' || (SELECT min(substr(w.work_order, 1, instr(w.work_order, '-') - 1))
                                                      FROM realpage_closed_make_ready_work_orders w
                                                      WHERE w.as_of_date = c.as_of_date AND w.unit_row = c.source_row),
                   date(c.completed_date, '+1 day')
            FROM realpage_closed_make_ready c
            WHERE c.as_of_date = :last AND c.completed_date IS NOT NULL ORDER BY c.source_row LIMIT 1
            """, [":last": .text(last)]).first)
        try database.prepare("""
            UPDATE realpage_closed_make_ready SET completed_date = :completed
            WHERE unit_number = :unit AND as_of_date = :last
            """).execute([":unit": corrected[0], ":completed": corrected[2], ":last": .text(last)])
        // Another turn only the first night lists (dropped by OneSite since): it stays.
        let onlyFirst = try #require(try database.query("""
            SELECT unit_number, source_row FROM realpage_closed_make_ready
            WHERE as_of_date = :first AND completed_date IS NOT NULL AND unit_number <> :unit ORDER BY source_row LIMIT 1
            """, [":first": .text(first), ":unit": corrected[0]]).first)
        try database.prepare("""
            DELETE FROM realpage_closed_make_ready_work_orders
            WHERE as_of_date > :first AND unit_row = :row;
            """).execute([":first": .text(first), ":row": onlyFirst[1]])
        try database.prepare("DELETE FROM realpage_closed_make_ready WHERE as_of_date > :first AND unit_number = :unit")
            .execute([":first": .text(first), ":unit": onlyFirst[0]])
        _ = try loaded.sync()
        #expect(try loaded.store.database.scalar("SELECT count(*) FROM unified_work_orders WHERE unit_number = :unit",
                                                 [":unit": onlyFirst[0]]) == .integer(1))
        let orders = "SELECT work_order_id, status, completed_date, days_to_complete, description FROM unified_work_orders ORDER BY 1"
        let lines = "SELECT work_order_id, line_id, description, completed_date, amount, minutes_worked FROM unified_work_order_lines ORDER BY 1, 2"
        let before = (try loaded.store.database.query(orders), try loaded.store.database.query(lines))
        #expect(!before.1.isEmpty)
        #expect(try loaded.store.database.scalar("SELECT completed_date FROM unified_work_orders WHERE work_order_id = :id",
                                                 [":id": corrected[1]]) == corrected[2], "the latest snapshot's word")
        let turns = try database.scalar("SELECT count(*) FROM realpage_closed_make_ready")?.integerValue ?? 0
        // Every snapshot's superseded turns are found in one pass over the property's turns, not by looking each row's
        // later listings up, snapshot by snapshot (every night, for every snapshot the policy ever let go).
        guard case .acrossSnapshots(let superseded) = RawRetention.SupersededRows.closedTurns.superseded else {
            Issue.record("the closed turns are no longer found across snapshots")
            return
        }
        let plan = try database.query("EXPLAIN QUERY PLAN \(superseded)", [":property": .text("p")])
            .compactMap { $0[3].textValue }
        #expect(plan.filter { $0.hasPrefix("SEARCH c ") || $0.hasPrefix("SCAN c") }.count == 1, "plan: \(plan)")
        #expect(!plan.contains { $0.contains("as_of_date>?") }, "plan: \(plan)")

        let result = try RawRetention.prune(path: database.path, keyColumn: "report_type",
                                            policy: RawSnapshotPolicy(keepDays: 2, keepMonthly: 1), dryRun: false)
        let turnsAfter = try database.scalar("SELECT count(*) FROM realpage_closed_make_ready")?.integerValue ?? 0
        #expect(turnsAfter < turns && result.rows > 0, "\(turns) -> \(turnsAfter) turns")
        _ = try loaded.sync()
        #expect(try loaded.store.database.query(orders) == before.0)
        #expect(try loaded.store.database.query(lines) == before.1)
    }

    /// The real Closed Make Ready Summary prints no vacate date. A unit that turns again later (a later snapshot
    /// listing it under a new make-ready request, 2501, completed a month on) has two turns, each with its work orders;
    /// keyed by the unit alone, the second replaced the first in unified_work_orders and prune deleted the first
    /// from the raw data.
    @Test func aUnitsSecondTurnWithoutAVacateDateIsASecondTurnAndPruneKeepsTheFirst() throws {
        let loaded = try Loaded(["real-onesite/Closed_Make_Ready_Nexus_East.xls"])
        let database = loaded.raw.database
        let first = try #require(try database.scalar("SELECT min(as_of_date) FROM realpage_closed_make_ready")?.textValue)
        let later = LocalDate(iso: first)!.adding(days: 30).iso
        try Self.copySnapshot(database, from: first, to: later)
        for sql in ["""
            UPDATE realpage_closed_make_ready SET completed_date = date(completed_date, '+30 days')
            WHERE as_of_date = :later AND unit_number = '1171'
            """, """
            UPDATE realpage_closed_make_ready_work_orders SET work_order = replace(work_order, '2088-', '2501-')
            WHERE as_of_date = :later AND unit_number = '1171'
            """] { try database.prepare(sql).execute([":later": .text(later)]) }
        // The later snapshot lists only 1171's new turn and the others again; the first turn of 1171 only the first.
        _ = try loaded.sync()
        let turns = "SELECT work_order_id, completed_date FROM unified_work_orders WHERE unit_number = '1171' ORDER BY 1"
        let lineCount = "SELECT work_order_id, count(*) FROM unified_work_order_lines WHERE work_order_id LIKE 'MR-1171-%' GROUP BY 1 ORDER BY 1"
        #expect(try loaded.store.database.query(turns) == [
            [.text("MR-1171-WO2088"), .text("2026-02-09")], [.text("MR-1171-WO2501"), .text("2026-03-11")],
        ])
        #expect(try loaded.store.database.query(lineCount) == [[.text("MR-1171-WO2088"), .integer(5)],
                                                               [.text("MR-1171-WO2501"), .integer(5)]])
        let allTurns = "SELECT work_order_id, status, completed_date FROM unified_work_orders ORDER BY 1"
        let before = try loaded.store.database.query(allTurns)
        #expect(before.count == 6, "the real report's five turns and 1171's second")
        // Prune keeps the first snapshot's 1171 (no later one lists request 2088), drops the four turns listed again.
        _ = try RawRetention.prune(path: database.path, keyColumn: "report_type",
                                   policy: RawSnapshotPolicy(keepDays: 1, keepMonthly: 0), dryRun: false)
        #expect(try database.query("""
            SELECT unit_number FROM realpage_closed_make_ready WHERE as_of_date = :first AND completed_date IS NOT NULL
            """, [":first": .text(first)]) == [[.text("1171")]])
        #expect(try database.scalar("""
            SELECT count(*) FROM realpage_closed_make_ready_work_orders WHERE as_of_date = :first
            """, [":first": .text(first)]) == .integer(5), "its five work orders stay with it")
        _ = try loaded.sync()
        #expect(try loaded.store.database.query(allTurns) == before)
    }

    @Test func expensesAreTheStatementsExpenseLinesByCategoryAndAddUpToItsTotal() throws {
        let loaded = try Loaded(["income_statement_by_gl.xlsx"])
        let outcome = try loaded.sync()
        let database = loaded.store.database
        let byCategory = try database.query("""
            SELECT month, gl_category, round(sum(amount), 2) FROM unified_expenses GROUP BY 1, 2 ORDER BY 1, 2
            """)
        #expect(byCategory == [
            [.text("2026-01"), .text("Payroll"), .real(33_050)],
            [.text("2026-01"), .text("Repairs & Maintenance"), .real(2_955.25)],
        ])
        // The fixture prints TOTAL EXPENSES 36,005.25; no income line is counted.
        #expect(try database.scalar("SELECT round(sum(amount), 2) FROM unified_expenses") == .real(36_005.25))
        #expect(!outcome.warnings.contains { $0.check == "gl_category" })
        #expect(try database.scalar("SELECT expense_source FROM unified_properties")?.textValue == RealPageExpenses.source)
        #expect(try database.scalar("SELECT work_order_source FROM unified_properties") == .null)
    }

    /// A month printed again by a later snapshot (the statement fetched the next night, amounts revised) is read from
    /// the later one only; an earlier snapshot of the same month is not added to it. Pruned, the earlier snapshots'
    /// rows of that month go (a night's statement kept a snapshot a night for ever) and the expenses stay as they were;
    /// a month no later snapshot prints keeps its rows.
    @Test func aMonthIsReadFromItsLatestStatementSnapshotOnlyAndPruningTheOthersLeavesTheExpenses() throws {
        let loaded = try Loaded(["income_statement_by_gl.xlsx"])
        try loaded.raw.database.execute("""
            INSERT INTO realpage_income_statement (lineage_id, property_id, as_of_date, source_row, section, category,
                account_number, account_name, period_amount, fiscal_period)
            SELECT lineage_id, property_id, date(as_of_date, '+1 day'), source_row, section, category, account_number,
                   account_name, period_amount * 2, fiscal_period
            FROM realpage_income_statement
            UNION ALL
            SELECT lineage_id, property_id, date(as_of_date, '-1 day'), source_row, section, category, account_number,
                   account_name, period_amount * 3, fiscal_period
            FROM realpage_income_statement
            """)
        _ = try loaded.sync()
        #expect(try loaded.store.database.scalar("SELECT round(sum(amount), 2) FROM unified_expenses") == .real(72_010.5),
                "the later snapshot's lines, each twice the first's 36,005.25 in all")
        #expect(try loaded.store.database.scalar("SELECT count(DISTINCT source_as_of) FROM unified_expenses")?.integerValue == 1)
        // An older month, printed once, three days before (loaded as a load records it: a sync by change computes
        // the months of the snapshots loaded since, RealPageExpenseMonths).
        let database = loaded.raw.database
        try database.execute("""
            INSERT INTO realpage_income_statement (lineage_id, property_id, as_of_date, source_row, section, category,
                account_number, account_name, period_amount, fiscal_period)
            SELECT lineage_id, property_id, date(as_of_date, '-3 days'), source_row, section, category, account_number,
                   account_name, period_amount, '2025-12'
            FROM realpage_income_statement WHERE as_of_date = (SELECT min(as_of_date) FROM realpage_income_statement);
            INSERT INTO loaded_artifacts (report_type, property_id, as_of_date, artifact, artifact_sha256, run_id, row_count)
            SELECT 'income_statement', property_id, as_of_date, 'older.xlsx', 'sha-older', 'run-2', count(*)
            FROM realpage_income_statement WHERE fiscal_period = '2025-12' GROUP BY property_id, as_of_date;
            """)
        _ = try loaded.sync()
        let expenses = "SELECT month, gl_account, amount, source_as_of FROM unified_expenses ORDER BY 1, 2"
        let before = try loaded.store.database.query(expenses)
        #expect(Set(before.compactMap { $0[0].textValue }) == ["2025-12", "2026-01"])
        // Each snapshot's printed totals, as a load stores them with its rows.
        try database.execute("""
            INSERT INTO loaded_report_totals (report_type, property_id, as_of_date, run_id, artifact_sha256, source_row,
                                              label, measure, printed, computed)
            SELECT t.report_type, t.property_id, s.as_of_date, t.run_id, t.artifact_sha256, t.source_row, t.label,
                   t.measure, t.printed, t.computed
            FROM loaded_report_totals t
            JOIN (SELECT DISTINCT as_of_date FROM realpage_income_statement) s ON s.as_of_date <> t.as_of_date
            WHERE t.report_type = 'income_statement'
            """)
        let totalsBySnapshot = """
            SELECT as_of_date FROM loaded_report_totals WHERE report_type = 'income_statement' GROUP BY 1 ORDER BY 1
            """
        let snapshots = try database.query(totalsBySnapshot)
        #expect(snapshots.count == 4)
        let checks = "SELECT check_name, measure, expected, actual, status FROM sync_checks WHERE check_name = 'income_expense_totals'"
        _ = try loaded.sync()
        let checked = try loaded.store.database.query(checks)
        #expect(checked.count == 4 && checked.allSatisfy { $0[2] != .null }, "each month checked against printed totals: \(checked)")
        let rows = "SELECT count(*) FROM realpage_income_statement"
        let count = try database.scalar(rows)?.integerValue ?? 0
        let result = try RawRetention.prune(path: database.path, keyColumn: "report_type",
                                            policy: RawSnapshotPolicy(keepDays: 0, keepMonthly: 0), dryRun: false)
        let after = try database.scalar(rows)?.integerValue ?? 0
        #expect(result.rows > 0 && after * 2 == count,
                "of four snapshots, the two of 2026-01 before the latest go")
        // Their printed totals go with them (they stayed for every night's statement, never read); the totals of
        // the two snapshots months are read from stay, and the checks of those months say the same.
        #expect(try database.query(totalsBySnapshot) == [snapshots[0], snapshots[3]])
        _ = try loaded.sync()
        #expect(try loaded.store.database.query(expenses) == before)
        #expect(try loaded.store.database.query(checks) == checked)
    }

    /// A night computes only the months its new Income Statement covers (RealPageExpenseMonths): a month no new
    /// snapshot covers stays as stored (its row altered there stays altered) and is still checked against its
    /// printed total; the new month is there. A full sync of the same raw data names the altered row alone; other
    /// GL categories compute every month.
    @Test func aNightComputesOnlyTheMonthsItsNewStatementCovers() throws {
        let loaded = try Loaded(["income_statement_by_gl.xlsx"])
        #expect(try loaded.sync().computedInPart.isEmpty)
        let unified = loaded.store.database
        // February's statement, loaded a month on as a load records it, every amount twice January's.
        try loaded.raw.database.execute("""
            INSERT INTO realpage_income_statement (lineage_id, property_id, as_of_date, source_row, section, category,
                account_number, account_name, period_amount, fiscal_period)
            SELECT lineage_id, property_id, date(as_of_date, '+1 month'), source_row, section, category, account_number,
                   account_name, period_amount * 2, '2026-02'
            FROM realpage_income_statement;
            INSERT INTO loaded_artifacts (report_type, property_id, as_of_date, artifact, artifact_sha256, run_id, row_count)
            SELECT 'income_statement', property_id, as_of_date, 'february.xlsx', 'sha-february', 'run-2', count(*)
            FROM realpage_income_statement WHERE fiscal_period = '2026-02' GROUP BY property_id, as_of_date;
            """)
        let account = try #require(try unified.scalar("SELECT min(gl_account) FROM unified_expenses")?.textValue)
        let alter = "UPDATE unified_expenses SET amount = amount + 1 WHERE month = '2026-01' AND gl_account = :account"
        try unified.prepare(alter).execute([":account": .text(account)])
        let january = "SELECT gl_account, amount FROM unified_expenses WHERE month = '2026-01' ORDER BY 1"
        let alteredJanuary = try unified.query(january)

        let night = try loaded.sync()
        #expect(night.computedInPart.contains("unified_expenses"), "\(night.computedInPart)")
        #expect(try unified.query(january) == alteredJanuary, "a month no new snapshot covers is not computed again")
        let february = try unified.query("""
            SELECT gl_account, amount FROM unified_expenses WHERE month = '2026-02' ORDER BY 1
            """)
        #expect(february.count == alteredJanuary.count)
        #expect(try unified.scalar("""
            SELECT count(DISTINCT measure) FROM sync_checks
            WHERE check_name = 'income_expense_totals' AND run_id = 'sync-1' AND measure LIKE 'expenses %'
              AND as_of_date = (SELECT max(as_of_date) FROM sync_checks)
            """) == .integer(2), "both months checked")

        let full = try #require(Synchronizer(store: loaded.store, runID: "sync-full", mode: .full)
            .sync([loaded.property], log: Diagnostics(sink: { _ in })).first)
        #expect(full.error == nil)
        let drift = full.warnings.filter { $0.check == "sync_drift" }.map(\.subject)
        #expect(drift.count == 1 && drift.allSatisfy { $0.hasPrefix("unified_expenses") && $0.contains(account) }, "\(drift)")
        let rebuilt = try unified.query(january)
        #expect(rebuilt != alteredJanuary && rebuilt.count == alteredJanuary.count)

        try unified.prepare(alter).execute([":account": .text(account)])
        let recategorized = try loaded.sync(GLCategories(overrides: ["Bad Debt": ["81"]]))
        #expect(!recategorized.computedInPart.contains("unified_expenses"), "other categories compute every month")
        #expect(try unified.query(january) == rebuilt)
    }

    @Test func anAccountNoCategoryNamesCountsAsOtherAndIsNamedInAWarning() throws {
        let loaded = try Loaded(["income_statement_by_gl.xlsx"])
        try loaded.raw.database.execute("""
            INSERT INTO realpage_income_statement (lineage_id, property_id, as_of_date,
                source_row, section, category, account_number, account_name, period_amount, fiscal_period)
            SELECT lineage_id, property_id, as_of_date, 999, 'EXPENSES', 'Other',
                   '8100-0001', 'Bad Debt', 412.50, fiscal_period
            FROM realpage_income_statement LIMIT 1
            """)
        let outcome = try loaded.sync()
        let warning = try #require(outcome.warnings.first { $0.check == "gl_category" })
        #expect(warning.subject == "8100-0001" && warning.message.contains("Bad Debt") && warning.message.contains("gl_categories"))
        #expect(try loaded.store.database.query("""
            SELECT gl_category, category_known, amount FROM unified_expenses WHERE gl_account = '8100-0001'
            """) == [[.text("Other"), .integer(0), .real(412.5)]])
        // Named in report_definitions.json's gl_categories, it is categorised and the warning goes.
        let named = try loaded.sync(GLCategories(overrides: ["Bad Debt": ["81"]]))
        #expect(!named.warnings.contains { $0.check == "gl_category" })
        #expect(try loaded.store.database.scalar("""
            SELECT gl_category FROM unified_expenses WHERE gl_account = '8100-0001'
            """)?.textValue == "Bad Debt")
    }

    @Test func resyncingGivesTheSameRows() throws {
        let loaded = try Loaded(["make_ready_summary.xlsx", "closed_make_ready.xlsx", "income_statement_by_gl.xlsx"])
        _ = try loaded.sync()
        let read = { try loaded.store.database.query("SELECT * FROM unified_work_orders ORDER BY 2")
            + loaded.store.database.query("SELECT * FROM unified_expenses ORDER BY 2, 3") }
        let first = try read()
        _ = try loaded.sync()
        #expect(try read() == first)
        #expect(first.count == 11)
    }

    @Test func theClosedMakeReadysWorkOrdersAreTheTurnsLines() throws {
        let loaded = try Loaded(["real-onesite/Closed_Make_Ready_Nexus_East.xls"])
        _ = try loaded.sync()
        let database = loaded.store.database
        // The real download: 5 units turned, 25 work orders (its Totals row), each under the turn of its unit.
        #expect(try database.query("""
            SELECT w.unit_number, w.completed_date, count(l.line_id), sum(l.minutes_worked), max(l.completed_date)
            FROM unified_work_orders w LEFT JOIN unified_work_order_lines l USING (unified_property_id, work_order_id)
            GROUP BY w.work_order_id ORDER BY w.unit_number
            """).map { [$0[0], $0[1], $0[2]] } == [
                [.text("1171"), .text("2026-02-09"), .integer(5)], [.text("1175"), .text("2026-02-06"), .integer(5)],
                [.text("1258"), .text("2026-02-05"), .integer(5)], [.text("1472"), .text("2026-02-06"), .integer(5)],
                [.text("2307"), .text("2026-02-09"), .integer(5)],
            ])
        #expect(try database.scalar("SELECT count(*) FROM unified_work_order_lines WHERE description IS NOT NULL") == .integer(25))
        #expect(try database.scalar("SELECT coalesce(sum(amount), 0) FROM unified_work_order_lines") == .real(0),
                "Amount Charged 0, as printed")
        // A line never outlives its turn: deleting the property's work orders takes the lines with them.
        try database.execute("DELETE FROM unified_work_orders")
        #expect(try database.scalar("SELECT count(*) FROM unified_work_order_lines") == .integer(0))
    }

    @Test func theMakeReadyAnalysisGivesOneRowPerMonth() throws {
        let loaded = try Loaded(["real-onesite/Make_Ready_Analysis_Nexus_East.xls"])
        _ = try loaded.sync()
        let database = loaded.store.database
        // Period 2/2026: 5 units made ready in 0:05, no cost (the real file's Total row).
        #expect(try database.query("""
            SELECT month, units_made_ready, total_minutes, total_cost, source_as_of FROM unified_make_ready_periods
            """) == [[.text("2026-02"), .integer(5), .integer(5), .real(0), .text("2026-02-14")]])
        #expect(try database.scalar("SELECT work_order_source FROM unified_properties")?.textValue == RealPageMaintenance.source)
        // The same period in a later run replaces it; a period OneSite printed otherwise is named, not guessed.
        try loaded.raw.database.execute("""
            INSERT INTO raw_lineage (run_id, property_id, as_of_date, artifact, artifact_sha256)
            VALUES ('run-2', 'nexus_east', '2026-02-28', 'later.xls', 'sha-later');
            INSERT INTO realpage_make_ready_analysis (lineage_id, property_id, as_of_date,
                source_row, period, units_made_ready, total_minutes)
            VALUES (last_insert_rowid(), 'nexus_east', '2026-02-28', 7, '2/2026', 9, 300),
                   (last_insert_rowid(), 'nexus_east', '2026-02-28', 8, 'Feb 2026', 1, 1)
            """)
        let outcome = try loaded.sync()
        #expect(try database.query("SELECT month, units_made_ready, source_as_of FROM unified_make_ready_periods")
                == [[.text("2026-02"), .integer(9), .text("2026-02-28")]])
        let warning = try #require(outcome.warnings.first { $0.check == "make_ready_period" })
        #expect(warning.subject == "Feb 2026" && warning.message.contains("is not a month"))
    }
}
