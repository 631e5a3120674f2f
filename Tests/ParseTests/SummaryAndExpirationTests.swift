import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

@Suite("Monthly Activity Summary")
struct MonthlySummaryParserTests {
    func sheet(withDetail: Bool = true, asOf: String = "As of 01/31/2026") -> SheetBuilder {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "MONTHLY ACTIVITY SUMMARY", code: "mgt-542-001", asOf: asOf)
        sheet.add(nil, "Total", "Total", "Occupied", "Vacant", "Vacant", "Vacant Admini-")
        sheet.add("Floor plan", "Base Rent", "Units", "no NTV", "Not Leased", "Leased", "strative")
        sheet.add("A1", "135,576.00", 96, 84, 3, 2, 1)
        sheet.add("B1", "162,866.00", 88, 80, 2, 2, 0)
        sheet.add("Totals", nil, 184, 164, 5, 4, 1)
        sheet.skip()
        sheet.add("Accounting Activity")
        sheet.add("Floor plan", "Move-\nins", "Move-\nouts", "Renewals", "Rent\nCharged")
        sheet.add("A1", 5, 4, 6, "128,411.25")
        sheet.add("B1", 4, 3, 3, "155,463.00")
        sheet.add("Totals", 9, 7, 9)
        guard withDetail else { return sheet }
        sheet.skip()
        sheet.add("OneSite Rents v3.0", nil, nil, nil, "Page 2 of 2")
        sheet.add("Kairoi Residential - Nexus East")
        sheet.add("Leasing Activity Detail")
        sheet.add("Unit", "Status", "Name", "Action", "Date")
        sheet.add("1101", "Current resident", "Adams, Kay", "Moved In", "01/02/2026")
        sheet.add("Total Moved In: 1")
        sheet.add("1103", "Notice", "Nguyen, Bao", "Move Out Notice", "01/10/2026")
        sheet.add("2102", "Notice", "Brown, Sam", "Move Out Notice", 46035.0)
        sheet.add("Total Move Out Notice: 2")
        sheet.add("1203", "Current resident", "Smith, Jordan", "Renewed Lease", "01/20/2026")
        sheet.add("Total Renewed Lease: 1")
        return sheet
    }

    @Test("one row for the month: moves and renewals from the Accounting Totals, notices from the detail")
    func summary() throws {
        let result = try parse(.monthlySummary, sheet())
        let row = try #require(result.summaries.first)
        #expect(result.summaries.count == 1)
        #expect(row.month == "2026-01")
        #expect(row.moveIns == 9 && row.moveOuts == 7 && row.renewals == 9)
        #expect(row.notices == 2)
        #expect(row.evictions == nil && row.skips == nil, "OneSite reports neither; nil, not a made-up 0")
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("without the detail section notices are unknown (nil)")
    func noDetail() throws {
        let row = try #require(try parse(.monthlySummary, sheet(withDetail: false)).summaries.first)
        #expect(row.notices == nil && row.moveIns == 9)
    }

    @Test("without an As of date the run timestamp dates the month; with no date printed at all: an error")
    func missingAsOf() throws {
        let row = try #require(try parse(.monthlySummary, sheet(asOf: "Subtotals by: Floorplan Name")).summaries.first)
        #expect(row.month == "2026-02")
        // The same sheet without the run timestamp beside the property.
        var bare = SheetBuilder()
        for row in sheet(asOf: "Subtotals by: Floorplan Name").rows {
            while bare.next < row.number { bare.skip() }
            bare.addRow(row.number == 2 ? ["Kairoi Residential - Nexus East"] : row.cells.map { $0 as Any? })
        }
        #expect(parseError(.monthlySummary, bare)?.kind == .missingAsOf)
    }
}

@Suite("Lease Expiration")
struct LeaseExpirationParserTests {
    func sheet(februaryTotal: Int = 2, decision: Bool = false) -> SheetBuilder {
        var sheet = SheetBuilder()
        addTitle(&sheet, title: "LEASE EXPIRATION DETAIL", code: "rpt-001-702")
        var top: [Any?] = ["Bldg/", "Name", "Term", "Lease", "Do Not", "Market", "Lease"]
        var bottom: [Any?] = ["Unit", "Phone/email", nil, "End", "Renew", "+ Addl.", "Rent"]
        if decision { top.append("Decision"); bottom.append(nil) }
        sheet.addRow(top)
        sheet.addRow(bottom)
        sheet.add("MTM")
        sheet.add("1105", "Hall, Ray", "MTM", "11/30/2025", nil, 1450.0, "1,525.00", decision ? "Unknown" : nil)
        sheet.add(nil, "(512) 555-0150")
        sheet.add("Total MTM/Expired leases: 1")
        sheet.add("February 2026")
        sheet.add("1101", "Garcia, Ana", 12, "02/28/2026", nil, 1450.0, "1,400.00", decision ? "Renewed" : nil)
        sheet.add("1103", "Nguyen, Bao", 12, "02/14/2026", "c", 1535.5, "1,498.00", decision ? "Vacating" : nil)
        sheet.add("Total leases expiring in February 2026: \(februaryTotal)", nil, nil, nil, nil, 2985.5, "2,898.00")
        sheet.add("Total leases: 3")
        return sheet
    }

    @Test("every lease of every month group; Do Not Renew mark; group totals checked")
    func leases() throws {
        let result = try parse(.leaseExpiration, sheet())
        #expect(result.leases.map(\.unitNumber) == ["1105", "1101", "1103"])
        #expect(result.leases[0].leaseEnd == ymd("2025-11-30") && result.leases[0].currentRent == usd(1525))
        #expect(result.leases[1].marketRent == usd(1450) && result.leases[1].residentName == "Garcia, Ana")
        #expect(result.leases.map(\.renewalStatus) == [nil, nil, "Do Not Renew"])
        #expect(result.summary.warnings.isEmpty)
    }

    @Test("a Decision column gives the renewal status")
    func decision() throws {
        let result = try parse(.leaseExpiration, sheet(decision: true))
        #expect(result.leases.map(\.renewalStatus) == ["Unknown", "Renewed", "Vacating"])
    }

    @Test("a month total that disagrees with its rows is a warning")
    func countMismatch() throws {
        #expect(try parse(.leaseExpiration, sheet(februaryTotal: 7)).summary.warnings
            == ["lease expiration: data rows sum to 2 leases but \"Total leases expiring in February 2026: 7\" (row 17) says 7"])
    }
}

@Suite("Streaming")
struct StreamingTests {
    /// Generates a rent roll lazily and remembers how many rows were pulled when the first record reached the sink.
    struct GeneratedRentRoll: SheetRowSource {
        let units: Int
        var produced = 0
        mutating func nextRow() throws -> SheetRow? {
            defer { produced += 1 }
            switch produced {
            case 0: return SheetRow(number: 1, cells: [.text("RENT ROLL DETAIL")])
            case 1: return SheetRow(number: 2, cells: [.text("Kairoi Residential - Nexus East")])
            case 2: return SheetRow(number: 3, cells: ["Unit", "Unit/Lease Status", "Market Rent", "Lease Rent",
                                                        "Balance"].map(CellValue.text))
            case let index where index - 3 < units:
                let unit = index - 3
                return SheetRow(number: index + 1, cells: [.text(String(10_000 + unit)), .text("Occupied no NTV"),
                                                           .number(1450), .text("1,400.00"), .text("$12.50")])
            default: return nil
            }
        }
    }

    /// Counts records and balances without keeping them; notes how far the source had been read at the first one.
    struct CountingSink: ReportSink {
        var count = 0
        var balance = Money.zero
        var began = false
        var rowsPulledAtFirstRecord: Int?
        let pulled: () -> Int
        mutating func begin(_ metadata: ReportMetadata) throws { began = true }
        mutating func emit(_ record: ReportRecord) throws {
            if count == 0 { rowsPulledAtFirstRecord = pulled() }
            count += 1
            if case .rentRoll(let row) = record { balance += row.balance ?? .zero }
        }
    }

    @Test("100,000 units stream through: every record arrives, the first long before the sheet ends")
    func manyRows() throws {
        final class Probe: @unchecked Sendable { var source = GeneratedRentRoll(units: 100_000) }
        let probe = Probe()
        var source = ProbeSource(probe: probe)
        var sink = CountingSink(pulled: { probe.source.produced })
        let summary = try RealPageReports.parse(nil, rows: &source, merges: [], sheetName: "Report", sink: &sink)
        #expect(sink.began)
        #expect(sink.count == 100_000 && summary.recordCount == 100_000)
        #expect(sink.balance == Money(cents: 100_000 * 1250))
        #expect((sink.rowsPulledAtFirstRecord ?? .max) <= RealPageReports.headerSearchRows + 2)

        struct ProbeSource: SheetRowSource {
            let probe: Probe
            mutating func nextRow() throws -> SheetRow? { try probe.source.nextRow() }
        }
    }
}
