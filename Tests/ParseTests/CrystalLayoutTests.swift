import OwnerDashCore
@testable import Parse
import Testing
import XLSXKit

/// Crystal "page-image" exports: values drifting 1-3 columns off their header, headers repeated at page breaks.
@Suite struct CrystalLayoutTests {
    @Test func driftingValuesAndRepeatedPageHeadersGiveTheSameLeasesAsTheCleanLayout() throws {
        let clean = try parseFixture("lease_expiration_month_groups.xlsx")
        let drifted = try parseFixture("lease_expiration_drift.xlsx")
        #expect(drifted.metadata == clean.metadata)
        #expect(drifted.leases.count == clean.leases.count)
        // Equal but for the sheet rows they came from (the page-image layout has more rows).
        let withoutRows = { (rows: [LeaseExpirationRow]) in rows.map { row -> LeaseExpirationRow in
            var row = row; row.sourceRow = 0; return row } }
        #expect(withoutRows(drifted.leases) == withoutRows(clean.leases))
        // The group totals (`Total leases expiring in ...: N`, market and rent sums) still cross-check cleanly.
        #expect(drifted.summary.warnings == clean.summary.warnings)
        #expect(drifted.summary.warnings.isEmpty)
    }

    /// The Rent Roll of rent_roll_two_row_header in two vendor shapes (scripts/fixtures/make_report_fixtures.py):
    /// values drifting -1..+2 columns with Lease Start / Lease End and a lone Move-In stored as bare Excel serials
    /// (46362, a number a naive reading puts under Market + Addl.), and dd/mm/yyyy dates with the names hidden. The
    /// units, their market and lease rents, dates and balances are the clean layout's.
    @Test func driftingSerialsAndDayFirstDatesGiveTheSameUnitsAsTheCleanRentRoll() throws {
        let clean = try parseFixture("rent_roll_two_row_header.xlsx")
        let drifted = try parseFixture("rent_roll_drift_serials.xlsx")
        let dayFirst = try parseFixture("rent_roll_dmy.xlsx")
        #expect(dayFirst.metadata?.asOf == ymd("2026-02-08") && drifted.metadata?.asOf == ymd("2026-02-08"))
        let comparable = { (rows: [RentRollRow], names: Bool) in rows.map { row -> RentRollRow in
            var row = row; row.sourceRow = 0; if !names { row.residentName = nil }; return row } }
        #expect(comparable(drifted.rentRolls, true) == comparable(clean.rentRolls, true))
        #expect(comparable(dayFirst.rentRolls, false) == comparable(clean.rentRolls, false))
        // 1103 moved in 18/04/2023 and leaves 15/03/2026; 1101's lease ends 05/12/2026 (5 December, not 12 May).
        #expect(dayFirst.rentRolls[2].moveInDate == ymd("2023-04-18") && dayFirst.rentRolls[0].leaseEnd == ymd("2026-12-05"))
        #expect(dayFirst.rentRolls.allSatisfy { $0.residentName == nil }, "HidePIIData: no name is made up")
        #expect(drifted.rentRolls.compactMap(\.marketRent).reduce(.zero, +) == usd(14061))
        #expect(drifted.summary.warnings.isEmpty && dayFirst.summary.warnings.isEmpty, "the Totals: row agrees")
    }

    /// Delinquent and Prepaid with drifting values, the legend's markers (\u{2020} \u{2021} \u{00a7}) in cells of their
    /// own beside amounts, no names (HidePIIData) and dd/mm/yyyy move-in dates: the same accounts and amounts as the
    /// clean report, one account per printed account (the markers are no amounts).
    @Test func markersHiddenNamesAndDriftLeaveTheDelinquentAccountsAsPrinted() throws {
        let clean = try parseFixture("delinquent_prepaid_per_code.xlsx")
        let marked = try parseFixture("delinquent_prepaid_marked_hidden.xlsx")
        #expect(marked.metadata?.asOf == ymd("2026-01-29"))
        #expect(marked.delinquencies.map(\.unitNumber) == clean.delinquencies.map(\.unitNumber))
        #expect(marked.delinquencies.map(\.currentBalance) == clean.delinquencies.map(\.currentBalance))
        #expect(marked.delinquencies.map(\.prepaid) == clean.delinquencies.map(\.prepaid))
        #expect(marked.delinquencies.map(\.balanceOver90) == clean.delinquencies.map(\.balanceOver90))
        #expect(marked.delinquencies.map(\.balance31to60) == clean.delinquencies.map(\.balance31to60))
        #expect(marked.delinquencies.allSatisfy { $0.residentName == nil })
        #expect(marked.summary.warnings.isEmpty, "\(marked.summary.warnings)")
    }

    static let header = HeaderLayout(report: .leaseExpiration, name: "test", columns: [
        ColumnSpec("Unit", .text, required: true), ColumnSpec("Market Rent", .money, required: true),
        ColumnSpec("Lease Rent", .money, required: true),
    ])

    static func map(_ cells: [CellValue]) throws -> HeaderMap {
        guard case .found(let map, _, _) = HeaderFinder.find([header], in: [SheetRow(number: 1, cells: cells)], merges: [])
        else { throw ReportParseError(.noHeaderRow, report: nil, sheet: "t", detail: "no header") }
        return map
    }

    @Test func aValueIsMovedToTheNearestFreeHeaderInOrderAndNeverPastMaxDrift() throws {
        // Headers at columns 1, 5 (unknown to the layout: "Notes"), 9 and 13.
        let map = try Self.map([.empty, .text("Unit"), .empty, .empty, .empty, .text("Notes"), .empty, .empty, .empty,
                                .text("Market Rent"), .empty, .empty, .empty, .text("Lease Rent")])
        func row(_ cells: [Int: CellValue]) -> SheetRow {
            var values = Array(repeating: CellValue.empty, count: (cells.keys.max() ?? 0) + 1)
            for (column, value) in cells { values[column] = value }
            return SheetRow(number: 9, cells: values)
        }
        // Every value under its header: returned as it is.
        let placed = row([1: .text("101"), 9: .number(1450), 13: .number(1400)])
        #expect(map.aligned(placed) == placed)
        // Market drifted left by 1 and lease rent right by 2: moved back under their headers.
        let drifted = map.aligned(row([2: .text("101"), 8: .number(1450), 15: .number(1400)]))
        #expect(map.cell("Unit", in: drifted) == .text("101"))
        #expect(map.cell("Market Rent", in: drifted) == .number(1450))
        #expect(map.cell("Lease Rent", in: drifted) == .number(1400))
        // A value between two headers goes to the one its order allows: here Notes is taken, so market stays market.
        let crowded = map.aligned(row([1: .text("101"), 6: .text("note"), 11: .number(1450), 13: .number(1400)]))
        #expect(map.cell("Market Rent", in: crowded) == .number(1450))
        #expect(map.cell("Lease Rent", in: crowded) == .number(1400))
        // A marker in a cell of its own is never taken for a value; a value 4 columns off is left alone.
        let marked = map.aligned(row([1: .text("101"), 10: .text("*"), 17: .number(1400)]))
        #expect(map.cell("Market Rent", in: marked) == .empty)
        #expect(map.cell("Lease Rent", in: marked) == .empty)
        #expect(marked[17] == .number(1400))
    }

    /// Found while fuzzing the parsers' inputs: a drifted row of thousands of values under a header as wide once
    /// made the alignment table values x headers (16,000 each: 2 GB). Past a million cells the row is left as it is.
    @Test func aRowTooWideToAlignIsLeftAsItIs() throws {
        // Unit, Market Rent and Lease Rent at columns 0, 4 and 8, then 1,500 more header columns from 12 on.
        var header = Array(repeating: CellValue.empty, count: 12)
        (header[0], header[4], header[8]) = (.text("Unit"), .text("Market Rent"), .text("Lease Rent"))
        for column in 12..<1_512 { header.append(.text("Note \(column)")) }
        let map = try Self.map(header)
        // A value in every column, most of them off their header: 1,512 x 1,503 is past the bound.
        let wide = SheetRow(number: 9, cells: (0..<1_512).map { .number(Double($0)) })
        #expect(map.aligned(wide) == wide)
        // The same kind of drift over a report's width is still moved back.
        let narrow = SheetRow(number: 9, cells: [.empty, .text("101"), .empty, .empty, .empty, .number(1450), .empty, .empty,
                                                 .empty, .number(1400)])
        let aligned = map.aligned(narrow)
        #expect(map.cell("Unit", in: aligned) == .text("101"))
        #expect(map.cell("Market Rent", in: aligned) == .number(1450))
        #expect(map.cell("Lease Rent", in: aligned) == .number(1400))
    }
}
