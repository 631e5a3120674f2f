import Foundation
@testable import Ledger
import Metrics
@testable import Render
import SQLiteKit
import Testing
import XLSXKit
import XMLKit
import ZipKit

/// A written workbook opened for checking: its values through OwnerDash's reader, its styles and comments as XML.
private struct WrittenWorkbook {
    let path: String
    let archive: ZipArchive
    let book: Workbook

    init(_ path: String) throws {
        self.path = path
        archive = try ZipArchive(path: path)
        book = try Workbook(path: path)
    }

    func rows(_ sheet: String) throws -> [SheetRow] {
        let source = try book.worksheet(named: sheet).rows()
        var rows: [SheetRow] = []
        while let row = try source.nextRow() { rows.append(row) }
        return rows
    }

    func xml(_ part: String) throws -> XMLElement {
        try #require(try XMLDocument(bytes: archive.contents(named: part)).root)
    }

    /// The solid fill color (`BFE5C8`) of a cell, nil when it has none.
    func fill(sheet number: Int, cell: String) throws -> String? {
        let sheet = try xml("xl/worksheets/sheet\(number).xml")
        let styles = try xml("xl/styles.xml")
        guard let c = sheet.descendants(named: "c").first(where: { $0.attribute("r") == cell }),
              let s = c.attribute("s").flatMap(Int.init) else { return nil }
        let xf = try #require(styles.child(named: "cellXfs")).children(named: "xf")[s]
        let fill = try #require(styles.child(named: "fills")).children(named: "fill")[Int(xf.attribute("fillId") ?? "0") ?? 0]
        return fill.descendants(named: "fgColor").first?.attribute("rgb").map { String($0.dropFirst(2)) }
    }

    /// Cell reference -> comment text of a sheet.
    func comments(sheet number: Int) throws -> [String: String] {
        var out: [String: String] = [:]
        for comment in try xml("xl/comments\(number).xml").descendants(named: "comment") {
            out[comment.attribute("ref") ?? ""] = comment.text
        }
        return out
    }
}

private final class Scratch {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-\(UUID().uuidString)")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

@Suite struct LeaseStatusWorkbookTests {
    @Test func theGridHasTheBadgeColorsAndACommentPerStatusCell() throws {
        let scratch = try Scratch()
        let path = scratch.path("lease-status.xlsx")
        try LeaseStatusWorkbook.write(LeaseStatusPageTests.report, generatedAt: "2026-11-22 14:00", to: path)
        let workbook = try WrittenWorkbook(path)
        #expect(workbook.book.sheetNames == ["yp_riverwalk", "No ledger"])

        let rows = try workbook.rows("yp_riverwalk")
        #expect(rows[0].cells == [.text("Lease payment status — yp_riverwalk")])
        #expect(rows[1][0] == .text("As of 2026-11-20 (past due = due before it) · months 2026-10 to 2026-11 · written 2026-11-22 14:00"))
        #expect(rows[2].cells == [.empty, .empty, .empty, .empty, .empty, .text("2026-10"), .empty, .text("2026-11")])
        #expect(rows[3].cells.map { if case .text(let t) = $0 { t } else { "" } }
                == ["Floor", "Unit", "Lease", "Tenants", "Household", "Rent", "Utilities", "Rent", "Utilities"])
        #expect(rows[4].cells == [.text("1"), .text("101"), .text("L1"), .text("Lee, Ann; Lee, Bo"), .text("current"),
                                  .text("PAID"), .empty, .text("OVERDUE"), .text("PENDING")])
        #expect(rows[5].cells.prefix(5) == [.text("2"), .text("201"), .text("t2"), .text("O'Neil <Kim> & Co"), .text("current")])
        #expect(rows[5].cells.dropFirst(5).allSatisfy { $0 == .empty }, "nothing billed: blank, not a status")

        // The same colors as the HTML badges, taken from the one place both use.
        #expect(try workbook.fill(sheet: 1, cell: "F5") == "BFE5C8")
        #expect(try workbook.fill(sheet: 1, cell: "H5") == "F4B5AD")
        #expect(try workbook.fill(sheet: 1, cell: "I5") == "F7E3A1", "PENDING is yellow")
        #expect(try workbook.fill(sheet: 1, cell: "G5") == nil)
        for status in PaymentStatus.allCases {
            let hex = String(status.badgeColor.dropFirst()).uppercased()
            #expect(LeaseStatusPage.style.contains("background: \(status.badgeColor)") && hex.count == 6)
        }

        let comments = try workbook.comments(sheet: 1)
        #expect(comments.count == 3, "one comment per status cell, none on blank cells")
        #expect(comments["H5"] == "Rent 2026-11: OVERDUE\nbilled $1,400.00\npaid $500.00\ndue 2026-11-01\nbalance $900.00")
        #expect(comments["I5"] == "Utilities 2026-11: PENDING\nbilled $40.50\npaid $0.00\ndue 2026-11-25\nbalance $40.50")
        _ = try workbook.xml("xl/drawings/vmlDrawing1.vml")

        let sheet = try workbook.xml("xl/worksheets/sheet1.xml")
        let pane = try #require(sheet.descendants(named: "pane").first)
        #expect(pane.attribute("ySplit") == "4" && pane.attribute("xSplit") == "5" && pane.attribute("state") == "frozen")
        #expect(sheet.descendants(named: "autoFilter").first?.attribute("ref") == "A4:I6")
        #expect(sheet.descendants(named: "mergeCell").map { $0.attribute("ref") } == ["F3:G3", "H3:I3"])

        let noLedger = try workbook.rows("No ledger")
        #expect(noLedger.last?.cells == [.text("nexus_east")])
    }

    /// A unit whose floor the PMS does not send: an empty Floor cell, and the reason under the title.
    @Test func aUnitWithoutAFloorIsExplainedUnderTheTitle() throws {
        var report = LeaseStatusPageTests.report
        report.lines[1].floor = nil
        report.floorNotes = ["yp_riverwalk": "Yardi sends no floor"]
        let scratch = try Scratch()
        let path = scratch.path("lease-status.xlsx")
        try LeaseStatusWorkbook.write(report, generatedAt: "2026-11-22 14:00", to: path)
        let rows = try WrittenWorkbook(path).rows("yp_riverwalk")
        #expect(rows[1][0] == .text("As of 2026-11-20 (past due = due before it) · months 2026-10 to 2026-11 · written 2026-11-22 14:00 · floor not known: Yardi sends no floor"))
        #expect(rows[5].cells.prefix(2) == [.empty, .text("201")])
    }
}

@Suite struct ReportWorkbookTests {
    static let result = MetricResult(
        metric: "rental-tracker",
        parameters: [.init("properties", .list(["yp"])), .init("as_of", .null), .init("min_months_behind", .integer(1))],
        tables: [
            MetricTable(name: "rows", title: "Residents behind on rent",
                        columns: [.init("unit", .text), .init("balance", .money), .init("months_behind", .count),
                                  .init("last_payment", .date), .init("occupancy", .percent), .init("psf", .decimal(2)),
                                  .init("period", .month)],
                        rows: [[.text("101"), .real(2340.5), .integer(2), .text("2026-11-05"), .real(95.35), .real(1.625), .text("2026-10")],
                               [.text("201"), .real(-12.25), .integer(0), .null, .null, .null, .text("2026-11")],
                               [.text("301"), .integer(7), .integer(1), .text("not a date"), .real(0), .real(0), .null]],
                        total: [.text("total"), .real(2335.25), .integer(3), .null, .null, .null, .null]),
            MetricTable(name: "paid", title: "What they paid since the first month missing",
                        columns: [.init("date", .date), .init("amount", .money)], rows: [[.text("2026-11-05"), .real(500)]]),
        ])

    @Test func aMetricResultIsAWorkbookInOneCallWithTypedCells() throws {
        let scratch = try Scratch()
        let path = scratch.path("tracker.xlsx")
        try ReportWorkbook.write(Self.result, to: path)
        let workbook = try WrittenWorkbook(path)
        // Titles that fit name the tabs; a long one falls back to the table's JSON name, in words.
        #expect(workbook.book.sheetNames == ["Residents behind on rent", "Paid"])
        let rows = try workbook.rows("Residents behind on rent")
        #expect(rows[0].cells == [.text("Residents behind on rent")])
        #expect(rows[1].cells == [.text("properties: yp · min months behind: 1")])
        #expect(rows[2].cells == ["Unit", "Balance", "Months behind", "Last payment", "Occupancy", "Per sq ft", "Period"].map { .text($0) })
        #expect(rows[3].cells == [.text("101"), .number(2340.5), .number(2), .date(ExcelDateTime(year: 2026, month: 11, day: 5)),
                                  .number(95.35), .number(1.625), .text("2026-10")])
        #expect(rows[4].cells == [.text("201"), .number(-12.25), .number(0), .empty, .empty, .empty, .text("2026-11")])
        // Text that is not a date stays text, never a zero or a blank.
        #expect(rows[5].cells == [.text("301"), .number(7), .number(1), .text("not a date"), .number(0), .number(0)])
        #expect(rows[6].cells == [.text("total"), .number(2335.25), .number(3)])
        let sheet = try workbook.xml("xl/worksheets/sheet1.xml")
        #expect(sheet.descendants(named: "autoFilter").first?.attribute("ref") == "A3:G6", "the total row is outside the filter")
        #expect(sheet.descendants(named: "pane").first?.attribute("ySplit") == "3")
        let formats = try workbook.xml("xl/styles.xml").descendants(named: "numFmt").compactMap { $0.attribute("formatCode") }
        #expect(Set(formats) == ["#,##0.00;(#,##0.00)", "yyyy-mm-dd", "0.00\"%\"", "0.00"])
        // On paper: landscape, one page wide, the title, parameters and header on every page, the report named at
        // the top; the balance total follows a filter (SUBTOTAL over the rows, the report's figure cached), the count
        // of residents under Months behind is not a sum of the column and stays a number.
        #expect(sheet.descendants(named: "pageSetup").first?.attribute("orientation") == "landscape")
        #expect(sheet.descendants(named: "pageSetup").first?.attribute("fitToHeight") == "0")
        let names = try workbook.xml("xl/workbook.xml").descendants(named: "definedName")
        #expect(names.contains { $0.attribute("name") == "_xlnm.Print_Titles" && $0.text == "'Residents behind on rent'!$1:$3" })
        #expect(sheet.descendants(named: "oddHeader").first?.text
                == "&LResidents behind on rent&Rproperties: yp · min months behind: 1")
        #expect(sheet.descendants(named: "oddFooter").first?.text == "&RPage &P of &N")
        let cells = sheet.descendants(named: "c")
        #expect(cells.first { $0.attribute("r") == "B7" }?.child(named: "f")?.text == "SUBTOTAL(9,B4:B6)")
        #expect(cells.first { $0.attribute("r") == "C7" }?.child(named: "f") == nil)
        #expect(try workbook.rows("Paid").last?.cells == [.date(ExcelDateTime(year: 2026, month: 11, day: 5)), .number(500)])
    }

    @Test func headersAndTabsReadAsWords() {
        let headers = ["gl_category", "pms_status", "move_ins_mtd", "exposure_30_pct", "balance_0_30", "balance_over_90",
                       "leads_30d", "resident_id", "pre_leased", "in_place_psf", "avg_sqft", "app_to_lease_pct",
                       "open_over_30d", "closed_3m"]
        #expect(headers.map(ColumnHeader.text) == [
            "GL category", "PMS status", "Move-ins MTD", "Exposure 30 %", "Balance 0-30", "Balance over 90",
            "Leads (30 days)", "Resident ID", "Pre-leased", "In-place per sq ft", "Average sq ft", "Application to lease %",
            "Open over 30 days", "Closed (3 months)"])
        func table(_ name: String, _ title: String) -> MetricTable {
            MetricTable(name: name, title: title, columns: [], rows: [])
        }
        #expect(ReportWorkbook.sheetName(table("rows", "Debtors (by person, largest total first)"), metric: "debtors") == "Debtors")
        #expect(ReportWorkbook.sheetName(table("rows", "Delinquency at the latest snapshot — portfolio, 30 properties"),
                                         metric: "delinquency") == "Delinquency")
        #expect(ReportWorkbook.sheetName(table("aged_open", "Open work orders older than the limit, oldest first by days open"),
                                         metric: "maintenance") == "Aged open")
    }

    /// Debtors are joined across their three tables by an internal person key (`email:...`) in JSON and CSV; a
    /// workbook, which people read, leaves that column out of every sheet.
    @Test func joinKeysAreLeftOutOfWorkbooks() throws {
        let unit = Debtors.UnitDebt(property: "yp", unit: "101", residentID: "t1", name: "Lee, Ann", status: "current",
                                    balanceCents: 94_000, months: [.init(period: "2026-11", dueDate: "2026-11-01", amountCents: 94_000)])
        let debtors = Debtors(people: [.init(key: "email:ann@example.com", name: "Lee, Ann", email: "ann@example.com",
                                             phone: nil, units: [unit], totalCents: 94_000)],
                              noLedger: [], asOf: ["yp": "2026-11-20"])
        let result = debtors.result(parameters: [.init("properties", .list(["yp"]))])
        #expect(result.tables[0].columns.first?.name == "debtor", "JSON and CSV keep the key")
        let scratch = try Scratch()
        let path = scratch.path("debtors.xlsx")
        try ReportWorkbook.write(result, to: path)
        let workbook = try WrittenWorkbook(path)
        #expect(workbook.book.sheetNames == ["Debtors", "Each unit's debt", "The months each debt covers"])
        let people = try workbook.rows("Debtors")
        #expect(people[2].cells == ["Name", "Email", "Phone", "Properties", "Units", "Months", "Total"].map { .text($0) })
        #expect(people[3].cells.first == .text("Lee, Ann"))
        for sheet in workbook.book.sheetNames {
            for row in try workbook.rows(sheet) {
                #expect(!row.cells.contains { if case .text(let text) = $0 { text.hasPrefix("email:") } else { false } }, "\(sheet)")
            }
        }
    }

    @Test func columnsAreFittedToWhatTheyShow() {
        let money = ReportWorkbook.fittedWidth(WorkbookColumn("balance", .money), values: [.real(1_234_567.5)], total: nil)
        #expect(money == Double("$1,234,567.50".count + 2))
        #expect(ReportWorkbook.fittedWidth(WorkbookColumn("x", .text), values: [SQLValue](), total: nil) == 6)
        #expect(ReportWorkbook.fittedWidth(WorkbookColumn("x", .text), values: [.text(String(repeating: "n", count: 99))], total: nil) == 60)
    }
}

@Suite struct RentalTrackerWorkbookTests {
    @Test func residentsAndTheirOpenChargesAndPaymentsAreTwoSheets() throws {
        let tracker = RentalTracker(
            residents: [.init(property: "yp", unit: "101", residentID: "t1", name: "Lee, Ann", status: "current",
                              balanceCents: 94_000, monthsMissing: ["2026-10", "2026-11"],
                              owed: [.init(dueDate: "2026-10-01", period: "2026-10", code: "water", amountCents: 4_000),
                                     .init(dueDate: "2026-11-01", period: "2026-11", code: "rent", amountCents: 90_000)],
                              paid: [.init(date: "2026-11-05", reference: "ACH 77", amountCents: 50_000, period: "2026-11", unit: "101")],
                              lastPayment: .init(date: "2026-11-05", reference: "ACH 77", amountCents: 50_000,
                                                 period: "2026-11", unit: "101"))],
            noLedger: [], asOf: ["yp": "2026-11-20"])
        let result = tracker.result(parameters: [.init("properties", .list(["yp"])), .init("as_of", .null)])
        let scratch = try Scratch()
        let path = scratch.path("tracker.xlsx")
        try RentalTrackerWorkbook.write(tracker, result: result, generatedAt: "2026-11-22 14:00", to: path)
        let workbook = try WrittenWorkbook(path)
        #expect(workbook.book.sheetNames == ["Residents", "Open charges and payments"])
        let residents = try workbook.rows("Residents")
        #expect(residents[1].cells == [.text("as of 2026-11-20 · properties: yp · written 2026-11-22 14:00")])
        #expect(residents[3].cells == [.text("yp"), .text("101"), .text("t1"), .text("Lee, Ann"), .text("current"), .empty,
                                       .empty, .number(940), .number(2), .text("2026-10 2026-11"), .date(ExcelDateTime(year: 2026, month: 11, day: 5)),
                                       .number(500)])
        // The count of residents stands under the names, not under Months behind (whose column it is not a sum of).
        #expect(residents[4].cells == [.text("total"), .empty, .empty, .text("1 resident"), .empty, .empty, .empty,
                                       .number(940)])
        let entries = try workbook.rows("Open charges and payments")
        #expect(entries.dropFirst(3).map(\.cells) == [
            [.text("yp"), .text("101"), .text("t1"), .text("Lee, Ann"), .text("owed"), .date(ExcelDateTime(year: 2026, month: 10, day: 1)),
             .text("2026-10"), .text("water"), .number(40)],
            [.text("yp"), .text("101"), .text("t1"), .text("Lee, Ann"), .text("owed"), .date(ExcelDateTime(year: 2026, month: 11, day: 1)),
             .text("2026-11"), .text("rent"), .number(900)],
            [.text("yp"), .text("101"), .text("t1"), .text("Lee, Ann"), .text("paid"), .date(ExcelDateTime(year: 2026, month: 11, day: 5)),
             .text("2026-11"), .text("ACH 77"), .number(500)],
        ])

        // yp's ledger brought forward by nightly windows since its last whole pull: named under the title, the rows
        // one line lower.
        var lagging = tracker
        lagging.ledgerWholeAsOf = ["yp": LedgerWholeAsOf(asOf: "2026-11-20", wholeAsOf: "2026-11-16")]
        let laggingPath = scratch.path("lagging.xlsx")
        try RentalTrackerWorkbook.write(lagging, result: lagging.result(parameters: result.parameters),
                                        generatedAt: "2026-11-22 14:00", to: laggingPath)
        let named = try WrittenWorkbook(laggingPath).rows("Residents")
        #expect(named[2].cells == [.text("Ledgers last pulled whole on an earlier night: yp (2026-11-16): "
                                         + LedgerWholeAsOf.consequence)])
        #expect(named[4].cells == residents[3].cells)
    }
}
