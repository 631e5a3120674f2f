import Foundation
import OwnerDashCore
import Parse
import SQLiteKit
import Testing
@testable import RawStore

// The five real financial downloads (Tests/Fixtures/real-onesite) loaded as a user loads them: the stored rows
// counted and summed against what each report prints.
@Suite struct FinancialReportLoaderTests {
    static func real(_ name: String) -> String {
        LoaderFixture.repository.appendingPathComponent("Tests/Fixtures/real-onesite/\(name)").path
    }

    /// The repository's registry plus The Northern (the Collections Report's property), as a user adds it.
    static func loader(_ fixture: LoaderFixture) throws -> ReportFileLoader {
        let source = LoaderFixture.repository.appendingPathComponent("report_definitions.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        var properties = try #require(json["properties"] as? [[String: Any]])
        if !properties.contains(where: { $0["key"] as? String == "the_northern" }) {
            properties.append(["key": "the_northern", "name": "The Northern", "pms": "realpage", "site_id": "5375283"])
        }
        json["properties"] = properties
        let path = fixture.directory.appendingPathComponent("definitions.json").path
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        return ReportFileLoader(store: fixture.store, configuration: try Configuration.load(path: path),
                                runID: RunID("run-1"))
    }

    func value(_ fixture: LoaderFixture, _ sql: String) throws -> SQLValue? {
        try fixture.store.database.scalar(sql)
    }

    @Test func transactionDetailByCodeLoadsItsThreeSheets() throws {
        let fixture = try LoaderFixture()
        let outcome = try Self.loader(fixture).load(path: Self.real("Report_4028_Nexus_East.xls"))
        #expect(outcome.all.map(\.report) == [.transactionDetail, .transactionDetailSummary, .transactionDetailGLNet])
        #expect(outcome.all.allSatisfy { $0.propertyKey == "nexus_east" && $0.asOf.iso == "2026-02-14" })
        #expect(outcome.all.map(\.rows) == [5_750, 212, 212])
        #expect(outcome.all.allSatisfy { $0.warnings.isEmpty })
        #expect(try fixture.count("realpage_transaction_detail") == 5_750)
        #expect(try value(fixture, "SELECT round(sum(debit), 2) FROM realpage_transaction_detail_summary") == .real(1_247_374))
        #expect(try value(fixture, "SELECT round(sum(credit), 2) FROM realpage_transaction_detail_gl_net") == .real(1_247_374))
        #expect(try value(fixture, """
            SELECT count(DISTINCT artifact_sha256) FROM v_realpage_transaction_detail WHERE run_id = 'run-1'
            """) == .integer(1))
    }

    @Test func theJournalLoadsWithTheAsOfDateGiven() throws {
        let fixture = try LoaderFixture()
        // TitleBlock: the journal prints only `Fiscal Period: 022026`; until that is read as the date, --as-of.
        let outcome = try Self.loader(fixture).load(path: Self.real("Report_4039_Nexus_East.xls"),
                                                    hints: ReportFileHints(asOf: LocalDate(iso: "2026-02-14")))
        #expect(outcome.report == .chargeJournal)
        #expect(outcome.propertyKey == "nexus_east")
        #expect(outcome.warnings == [])
        #expect(try fixture.count("realpage_charge_journal") == 31)
        #expect(try fixture.count("realpage_charge_journal_codes") == 14)
        #expect(outcome.rows == 45)
        #expect(try value(fixture, "SELECT round(sum(rent), 2) FROM realpage_charge_journal") == .real(-858))
        #expect(try value(fixture, "SELECT round(sum(other), 2) FROM realpage_charge_journal") == .real(-4_394.91))
        #expect(try value(fixture, """
            SELECT count(*) FROM realpage_charge_journal WHERE resident_name IS NULL OR fiscal_period IS NOT '2026-02'
            """) == .integer(0))
    }

    @Test func cashBasisIncomeAndCollectionsLoad() throws {
        let fixture = try LoaderFixture()
        let loader = try Self.loader(fixture)
        let cash = try loader.load(path: Self.real("Cash_Basis_GL_Nexus_East.xls"))
        #expect(cash.report == .cashBasisGL && cash.asOf.iso == "2026-02-14" && cash.warnings.isEmpty)
        #expect(try fixture.count("realpage_cash_basis_gl") == 21)
        #expect(try fixture.count("realpage_cash_basis_gl_distribution") == 12)
        #expect(try value(fixture, "SELECT round(sum(prepaid_change), 2) FROM realpage_cash_basis_gl") == .real(-7_091.70))
        #expect(try value(fixture, "SELECT round(sum(credit), 2) FROM realpage_cash_basis_gl_distribution") == .real(11_258.70))

        // TitleBlock: the Monthly Income Summary prints no date (run 02/15/2026): --as-of.
        let income = try loader.load(path: Self.real("Monthly_Income_Summary_NexusEast.xls"),
                                     hints: ReportFileHints(asOf: LocalDate(iso: "2026-02-15")))
        #expect(income.report == .monthlyIncomeSummary && income.warnings.isEmpty)
        #expect(try fixture.count("realpage_monthly_income") == 2)
        #expect(try value(fixture, "SELECT round(sum(income_cash_basis), 2) FROM realpage_monthly_income") == .real(5_542.65))

        let collections = try loader.load(path: Self.real("Collections_Report__3_.xls"))
        #expect(collections.report == .collections && collections.propertyKey == "the_northern")
        #expect(collections.asOf.iso == "2026-01-29" && collections.warnings.isEmpty)
        #expect(try fixture.count("realpage_collections") == 6)
        #expect(try value(fixture, "SELECT round(sum(ending_balance), 2) FROM realpage_collections") == .real(16_752.35))
        #expect(try value(fixture, "SELECT sum(in_collections) FROM realpage_collections") == .integer(3))
    }
}
