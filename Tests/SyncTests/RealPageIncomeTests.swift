import Foundation
import OwnerDashCore
import RawStore
import SQLiteKit
@testable import Sync
import Testing

/// Income and expenses per fiscal period from the Income Statement (Tests/Fixtures/reports, made by
/// scripts/fixtures/make_report_fixtures.py), and the real Monthly Income Summary and Cash Basis G/L Distribution
/// downloads (Tests/Fixtures/real-onesite): one report per month, held against the report's printed totals.
@Suite struct RealPageIncomeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A data directory with the given files loaded for nexus_east (`real-onesite/` or `reports/` paths), and its
    /// unified store.
    final class Loaded {
        let data: DataDirectory
        let store: UnifiedStore
        let raw: RealPageRawStore
        let property: Property

        init(_ files: [(path: String, asOf: String?)]) throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("income-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            data = DataDirectory(root: root.path)
            raw = try RealPageRawStore(path: data.realpageRawDatabase)
            let configuration = try Configuration.load(path: RealPageIncomeTests.repository
                .appendingPathComponent("report_definitions.json").path)
            let loader = ReportFileLoader(store: raw, configuration: configuration, runID: RunID("run-1"))
            for file in files {
                let outcome = try loader.load(path: RealPageIncomeTests.repository
                    .appendingPathComponent("Tests/Fixtures/\(file.path)").path,
                                              hints: ReportFileHints(propertyKey: "nexus_east",
                                                                     asOf: file.asOf.flatMap(LocalDate.init(iso:))))
                #expect(outcome.warnings.isEmpty, "\(file.path): \(outcome.warnings)")
            }
            store = try UnifiedStore(dataDirectory: data)
            property = try #require(configuration.property(key: "nexus_east"))
        }

        deinit { try? FileManager.default.removeItem(atPath: data.root) }

        func sync() throws -> PropertySyncOutcome {
            let outcome = try #require(Synchronizer(store: store, runID: "sync-1")
                .sync([property], log: Diagnostics(sink: { _ in })).first)
            #expect(outcome.error == nil, "\(outcome.error ?? "")")
            return outcome
        }

        func rows(_ sql: String) throws -> [[SQLValue]] { try store.database.query(sql) }

        /// check measure -> (status, expected, actual, detail) of the income_expense_totals check.
        func checks() throws -> [String: [SQLValue]] {
            var checks: [String: [SQLValue]] = [:]
            for row in try rows("""
                SELECT measure, status, expected, actual, detail FROM sync_checks WHERE check_name = 'income_expense_totals'
                """) {
                checks[row[0].textValue ?? ""] = Array(row.dropFirst())
            }
            return checks
        }
    }

    static let statement = (path: "reports/income_statement_by_gl.xlsx", asOf: String?.none)
    static let cashBasis = (path: "real-onesite/Cash_Basis_GL_Nexus_East.xls", asOf: String?.none)
    // The real Monthly Income Summary prints no date: it was run on 02/15/2026.
    static let monthlyIncome = (path: "real-onesite/Monthly_Income_Summary_NexusEast.xls", asOf: String?.some("2026-02-15"))

    @Test func eachMonthIsReadFromOneReportAndHeldAgainstItsPrintedTotal() throws {
        let loaded = try Loaded([Self.statement, Self.cashBasis, Self.monthlyIncome])
        _ = try loaded.sync()
        // January: the Income Statement (TOTAL INCOME 267,069.90). February: the Cash Basis G/L's batches and the
        // Monthly Income Summary both cover it; the Summary ranks first for income, so its 5,542.65 is February's
        // income and the G/L's 1,337.00 of cash applied is not added to it.
        #expect(try loaded.rows("""
            SELECT month, source_report, round(sum(amount), 2), count(*) FROM unified_income GROUP BY 1, 2 ORDER BY 1
            """) == [
                [.text("2026-01"), .text("income_statement"), .real(267_069.9), .integer(5)],
                [.text("2026-02"), .text("monthly_income_summary"), .real(5_542.65), .integer(1)],
            ])
        #expect(try loaded.rows("""
            SELECT month, source_report, round(sum(amount), 2) FROM unified_expenses GROUP BY 1, 2 ORDER BY 1
            """) == [[.text("2026-01"), .text("income_statement"), .real(36_005.25)]])
        // Both PZ payment codes of the Summary credit Prepaid Rent: one account, its codes named.
        #expect(try loaded.rows("""
            SELECT gl_account, account_name, gl_category, amount, source_as_of FROM unified_income WHERE month = '2026-02'
            """) == [[.text("2200-0001"), .text("OSP ACH Payment,PMTMOVE"), .text("Prepaid & Unapplied Cash"),
                      .real(5_542.65), .text("2026-02-15")]])
        #expect(try loaded.rows("SELECT gl_category, round(sum(amount), 2) FROM unified_income WHERE month = '2026-01' GROUP BY 1 ORDER BY 1")
                == [[.text("Other Income"), .real(1_944.9)], [.text("Rental Income"), .real(265_125)]])
        let checks = try loaded.checks()
        #expect(checks["income 2026-01"] == [.text("passed"), .real(267_069.9), .real(267_069.9),
                                             checks["income 2026-01"]?.last ?? .null])
        #expect(checks["expenses 2026-01"]?.prefix(3) == [.text("passed"), .real(36_005.25), .real(36_005.25)])
        #expect(checks["income 2026-02"]?.prefix(3) == [.text("passed"), .real(5_542.65), .real(5_542.65)])
        #expect(checks.count == 3)
        #expect(try loaded.rows("SELECT expense_source, income_source FROM unified_properties") == [[
            .text(RealPageExpenses.source), .text(RealPageExpenses.incomeSource)]])
    }

    @Test func theWorksheetLayoutsIncomeIsHeldAgainstItsTotalIncomeLine() throws {
        // OneSite's Income Statement Worksheet (Account | Sign | Amount): every line under INCOME, prepaid and
        // bank-deposit lines included, makes its TOTAL INCOME (119,151.76); it prints no expense section.
        let loaded = try Loaded([(path: "reports/income_statement_worksheet.xlsx", asOf: nil)])
        _ = try loaded.sync()
        #expect(try loaded.rows("SELECT month, round(sum(amount), 2), count(*) FROM unified_income GROUP BY 1") == [
            [.text("2026-02"), .real(119_151.76), .integer(8)]])
        let checks = try loaded.checks()
        #expect(checks["income 2026-02"]?.prefix(3) == [.text("passed"), .real(119_151.76), .real(119_151.76)])
        #expect(checks["expenses 2026-02"] == nil, "no expense line, no expense month")
    }

    @Test func theCashBasisGLFillsAMonthNothingElseCovers() throws {
        let loaded = try Loaded([Self.cashBasis])
        _ = try loaded.sync()
        // The batches' lines on income accounts, credit − debit: what the Distribution section's Cash Application
        // prints per account (Administrative Fees 150 in each of two batches = 300).
        #expect(try loaded.rows("""
            SELECT gl_account, gl_category, amount FROM unified_income WHERE month = '2026-02' ORDER BY gl_account
            """) == [
                [.text("5100-0001"), .text("Rental Income"), .real(858)],
                [.text("5200-0001"), .text("Other Income"), .real(300)],
                [.text("5200-0003"), .text("Other Income"), .real(99)],
                [.text("5200-0006"), .text("Other Income"), .real(13)],
                [.text("5300-0002"), .text("Other Income"), .real(43)],
                [.text("5300-0003"), .text("Other Income"), .real(6)],
                [.text("5300-0007"), .text("Other Income"), .real(3)],
                [.text("5300-0010"), .text("Other Income"), .real(15)],
            ])
        #expect(try loaded.rows("SELECT DISTINCT source, source_report, source_as_of FROM unified_income") == [[
            .text("realpage: Cash Basis G/L Distribution"), .text("cash_basis_gl"), .text("2026-02-14")]])
        // Cash, prepaid and deposit lines are neither income nor expense; the G/L prints no expense account.
        #expect(try loaded.rows("SELECT count(*) FROM unified_expenses") == [[.integer(0)]])
        let check = try #require(try loaded.checks()["income 2026-02"])
        #expect(check[0] == .text("skipped") && check[1] == .null)
        #expect(check[3].textValue?.contains("Cash Basis G/L Distribution prints totals over every account") == true)
    }

    @Test func aBatchInTwoOverlappingRunsCountsOnce() throws {
        let loaded = try Loaded([Self.cashBasis])
        // The same batches again in a later run (a daily load whose range overlaps).
        try loaded.raw.database.execute("""
            INSERT INTO raw_lineage (run_id, property_id, as_of_date, artifact, artifact_sha256)
            SELECT DISTINCT 'run-2', property_id, '2026-02-15', 'later.xls', 'sha-later' FROM realpage_cash_basis_gl;
            INSERT INTO realpage_cash_basis_gl (lineage_id, property_id, as_of_date, source_row,
                distribution_date, batch, batch_close_date, gl_description, gl_account, debit, credit)
            SELECT last_insert_rowid(), property_id, '2026-02-15', source_row, distribution_date, batch,
                   batch_close_date, gl_description, gl_account, debit, credit
            FROM realpage_cash_basis_gl
            """)
        _ = try loaded.sync()
        #expect(try loaded.rows("SELECT round(sum(amount), 2), max(source_as_of) FROM unified_income") == [
            [.real(1_337), .text("2026-02-15")]])
    }

    @Test func aSyncedMonthThatDoesNotAddUpToThePrintedTotalFailsTheCheck() throws {
        let loaded = try Loaded([Self.monthlyIncome])
        // A code line the loader stored under the wrong column, so the stored lines no longer make the printed total.
        try loaded.raw.database.execute("""
            UPDATE realpage_monthly_income SET income_cash_basis = 0 WHERE description = 'PMTMOVE'
            """)
        let outcome = try loaded.sync()
        let check = try #require(try loaded.checks()["income 2026-02"])
        #expect(check.prefix(3) == [.text("failed"), .real(5_542.65), .real(4_406.65)])
        #expect(check[3].textValue?.contains("difference -1136, tolerance 0") == true)
        #expect(outcome.failedChecks.contains { $0.contains("income_expense_totals income 2026-02") })
    }

    @Test func resyncingGivesTheSameRows() throws {
        let loaded = try Loaded([Self.statement, Self.cashBasis, Self.monthlyIncome])
        _ = try loaded.sync()
        let read = { try loaded.rows("SELECT * FROM unified_income ORDER BY 2, 3")
            + loaded.rows("SELECT * FROM unified_expenses ORDER BY 2, 3") }
        let first = try read()
        _ = try loaded.sync()
        #expect(try read() == first)
        #expect(first.count == 10)
    }
}
