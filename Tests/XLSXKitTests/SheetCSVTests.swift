import Testing
@testable import XLSXKit

/// The `xlsx dump` CSV rules, each exactly as a user reads them.
@Suite struct SheetCSVTests {
    @Test(arguments: [
        (1.0, "1"), (-4.0, "-4"), (0.0, "0"), (-0.0, "0"), (2.5, "2.5"), (1234.56, "1234.56"), (-0.05, "-0.05"),
        (100.10, "100.1"), (1234.567, "1234.567"), (0.1 + 0.2, "0.30000000000000004"), (1e15, "1000000000000000"),
        (1e16, "10000000000000000"), (9007199254740993.0, "9007199254740992"), (1e20, "100000000000000000000"),
        (1.2345678901234568e+20, "123456789012345680000"), (1e21, "1e+21"), (1.5e300, "1.5e+300"),
        (0.000001, "0.000001"), (0.0000015, "0.0000015"), (1e-7, "1e-7"), (-2.5e-10, "-2.5e-10"), (45292.75, "45292.75"),
        (1.0 / 3.0, "0.3333333333333333"),
    ])
    func numbersInShortestRoundTripForm(value: Double, text: String) {
        #expect(SheetCSV.field(.number(value)) == text)
    }

    @Test func datesBooleansErrorsAndEmpties() {
        #expect(SheetCSV.field(date(2024, 1, 5)) == "2024-01-05")
        #expect(SheetCSV.field(date(2024, 1, 5, 13, 4, 9)) == "2024-01-05T13:04:09")
        #expect(SheetCSV.field(date(900, 3, 1)) == "0900-03-01")
        #expect(SheetCSV.field(.bool(true)) == "TRUE")
        #expect(SheetCSV.field(.bool(false)) == "FALSE")
        #expect(SheetCSV.field(.error("#DIV/0!")) == "#DIV/0!")
        #expect(SheetCSV.field(.empty) == "")
        #expect(SheetCSV.line([.text("a"), .empty, .number(3), .empty]) == "a,,3,")
    }

    @Test func rfc4180Quoting() {
        #expect(SheetCSV.field(.text("plain text")) == "plain text")
        #expect(SheetCSV.field(.text("Smith, John")) == "\"Smith, John\"")
        #expect(SheetCSV.field(.text("say \"hi\"")) == "\"say \"\"hi\"\"\"")
        #expect(SheetCSV.field(.text("two\nlines")) == "\"two\nlines\"")
        #expect(SheetCSV.field(.text("carriage\rreturn")) == "\"carriage\rreturn\"")
        #expect(SheetCSV.field(.text("")) == "")
        #expect(SheetCSV.field(.text("café 日本")) == "café 日本")
        #expect(SheetCSV.field(.error("#N/A, really")) == "\"#N/A, really\"")
    }

    @Test func lineNumberEqualsSheetRow() throws {
        var rows = InMemoryRows([
            SheetRow(number: 2, cells: [.text("Unit"), .text("Rent")]),
            SheetRow(number: 3, cells: [.text("101"), .number(1500)]),
            SheetRow(number: 6, cells: [.empty, .number(1450.5)]),
        ])
        var out: [UInt8] = []
        try SheetCSV.write(&rows) { out += $0 }
        #expect(String(decoding: out, as: UTF8.self) == "\nUnit,Rent\n101,1500\n\n\n,1450.5\n")
    }

    @Test func aWholeSheetAsCSV() throws {
        var rows = try Workbook(path: fixture("merged_header.xlsx")).worksheet(at: 0).rows()
        var out: [UInt8] = []
        try SheetCSV.write(&rows) { out += $0 }
        #expect(String(decoding: out, as: UTF8.self) == "Unit,Rent,,Status\n,Market,Lease\n101,1500,1450.5,Occupied\n")
    }

    @Test func theBufferIsReusedAfterRemoveAll() {
        var csv = SheetCSV()
        csv.append(SheetRow(number: 1, cells: [.number(1)]))
        #expect(csv.count == 2)
        csv.removeAll()
        csv.append(SheetRow(number: 2, cells: [.number(2)]))
        #expect(csv.withUnsafeBytes { Array($0) } == Array("2\n".utf8))
    }
}
