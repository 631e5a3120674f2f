import CFuzzDriver
import XLSXKit

/// libFuzzer entry point over the file readers as `sheet dump` and `load` meet them: the byte sniffer
/// (`SpreadsheetFile(bytes:)`: .xlsx, .xls, HTML, CSV), every sheet's merged ranges, every row and cell, and
/// the CSV text `sheet dump` writes of it. A thrown error is a correct answer; a trap or a sanitizer report is a finding.
enum FuzzSpreadsheet {
    static func run(_ bytes: [UInt8]) {
        guard let file = try? SpreadsheetFile(bytes: bytes) else { return }
        var csv = SheetCSV()
        for index in file.sheetNames.indices {
            guard let sheet = try? file.sheet(at: index) else { continue }
            _ = try? sheet.mergedRanges()
            guard var rows = try? sheet.rows() else { continue }
            // Bounded so one input cannot spend the whole run in a huge but valid sheet.
            var count = 0
            while count < 100_000, let row = try? rows.nextRow() {
                csv.append(row)
                for cell in row.cells { _ = SheetCSV.field(cell) }
                count += 1
                if csv.count > 1 << 20 { csv.removeAll() }
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpreadsheetOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzSpreadsheet.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// SwiftPM names an executable's entry point `<Target>_main` and makes it the process's `main`.
@_cdecl("FuzzSpreadsheet_main")
public func fuzzSpreadsheetMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzSpreadsheetOneInput)
}
