import Foundation
import OwnerDashCore
import Parse
import SQLiteKit
import Testing
@testable import RawStore

@Suite("Report tables declared by descriptors")
struct DescriptorTablesTests {
    @Test("Every descriptor table exists after migration with lineage and exactly its declared columns")
    func tablesMatchDeclarations() throws {
        let fixture = try LoaderFixture()
        let declared = ReportCatalog.all.flatMap { [$0.table] + $0.childTables }.filter { $0.since != nil }
        #expect(!declared.isEmpty)
        for table in declared {
            let columns = try fixture.store.database.query("SELECT name, type, \"notnull\" FROM pragma_table_info(:table)",
                                                           [":table": .text(table.name)])
            let names = columns.compactMap { $0[0].textValue }
            #expect(names == ["id", "lineage_id", "property_id", "as_of_date", "source_row"]
                        + table.columns.map(\.name), "\(table.name)")
            for column in table.columns {
                let row = columns.first { $0[0].textValue == column.name }
                #expect(row?[1].textValue == column.kind.sqlType, "\(table.name).\(column.name)")
                #expect(row?[2].integerValue == (column.isKey ? 1 : 0), "\(table.name).\(column.name) NOT NULL")
            }
        }
    }

    @Test("A Lease Summary loads with its lineage, and loading it again changes nothing")
    func leaseSummaryLoads() throws {
        let fixture = try LoaderFixture()
        let path = LoaderFixture.repository.appendingPathComponent("Tests/Fixtures/real-onesite/Lease_Summary_Report.xls").path
        let outcome = try fixture.loader().load(path: path)
        #expect(outcome.report == .leaseSummary && outcome.propertyKey == "ridian" && outcome.asOf.iso == "2026-01-28",
                "January, created 01/28: as of its run")
        #expect(outcome.rows == 1 && outcome.warnings.isEmpty && outcome.notes.isEmpty)
        let row = try fixture.store.database.query("""
            SELECT property_id, as_of_date, artifact, source_row, guest_cards, total_leases FROM v_realpage_lease_summary
            """)
        #expect(row == [[.text("ridian"), .text("2026-01-28"), .text(path), .integer(19), .integer(38), .integer(5)]])
        #expect(try fixture.loader(run: "run-2").load(path: path).alreadyLoaded)
        #expect(try fixture.count("realpage_lease_summary") == 1)
    }

    @Test("An empty Concessions download is recorded as a snapshot of 0 rows with a note")
    func emptyReportIsRecorded() throws {
        let fixture = try LoaderFixture()
        let path = LoaderFixture.repository.appendingPathComponent("Tests/Fixtures/real-onesite/concessions_3889.xlsx").path
        let outcome = try fixture.loader().load(path: path)
        #expect(outcome.report == .concessions && outcome.propertyKey == "ridian" && outcome.rows == 0)
        #expect(outcome.notes.count == 1 && outcome.notes[0].contains("No results were returned"))
        let recorded = try fixture.store.database.query(
            "SELECT report_type, property_id, as_of_date, row_count FROM loaded_artifacts")
        #expect(recorded == [[.text("concessions"), .text("ridian"), .text("2026-02-18"), .integer(0)]])
    }
}
