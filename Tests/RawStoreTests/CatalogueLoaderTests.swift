import Foundation
import LibCryptoKit
import OwnerDashCore
import Parse
@testable import RawStore
import SQLiteKit
import Testing

// The reports added after the first six: each fixture loads into its own raw table, every row stamped with
// its lineage (run, property, as-of date, artifact path and sha256, sheet row).

/// One fixture, the table it fills, and what the test knows about it.
struct CatalogueFixture: Sendable, CustomTestStringConvertible {
    var file: String
    var report: ReportType
    var table: String
    var rows: Int
    /// The property and as-of date: from the title block, or passed as hints for data-only exports.
    var asOf: String
    var hints: Bool = false

    var testDescription: String { file }
}

let catalogueFixtures: [CatalogueFixture] = [
    CatalogueFixture(file: "income_statement_by_gl.xlsx", report: .incomeStatement,
                     table: "realpage_income_statement", rows: 9, asOf: "2026-01-31"),
    CatalogueFixture(file: "income_statement_worksheet.xlsx", report: .incomeStatement,
                     table: "realpage_income_statement", rows: 8, asOf: "2026-02-18"),
    CatalogueFixture(file: "income_statement_worksheet_as_html.xlsx", report: .incomeStatement,
                     table: "realpage_income_statement", rows: 8, asOf: "2026-02-18"),
    CatalogueFixture(file: "make_ready_summary.xlsx", report: .makeReady, table: "realpage_make_ready", rows: 5,
                     asOf: "2026-02-08"),
    CatalogueFixture(file: "closed_make_ready.xlsx", report: .closedMakeReady, table: "realpage_closed_make_ready",
                     rows: 3, asOf: "2026-01-31"),
    CatalogueFixture(file: "monthly_transaction_summary.xlsx", report: .monthlyTransactionSummary,
                     table: "realpage_monthly_transactions", rows: 7, asOf: "2026-01-31"),
    CatalogueFixture(file: "renewal_detail.xlsx", report: .renewalDetail, table: "realpage_renewal_detail", rows: 5,
                     asOf: "2026-02-08"),
    // Data-only: no title block, so property and date come as hints; with --report the loader passes over the
    // Table of Contents and the Lease Expiration Detail sheet to the Renewal Detail sheet.
    CatalogueFixture(file: "lease_expiration_renewal_excel.xlsx", report: .renewalDetail,
                     table: "realpage_renewal_detail", rows: 5, asOf: "2026-02-08", hints: true),
    CatalogueFixture(file: "projected_occupancy.xlsx", report: .projectedOccupancy,
                     table: "realpage_projected_occupancy", rows: 6, asOf: "2026-02-08"),
    CatalogueFixture(file: "lost_rent_summary.xlsx", report: .lostRent, table: "realpage_lost_rent", rows: 5,
                     asOf: "2026-01-31"),
    CatalogueFixture(file: "lost_rent_by_floorplan.xlsx", report: .lostRent, table: "realpage_lost_rent", rows: 4,
                     asOf: "2026-01-31"),
    CatalogueFixture(file: "primary_advertising_source.xlsx", report: .advertisingSource,
                     table: "realpage_advertising_source", rows: 6, asOf: "2026-01-31"),
    CatalogueFixture(file: "reasons_for_move_out.xlsx", report: .moveOutReasons, table: "realpage_move_out_reasons",
                     rows: 9, asOf: "2026-01-31"),
    CatalogueFixture(file: "lease_details.xlsx", report: .leaseDetails, table: "realpage_lease_details", rows: 4,
                     asOf: "2026-02-08"),
    CatalogueFixture(file: "lease_details_export.xlsx", report: .leaseDetails, table: "realpage_lease_details",
                     rows: 4, asOf: "2026-02-08", hints: true),
]

@Suite struct CatalogueLoaderTests {
    @Test(arguments: catalogueFixtures)
    func eachFixtureFillsItsTableWithLineage(_ item: CatalogueFixture) throws {
        let fixture = try LoaderFixture()
        let file = fixture.report(item.file)
        let hints = item.hints
            ? ReportFileHints(report: item.report, propertyKey: "nexus_east", asOf: LocalDate(iso: item.asOf))
            : ReportFileHints()
        let outcome = try fixture.loader().load(path: file, hints: hints)
        #expect(outcome.report == item.report)
        #expect(outcome.propertyKey == "nexus_east" && outcome.asOf.iso == item.asOf)
        #expect(outcome.rows == item.rows)
        #expect(try fixture.count(item.table) == Int64(item.rows))
        let lineage = try fixture.store.database.query("""
            SELECT DISTINCT run_id, property_id, as_of_date, artifact, artifact_sha256 FROM v_\(item.table)
            """)
        #expect(lineage == [[.text("run-1"), .text("nexus_east"), .text(item.asOf), .text(file),
                             .text(try SHA256.hexDigest(ofFile: file))]])
        let sourceRows = try fixture.store.database.query("SELECT source_row FROM \(item.table) ORDER BY id")
            .compactMap { $0[0].integerValue }
        #expect(sourceRows.count == item.rows && sourceRows == sourceRows.sorted() && (sourceRows.first ?? 0) > 1)
        #expect(try fixture.store.database.scalar("SELECT report_type FROM loaded_artifacts")
            == .text(item.report.rawValue))
    }

    @Test func incomeStatementLinesKeepTheirSignHeadingsAndPeriod() throws {
        let fixture = try LoaderFixture()
        _ = try fixture.loader().load(path: fixture.report("income_statement_worksheet.xlsx"))
        let rows = try fixture.store.database.query("""
            SELECT section, category, account_number, account_name, period_amount, ytd_amount, fiscal_period
            FROM realpage_income_statement WHERE account_number IN ('5100-0001', '5100-0202') ORDER BY source_row
            """)
        #expect(rows == [
            [.text("INCOME"), .text("MARKET RENT (5100-0001) AND OTHER INCOME"), .text("5100-0001"),
             .text("Market Rent"), .real(285_593), .null, .text("2026-02")],
            [.text("INCOME"), .text("PREPAID RENT (2200-0001) INCOME"), .text("5100-0202"), .text("Concessions"),
             .real(-38_389.41), .null, .text("2026-02")],
        ])
    }

    @Test func makeReadyRowsCarryTheDatesAWorkOrderNeeds() throws {
        let fixture = try LoaderFixture()
        _ = try fixture.loader().load(path: fixture.report("make_ready_summary.xlsx"))
        _ = try fixture.loader().load(path: fixture.report("closed_make_ready.xlsx"))
        let open = try fixture.store.database.query("""
            SELECT unit_number, move_out_date, days_vacant, due_date, work_orders, status FROM realpage_make_ready
            WHERE unit_number IN ('1102', '3105') ORDER BY source_row
            """)
        #expect(open == [
            [.text("1102"), .text("2026-01-20"), .integer(19), .text("2026-02-10"), .integer(3), .text("In Progress")],
            [.text("3105"), .null, .null, .text("2026-02-15"), .integer(1), .text("In Progress")],
        ])
        let closed = try fixture.store.database.query("""
            SELECT unit_number, move_out_date, completed_date, days_to_complete, amount_charged
            FROM realpage_closed_make_ready ORDER BY source_row LIMIT 1
            """)
        #expect(closed == [[.text("1203"), .text("2026-01-02"), .text("2026-01-10"), .integer(8), .real(425)]])
    }

    @Test func aTotalsMismatchIsKeptAsAWarning() throws {
        let fixture = try LoaderFixture()
        let outcome = try fixture.loader().load(path: fixture.report("income_statement_totals_mismatch.xlsx"))
        #expect(outcome.warnings.count == 1)
        let stored = try fixture.store.database.scalar("SELECT warnings FROM loaded_artifacts")?.textValue ?? ""
        #expect(stored.contains("TOTAL EXPENSES") && stored.contains("36105.25"))
    }
}
