import Foundation
import Glibc
import XLSXKit

// Writes a debtors-shaped workbook of N rows (text, a date, six amounts, a count, a commented status cell every 50
// rows) through `XLSXWriter`, and prints rows, seconds, output bytes and peak RSS as one line of JSON. Built only by
// scripts/bench/xlsx_write.sh (OWNERDASH_BENCH=1), which runs it against two revisions of the writer side by side.

let arguments = CommandLine.arguments
guard arguments.count == 3, let rows = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: WorkbookWriteBench OUT.xlsx ROWS\n".utf8))
    exit(2)
}
let path = arguments[1]

func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

let start = now()
do {
    let writer = try XLSXWriter(path: path)
    let columns = ["Property", "Unit", "Resident", "Since", "Current", "31-60", "61-90", "Over 90", "Prepaid",
                   "Balance", "Months", "Status"]
    try writer.startSheet("Debtors", layout: SheetLayout(columnWidths: columns.map { _ in 14 }, frozenRows: 3,
                                                         autoFilterRow: 3, landscape: true))
    try writer.appendRow([.text("Debtors", look: CellLook(bold: true))], height: 20)
    try writer.appendRow([.text("benchmark workbook")])
    try writer.appendRow(columns.map { .text($0, look: .header) })
    for row in 0..<rows {
        let cents = Int64(row % 9_973) * 137 + 5
        var cells: [WorkbookCell] = [
            .text("Property \(row % 30)"), .text(String(100 + row % 900)), .text("Resident \(row) Example"),
            WorkbookCell(.date(ExcelDateTime(year: 2020 + row % 6, month: 1 + row % 12, day: 1 + row % 28))),
        ]
        for shift in 0..<6 { cells.append(WorkbookCell(.money(cents: cents * Int64(shift + 1) - 999))) }
        cells.append(WorkbookCell(.number(Double(row % 7)), look: CellLook(format: .count)))
        cells.append(WorkbookCell(.text(row % 3 == 0 ? "OVERDUE" : "PAID"),
                                  look: CellLook(bold: true, fill: RGBColor(row % 3 == 0 ? "F4C7C3" : "BFE5C8"),
                                                 border: true),
                                  comment: row % 50 == 0 ? "billed 1,200.00\npaid 0.00" : nil))
        try writer.appendRow(cells)
    }
    try writer.closeAutoFilter()
    try writer.finish()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
let seconds = now() - start
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
print("{\"rows\": \(rows), \"seconds\": \(String(format: "%.3f", seconds)), \"bytes\": \(bytes ?? 0), "
      + "\"peak_rss_mb\": \(String(format: "%.1f", Double(usage.ru_maxrss) / 1024))}")
